"""Writes to the card database: atomic imports (upsert by game + external id) and import jobs."""

from __future__ import annotations

import datetime
import logging
import threading
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from . import importers, picture_store
from .importers import CardRecord, ImportIssue, ParseResult, SetRecord, msg
from .models import Card, CardSet, Game, ImportJob, Printing, SavedSearch

logger = logging.getLogger(__name__)

MAX_IMPORT_BYTES = 64 * 1024 * 1024
BATCH_SIZE = 500
CARD_FIELDS = [
    "identity",
    "name",
    "search_name",
    "card_type",
    "subtypes",
    "level",
    "cost",
    "attributes",
    "text",
    "is_token",
    "deck_buildable",
]


@dataclass
class ImportResult:
    fmt: str
    total: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    errors: list[ImportIssue] = field(default_factory=list)
    # Rows skipped or flagged while the rest of the file was imported (severity "warning").
    warnings: list[ImportIssue] = field(default_factory=list)
    # Cards that got a picture from the import's ZIP of pictures.
    pictures: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors

    def error_dicts(self) -> list[dict[str, Any]]:
        """The import report a job stores: errors first, then warnings; each dict names its severity."""
        return [issue.as_dict() for issue in [*self.errors, *self.warnings]]


def cards_import(
    *,
    game: Game,
    data: bytes,
    filename: str = "",
    fmt: str | None = None,
    job: ImportJob | None = None,
    pictures: bytes | None = None,
    source: Path | None = None,
) -> ImportResult:
    """Parse `data` (or the file `source`: MTGJSON and Scryfall files, hundreds of MB, are streamed from it
    with no size limit) and upsert its cards into `game`, all or nothing; with `pictures` (a ZIP named by
    external id or name, cards/pictures.py) the cards' pictures too, in the same all or nothing.

    A file with any error writes nothing and returns every error. Cards missing from the file
    are kept (decks may refer to them); cards present are updated in place, keeping their pk.
    Parsing runs outside the transaction so the job's progress is visible to pollers meanwhile.
    Pictures alone (no card file) go to the cards the game already has.
    """
    if not data and pictures and source is None:
        return _pictures_only(game=game, pictures=pictures)
    progress = _job_progress(job) if job is not None else None
    parsed = None
    if source is not None:
        filename = filename or source.name
        parsed = importers.parse_file(
            source, filename=filename, fmt=fmt, game_slug=game.slug, progress=progress
        )
        if parsed is None:  # not a streamed format: read whole, within the usual size limit
            if source.stat().st_size > MAX_IMPORT_BYTES:
                return _too_large(fmt)
            data = source.read_bytes()
    if parsed is None:
        if len(data) > MAX_IMPORT_BYTES:
            return _too_large(fmt)
        parsed = importers.parse(data, filename=filename, fmt=fmt, game_slug=game.slug, progress=progress)
    result = ImportResult(
        fmt=parsed.fmt, total=len(parsed.records), errors=list(parsed.errors), warnings=list(parsed.warnings)
    )
    if parsed.errors:
        return result
    if not parsed.records:
        result.errors.append(ImportIssue.of(None, "", msg("no_cards")))
        return result
    plan = None
    if pictures:
        existing = Card.objects.filter(game=game).values_list("external_id", "name")
        known = [*existing, *((record.external_id, record.name) for record in parsed.records)]
        plan = picture_store.pictures_prepare(game=game, data=pictures, known=known)
        result.warnings += plan.warnings
        if plan.errors:
            result.errors += plan.errors
            return result
    try:
        result.created, result.updated, result.unchanged = _cards_write(game=game, parsed=parsed, plan=plan)
    except BaseException:
        if plan is not None:  # the rows were rolled back: the files they would have shown go too
            picture_store.pictures_discard(plan)
        raise
    result.pictures = plan.stored if plan is not None else 0
    return result


def cards_version_bump(*, game: Game) -> None:
    """Mark the game's cards changed, inside the caller's transaction (cards/search.py reads it)."""
    Game.objects.filter(pk=game.pk).update(cards_version=uuid.uuid4().hex)


def _too_large(fmt: str | None) -> ImportResult:
    megabytes = MAX_IMPORT_BYTES // (1024 * 1024)
    return ImportResult(
        fmt=fmt or "", errors=[ImportIssue.of(None, "", msg("file_too_large", megabytes=megabytes))]
    )


def _pictures_only(*, game: Game, pictures: bytes) -> ImportResult:
    result = ImportResult(fmt="pictures")
    known = list(Card.objects.filter(game=game).values_list("external_id", "name"))
    plan = picture_store.pictures_prepare(game=game, data=pictures, known=known)
    result.warnings, result.errors = plan.warnings, plan.errors
    if plan.errors:
        return result
    try:
        with transaction.atomic():
            Game.objects.select_for_update().filter(pk=game.pk).first()
            result.pictures = picture_store.pictures_commit(game=game, plan=plan)
    except BaseException:
        picture_store.pictures_discard(plan)
        raise
    return result


def _job_progress(job: ImportJob) -> importers.Progress:
    def report(processed: int, total: int) -> None:
        job.processed, job.total = processed, total
        job.save(update_fields=["processed", "total"])

    return report


@transaction.atomic
def _cards_write(
    *, game: Game, parsed: ParseResult, plan: picture_store.PicturePlan | None = None
) -> tuple[int, int, int]:
    # Serialise concurrent imports into the same game (a no-op lock on SQLite, whose writes are serial).
    Game.objects.select_for_update().filter(pk=game.pk).first()
    set_ids = _sets_upsert(game=game, sets=parsed.sets.values())
    cards_version_bump(game=game)
    # Plain rows, not model instances: a re-import compares every card and most are unchanged.
    existing = {
        row[0]: row for row in Card.objects.filter(game=game).values_list("external_id", "id", *CARD_FIELDS)
    }
    now = timezone.now()
    to_create: list[CardRecord] = []
    to_update: list[Card] = []
    twins = _NameIndex(existing.values())
    records: list[CardRecord] = []
    adopted: dict[str, CardRecord] = {}
    for record in parsed.records:
        row = existing.get(record.external_id)
        if row is None and (twin := twins.match(record)) is not None:
            row = existing[_adopt(record, twin)]
            first = adopted.setdefault(record.external_id, record)
            if first is not record:  # two faces of one card in the file ("Delver…", "Insectile…"): one card
                first.printings += [p for p in record.printings if p not in first.printings]
                continue
        records.append(record)
        if row is None:
            to_create.append(record)
            continue
        values = _card_values(record)
        if any(row[index] != values[name] for index, name in enumerate(CARD_FIELDS, start=2)):
            to_update.append(
                Card(pk=row[1], game=game, external_id=record.external_id, updated_at=now, **values)
            )
    _cards_insert(game=game, records=to_create, now=now)
    Card.objects.bulk_update(to_update, [*CARD_FIELDS, "updated_at"], batch_size=BATCH_SIZE)
    file_sets = {set_ids[code] for code in parsed.sets}
    _printings_sync(game=game, records=records, set_ids=set_ids, file_sets=file_sets)
    if plan is not None:
        picture_store.pictures_commit(game=game, plan=plan)
    unchanged = len(records) - len(to_create) - len(to_update)
    return len(to_create), len(to_update), unchanged


class _NameIndex:
    """Existing cards by name, for a file of another source that names its cards (a Yu-Gi-Oh! Cockatrice
    XML after the .cdb keyed by passcode; a Magic Cockatrice file after MTGJSON): such a card is the card
    already there, not a second copy. Only the canonical artwork of a name counts (the card whose external
    id is its identity), a name two different cards share matches neither, and a Magic card is also found
    by each face of "A // B"."""

    def __init__(self, rows: Iterable[tuple[Any, ...]]) -> None:
        self._rows = rows
        self._index: dict[str, tuple[Any, ...] | None] | None = None

    def _build(self) -> dict[str, tuple[Any, ...] | None]:
        index: dict[str, tuple[Any, ...] | None] = {}
        faces: dict[str, tuple[Any, ...] | None] = {}
        for row in self._rows:
            external_id, identity, name = row[0], row[2], row[3]
            if external_id != identity:  # an alternate artwork: its original is the one to match
                continue
            key = name.casefold()
            index[key] = None if key in index and index[key] != row else row
            if "//" in name:
                for part in (part.strip().casefold() for part in name.split("//")):
                    faces[part] = None if part in faces and faces[part] != row else row
        for key, row in faces.items():
            index.setdefault(key, row)
        return index

    def match(self, record: CardRecord) -> tuple[Any, ...] | None:
        # Only files that key cards by name: a .cdb's new passcode with a known name is a new artwork.
        if record.external_id != record.name and record.external_id != record.identity:
            return None
        if self._index is None:
            self._index = self._build()
        keys = [record.name.casefold(), *(p.strip().casefold() for p in record.name.split("//"))]
        return next((self._index[key] for key in keys if self._index.get(key) is not None), None)


def _adopt(record: CardRecord, twin: tuple[Any, ...]) -> str:
    """Make `record` the existing card `twin`: its id and fields stay (the first source's data, which decks
    and rules read), the record adds its printings and the attributes the card does not have yet."""
    values = dict(zip(CARD_FIELDS, twin[2:], strict=True))
    record.external_id = twin[0]
    record.identity = values["identity"]
    record.name = values["name"]
    record.card_type = values["card_type"]
    record.subtypes = values["subtypes"]
    record.level = values["level"]
    record.cost = values["cost"]
    record.attributes = {**record.attributes, **(values["attributes"] or {})}
    record.text = values["text"]
    record.is_token = values["is_token"]
    record.deck_buildable = values["deck_buildable"]
    return twin[0]


def _cards_insert(*, game: Game, records: list[CardRecord], now: datetime.datetime) -> None:
    """INSERT new cards with one executemany per batch. A first import of a large database is mostly
    new cards, and the ORM's bulk_create spends most of its time building SQL field by field; here each
    value is prepared once by its own field (JSON for the backend in use), so the rows are the same."""
    names = ["game", "external_id", *CARD_FIELDS, "updated_at"]
    fields = [Card._meta.get_field(name) for name in names]
    quote = connection.ops.quote_name
    # Identifiers come from the model and are quoted; values go as parameters.
    table, columns = quote(Card._meta.db_table), ", ".join(quote(f.column) for f in fields)
    sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"  # noqa: S608
    json_fields = [
        (index, field) for index, field in enumerate(fields) if field.get_internal_type() == "JSONField"
    ]
    stamp = Card._meta.get_field("updated_at").get_db_prep_save(now, connection)
    rows = []
    for record in records:
        values = _card_values(record)
        row: list[Any] = [game.pk, record.external_id, *(values[name] for name in CARD_FIELDS), stamp]
        for index, json_field in json_fields:
            row[index] = json_field.get_db_prep_save(row[index], connection)
        rows.append(row)
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH_SIZE):
            cursor.executemany(sql, rows[start : start + BATCH_SIZE])


def _card_values(record: CardRecord) -> dict[str, Any]:
    return {
        "identity": record.identity or record.name,
        "name": record.name,
        "search_name": record.search_name,
        "card_type": record.card_type,
        "subtypes": record.subtypes,
        "level": record.level,
        "cost": record.cost,
        "attributes": record.attributes,
        "text": record.text,
        "is_token": record.is_token,
        "deck_buildable": record.deck_buildable,
    }


def _sets_upsert(*, game: Game, sets: Iterable[SetRecord]) -> dict[str, int]:
    existing = {card_set.code: card_set for card_set in CardSet.objects.filter(game=game)}
    for record in sets:
        release = datetime.date.fromisoformat(record.release_date) if record.release_date else None
        card_set = existing.get(record.code)
        if card_set is None:
            existing[record.code] = CardSet.objects.create(
                game=game, code=record.code, name=record.name, set_type=record.set_type, release_date=release
            )
            continue
        # A set mentioned only by code (a CSV printing) must not blank the details already stored.
        updates = {"name": record.name, "set_type": record.set_type, "release_date": release}
        changed = [key for key, value in updates.items() if value and getattr(card_set, key) != value]
        for key in changed:
            setattr(card_set, key, updates[key])
        if changed:
            card_set.save(update_fields=changed)
    return {code: card_set.pk for code, card_set in existing.items()}


def _printings_sync(
    *, game: Game, records: list[CardRecord], set_ids: dict[str, int], file_sets: set[int]
) -> None:
    """Add the file's printings to its cards. A file speaks for the sets it holds: a card's printings in
    those sets become exactly the file's, and its printings in other sets stay, so importing one set
    file after another builds one database (a reprint gains a printing instead of losing the others)."""
    card_ids = dict(Card.objects.filter(game=game).values_list("external_id", "id"))
    current: dict[int, set[tuple[int, str, str, str]]] = {}
    for card_id, set_id, code, rarity, url in Printing.objects.filter(
        card__game=game, card_set_id__in=file_sets
    ).values_list("card_id", "card_set_id", "code", "rarity", "image_url"):
        current.setdefault(card_id, set()).add((set_id, code, rarity, url))
    stale: list[int] = []
    fresh: list[Printing] = []
    for record in records:
        card_id = card_ids[record.external_id]
        wanted: dict[tuple[int, str, str], tuple[int, str, str, str]] = {}
        for p in record.printings:
            key = (set_ids[p.set_code], p.code, p.image_url)
            wanted.setdefault(key, (key[0], p.code, p.rarity, p.image_url))
        if set(wanted.values()) == current.get(card_id, set()):
            continue
        if card_id in current:
            stale.append(card_id)
        fresh += [
            Printing(card_id=card_id, card_set_id=set_id, code=code, rarity=rarity, image_url=url)
            for set_id, code, rarity, url in wanted.values()
        ]
    for start in range(0, len(stale), BATCH_SIZE):
        Printing.objects.filter(
            card_id__in=stale[start : start + BATCH_SIZE], card_set_id__in=file_sets
        ).delete()
    _printings_insert(fresh)


def _printings_insert(printings: list[Printing]) -> None:
    """INSERT printings with one executemany per batch: a whole Magic pool is 100,000 of them, and the ORM's
    bulk_create spends most of its time building SQL field by field (the same reason as _cards_insert)."""
    if not printings:
        return
    names = ["card", "card_set", "code", "rarity", "image_url"]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(Printing._meta.get_field(name).column) for name in names)
    table = quote(Printing._meta.db_table)
    sql = f"INSERT INTO {table} ({columns}) VALUES (%s, %s, %s, %s, %s)"  # noqa: S608 (quoted model names)
    rows = [(p.card_id, p.card_set_id, p.code, p.rarity, p.image_url) for p in printings]
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH_SIZE):
            cursor.executemany(sql, rows[start : start + BATCH_SIZE])


IMPORT_JOB_TASK = "cards.import_job_run"
# Other kinds of work run as import jobs (their progress bar, heartbeat and report), by job file_format:
# cards.updates registers "update" (a module importing this one, so it registers itself, from apps.ready).
JOB_RUNNERS: dict[str, Callable[[ImportJob, importers.Progress], ImportResult]] = {}


def card_values(record: CardRecord) -> dict[str, Any]:
    """The column values an import writes for a record (what a re-import compares)."""
    return _card_values(record)


def import_job_enqueue(*, job_id: int) -> None:
    """Queue a created job's run (after its rows are committed: workers must see them)."""
    _job_enqueue(job_id=job_id)


def cards_write_parsed(*, game: Game, parsed: ParseResult) -> tuple[int, int, int]:
    """Write already-parsed, valid records (an update's merged files, a rollback's snapshot): created,
    updated, unchanged. Atomic, and the same upsert as every import."""
    return _cards_write(game=game, parsed=parsed)


# --- import jobs ------------------------------------------------------------------------------
# A job's life: pending → running (claimed by one task run, heartbeat every few seconds) → done | failed.
# Whatever happens to the worker (killed, out of memory, time limit), the job ends within a bounded time:
# a late-acked task redelivered after a crash, or the reaper (on every read of a job and when a worker
# starts), takes over a running job whose heartbeat is stale; after IMPORT_JOB_MAX_ATTEMPTS runs it is
# marked failed with the reason. The stored upload is cleared whenever a job ends.
@transaction.atomic
def import_job_create(
    *,
    game: Game,
    created_by: Any,
    filename: str,
    data: bytes,
    fmt: str | None = None,
    pictures: bytes = b"",
) -> ImportJob:
    """Store the upload for a worker; the caller enqueues `cards.tasks.import_job_run_task` on commit."""
    return ImportJob.objects.create(
        game=game,
        created_by=created_by,
        filename=filename[:255],
        file_format=fmt or "",
        payload=data,
        pictures=pictures,
    )


def import_job_start(
    *,
    game: Game,
    created_by: Any,
    filename: str,
    data: bytes,
    fmt: str | None = None,
    pictures: bytes = b"",
) -> ImportJob:
    """Create a job and run it in a Celery task once the row is committed (workers must see it).
    With eager Celery the import has finished when this returns."""
    job = import_job_create(
        game=game, created_by=created_by, filename=filename, data=data, fmt=fmt, pictures=pictures
    )
    transaction.on_commit(lambda: _job_enqueue(job_id=job.pk))
    return job


def _job_enqueue(*, job_id: int) -> None:
    # By its registered name: cards.tasks imports this module, and a module must not import its importer.
    # .delay() honours eager mode as the task object does.
    from celery import current_app

    try:
        current_app.tasks[IMPORT_JOB_TASK].delay(job_id)
    except Exception:  # broker down or misconfigured: the job must not wait for a task that never comes
        logger.exception("card import job %s could not be queued", job_id)
        _job_finish(job_id=job_id, result=_failure("job_enqueue_failed"))


def import_job_run(*, job_id: int) -> ImportJob:
    """Run a job: a pending one, or a running one whose worker died (stale heartbeat).

    Safe to call more than once (late-acked tasks are redelivered, the reaper re-queues): a job that is
    finished, or running with a live heartbeat, is left alone.
    """
    now = timezone.now()
    claimable = Q(status=ImportJob.Status.PENDING) | Q(
        Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=now - _stale_after()),
        status=ImportJob.Status.RUNNING,
    )
    claimed = ImportJob.objects.filter(claimable, pk=job_id).update(
        status=ImportJob.Status.RUNNING, heartbeat_at=now, attempts=F("attempts") + 1
    )
    job = ImportJob.objects.select_related("game").get(pk=job_id)
    if not claimed:
        return job
    if job.attempts > settings.IMPORT_JOB_MAX_ATTEMPTS:
        # Earlier runs died without ending the job: do not try a file that kills workers again.
        return _job_finish(job_id=job_id, result=_failure("job_worker_lost", attempts=job.attempts - 1))
    heartbeat = _Heartbeat(job_id=job_id, interval=_stale_after().total_seconds() / 4)
    heartbeat.start()
    runner = JOB_RUNNERS.get(job.file_format)
    try:
        if runner is not None:  # a job of another kind (an update from the community's files)
            result = runner(job, _job_progress(job))
        else:
            result = cards_import(
                game=job.game,
                data=bytes(job.payload),
                filename=job.filename,
                fmt=job.file_format or None,
                job=job,
                pictures=bytes(job.pictures or b"") or None,
            )
    except SoftTimeLimitExceeded:
        result = _failure("job_time_limit", seconds=settings.CELERY_TASK_SOFT_TIME_LIMIT)
    except DatabaseError as exc:  # e.g. PostgreSQL refusing a NUL in a card name: the file's problem
        logger.warning("card import job %s: database error: %s", job_id, exc)
        result = _failure("database_refused", detail=_first_line(exc))
    except Exception:  # a bug must still end the job, or the progress page would poll forever
        logger.exception("card import job %s crashed", job_id)
        result = _failure("internal_error")
    finally:
        heartbeat.stop()
    return _job_finish(job_id=job_id, result=result)


def import_job_reap(*, job: ImportJob) -> ImportJob:
    """End or re-run `job` if nothing is working on it; called whenever a job is read (the progress
    page polls), so a poller never watches a dead job for longer than IMPORT_JOB_STALE_SECONDS."""
    now = timezone.now()
    if job.status == ImportJob.Status.PENDING:
        # A re-queued job counts from its re-queueing (heartbeat_at), a new one from its creation.
        waiting_since = job.heartbeat_at or job.created_at
        if waiting_since < now - datetime.timedelta(minutes=settings.IMPORT_JOB_PENDING_MINUTES):
            return _job_finish(
                job_id=job.pk, result=_failure("job_not_started", minutes=settings.IMPORT_JOB_PENDING_MINUTES)
            )
        return job
    if job.status != ImportJob.Status.RUNNING:
        return job
    dead = ImportJob.objects.filter(
        Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=now - _stale_after()),
        pk=job.pk,
        status=ImportJob.Status.RUNNING,
    )
    eager = bool(settings.CELERY_TASK_ALWAYS_EAGER) or not settings.CELERY_BROKER_URL
    if eager or job.attempts >= settings.IMPORT_JOB_MAX_ATTEMPTS:
        # No broker: the process that ran it (a web worker) is gone and nothing else would run it.
        if dead.exists():
            return _job_finish(job_id=job.pk, result=_failure("job_worker_lost", attempts=job.attempts))
        return job
    # Back to pending in one conditional UPDATE, so that of many concurrent readers exactly one re-queues.
    if dead.update(status=ImportJob.Status.PENDING, heartbeat_at=now):
        logger.warning("card import job %s: its worker stopped; queued again", job.pk)
        _job_enqueue(job_id=job.pk)
    job.refresh_from_db()
    return job


def import_jobs_reap() -> int:
    """Reap every unfinished job (a worker calls this when it starts); returns how many were looked at."""
    jobs = list(ImportJob.objects.filter(status__in=[ImportJob.Status.PENDING, ImportJob.Status.RUNNING]))
    for job in jobs:
        import_job_reap(job=job)
    return len(jobs)


def _stale_after() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.IMPORT_JOB_STALE_SECONDS)


def _failure(code: str, **params: Any) -> ImportResult:
    return ImportResult(fmt="", errors=[ImportIssue.of(None, "", msg(code, **params))])


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]


def _without_nul(value: Any) -> Any:
    # PostgreSQL refuses NUL in text and jsonb: an error quoting the bad card name must still be stored.
    if isinstance(value, str):
        return value.replace("\x00", "\\x00")
    if isinstance(value, dict):
        return {key: _without_nul(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_without_nul(item) for item in value]
    return value


def _job_finish(*, job_id: int, result: ImportResult) -> ImportJob:
    """The one way a job ends: status, counts and errors stored, the upload dropped."""
    ok = result.ok
    fields: dict[str, Any] = {
        "status": ImportJob.Status.DONE if ok else ImportJob.Status.FAILED,
        "total": result.total,
        "created_count": result.created,
        "updated_count": result.updated,
        # Thousands of errors would bloat the row and the page; the first 500 are plenty to act on.
        "errors": _without_nul(result.error_dicts()[:500]),
        "finished_at": timezone.now(),
        "payload": b"",  # the file is no longer needed once the job has ended, either way
        "pictures": b"",
        "pictures_count": result.pictures,
    }
    if ok:
        fields["processed"] = result.total
    if result.fmt:
        fields["file_format"] = result.fmt[:20]
    unfinished = ImportJob.objects.filter(
        pk=job_id, status__in=[ImportJob.Status.PENDING, ImportJob.Status.RUNNING]
    )
    try:
        with transaction.atomic():  # a savepoint: the fallback below must still be able to write
            unfinished.update(**fields)
    except DatabaseError:
        logger.exception("card import job %s: storing its result failed", job_id)
        fallback = _failure("internal_error")
        unfinished.update(
            status=ImportJob.Status.FAILED,
            errors=fallback.error_dicts(),
            finished_at=timezone.now(),
            payload=b"",
            pictures=b"",
        )
    return ImportJob.objects.select_related("game").get(pk=job_id)


class _Heartbeat(threading.Thread):
    """Touches the running job's heartbeat from a thread of its own, so it keeps beating while the
    import holds a long transaction (on its own connection, outside that transaction)."""

    def __init__(self, *, job_id: int, interval: float) -> None:
        super().__init__(name=f"import-job-{job_id}-heartbeat", daemon=True)
        self.job_id, self.interval = job_id, max(interval, 0.5)
        self._stopped = threading.Event()

    def run(self) -> None:
        try:
            while not self._stopped.wait(self.interval):
                try:
                    ImportJob.objects.filter(pk=self.job_id, status=ImportJob.Status.RUNNING).update(
                        heartbeat_at=timezone.now()
                    )
                except DatabaseError as exc:  # SQLite busy with the import's own write: beat next time
                    logger.info("card import job %s: heartbeat skipped: %s", self.job_id, exc)
        finally:
            connections.close_all()  # this thread's connections only

    def stop(self) -> None:
        self._stopped.set()


def saved_search_save(
    *, user: Any, game: Game, name: str, query: str, is_default: bool = False
) -> SavedSearch:
    """Save (or replace by name) a player's search; a default one replaces their previous default for the
    game. The query is read first: an unreadable one is refused with the search's own error (SearchError)."""
    from . import search

    name, query = name.strip()[:80], query.strip()
    if not name or not query:
        raise ValueError(_("A saved search needs a name and a query."))
    search.query_check(game=game, text=query)
    with transaction.atomic():
        if is_default:
            SavedSearch.objects.filter(user=user, game=game, is_default=True).exclude(name=name).update(
                is_default=False
            )
        saved, _created = SavedSearch.objects.update_or_create(
            user=user, game=game, name=name, defaults={"query": query, "is_default": is_default}
        )
    return saved


def saved_search_delete(*, user: Any, pk: int) -> None:
    SavedSearch.objects.filter(user=user, pk=pk).delete()
