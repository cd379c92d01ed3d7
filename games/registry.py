"""Rule sets are data: one TOML file per game in games/rulesets/, loaded into a registry.

A new game or format needs a data file, not code. The schema is declared once in ``schema.py`` (the
README's reference is generated from it); loading checks every file against it and names the file, key
and line of any mistake. A broken file does not stop the others from loading (``Registry.errors``).
"""

from __future__ import annotations

import logging
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from . import schema
from .boosters import BoosterSpec, parse_boosters
from .errors import RuleSetError
from .filters import CardPredicate, compile_filter
from .pairs import PairRule
from .schema import key_lines, located

log = logging.getLogger(__name__)

RULESETS_DIR = Path(__file__).resolve().parent / "rulesets"
COPY_KEYS = ("name", "identity", "name_level")
# Card columns a search filter may name besides attribute keys, and the one kind each allows: the card
# search takes type/subtype as one value and level/cost as a min–max range.
SEARCH_FILTER_BUILTINS = {"type": "choice", "subtype": "choice", "level": "range", "cost": "range"}
SEARCH_FILTER_KINDS = ("choice", "range")
# Same rule as the card search's attribute names (cards.selectors.ATTR_KEY_RE): letters, digits and _.
_ATTR_KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")


def word_for(words: Mapping[str, Any], lang: str) -> str:
    """A data label's word in ``lang`` (``pt-br`` tries ``pt-br``, then ``pt``), English when the rule set
    has none in it, any word it has as the last resort: a new language is data, never a code change."""
    for key in (lang, lang.split("-")[0], "en"):
        if words.get(key):
            return str(words[key])
    return next((str(v) for v in words.values() if v), "")


def _names(en: str, ru: str = "", extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Language → word: the thing's own English and Russian names, then the ``[game.labels]`` words for
    the other languages (its own names win where both say something)."""
    out = dict(extra or {})
    out["en"] = en
    if ru:
        out["ru"] = ru
    return out


class UnknownName(KeyError):
    """A game, format or section the rule sets do not have. Like every engine message it is a key with
    named parameters, worded for people at the edge (``rules.messages.error_message``, in their
    language); ``str()`` is the English of logs and scripts. A KeyError, so callers that only need "not
    there" keep catching that."""

    def __init__(self, key: str, **params: str) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:  # for logs, scripts and rule-set authors; people read error_message
        p = self.params
        if self.key == "lookup.unknown_game":
            return f"unknown game {p['game']!r}; known games: {p['known']}"
        if self.key == "lookup.unknown_format":
            return f"game {p['game']!r} has no format {p['format']!r}; its formats: {p['known']}"
        return f"{p['game']}/{p['format']} has no section {p['section']!r} (sections: {p['known']})"


@dataclass(frozen=True, slots=True)
class SizeRule:
    """Exact size, a min–max range (either end open) or a set of allowed sizes (twin-deck: 0 or 16)."""

    exact: int | None = None
    min: int | None = None
    max: int | None = None
    allowed: tuple[int, ...] | None = None

    def ok(self, n: int) -> bool:
        if self.exact is not None:
            return n == self.exact
        if self.allowed is not None:
            return n in self.allowed
        return (self.min is None or n >= self.min) and (self.max is None or n <= self.max)

    def as_params(self) -> dict[str, Any]:
        """The size as message parameters: the words ("exactly 40", "40 to 60") come from the catalogues."""
        if self.exact is not None:
            return {"kind": "exact", "n": self.exact}
        if self.allowed is not None:
            return {"kind": "allowed", "values": list(self.allowed)}
        if self.min is not None and self.max is not None:
            return {"kind": "range", "min": self.min, "max": self.max}
        if self.min is not None:
            return {"kind": "min", "n": self.min}
        if self.max is not None:
            return {"kind": "max", "n": self.max}
        return {"kind": "any"}

    @property
    def limit(self) -> int | None:
        """The number a report's ``limit`` field shows: the bound that is broken most naturally."""
        if self.exact is not None:
            return self.exact
        if self.allowed:
            return max(self.allowed)
        return self.max if self.max is not None else self.min

    def nearest_limit(self, n: int) -> int | None:
        if self.exact is not None:
            return self.exact
        if self.allowed:
            return min(self.allowed, key=lambda a: (abs(a - n), a))
        if self.min is not None and n < self.min:
            return self.min
        return self.max if self.max is not None else self.min


@dataclass(frozen=True, slots=True)
class SectionRules:
    slug: str
    name: str
    name_ru: str
    size: SizeRule = field(default_factory=SizeRule)
    accept_spec: Any = None
    accept: CardPredicate | None = None
    counted: bool = True
    provisional: bool = False
    description: str = ""
    # Language → name (``name``/``name_ru`` and the game's ``[game.labels.sections]`` words).
    names: Mapping[str, str] = field(default_factory=dict)

    def words(self) -> dict[str, str]:
        """Language → name: what a report's parameter carries (rendered at the edge)."""
        return dict(self.names) if self.names else _names(self.name, self.name_ru)

    def title(self, lang: str = "en") -> str:
        return word_for(self.words(), lang)


@dataclass(frozen=True, slots=True)
class CopyLimitRules:
    """At most ``max`` copies per key (name / identity / name+level) counted over ``scope`` together."""

    key: str
    scope: tuple[str, ...]
    max: int
    exceptions: Mapping[str, int] = field(default_factory=dict)
    filter_spec: Any = None
    filter: CardPredicate | None = None


@dataclass(frozen=True, slots=True)
class TeamRule:
    """Team deck construction (``unified``): a card ``filter`` matches in at most one teammate's deck."""

    rule: str
    key: str
    scope: tuple[str, ...]
    filter_spec: Any = None
    filter: CardPredicate | None = None


@dataclass(frozen=True, slots=True)
class IdentityRule:
    """Deck cards' identity must be a subset of the hero's (Magic's colour identity), as data.

    A card's identity is the set of ``values`` found in its ``fields``: list values element by element,
    strings through ``pattern``'s groups when given (``{2}{W/U}`` -> ``2``, ``W/U``), else whole.
    """

    label: str
    label_ru: str
    fields: tuple[str, ...]
    pattern: re.Pattern[str] | None
    values: tuple[str, ...]
    # Text left out before reading (Magic's reminder text: extort's "{W/B}" names no colour of the card).
    ignore: re.Pattern[str] | None = None

    def of(self, card: Any) -> frozenset[str]:
        found: set[str] = set()
        for name in self.fields:
            if name == "text":
                raw: Any = card.text
            elif name == "name":
                raw = card.name
            elif name == "type":
                raw = card.card_type
            else:
                raw = card.attributes.get(name)
            for item in raw if isinstance(raw, list | tuple) else (raw,):
                if not isinstance(item, str) or not item:
                    continue
                if self.ignore is not None:
                    item = self.ignore.sub("", item)
                if self.pattern is None:
                    texts = [item]
                else:
                    texts = [g for m in self.pattern.finditer(item) for g in m.groups() if g]
                for text in texts:
                    found.update(v for v in self.values if v in text)
        return frozenset(found)


@dataclass(frozen=True, slots=True)
class HeroRules:
    required: bool = True
    accept_spec: Any = None
    accept: CardPredicate | None = None
    scope: tuple[str, ...] = ("main",)
    label: str = "Hero"
    label_ru: str = "Герой"
    # A section whose size counts the hero too (Magic's Commander: 99 cards + the commander = 100).
    counts_in: str | None = None
    identity: IdentityRule | None = None
    # Language → the slot's name (``label``/``label_ru`` and ``[game.labels.heroes]``).
    names: Mapping[str, str] = field(default_factory=dict)
    # Ways two cards share the slot (Magic's partners, backgrounds): games/pairs.py.
    pairs: tuple[PairRule, ...] = ()

    def words(self) -> dict[str, str]:
        """Language → name: what a report's parameter carries (rendered at the edge)."""
        return dict(self.names) if self.names else _names(self.label, self.label_ru)

    def title(self, lang: str = "en") -> str:
        return word_for(self.words(), lang)


@dataclass(frozen=True, slots=True)
class BanListPolicy:
    """Which dated ban lists apply to a format (by region) and how they are read."""

    regions: tuple[str, ...] = ()
    whitelist: bool = False
    forbidden_as: int | None = None
    required: bool = False


@dataclass(frozen=True, slots=True)
class SideboardPolicy:
    section: str = "side"
    keep_sizes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FormatRules:
    game_slug: str
    slug: str
    name: str
    name_ru: str
    sections: tuple[SectionRules, ...] = ()
    copy_limits: tuple[CopyLimitRules, ...] = ()
    hero: HeroRules | None = None
    pool_scope: tuple[str, ...] | None = None
    # Cards a limited deck may add beyond its pool (MTR: basic lands), or None.
    pool_free: CardPredicate | None = None
    banlist: BanListPolicy | None = None
    sideboard: SideboardPolicy | None = None
    description: str = ""
    has_decks: bool = True
    section_map: Mapping[str, SectionRules] = field(default_factory=dict)
    # Field -> {language: label}: the game's search filter labels, so report messages name a filter's
    # fields as players know them ("Size L", "Размер L"). Built once by the registry, never per
    # validation; a field without a label is shown by its key (filters.describe_filter).
    field_labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # Which version of the format this is (a format may change on a date: Everseal's 30 -> 30–40 cards).
    version: str = ""
    effective_date: date | None = None
    min_players: int = 2
    max_players: int = 2
    match_format: str = "bo3"
    team: TeamRule | None = None
    # Language → the format's name (``name``/``name_ru`` and ``[game.labels.formats]``).
    names: Mapping[str, str] = field(default_factory=dict)

    def words(self) -> dict[str, str]:
        """Language → name: what a report's parameter carries (rendered at the edge)."""
        return dict(self.names) if self.names else _names(self.name, self.name_ru)

    def title(self, lang: str = "en") -> str:
        return word_for(self.words(), lang)

    def labels(self, lang: str = "en") -> Mapping[str, str]:
        """The ``{field: label}`` mapping in ``lang``, English where the rule set has no word in it (empty
        when the game labels nothing)."""
        return {key: word_for(words, lang) for key, words in self.field_labels.items()}

    def section(self, slug: str) -> SectionRules:
        try:
            return self.section_map[slug]
        except KeyError:
            raise UnknownName(
                "lookup.unknown_section", game=self.game_slug, format=self.slug, section=slug,
                known=", ".join(self.section_map) or "—",
            ) from None  # fmt: skip


@dataclass(frozen=True, slots=True)
class SearchFilter:
    """One filter the card search offers for a game: a built-in card column or an attribute key.

    ``choice`` offers the values present in the game's cards (list attributes: their elements);
    ``range`` offers a min and a max.
    """

    field: str
    kind: str
    label: str
    label_ru: str = ""
    # Language → word: label / label_ru, then the ``[game.labels] fields`` words for other languages.
    names: Mapping[str, str] = field(default_factory=dict)

    @property
    def builtin(self) -> bool:
        return self.field in SEARCH_FILTER_BUILTINS

    def words(self) -> dict[str, str]:
        return dict(self.names) if self.names else _names(self.label, self.label_ru)

    def title(self, lang: str = "en") -> str:
        return word_for(self.words(), lang)


@dataclass(frozen=True, slots=True)
class PlaytestRules:
    mulligan: str = "none"  # "none" | "london"
    draw_first: int = 0
    draw_second: int = 0
    curve_skip_types: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerIdRule:
    """The game's official player ID: its name, the whole-ID pattern and an example (``[game.player_id]``)."""

    name: str
    name_ru: str
    pattern: re.Pattern[str]
    example: str = ""

    def title(self, lang: str = "en") -> str:
        return self.name_ru if lang.startswith("ru") and self.name_ru else self.name

    def accepts(self, value: str) -> bool:
        # IDs are short: the bound keeps a long paste from reaching the pattern at all.
        return len(value) <= 120 and self.pattern.fullmatch(value) is not None


@dataclass(frozen=True, slots=True)
class GameRules:
    slug: str
    name: str
    name_ru: str
    description: str
    has_decks: bool
    min_players: int
    max_players: int
    opening_hand: int | dict[str, int] | None
    first_player: str
    sideboard: bool
    match_format: str
    pod_sizes: tuple[int, ...]
    tiebreakers: str
    version: str
    effective_date: date
    formats: dict[str, FormatRules]
    source: str = ""
    search_filters: tuple[SearchFilter, ...] = ()
    # Every version of each format, oldest first (the last one is ``formats[slug]``).
    format_versions: Mapping[str, tuple[FormatRules, ...]] = field(default_factory=dict)
    # Game 1 of a top-cut match: "higher_seed" (MTR 2.2) or "toss" (the twin-deck game, g001 2.3).
    top_cut_first_player: str = "higher_seed"
    # Ban-list region -> words that mark a list's name as that region ({"tcg": ("TCG",)}).
    banlist_regions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Region -> patterns a whole list name matches when no word marks it ({"ocg": (r"\d{4}\.\d{1,2}",)}).
    banlist_region_names: Mapping[str, tuple[re.Pattern[str], ...]] = field(default_factory=dict)
    # The game's card pictures as a URL template ({external_id}, {identity}), or "" (cards/images.py).
    image_url: str = ""
    # Language → the game's name (``name``/``name_ru`` and ``[game.labels] name``).
    names: Mapping[str, str] = field(default_factory=dict)
    # ``[game.search]`` as plain data: the search language's keywords (cardsearch.field_table reads it).
    search: Mapping[str, Any] = field(default_factory=dict)
    # ``[game.playtest]``: the mulligan rule, first-turn draws, types left out of the cost curve.
    playtest: PlaytestRules = field(default_factory=lambda: PlaytestRules())
    # The deck hash (decks/deckhash.py): "name" or "external_id", and section → prefix of the sections counted.
    deck_hash_key: str = "name"
    deck_hash_sections: Mapping[str, str] = field(default_factory=lambda: {"main": "", "side": "SB:"})
    # The official player ID of sanctioned play, if the game has one.
    player_id: PlayerIdRule | None = None
    # Booster slug → its definition (games/boosters.py): what limited events open.
    boosters: Mapping[str, BoosterSpec] = field(default_factory=dict)

    def words(self) -> dict[str, str]:
        """Language → name: what a report's parameter carries (rendered at the edge)."""
        return dict(self.names) if self.names else _names(self.name, self.name_ru)

    def title(self, lang: str = "en") -> str:
        return word_for(self.words(), lang)

    def region_of(self, list_name: str) -> str:
        """The region a ban list's name names (a whole word, any case), or "" when none does."""
        for region, words in self.banlist_regions.items():
            for word in words:
                if re.search(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", list_name, re.IGNORECASE):
                    return region
        for region, patterns in self.banlist_region_names.items():
            if any(pattern.fullmatch(list_name.strip()) for pattern in patterns):
                return region
        return ""


@dataclass(frozen=True, slots=True)
class Registry:
    games: dict[str, GameRules]
    # Rule-set files that could not be loaded: each message names the file, key and line.
    errors: tuple[str, ...] = ()

    def game(self, slug: str) -> GameRules:
        try:
            return self.games[slug]
        except KeyError:
            raise UnknownName("lookup.unknown_game", game=slug, known=", ".join(sorted(self.games))) from None

    def format(self, game_slug: str, format_slug: str, on_date: date | None = None) -> FormatRules:
        """The format's version in force on ``on_date`` (the latest effective on or before it; a date before
        every version gets the oldest); without a date, its newest version."""
        game = self.game(game_slug)
        try:
            newest = game.formats[format_slug]
        except KeyError:
            raise UnknownName(
                "lookup.unknown_format", game=game_slug, format=format_slug, known=", ".join(game.formats)
            ) from None
        if on_date is None:
            return newest
        versions = game.format_versions.get(format_slug, (newest,))
        chosen = versions[0]
        for version in versions:
            if version.effective_date is None or version.effective_date <= on_date:
                chosen = version
        return chosen


# --- house rules ----------------------------------------------------------------------------------

# A sideboard an organizer allows as a house rule in a game whose rules define none (Everseal, Caster): the side
# deck of the games that have one (Yu-Gi-Oh!, Magic: up to 15 cards), counted in the copy limits like theirs.
HOUSE_SIDEBOARD_SLUG = "side"
HOUSE_SIDEBOARD_SIZE = SizeRule(min=0, max=15)
HOUSE_SIDEBOARD_NAMES = {"en": "Sideboard (house rule)", "ru": "Сайдборд (правило турнира)"}


def with_house_sideboard(fmt: FormatRules) -> FormatRules:
    """``fmt`` as an event plays it when its organizer allows a sideboard as a house rule: the format gains a
    side section (any card of the game, up to 15), swaps between games that must leave a legal deck (no
    one-for-one rule: the deck's own size rule decides) and copy limits counted across the side section too.
    A format that has a sideboard, or no decks, is returned unchanged."""
    if fmt.sideboard is not None or not fmt.has_decks or HOUSE_SIDEBOARD_SLUG in fmt.section_map:
        return fmt
    side = SectionRules(
        slug=HOUSE_SIDEBOARD_SLUG,
        name=HOUSE_SIDEBOARD_NAMES["en"],
        name_ru=HOUSE_SIDEBOARD_NAMES["ru"],
        size=HOUSE_SIDEBOARD_SIZE,
        counted=False,
        names=dict(HOUSE_SIDEBOARD_NAMES),
    )
    sections = (*fmt.sections, side)
    limits = tuple(replace(limit, scope=(*limit.scope, HOUSE_SIDEBOARD_SLUG)) for limit in fmt.copy_limits)
    return replace(
        fmt,
        sections=sections,
        section_map={s.slug: s for s in sections},
        copy_limits=limits,
        sideboard=SideboardPolicy(section=HOUSE_SIDEBOARD_SLUG, keep_sizes=()),
    )


# --- loading --------------------------------------------------------------------------------------


class _Loader:
    """Builds the engine's dataclasses from one validated file; cross-checks name the key and line."""

    def __init__(self, file: str, text: str, labels: schema.LabelsTable | None = None) -> None:
        self.file = file
        self.lines = key_lines(text)
        self.labels = labels or schema.LabelsTable()

    def words(self, table: Mapping[str, schema.LabelText], *keys: str) -> dict[str, str]:
        """The ``[game.labels]`` words of the first key the table has (``format/slug`` before ``slug``)."""
        for key in keys:
            if key in table:
                return table[key].words()
        return {}

    def fail(self, loc: tuple[Any, ...], message: str) -> RuleSetError:
        return located(self.file, self.lines, loc, message)

    def filter(self, loc: tuple[Any, ...], spec: Any) -> CardPredicate | None:
        if spec is None:
            return None
        try:
            return compile_filter(spec)
        except RuleSetError as exc:
            raise self.fail(loc, str(exc)) from None

    def sections(
        self, loc: tuple[Any, ...], tables: list[schema.SectionTable], format_slug: str = ""
    ) -> tuple[SectionRules, ...]:
        out = []
        for i, t in enumerate(tables):
            size = t.size
            words = self.words(self.labels.sections, f"{format_slug}/{t.slug}", t.slug)
            out.append(
                SectionRules(
                    slug=t.slug,
                    name=t.name,
                    name_ru=t.name_ru,
                    names=_names(t.name, t.name_ru, words),
                    size=SizeRule(
                        exact=size.exact,
                        min=size.min,
                        max=size.max,
                        allowed=tuple(sorted(size.allowed)) if size.allowed is not None else None,
                    )
                    if size is not None
                    else SizeRule(),
                    accept_spec=t.accept,
                    accept=self.filter((*loc, i, "accept"), t.accept),
                    counted=t.counted,
                    provisional=t.provisional,
                    description=t.description,
                )
            )
        if len({s.slug for s in out}) != len(out):
            raise self.fail(loc, "two sections share a slug")
        return tuple(out)

    def scope(
        self, loc: tuple[Any, ...], slugs: list[str], sections: Mapping[str, SectionRules]
    ) -> tuple[str, ...]:
        for slug in slugs:
            if slug not in sections:
                raise self.fail(
                    loc, f"no section {slug!r} in this format (its sections: {', '.join(sections)})"
                )
        return tuple(slugs)

    def format(
        self,
        loc: tuple[Any, ...],
        game: schema.GameTable,
        raw: schema.FormatTable | schema.VersionTable,
        base: schema.FormatTable,
        labels: Mapping[str, Mapping[str, str]],
    ) -> FormatRules:
        """One version of a format: ``raw``'s keys, falling back to ``base`` (the format's newest table)."""

        def pick(key: str) -> Any:
            value = getattr(raw, key)
            return getattr(base, key) if value is None and raw is not base else value

        def at(key: str) -> tuple[Any, ...]:
            return (*loc, key) if raw is base or getattr(raw, key) is not None else (*loc[:-2], key)

        sections = self.sections(at("sections"), pick("sections") or [], base.slug)
        section_map = {s.slug: s for s in sections}
        if game.has_decks and not sections:
            raise self.fail(loc, "a game with decks needs at least one section")
        limits = tuple(
            CopyLimitRules(
                key=c.key,
                scope=self.scope((*at("copy_limits"), i, "scope"), c.scope, section_map),
                max=c.max,
                exceptions=dict(c.exceptions),
                filter_spec=c.filter,
                filter=self.filter((*at("copy_limits"), i, "filter"), c.filter),
            )
            for i, c in enumerate(pick("copy_limits") or [])
        )
        hero = None
        if (h := pick("hero")) is not None:
            hloc = at("hero")
            scope = h.scope if h.scope is not None else [s.slug for s in sections if s.counted]
            if h.counts_in is not None and h.counts_in not in section_map:
                raise self.fail((*hloc, "counts_in"), f"no section {h.counts_in!r} in this format")
            identity = None
            if h.identity is not None:
                i = h.identity
                identity = IdentityRule(
                    label=i.label,
                    label_ru=i.label_ru or i.label,
                    fields=tuple(i.fields),
                    pattern=re.compile(i.pattern) if i.pattern else None,
                    values=tuple(i.values),
                    ignore=re.compile(i.ignore) if i.ignore else None,
                )
            hero = HeroRules(
                required=h.required,
                accept_spec=h.accept,
                accept=self.filter((*hloc, "accept"), h.accept),
                scope=self.scope((*hloc, "scope"), scope, section_map),
                label=h.label,
                label_ru=h.label_ru or h.label,
                counts_in=h.counts_in,
                identity=identity,
                names=_names(h.label, h.label_ru or h.label, self.words(self.labels.heroes, h.label)),
                pairs=tuple(
                    PairRule(
                        name=p.name,
                        keyword=p.keyword or "",
                        names_other=p.names_other or "",
                        first=self.filter((*hloc, "pairs", n, "first"), p.first),
                        second=self.filter((*hloc, "pairs", n, "second"), p.second),
                    )
                    for n, p in enumerate(h.pairs)
                ),
            )
        pool_scope = None
        pool_free = None
        if (p := pick("pool")) is not None:
            slugs = p.scope if p.scope is not None else [s.slug for s in sections]
            pool_scope = self.scope((*at("pool"), "scope"), slugs, section_map)
            pool_free = self.filter((*at("pool"), "free"), p.free)
        banlist = None
        if (b := pick("banlist")) is not None:
            banlist = BanListPolicy(
                regions=tuple(r.casefold() for r in b.regions),
                whitelist=b.whitelist,
                forbidden_as=b.forbidden_as,
                required=b.required,
            )
        sideboard = None
        if (sb := pick("sideboard")) is not None:
            if sb.section not in section_map:
                raise self.fail((*at("sideboard"), "section"), f"no section {sb.section!r}")
            keep = self.scope((*at("sideboard"), "keep_sizes"), sb.keep_sizes, section_map)
            sideboard = SideboardPolicy(section=sb.section, keep_sizes=keep)
        effective = raw.effective_date if raw is not base else (base.effective_date or game.effective_date)
        team = None
        if (tm := base.team) is not None:
            # The format's own table only: team rules do not change between dated versions of a format.
            tloc = (*(loc if raw is base else loc[:-2]), "team")
            team = TeamRule(
                rule=tm.rule,
                key=tm.key,
                scope=self.scope((*tloc, "scope"), tm.scope, section_map),
                filter_spec=tm.filter,
                filter=self.filter((*tloc, "filter"), tm.filter),
            )
        return FormatRules(
            game_slug=game.slug,
            slug=base.slug,
            name=base.name,
            name_ru=base.name_ru,
            names=_names(base.name, base.name_ru, self.words(self.labels.formats, base.slug)),
            sections=sections,
            copy_limits=limits,
            hero=hero,
            pool_scope=pool_scope,
            pool_free=pool_free,
            banlist=banlist,
            sideboard=sideboard,
            description=pick("description") or "",
            has_decks=game.has_decks,
            section_map=section_map,
            field_labels=labels,
            version=(raw.version if raw is not base else base.version) or game.version,
            effective_date=effective,
            min_players=pick("min_players") or game.min_players,
            max_players=pick("max_players") or game.max_players,
            match_format=pick("match_format") or game.match_format,
            team=team,
        )

    def versions(
        self,
        loc: tuple[Any, ...],
        game: schema.GameTable,
        base: schema.FormatTable,
        labels: Mapping[str, Any],
    ) -> tuple[FormatRules, ...]:
        """Every version of a format, oldest first; the ``[[formats]]`` table itself is the newest."""
        newest = self.format(loc, game, base, base, labels)
        older = [
            self.format((*loc, "versions", i), game, v, base, labels) for i, v in enumerate(base.versions)
        ]
        undated = [i for i, v in enumerate(base.versions) if v.effective_date is None]
        if len(undated) > 1:
            raise self.fail(
                (*loc, "versions", undated[1], "effective_date"),
                "only the oldest version may leave out its effective date",
            )
        names = [newest.version, *(v.version for v in older)]
        if len(set(names)) != len(names):
            raise self.fail((*loc, "versions"), f"two versions share a name ({names})")
        for i, v in enumerate(older):
            if (
                v.effective_date is not None
                and newest.effective_date is not None
                and v.effective_date >= newest.effective_date
            ):
                raise self.fail(
                    (*loc, "versions", i, "effective_date"),
                    f"{v.effective_date} is not before the format's own effective date {newest.effective_date}: "
                    "the [[formats]] table is the newest version, [[formats.versions]] the earlier ones",
                )
        older.sort(key=lambda v: (v.effective_date is not None, v.effective_date or date.min))
        return (*older, newest)

    def check_name_labels(self, formats: list[schema.FormatTable]) -> None:
        """``[game.labels]`` names only formats, sections and hero slots the file has: a typo would otherwise
        leave a word silently unused."""
        sections: dict[str, set[str]] = {}
        heroes: set[str] = set()
        for f in formats:
            for version in (f, *f.versions):
                sections.setdefault(f.slug, set()).update(s.slug for s in version.sections or [])
                if version.hero is not None:
                    heroes.add(version.hero.label)
        loc = ("game", "labels")
        for slug in self.labels.formats:
            if slug not in sections:
                raise self.fail((*loc, "formats"), f"no format {slug!r} (formats: {', '.join(sections)})")
        for key in self.labels.sections:
            fmt, _, slug = key.rpartition("/")
            known = sections.get(fmt, set()) if fmt else set().union(*sections.values())
            if slug not in known:
                raise self.fail((*loc, "sections"), f"no section {key!r} in this file")
        for label in self.labels.heroes:
            if label not in heroes:
                raise self.fail(
                    (*loc, "heroes"), f"no hero slot labelled {label!r} (slots: {sorted(heroes)})"
                )

    def search_filters(self, tables: list[schema.SearchFilterTable]) -> tuple[SearchFilter, ...]:
        loc = ("game", "search_filters")
        seen: set[str] = set()
        out = []
        for i, t in enumerate(tables):
            if t.field not in SEARCH_FILTER_BUILTINS and not _ATTR_KEY_RE.match(t.field):
                raise self.fail(
                    (*loc, i, "field"),
                    f"{t.field!r} is neither one of {sorted(SEARCH_FILTER_BUILTINS)} "
                    "nor an attribute key (letters, digits and _)",
                )
            builtin_kind = SEARCH_FILTER_BUILTINS.get(t.field)
            if builtin_kind is not None and t.kind != builtin_kind:
                raise self.fail((*loc, i, "kind"), f"{t.field!r} can only be searched as {builtin_kind!r}")
            if t.field in seen:
                raise self.fail((*loc, i, "field"), f"{t.field!r} is listed twice")
            seen.add(t.field)
            names = _names(t.label, t.label_ru, self.words(self.labels.fields, t.field))
            out.append(
                SearchFilter(field=t.field, kind=t.kind, label=t.label, label_ru=t.label_ru, names=names)
            )
        return tuple(out)


def field_labels(search_filters: tuple[SearchFilter, ...]) -> dict[str, dict[str, str]]:
    """Field -> {language: label} from a game's search filters, every language the rule set names: a report
    carries them as data and the edge picks the reader's language, English when the rule set lacks it."""
    return {f.field: f.words() for f in search_filters}


def load_game(path: Path) -> GameRules:
    """Read and check one rule-set file; RuleSetError names the file, the key and the line of a mistake."""
    where = path.name
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleSetError(f"{where}: not valid TOML: {exc}") from None
    parsed = schema.validate_file(where, text, data)
    g = parsed.game
    loader = _Loader(where, text, g.labels)
    search_filters = loader.search_filters(g.search_filters)
    labels = field_labels(search_filters)
    formats: dict[str, FormatRules] = {}
    versions: dict[str, tuple[FormatRules, ...]] = {}
    for i, raw in enumerate(parsed.formats):
        if raw.slug in formats:
            raise loader.fail(("formats", i, "slug"), f"two formats share the slug {raw.slug!r}")
        versions[raw.slug] = loader.versions(("formats", i), g, raw, labels)
        formats[raw.slug] = versions[raw.slug][-1]
    loader.check_name_labels(parsed.formats)
    return GameRules(
        slug=g.slug,
        name=g.name,
        name_ru=g.name_ru,
        description=g.description,
        has_decks=g.has_decks,
        min_players=g.min_players,
        max_players=g.max_players,
        opening_hand=g.opening_hand,
        first_player=g.first_player,
        top_cut_first_player=g.top_cut_first_player,
        sideboard=g.sideboard,
        match_format=g.match_format,
        pod_sizes=tuple(g.pod_sizes),
        tiebreakers=g.tiebreakers,
        version=g.version,
        effective_date=g.effective_date,
        formats=formats,
        source=str(path),
        search_filters=search_filters,
        format_versions=versions,
        banlist_regions={r.casefold(): tuple(words) for r, words in g.banlist_regions.items()},
        image_url=g.image_url or "",
        banlist_region_names={
            r.casefold(): tuple(re.compile(p) for p in patterns)
            for r, patterns in g.banlist_region_names.items()
        },
        names=_names(g.name, g.name_ru, g.labels.name.words() if g.labels.name else None),
        search=g.search.model_dump(),
        playtest=PlaytestRules(
            mulligan=g.playtest.mulligan,
            draw_first=g.playtest.draw_first,
            draw_second=g.playtest.draw_second,
            curve_skip_types=tuple(g.playtest.curve_skip_types),
        ),
        deck_hash_key=g.deck_hash.key,
        deck_hash_sections=dict(g.deck_hash.sections),
        player_id=PlayerIdRule(
            name=g.player_id.name,
            name_ru=g.player_id.name_ru,
            pattern=re.compile(g.player_id.pattern),
            example=g.player_id.example,
        )
        if g.player_id is not None
        else None,
        boosters=parse_boosters(parsed.boosters, f"{where}: "),
    )


def load_registry(directory: Path = RULESETS_DIR, *, strict: bool = True) -> Registry:
    """Load every ``*.toml`` of ``directory``. ``strict`` raises on the first broken file; otherwise a broken
    file is left out, its message kept in ``Registry.errors``, and the other games still load."""
    games: dict[str, GameRules] = {}
    errors: list[str] = []
    for path in sorted(directory.glob("*.toml")):
        try:
            game = load_game(path)
            if game.slug in games:
                raise RuleSetError(f"{path.name}: game slug {game.slug!r} is already defined by another file")
        except RuleSetError as exc:
            if strict:
                raise
            errors.append(str(exc))
            continue
        games[game.slug] = game
    return Registry(games=games, errors=tuple(errors))


@cache
def default_registry() -> Registry:
    """The registry of the rule sets shipped in games/rulesets/, loaded once per process. A broken file is
    logged and left out, so one mistake does not take every game down (``sync_games`` reports it too)."""
    registry = load_registry(strict=False)
    for message in registry.errors:
        log.error("rule set not loaded: %s", message)
    return registry


@cache
def game_labels(game_slug: str) -> Mapping[str, Any]:
    """The game's ``[game.labels]`` table (words for its card fields and values, rules/README.md
    "Labels"), read from its rule-set file as it stands; ``{}`` when the game labels nothing."""
    source = default_registry().game(game_slug).source
    data = tomllib.loads(Path(source).read_text(encoding="utf-8"))
    labels = data["game"].get("labels", {})
    return labels if isinstance(labels, Mapping) else {}
