"""Writes: labelling a tournament's decks (set codes), an organizer's label (wins over every rule)."""

from __future__ import annotations

import json
import logging
import tomllib
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.translation import gettext as _

from cards.models import Card
from games.cards import CardInfo
from games.errors import RuleSetError
from games.registry import default_registry
from games.schema import ArchetypeFamiliesTable, ArchetypeFile, RuleSetFile
from rules.services import card_info
from tournaments.models import Player, Tournament
from tournaments.permissions import require_organizer

from .archetypes import Label, SetcodeLabeler, parse_setnames
from .models import DeckArchetype
from .rules_engine import Classifier, RuleBook, compile_book, parse_file

log = logging.getLogger(__name__)
DeckLine = tuple[int | None, int, str]  # card id, copies, the section's slug
ARCHETYPE_KEYS = tuple(k for k in RuleSetFile.model_fields if k in ArchetypeFile.model_fields)


@lru_cache(maxsize=4)
def ygo_setnames(path: str = "") -> dict[int, str]:
    """YGOPro's archetype names (strings.conf ``!setname``); {} when the community file is absent."""
    conf = Path(path or Path(settings.SHARED_DATA_DIR) / "ygo" / "strings.conf")
    return parse_setnames(conf.read_text(encoding="utf-8", errors="replace")) if conf.is_file() else {}


def label_decks(
    decks: Mapping[int, list[DeckLine]],
    setcodes: Mapping[Any, list[int]],
    names: Mapping[int, str],
    families: ArchetypeFamiliesTable | None = None,
) -> dict[int, Label | None]:
    """player id → its lines (card id, copies, section) → label, by the cards' set codes (pure over loaded
    rows: the bench times it for 2,000 players)."""
    knobs = (
        {
            "parent_mask": families.parent_mask,
            "min_copies": families.min_copies,
            "min_share": families.min_share,
        }
        if families is not None
        else {}
    )
    labeler = SetcodeLabeler(setcodes, names, **knobs)
    return {
        pk: labeler.label((card, n) for card, n, section in lines if section == "main")
        for pk, lines in decks.items()
    }


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
        if not path:  # no rule-set file (a game only in the database): a store's files alone
            continue
        text = Path(path).read_text(encoding="utf-8")
        if index == 0:  # the rule set: its archetype tables (validated with the whole file when it loaded)
            data = tomllib.loads(text)
            raw = data.get("archetype_families")
            families = ArchetypeFamiliesTable.model_validate(raw) if raw is not None else None
            files.append(ArchetypeFile.model_validate({k: data[k] for k in ARCHETYPE_KEYS if k in data}))
        else:
            try:
                files.append(parse_file(text, Path(path).name))
            except RuleSetError as error:
                # Like a broken rule set: left out and logged, so one mistake does not take the metagame
                # pages down (import_archetypes checks what it writes; a hand edit can still break a file).
                log.error("archetype file not loaded: %s", error)
    book = compile_book(files)
    return (book if book.rules or book.references else None), families


def archetype_sources(game_slug: str) -> tuple[RuleBook | None, ArchetypeFamiliesTable | None]:
    """The game's archetype rules (its rule set's ``[[archetypes]]`` with a store's files added, a store's
    rule of the same name replacing the rule set's) and its ``[archetype_families]``."""
    ruleset = _ruleset_path(game_slug)
    # (path, modification time) of each file: the compiled book is cached per version of the files. No
    # rule-set file (a game only in the database) is ("", 0): a store's files alone.
    versions = [(str(ruleset), ruleset.stat().st_mtime_ns) if ruleset and ruleset.is_file() else ("", 0)]
    versions += [(str(p), p.stat().st_mtime_ns) for p in _store_files(game_slug)]
    return _compiled(tuple(versions))


def rulebook_for(game_slug: str) -> RuleBook | None:
    return archetype_sources(game_slug)[0]


# PostgreSQL flattens the deck snapshots itself: per section, its card ids and copies as integer arrays,
# instead of 2,000 JSON texts for Python to parse (2,000 players: 25–30 ms CPU instead of 50–120 ms).
# SQLite's json_each was no faster than Python's json.loads there (measured 120–200 ms against 85–160 ms), so
# SQLite and other databases read the snapshots as rows and parse them here; both give the same lines.
_LINES_SQL = {
    "postgresql": """
        SELECT p.id, s.key, a.cards, a.counts
        FROM {player} p
        CROSS JOIN LATERAL jsonb_each(
            CASE WHEN jsonb_typeof(p.deck -> 'sections') = 'object' THEN p.deck -> 'sections' ELSE '{{}}' END) s
        CROSS JOIN LATERAL (
            SELECT array_agg(CASE WHEN jsonb_typeof(l.value -> 'card_id') = 'number'
                                  THEN (l.value ->> 'card_id')::bigint END) AS cards,
                   array_agg(CASE WHEN jsonb_typeof(l.value -> 'count') = 'number'
                                  THEN (l.value ->> 'count')::numeric::int END) AS counts
            FROM jsonb_array_elements(CASE WHEN jsonb_typeof(s.value) = 'array' THEN s.value ELSE '[]' END) l
        ) a
        WHERE p.tournament_id = %s AND p.deck IS NOT NULL AND p.id = ANY(%s)
    """,
}


def _players(tournament: Tournament, only: set[int] | None) -> Any:
    players = tournament.players.filter(deck__isnull=False)
    return players if only is None else players.filter(pk__in=only)


def _deck_lines_python(tournament: Tournament, only: set[int] | None = None) -> dict[int, list[DeckLine]]:
    out: dict[int, list[DeckLine]] = {}
    for pk, deck in _players(tournament, only).values_list("pk", "deck"):
        sections = (deck or {}).get("sections", {}) if isinstance(deck, dict) else {}
        out[pk] = [
            (line.get("card_id"), int(line.get("count") or 0), slug)
            for slug, lines in sections.items() if isinstance(lines, list)
            for line in lines if isinstance(line, dict)
        ]  # fmt: skip
    return out


def deck_lines(tournament: Tournament, only: set[int] | None = None) -> dict[int, list[DeckLine]]:
    """The registered decks of the event (``only`` these players, when given) as player id → [(card id,
    copies, section slug)]: one query."""
    sql = _LINES_SQL.get(connection.vendor)
    if sql is None:
        return _deck_lines_python(tournament, only)
    out: dict[int, list[DeckLine]] = {
        pk: [] for pk in _players(tournament, only).values_list("pk", flat=True)
    }
    if not out:
        return out
    with connection.cursor() as cursor:
        cursor.execute(
            sql.format(player=connection.ops.quote_name(Player._meta.db_table)), [tournament.pk, list(out)]
        )
        # One row per section with its cards and copies as two integer arrays: 4,000 rows for 2,000 decks,
        # not 70,000 (measured 120–150 ms wall against 250–310 ms for a row per line).
        for pk, slug, cards, counts in cursor.fetchall():
            out[pk].extend(
                (card, int(count or 0), slug) for card, count in zip(cards or (), counts or (), strict=True)
            )
    return out


def _insert_labels(rows: list[DeckArchetype]) -> None:
    """The labels written in one statement per 500 rows, without Django's per-field preparation (it was as
    long as the labelling itself for 2,000 rows)."""
    table = connection.ops.quote_name(DeckArchetype._meta.db_table)
    columns = ("player_id", "name", "rule", "source", "candidates")
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES (%s, %s, %s, %s, %s)"  # noqa: S608 (names from the model)
    values = [(r.player_id, r.name, r.rule, r.source, json.dumps(r.candidates)) for r in rows]
    with connection.cursor() as cursor:
        for start in range(0, len(values), 500):
            cursor.executemany(sql, values[start : start + 500])


@transaction.atomic
def archetypes_classify(*, tournament: Tournament, only: set[int] | None = None) -> dict[int, DeckArchetype]:
    """Label every registered deck of the event (``only`` these players' decks, when given) that a human has
    not labelled; kept per player. Returns the labels of the decks it looked at: read-only values, written
    by one INSERT per 500 rows (they carry no primary key; read them again to change one)."""
    human = set(
        DeckArchetype.objects.filter(
            player__tournament=tournament, source=DeckArchetype.Source.HUMAN
        ).values_list("player_id", flat=True)
    )
    todo = {pk: lines for pk, lines in deck_lines(tournament, only).items() if pk not in human}
    book, families = archetype_sources(tournament.game.slug)
    if book is not None:
        book = book.for_format(tournament.format_slug)
    names: dict[int, str] = {}
    if families is not None:
        names = ygo_setnames(str(Path(settings.SHARED_DATA_DIR) / families.names))
    card_ids = {card for lines in todo.values() for card, _n, _s in lines if card is not None}
    setcodes: dict[int, list[int]] = {}
    infos: dict[int, Any] = {}
    cards = Card.objects.filter(pk__in=card_ids)
    if book is not None and any(test.predicate is not None for test in book.tests):
        # A rule that reads more than names (a FILTER on types, text …): the engine's whole view of the cards.
        for card in cards:
            infos[card.pk] = card_info(card)
            setcodes[card.pk] = (card.attributes or {}).get(families.attribute) or [] if families else []
    else:
        fields = ("pk", "name", "attributes") if families is not None else ("pk", "name")
        for row in cards.values_list(*fields):
            if book is not None:
                infos[row[0]] = CardInfo(key=str(row[0]), name=row[1])
            if families is not None:
                setcodes[row[0]] = (row[2] or {}).get(families.attribute) or []
    labels: dict[int, Label | None] = (
        label_decks(todo, setcodes, names, families) if names else dict.fromkeys(todo, None)
    )
    sources = dict.fromkeys(labels, DeckArchetype.Source.SETCODE)
    if book is not None:
        # The rules first: a rule wins over the set codes; the set codes label what the rules leave.
        classifier = Classifier(book, infos)
        for pk, lines in todo.items():
            # The rules read two places: the side, and the main deck with the extra deck, a commander …
            label = classifier.label(
                (card, n, "side" if slug == "side" else "main") for card, n, slug in lines
            )
            if label is not None:
                labels[pk] = label
                sources[pk] = (
                    DeckArchetype.Source.OVERLAP
                    if label.rule.startswith("overlap")
                    else DeckArchetype.Source.RULE
                )
    rows = []
    for pk in todo:
        label = labels[pk]
        rows.append(DeckArchetype(
            player_id=pk,
            name=label.name if label else "",
            rule=label.rule if label else "",
            source=sources[pk] if label and label.name else DeckArchetype.Source.NONE,
            candidates=list(label.candidates) if label else [],
        ))  # fmt: skip
    stale = DeckArchetype.objects.filter(player__tournament=tournament).exclude(
        source=DeckArchetype.Source.HUMAN
    )
    (stale if only is None else stale.filter(player_id__in=todo)).delete()
    _insert_labels(rows)
    kept_ids = human if only is None else human & only
    kept = {a.player_id: a for a in DeckArchetype.objects.filter(player_id__in=kept_ids)} if kept_ids else {}
    return {**{a.player_id: a for a in rows}, **kept}


def archetypes_of(tournament: Tournament) -> dict[int, DeckArchetype]:
    """The stored labels, classifying the decks not labelled yet (a deck registered since) first."""
    stored = {a.player_id: a for a in DeckArchetype.objects.filter(player__tournament=tournament)}
    missing = set(
        tournament.players.filter(deck__isnull=False)
        .exclude(pk__in=stored.keys())
        .values_list("pk", flat=True)
    )
    if missing:
        # Only the decks registered since: the others keep their labels (a rule change relabels them all
        # through archetypes_classify without ``only``).
        stored.update(archetypes_classify(tournament=tournament, only=missing))
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
