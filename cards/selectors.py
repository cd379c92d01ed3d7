"""Reads: card search with attribute filters, each game's search facets, and the export of a database."""

from __future__ import annotations

import datetime
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import BooleanField, Count, Max, Prefetch, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.registry import default_registry

from . import search
from .importers import CardRecord, PrintingRecord, SetRecord, interchange
from .models import Card, CardSet, Game, ImportJob, Printing, SavedSearch

ATTR_KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")
ISO_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$", re.ASCII)
ORDERINGS = {
    "name": ("search_name", "level", "external_id"),
    "-name": ("-search_name", "-level", "-external_id"),
    "level": ("level", "search_name", "external_id"),
    "-level": ("-level", "search_name", "external_id"),
    "cost": ("cost", "search_name", "external_id"),
    "-cost": ("-cost", "search_name", "external_id"),
    "type": ("card_type", "search_name", "external_id"),
    "external_id": ("external_id",),
    "updated": ("-updated_at", "external_id"),
}


class FilterError(ValueError):
    """A search parameter that cannot be applied; the message names it, in the requester's language (a
    selector runs in the request: the words come from the catalogue, not from an engine)."""


@dataclass
class CardFilters:
    game: str = ""
    q: str = ""
    card_type: str = ""
    subtype: str = ""
    level_min: int | None = None
    level_max: int | None = None
    cost_min: int | None = None
    cost_max: int | None = None
    deck_buildable: bool | None = None
    # attribute key -> wanted value (equals, or "list contains" for list attributes)
    attrs: dict[str, str] = field(default_factory=dict)
    # attribute key -> (min, max) for numeric attributes such as atk
    attr_ranges: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    ordering: str = "name"
    # The date whose ban lists legality terms read (banned:, limited:, legal:); None: today.
    on_date: datetime.date | None = None
    lang: str = "en"
    # The format legality terms without one read (the deck's, from the builder); "" = the game's first.
    format_slug: str = ""
    # The player's default part for the game (cards.SavedSearch.is_default), added to q.
    default_q: str = ""
    # Filled by card_search when ``q`` is read by the search language: the query in words, suggestions.
    outcome: search.SearchOutcome | None = None


def _ids_in(pks: list[int]) -> Q:
    """``id`` among many ids, as one parameter (a JSON array): no limit on SQL variables."""
    import json

    if connection.vendor == "sqlite":
        sql = "cards_card.id IN (SELECT value FROM json_each(%s))"
        return Q(RawSQL(sql, [json.dumps(pks)], output_field=BooleanField()))  # noqa: S611 — params bound
    return Q(RawSQL("cards_card.id = ANY(%s)", [pks], output_field=BooleanField()))


def _json_value_matches(column: str, key: str | None, value: str) -> Q:
    """A JSON scalar equal to `value`, or a JSON list containing it (json_each handles both)."""
    path = "$" if key is None else f"$.{key}"
    candidates: list[Any] = [value]
    if re.fullmatch(r"-?\d{1,15}", value):
        candidates.append(int(value))
    if connection.vendor == "sqlite":
        placeholders = ", ".join(["%s"] * len(candidates))
        # Key names are validated by ATTR_KEY_RE, so the JSON path cannot carry SQL.
        sql = (
            f"EXISTS (SELECT 1 FROM json_each(cards_card.{column}, %s) AS j "  # noqa: S608
            f"WHERE j.value IN ({placeholders}))"
        )
        return Q(RawSQL(sql, [path, *candidates], output_field=BooleanField()))  # noqa: S611 — params bound
    lookup = column if key is None else f"{column}__{key}"
    condition = Q()
    for candidate in candidates:
        condition |= Q(**{f"{lookup}__contains": [candidate]})
        if key is not None:
            condition |= Q(**{lookup: candidate})
    return condition


def search_outcome(filters: CardFilters) -> search.SearchOutcome | None:
    """The search language's answer for ``filters.q`` (and the default part), kept on ``filters``; None
    without a game or a query. The game row is read fresh: its ``cards_version`` says whether the index
    is current. SearchError reaches the caller as 400 {"q": ...}."""
    wanted = filters.q or filters.default_q
    game = Game.objects.filter(slug=filters.game).first() if filters.game and wanted else None
    if game is None:
        return None
    key = (game.pk, game.cards_version, filters.q, filters.default_q, filters.on_date, filters.lang,
           filters.format_slug)  # fmt: skip
    if filters.outcome is None or filters.outcome.key != key:  # the grouped search asks twice
        filters.outcome = search.card_query(
            game=game,
            text=filters.q,
            on_date=filters.on_date,
            lang=filters.lang,
            default=filters.default_q,
            format_slug=filters.format_slug,
        )
        filters.outcome.key = key
    return filters.outcome


def card_search(filters: CardFilters) -> QuerySet[Card]:
    qs = Card.objects.select_related("game")
    if filters.game:
        qs = qs.filter(game__slug=filters.game)
    outcome = search_outcome(filters)
    if outcome is not None:
        qs = qs.filter(_ids_in(outcome.pks))
    elif filters.q:
        # No game: the name, any game. search_name holds casefold()ed names (SQLite's LIKE folds only ASCII).
        needle = filters.q.strip().casefold()
        qs = qs.filter(Q(search_name__contains=needle) | Q(external_id=filters.q.strip()))
    if filters.card_type:
        qs = qs.filter(card_type=filters.card_type.strip().casefold())
    if filters.subtype:
        qs = qs.filter(_json_value_matches("subtypes", None, filters.subtype.strip()))
    for name in ("level", "cost"):
        low, high = getattr(filters, f"{name}_min"), getattr(filters, f"{name}_max")
        if low is not None:
            qs = qs.filter(**{f"{name}__gte": low})
        if high is not None:
            qs = qs.filter(**{f"{name}__lte": high})
    if filters.deck_buildable is not None:
        qs = qs.filter(deck_buildable=filters.deck_buildable)
    for key, value in filters.attrs.items():
        _check_key(key)
        qs = qs.filter(_json_value_matches("attributes", key, value))
    for key, (low, high) in filters.attr_ranges.items():
        _check_key(key)
        if low is not None:
            qs = qs.filter(**{f"attributes__{key}__gte": low})
        if high is not None:
            qs = qs.filter(**{f"attributes__{key}__lte": high})
    ordering = ORDERINGS.get(filters.ordering)
    if ordering is None:
        raise FilterError(_("ordering must be one of: %(choices)s") % {"choices": ", ".join(ORDERINGS)})
    return qs.order_by(*ordering)


def _check_key(key: str) -> None:
    if not ATTR_KEY_RE.match(key):
        raise FilterError(_("attribute name '%(name)s' must be letters, digits or _") % {"name": key})


def canonical_order(card: Card) -> tuple[bool, int, str]:
    """Sort key putting a card identity's canonical printing first: the card whose own id is the identity
    (the original artwork), else the shortest, lowest id. Used wherever one printing stands for all."""
    return (card.external_id != card.identity, len(card.external_id), card.external_id)


@dataclass(frozen=True, slots=True)
class GroupPrinting:
    """One printing of a card identity as a search row lists it: its card row and its set codes."""

    pk: int
    external_id: str
    sets: list[str]


@dataclass
class CardGroup:
    """One card identity in a search: its canonical printing and every printing (alternate artworks)."""

    card: Card
    printings: list[GroupPrinting]


def set_codes(printings: list[tuple[str, str, str]]) -> list[str]:
    """A card's (set, number, rarity) printings as players read them ("LOB LOB-005")."""
    return [
        f"{code} {number}".strip() if number and number != code else code for code, number, _r in printings
    ]


class IndexPage:
    """The cards a search-language query matched, in the index's order, read from the database one page
    at a time: the paginator takes ``len`` (the count, no COUNT query) and a slice (one query by primary
    key for the page's rows, no ORDER BY over every match)."""

    def __init__(self, pks: list[int], game: Game) -> None:
        self.pks, self.game = pks, game

    def __len__(self) -> int:
        return len(self.pks)

    def __getitem__(self, item: slice) -> list[Card]:
        wanted = self.pks[item]
        cards = {card.pk: card for card in Card.objects.filter(pk__in=wanted)}
        for card in cards.values():
            card.game = self.game  # one game for every row: no join
        return [cards[pk] for pk in wanted if pk in cards]


def index_only(filters: CardFilters) -> bool:
    """A search-language query with no other filter than deck_buildable, in name order: the index answers
    the order, the count and the page, no SQL over the matches."""
    plain = not (
        filters.card_type or filters.subtype or filters.attrs or filters.attr_ranges
        or any(getattr(filters, f"{n}_{b}") is not None for n in ("level", "cost") for b in ("min", "max"))
    )  # fmt: skip
    return (
        plain and filters.ordering == "name" and bool(filters.game) and bool(filters.q or filters.default_q)
    )


def card_search_page(filters: CardFilters) -> QuerySet[Card] | IndexPage:
    """What /api/cards/ pages: the index's answer when it alone answers (``index_only``), else the query."""
    outcome = search_outcome(filters) if index_only(filters) else None
    if outcome is None or outcome.game is None:
        return card_search(filters)
    rows = outcome.rows
    if filters.deck_buildable is not None:
        rows = [row for row in rows if row.deck_buildable == filters.deck_buildable]
    return IndexPage([row.pk for row in rows], outcome.game)


def card_search_grouped(
    filters: CardFilters, *, offset: int = 0, limit: int = 40
) -> tuple[int, list[CardGroup]]:
    """Search results with one row per card identity: (number of identities, the page of groups).

    The matching cards are read in search order as (game, identity) keys only, in growing slices, keeping
    each identity's first appearance until the page is full: a narrow search (a name) is one query and
    is counted here, a wide one adds one COUNT(DISTINCT). Then every printing of the page's identities
    (so a printing the filters miss is still offered) and their set printings: at most four queries
    whatever the page size.
    """
    wanted = offset + limit
    in_memory = _grouped_keys(filters)
    if in_memory is not None:
        assert filters.outcome is not None
        return len(in_memory), _groups_from_index(filters.outcome, in_memory[offset:wanted])
    ordered = card_search(filters).values_list("game_id", "identity")
    keys: list[tuple[int, str]] = []
    seen: set[tuple[int, str]] = set()
    # A first slice of 1,000 keys (a few kB) holds every match of a name search: no COUNT needed.
    start, batch, exhausted = 0, max(wanted * 3, 1000), False
    while len(keys) < wanted:
        chunk = list(ordered[start : start + batch])
        for key in chunk:
            if key not in seen:
                seen.add(key)
                keys.append(key)
        if len(chunk) < batch:
            exhausted = True
            break
        start, batch = start + batch, batch * 2
    if exhausted:
        total = len(keys)
    else:
        total = card_search(filters).order_by().values("game_id", "identity").distinct().count()
    return _groups_page(total, keys[offset:wanted])


def _grouped_keys(filters: CardFilters) -> list[tuple[int, str]] | None:
    """A search-language query the index alone answers (``index_only``): its identities come straight from
    the index rows (exact name matches first, then name order), no SQL needed for the order or the count."""
    if not index_only(filters):
        return None
    outcome = search_outcome(filters)  # reads the query (or raises)
    if outcome is None or outcome.game is None:
        return None
    game_id = outcome.game.pk
    keys: list[tuple[int, str]] = []
    seen: set[str] = set()
    for row in outcome.rows:
        if filters.deck_buildable is not None and row.deck_buildable != filters.deck_buildable:
            continue
        if row.identity not in seen:
            seen.add(row.identity)
            keys.append((game_id, row.identity))
    return keys


def _groups_from_index(outcome: search.SearchOutcome, page_keys: list[tuple[int, str]]) -> list[CardGroup]:
    """The page's groups from the index: every printing of each identity (ids, set codes) is in it, so the
    database is asked only for the page's canonical cards, by primary key."""
    index, game = outcome.index, outcome.game
    assert index is not None and game is not None
    chosen: list[tuple[Any, list[Any]]] = []
    for _game_id, identity in page_keys:
        rows = sorted((index.rows[i] for i in index.printings_of(identity)), key=canonical_order)
        if rows:
            chosen.append((rows[0], rows))
    cards = {card.pk: card for card in Card.objects.filter(pk__in=[first.pk for first, _rows in chosen])}
    groups = []
    for first, rows in chosen:
        card = cards.get(first.pk)
        if card is None:
            continue
        card.game = game
        printings = [GroupPrinting(row.pk, row.external_id, set_codes(row.printings)) for row in rows]
        groups.append(CardGroup(card=card, printings=printings))
    return groups


def _groups_page(total: int, page_keys: list[tuple[int, str]]) -> tuple[int, list[CardGroup]]:
    page = [{"game_id": game_id, "identity": identity} for game_id, identity in page_keys]
    if not page:
        return total, []
    pairs = {(row["game_id"], row["identity"]) for row in page}
    printings: dict[tuple[int, str], list[Card]] = {}
    candidates = (
        Card.objects.select_related("game")
        .prefetch_related(Prefetch("printings", queryset=Printing.objects.select_related("card_set")))
        # By identity alone: with the game id too, SQLite walks the game's whole index instead of the
        # identity index. Another game's card sharing an identity string is dropped below.
        .filter(identity__in={i for _g, i in pairs})
    )
    for card in candidates:
        if (card.game_id, card.identity) in pairs:
            printings.setdefault((card.game_id, card.identity), []).append(card)
    groups = []
    for row in page:
        cards = sorted(printings.get((row["game_id"], row["identity"]), []), key=canonical_order)
        if cards:
            listed = [
                GroupPrinting(c.pk, c.external_id, set_codes([(p.card_set.code, p.code, p.rarity) for p in c.printings.all()]))
                for c in cards
            ]  # fmt: skip
            groups.append(CardGroup(card=cards[0], printings=listed))
    return total, groups


def card_get(*, pk: int) -> Card:
    return (
        Card.objects.select_related("game")
        .prefetch_related(Prefetch("printings", queryset=Printing.objects.select_related("card_set")))
        .get(pk=pk)
    )


def card_alternates(*, card: Card) -> QuerySet[Card]:
    """Other cards sharing this card's identity (YGO alternate artworks)."""
    return Card.objects.filter(game_id=card.game_id, identity=card.identity).exclude(pk=card.pk)


def card_type_choices(*, game: Game | None) -> list[str]:
    qs = Card.objects.all() if game is None else Card.objects.filter(game=game)
    return list(qs.exclude(card_type="").order_by("card_type").values_list("card_type", flat=True).distinct())


def import_job_visible(*, job: ImportJob, user: Any) -> bool:
    return bool(user.is_authenticated and (user.is_staff or job.created_by_id == user.pk))


def game_records(*, game: Game) -> tuple[list[CardRecord], list[SetRecord]]:
    """The game's database as interchange records, in a stable order."""
    sets = [
        SetRecord(
            code=s.code,
            name=s.name,
            set_type=s.set_type,
            release_date=s.release_date.isoformat() if s.release_date else "",
        )
        for s in CardSet.objects.filter(game=game).order_by("code")
    ]
    printings: dict[int, list[PrintingRecord]] = {}
    for card_id, set_code, code, rarity, url in (
        Printing.objects.filter(card__game=game)
        .order_by("card_id", "card_set__code", "code", "pk")
        .values_list("card_id", "card_set__code", "code", "rarity", "image_url")
    ):
        printings.setdefault(card_id, []).append(PrintingRecord(set_code, code, rarity, url))
    records = [
        CardRecord(
            external_id=card.external_id,
            identity=card.identity,
            name=card.name,
            card_type=card.card_type,
            subtypes=list(card.subtypes),
            level=card.level,
            cost=card.cost,
            attributes=dict(card.attributes),
            text=card.text,
            is_token=card.is_token,
            deck_buildable=card.deck_buildable,
            printings=printings.get(card.pk, []),
        )
        for card in Card.objects.filter(game=game).order_by("external_id").iterator(chunk_size=2000)
    ]
    return records, sets


EXPORT_FORMATS = {"json": "application/json", "csv": "text/csv"}


def cards_export(*, game: Game, fmt: str) -> bytes:
    if fmt not in EXPORT_FORMATS:
        raise FilterError(
            _("export format must be one of: %(choices)s") % {"choices": ", ".join(EXPORT_FORMATS)}
        )
    records, sets = game_records(game=game)
    if fmt == "json":
        return interchange.dump_json(game_slug=game.slug, records=records, sets=sets)
    return interchange.dump_csv(records=records, sets=sets)


def saved_searches(*, user: Any, game: Game | None = None) -> QuerySet[SavedSearch]:
    if not getattr(user, "is_authenticated", False):
        return SavedSearch.objects.none()
    qs = SavedSearch.objects.filter(user=user).select_related("game")
    return qs.filter(game=game) if game is not None else qs


def default_query(*, user: Any, game_slug: str, params: Any) -> str:
    """The player's default part for the game, unless the request says ``default=0``."""
    if not game_slug or (params.get("default") or "").strip() in {"0", "false", "off"}:
        return ""
    if not getattr(user, "is_authenticated", False):
        return ""
    found = SavedSearch.objects.filter(user=user, game__slug=game_slug, is_default=True).first()
    return found.query if found else ""


def int_param(params: Any, name: str) -> int | None:
    raw = (params.get(name) or "").strip()
    if not raw:
        return None
    if not re.fullmatch(r"-?\d{1,9}", raw):
        raise FilterError(
            _("%(name)s must be a whole number, got '%(value)s'") % {"name": name, "value": raw[:30]}
        )
    return int(raw)


def card_filters_from_params(params: Any) -> CardFilters:
    """Build filters from a query dict: game, q, type, subtype, level_min/max, cost_min/max,
    deck_buildable, attr.<key>=value, attr.<key>.min / attr.<key>.max, ordering."""
    filters = CardFilters(
        game=(params.get("game") or "").strip(),
        # Not cut: a query longer than the language takes is refused by name (too_long), never truncated.
        q=(params.get("q") or "").strip()[:4000],
        card_type=(params.get("type") or "").strip(),
        subtype=(params.get("subtype") or "").strip(),
        level_min=int_param(params, "level_min"),
        level_max=int_param(params, "level_max"),
        cost_min=int_param(params, "cost_min"),
        cost_max=int_param(params, "cost_max"),
        ordering=(params.get("ordering") or "name").strip(),
        lang=(get_language() or "en")[:2],
        # Not "format": DRF reads that one as the answer's content type.
        format_slug=(params.get("format_slug") or "").strip()[:60],
    )
    if "date" in params:
        # As the schema says (format: date): exactly YYYY-MM-DD. An empty value is refused rather than read
        # as "today" (leave the parameter out for today), and fromisoformat's other spellings ("20260105")
        # are not dates the schema admits.
        raw_date = (params.get("date") or "").strip()
        try:
            if not ISO_DATE_RE.match(raw_date):
                raise ValueError(raw_date)
            filters.on_date = datetime.date.fromisoformat(raw_date)
        except ValueError:
            raise FilterError(
                _("date must be YYYY-MM-DD, got '%(value)s'") % {"value": raw_date[:30]}
            ) from None
    buildable = (params.get("deck_buildable") or "").strip().casefold()
    if buildable:
        if buildable not in {"true", "false", "1", "0"}:
            raise FilterError(_("deck_buildable must be true or false"))
        filters.deck_buildable = buildable in {"true", "1"}
    for name in params:
        if not name.startswith("attr."):
            continue
        key, _dot, bound = name[len("attr.") :].partition(".")
        _check_key(key)
        value = (params.get(name) or "").strip()
        if not value:
            continue
        if bound in {"min", "max"}:
            low, high = filters.attr_ranges.get(key, (None, None))
            number = int_param(params, name)
            filters.attr_ranges[key] = (number, high) if bound == "min" else (low, number)
        elif bound:
            raise FilterError(
                _("%(name)s: use attr.<key>, attr.<key>.min or attr.<key>.max") % {"name": name}
            )
        else:
            filters.attrs[key] = value
    return filters


# --- search facets: each game's configured filters with the values its cards have ----------------

FACETS_CACHE_SECONDS = 24 * 3600
# Built-in filter fields -> the Card column they read and the card-search parameter(s) they send.
_BUILTIN_COLUMNS = {"type": "card_type", "subtype": "subtypes", "level": "level", "cost": "cost"}


def game_search_filters(*, game_slug: str) -> tuple[Any, ...]:
    """The game's ``search_filters`` from its rule set (a game without a rule-set file has none)."""

    try:
        return default_registry().game(game_slug).search_filters
    except KeyError:
        return ()


def search_filter_params(search_filter: Any) -> dict[str, str]:
    """The /api/cards/ parameter(s) a configured filter sends: {"value": ...} or {"min": ..., "max": ...}."""
    name = search_filter.field
    if search_filter.builtin:
        if search_filter.kind == "range":
            return {"min": f"{name}_min", "max": f"{name}_max"}
        return {"value": name}
    if search_filter.kind == "range":
        return {"min": f"attr.{name}.min", "max": f"attr.{name}.max"}
    return {"value": f"attr.{name}"}


def _choice_key(value: str | int | float) -> tuple[int, float, str]:
    # Numbers in numeric order before text in case-insensitive order (works for Cyrillic too).
    if isinstance(value, int | float):
        return (0, float(value), "")
    return (1, 0.0, value.casefold())


def _scalars(value: Any) -> list[Any]:
    """The usable scalar values of one card's field: list attributes count each element."""
    items = value if isinstance(value, list) else [value]
    return [v for v in items if isinstance(v, str | int | float) and not isinstance(v, bool) and v != ""]


def _facet_values(*, game: Game, search_filters: tuple[Any, ...]) -> dict[str, dict[str, Any]]:
    """One pass over the game's cards collecting, per filter, its distinct values or its min and max."""
    seen: dict[str, set[Any]] = {f.field: set() for f in search_filters}
    rows = (
        Card.objects.filter(game=game)
        .values_list("card_type", "subtypes", "level", "cost", "attributes")
        .iterator(chunk_size=2000)
    )
    for card_type, subtypes, level, cost, attributes in rows:
        columns = {"type": card_type, "subtype": subtypes, "level": level, "cost": cost}
        attributes = attributes if isinstance(attributes, dict) else {}
        for search_filter in search_filters:
            name = search_filter.field
            raw = columns[name] if search_filter.builtin else attributes.get(name)
            if raw is not None:
                seen[name].update(_scalars(raw))
    facets: dict[str, dict[str, Any]] = {}
    for search_filter in search_filters:
        values = seen[search_filter.field]
        if search_filter.kind == "range":
            numbers = [v for v in values if isinstance(v, int | float)]
            facets[search_filter.field] = {
                "min": min(numbers) if numbers else None,
                "max": max(numbers) if numbers else None,
            }
        else:
            facets[search_filter.field] = {"values": [str(v) for v in sorted(values, key=_choice_key)]}
    return facets


def _facets_cache_key(*, game: Game, search_filters: tuple[Any, ...]) -> str:
    # The cards' count and latest change time move with every import (bulk_update sets updated_at) and
    # deletion, so a stale entry is never read; the filter spec is in the key for rule-set changes.
    stats = Card.objects.filter(game=game).aggregate(count=Count("pk"), latest=Max("updated_at"))
    latest = stats["latest"].isoformat() if stats["latest"] else "-"
    spec = "|".join(f"{f.field}:{f.kind}" for f in search_filters)
    digest = hashlib.sha256(f"{stats['count']}|{latest}|{spec}".encode()).hexdigest()[:24]
    return f"cards:facets:v1:{game.pk}:{digest}"


def card_facets(*, game: Game, lang: str = "en") -> list[dict[str, Any]]:
    """The game's configured search filters, each with its label in `lang`, the card-search parameters it
    sends and, for choices, the values present in the game's cards (ranges: their min and max)."""
    search_filters = game_search_filters(game_slug=game.slug)
    if not search_filters:
        return []
    key = _facets_cache_key(game=game, search_filters=search_filters)
    values = cache.get(key)
    if values is None:
        values = _facet_values(game=game, search_filters=search_filters)
        cache.set(key, values, FACETS_CACHE_SECONDS)
    return [
        {
            "field": f.field,
            "kind": f.kind,
            "label": f.title(lang),
            "params": search_filter_params(f),
            **values[f.field],
        }
        for f in search_filters
    ]
