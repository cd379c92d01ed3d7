"""Card pictures uploaded with a card import: a ZIP read without trusting it, each picture checked by
decoding it and stored re-encoded (never the uploaded bytes).

Layouts read, as the tools lay out their picture folders:
- EDOPro / YGOPro: ``pics/<passcode>.jpg`` (or .png); ``pics/field/`` holds field-spell backgrounds,
  which are not card pictures, and is skipped with a warning.
- Cockatrice: ``pics/CUSTOM/<name>.jpg``, also ``<name>.full.jpg`` (the older convention) and set
  sub-folders (``pics/CUSTOM/<SET>/<name>.jpg``, ``pics/downloadedPics/<SET>/<name>.jpg``); the name
  is Cockatrice's file-safe "corrected" name (``Fire // Ice`` → ``FireIce``; see ``corrected_name``).
- Or the pictures at the top of the ZIP. Only a file's base name says which card it shows.

Everything a hostile ZIP could use is checked on the ZIP's directory before one byte is decompressed
(file count, total and per-file unpacked size, compression ratio, names leading outside, links,
encryption), and again while reading (a directory may lie about sizes). Nothing is ever extracted
by its name: pictures are decoded in memory and written under a name made of their content hash.
"""

from __future__ import annotations

import hashlib
import io
import re
import stat
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from PIL import Image, ImageOps

from .importers import ImportIssue, msg
from .importers.messages import Message

# The upload itself: the same cap as a card database (and the site's request body limit).
MAX_ZIP_BYTES = 64 * 1024 * 1024
# Enough for EDOPro's unofficial cards (~6,000 with their pictures) in one ZIP; a whole official
# picture pack (13,000+) goes in several imports rather than one task that runs for many minutes.
MAX_FILES = 6_000
# Card scans are 50–500 kB; 512 MB unpacked is far above any real pack and far below a worker's memory
# (pictures are read one at a time; this bounds the time spent and the disk a bomb could claim).
MAX_TOTAL_BYTES = 512 * 1024 * 1024
MAX_FILE_BYTES = 16 * 1024 * 1024
# JPEG, PNG and WebP barely compress in a ZIP (ratio ~1); an uncompressed BMP of flat colours reaches
# a few dozen. A classic ZIP bomb is ~1,000:1 or more.
MAX_RATIO = 200
# A picture's pixels, checked from its header before it is decoded (a small file can claim 50,000²).
MAX_PIXELS = 40_000_000
# All pictures of one upload together: a 40-megapixel picture costs ~0.4 s to decode and shrink, and
# 6,000 of them would hold a worker 40 minutes. 8 gigapixels is 6,000 pictures of 1.3 megapixels, more
# than a real card set's scans, and about a minute of work at worst.
MAX_TOTAL_PIXELS = 8_000_000_000
# Pages show a card at most 350 px high; 745 px (Scryfall's "large" is 936, YGOPRODeck's 614) keeps it
# sharp on a high-density screen at about 100 kB a picture. Landscape cards keep the same bounds turned.
MAX_HEIGHT = 745
MAX_WIDTH = 1040
JPEG_QUALITY = 85
PICTURE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp"})
PICTURE_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "GIF", "BMP", "MPO"})
# Files operating systems leave in folders they zip: never pictures, never worth a warning.
_JUNK_NAMES = frozenset({"thumbs.db", "desktop.ini", ".ds_store"})


@dataclass(frozen=True)
class PictureEntry:
    """One picture file of the ZIP, found in its directory (not yet decompressed)."""

    name: str  # the entry's name in the ZIP, as the report shows it
    key: str  # what names the card: the base name without extension and Cockatrice's ".full"
    info: zipfile.ZipInfo = field(compare=False, repr=False)


@dataclass(frozen=True)
class Picture:
    """A picture decoded, checked and re-encoded as JPEG."""

    data: bytes
    width: int
    height: int
    digest: str  # sha256 of `data`: the stored file's name


@dataclass
class PictureScan:
    entries: list[PictureEntry] = field(default_factory=list)
    errors: list[ImportIssue] = field(default_factory=list)
    warnings: list[ImportIssue] = field(default_factory=list)
    archive: zipfile.ZipFile | None = None


def _issue(name: str, message: Message, *, warning: bool = False) -> ImportIssue:
    return ImportIssue.of(None, "", message, name, severity="warning" if warning else "error")


def corrected_name(name: str) -> str:
    """Cockatrice's file name for a card (CardInfo::getCorrectedName): characters Windows refuses in
    file names removed, " // " removed, "/" and a few control characters turned into spaces."""
    removed = re.sub(r'( // |[*<>:"\\?\x00-\x08\x10-\x1f])', "", name)
    return re.sub(r"[/\x09-\x0f]", " ", removed)


def picture_key(stem: str) -> str:
    """How a file's base name is compared with cards: case-folded (Windows and macOS folders ignore
    case), Cockatrice's ".full" suffix dropped."""
    key = stem[:-5] if stem.casefold().endswith(".full") else stem
    return key.strip().casefold()


def _unsafe(name: str) -> bool:
    path = name.replace("\\", "/")
    return (
        path.startswith("/")
        or re.match(r"^[A-Za-z]:", path) is not None
        or "\x00" in path
        or any(part == ".." for part in path.split("/"))
    )


def _is_link(info: zipfile.ZipInfo) -> bool:
    return info.create_system == 3 and stat.S_ISLNK(info.external_attr >> 16)


def _skipped_silently(path: PurePosixPath) -> bool:
    return (
        any(part == "__MACOSX" or part.startswith(".") for part in path.parts)
        or path.name.casefold() in _JUNK_NAMES
    )


def pictures_scan(data: bytes) -> PictureScan:
    """Check the ZIP's directory and list its pictures; any error refuses the whole ZIP."""
    scan = PictureScan()
    if len(data) > MAX_ZIP_BYTES:
        scan.errors.append(_issue("", msg("pictures_zip_too_large", megabytes=MAX_ZIP_BYTES // 2**20)))
        return scan
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as exc:
        scan.errors.append(_issue("", msg("pictures_not_zip", detail=str(exc)[:200])))
        return scan
    files = [info for info in infos if not info.is_dir()]
    if len(files) > MAX_FILES:
        scan.errors.append(_issue("", msg("pictures_too_many", count=len(files), limit=MAX_FILES)))
        return scan
    total = sum(info.file_size for info in files)
    if total > MAX_TOTAL_BYTES:
        scan.errors.append(
            _issue(
                "",
                msg("pictures_too_big_total", megabytes=-(-total // 2**20), limit=MAX_TOTAL_BYTES // 2**20),
            )
        )
        return scan
    for info in files:
        error = _entry_error(info)
        if error is not None:
            scan.errors.append(_issue(info.filename, error))
            continue
        path = PurePosixPath(info.filename.replace("\\", "/"))
        if _skipped_silently(path):
            continue
        suffix = path.suffix.casefold()
        if suffix not in PICTURE_SUFFIXES:
            scan.warnings.append(_issue(info.filename, msg("pictures_not_picture_file"), warning=True))
        elif len(path.parts) > 1 and path.parts[-2].casefold() == "field":
            scan.warnings.append(_issue(info.filename, msg("pictures_field_art"), warning=True))
        else:
            scan.entries.append(PictureEntry(info.filename, picture_key(path.stem), info))
    if not scan.errors and not scan.entries:
        scan.errors.append(_issue("", msg("pictures_empty")))
    if scan.errors:
        archive.close()
    else:
        scan.archive = archive
    return scan


def _entry_error(info: zipfile.ZipInfo) -> Message | None:
    if _unsafe(info.filename):
        return msg("pictures_unsafe_path")
    if _is_link(info):
        return msg("pictures_link")
    if info.flag_bits & 0x1:
        return msg("pictures_encrypted")
    if info.file_size > MAX_FILE_BYTES:
        return msg(
            "pictures_file_too_big", megabytes=-(-info.file_size // 2**20), limit=MAX_FILE_BYTES // 2**20
        )
    if info.compress_size and info.file_size / info.compress_size > MAX_RATIO:
        return msg("pictures_ratio", ratio=int(info.file_size / info.compress_size), limit=MAX_RATIO)
    if info.file_size and not info.compress_size:
        return msg("pictures_ratio", ratio="∞", limit=MAX_RATIO)
    return None


class PixelBudget:
    """The pixels an upload may still decode (``MAX_TOTAL_PIXELS``), spent from each picture's header before
    the picture is decoded."""

    def __init__(self, total: int | None = None) -> None:
        self.left = MAX_TOTAL_PIXELS if total is None else total

    def spend(self, pixels: int) -> None:
        self.left -= pixels
        if self.left < 0:
            raise _Refused(msg("pictures_total_pixels", limit=MAX_TOTAL_PIXELS // 10**6))


def picture_read(
    archive: zipfile.ZipFile, entry: PictureEntry, budget: PixelBudget | None = None
) -> tuple[Picture | None, list[ImportIssue]]:
    """Decompress, decode, check, shrink if needed and re-encode one picture. An error (not a picture,
    too many pixels, a damaged entry) comes back as an error issue; a resize as a warning saying why."""
    try:
        with archive.open(entry.info) as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
        return None, [_issue(entry.name, msg("pictures_damaged", detail=str(exc)[:200]))]
    if len(raw) > MAX_FILE_BYTES or len(raw) > entry.info.file_size:  # the directory lied about its size
        return None, [_issue(entry.name, msg("pictures_ratio", ratio="?", limit=MAX_RATIO))]
    try:
        return _encode(entry, raw, budget)
    except _Refused as refused:
        return None, [_issue(entry.name, refused.message)]


class _Refused(Exception):
    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


def _encode(
    entry: PictureEntry, raw: bytes, budget: PixelBudget | None = None
) -> tuple[Picture, list[ImportIssue]]:
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(raw))
            if image.format not in PICTURE_FORMATS:
                raise _Refused(msg("pictures_not_image", detail=image.format or "?"))
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise _Refused(
                    msg("pictures_too_many_pixels", width=width, height=height, limit=MAX_PIXELS // 10**6)
                )
            if budget is not None:
                budget.spend(width * height)
            image.seek(0)  # an animated GIF or WebP: its first frame
            image.load()
            image = ImageOps.exif_transpose(image)
        except _Refused:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise _Refused(
                msg("pictures_too_many_pixels", width="?", height="?", limit=MAX_PIXELS // 10**6)
            ) from None
        except (OSError, SyntaxError, ValueError, EOFError, TypeError, IndexError) as exc:
            raise _Refused(msg("pictures_not_image", detail=str(exc)[:200] or type(exc).__name__)) from exc
    try:
        return _shrunk_jpeg(entry, image)
    except (OSError, ValueError) as exc:  # a mode or palette Pillow decodes but cannot convert
        raise _Refused(msg("pictures_not_image", detail=str(exc)[:200] or type(exc).__name__)) from exc


def _shrunk_jpeg(entry: PictureEntry, image: Image.Image) -> tuple[Picture, list[ImportIssue]]:
    issues: list[ImportIssue] = []
    image = _rgb(image)
    if image.width > MAX_WIDTH or image.height > MAX_HEIGHT:
        before = image.size
        image.thumbnail((MAX_WIDTH, MAX_HEIGHT), Image.Resampling.LANCZOS)
        issues.append(
            _issue(
                entry.name,
                msg(
                    "pictures_resized",
                    width=before[0],
                    height=before[1],
                    new_width=image.width,
                    new_height=image.height,
                    max_height=MAX_HEIGHT,
                    max_width=MAX_WIDTH,
                ),
                warning=True,
            )
        )
    out = io.BytesIO()
    # Re-encoding drops whatever the upload carried besides pixels (EXIF with GPS, appended scripts).
    image.save(out, format="JPEG", quality=JPEG_QUALITY, optimize=True, progressive=True)
    data = out.getvalue()
    return Picture(data, image.width, image.height, hashlib.sha256(data).hexdigest()), issues


def _rgb(image: Image.Image) -> Image.Image:
    """JPEG has no transparency: transparent parts (a PNG's rounded corners) become white, like paper."""
    if image.mode == "RGB":
        return image
    if image.mode in {"RGBA", "LA", "P", "PA"} or "transparency" in image.info:
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    return image.convert("RGB")


def iter_pictures(
    archive: zipfile.ZipFile, entries: list[PictureEntry], budget: PixelBudget | None = None
) -> Iterator[tuple[PictureEntry, Picture | None, list[ImportIssue]]]:
    for entry in entries:
        picture, issues = picture_read(archive, entry, budget)
        yield entry, picture, issues
