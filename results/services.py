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
from rules.services import card_info
from tournaments.models import Player, Tournament
from tournaments.permissions import require_organizer

from .archetypes import Label, parse_setnames, setcode_label
from .models import DeckArchetype
from .rules_engine import RuleBook, classify, load_rulebook, merge


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


def rulebook_for(game_slug: str) -> RuleBook | None:
    """The game's archetype rules: every ``<game>.toml`` of the shipped and the store's directories."""
    dirs = [
        Path(__file__).resolve().parent / "archetypes",
        *map(Path, getattr(settings, "DECKHALL_ARCHETYPE_DIRS", [])),
    ]
    books = [load_rulebook(path.read_text(encoding="utf-8"), str(path))
             for d in dirs if (path := d / f"{game_slug}.toml").is_file()]  # fmt: skip
    return merge(books) if books else None


def _rule_labels(decks: list[tuple[int, Any]], book: RuleBook) -> dict[int, Label | None]:
    ids = {
        line.get("card_id")
        for _pk, d in decks
        for lines in (d or {}).get("sections", {}).values()
        for line in lines
    }
    infos = {card.pk: card_info(card) for card in Card.objects.filter(pk__in=ids)}
    out: dict[int, Label | None] = {}
    for pk, deck in decks:
        lines = [(infos[line["card_id"]], int(line.get("count", 0)), "side" if slug == "side" else "main")
                 for slug, section in (deck or {}).get("sections", {}).items() for line in section
                 if line.get("card_id") in infos]  # fmt: skip
        out[pk] = classify(book, lines)
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
    labels = label_decks(todo, setcodes, names) if names else dict.fromkeys((pk for pk, _d in todo), None)
    sources = dict.fromkeys(labels, DeckArchetype.Source.SETCODE)
    book = rulebook_for(tournament.game.slug)
    if book is not None:
        # The rule file first: a store's rule wins over the set codes; the set codes label what it leaves.
        for pk, label in _rule_labels(todo, book).items():
            if label is not None:
                labels[pk] = label
                sources[pk] = (
                    DeckArchetype.Source.OVERLAP
                    if label.rule.startswith("overlap")
                    else DeckArchetype.Source.RULE
                )
    rows = []
    for pk, _deck in todo:
        label = labels[pk]
        rows.append(DeckArchetype(
            player_id=pk,
            name=label.name if label else "",
            rule=label.rule if label else "",
            source=sources[pk] if label and label.name else DeckArchetype.Source.NONE,
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
