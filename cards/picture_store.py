"""Card pictures from an import's ZIP into the default storage and CardPicture rows.

An import with pictures runs in two steps so that nothing is half-written: ``pictures_prepare`` reads
every picture the ZIP names a card for and writes the files (before the card transaction; any bad
picture refuses the import and removes what it wrote), then ``pictures_commit`` points the cards at
them inside the card transaction. Files are named by their content hash, so a file a page shows is
never overwritten; one a picture no longer uses is removed once the new rows are committed, and the
files of a refused or failed import are removed by ``pictures_discard``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from .importers import ImportIssue, msg
from .models import Card, CardPicture, Game
from .pictures import PictureEntry, PixelBudget, corrected_name, iter_pictures, pictures_scan

logger = logging.getLogger(__name__)

PICTURE_DIR = "card-pictures"
# A ZIP full of broken pictures reports this many and stops reading (the import is refused anyway).
MAX_PICTURE_ERRORS = 50
# One upload's pictures are read within this time (the job's time bound; a slow disk or huge pictures
# refuse the upload with a message instead of holding a worker for minutes).
MAX_PICTURE_SECONDS = 300
_IN_BATCH = 900  # SQLite's older variable limit is 999


@dataclass
class PictureStored:
    name: str  # the storage name
    width: int
    height: int
    source_name: str


@dataclass
class PicturePlan:
    # external id → its picture, written to storage and waiting for pictures_commit
    assignments: dict[str, PictureStored] = field(default_factory=dict)
    # Storage names this import created: removed again if the import does not commit.
    created_files: list[str] = field(default_factory=list)
    errors: list[ImportIssue] = field(default_factory=list)
    warnings: list[ImportIssue] = field(default_factory=list)
    stored: int = 0


def _keys_of(text: str) -> set[str]:
    return {text.strip().casefold(), corrected_name(text).strip().casefold()} - {""}


def _match(
    entries: list[PictureEntry], known: Iterable[tuple[str, str]], plan: PicturePlan
) -> list[tuple[PictureEntry, list[str]]]:
    """Each picture entry with the external ids it is for. A file named by an external id (a passcode,
    a Cockatrice name) is that card's; one named by a card's name is every card of that name that has
    no file of its own (the alternate artworks of a game whose ids are numbers). Unknown names and
    second files for one card are warnings: the other pictures are imported."""
    by_id: dict[str, str] = {}
    by_name: dict[str, set[str]] = {}
    for external_id, name in known:
        for key in _keys_of(external_id):
            by_id.setdefault(key, external_id)
        for key in _keys_of(name):
            by_name.setdefault(key, set()).add(external_id)
    claimed: dict[str, str] = {}  # external id → the entry that gave it its picture
    targets: list[tuple[PictureEntry, list[str]]] = []
    by_name_entries: list[PictureEntry] = []
    for entry in entries:
        external_id = by_id.get(entry.key)
        if external_id is None:
            by_name_entries.append(entry)
        elif external_id in claimed:
            plan.warnings.append(_duplicate(entry.name, external_id, claimed[external_id]))
        else:
            claimed[external_id] = entry.name
            targets.append((entry, [external_id]))
    for entry in by_name_entries:
        ids = sorted(by_name.get(entry.key, ()))
        if not ids:
            plan.warnings.append(
                ImportIssue.of(None, "", msg("pictures_unknown_card"), entry.name, severity="warning")
            )
            continue
        free = [external_id for external_id in ids if external_id not in claimed]
        if not free:
            plan.warnings.append(_duplicate(entry.name, ids[0], claimed[ids[0]]))
            continue
        for external_id in free:
            claimed[external_id] = entry.name
        targets.append((entry, free))
    return targets


def _duplicate(name: str, external_id: str, first: str) -> ImportIssue:
    return ImportIssue.of(
        None, "", msg("pictures_duplicate", card=external_id, first=first), name, severity="warning"
    )


def pictures_prepare(*, game: Game, data: bytes, known: Iterable[tuple[str, str]]) -> PicturePlan:
    """Read the ZIP, match its files to cards (``known``: external id and name of every card the game
    will have) and write the pictures to storage. With any error, nothing stays written."""
    plan = PicturePlan()
    scan = pictures_scan(data)
    plan.errors, plan.warnings = scan.errors, scan.warnings
    if scan.errors or scan.archive is None:
        return plan
    with scan.archive:
        targets = _match(scan.entries, known, plan)
        entries = [entry for entry, _ids in targets]
        ids_of = {entry.name: ids for entry, ids in targets}
        budget = PixelBudget()
        deadline = time.monotonic() + MAX_PICTURE_SECONDS
        try:
            for entry, picture, issues in iter_pictures(scan.archive, entries, budget):
                if time.monotonic() > deadline:
                    plan.errors.append(
                        ImportIssue.of(None, "", msg("pictures_too_slow", seconds=MAX_PICTURE_SECONDS))
                    )
                    break
                if budget.left < 0:
                    plan.errors += issues  # the whole upload is over its pixels: one error says it
                    break
                if picture is None:
                    plan.errors += issues
                    if len(plan.errors) >= MAX_PICTURE_ERRORS:
                        break
                    continue
                plan.warnings += issues
                if plan.errors:
                    continue  # refused anyway: check the rest, write nothing more
                name = _save(game, picture.digest, picture.data, plan)
                stored = PictureStored(name, picture.width, picture.height, entry.name)
                for external_id in ids_of[entry.name]:
                    plan.assignments[external_id] = stored
        except BaseException:
            pictures_discard(plan)
            raise
    if plan.errors:
        pictures_discard(plan)
    return plan


def _save(game: Game, digest: str, data: bytes, plan: PicturePlan) -> str:
    name = f"{PICTURE_DIR}/{game.slug}/{digest[:40]}.jpg"
    if default_storage.exists(name):  # the same picture already stored (a re-import, a shared picture)
        return name
    saved = default_storage.save(name, ContentFile(data))
    plan.created_files.append(saved)
    return saved


def pictures_discard(plan: PicturePlan) -> None:
    """Remove the files a refused or failed import wrote (rows never pointed at them)."""
    for name in plan.created_files:
        try:
            default_storage.delete(name)
        except OSError:
            logger.exception("card pictures: could not remove %s", name)
    plan.created_files = []
    plan.assignments = {}


def pictures_commit(*, game: Game, plan: PicturePlan) -> int:
    """Point the cards at their new pictures; run inside the import's transaction. Returns how many
    cards got a picture; files no picture uses any more are removed once the transaction commits."""
    ids = list(plan.assignments)
    card_ids: dict[str, int] = {}
    for start in range(0, len(ids), _IN_BATCH):
        card_ids.update(
            Card.objects.filter(game=game, external_id__in=ids[start : start + _IN_BATCH]).values_list(
                "external_id", "id"
            )
        )
    existing: dict[int, CardPicture] = {}
    values = list(card_ids.values())
    for start in range(0, len(values), _IN_BATCH):
        existing.update(
            (picture.card_id, picture)
            for picture in CardPicture.objects.filter(card_id__in=values[start : start + _IN_BATCH])
        )
    replaced: set[str] = set()
    now = timezone.now()
    fresh: list[CardPicture] = []
    changed: list[CardPicture] = []
    for external_id, stored in plan.assignments.items():
        card_id = card_ids.get(external_id)
        if card_id is None:
            continue
        picture = existing.get(card_id)
        if picture is None:
            fresh.append(
                CardPicture(
                    card_id=card_id,
                    image=stored.name,
                    width=stored.width,
                    height=stored.height,
                    source_name=stored.source_name[:255],
                )
            )
            continue
        if picture.image.name != stored.name:
            replaced.add(picture.image.name)
        picture.image, picture.width, picture.height = stored.name, stored.width, stored.height
        picture.source_name, picture.updated_at = stored.source_name[:255], now
        changed.append(picture)
    CardPicture.objects.bulk_create(fresh, batch_size=500)
    CardPicture.objects.bulk_update(
        changed, ["image", "width", "height", "source_name", "updated_at"], batch_size=500
    )
    plan.stored = len(fresh) + len(changed)
    if replaced:
        transaction.on_commit(lambda: _remove_unused(replaced - {s.name for s in plan.assignments.values()}))
    return plan.stored


def _remove_unused(names: set[str]) -> None:
    used = set(CardPicture.objects.filter(image__in=names).values_list("image", flat=True))
    for name in names - used:
        try:
            default_storage.delete(name)
        except OSError:
            logger.exception("card pictures: could not remove %s", name)
