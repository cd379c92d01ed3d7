"""A query put back into words: "Type has “dragon”, ATK ≥ 3000, not banned (TCG)".

The joining words come from the caller in the reader's language (cards.search passes the site's message
catalogue, as rules.messages does for FILTER readings); PHRASES are the English defaults for the engine alone.
"""

from __future__ import annotations

from collections.abc import Mapping

from .fields import FieldTable
from .query import And, Not, Or, Term

PHRASES: dict[str, str] = {
    "name_words": "name has %(values)s",
    "name_exact": "name is “%(value)s”",
    "contains": "%(field)s has %(values)s",
    "equals": "%(field)s is %(value)s",
    "not_equals": "%(field)s is not %(value)s",
    "compare": "%(field)s %(op)s %(value)s",
    "regex": "%(field)s matches /%(value)s/",
    "banned": "banned in %(format)s",
    "limited": "limited in %(format)s",
    "legal": "legal in %(format)s",
    "buildable": "deck-buildable",
    "not_buildable": "not deck-buildable",
    "colors_at_least": "%(field)s includes %(value)s",
    "colors_exactly": "%(field)s exactly %(value)s",
    "colors_at_most": "%(field)s within %(value)s",
    "not": "not %(item)s",
    "and": ", ",
    "or": " or ",
    "all": "every card",
    "quote": "“%s”",
    "and_words": " and ",
}
OPS = {">=": "≥", "<=": "≤", ">": ">", "<": "<", "=": "=", ":": "=", "!=": "≠"}


def explain(
    node: object,
    table: FieldTable,
    lang: str = "en",
    phrases: Mapping[str, str] | None = None,
    formats: Mapping[str, str] | None = None,
) -> str:
    """The query in words. ``formats`` names formats by slug in the reader's language ("" = the default)."""
    words = {**PHRASES, **(phrases or {})}
    if node is None:
        return words["all"]
    return _explain(node, table, lang, words, formats or {}, top=True)


def _explain(node: object, table: FieldTable, lang: str, w: Mapping[str, str], formats: Mapping[str, str],
             top: bool = False) -> str:  # fmt: skip
    if isinstance(node, And):
        # Name words side by side read as one phrase: "name has “blue” and “eyes”".
        parts: list[str] = []
        words: list[str] = []
        for item in (*node.items, None):
            if isinstance(item, Term) and not item.field and item.kind == "word":
                words.extend(item.value.split())
                continue
            if words:
                parts.append(w["name_words"] % {"values": w["and_words"].join(w["quote"] % p for p in words)})
                words = []
            if item is not None:
                parts.append(_explain(item, table, lang, w, formats))
        return w["and"].join(parts)
    if isinstance(node, Or):
        text = w["or"].join(_explain(i, table, lang, w, formats) for i in node.items)
        return text if top else f"({text})"
    if isinstance(node, Not):
        return w["not"] % {"item": _explain(node.item, table, lang, w, formats)}
    assert isinstance(node, Term)
    spec = table.get(node.field) if node.field else table.keywords["name"]
    if spec is None:
        return node.typed + node.op + node.value
    label = spec.label(lang)
    quote = w["quote"]
    if node.kind == "regex":
        return w["regex"] % {"field": label, "value": node.value}
    if spec.kind == "name" and not node.field:
        if node.kind == "exact":
            return w["name_exact"] % {"value": node.value}
        if node.kind == "phrase":
            return w["name_words"] % {"values": quote % node.value}
        return w["name_words"] % {"values": w["and_words"].join(quote % p for p in node.value.split())}
    if spec.kind in {"name", "text", "typeline"} and node.op == ":":
        values = (
            quote % node.value
            if node.kind == "phrase"
            else w["and_words"].join(quote % p for p in node.value.split())
        )
        return w["contains"] % {"field": label, "values": values}
    if spec.kind == "number":
        return w["compare"] % {"field": label, "op": OPS[node.op], "value": node.value}
    if spec.kind == "legality":
        name = formats.get(node.value.casefold(), node.value) or formats.get("", "")
        return w[spec.name] % {"format": name}
    if spec.kind == "bool":
        yes = node.value.strip().casefold() in {"yes", "true", "1", "да", "y"}
        return w["buildable" if yes else "not_buildable"]
    if spec.kind == "colors":
        key = {"=": "colors_exactly", "<=": "colors_at_most"}.get(node.op, "colors_at_least")
        return w[key] % {"field": label, "value": node.value.upper()}
    if node.op == "!=":
        return w["not_equals"] % {"field": label, "value": node.value}
    return w["equals"] % {"field": label, "value": node.value}
