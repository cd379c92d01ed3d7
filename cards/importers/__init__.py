"""Card-database parsers: bytes in, plain `CardRecord`s and every `ImportIssue` out. No database access.

Each format registers a parser and a sniffer; `detect_format` picks one from the bytes
(then the file extension), so users rarely need to say which format they upload.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

from django.utils.translation import gettext_noop

from . import cockatrice, interchange, vale, ygopro
from .base import CardRecord, FileRejected, ImportIssue, ParseResult, PrintingRecord, Progress, SetRecord
from .messages import Message, import_issue_text, msg

__all__ = [
    "FORMATS",
    "CardRecord",
    "FileRejected",
    "ImportIssue",
    "Message",
    "ParseResult",
    "PrintingRecord",
    "SetRecord",
    "detect_format",
    "import_issue_text",
    "msg",
    "parse",
]


@dataclass(frozen=True)
class Format:
    slug: str
    label: str
    extensions: tuple[str, ...]
    sniff: Callable[[bytes], bool]
    parse: Callable[..., ParseResult]
    # Formats that only ever hold one game's cards; empty: any game (Cockatrice, Deckhall files).
    games: tuple[str, ...] = ()


FORMATS: dict[str, Format] = {
    f.slug: f
    for f in [
        Format("cdb", "YGOPro / EDOPro .cdb", (".cdb",), ygopro.looks_like, ygopro.parse, ("yugioh",)),
        Format("cockatrice", "Cockatrice XML (v3/v4)", (".xml",), cockatrice.looks_like, cockatrice.parse),
        # Words, not a product name: the import form shows it through the catalogues.
        Format(
            "vale",
            gettext_noop("Vale of Eternity card list (JSON)"),
            (),
            vale.looks_like,
            vale.parse,
            ("vale",),
        ),
        Format("json", "Deckhall JSON", (".json",), interchange.looks_like_json, interchange.parse_json),
        Format("csv", "Deckhall CSV", (".csv",), lambda data: False, interchange.parse_csv),
    ]
}


def detect_format(data: bytes, filename: str = "") -> str:
    """Content first (a renamed file still imports), then the extension."""
    for fmt in FORMATS.values():
        if fmt.sniff(data):
            return fmt.slug
    suffix = PurePath(filename).suffix.casefold()
    for fmt in FORMATS.values():
        if suffix in fmt.extensions:
            return fmt.slug
    if filename:
        raise FileRejected(msg("format_undetected", filename=repr(filename), formats=", ".join(FORMATS)))
    raise FileRejected(msg("format_undetected_unnamed", formats=", ".join(FORMATS)))


def parse(
    data: bytes,
    *,
    filename: str = "",
    fmt: str | None = None,
    game_slug: str = "",
    progress: Progress | None = None,
) -> ParseResult:
    """Parse a file; a file-level problem comes back as a result holding that single error."""
    try:
        if fmt is not None and fmt not in FORMATS:
            raise FileRejected(
                msg("unknown_format", format=repr(fmt), formats=", ".join(FORMATS)), field_name="format"
            )
        if not data.removeprefix(b"\xef\xbb\xbf").strip():  # nothing, or only a BOM and blank lines
            raise FileRejected(msg("file_empty"))
        slug = fmt or detect_format(data, filename)
        chosen = FORMATS[slug]
        if chosen.games and game_slug and game_slug not in chosen.games:
            # A wrong pick in the game list would otherwise pour thousands of foreign cards into a game.
            raise FileRejected(
                msg(
                    "wrong_game_for_format",
                    label=chosen.label,
                    games=" / ".join(chosen.games),
                    game=repr(game_slug),
                ),
                field_name="game",
            )
        return chosen.parse(data, game_slug=game_slug, progress=progress)
    except FileRejected as exc:
        result = ParseResult(fmt=fmt or "")
        result.errors.append(exc.issue)
        return result
    except RecursionError:
        result = ParseResult(fmt=fmt or "")
        result.errors.append(ImportIssue.of(None, "", msg("file_too_deep")))
        return result
