"""What MTGJSON and Scryfall files share: one Magic card (all its faces) turned into a `CardRecord`, and the
streaming plumbing (a counted file, a progress in kilobytes, the card-per-name merge).

A card is one Oracle card, keyed by its full English name ("Fire // Ice", "Delver of Secrets // Insectile
Aberration"), as Cockatrice names split and adventure cards; a Cockatrice file's separate back face
("Insectile Aberration") stays a card of its own. Each printing (set, collector number, rarity, picture)
becomes a `PrintingRecord`; the languages a card is printed in and its format legalities are attributes
(`languages`, `legalities`), so a search can use them. Tokens, emblems and art-series cards are not cards a
deck holds: they are skipped and counted in one warning (an art-series "Sol Ring // Sol Ring" never competes
with the real Sol Ring).
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Any

from .base import COST_RANGE, CardRecord, ParseResult, PrintingRecord, Progress, SetRecord
from .cockatrice import _type_line
from .messages import msg

# Layouts whose objects are not deck cards (Scryfall's names; MTGJSON uses the same words).
NOT_DECK_CARDS = frozenset(
    {"token", "double_faced_token", "emblem", "art_series", "vanguard", "planar", "scheme", "augment", "host"}
)
# Layouts whose faces are both on the front of one card: the type line and costs read as one ("A // B").
FRONT_FACES = frozenset({"split", "adventure", "aftermath", "flip", "prepare"})
# Scryfall's short colour words, the letters Cockatrice writes.
SCRYFALL_PICTURE = "https://cards.scryfall.io/normal/{side}/{a}/{b}/{id}.jpg"
# MTGJSON names languages, Scryfall gives codes: both are kept as Scryfall's codes.
LANGUAGE_CODES = {
    "English": "en", "Spanish": "es", "French": "fr", "German": "de", "Italian": "it",
    "Portuguese (Brazil)": "pt", "Portuguese": "pt", "Japanese": "ja", "Korean": "ko", "Russian": "ru",
    "Chinese Simplified": "zhs", "Chinese Traditional": "zht", "Hebrew": "he", "Latin": "la",
    "Ancient Greek": "grc", "Arabic": "ar", "Sanskrit": "sa", "Phyrexian": "ph", "Quenya": "qya",
}  # fmt: skip
# Files are read in chunks of this size; progress is reported every few of them.
CHUNK = 1 << 16


@dataclass
class Face:
    name: str
    mana_cost: str = ""
    type_line: str = ""
    text: str = ""
    power: str = ""
    toughness: str = ""
    loyalty: str = ""
    defense: str = ""

    def as_dict(self) -> dict[str, str]:
        return {key: value for key, value in self.__dict__.items() if value}


@dataclass
class Printing:
    """One printing of a card as the source gives it, with the card's faces and rules."""

    name: str
    layout: str
    faces: list[Face]
    mana_value: float | None
    colors: list[str]
    color_identity: list[str]
    keywords: list[str]
    legalities: dict[str, str]
    languages: list[str]
    set_code: str
    number: str = ""
    rarity: str = ""
    image_url: str = ""
    position: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class CountingReader:
    """A binary file that counts what was read, so a streaming parse can say how far it is."""

    def __init__(self, handle: IO[bytes], size: int, progress: Progress | None) -> None:
        self.handle, self.size, self.progress = handle, size, progress
        self.done = 0
        self._reported = 0

    def read(self, n: int = -1) -> bytes:
        chunk = self.handle.read(n)
        self.done += len(chunk)
        if self.progress and self.done - self._reported >= 16 * CHUNK:
            self._reported = self.done
            self.progress(self.done // 1024, max(self.size // 1024, 1))
        return chunk


def picture_url(scryfall_id: str, *, back: bool = False) -> str:
    """Scryfall's picture of a printing by its id (what MTGJSON's identifiers.scryfallId names)."""
    if len(scryfall_id) < 3:
        return ""
    side = "back" if back else "front"
    return SCRYFALL_PICTURE.format(side=side, a=scryfall_id[0], b=scryfall_id[1], id=scryfall_id)


def legal_words(raw: Any) -> dict[str, str]:
    """{format: legal|banned|restricted}; "not legal" is left out (absent means not legal, as MTGJSON does)."""
    if not isinstance(raw, dict):
        return {}
    out = {}
    for fmt, status in raw.items():
        word = _LEGAL_WORDS.get(status) if isinstance(status, str) else None
        if word is None:
            word = str(status).strip().casefold().replace(" ", "_")
        if word and word != "not_legal" and isinstance(fmt, str) and fmt.isidentifier():
            out[fmt] = word
    return dict(sorted(out.items()))


# The words both sources use, looked up rather than re-spelled 20 times a printing.
_LEGAL_WORDS = {
    "Legal": "legal", "Banned": "banned", "Restricted": "restricted", "Not Legal": "not_legal",
    "legal": "legal", "banned": "banned", "restricted": "restricted", "not_legal": "not_legal",
}  # fmt: skip


class Collector:
    """Printings in, one `CardRecord` per card name out: the first printing met gives the card's rules,
    every printing adds its set, number, rarity, picture and languages."""

    def __init__(self, result: ParseResult) -> None:
        self.result = result
        self.cards: dict[str, CardRecord] = {}
        self.languages: dict[str, set[str]] = {}
        self.skipped: dict[str, int] = {}
        self.printings = 0

    def add_set(self, code: str, name: str = "", set_type: str = "", release_date: str = "") -> None:
        if not code:
            return
        known = self.result.sets.get(code)
        if known is None:
            self.result.sets[code] = SetRecord(code, name, set_type, release_date[:10])
        else:
            known.name = known.name or name
            known.set_type = known.set_type or set_type
            known.release_date = known.release_date or release_date[:10]

    def add(self, printing: Printing) -> None:
        self.printings += 1
        if printing.layout in NOT_DECK_CARDS:
            self.skipped[printing.layout] = self.skipped.get(printing.layout, 0) + 1
            return
        if not printing.name:
            self.result.error(printing.position, "name", msg("empty"))
            return
        record = self.cards.get(printing.name)
        if record is None:
            record = self.cards[printing.name] = card_record(printing)
            self.languages[printing.name] = set()
        self.languages[printing.name].update(LANGUAGE_CODES.get(lang, lang) for lang in printing.languages)
        if printing.set_code:
            self.add_set(printing.set_code)
            entry = PrintingRecord(printing.set_code, printing.number, printing.rarity, printing.image_url)
            if entry not in record.printings:
                record.printings.append(entry)

    def finish(self) -> None:
        for name, record in self.cards.items():
            languages = sorted(self.languages.get(name, ()))
            if languages:
                record.attributes["languages"] = languages
        self.result.records = list(self.cards.values())
        if self.skipped:
            counts = ", ".join(f"{layout} {count}" for layout, count in sorted(self.skipped.items()))
            self.result.warn(None, "layout", msg("magic_not_deck_cards", counts=counts))


def card_record(printing: Printing) -> CardRecord:
    faces = printing.faces or [Face(printing.name)]
    front = faces[0]
    together = printing.layout in FRONT_FACES
    type_text = " // ".join(f.type_line for f in faces if f.type_line) if together else front.type_line
    parsed = _type_line(type_text, "", slash_subtypes=False)
    # Subtypes and types of every face are searchable (an MDFC's land back is still a land to search for),
    # but the card's type is its front's: what it is in the library and the hand.
    all_faces = _type_line(" // ".join(f.type_line for f in faces if f.type_line), "", slash_subtypes=False)
    attributes: dict[str, Any] = {}
    if len(printing.colors) == 1:
        attributes["color"] = printing.colors[0]
    elif printing.colors:
        attributes["color"] = printing.colors
    if printing.color_identity:
        attributes["coloridentity"] = "".join(printing.color_identity)
    cost = None
    if printing.mana_value is not None and math.isfinite(printing.mana_value):
        cost = min(max(math.floor(printing.mana_value), COST_RANGE[0]), COST_RANGE[1])
        if printing.mana_value != cost:
            attributes["cmc"] = printing.mana_value
    mana_costs = [f.mana_cost for f in faces if f.mana_cost] if together else [front.mana_cost]
    if any(mana_costs):
        attributes["manacost"] = " // ".join(mana_costs)
    if all_faces.types and (
        all_faces.supertypes or len(all_faces.types) > 1 or all_faces.types != [parsed.card_type]
    ):
        attributes["types"] = all_faces.types
    if all_faces.supertypes:
        attributes["supertypes"] = all_faces.supertypes
    full_type = " // ".join(f.type_line for f in faces if f.type_line)
    if full_type and full_type.casefold() != parsed.card_type:
        attributes["type_line"] = full_type
    if front.power or front.toughness:
        if _is_int(front.power) and _is_int(front.toughness):
            attributes["power"], attributes["toughness"] = int(front.power), int(front.toughness)
        else:
            attributes["pt"] = f"{front.power}/{front.toughness}"
    if front.loyalty:
        attributes["loyalty"] = front.loyalty
    if front.defense:
        attributes["defense"] = front.defense
    if printing.layout and printing.layout != "normal":
        attributes["layout"] = printing.layout
    if len(faces) > 1:
        attributes["faces"] = [face.as_dict() for face in faces]
    if printing.keywords:
        attributes["keywords"] = sorted(set(printing.keywords))
    if printing.legalities:
        attributes["legalities"] = printing.legalities
    attributes.update({key: value for key, value in printing.extra.items() if value not in ("", None, [])})
    text = "\n//\n".join(f.text for f in faces) if len(faces) > 1 else front.text
    return CardRecord(
        external_id=printing.name,
        identity=printing.name,
        name=printing.name,
        card_type=parsed.card_type,
        subtypes=all_faces.subtypes,
        cost=cost,
        attributes=attributes,
        text=text.strip("\n/") if not any(f.text for f in faces) else text,
        line=printing.position,
    )


def _is_int(text: str) -> bool:
    return text.strip().lstrip("-").isdecimal()


def strings(value: Any) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


def text_of(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def number_of(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(str(value))
    except (TypeError, ValueError):
        return None


def first(items: Iterable[Any], default: Any = None) -> Any:
    return next(iter(items), default)


def file_size(handle: IO[bytes]) -> int:
    """The file's size in bytes (for the progress bar), from the descriptor or by seeking."""
    try:
        return os.fstat(handle.fileno()).st_size
    except (AttributeError, OSError, io.UnsupportedOperation):
        here = handle.tell()
        end = handle.seek(0, io.SEEK_END)
        handle.seek(here)
        return end
