"""Writes to the card database: atomic imports (upsert by game + external id) and import jobs."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from . import importers
from .importers import CardRecord, ImportIssue, ParseResult, SetRecord, msg
from .models import Card, CardSet, Game, ImportJob, Printing

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

    @property
    def ok(self) -> bool:
        return not self.errors

    def error_dicts(self) -> list[dict[str, Any]]:
        """The import report a job stores: errors first, then warnings; each dict names its severity."""
        return [issue.as_dict() for issue in [*self.errors, *self.warnings]]


def cards_import(
    *, game: Game, data: bytes, filename: str = "", fmt: str | None = None, job: ImportJob | None = None
) -> ImportResult:
    """Parse `data` and upsert its cards into `game`, all or nothing.

    A file with any error writes nothing and returns every error. Cards missing from the file
    are kept (decks may refer to them); cards present are updated in place, keeping their pk.
    Parsing runs outside the transaction so the job's progress is visible to pollers meanwhile.
    """
    if len(data) > MAX_IMPORT_BYTES:
        return ImportResult(
            fmt=fmt or "",
            errors=[
                ImportIssue.of(None, "", msg("file_too_large", megabytes=MAX_IMPORT_BYTES // (1024 * 1024)))
            ],
        )
    progress = _job_progress(job) if job is not None else None
    parsed = importers.parse(data, filename=filename, fmt=fmt, game_slug=game.slug, progress=progress)
    result = ImportResult(
        fmt=parsed.fmt, total=len(parsed.records), errors=list(parsed.errors), warnings=list(parsed.warnings)
    )
    if parsed.errors:
        return result
    if not parsed.records:
        result.errors.append(ImportIssue.of(None, "", msg("no_cards")))
        return result
    result.created, result.updated, result.unchanged = _cards_write(game=game, parsed=parsed)
    return result


def _job_progress(job: ImportJob) -> importers.Progress:
    def report(processed: int, total: int) -> None:
        job.processed, job.total = processed, total
        job.save(update_fields=["processed", "total"])

    return report


@transaction.atomic
def _cards_write(*, game: Game, parsed: ParseResult) -> tuple[int, int, int]:
    # Serialise concurrent imports into the same game (a no-op lock on SQLite, whose writes are serial).
    Game.objects.select_for_update().filter(pk=game.pk).first()
    set_ids = _sets_upsert(game=game, sets=parsed.sets.values())
    existing = {
        card.external_id: card
        for card in Card.objects.filter(game=game).only("id", "external_id", *CARD_FIELDS)
    }
    now = timezone.now()
    to_create: list[Card] = []
    to_update: list[Card] = []
    for record in parsed.records:
        values = _card_values(record)
        card = existing.get(record.external_id)
        if card is None:
            to_create.append(Card(game=game, external_id=record.external_id, **values))
            continue
        changed = [name for name, value in values.items() if getattr(card, name) != value]
        if changed:
            for name, value in values.items():
                setattr(card, name, value)
            card.updated_at = now
            to_update.append(card)
    Card.objects.bulk_create(to_create, batch_size=BATCH_SIZE)
    Card.objects.bulk_update(to_update, [*CARD_FIELDS, "updated_at"], batch_size=BATCH_SIZE)
    file_sets = {set_ids[code] for code in parsed.sets}
    _printings_sync(game=game, records=parsed.records, set_ids=set_ids, file_sets=file_sets)
    unchanged = len(parsed.records) - len(to_create) - len(to_update)
    return len(to_create), len(to_update), unchanged


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
    Printing.objects.bulk_create(fresh, batch_size=BATCH_SIZE)


# --- import jobs ------------------------------------------------------------------------------
@transaction.atomic
def import_job_create(
    *, game: Game, created_by: Any, filename: str, data: bytes, fmt: str | None = None
) -> ImportJob:
    """Store the upload for a worker; the caller enqueues `cards.tasks.import_job_run_task` on commit."""
    return ImportJob.objects.create(
        game=game, created_by=created_by, filename=filename[:255], file_format=fmt or "", payload=data
    )


def import_job_start(
    *, game: Game, created_by: Any, filename: str, data: bytes, fmt: str | None = None
) -> ImportJob:
    """Create a job and run it in a Celery task once the row is committed (workers must see it).
    With eager Celery the import has finished when this returns."""
    from .tasks import import_job_run_task  # tasks import this module

    job = import_job_create(game=game, created_by=created_by, filename=filename, data=data, fmt=fmt)
    transaction.on_commit(lambda: import_job_run_task.delay(job.pk))
    return job


def import_job_run(*, job_id: int) -> ImportJob:
    """Run a pending job. Safe to call twice (late-acked tasks may be redelivered): only pending jobs run."""
    updated = ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.PENDING).update(
        status=ImportJob.Status.RUNNING
    )
    job = ImportJob.objects.select_related("game").get(pk=job_id)
    if not updated:
        return job
    try:
        result = cards_import(
            game=job.game,
            data=bytes(job.payload),
            filename=job.filename,
            fmt=job.file_format or None,
            job=job,
        )
    except Exception:  # a bug must still end the job, or the progress page would poll forever
        logger.exception("card import job %s crashed", job_id)
        result = ImportResult(fmt="", errors=[ImportIssue.of(None, "", msg("internal_error"))])
    job.status = ImportJob.Status.DONE if result.ok else ImportJob.Status.FAILED
    job.file_format = result.fmt or job.file_format
    job.total = result.total
    job.processed = result.total if result.ok else job.processed
    job.created_count, job.updated_count = result.created, result.updated
    # Thousands of errors would bloat the row and the page; the first 500 are plenty to act on.
    job.errors = result.error_dicts()[:500]
    job.finished_at = timezone.now()
    job.payload = b""  # the file is no longer needed once imported
    job.save()
    return job
