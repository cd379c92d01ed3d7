"""Hostile or broken picture ZIPs uploaded with a card import are refused with the reason, and
nothing is written: no card, no picture row, no file in the storage (not even the good pictures that were
read before the bad one)."""

from __future__ import annotations

import io
import stat
import zipfile
from typing import Any

import pytest
from PIL import Image

from cards import pictures as picture_limits
from cards.importers import import_issue_text
from cards.models import Card, CardPicture
from tests.cards.test_pictures_come_with_a_card_import import api_import, make_zip, picture, stored_files

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(make_user: Any, games: dict[str, Any]) -> Any:
    user = make_user("ed")
    games["yugioh"].card_editors.add(user)
    return user


def _symlink_zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        info = zipfile.ZipInfo("pics/46986414.jpg")
        info.create_system = 3
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, "/etc/passwd")
    return out.getvalue()


def _encrypted_flag_zip() -> bytes:
    data = bytearray(make_zip({"pics/46986414.jpg": picture()}, compression=zipfile.ZIP_STORED))
    # Set bit 0 (encrypted) of the general-purpose flags in the local and the central header.
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.index(signature) + offset
        data[at] |= 0x1
    return bytes(data)


def _pixel_bomb() -> bytes:
    out = io.BytesIO()
    Image.new("1", (8000, 6000)).save(out, format="PNG")  # 48 megapixels in a few kB
    return out.getvalue()


HOSTILE = {
    "traversal": (
        lambda: make_zip({"pics/../../etc/46986414.jpg": picture()}),
        "pictures_unsafe_path",
        "unsafe file name",
    ),
    "absolute": (
        lambda: make_zip({"/tmp/46986414.jpg": picture()}),
        "pictures_unsafe_path",
        "unsafe file name",
    ),
    "windows_drive": (
        lambda: make_zip({"C:\\pics\\46986414.jpg": picture()}),
        "pictures_unsafe_path",
        "unsafe file name",
    ),
    "symlink": (_symlink_zip, "pictures_link", "symbolic link"),
    "encrypted": (_encrypted_flag_zip, "pictures_encrypted", "encrypted"),
    "html_named_jpg": (
        lambda: make_zip(
            {"pics/55144522.jpg": picture(), "pics/46986414.jpg": b"<html><script>alert(1)</script>"}
        ),
        "pictures_not_image",
        "is not a JPEG, PNG, WebP, GIF or BMP picture",
    ),
    "truncated_jpeg": (
        lambda: make_zip({"pics/46986414.jpg": picture()[:300]}),
        "pictures_not_image",
        "is not a JPEG",
    ),
    "pixel_bomb": (
        lambda: make_zip({"pics/46986414.png": _pixel_bomb()}),
        "pictures_too_many_pixels",
        "megapixels",
    ),
    "ratio_bomb": (
        lambda: make_zip({"pics/46986414.bmp": b"\x00" * 4_000_000}),
        "pictures_ratio",
        "refused as a ZIP bomb",
    ),
    "not_a_zip": (lambda: b"this is not a zip", "pictures_not_zip", "not a ZIP archive"),
    "no_pictures": (lambda: make_zip({"readme.txt": b"hi"}), "pictures_empty", "holds no pictures"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_zip_is_refused_with_its_reason_and_nothing_is_written(
    case, api_client_for, editor, media, cdb_bytes, django_capture_on_commit_callbacks
):
    build, code, words = HOSTILE[case]
    job = api_import(
        api_client_for(editor),
        django_capture_on_commit_callbacks,
        file=("cards.cdb", cdb_bytes()),
        pictures=("pics.zip", build()),
    )
    assert job["status"] == "failed"
    errors = [issue for issue in job["errors"] if issue["severity"] == "error"]
    assert [issue["code"] for issue in errors] == [code], job["errors"]
    assert words in errors[0]["message"]
    assert import_issue_text(errors[0], "ru") != errors[0]["reason"]  # said in Russian too
    assert not Card.objects.exists() and not CardPicture.objects.exists()
    assert stored_files(media) == []


def test_limits_are_checked_on_the_directory_before_anything_is_unpacked(
    monkeypatch, api_client_for, editor, media, cdb_bytes, django_capture_on_commit_callbacks
):
    # Real limits need hundreds of megabytes to reach; smaller ones show the same checks.
    monkeypatch.setattr(picture_limits, "MAX_FILES", 3)
    client = api_client_for(editor)
    many = make_zip({f"pics/{n}.jpg": picture() for n in range(4)})
    job = api_import(
        client, django_capture_on_commit_callbacks, file=("a.cdb", cdb_bytes()), pictures=("p.zip", many)
    )
    assert job["status"] == "failed" and job["errors"][0]["code"] == "pictures_too_many"
    assert "4 files; at most 3" in job["errors"][0]["message"]

    monkeypatch.setattr(picture_limits, "MAX_FILES", 6000)
    monkeypatch.setattr(picture_limits, "MAX_TOTAL_BYTES", 2 * 2**20)
    big = make_zip({f"pics/{n}.bmp": picture(800, 600, fmt="BMP") for n in range(2)})  # 2 × 1.4 MB unpacked
    job = api_import(
        client, django_capture_on_commit_callbacks, file=("b.cdb", cdb_bytes()), pictures=("p.zip", big)
    )
    assert job["status"] == "failed" and job["errors"][0]["code"] == "pictures_too_big_total"

    monkeypatch.setattr(picture_limits, "MAX_TOTAL_BYTES", 512 * 2**20)
    monkeypatch.setattr(picture_limits, "MAX_FILE_BYTES", 2**20)
    job = api_import(
        client, django_capture_on_commit_callbacks, file=("c.cdb", cdb_bytes()), pictures=("p.zip", big)
    )
    assert job["status"] == "failed" and {e["code"] for e in job["errors"]} == {"pictures_file_too_big"}
    assert not Card.objects.exists() and stored_files(media) == []


def test_the_api_needs_a_file_or_pictures_and_names_what_is_missing(api_client_for, editor):
    response = api_client_for(editor).post("/api/cards/import/", {"game": "yugioh"}, format="multipart")
    # A well-formed body with nothing to import (README "Errors": 422), as the deck and collection imports.
    assert response.status_code == 422
    assert "ZIP of card pictures" in str(response.json())


def test_a_database_failure_after_the_pictures_were_written_removes_them_again(
    monkeypatch, api_client_for, editor, media, cdb_bytes, django_capture_on_commit_callbacks
):
    from django.db import DatabaseError

    from cards import picture_store

    def refuse(**kwargs: Any) -> int:
        raise DatabaseError("disk full")

    monkeypatch.setattr(picture_store, "pictures_commit", refuse)
    job = api_import(
        api_client_for(editor),
        django_capture_on_commit_callbacks,
        file=("cards.cdb", cdb_bytes()),
        pictures=("pics.zip", make_zip({"pics/46986414.jpg": picture(), "pics/55144522.jpg": picture(9, 9)})),
    )
    assert job["status"] == "failed" and job["errors"][0]["code"] == "database_refused"
    assert not Card.objects.exists() and not CardPicture.objects.exists()
    assert stored_files(media) == []


def test_a_card_file_with_errors_writes_no_picture(
    api_client_for, editor, media, django_capture_on_commit_callbacks
):
    job = api_import(
        api_client_for(editor),
        django_capture_on_commit_callbacks,
        file=("cards.cdb", b"not sqlite at all"),
        pictures=("pics.zip", make_zip({"pics/46986414.jpg": picture()})),
    )
    assert job["status"] == "failed" and job["errors"][0]["code"] == "not_sqlite"
    assert stored_files(media) == [] and not CardPicture.objects.exists()
