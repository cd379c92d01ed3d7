"""The card search language on the site: each game's field table from its rule set, an in-process index of
its cards, and the answer for the API and the pages — the matching card ids, the query in words and, for a
near miss, "did you mean". The language itself is ``cardsearch`` (pure Python); this module reads rows.

Why in memory and not FTS5 / tsvector: a game's cards fit in a few tens of MB, every term kind (name words
in any order, rules text, attributes in JSON, comparisons, printings, ban lists, bounded regular
expressions) is then one evaluator — the one the rule sets' FILTER compiles to — with the same answers on
SQLite and PostgreSQL, and the bench measures its matching faster than a bare FTS5 table on every query
kind (cardsearch/index.py says by how much). Each request reads the game's ``cards_version`` (a token
written in the transaction of every change to its cards) with the game row, so every web node rebuilds its
copy after an import commits and never answers from a stale or half-imported one.

Where the request time went (cProfile on the bench, before): DRF's per-field serialization of every row
of the page, a COUNT and an ORDER BY over every matching id in SQL, the printings of the grouped page read
row by row through the ORM — matching was 1-5 ms of 9-20. Now the index gives the order, the count and the
page (``selectors.IndexPage``), the database is asked only for the page's rows by primary key, the grouped
rows' printings come from the index, and the serializers write their fields out.
"""

from __future__ import annotations

import gc
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.utils.translation import gettext as _

from cardsearch import And, QueryError, field_table, fold, parse
from cardsearch.evaluate import Context, Predicate, compile_query, resolve
from cardsearch.explain import explain
from cardsearch.fields import FieldTable, edit_distance
from cardsearch.index import CardIndex, Row
from cardsearch.query import Term, terms_of
from games.registry import default_registry

from .models import Card, Game, Printing

# Set by rules.apps.ready() (a higher layer): (game, format slug or "", date) -> (format name,
# {external id or identity: limit 0-3}, whitelist) or None when the format reads no list. Raises KeyError
# for an unknown format with the known slugs as its argument.
LegalityProvider = Callable[[Game, str, date], tuple[str, dict[str, int], bool] | None]
legality_provider: LegalityProvider | None = None


def _registry_game(slug: str) -> Any:
    try:
        return default_registry().game(slug)
    except KeyError:
        return None


_TABLES: dict[str, FieldTable] = {}


def game_fields(slug: str) -> FieldTable:
    """The game's field table: its ``[game.search]`` data plus every attribute its search filters offer."""
    table = _TABLES.get(slug)
    if table is not None:
        return table
    rules = _registry_game(slug)
    search: dict[str, Any] = dict(rules.search) if rules is not None else {}
    declared = {f["field"] for f in search.get("fields") or ()}
    extra = []
    for search_filter in rules.search_filters if rules is not None else ():
        if search_filter.builtin or search_filter.field in declared:
            continue
        words = search_filter.words()
        extra.append({
            "field": search_filter.field, "kind": "number" if search_filter.kind == "range" else "choice",
            "aliases": [], "label": words.get("en", search_filter.field), "label_ru": words.get("ru", ""),
        })  # fmt: skip
    search["fields"] = [*(search.get("fields") or ()), *extra]
    labels = {}
    if rules is not None:
        for name in ("level", "cost"):
            filt = next((f for f in rules.search_filters if f.field == name), None)
            if filt is not None:
                labels[name] = filt.words()
    table = _TABLES[slug] = field_table(slug, search, labels)
    return table


# --- the per-process index, checked against the database on every request ---------------------------

_INDEXES: dict[int, tuple[tuple[Any, ...], CardIndex]] = {}
_LOCK = threading.Lock()


def cards_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """post_save / post_delete of a Card or Printing: bump its game's cards_version (same transaction)."""
    game_id = (
        instance.game_id
        if isinstance(instance, Card)
        else Card.objects.filter(pk=instance.card_id).values_list("game_id", flat=True).first()
    )
    if game_id is not None:
        Game.objects.filter(pk=game_id).update(cards_version=uuid.uuid4().hex)


def game_index(game: Game) -> CardIndex:
    """The game's index, rebuilt when its ``cards_version`` moved (``game`` is read fresh per request)."""
    stamp = (game.cards_version,)
    cached = _INDEXES.get(game.pk)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    with _LOCK:
        cached = _INDEXES.get(game.pk)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        index = _build(game)
        _INDEXES[game.pk] = (stamp, index)
        # Hundreds of thousands of long-lived objects: keep them out of the collector's full passes, which
        # would otherwise stop a search now and then for 100+ ms to walk them all.
        # Unfrozen first, so what earlier builds froze and is garbage now (the index replaced) is collected.
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        return index


def _build(game: Game) -> CardIndex:
    printings: dict[int, list[tuple[str, str, str]]] = {}
    for card_id, set_code, number, rarity in Printing.objects.filter(card__game=game).values_list(
        "card_id", "card_set__code", "code", "rarity"
    ):
        printings.setdefault(card_id, []).append((set_code, number, rarity))
    table = game_fields(game.slug)
    # Only the attributes some field reads are kept: the rest (related cards, layouts…) is memory for nothing.
    wanted = {f.attribute for f in table.fields if f.attribute} | set(table.keywords["type"].extra_sources)

    def kept(attributes: Any) -> dict[str, Any]:
        return {k: v for k, v in (attributes or {}).items() if k in wanted}

    rows = [
        Row(
            pk,
            external_id,
            identity,
            name,
            card_type,
            subtypes or [],
            level,
            cost,
            kept(attributes),
            text,
            buildable,
            token,
            printings.get(pk, []),
        )
        for pk, external_id, identity, name, card_type, subtypes, level, cost, attributes, text, buildable, token in (
            Card.objects.filter(game=game)
            .order_by("search_name", "level", "external_id")
            .values_list(
                "pk",
                "external_id",
                "identity",
                "name",
                "card_type",
                "subtypes",
                "level",
                "cost",
                "attributes",
                "text",
                "deck_buildable",
                "is_token",
            )
            .iterator(chunk_size=5000)
        )
    ]
    return CardIndex(rows, table, frozenset(wanted))


# --- answering a query ----------------------------------------------------------------------------


@dataclass
class SearchOutcome:
    pks: list[int]
    explain: str
    suggestions: list[str] = field(default_factory=list)
    # The matching index rows as the pages list them (cards named exactly what was typed first, then name
    # order), with identity, deck_buildable…: the pages take the order, the count and the page from them.
    rows: list[Row] = field(default_factory=list)
    key: tuple[Any, ...] = ()
    # The index that answered and its game: the pages read the page's printings from it.
    index: CardIndex | None = None
    game: Game | None = None


class SearchError(ValueError):
    """A query that cannot be read, worded in the request's language; ``start``/``end`` mark the token."""

    def __init__(self, message: str, error: QueryError) -> None:
        super().__init__(message)
        self.error = error


def _phrases() -> dict[str, str]:
    return {
        "name_words": _("name has %(values)s"),
        "name_exact": _("name is “%(value)s”"),
        "contains": _("%(field)s has %(values)s"),
        "equals": _("%(field)s is %(value)s"),
        "not_equals": _("%(field)s is not %(value)s"),
        "compare": _("%(field)s %(op)s %(value)s"),
        "regex": _("%(field)s matches /%(value)s/"),
        "banned": _("banned in %(format)s"),
        "limited": _("limited in %(format)s"),
        "legal": _("legal in %(format)s"),
        "buildable": _("deck-buildable"),
        "not_buildable": _("not deck-buildable"),
        "colors_at_least": _("%(field)s includes %(value)s"),
        "colors_exactly": _("%(field)s exactly %(value)s"),
        "colors_at_most": _("%(field)s within %(value)s"),
        "not": _("not %(item)s"),
        "or": _(" or "),
        "all": _("every card"),
        "and_words": _(" and "),
        "quote": _("“%s”"),
    }


def error_message(error: QueryError, text: str) -> str:
    """The error in the reader's language, naming the token and where it is (1-based character)."""
    p = {
        **error.params,
        "pos": error.start + 1,
        "token": error.params.get("token") or text[error.start : error.end],
    }
    messages = {
        "unknown_field": _("Unknown field “%(token)s” at character %(pos)s."),
        "bad_operator": _("“%(token)s” at character %(pos)s: %(field)s takes %(operators)s."),
        "empty_value": _("“%(token)s” at character %(pos)s needs a value."),
        "not_a_number": _("“%(token)s” at character %(pos)s is not a number (%(field)s compares numbers)."),
        "unclosed_quote": _("The quote at character %(pos)s is never closed."),
        "unclosed_regex": _("The /regular expression/ at character %(pos)s is never closed."),
        "unclosed_paren": _("The “(” at character %(pos)s is never closed."),
        "unopened_paren": _("The “)” at character %(pos)s closes nothing."),
        "or_needs_term": _("“%(token)s” at character %(pos)s needs a term on both sides."),
        "empty_group": _("Nothing to search for at character %(pos)s."),
        "dangling_minus": _("“-” at character %(pos)s negates nothing."),
        "too_deep": _("Too many nested parentheses at character %(pos)s (at most %(max)s)."),
        "too_long": _("The query is longer than %(max)s characters."),
        "too_many_terms": _("Too many terms from character %(pos)s (at most %(max)s)."),
        "regex_too_long": _("The regular expression at character %(pos)s is longer than %(max)s characters."),
        "bad_regex": _("The regular expression at character %(pos)s cannot be read: %(reason)s."),
        "regex_not_here": _("“%(token)s” at character %(pos)s: %(field)s takes no regular expression."),
        "unknown_format": _("“%(token)s” at character %(pos)s: no format of that name (%(known)s)."),
        "no_legality": _("“%(token)s” at character %(pos)s: this game has no ban lists."),
        "unexpected": _("Unexpected “%(token)s” at character %(pos)s."),
    }
    message = messages.get(error.code, _("Cannot read the query at character %(pos)s.")) % p
    near = error.params.get("suggestions")
    if near:
        message += " " + _("Did you mean %(words)s?") % {"words": ", ".join(f"{w}:" for w in near)}
    return message


def _legality(
    game: Game, on_date: date, formats_seen: dict[str, str], default_format: str = ""
) -> Callable[[str, str, Term], Predicate]:
    def build(what: str, fmt: str, term: Term) -> Predicate:
        fmt = fmt or default_format  # banned: with no format: the page's format (the deck's), else the first
        if legality_provider is None:
            raise QueryError("no_legality", term.start, term.end, token=term.typed)
        try:
            found = legality_provider(game, fmt, on_date)
        except KeyError as exc:
            raise QueryError("unknown_format", term.start, term.end, token=fmt or term.typed,
                             known=", ".join(exc.args[0] if exc.args else ())) from None  # fmt: skip
        if found is None:
            raise QueryError("no_legality", term.start, term.end, token=term.typed)
        name, limits, whitelist = found
        formats_seen[term.value.strip().casefold()] = name

        def limit_of(card: Any) -> int:
            limit = limits.get(card.external_id)
            if limit is None:
                limit = limits.get(card.identity)
            if limit is None:
                return 0 if whitelist else 3
            return limit

        wanted = {
            "banned": lambda limit: limit == 0,
            "limited": lambda limit: limit in (1, 2),
        }.get(what, lambda limit: limit > 0)
        return _LegalityTest(limit_of, wanted, limits, whitelist)

    return build


class _LegalityTest:
    """A legality predicate that also carries its ban list, so the index answers ``banned:`` from the
    list's few hundred entries instead of testing every card (cardsearch.index.CardIndex._legal)."""

    __slots__ = ("limit_of", "limits", "wanted", "whitelist")

    def __init__(self, limit_of: Callable[[Any], int], wanted: Callable[[int], bool], limits: dict[str, int],
                 whitelist: bool) -> None:  # fmt: skip
        self.limit_of, self.wanted, self.limits, self.whitelist = limit_of, wanted, limits, whitelist

    def __call__(self, card: Any) -> bool:
        return self.wanted(self.limit_of(card))


def card_query(
    *,
    game: Game,
    text: str,
    on_date: date | None = None,
    lang: str = "en",
    default: str = "",
    format_slug: str = "",
) -> SearchOutcome:
    """Card ids matching ``text`` in name order, the query in words and suggestions. Raises SearchError.

    ``default`` is the player's default part (a saved search marked default): added as one more term,
    read apart so an error in what they typed still points at their own characters."""
    table = game_fields(game.slug)
    try:
        node = typed = parse(text, table.keywords)
        if default:
            try:
                extra = parse(default, table.keywords)
            except QueryError:
                extra = None  # checked when saved; a rule-set change may break it later: then it is left out
            if extra is not None:
                node = extra if node is None else And((node, extra))
        index = game_index(game)
        formats_seen: dict[str, str] = {}
        context = Context(
            printings=lambda card: card.printings,
            legality=_legality(game, on_date or date.today(), formats_seen, format_slug),
        )
        rows = index.search(node, context)
    except QueryError as exc:
        raise SearchError(error_message(exc, text), exc) from None
    words = explain(node, table, lang, _phrases(), formats_seen)
    typed_name = " ".join(_name_words(typed))
    if typed_name and rows:
        # Ranking: a card named exactly what was typed comes first ("dark magician" before "Dark
        # Magician Girl", "blue eyes white dragon" before its alternative), then the index's name order.
        exact = set(index.with_name(typed_name)).intersection(rows)
        if exact:
            rows = sorted(exact) + [i for i in rows if i not in exact]
    matched = [index.rows[i] for i in rows]
    pks = [row.pk for row in matched]
    # Suggestions rewrite what the player typed (character positions in ``text``), never the default part.
    suggestions = [] if pks or typed is None else _suggest(index, typed, text, context)
    return SearchOutcome(
        pks=pks, explain=words, suggestions=suggestions, rows=matched, index=index, game=game
    )


def _name_words(node: object) -> list[str]:
    """The bare name words a query asks for at its top level (none under ``-`` or ``or``)."""
    if isinstance(node, Term):
        return [node.value] if not node.field and node.kind in {"word", "exact"} else []
    if isinstance(node, And):
        return [w for item in node.items if isinstance(item, Term) for w in _name_words(item)]
    return []


def _suggest(index: CardIndex, node: object, text: str, context: Context) -> list[str]:
    """For an empty answer: the query with a name word one edit away, or the same words in rules text."""
    terms = terms_of(node)
    bare = [t for t in terms if not t.field and t.kind == "word"]
    out: list[str] = []
    if not bare:
        return out
    vocabulary = _vocabulary(index)
    for term in bare:
        for word in fold(term.value).split():
            if index.words("name").containing(word):
                continue
            for near in _near_words(word, vocabulary)[:8]:
                fixed = fold(term.value).replace(word, near)
                candidate = text[: term.start] + fixed + text[term.end :]
                if index.search(parse(candidate, index.table.keywords), context):
                    out.append(candidate)
                    break
    if len(bare) == len(terms):
        phrase = " ".join(t.value for t in bare)
        candidate = f'o:"{phrase}"'
        if index.search(parse(candidate, index.table.keywords), context):
            out.append(candidate)
    return out[:3]


def _vocabulary(index: CardIndex) -> dict[int, set[str]]:
    """The game's name words by length, kept on the index (built on the first near miss)."""
    vocabulary = getattr(index, "vocabulary", None)
    if vocabulary is None:
        vocabulary = {}
        for row in index.rows:
            for word in row.folded["name"].split():
                vocabulary.setdefault(len(word), set()).add(word)
        index.vocabulary = vocabulary  # type: ignore[attr-defined]
    return vocabulary


def _near_words(word: str, vocabulary: dict[int, set[str]]) -> list[str]:
    """Name words one edit away, a changed letter before a dropped or added one."""

    found: list[str] = []
    for length in (len(word), len(word) - 1, len(word) + 1):
        found.extend(
            sorted(
                c
                for c in vocabulary.get(length, ())
                if c[:1] == word[:1] and edit_distance(word, c, cap=1) <= 1
            )
        )
    return found


def cards_matching(
    *, game: Game, text: str, cards: list[Card], on_date: date | None = None, lang: str = "en"
) -> tuple[set[int], str]:
    """The ids of ``cards`` (a deck's own lines) the query matches, and the query in words: the evaluator's
    predicate card by card (the same one FILTER's conditions use), no index needed. Raises SearchError."""
    table = game_fields(game.slug)
    printings: dict[int, list[tuple[str, str, str]]] = {}
    for card_id, set_code, number, rarity in Printing.objects.filter(card__in=cards).values_list(
        "card_id", "card_set__code", "code", "rarity"
    ):
        printings.setdefault(card_id, []).append((set_code, number, rarity))
    formats_seen: dict[str, str] = {}
    try:
        node = parse(text, table.keywords)
        context = Context(
            printings=lambda card: printings.get(card.pk, []),
            legality=_legality(game, on_date or date.today(), formats_seen),
        )
        test = compile_query(node, table, context)
        matched = {card.pk for card in cards if test(card)}
    except QueryError as exc:
        raise SearchError(error_message(exc, text), exc) from None
    return matched, explain(node, table, lang, _phrases(), formats_seen)


def card_query_explain(*, game: Game, text: str, lang: str = "en") -> str:
    """The query in words without running it (the help page's examples); raises SearchError."""
    table = game_fields(game.slug)
    try:
        node = parse(text, table.keywords)
        for term in terms_of(node):
            resolve(term, table)
    except QueryError as exc:
        raise SearchError(error_message(exc, text), exc) from None
    return explain(node, table, lang, _phrases(), {})


def query_check(*, game: Game, text: str) -> None:
    """Raises SearchError when ``text`` cannot be read for the game (saved searches are checked so)."""
    card_query_explain(game=game, text=text)


def search_fields(slug: str, lang: str) -> dict[str, Any]:
    table = game_fields(slug)
    return {"game": slug, "fields": table.describe(lang), "examples": list(table.examples)}
