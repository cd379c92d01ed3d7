"""Card-database parsers: bytes in, plain `CardRecord`s and every `ImportIssue` out. No database access.

Each format registers a parser and a sniffer; `detect_format` picks one from the bytes
(then the file extension), so users rarely need to say which format they upload.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePath

from django.utils.translation import gettext_noop

from . import cockatrice, interchange, mtgjson, scryfall, vale, ygopro
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
    "parse_file",
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
    # Formats read as a stream from a file (hundreds of MB): no size limit, never the whole file in memory.
    parse_stream: Callable[..., ParseResult] | None = None


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
        # Before Deckhall JSON: both are JSON objects, these say what they are in their first bytes.
        Format(
            "mtgjson",
            gettext_noop("MTGJSON (AllPrintings, AtomicCards, a set)"),
            (),
            mtgjson.looks_like,
            mtgjson.parse,
            ("mtg",),
            mtgjson.parse_stream,
        ),
        Format(
            "scryfall",
            gettext_noop("Scryfall bulk data (default-cards, oracle-cards)"),
            (),
            scryfall.looks_like,
            scryfall.parse,
            ("mtg",),
            scryfall.parse_stream,
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


def _chosen(head: bytes, *, filename: str, fmt: str | None, game_slug: str) -> Format:
    """The format to read a file with (named, else detected), refused when it cannot hold this game's cards."""
    if fmt is not None and fmt not in FORMATS:
        raise FileRejected(
            msg("unknown_format", format=repr(fmt), formats=", ".join(FORMATS)), field_name="format"
        )
    if not head.removeprefix(b"\xef\xbb\xbf").strip():  # nothing, or only a BOM and blank lines
        raise FileRejected(msg("file_empty"))
    chosen = FORMATS[fmt or detect_format(head, filename)]
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
    return chosen


def _refused(fmt: str | None, issue: ImportIssue) -> ParseResult:
    result = ParseResult(fmt=fmt or "")
    result.errors.append(issue)
    return result


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
        chosen = _chosen(data, filename=filename, fmt=fmt, game_slug=game_slug)
        return chosen.parse(data, game_slug=game_slug, progress=progress)
    except FileRejected as exc:
        return _refused(fmt, exc.issue)
    except RecursionError:
        return _refused(fmt, ImportIssue.of(None, "", msg("file_too_deep")))


# Enough of a file's start for every sniffer (they look at the first 4 KB or the SQLite header).
HEAD_BYTES = 64 * 1024


def parse_file(
    path: Path,
    *,
    filename: str = "",
    fmt: str | None = None,
    game_slug: str = "",
    progress: Progress | None = None,
) -> ParseResult | None:
    """Parse a file on disk as a stream when its format is read that way (MTGJSON, Scryfall: hundreds of
    MB); None when it is not (the caller reads it whole, within the usual size limit)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES)
            chosen = _chosen(head, filename=filename or path.name, fmt=fmt, game_slug=game_slug)
            if chosen.parse_stream is None:
                return None
            handle.seek(0)
            return chosen.parse_stream(handle, progress=progress)
    except FileRejected as exc:
        return _refused(fmt, exc.issue)
    except RecursionError:
        return _refused(fmt, ImportIssue.of(None, "", msg("file_too_deep")))
