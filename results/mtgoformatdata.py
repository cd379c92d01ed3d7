"""Badaro's MTGOFormatData (the Magic community's archetype definitions, read by MTGOArchetypeParser) →
Deckhall archetype tables (pure: no Django). ``manage.py import_archetypes mtgoformatdata`` writes the result
as a store's archetype file.

A format's folder holds ``Archetypes/*.json`` (Name, IncludeColorInName, Conditions, Variants) and
``Fallbacks/*.json`` (Name, CommonCards). The parser's meaning of each condition (its ArchetypeAnalyzer):

| MTGOFormatData | Deckhall condition |
|---|---|
| InMainboard / InSideboard / InMainOrSideboard | `at_least = 1` of each card, `section` main / side / any |
| OneOrMoreIn… / TwoOrMoreIn… | `at_least = 1 / 2, count = "cards"` (different cards) of the list |
| DoesNotContain / …Mainboard / …Sideboard | `none_of` the cards, `section` any / main / side |

Variants are checked after their parent (the first that holds names the deck); fallbacks become
``common`` references, weighed as the parser does (the deck's copies of the common cards, main and side; the
heaviest wins, a tie goes to the shorter list; accepted when the weight per distinct card line of the deck is
above 0.1, its ``minSimiliarity``). What cannot be converted is reported with the reason, never guessed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CONDITIONS: dict[str, tuple[str, str, int]] = {
    # type → (kind, section, at_least)
    "InMainboard": ("each", "main", 1),
    "InSideboard": ("each", "side", 1),
    "InMainOrSideboard": ("each", "any", 1),
    "OneOrMoreInMainboard": ("some", "main", 1),
    "OneOrMoreInSideboard": ("some", "side", 1),
    "OneOrMoreInMainOrSideboard": ("some", "any", 1),
    "TwoOrMoreInMainboard": ("some", "main", 2),
    "TwoOrMoreInSideboard": ("some", "side", 2),
    "TwoOrMoreInMainOrSideboard": ("some", "any", 2),
    "DoesNotContain": ("none", "any", 0),
    "DoesNotContainMainboard": ("none", "main", 0),
    "DoesNotContainSideboard": ("none", "side", 0),
}
# .NET's JSON reader takes trailing commas, and some files have them.
_TRAILING_COMMA = re.compile(r",(\s*[\]}])")


class NotConverted(ValueError):
    """A rule the converter will not guess at; the message is the reason."""


@dataclass
class Conversion:
    archetypes: list[dict[str, Any]] = field(default_factory=list)
    references: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, reason)
    notes: list[tuple[str, str]] = field(default_factory=list)  # converted, with a caveat
    variants: int = 0


def read_json(text: str) -> Any:
    return json.loads(_TRAILING_COMMA.sub(r"\1", text.lstrip("\ufeff")))


def _cards(where: str, raw: Any) -> list[str]:
    cards = raw.get("Cards") if isinstance(raw, Mapping) else None
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) and c.strip() for c in cards):
        raise NotConverted(f"{where}: Cards must be a non-empty list of card names")
    return [c.strip() for c in cards]


def _condition(where: str, raw: Any) -> list[dict[str, Any]]:
    kind_name = raw.get("Type") if isinstance(raw, Mapping) else None
    if kind_name not in CONDITIONS:
        raise NotConverted(f"{where}: condition type {kind_name!r} is not one MTGOArchetypeParser defines")
    kind, section, low = CONDITIONS[kind_name]
    cards = _cards(where, raw)
    if kind == "each":
        return [{"at_least": 1, "of": {"name": card}, "section": section} for card in cards]
    if kind == "some":
        return [{"at_least": low, "count": "cards", "of": {"name": cards}, "section": section}]
    return [{"none_of": {"name": cards if len(cards) > 1 else cards[0]}, "section": section}]


def _rule(where: str, raw: Any, *, depth: int = 0) -> tuple[dict[str, Any], int]:
    if not isinstance(raw, Mapping):
        raise NotConverted(f"{where}: an archetype is a JSON object")
    name = raw.get("Name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 120:
        raise NotConverted(f"{where}: Name must be text of 1 to 120 characters")
    conditions = raw.get("Conditions")
    if not isinstance(conditions, list) or not conditions:
        raise NotConverted(f"{where}: no Conditions (a rule that catches every deck)")
    when = [c for i, cond in enumerate(conditions) for c in _condition(f"{where} Conditions[{i}]", cond)]
    rule: dict[str, Any] = {"name": name.strip(), "when": when}
    count = 0
    variants = raw.get("Variants") or []
    if variants:
        if depth:
            raise NotConverted(f"{where}: a variant with variants of its own")
        rule["variants"] = []
        for i, variant in enumerate(variants):
            converted, _n = _rule(f"{where} Variants[{i}]", variant, depth=1)
            rule["variants"].append(converted)
            count += 1
    return rule, count


def convert(
    files: Mapping[str, str], *, source: str = "MTGOFormatData", formats: list[str] | None = None
) -> Conversion:
    """``files``: a format folder's ``Archetypes/<x>.json`` and ``Fallbacks/<x>.json`` → their text."""
    out = Conversion()
    seen: dict[str, str] = {}
    for path in sorted(files):
        folder, _, filename = path.rpartition("/")
        kind = folder.rsplit("/", 1)[-1]
        if kind not in ("Archetypes", "Fallbacks") or not filename.endswith(".json"):
            continue
        try:
            raw = read_json(files[path])
        except (ValueError, UnicodeError) as error:
            out.skipped.append((path, f"not JSON: {error}"))
            continue
        try:
            if kind == "Archetypes":
                rule, variants = _rule(path, raw)
                if rule["name"] in seen:  # two ways to be the same archetype: both kept, either labels
                    out.notes.append(
                        (path, f"a second rule for {rule['name']!r} (first: {seen[rule['name']]})")
                    )
                seen.setdefault(rule["name"], path)
                if raw.get("IncludeColorInName"):
                    out.notes.append(
                        (path, "IncludeColorInName: the label is the name without the deck's colours")
                    )
                rule["source"] = f"{source} {path}"
                if formats:
                    rule["formats"] = list(formats)
                out.archetypes.append(rule)
                out.variants += variants
            else:
                common = raw.get("CommonCards") if isinstance(raw, Mapping) else None
                name = raw.get("Name") if isinstance(raw, Mapping) else None
                if not isinstance(name, str) or not name.strip():
                    raise NotConverted(f"{path}: a fallback needs a Name")
                if not isinstance(common, list) or not common or not all(isinstance(c, str) for c in common):
                    raise NotConverted(f"{path}: CommonCards must be a non-empty list of card names")
                if raw.get("RequiredCards"):
                    raise NotConverted(
                        f"{path}: RequiredCards (a fallback that needs cards) has no Deckhall form"
                    )
                ref: dict[str, Any] = {"name": name.strip(), "common": common, "min_overlap": 0.1}
                ref["source"] = f"{source} {path}"
                if formats:
                    ref["formats"] = list(formats)
                out.references.append(ref)
        except NotConverted as error:
            out.skipped.append((path, str(error).removeprefix(f"{path}: ").removeprefix(f"{path} ")))
    return out


# --- TOML out (the tables are simple: strings, integers, floats, lists and inline tables) --------------


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


def _table(header: str, table: Mapping[str, Any]) -> list[str]:
    lines = [header]
    for key, value in table.items():
        if key == "when":
            lines.append("when = [")
            lines += [f"  {_value(c)}," for c in value]
            lines.append("]")
        elif key != "variants":
            lines.append(f"{_key(key)} = {_value(value)}")
    return lines


def to_toml(conversion: Conversion, *, header: str = "") -> str:
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    for rule in conversion.archetypes:
        lines += ["", *_table("[[archetypes]]", rule)]
        for variant in rule.get("variants", []):
            lines += ["", *_table("[[archetypes.variants]]", variant)]
    for ref in conversion.references:
        lines += ["", *_table("[[archetype_references]]", ref)]
    return "\n".join(lines).lstrip("\n") + "\n"
