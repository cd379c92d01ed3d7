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
    players: list[Player], setcodes: dict[int, list[int]], names: dict[int, str]
) -> dict[int, Label | None]:
    """Player id → label (pure over loaded rows: the bench times this for 2,000 players)."""
    out: dict[int, Label | None] = {}
    for player in players:
        main = (player.deck or {}).get("sections", {}).get("main", [])
        lines = ((setcodes.get(line.get("card_id"), ()), int(line.get("count", 0))) for line in main)
        out[player.pk] = setcode_label(lines, names)
    return out


@transaction.atomic
def archetypes_classify(*, tournament: Tournament) -> dict[int, DeckArchetype]:
    """Label every registered deck of the event that a human has not labelled; kept per player."""
    players = [p for p in tournament.players.filter(deck__isnull=False).order_by("pk")]
    kept = {a.player_id: a for a in DeckArchetype.objects.filter(player__tournament=tournament)}
    todo = [p for p in players if not (p.pk in kept and kept[p.pk].source == DeckArchetype.Source.HUMAN)]
    names = ygo_setnames() if tournament.game.slug == "yugioh" else {}
    card_ids = {
        line.get("card_id") for p in todo for line in (p.deck or {}).get("sections", {}).get("main", [])
    }
    setcodes = {
        pk: attrs.get("setcode") or []
        for pk, attrs in Card.objects.filter(pk__in=card_ids).values_list("pk", "attributes")
    }
    labels = label_decks(todo, setcodes, names)
    rows = []
    for player in todo:
        label = labels[player.pk]
        rows.append(DeckArchetype(
            player=player,
            name=label.name if label else "",
            rule=label.rule if label else "",
            source=DeckArchetype.Source.SETCODE if label and label.name else DeckArchetype.Source.NONE,
            candidates=list(label.candidates) if label else [],
        ))  # fmt: skip
    DeckArchetype.objects.filter(player__in=todo).delete()
    DeckArchetype.objects.bulk_create(rows)
    return {a.player_id: a for a in DeckArchetype.objects.filter(player__tournament=tournament)}


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
