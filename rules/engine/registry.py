"""Rule sets are data: one TOML file per game in rules/rulesets/, loaded into a registry.

A new game or format needs a data file, not code. The schema is documented in rules/README.md;
loading checks it and names the file and key of any mistake.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from .errors import RuleSetError
from .filters import CardPredicate, compile_filter, describe_filter

RULESETS_DIR = Path(__file__).resolve().parent.parent / "rulesets"
COPY_KEYS = ("name", "identity", "name_level")
# Card columns a search filter may name besides attribute keys, and the one kind each allows: the card
# search takes type/subtype as one value and level/cost as a min–max range.
SEARCH_FILTER_BUILTINS = {"type": "choice", "subtype": "choice", "level": "range", "cost": "range"}
SEARCH_FILTER_KINDS = ("choice", "range")
# Same rule as the card search's attribute names (cards.selectors.ATTR_KEY_RE): letters, digits and _.
_ATTR_KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")
_NO_LABELS: Mapping[str, str] = {}


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

    def describe(self, lang: str = "en") -> str:
        en = lang == "en"
        if self.exact is not None:
            return f"exactly {self.exact}" if en else f"ровно {self.exact}"
        if self.allowed is not None:
            return (" or " if en else " или ").join(str(n) for n in self.allowed)
        if self.min is not None and self.max is not None:
            return f"{self.min} to {self.max}" if en else f"от {self.min} до {self.max}"
        if self.min is not None:
            return f"at least {self.min}" if en else f"не менее {self.min}"
        if self.max is not None:
            return f"at most {self.max}" if en else f"не более {self.max}"
        return "any number" if en else "любое количество"

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

    def title(self, lang: str = "en") -> str:
        return self.name_ru if lang == "ru" and self.name_ru else self.name


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
class HeroRules:
    required: bool = True
    accept_spec: Any = None
    accept: CardPredicate | None = None
    scope: tuple[str, ...] = ("main",)


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
    banlist: BanListPolicy | None = None
    sideboard: SideboardPolicy | None = None
    description: str = ""
    has_decks: bool = True
    section_map: Mapping[str, SectionRules] = field(default_factory=dict)
    # Language ("en" / "ru") -> {field: label}: the game's search filter labels, so report messages name a
    # filter's fields as players know them ("Size L", "Размер L"). Built once by the registry, never per
    # validation; a field without a label is shown by its key (filters.describe_filter).
    field_labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def labels(self, lang: str = "en") -> Mapping[str, str]:
        """The ``{field: label}`` mapping in ``lang`` (empty when the game labels nothing)."""
        return self.field_labels.get("ru" if lang.startswith("ru") else "en", _NO_LABELS)

    def describe(self, spec: Any) -> tuple[str, str]:
        """A FILTER in words, English and Russian, naming fields by the game's labels."""
        return (
            describe_filter(spec, "en", self.labels("en")),
            describe_filter(spec, "ru", self.labels("ru")),
        )

    def section(self, slug: str) -> SectionRules:
        try:
            return self.section_map[slug]
        except KeyError:
            known = ", ".join(self.section_map) or "none"
            raise KeyError(
                f"{self.game_slug}/{self.slug} has no section {slug!r} (sections: {known})"
            ) from None


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

    @property
    def builtin(self) -> bool:
        return self.field in SEARCH_FILTER_BUILTINS

    def title(self, lang: str = "en") -> str:
        return self.label_ru if lang == "ru" and self.label_ru else self.label


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


@dataclass(frozen=True, slots=True)
class Registry:
    games: dict[str, GameRules]

    def game(self, slug: str) -> GameRules:
        try:
            return self.games[slug]
        except KeyError:
            known = ", ".join(sorted(self.games))
            raise KeyError(f"unknown game {slug!r}; known games: {known}") from None

    def format(self, game_slug: str, format_slug: str) -> FormatRules:
        game = self.game(game_slug)
        try:
            return game.formats[format_slug]
        except KeyError:
            known = ", ".join(game.formats)
            raise KeyError(
                f"game {game_slug!r} has no format {format_slug!r}; its formats: {known}"
            ) from None


# --- loading --------------------------------------------------------------------------------------

_GAME_KEYS = {
    "slug", "name", "name_ru", "description", "has_decks", "min_players", "max_players", "opening_hand",
    "first_player", "sideboard", "match_format", "pod_sizes", "tiebreakers", "version", "effective_date",
    "search_filters", "labels",
}  # fmt: skip
_FORMAT_KEYS = {
    "slug", "name", "name_ru", "description", "sections", "copy_limits", "hero", "pool", "banlist", "sideboard",
}  # fmt: skip
_SECTION_KEYS = {"slug", "name", "name_ru", "size", "accept", "counted", "provisional", "description"}
_FIRST_PLAYER = {"loser_goes_first", "loser_chooses"}


def _check_keys(where: str, table: Mapping[str, Any], allowed: set[str]) -> None:
    unknown = set(table) - allowed
    if unknown:
        raise RuleSetError(f"{where}: unknown key(s) {sorted(unknown)}; allowed: {sorted(allowed)}")


def _require(where: str, table: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in table:
        raise RuleSetError(f"{where}: missing key {key!r}")
    value = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RuleSetError(f"{where}.{key}: expected {kind}, got {value!r}")
    return value


def _size(where: str, raw: Any) -> SizeRule:
    if raw is None:
        return SizeRule()
    if isinstance(raw, int):
        return SizeRule(exact=raw)
    if not isinstance(raw, Mapping):
        raise RuleSetError(f"{where}.size: expected a table, got {raw!r}")
    _check_keys(f"{where}.size", raw, {"exact", "min", "max", "allowed"})
    if "allowed" in raw:
        allowed = raw["allowed"]
        if not isinstance(allowed, list) or not all(isinstance(n, int) for n in allowed):
            raise RuleSetError(f"{where}.size.allowed: expected a list of integers, got {allowed!r}")
        return SizeRule(allowed=tuple(sorted(allowed)))
    return SizeRule(exact=raw.get("exact"), min=raw.get("min"), max=raw.get("max"))


def _filter(where: str, spec: Any) -> CardPredicate | None:
    if spec is None:
        return None
    try:
        return compile_filter(spec)
    except RuleSetError as exc:
        raise RuleSetError(f"{where}: {exc}") from None


def _section(where: str, raw: Mapping[str, Any]) -> SectionRules:
    _check_keys(where, raw, _SECTION_KEYS)
    slug = _require(where, raw, "slug", str)
    return SectionRules(
        slug=slug,
        name=_require(where, raw, "name", str),
        name_ru=raw.get("name_ru", ""),
        size=_size(where, raw.get("size")),
        accept_spec=raw.get("accept"),
        accept=_filter(f"{where}.accept", raw.get("accept")),
        counted=bool(raw.get("counted", True)),
        provisional=bool(raw.get("provisional", False)),
        description=raw.get("description", ""),
    )


def _copy_limit(where: str, raw: Mapping[str, Any], sections: Mapping[str, SectionRules]) -> CopyLimitRules:
    _check_keys(where, raw, {"key", "scope", "max", "exceptions", "filter"})
    key = _require(where, raw, "key", str)
    if key not in COPY_KEYS:
        raise RuleSetError(f"{where}.key: {key!r} is not one of {COPY_KEYS}")
    scope = tuple(_require(where, raw, "scope", list))
    for slug in scope:
        if slug not in sections:
            raise RuleSetError(f"{where}.scope: no section {slug!r} in this format")
    return CopyLimitRules(
        key=key,
        scope=scope,
        max=_require(where, raw, "max", int),
        exceptions={str(k): int(v) for k, v in raw.get("exceptions", {}).items()},
        filter_spec=raw.get("filter"),
        filter=_filter(f"{where}.filter", raw.get("filter")),
    )


def _search_filter(where: str, raw: Any) -> SearchFilter:
    if not isinstance(raw, Mapping):
        raise RuleSetError(f"{where}: expected a table {{ field, kind, label, label_ru }}, got {raw!r}")
    _check_keys(where, raw, {"field", "kind", "label", "label_ru"})
    name = _require(where, raw, "field", str)
    if name not in SEARCH_FILTER_BUILTINS and not _ATTR_KEY_RE.match(name):
        raise RuleSetError(
            f"{where}.field: {name!r} is neither one of {sorted(SEARCH_FILTER_BUILTINS)} "
            "nor an attribute key (letters, digits and _)"
        )
    kind = _require(where, raw, "kind", str)
    if kind not in SEARCH_FILTER_KINDS:
        raise RuleSetError(f"{where}.kind: {kind!r} is not one of {list(SEARCH_FILTER_KINDS)}")
    builtin_kind = SEARCH_FILTER_BUILTINS.get(name)
    if builtin_kind is not None and kind != builtin_kind:
        raise RuleSetError(f"{where}.kind: {name!r} can only be searched as {builtin_kind!r}")
    label = _require(where, raw, "label", str)
    if not label.strip():
        raise RuleSetError(f"{where}.label: must not be empty")
    label_ru = raw.get("label_ru", "")
    if not isinstance(label_ru, str):
        raise RuleSetError(f"{where}.label_ru: expected {str}, got {label_ru!r}")
    return SearchFilter(field=name, kind=kind, label=label, label_ru=label_ru)


def _search_filters(where: str, raw: Any) -> tuple[SearchFilter, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise RuleSetError(f"{where}: expected a list of tables, got {raw!r}")
    filters = tuple(_search_filter(f"{where}[{i}]", item) for i, item in enumerate(raw))
    seen: set[str] = set()
    for i, item in enumerate(filters):
        if item.field in seen:
            raise RuleSetError(f"{where}[{i}].field: {item.field!r} is listed twice")
        seen.add(item.field)
    return filters


def field_labels(search_filters: tuple[SearchFilter, ...]) -> dict[str, dict[str, str]]:
    """Language -> {field: label} from a game's search filters; Russian falls back to the English label
    (as SearchFilter.title does) so a Russian message never shows a raw key the game has a name for."""
    return {lang: {f.field: f.title(lang) for f in search_filters} for lang in ("en", "ru")}


def _format(
    where: str,
    game_slug: str,
    has_decks: bool,
    raw: Mapping[str, Any],
    labels: Mapping[str, Mapping[str, str]] | None = None,
) -> FormatRules:
    _check_keys(where, raw, _FORMAT_KEYS)
    slug = _require(where, raw, "slug", str)
    sections = tuple(_section(f"{where}.sections[{i}]", s) for i, s in enumerate(raw.get("sections", [])))
    section_map = {s.slug: s for s in sections}
    if len(section_map) != len(sections):
        raise RuleSetError(f"{where}: two sections share a slug")
    if has_decks and not sections:
        raise RuleSetError(f"{where}: a game with decks needs at least one section")
    limits = tuple(
        _copy_limit(f"{where}.copy_limits[{i}]", c, section_map)
        for i, c in enumerate(raw.get("copy_limits", []))
    )
    hero = None
    if "hero" in raw:
        h = raw["hero"]
        _check_keys(f"{where}.hero", h, {"required", "accept", "scope"})
        hero = HeroRules(
            required=bool(h.get("required", True)),
            accept_spec=h.get("accept"),
            accept=_filter(f"{where}.hero.accept", h.get("accept")),
            scope=tuple(h.get("scope", [s.slug for s in sections if s.counted])),
        )
    pool_scope = None
    if "pool" in raw:
        _check_keys(f"{where}.pool", raw["pool"], {"scope"})
        pool_scope = tuple(raw["pool"].get("scope", [s.slug for s in sections]))
    banlist = None
    if "banlist" in raw:
        b = raw["banlist"]
        _check_keys(f"{where}.banlist", b, {"regions", "whitelist", "forbidden_as", "required"})
        banlist = BanListPolicy(
            regions=tuple(str(r).casefold() for r in b.get("regions", [])),
            whitelist=bool(b.get("whitelist", False)),
            forbidden_as=b.get("forbidden_as"),
            required=bool(b.get("required", False)),
        )
    sideboard = None
    if "sideboard" in raw:
        sb = raw["sideboard"]
        _check_keys(f"{where}.sideboard", sb, {"section", "keep_sizes"})
        sideboard = SideboardPolicy(
            section=sb.get("section", "side"), keep_sizes=tuple(sb.get("keep_sizes", []))
        )
        if sideboard.section not in section_map:
            raise RuleSetError(f"{where}.sideboard.section: no section {sideboard.section!r}")
    return FormatRules(
        game_slug=game_slug,
        slug=slug,
        name=_require(where, raw, "name", str),
        name_ru=raw.get("name_ru", ""),
        sections=sections,
        copy_limits=limits,
        hero=hero,
        pool_scope=pool_scope,
        banlist=banlist,
        sideboard=sideboard,
        description=raw.get("description", ""),
        has_decks=has_decks,
        section_map=section_map,
        field_labels=labels or {},
    )


def load_game(path: Path) -> GameRules:
    where = path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RuleSetError(f"{where}: not valid TOML: {exc}") from None
    _check_keys(where, data, {"game", "formats"})
    g = _require(where, data, "game", dict)
    gw = f"{where}[game]"
    _check_keys(gw, g, _GAME_KEYS)
    slug = _require(gw, g, "slug", str)
    has_decks = _require(gw, g, "has_decks", bool)
    first_player = _require(gw, g, "first_player", str)
    if first_player not in _FIRST_PLAYER:
        raise RuleSetError(f"{gw}.first_player: {first_player!r} is not one of {sorted(_FIRST_PLAYER)}")
    effective = _require(gw, g, "effective_date", date)
    search_filters = _search_filters(f"{gw}.search_filters", g.get("search_filters"))
    labels = field_labels(search_filters)
    formats: dict[str, FormatRules] = {}
    raw_formats = data.get("formats", [])
    if not raw_formats:
        raise RuleSetError(f"{where}: at least one [[formats]] table is required")
    for i, raw in enumerate(raw_formats):
        fmt = _format(f"{where}[formats][{i}]", slug, has_decks, raw, labels)
        if fmt.slug in formats:
            raise RuleSetError(f"{where}: two formats share the slug {fmt.slug!r}")
        formats[fmt.slug] = fmt
    return GameRules(
        slug=slug,
        name=_require(gw, g, "name", str),
        name_ru=g.get("name_ru", ""),
        description=g.get("description", ""),
        has_decks=has_decks,
        min_players=_require(gw, g, "min_players", int),
        max_players=_require(gw, g, "max_players", int),
        opening_hand=g.get("opening_hand"),
        first_player=first_player,
        sideboard=bool(g.get("sideboard", False)),
        match_format=g.get("match_format", "bo3"),
        pod_sizes=tuple(g.get("pod_sizes", [])),
        tiebreakers=g.get("tiebreakers", "mtg"),
        version=str(_require(gw, g, "version", str)),
        effective_date=effective,
        formats=formats,
        source=str(path),
        search_filters=search_filters,
    )


def load_registry(directory: Path = RULESETS_DIR) -> Registry:
    games: dict[str, GameRules] = {}
    for path in sorted(directory.glob("*.toml")):
        game = load_game(path)
        if game.slug in games:
            raise RuleSetError(f"{path.name}: game slug {game.slug!r} is already defined by another file")
        games[game.slug] = game
    return Registry(games=games)


@cache
def default_registry() -> Registry:
    """The registry of the rule sets shipped in rules/rulesets/, loaded once per process."""
    return load_registry()


@cache
def game_labels(game_slug: str) -> Mapping[str, Any]:
    """The game's ``[game.labels]`` table (words for its card fields and values, rules/README.md
    "Labels"), read from its rule-set file as it stands; ``{}`` when the game labels nothing."""
    source = default_registry().game(game_slug).source
    data = tomllib.loads(Path(source).read_text(encoding="utf-8"))
    labels = data["game"].get("labels", {})
    return labels if isinstance(labels, Mapping) else {}
