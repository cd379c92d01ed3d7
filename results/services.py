"""Writes: labelling a tournament's decks (set codes), an organizer's label (wins over every rule)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from cards.models import Card
from tournaments.models import Player, Tournament
from tournaments.permissions import require_organizer

from .archetypes import Label, parse_setnames, setcode_label
from .models import DeckArchetype


@lru_cache(maxsize=4)
def ygo_setnames(path: str = "") -> dict[int, str]:
    """YGOPro's archetype names (strings.conf ``!setname``); {} when the community file is absent."""
    conf = Path(path or Path(settings.SHARED_DATA_DIR) / "ygo" / "strings.conf")
    return parse_setnames(conf.read_text(encoding="utf-8", errors="replace")) if conf.is_file() else {}


def label_decks(
    decks: list[tuple[int, Any]], setcodes: dict[int, list[int]], names: dict[int, str]
) -> dict[int, Label | None]:
    """(player id, deck snapshot) → label (pure over loaded rows: the bench times this for 2,000 players)."""
    out: dict[int, Label | None] = {}
    for pk, deck in decks:
        main = (deck or {}).get("sections", {}).get("main", [])
        lines = ((setcodes.get(line.get("card_id"), ()), int(line.get("count", 0))) for line in main)
        out[pk] = setcode_label(lines, names)
    return out


@transaction.atomic
def archetypes_classify(*, tournament: Tournament) -> dict[int, DeckArchetype]:
    """Label every registered deck of the event that a human has not labelled; kept per player."""
    # Rows, not model instances: 2,000 Player objects with their deck JSON cost seconds, the rows 0.2 s.
    decks = list(tournament.players.filter(deck__isnull=False).order_by("pk").values_list("pk", "deck"))
    kept = {a.player_id: a for a in DeckArchetype.objects.filter(player__tournament=tournament)}
    human = {pk for pk, a in kept.items() if a.source == DeckArchetype.Source.HUMAN}
    todo = [(pk, deck) for pk, deck in decks if pk not in human]
    names = ygo_setnames() if tournament.game.slug == "yugioh" else {}
    card_ids = {
        line.get("card_id") for _pk, d in todo for line in (d or {}).get("sections", {}).get("main", [])
    }
    setcodes = {
        pk: attrs.get("setcode") or []
        for pk, attrs in Card.objects.filter(pk__in=card_ids).values_list("pk", "attributes")
    }
    labels = label_decks(todo, setcodes, names)
    rows = []
    for pk, _deck in todo:
        label = labels[pk]
        rows.append(DeckArchetype(
            player_id=pk,
            name=label.name if label else "",
            rule=label.rule if label else "",
            source=DeckArchetype.Source.SETCODE if label and label.name else DeckArchetype.Source.NONE,
            candidates=list(label.candidates) if label else [],
        ))  # fmt: skip
    DeckArchetype.objects.filter(player__tournament=tournament).exclude(
        source=DeckArchetype.Source.HUMAN
    ).delete()
    DeckArchetype.objects.bulk_create(rows, batch_size=500)
    return {**{a.player_id: a for a in rows}, **{pk: kept[pk] for pk in human}}


def archetypes_of(tournament: Tournament) -> dict[int, DeckArchetype]:
    """The stored labels, classifying the decks not labelled yet (a deck registered since) first."""
    stored = {a.player_id: a for a in DeckArchetype.objects.filter(player__tournament=tournament)}
    if tournament.players.filter(deck__isnull=False).exclude(pk__in=stored.keys()).exists():
        return archetypes_classify(tournament=tournament)
    return stored


@transaction.atomic
def archetype_set(*, player: Player, by: Any, name: str) -> DeckArchetype:
    """An organizer's label: wins over every rule and is kept when the event is classified again."""
    require_organizer(player.tournament, by)
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise ValidationError({"name": _("Give the archetype a name of 1 to 120 characters.")})
    label, _created = DeckArchetype.objects.update_or_create(
        player=player,
        defaults={"name": name, "rule": _("labelled by %(user)s") % {"user": by.get_username()},
                  "source": DeckArchetype.Source.HUMAN, "candidates": [], "decided_by": by},
    )  # fmt: skip
    return label
