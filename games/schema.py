"""The rule-set file schema, declared once (pydantic v2), with errors that name the file, key and line.

Every ``games/rulesets/*.toml`` file is validated against :class:`RuleSetFile`; the registry then builds the
engine's dataclasses from the validated tables and checks what a schema cannot say on its own (a copy-limit
scope naming a section the format has, a FILTER that compiles). The rule-set reference in rules/README.md is
generated from these models (``python manage.py ruleset_reference --write``), so the two cannot disagree.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import RuleSetError

Slug = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")
FILTER_DOC = "a FILTER (see “FILTER language”)"


class _Table(BaseModel):
    # strict: a TOML string is never silently turned into a number or a boolean; extra keys are mistakes.
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SizeTable(_Table):
    """How many cards a section holds. A bare integer (`size = 50`) means `{ exact = 50 }`; no `size` at all
    means any number."""

    exact: int | None = Field(None, ge=0, description="exactly this many")
    min: int | None = Field(None, ge=0, description="at least this many")
    max: int | None = Field(None, ge=0, description="at most this many")
    allowed: list[int] | None = Field(None, description="one of these sizes, e.g. `[0, 16]`")


class SectionTable(_Table):
    """`[[formats.sections]]`: one part of a deck, in display order."""

    slug: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$", description="section id, e.g. `main`")
    name: str = Field(min_length=1, description="English name")
    name_ru: str = Field("", description="Russian name")
    size: SizeTable | None = Field(
        None, description="`{ exact }`, `{ min, max }`, `{ allowed = [...] }` or an integer"
    )
    accept: Any = Field(
        None, description=f"{FILTER_DOC}: the cards the section takes; absent: any deck-buildable card"
    )
    counted: bool = Field(
        True, description="false: an optional side section (images, a Soul Bond extra deck)"
    )
    provisional: bool = Field(False, description="true: its problems are warnings, not violations")
    description: str = Field("", description="free text")

    @field_validator("size", mode="before")
    @classmethod
    def _bare_size(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return {"exact": value}
        return value


class CopyLimitTable(_Table):
    """`copy_limits` entries: at most `max` copies per key, counted over the `scope` sections together.

    Write them inline (`copy_limits = [{ key = "name", scope = ["main"], max = 3 }]`) or, for long ones,
    one `[[formats.copy_limits]]` table each — TOML reads both the same way."""

    key: Literal["name", "identity", "name_level"] = Field(
        description="`name` (English name), `identity` (alias passcode for alternate artworks) or `name_level`"
    )
    scope: list[str] = Field(min_length=1, description="section slugs counted together")
    max: int = Field(ge=0, description="copies allowed")
    exceptions: dict[str, int] = Field(
        default_factory=dict, description='`{ "<key or name>" = N }`: another limit for these'
    )
    filter: Any = Field(
        None, description=f"{FILTER_DOC}: only matching cards are counted (others are exempt)"
    )


class IdentityTable(_Table):
    """`hero.identity`: every card in the hero's scope must have a subset of the hero's identity values
    (Magic's colour identity). A card's identity is the set of `values` found in its `fields`: list values
    element by element, text through `pattern` (its groups) when given, else whole."""

    label: str = Field(min_length=1, description="what messages call it, e.g. `colour identity`")
    label_ru: str = Field("", description="Russian label")
    fields: list[str] = Field(
        min_length=1, description="card fields read: `name`, `text`, `type` or attribute keys"
    )
    pattern: str | None = Field(None, description="a regular expression; the text of its groups is searched")
    values: list[str] = Field(
        min_length=1, description='the identity values, e.g. `["W", "U", "B", "R", "G"]`'
    )
    ignore: str | None = Field(
        None,
        description="a regular expression for text left out before reading (Magic's reminder text in "
        "parentheses: extort's `{W/B}` is no part of a card's colour identity)",
    )

    @field_validator("pattern", "ignore")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"not a valid regular expression: {exc}") from None
        return value


class PairTable(_Table):
    """`hero.pairs`: a way two cards share the hero slot (Magic's partner commanders). Two heroes are legal
    when some pair rule matches them, in either order; each field given must hold."""

    name: str = Field(min_length=1, description="what messages call it, e.g. `Partner`")
    keyword: str | None = Field(
        None, description="both cards have this keyword ability (a line or comma item of rules text)"
    )
    names_other: str | None = Field(
        None,
        description="each card's rules text has this phrase followed by the other's name (`Partner with`)",
    )
    first: Any = Field(None, description=f"{FILTER_DOC}: one of the two")
    second: Any = Field(None, description=f"{FILTER_DOC}: the other (it need not be a hero by `accept`)")


class HeroTable(_Table):
    """`hero`: one card outside the counted sections that shapes the deck (Everseal's Hero, Magic's Commander)."""

    required: bool = Field(True, description="a deck without one is illegal")
    accept: Any = Field(None, description=f"{FILTER_DOC}: which cards may be the hero")
    scope: list[str] | None = Field(
        None, description="sections its restrictions apply to (default: the counted ones)"
    )
    label: str = Field("Hero", min_length=1, description="what the format calls it, e.g. `Commander`")
    label_ru: str = Field("Герой", description="Russian name, e.g. `Командир`")
    counts_in: str | None = Field(
        None, description="a section whose size counts the hero too (Commander: 99 + 1 = 100)"
    )
    identity: IdentityTable | None = Field(
        None, description="deck cards must stay within the hero's identity"
    )
    pairs: list[PairTable] = Field(
        default_factory=list,
        description="ways two cards may share the slot (Partner, Choose a Background); their identity is "
        "the union of both",
    )


class PoolTable(_Table):
    """`pool`: the deck must be a sub-multiset of the registered card pool (limited events)."""

    scope: list[str] | None = Field(None, description="sections drawn from the pool (default: all)")
    free: Any = Field(None, description=f"{FILTER_DOC}: cards any deck may add beyond the pool (basic lands)")


class BanListTable(_Table):
    """`banlist`: which dated ban lists apply (by region, see `[game] banlist_regions`) and how they read."""

    regions: list[str] = Field(default_factory=list, description="regions in order of preference")
    whitelist: bool = Field(False, description="only listed cards are legal")
    forbidden_as: int | None = Field(None, ge=0, description="read Forbidden as this limit (Traditional: 1)")
    required: bool = Field(False, description="informative: the format expects a list")


class SideboardTable(_Table):
    """`sideboard`: swaps between games; a refused swap leaves the deck unchanged."""

    section: str = Field("side", description="the sideboard section")
    keep_sizes: list[str] = Field(default_factory=list, description="sections whose size swaps must keep")


_FORMAT_DOC = {
    "description": "free text",
    "min_players": "players per table in this format (default: the game's)",
    "max_players": "players per table in this format (default: the game's)",
    "match_format": "`bo1`, `bo3`, `bo5` or `pods` (default: the game's)",
}
MatchFormat = Literal["bo1", "bo3", "bo5", "pods"]


class TeamTable(_Table):
    """`team`: what the decks of a team event's teammates may share, checked at team registration.
    `rule = "unified"` is MTR's unified deck construction: a card the `filter` matches (every card when there
    is none) may be in at most one teammate's deck, counted by `key` over the `scope` sections."""

    rule: Literal["unified"] = Field(description="`unified`: a card in at most one teammate's deck")
    key: Literal["name", "identity"] = Field("name", description="what makes two cards the same card")
    scope: list[str] = Field(min_length=1, description="section slugs whose cards count")
    filter: Any = Field(
        None, description=f"{FILTER_DOC}: only matching cards are restricted (basic lands are not)"
    )


class VersionTable(_Table):
    """`[[formats.versions]]`: an earlier version of the format. Keys given replace the format's keys
    (whole: a version with `sections` lists all its sections); the others are inherited."""

    version: str = Field(min_length=1, description="the version's name, e.g. `2024`")
    effective_date: date | None = Field(
        None, description="in force from; may be left out only by the oldest version"
    )
    description: str | None = Field(None, description=_FORMAT_DOC["description"])
    sections: list[SectionTable] | None = None
    copy_limits: list[CopyLimitTable] | None = None
    hero: HeroTable | None = None
    pool: PoolTable | None = None
    banlist: BanListTable | None = None
    sideboard: SideboardTable | None = None
    min_players: int | None = Field(None, ge=1, description=_FORMAT_DOC["min_players"])
    max_players: int | None = Field(None, ge=1, description=_FORMAT_DOC["max_players"])
    match_format: MatchFormat | None = Field(None, description=_FORMAT_DOC["match_format"])


class FormatTable(_Table):
    """`[[formats]]`: one format, in display order. The table is the newest version of the format;
    `[[formats.versions]]` lists earlier ones."""

    slug: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$", description="format id, e.g. `advanced`")
    name: str = Field(min_length=1, description="English name")
    name_ru: str = Field("", description="Russian name")
    description: str = Field("", description=_FORMAT_DOC["description"])
    version: str | None = Field(None, description="this version's name (default: the game's `version`)")
    effective_date: date | None = Field(
        None, description="in force from (default: the game's `effective_date`)"
    )
    sections: list[SectionTable] = Field(default_factory=list, description="`[[formats.sections]]` (below)")
    copy_limits: list[CopyLimitTable] = Field(default_factory=list, description="copy limits (below)")
    hero: HeroTable | None = Field(
        None, description="`{ required, accept, scope, label, label_ru, counts_in, identity }`"
    )
    pool: PoolTable | None = Field(None, description="`{ scope }`: decks come from a registered pool")
    banlist: BanListTable | None = Field(None, description="`{ regions, whitelist, forbidden_as, required }`")
    sideboard: SideboardTable | None = Field(None, description="`{ section, keep_sizes }`")
    min_players: int | None = Field(None, ge=1, description=_FORMAT_DOC["min_players"])
    max_players: int | None = Field(None, ge=1, description=_FORMAT_DOC["max_players"])
    match_format: MatchFormat | None = Field(None, description=_FORMAT_DOC["match_format"])
    versions: list[VersionTable] = Field(default_factory=list, description="`[[formats.versions]]` (below)")
    team: TeamTable | None = Field(None, description="`{ rule, key, scope, filter }`: team deck construction")


class SearchFilterTable(_Table):
    """`search_filters` entries (see “Search filters”)."""

    field: str = Field(description="`type`, `subtype`, `level`, `cost` or an attribute key")
    kind: Literal["choice", "range"] = Field(description="`choice` (a select) or `range` (min and max)")
    label: str = Field(min_length=1, description="English label")
    label_ru: str = Field("", description="Russian label")


class SearchFieldTable(_Table):
    """`[game.search] fields` entries: a card attribute the search language reads (cardsearch/fields.py)."""

    field: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,39}$", description="the attribute key (`atk`)")
    kind: Literal["choice", "number", "text", "colors", "typeline", "bool"] = Field(
        "choice",
        description="`choice` (equals), `number` (comparisons), `text` (contains), `colors` (letters)",
    )
    source: str = Field(
        "", description="what it reads when not `attr.<field>`: `cost`, `level`, `attr.<key>`"
    )
    aliases: list[str] = Field(default_factory=list, description="other keywords, any language (`атк`)")
    label: str = Field("", description="English name (else the field)")
    label_ru: str = Field("", description="Russian name")


class SearchTable(_Table):
    """`[game.search]`: the game's words in the card search language (README "Searching cards")."""

    aliases: dict[str, str] = Field(
        default_factory=dict, description='keyword → built-in field (`mv = "cost"`)'
    )
    type_sources: list[str] = Field(
        default_factory=list, description="attributes `t:` reads beside type and subtypes"
    )
    fields: list[SearchFieldTable] = Field(default_factory=list, description="the game's attribute fields")
    examples: list[str] = Field(default_factory=list, description="queries the help page shows")


LANGUAGE_KEY = re.compile(r"^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})?$")


class LabelText(_Table):
    """A word in each language, e.g. `{ en = "Rank", ru = "Ранг" }`; any other site language may be added
    by its code (`pl = "Ranga"`). A language the table lacks shows the English word."""

    # Extra keys are the other languages' words, checked below (a new language is data, not a schema change).
    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    en: str = Field(min_length=1, description="English")
    ru: str = Field("", description="Russian (English is shown when absent)")

    @model_validator(mode="after")
    def _languages(self) -> LabelText:
        for key, value in (self.model_extra or {}).items():
            if not LANGUAGE_KEY.match(key):
                raise ValueError(f"{key!r} is not a language code (e.g. `pl`, `pt-br`)")
            if not isinstance(value, str) or not value:
                raise ValueError(f"the {key!r} word must be non-empty text, got {value!r}")
        return self

    def words(self) -> dict[str, str]:
        """Language → word, for the languages the table names."""
        out = {"en": self.en, **({"ru": self.ru} if self.ru else {})}
        out.update({key: str(value) for key, value in (self.model_extra or {}).items()})
        return out


class LabelsTable(_Table):
    """`[game.labels]`: words players read, per language — card fields and values in card previews and on the
    deck page, and the names of the game, its formats, sections and hero slots. For names, the thing's own
    `name` (English) and `name_ru` (Russian) stay its words in those two languages; these tables add the others."""

    preview: list[str] = Field(default_factory=list, description="fields shown in a card preview, in order")
    fields: dict[str, LabelText] = Field(default_factory=dict, description="field → its name")
    fields_by_subtype: dict[str, dict[str, LabelText]] = Field(
        default_factory=dict, description="subtype → field → its name for cards of that subtype (Rank, Link)"
    )
    values: dict[str, dict[str, LabelText]] = Field(
        default_factory=dict, description="field → stored value → its word (`monster` → Monster / Монстр)"
    )
    name: LabelText | None = Field(
        None,
        description="the game's name per language (beside `name`/`name_ru`; a new language adds a key here)",
    )
    formats: dict[str, LabelText] = Field(
        default_factory=dict,
        description="format slug → its name per language (beside the format's `name`/`name_ru`)",
    )
    sections: dict[str, LabelText] = Field(
        default_factory=dict,
        description="section slug (every format's section of that slug) or `format/slug` (one format's) → "
        "its name per language (beside the section's `name`/`name_ru`)",
    )
    heroes: dict[str, LabelText] = Field(
        default_factory=dict,
        description="a hero slot's English `label` (`Commander`) → its name per language (beside `label_ru`)",
    )


class PlaytestTable(_Table):
    """`[game.playtest]`: how a game's opening hand is drawn, for the builder's sample hands and odds."""

    mulligan: Literal["none", "london"] = Field(
        "none",
        description="`london`: shuffle the hand back, draw the opening hand again, then put one card on the "
        "bottom per mulligan taken (Magic); `none`: the game has no mulligan (Yu-Gi-Oh!)",
    )
    draw_first: int = Field(
        0, ge=0, le=5, description="cards the player going first draws on their first turn"
    )
    draw_second: int = Field(
        0, ge=0, le=5, description="cards the player going second draws on their first turn"
    )
    curve_skip_types: list[str] = Field(
        default_factory=list,
        description="card types left out of the cost curve (Magic's lands: their mana value is 0 but they are no 0-drops)",
    )


class DeckHashTable(_Table):
    """`[game.deck_hash]`: the short hash a judge compares at deck checks (Cockatrice's for Magic)."""

    key: Literal["name", "external_id"] = Field(
        "name",
        description="what a card counts as: its `name` (lower-cased) or its `external_id` (a passcode)",
    )
    sections: dict[str, str] = Field(
        default_factory=lambda: {"main": "", "side": "SB:"},
        description='the sections that count, each with the prefix its cards get (`{ main = "", side = '
        '"SB:" }`, Cockatrice\'s); sections left out do not count',
    )


class PlayerIdTable(_Table):
    """`[game.player_id]`: the official player ID of the game's sanctioned play (Konami CARD GAME ID, Wizards
    account …), asked at registration and printed on registration sheets and standings exports."""

    name: str = Field(min_length=1, description="what the ID is called (`Konami CARD GAME ID`)")
    name_ru: str = Field("", description="its Russian name")
    pattern: str = Field(description="a regular expression a whole ID matches (`\\d{10}`)")
    example: str = Field("", description="an example shown beside the field")

    @field_validator("pattern")
    @classmethod
    def _pattern_compiles(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"{value!r} is not a valid regular expression: {exc}") from None
        return value


class GameTable(_Table):
    """`[game]`: the game itself."""

    slug: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$", description="game id")
    name: str = Field(
        min_length=1, description="English name (staff may rename the game; a re-sync keeps it)"
    )
    name_ru: str = Field("", description="Russian name")
    description: str = Field("", description="free text")
    has_decks: bool = Field(description="false: no player decks (validation says so)")
    min_players: int = Field(ge=1, description="players per table")
    max_players: int = Field(ge=1, description="players per table")
    opening_hand: int | dict[str, int] | None = Field(
        None, description="cards drawn: an integer or one per section (`{ main = 7, creatures = 5 }`)"
    )
    first_player: Literal["loser_chooses", "loser_goes_first"] = Field(
        "loser_chooses", description="who starts the next game of a match; default `loser_chooses`"
    )
    top_cut_first_player: Literal["higher_seed", "toss"] = Field(
        "higher_seed",
        description="game 1 of a top-cut match: `higher_seed` does what a toss winner would (MTR 2.2: the "
        "higher seed chooses to play or draw) or `toss` as in the Swiss rounds; default `higher_seed`",
    )
    sideboard: bool = Field(False, description="the game has swaps between games")
    match_format: MatchFormat = Field("bo3", description="the default match format")
    pod_sizes: list[int] = Field(default_factory=list, description="table sizes for pods, e.g. `[3, 4]`")
    tiebreakers: Literal["mtg", "yugioh", "pokemon", "pods"] = Field(
        "mtg", description="standings tiebreakers"
    )
    version: str = Field(min_length=1, description="the rules document's version")
    effective_date: date = Field(description="the rules document's date (a TOML date)")
    search_filters: list[SearchFilterTable] = Field(default_factory=list, description="card search filters")
    labels: LabelsTable = Field(default_factory=LabelsTable, description="`[game.labels]` (below)")
    search: SearchTable = Field(default_factory=SearchTable, description="`[game.search]` (below)")
    playtest: PlaytestTable = Field(default_factory=PlaytestTable, description="`[game.playtest]` (below)")
    image_url: str | None = Field(
        None,
        description="where the game's card pictures are, as a URL template: `{external_id}` and `{identity}` "
        "are filled in (`https://images.ygoprodeck.com/images/cards/{external_id}.jpg`); a printing's own "
        "picture (Cockatrice `picURL`) wins; shown only from hosts the site allows (CARD_IMAGE_HOSTS)",
    )
    deck_hash: DeckHashTable = Field(
        default_factory=DeckHashTable, description="`[game.deck_hash]`: how a deck's hash is made (below)"
    )
    player_id: PlayerIdTable | None = Field(None, description="`[game.player_id]` (below)")
    banlist_regions: dict[str, list[str]] = Field(
        default_factory=dict,
        description="region → words that mark a list's name as that region "
        '(`{ tcg = ["TCG"], world = ["World"] }`); a list named `2024.01 World` gets region `world`',
    )
    banlist_region_names: dict[str, list[str]] = Field(
        default_factory=dict,
        description="region → regular expressions a whole list name matches when no word of "
        "`banlist_regions` marks it (YGOPro names its OCG lists by date alone: "
        "`{ ocg = ['\\d{4}\\.\\d{1,2}'] }` gives `2024.1` region `ocg`, not `2013.3.1`)",
    )

    @field_validator("banlist_region_names")
    @classmethod
    def _patterns_compile(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        for patterns in value.values():
            for pattern in patterns:
                try:
                    re.compile(pattern)
                except re.error as exc:
                    raise ValueError(f"{pattern!r} is not a valid regular expression: {exc}") from None
        return value


# --- archetypes: what a deck is called, as data (results/rules_engine.py compiles these) -----------------

ARCHETYPE_SECTIONS = ("main", "side", "any")


def _filter_compiles(where: str, spec: Any) -> None:
    # Imported here, not at the top: filters imports cardsearch, and the schema module is read by tools
    # (the README reference) that need no card code.
    from .filters import compile_filter

    try:
        compile_filter(spec)
    except RuleSetError as exc:
        raise ValueError(f"{where}: {exc}") from None


class ArchetypeConditionTable(_Table):
    """One condition of an archetype (all of a rule's `when` must hold): `{ at_least = 3, of = {...} }`
    counts the deck's copies (or, with `count = "cards"`, its different cards) that match a FILTER;
    `{ none_of = {...} }` holds when the deck has none of them."""

    of: Any = Field(None, description=f"{FILTER_DOC}: the cards counted")
    none_of: Any = Field(None, description=f"{FILTER_DOC}: no copy of these may be in `section`")
    at_least: int | None = Field(None, ge=0, description="at least this many (default 1 with `of`)")
    at_most: int | None = Field(None, ge=0, description="at most this many")
    section: Literal["main", "side", "any"] = Field(
        "main", description="where the cards are counted: the main deck (and extra deck), the side, or `any`"
    )
    count: Literal["copies", "cards"] = Field(
        "copies", description="`copies` (4 Lightning Bolt count 4) or `cards` (different cards: 1)"
    )

    @model_validator(mode="after")
    def _one_test(self) -> ArchetypeConditionTable:
        if (self.of is None) == (self.none_of is None):
            raise ValueError("give `of` (with at_least / at_most) or `none_of`, one of the two")
        if self.none_of is not None and (self.at_least is not None or self.at_most is not None):
            raise ValueError("`none_of` takes no at_least / at_most (it means: zero)")
        if self.at_least is not None and self.at_most is not None and self.at_least > self.at_most:
            raise ValueError(f"at_least {self.at_least} is more than at_most {self.at_most}")
        _filter_compiles(
            "of" if self.of is not None else "none_of", self.of if self.of is not None else self.none_of
        )
        return self


class ArchetypeVariantTable(_Table):
    """`[[archetypes.variants]]`: a named variant, checked only after its parent matched; the first variant
    whose conditions all hold names the deck."""

    name: str = Field(min_length=1, max_length=120, description="the label decks get")
    when: list[ArchetypeConditionTable] = Field(min_length=1, description="conditions, all must hold")
    source: str = Field("", description="where the rule comes from (shown beside the label), free text")


class ArchetypeTable(ArchetypeVariantTable):
    """`[[archetypes]]`: an archetype rule. A deck two rules of different names catch is not labelled: it
    waits in the organizers' review queue. A store's file (`DECKHALL_ARCHETYPE_DIRS`) adds rules; a rule of
    the same name as the rule set's replaces it."""

    variants: list[ArchetypeVariantTable] = Field(
        default_factory=list, description="`[[archetypes.variants]]` (below)"
    )
    formats: list[str] = Field(
        default_factory=list, description="format slugs the rule is for (default: every format of the game)"
    )


class ArchetypeReferenceTable(_Table):
    """`[[archetype_references]]`: the fallback for decks no rule catches — the reference the deck overlaps
    most names it when the overlap reaches `min_overlap`; the label says the figure. `cards` (a list with
    copies: the share of the list's copies the deck has in its main deck) or `common` (cards typical of a
    family of decks, MTGOFormatData's fallbacks, weighed as MTGOArchetypeParser does: the deck's copies of
    them, main and side, per distinct card line of the deck, above `min_overlap`)."""

    name: str = Field(min_length=1, max_length=120, description="the label decks get")
    cards: dict[str, int] | None = Field(None, description='`{ "Card name" = copies }`')
    common: list[str] | None = Field(None, description="card names typical of the family")
    min_overlap: float | None = Field(
        None, gt=0, le=1, description="the bar (default 0.5 for `cards`, above 0.1 for `common`)"
    )
    source: str = Field("", description="where the list comes from, free text")
    formats: list[str] = Field(default_factory=list, description="format slugs (default: every format)")

    @model_validator(mode="after")
    def _one_list(self) -> ArchetypeReferenceTable:
        if (self.cards is None) == (self.common is None):
            raise ValueError("give `cards = { name = copies }` or `common = [names]`, one of the two")
        if self.cards is not None and (not self.cards or any(n < 1 for n in self.cards.values())):
            raise ValueError("`cards` needs at least one card, each with 1 or more copies")
        if self.common is not None and not self.common:
            raise ValueError("`common` needs at least one card name")
        return self


class ArchetypeFamiliesTable(_Table):
    """`[archetype_families]`: archetypes the cards carry themselves (YGOPro's `datas.setcode`, named by
    `strings.conf`): a deck takes the family most of its main-deck cards belong to, when it is an engine of
    the deck (`min_copies` and `min_share`), then a sub-family holding most of those cards."""

    attribute: str = Field(min_length=1, description="the card attribute holding the codes (`setcode`)")
    names: str = Field(
        min_length=1, description="the file naming the codes, relative to the shared data directory"
    )
    names_format: Literal["ygopro-setname"] = Field(
        description="`ygopro-setname`: `!setname 0x2 Genex` lines (YGOPro's strings.conf)"
    )
    parent_mask: int = Field(
        0xFFF, ge=1, description="the bits of a code that name the family (YGOPro: 0xFFF)"
    )
    min_copies: int = Field(6, ge=1, description="copies of the family a deck needs")
    min_share: float = Field(0.15, gt=0, le=1, description="share of the main deck the family needs")


class ArchetypeFile(_Table):
    """A store's archetype file (`<game>.toml` or `<game>-*.toml` in `DECKHALL_ARCHETYPE_DIRS`): the
    rule set's archetype tables, nothing else."""

    archetypes: list[ArchetypeTable] = Field(default_factory=list, description="`[[archetypes]]`")
    archetype_references: list[ArchetypeReferenceTable] = Field(
        default_factory=list, description="`[[archetype_references]]`"
    )


class RuleSetFile(_Table):
    """One `games/rulesets/<game>.toml` file."""

    game: GameTable
    formats: list[FormatTable] = Field(min_length=1, description="one or more `[[formats]]`")
    boosters: list[dict[str, Any]] = Field(
        default_factory=list,
        description="`[[boosters]]`: slots → sheets, each sheet a FILTER with rates (checked by games/boosters.py)",
    )
    archetypes: list[ArchetypeTable] = Field(
        default_factory=list, description="`[[archetypes]]`: archetype rules (below)"
    )
    archetype_references: list[ArchetypeReferenceTable] = Field(
        default_factory=list, description="`[[archetype_references]]`: the fallback by overlap (below)"
    )
    archetype_families: ArchetypeFamiliesTable | None = Field(
        None, description="`[archetype_families]`: archetypes carried by the cards (below)"
    )


# --- errors that name the key and the line ------------------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-]+)\s*\]\]?")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")


def key_lines(text: str) -> dict[tuple[Any, ...], int]:
    """Path of every table header and top-level key in a TOML text -> its line number (first seen).

    ``[[formats]]`` number 2 is ``("formats", 1)``; a ``size = ...`` under the second ``[[formats.sections]]``
    of it is ``("formats", 1, "sections", 1, "size")``. Keys inside inline tables are not mapped: an error
    there points at the line of the key that holds them.
    """
    lines: dict[tuple[Any, ...], int] = {}
    counters: dict[tuple[Any, ...], int] = {}
    current: tuple[Any, ...] = ()

    def resolve(parts: list[str]) -> tuple[Any, ...]:
        path: tuple[Any, ...] = ()
        for part in parts:
            path = (*path, part)
            if path in counters:
                path = (*path, counters[path])
        return path

    for number, raw in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(raw)
        if header:
            parts = header.group(2).split(".")
            if header.group(1) == "[[":
                parent = resolve(parts[:-1])
                array = (*parent, parts[-1])
                counters[array] = counters.get(array, -1) + 1
                current = (*array, counters[array])
                lines.setdefault(array, number)
            else:
                current = resolve(parts)
            lines.setdefault(current, number)
            continue
        key = _KEY.match(raw)
        if key:
            lines.setdefault((*current, key.group(1)), number)
    return lines


def where(file: str, loc: tuple[Any, ...]) -> str:
    """``everseal.toml[formats][0].sections[1].size``: the file, then the key path as the old messages did."""
    out = file
    for i, part in enumerate(loc):
        if isinstance(part, int) or i == 0:
            out += f"[{part}]"
        else:
            out += f".{part}"
    return out


def line_of(lines: dict[tuple[Any, ...], int], loc: tuple[Any, ...]) -> int | None:
    for end in range(len(loc), 0, -1):
        found = lines.get(tuple(loc[:end]))
        if found is not None:
            return found
    return None


def located(file: str, lines: dict[tuple[Any, ...], int], loc: tuple[Any, ...], message: str) -> RuleSetError:
    line = line_of(lines, loc)
    suffix = f" (line {line})" if line is not None else ""
    return RuleSetError(f"{where(file, loc)}: {message}{suffix}")


def _model_at(loc: tuple[Any, ...], root: type[BaseModel] | None = None) -> type[BaseModel] | None:
    """The model a location points into, to list the keys it allows."""
    model: Any = root or RuleSetFile
    for part in loc:
        if isinstance(part, int):
            continue
        fields = getattr(model, "model_fields", None)
        if not fields or part not in fields:
            return None
        annotation = fields[part].annotation
        inner = _model_of(annotation)
        if inner is None:
            return None
        model = inner
    return model


def _model_of(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _model_of(arg)
        if found is not None:
            return found
    return None


def _message(error: dict[str, Any], root: type[BaseModel] | None = None) -> tuple[tuple[Any, ...], str]:
    loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and "[" in p))  # drop union branch tags
    kind = error["type"]
    value = error.get("input")
    if kind == "extra_forbidden":
        parent = loc[:-1]
        model = _model_at(parent, root)
        allowed = f"; allowed: {sorted(model.model_fields)}" if model else ""
        return parent, f"unknown key(s) {[loc[-1]]}{allowed}"
    if kind == "missing":
        return loc[:-1], f"missing key {loc[-1]!r}"
    if kind == "literal_error":
        expected = error.get("ctx", {}).get("expected", "")
        options = [o.strip().strip("'") for o in expected.replace(" or ", ",").split(",") if o.strip()]
        return loc, f"{value!r} is not one of {options}"
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return loc, f"expected a table, got {value!r}"
    if kind == "list_type":
        return loc, f"expected a list, got {value!r}"
    if kind.endswith("_type") or kind.endswith("_parsing"):
        wanted = kind.removesuffix("_type").removesuffix("_parsing")
        return loc, f"expected {wanted}, got {value!r}"
    msg = str(error.get("msg", "")).removeprefix("Value error, ")
    return loc, f"{msg} (got {value!r})" if kind != "value_error" else msg


def validate_file(file: str, text: str, data: dict[str, Any]) -> RuleSetFile:
    """Validate one parsed rule-set file; a mistake raises RuleSetError naming the file, key and line."""
    try:
        return RuleSetFile.model_validate(data)
    except ValidationError as exc:
        lines = key_lines(text)
        errors = exc.errors(include_url=False)
        # Union members each report their own error; the first one for the shortest path is the clearest.
        errors.sort(key=lambda e: len(e["loc"]))
        loc, message = _message(errors[0])
        more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
        raise located(file, lines, loc, message + more) from None


def validate_archetype_file(file: str, text: str, data: dict[str, Any]) -> ArchetypeFile:
    """Validate a store's archetype file (or the archetype tables of a rule set) like a rule-set file:
    a mistake raises RuleSetError naming the file, key and line."""
    try:
        return ArchetypeFile.model_validate(data)
    except ValidationError as exc:
        errors = sorted(exc.errors(include_url=False), key=lambda e: len(e["loc"]))
        loc, message = _message(errors[0], ArchetypeFile)
        more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
        raise located(file, key_lines(text), loc, message + more) from None


# --- the README reference, generated -----------------------------------------------------------------

README_START = "<!-- ruleset-schema:start (generated by `python manage.py ruleset_reference --write`) -->"
README_END = "<!-- ruleset-schema:end -->"
_REFERENCE_TABLES: list[tuple[str, type[BaseModel]]] = [
    ("[game]", GameTable),
    ("[game] search_filters = [...]", SearchFilterTable),
    ("[game.labels]", LabelsTable),
    ("[game.search]", SearchTable),
    ("[game.search] fields = [...]", SearchFieldTable),
    ("[game.playtest]", PlaytestTable),
    ("[game.deck_hash]", DeckHashTable),
    ("[[formats]]", FormatTable),
    ("[[formats.sections]]", SectionTable),
    ("size", SizeTable),
    ("copy_limits / [[formats.copy_limits]]", CopyLimitTable),
    ("hero", HeroTable),
    ("hero.identity", IdentityTable),
    ("hero.pairs", PairTable),
    ("pool", PoolTable),
    ("banlist", BanListTable),
    ("sideboard", SideboardTable),
    ("[[formats.versions]]", VersionTable),
    ("team", TeamTable),
    ("[[archetypes]]", ArchetypeTable),
    ("[[archetypes.variants]]", ArchetypeVariantTable),
    ("when = [...] (an archetype condition)", ArchetypeConditionTable),
    ("[[archetype_references]]", ArchetypeReferenceTable),
    ("[archetype_families]", ArchetypeFamiliesTable),
]


def _type_name(annotation: Any, top: bool = True) -> str:
    """A field's type in words, the same whichever way the module was imported (a bare ``Any`` field is a
    FILTER; inside a table it is any value)."""
    if annotation is Any:
        return "FILTER" if top else "any value"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "table"
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Literal:
        return " / ".join(f'`"{a}"`' for a in args)
    if origin is list:
        return f"list of {_type_name(args[0], False)}"
    if origin is dict:
        return f"table of {_type_name(args[0], False)} → {_type_name(args[1], False)}"
    if args:  # a union: X | None, int | dict[...]
        return " or ".join(_type_name(a, top) for a in args if a is not type(None))
    return {"str": "text", "int": "integer", "float": "number", "bool": "boolean", "date": "date"}.get(
        getattr(annotation, "__name__", ""), str(annotation)
    )


def _default(field: Any) -> str:
    if field.is_required():
        return "**required**"
    if field.default_factory is not None:
        value = field.default_factory()
        return "an empty table" if isinstance(value, BaseModel) else f"`{value!r}`".replace("'", '"')
    if field.default is None:
        return "—"
    value = field.default
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f"`{value!r}`".replace("'", '"')


def schema_reference() -> str:
    """The rule-set reference for rules/README.md, one table per TOML table, from the models above."""
    out: list[str] = []
    for title, model in _REFERENCE_TABLES:
        doc = " ".join((model.__doc__ or "").split())
        out += [f"#### `{title}`", "", doc, "", "| key | type | default | meaning |", "|---|---|---|---|"]
        for name, field in model.model_fields.items():
            meaning = (field.description or "").replace("|", "\\|")
            out.append(f"| `{name}` | {_type_name(field.annotation)} | {_default(field)} | {meaning} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def readme_with_reference(readme: str) -> str:
    """``readme`` with the text between the generated-reference markers replaced by :func:`schema_reference`."""
    start, end = readme.find(README_START), readme.find(README_END)
    if start < 0 or end < start:
        raise ValueError("rules/README.md has no generated-reference markers")
    return readme[: start + len(README_START)] + "\n\n" + schema_reference() + "\n" + readme[end:]
