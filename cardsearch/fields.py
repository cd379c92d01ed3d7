"""Each game's search fields: one table drives the parser's keywords, the SQL, the in-memory evaluator,
the explanation, the API's field list and the help page.

Every game has the built-in fields below (name, rules text, type, subtype, level, cost, set, collector
number, rarity, legality, deck-buildable); its rule set's ``[game.search]`` table adds its attributes
(ATK, colour, region…), extra keywords for any field (Scryfall's ``mv`` for Magic's cost, ``атк``) and the
attributes ``t:`` also reads (a Yu-Gi-Oh! monster's race: ``t:dragon``). Data, so a new game needs no code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# kind → operators it takes. ":" means contains for texts and equals for the rest; numbers compare.
KINDS: dict[str, tuple[str, ...]] = {
    "name": (":", "="),
    "text": (":", "="),
    "typeline": (":", "="),
    "choice": (":", "=", "!="),
    "number": (":", "=", "!=", "<", "<=", ">", ">="),
    "colors": (":", "=", "<=", ">="),
    "printing": (":", "="),
    "legality": (":",),
    "bool": (":", "="),
}
TEXT_KINDS = frozenset({"name", "text"})
# Fields whose ":" needs no value (``banned:`` = banned in the game's first format).
OPTIONAL_VALUE = frozenset({"banned", "limited", "legal", "restricted"})


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: str
    kind: str
    # name, text, card_type, subtypes, level, cost, external_id, printing.set / .number / .rarity,
    # legality.banned / .limited / .legal, deck_buildable, or attr.<key>
    source: str
    aliases: tuple[str, ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict)
    # typeline: the attributes read beside card_type and subtypes
    extra_sources: tuple[str, ...] = ()

    @property
    def operators(self) -> tuple[str, ...]:
        return KINDS[self.kind]

    def label(self, lang: str = "en") -> str:
        return self.labels.get(lang) or self.labels.get("en") or self.name

    @property
    def attribute(self) -> str | None:
        return self.source[5:] if self.source.startswith("attr.") else None


_BUILTINS: tuple[tuple[str, str, str, tuple[str, ...], str, str], ...] = (
    # name, kind, source, aliases, English label, Russian label
    ("name", "name", "name", ("n", "имя", "название"), "Name", "Название"),
    ("text", "text", "text", ("o", "oracle", "текст"), "Rules text", "Текст"),
    ("type", "typeline", "card_type", ("t", "тип"), "Type", "Тип"),
    ("subtype", "choice", "subtypes", ("st", "подтип"), "Subtype", "Подтип"),
    ("level", "number", "level", ("lv", "уровень", "ур"), "Level", "Уровень"),
    ("cost", "number", "cost", ("стоимость",), "Cost", "Стоимость"),
    ("set", "printing", "printing.set", ("s", "e", "edition", "сет", "выпуск"), "Set", "Сет"),
    ("number", "printing", "printing.number", ("cn", "номер"), "Collector number", "Номер в сете"),
    ("rarity", "printing", "printing.rarity", ("r", "редкость"), "Rarity", "Редкость"),
    ("banned", "legality", "legality.banned", ("запрещена", "бан"), "Banned", "Запрещена"),
    ("limited", "legality", "legality.limited", ("ограничена",), "Limited", "Ограничена"),
    ("legal", "legality", "legality.legal", ("f", "format", "формат", "легальна"), "Legal in", "Легальна в"),
    ("buildable", "bool", "deck_buildable", ("deck", "колода"), "Deck-buildable", "Можно в колоду"),
    ("code", "choice", "external_id", ("passcode", "пароль"), "Card id", "Код карты"),
)


class FieldTableError(ValueError):
    pass


@dataclass(frozen=True)
class FieldTable:
    game: str
    fields: tuple[FieldSpec, ...]
    keywords: Mapping[str, FieldSpec]
    examples: tuple[str, ...] = ()

    def get(self, keyword: str) -> FieldSpec | None:
        return self.keywords.get(keyword.casefold())

    def near(self, keyword: str, limit: int = 3) -> list[str]:
        """Keywords one or two edits away from a misspelt one (``akt`` → ``atk``), closest first."""
        word = keyword.casefold()
        scored = []
        for candidate in self.keywords:
            if abs(len(candidate) - len(word)) > 2:
                continue
            distance = edit_distance(word, candidate, cap=2)
            if distance <= (1 if len(word) <= 3 else 2):
                scored.append((distance, len(candidate), candidate))
        return [c for _d, _l, c in sorted(scored)[:limit]]

    def describe(self, lang: str = "en") -> list[dict[str, Any]]:
        return [
            {
                "field": f.name,
                "kind": f.kind,
                "label": f.label(lang),
                "aliases": list(f.aliases),
                "operators": list(f.operators),
                "source": f.source,
            }
            for f in self.fields
        ]


def edit_distance(a: str, b: str, cap: int = 2) -> int:
    """Levenshtein distance, stopped early past ``cap`` (inputs are keywords and names of bounded length)."""
    if a == b:
        return 0
    # Damerau's variant: a swap of two neighbours ("akt" for "atk") is one edit.
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        if min(current) > cap:
            return cap + 1
        before, previous = previous, current
    return previous[-1]


def field_table(
    game: str,
    search: Mapping[str, Any] | None = None,
    labels: Mapping[str, Mapping[str, str]] | None = None,
) -> FieldTable:
    """The game's field table from its rule set's ``[game.search]`` data (``aliases``, ``type_sources``,
    ``fields``, ``examples``) and its field labels (``{field: {lang: word}}``)."""
    search = search or {}
    labels = labels or {}
    extra_aliases: dict[str, list[str]] = {}
    for alias, target in (search.get("aliases") or {}).items():
        extra_aliases.setdefault(str(target), []).append(str(alias))
    specs: list[FieldSpec] = []
    for name, kind, source, aliases, en, ru in _BUILTINS:
        words = {"en": en, "ru": ru, **(labels.get(name) or {})}
        extra = tuple(search.get("type_sources") or ()) if name == "type" else ()
        specs.append(FieldSpec(name, kind, source, (*aliases, *extra_aliases.pop(name, [])), words, extra))
    builtin_names = {s.name for s in specs}
    for entry in search.get("fields") or ():
        name = str(entry["field"])
        if name in builtin_names:
            raise FieldTableError(f"{game}: search field {name!r} is built in; add keywords under aliases")
        kind = str(entry.get("kind", "choice"))
        if kind not in KINDS or kind in {"name", "legality", "printing"}:
            raise FieldTableError(f"{game}: search field {name!r} has kind {kind!r}")
        source = str(entry.get("source") or f"attr.{name}")
        words = {"en": entry.get("label") or name, "ru": entry.get("label_ru") or entry.get("label") or name}
        words.update(labels.get(name) or {})
        aliases = (*tuple(entry.get("aliases") or ()), *extra_aliases.pop(name, []))
        specs.append(FieldSpec(name, kind, source, aliases, words))
    if extra_aliases:
        raise FieldTableError(f"{game}: aliases name unknown fields {sorted(extra_aliases)}")
    keywords: dict[str, FieldSpec] = {}
    for spec in specs:
        for keyword in (spec.name, *spec.aliases):
            key = keyword.casefold()
            if key in keywords and keywords[key] is not spec:
                raise FieldTableError(f"{game}: keyword {keyword!r} names two fields")
            keywords[key] = spec
    return FieldTable(game, tuple(specs), keywords, tuple(search.get("examples") or ()))


def field_words(table: FieldTable, names: Sequence[str]) -> list[FieldSpec]:
    return [spec for spec in table.fields if spec.name in names]
