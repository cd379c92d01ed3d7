"""A picture import is bounded as a whole, not only picture by picture: the pictures of one upload together
may hold at most MAX_TOTAL_PIXELS (checked from each header before decoding), and reading them stops with a
message after MAX_PICTURE_SECONDS. Either refusal names the limit and leaves nothing written (a 40-megapixel
picture costs ~0.4 s, and the per-file limits allowed 6,000 of them in one upload: 40 minutes of a worker)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cards import picture_store, pictures
from cards.importers import import_issue_text
from cards.models import CardPicture
from cards.services import cards_import

from .test_pictures_come_with_a_card_import import make_zip, picture, stored_files

pytestmark = pytest.mark.django_db

CARDS = ("55144522", "44095762", "46986414")


def _upload() -> bytes:
    return make_zip({f"pics/{card}.jpg": picture(300, 400) for card in CARDS})


def test_pictures_over_the_total_pixels_of_an_upload_are_refused(
    games, media: Path, cdb_bytes, monkeypatch
) -> None:
    monkeypatch.setattr(pictures, "MAX_TOTAL_PIXELS", 2 * 300 * 400 + 1)  # room for two of the three
    result = cards_import(game=games["yugioh"], data=cdb_bytes(), filename="cards.cdb", pictures=_upload())
    assert not result.ok
    text = " ".join(import_issue_text(issue.as_dict()) for issue in result.errors)
    assert "megapixels" in text and "smaller ZIPs" in text
    assert stored_files(media) == [] and not CardPicture.objects.exists()


def test_reading_pictures_past_the_time_bound_is_refused(games, media: Path, cdb_bytes, monkeypatch) -> None:
    monkeypatch.setattr(picture_store, "MAX_PICTURE_SECONDS", -1)  # already past it after the first picture
    result = cards_import(game=games["yugioh"], data=cdb_bytes(), filename="cards.cdb", pictures=_upload())
    assert not result.ok
    assert "seconds" in " ".join(import_issue_text(issue.as_dict()) for issue in result.errors)
    assert stored_files(media) == [] and not CardPicture.objects.exists()


def test_an_upload_within_both_bounds_is_imported(games, media: Path, cdb_bytes) -> None:
    result = cards_import(game=games["yugioh"], data=cdb_bytes(), filename="cards.cdb", pictures=_upload())
    assert result.ok and result.pictures == 3
