"""A game's card database updated from the community's current files in one step: fetch, dry run, apply,
roll back (`manage.py update_cards <game>`, the "Update cards" page for card editors).

* **Where from**: `settings.CARD_UPDATE_URLS[game]` (environment `CARD_UPDATE_URLS_<GAME>`). A URL answering
  a JSON directory listing (GitHub's contents API, as EDOPro's BabelCDB repository is read) stands for the
  files in it the game reads: for Yu-Gi-Oh! `cards.cdb`, `cards-unofficial.cdb` and `prerelease-*.cdb`, in
  that order. `.gz` files are unpacked as they arrive.
* **Merged newest-wins**, as EDOPro loads its databases: a passcode in a later file replaces the earlier
  one. Cards from `cards-unofficial.cdb` carry `attributes.unofficial = true` and cards from a prerelease
  file `attributes.prerelease = true` (with `attributes.source_file`), so a format can leave them out
  (`accept = { unofficial = { not = true } }`). For Magic, MTGJSON comes first and a Cockatrice spoiler file
  only adds the cards MTGJSON does not have yet (a card named as any face of a card already read is the same card).
* **Dry run** says what would change: new, changed and removed cards (removed ones are kept — decks hold
  them — and only reported), and ban-list moves (a card becoming banned, restricted or legal in a format).
* **Apply** writes everything in one transaction, after keeping the database as it was (a Deckhall JSON
  export, gzipped, and the ids of what the update creates) on the `CardUpdate`; the **latest** applied update
  of a game can be rolled back in one step.
* **No internet** (a venue): the first URL that cannot be reached ends the run with a message naming it;
  nothing is changed.
"""

from __future__ import annotations

import fnmatch
import gzip
import json
import shutil
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from . import importers
from .importers import CardRecord, ImportIssue, ParseResult, msg
from .models import Card, CardSet, CardUpdate, Game, ImportJob
from .selectors import cards_export
from .services import (
    CARD_FIELDS,
    JOB_RUNNERS,
    ImportResult,
    card_values,
    cards_write_parsed,
    import_job_create,
    import_job_enqueue,
)

JOB_FORMAT = "update"
# The files of a listing a game reads, in the order they are merged (later wins).
LISTING_FILES = {"yugioh": ["cards.cdb", "cards-unofficial.cdb", "prerelease-*.cdb", "*lflist.conf"]}
SAMPLE = 20
CHUNK = 1 << 16


@dataclass(frozen=True)
class BanListHooks:
    """How ban-list files fetched with the cards are checked, imported and undone: the rules app (a higher
    layer, which owns ban lists) registers them from its AppConfig.ready."""

    check: Callable[..., list[dict[str, Any]]]
    apply: Callable[..., list[int]]
    undo: Callable[..., None]


_BANLIST_HOOKS: list[BanListHooks] = []


def register_banlist_hooks(hooks: BanListHooks) -> None:
    _BANLIST_HOOKS[:] = [hooks]


def _is_banlist_file(name: str) -> bool:
    return name.casefold().endswith("lflist.conf")


class UpdateRefused(Exception):
    def __init__(self, code: str, **params: Any) -> None:
        self.issue = ImportIssue.of(None, "", msg(code, **params))
        super().__init__(self.issue.reason)


@dataclass
class Fetched:
    name: str
    url: str
    path: Path
    size: int


def update_urls(game: Game) -> list[str]:
    return list(getattr(settings, "CARD_UPDATE_URLS", {}).get(game.slug, []))


# --- starting, running, rolling back -----------------------------------------------------------------


def card_update_create(
    *, game: Game, created_by: Any = None, dry_run: bool, urls: list[str] | None = None
) -> CardUpdate:
    """The update's rows (an import job for the progress and report, and the update); nothing runs yet."""
    chosen = urls if urls is not None else update_urls(game)
    if not chosen:
        raise UpdateRefused(
            "update_no_sources", game=game.slug, setting=f"CARD_UPDATE_URLS_{game.slug.upper()}"
        )
    for url in chosen:
        if urllib.parse.urlsplit(url).scheme not in {"http", "https"}:
            raise UpdateRefused("update_bad_url", url=url[:200])
    hosts = sorted({urllib.parse.urlsplit(url).netloc for url in chosen})
    with transaction.atomic():
        job = import_job_create(
            game=game,
            created_by=created_by,
            filename=f"update from {', '.join(hosts)}",
            data=b"",
            fmt=JOB_FORMAT,
        )
        return CardUpdate.objects.create(
            game=game, job=job, created_by=created_by, dry_run=dry_run, urls=chosen
        )


def card_update_start(
    *, game: Game, created_by: Any = None, dry_run: bool, urls: list[str] | None = None
) -> CardUpdate:
    """Create the update and run it as a background import job once committed (the page polls its progress)."""
    with transaction.atomic():
        update = card_update_create(game=game, created_by=created_by, dry_run=dry_run, urls=urls)
        transaction.on_commit(lambda: import_job_enqueue(job_id=update.job_id))
    return update


def _run_job(job: ImportJob, progress: importers.Progress) -> ImportResult:
    update = CardUpdate.objects.select_related("game").get(job=job)
    try:
        result = card_update_run(update=update, progress=progress)
    except UpdateRefused as exc:
        CardUpdate.objects.filter(pk=update.pk).update(status=CardUpdate.Status.FAILED)
        return ImportResult(fmt=JOB_FORMAT, errors=[exc.issue])
    except (
        BaseException
    ):  # the job machinery reports it (time limit, database error, bug); the update failed too
        CardUpdate.objects.filter(pk=update.pk).update(status=CardUpdate.Status.FAILED)
        raise
    return result


JOB_RUNNERS[JOB_FORMAT] = _run_job


def card_update_run(*, update: CardUpdate, progress: importers.Progress | None = None) -> ImportResult:
    """Fetch, parse and merge the files, say what changes, and (unless a dry run) apply it atomically."""
    game = update.game
    folder = Path(tempfile.mkdtemp(prefix="deckhall-update-"))
    try:
        files = files_fetch(game=game, urls=update.urls, folder=folder, progress=progress)
        banlist_files = [f for f in files if _is_banlist_file(f.name)]
        card_files = [f for f in files if not _is_banlist_file(f.name)]
        merged = files_parse(game=game, files=card_files, progress=progress, allow_empty=bool(banlist_files))
        result = ImportResult(fmt=JOB_FORMAT, total=len(merged.records), warnings=list(merged.warnings))
        if merged.errors:
            result.errors = list(merged.errors)
            CardUpdate.objects.filter(pk=update.pk).update(status=CardUpdate.Status.FAILED)
            return result
        summary = changes_plan(game=game, parsed=merged)
        summary["files"] = [{"name": f.name, "url": f.url, "bytes": f.size} for f in files]
        summary["banlists"] = _banlists_check(game, banlist_files)
        if update.dry_run:
            CardUpdate.objects.filter(pk=update.pk).update(status=CardUpdate.Status.CHECKED, summary=summary)
            result.created, result.updated = summary["new"], summary["changed"]
            return result
        try:
            _apply(update=update, parsed=merged, summary=summary, result=result, banlist_files=banlist_files)
        except ValidationError as exc:  # a ban-list file the rules refuse: the whole update is undone
            raise UpdateRefused("update_banlist_refused", detail="; ".join(exc.messages)[:300]) from exc
        return result
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@transaction.atomic
def _apply(
    *,
    update: CardUpdate,
    parsed: ParseResult,
    summary: dict[str, Any],
    result: ImportResult,
    banlist_files: list[Fetched],
) -> None:
    game = update.game
    Game.objects.select_for_update().filter(pk=game.pk).first()
    before_cards = set(Card.objects.filter(game=game).values_list("id", flat=True))
    before_sets = set(CardSet.objects.filter(game=game).values_list("id", flat=True))
    snapshot = gzip.compress(cards_export(game=game, fmt="json"), compresslevel=5)
    if parsed.records:
        result.created, result.updated, result.unchanged = cards_write_parsed(game=game, parsed=parsed)
    banlist_ids: list[int] = []
    for hooks in _BANLIST_HOOKS:
        for fetched in banlist_files:
            text = fetched.path.read_text(encoding="utf-8", errors="replace")
            banlist_ids += hooks.apply(game=game, text=text, source=fetched.url)
    # One step back: only the latest applied update keeps what was there before it.
    CardUpdate.objects.filter(game=game, status=CardUpdate.Status.APPLIED).update(snapshot=b"")
    CardUpdate.objects.filter(pk=update.pk).update(
        status=CardUpdate.Status.APPLIED,
        summary=summary,
        snapshot=snapshot,
        created_card_ids=sorted(
            set(Card.objects.filter(game=game).values_list("id", flat=True)) - before_cards
        ),
        created_set_ids=sorted(
            set(CardSet.objects.filter(game=game).values_list("id", flat=True)) - before_sets
        ),
        created_banlist_ids=banlist_ids,
        applied_at=timezone.now(),
    )


def card_update_latest_applied(*, game: Game) -> CardUpdate | None:
    return (
        CardUpdate.objects.filter(game=game, status=CardUpdate.Status.APPLIED).exclude(snapshot=b"").first()
    )


@transaction.atomic
def card_update_rollback(*, game: Game) -> CardUpdate:
    """Put the game's cards back as they were before its latest applied update; refused (nothing changed)
    when there is none, or when decks already hold cards that update added."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    update = card_update_latest_applied(game=game)
    if update is None:
        raise UpdateRefused("update_nothing_to_roll_back", game=game.slug)
    created = Card.objects.filter(pk__in=update.created_card_ids, game=game)
    try:
        with transaction.atomic():
            for hooks in _BANLIST_HOOKS:
                hooks.undo(game=game, ids=update.created_banlist_ids)
            created.delete()
    except ProtectedError as exc:
        names = sorted({str(obj) for obj in exc.protected_objects})[:5]
        raise UpdateRefused(
            "update_rollback_in_decks", count=len(exc.protected_objects), decks=", ".join(names)
        ) from exc
    snapshot = gzip.decompress(bytes(update.snapshot))
    parsed = importers.parse(snapshot, fmt="json", game_slug=game.slug)
    if parsed.errors:  # a snapshot this code wrote; failing here is a bug, and nothing is changed
        raise UpdateRefused("update_snapshot_unreadable", detail=str(parsed.errors[0])[:200])
    if parsed.records:
        cards_write_parsed(game=game, parsed=parsed)
    CardSet.objects.filter(pk__in=update.created_set_ids, game=game).delete()
    update.status = CardUpdate.Status.ROLLED_BACK
    update.rolled_back_at = timezone.now()
    update.snapshot = b""
    update.save(update_fields=["status", "rolled_back_at", "snapshot"])
    return update


# --- fetching --------------------------------------------------------------------------------------------


def _open(url: str) -> Any:
    if urllib.parse.urlsplit(url).scheme not in {"http", "https"}:
        raise UpdateRefused("update_bad_url", url=url[:200])
    headers = {"User-Agent": "Deckhall card update", "Accept": "*/*"}
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 (http(s) only, checked above)
    try:
        return urllib.request.urlopen(request, timeout=settings.CARD_UPDATE_TIMEOUT_S)  # noqa: S310 (http(s) only, checked)
    except urllib.error.HTTPError as exc:
        raise UpdateRefused("update_http_error", url=url[:200], status=exc.code) from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        host = urllib.parse.urlsplit(url).netloc
        raise UpdateRefused("update_unreachable", host=host, reason=str(reason)[:200]) from exc


def _listing(body: bytes) -> list[tuple[str, str]] | None:
    """[(name, download URL)] when the body is a JSON directory listing (GitHub's contents API), else None."""
    if not body.lstrip().startswith(b"["):
        return None
    try:
        items = json.loads(body)
    except ValueError:
        return None
    if not isinstance(items, list) or not all(isinstance(item, dict) and "name" in item for item in items):
        return None
    return [
        (str(item["name"]), str(item.get("download_url") or ""))
        for item in items
        if item.get("type", "file") == "file" and item.get("download_url")
    ]


def _expand(game: Game, url: str) -> list[tuple[str, str]]:
    """The files a URL stands for: itself, or the files of a listing the game reads, in merge order."""
    patterns = LISTING_FILES.get(game.slug)
    if not patterns:
        return [(PurePosixPath(urllib.parse.urlsplit(url).path).name or "download", url)]
    with _open(url) as response:
        head = response.read(1 << 20)
        listing = _listing(head) if len(head) < (1 << 20) else None
    if listing is None:
        return [(PurePosixPath(urllib.parse.urlsplit(url).path).name or "download", url)]
    chosen = []
    for pattern in patterns:
        chosen += sorted((name, link) for name, link in listing if fnmatch.fnmatchcase(name, pattern))
    if not chosen:
        raise UpdateRefused("update_listing_empty", url=url[:200], patterns=", ".join(patterns))
    for _name, link in chosen:
        if urllib.parse.urlsplit(link).scheme not in {"http", "https"}:
            raise UpdateRefused("update_bad_url", url=link[:200])
    return chosen


def files_fetch(
    *, game: Game, urls: list[str], folder: Path, progress: importers.Progress | None = None
) -> list[Fetched]:
    """Download every file (listings expanded) into `folder`; the first failure ends it with its reason."""
    wanted: list[tuple[str, str]] = []
    for url in urls:
        wanted += _expand(game, url)
    limit = settings.CARD_UPDATE_MAX_MB * 1024 * 1024
    fetched: list[Fetched] = []
    done = 0
    for index, (name, url) in enumerate(wanted):
        packed = name.endswith(".gz")
        target = folder / f"{index:02d}-{name.removesuffix('.gz')}"
        with _open(url) as response, target.open("wb") as out:
            length = int(response.headers.get("Content-Length") or 0)
            source = gzip.GzipFile(fileobj=response) if packed else response
            size = 0
            try:
                while chunk := source.read(CHUNK):
                    size += len(chunk)
                    if size > limit:
                        raise UpdateRefused(
                            "update_too_large", url=url[:200], megabytes=settings.CARD_UPDATE_MAX_MB
                        )
                    out.write(chunk)
                    done += len(chunk)
                    if progress and size % (16 * CHUNK) < CHUNK:
                        progress(done // 1024, max(done, length) // 1024)
            except (OSError, EOFError) as exc:  # a connection dropped mid-file, a broken .gz
                raise UpdateRefused("update_download_broken", url=url[:200], reason=str(exc)[:200]) from exc
        fetched.append(Fetched(name=name.removesuffix(".gz"), url=url, path=target, size=size))
    return fetched


# --- parsing and merging ---------------------------------------------------------------------------------


def _flags(name: str) -> dict[str, Any]:
    lowered = name.casefold()
    if lowered.startswith("prerelease"):
        return {"prerelease": True, "source_file": name}
    if "unofficial" in lowered:
        return {"unofficial": True, "source_file": name}
    return {}


def _face_names(record: CardRecord) -> set[str]:
    names = {record.name.casefold(), *(part.strip().casefold() for part in record.name.split("//"))}
    for face in record.attributes.get("faces") or []:
        if isinstance(face, dict) and face.get("name"):
            names.add(str(face["name"]).casefold())
    return names


def files_parse(
    *, game: Game, files: list[Fetched], progress: importers.Progress | None = None, allow_empty: bool = False
) -> ParseResult:
    """Every file parsed as an import would (refused for another game's data alike), merged newest-wins."""
    merged = ParseResult(fmt=JOB_FORMAT)
    by_id: dict[str, CardRecord] = {}
    known_names: set[str] = set()
    for fetched in files:
        parsed = importers.parse_file(
            fetched.path, filename=fetched.name, game_slug=game.slug, progress=progress
        )
        if parsed is None:
            parsed = importers.parse(
                fetched.path.read_bytes(), filename=fetched.name, game_slug=game.slug, progress=progress
            )
        if parsed.errors:
            merged.errors.append(ImportIssue.of(None, "", msg("update_file_refused", filename=fetched.name)))
            merged.errors += parsed.errors[:50]
            continue
        merged.warnings += parsed.warnings[:50]
        flags = _flags(fetched.name)
        spoiler = parsed.fmt == "cockatrice" and game.slug == "mtg" and bool(by_id)
        for record in parsed.records:
            if spoiler and (record.external_id not in by_id) and (_face_names(record) & known_names):
                continue  # a face of a card MTGJSON already gave: the same card, MTGJSON's data wins
            record.attributes.update(flags)
            by_id[record.external_id] = record
            known_names |= _face_names(record)
        for code, card_set in parsed.sets.items():
            merged.sets.setdefault(code, card_set)
    merged.records = list(by_id.values())
    if not merged.records and not merged.errors and not allow_empty:
        merged.errors.append(ImportIssue.of(None, "", msg("no_cards")))
    return merged


def _banlists_check(game: Game, files: list[Fetched]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for hooks in _BANLIST_HOOKS:
        for fetched in files:
            text = fetched.path.read_text(encoding="utf-8", errors="replace")
            try:
                out += [{**item, "file": fetched.name} for item in hooks.check(game=game, text=text)]
            except ValidationError as exc:
                raise UpdateRefused("update_banlist_refused", detail="; ".join(exc.messages)[:300]) from exc
    return out


# --- what changes ----------------------------------------------------------------------------------------

MOVES = {"banned", "restricted", "suspended"}


def changes_plan(*, game: Game, parsed: ParseResult) -> dict[str, Any]:
    """New, changed and removed cards, and ban-list moves (legalities that start or stop being a ban)."""
    existing = {
        row[0]: dict(zip(CARD_FIELDS, row[1:], strict=True))
        for row in Card.objects.filter(game=game).values_list("external_id", *CARD_FIELDS)
    }
    new, changed, moves = [], [], []
    seen = set()
    for record in parsed.records:
        seen.add(record.external_id)
        old = existing.get(record.external_id)
        if old is None:
            new.append(record.name)
            continue
        values = card_values(record)
        if any(old[name] != values[name] for name in CARD_FIELDS):
            changed.append(record.name)
            before = (old["attributes"] or {}).get("legalities") or {}
            after = (record.attributes or {}).get("legalities") or {}
            for fmt in sorted(set(before) | set(after)):
                was, now = before.get(fmt, "not_legal"), after.get(fmt, "not_legal")
                if was != now and (was in MOVES or now in MOVES):
                    moves.append({"card": record.name, "format": fmt, "from": was, "to": now})
    removed = sorted(existing[ext]["name"] for ext in existing if ext not in seen)
    flagged = {
        flag: sum(1 for record in parsed.records if record.attributes.get(flag))
        for flag in ("unofficial", "prerelease")
    }
    return {
        "new": len(new),
        "changed": len(changed),
        "removed": len(removed),
        "unchanged": len(parsed.records) - len(new) - len(changed),
        "new_names": new[:SAMPLE],
        "changed_names": changed[:SAMPLE],
        "removed_names": removed[:SAMPLE],
        "banlist_moves": moves[:50],
        "banlist_moves_count": len(moves),
        "flagged": flagged,
    }
