"""Writes: labelling a tournament's decks (set codes), an organizer's label (wins over every rule)."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from cards.models import Card
from games.registry import default_registry
from games.schema import ArchetypeFamiliesTable, ArchetypeFile, RuleSetFile
from rules.services import card_info
from tournaments.models import Player, Tournament
from tournaments.permissions import require_organizer

from .archetypes import Label, parse_setnames, setcode_label
from .models import DeckArchetype
from .rules_engine import Classifier, RuleBook, compile_book, parse_file

ARCHETYPE_KEYS = tuple(k for k in RuleSetFile.model_fields if k in ArchetypeFile.model_fields)


@lru_cache(maxsize=4)
def ygo_setnames(path: str = "") -> dict[int, str]:
    """YGOPro's archetype names (strings.conf ``!setname``); {} when the community file is absent."""
    conf = Path(path or Path(settings.SHARED_DATA_DIR) / "ygo" / "strings.conf")
    return parse_setnames(conf.read_text(encoding="utf-8", errors="replace")) if conf.is_file() else {}


def label_decks(
    decks: list[tuple[int, Any]],
    setcodes: dict[int, list[int]],
    names: dict[int, str],
    families: ArchetypeFamiliesTable | None = None,
) -> dict[int, Label | None]:
    """(player id, deck snapshot) → label (pure over loaded rows: the bench times this for 2,000 players)."""
    knobs = (
        {
            "parent_mask": families.parent_mask,
            "min_copies": families.min_copies,
            "min_share": families.min_share,
        }
        if families is not None
        else {}
    )
    out: dict[int, Label | None] = {}
    for pk, deck in decks:
        main = (deck or {}).get("sections", {}).get("main", [])
        lines = ((setcodes.get(line.get("card_id"), ()), int(line.get("count", 0))) for line in main)
        out[pk] = setcode_label(lines, names, **knobs)
    return out


def _store_files(game_slug: str) -> list[Path]:
    """A store's archetype files for the game: ``<game>.toml`` then ``<game>-*.toml`` of each directory."""
    out: list[Path] = []
    for directory in map(Path, getattr(settings, "DECKHALL_ARCHETYPE_DIRS", [])):
        own = directory / f"{game_slug}.toml"
        out += [own] if own.is_file() else []
        out += sorted(p for p in directory.glob(f"{game_slug}-*.toml") if p.is_file())
    return out


def _ruleset_path(game_slug: str) -> Path | None:
    try:
        source = default_registry().game(game_slug).source
    except KeyError:
        return None
    return Path(source) if source else None


@lru_cache(maxsize=16)
def _compiled(versions: tuple[tuple[str, int], ...]) -> tuple[RuleBook | None, ArchetypeFamiliesTable | None]:
    """Rule set + store files, by (path, modification time): compiled once per version of the files."""
    files: list[ArchetypeFile] = []
    families = None
    for index, (path, _mtime) in enumerate(versions):
        text = Path(path).read_text(encoding="utf-8")
        if index == 0:  # the rule set: its archetype tables (validated with the whole file when it loaded)
            data = tomllib.loads(text)
            raw = data.get("archetype_families")
            families = ArchetypeFamiliesTable.model_validate(raw) if raw is not None else None
            files.append(ArchetypeFile.model_validate({k: data[k] for k in ARCHETYPE_KEYS if k in data}))
        else:
            files.append(parse_file(text, Path(path).name))
    book = compile_book(files)
    return (book if book.rules or book.references else None), families


def archetype_sources(game_slug: str) -> tuple[RuleBook | None, ArchetypeFamiliesTable | None]:
    """The game's archetype rules (its rule set's ``[[archetypes]]`` with a store's files added, a store's
    rule of the same name replacing the rule set's) and its ``[archetype_families]``."""
    ruleset = _ruleset_path(game_slug)
    paths = [p for p in [ruleset] if p is not None and p.is_file()] or [None]
    versions: list[tuple[str, int]] = []
    if paths[0] is not None:
        versions.append((str(paths[0]), paths[0].stat().st_mtime_ns))
    else:
        versions.append(("", 0))
    versions += [(str(p), p.stat().st_mtime_ns) for p in _store_files(game_slug)]
    if not versions[0][0]:
        # No rule-set file (a game only in the database): a store's files alone.
        files = [parse_file(Path(p).read_text(encoding="utf-8"), Path(p).name) for p, _m in versions[1:]]
        book = compile_book(files)
        return (book if book.rules or book.references else None), None
    return _compiled(tuple(versions))


def rulebook_for(game_slug: str) -> RuleBook | None:
    return archetype_sources(game_slug)[0]


def _decks_by_rule(
    decks: list[tuple[int, Any]], book: RuleBook, infos: dict[int, Any]
) -> dict[int, Label | None]:
    classifier = Classifier(book, infos)
    out: dict[int, Label | None] = {}
    for pk, deck in decks:
        out[pk] = classifier.label(
            (line.get("card_id"), int(line.get("count", 0)), "side" if slug == "side" else "main")
            for slug, section in (deck or {}).get("sections", {}).items()
            for line in section
        )
    return out


@transaction.atomic
def archetypes_classify(*, tournament: Tournament) -> dict[int, DeckArchetype]:
    """Label every registered deck of the event that a human has not labelled; kept per player."""
    # Rows, not model instances: 2,000 Player objects with their deck JSON cost seconds, the rows 0.2 s.
    decks = list(tournament.players.filter(deck__isnull=False).order_by("pk").values_list("pk", "deck"))
    human = set(
        DeckArchetype.objects.filter(
            player__tournament=tournament, source=DeckArchetype.Source.HUMAN
        ).values_list("player_id", flat=True)
    )
    todo = [(pk, deck) for pk, deck in decks if pk not in human]
    # A broken store file raises RuleSetError naming the file, key and line (the views answer it as such).
    book, families = archetype_sources(tournament.game.slug)
    if book is not None:
        book = book.for_format(tournament.format_slug)
    names: dict[int, str] = {}
    if families is not None:
        names = ygo_setnames(str(Path(settings.SHARED_DATA_DIR) / families.names))
    card_ids = {
        line.get("card_id")
        for _pk, d in todo
        for slug, section in (d or {}).get("sections", {}).items()
        if book is not None or slug == "main"
        for line in section
    }
    card_ids.discard(None)
    # One query for every card the lists name: the set codes and, for the rules, the engine's view.
    attribute = families.attribute if families is not None else ""
    setcodes: dict[int, list[int]] = {}
    infos: dict[int, Any] = {}
    for card in Card.objects.filter(pk__in=card_ids):
        if names:
            setcodes[card.pk] = (card.attributes or {}).get(attribute) or []
        if book is not None:
            infos[card.pk] = card_info(card)
    labels = (
        label_decks(todo, setcodes, names, families)
        if names
        else dict.fromkeys((pk for pk, _d in todo), None)
    )
    sources = dict.fromkeys(labels, DeckArchetype.Source.SETCODE)
    if book is not None:
        # The rules first: a rule wins over the set codes; the set codes label what the rules leave.
        for pk, label in _decks_by_rule(todo, book, infos).items():
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
    kept = {a.player_id: a for a in DeckArchetype.objects.filter(player_id__in=human)} if human else {}
    return {**{a.player_id: a for a in rows}, **kept}


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
