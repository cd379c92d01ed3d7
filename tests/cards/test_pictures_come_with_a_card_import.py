"""Card pictures uploaded with a card import: a ZIP laid out as EDOPro's pics/<passcode>.jpg or
Cockatrice's pics/CUSTOM/<name>.jpg, through the API, the import page and the management command; the
pictures are stored re-encoded in the default storage, served by the site and shown where URL-template
pictures are. Every ZIP here is built in the test; nothing is fetched from the internet."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from PIL import Image

from cards.images import card_images
from cards.importers import import_issue_text
from cards.models import Card, CardPicture, ImportJob
from cards.pictures import corrected_name
from cards.services import cards_import
from tests.cards.conftest import COCKATRICE_V3

pytestmark = pytest.mark.django_db


def picture(
    width: int = 236, height: int = 344, color: tuple[int, int, int] = (92, 60, 140), fmt: str = "JPEG"
) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, format=fmt)
    return out.getvalue()


def make_zip(entries: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.fixture
def editor(make_user: Any, games: dict[str, Any]) -> Any:
    user = make_user("ed")
    for slug in ("yugioh", "caster"):
        games[slug].card_editors.add(user)
    return user


def stored_files(media: Path) -> list[Path]:
    return sorted(path for path in media.rglob("*") if path.is_file()) if media.exists() else []


def api_import(client: Any, capture: Any, **files: tuple[str, bytes]) -> dict[str, Any]:
    data: dict[str, Any] = {"game": files.pop("game", ("", b"yugioh"))[1].decode()}
    for key, (name, content) in files.items():
        data[key] = SimpleUploadedFile(name, content, content_type="application/octet-stream")
    with capture(execute=True):
        response = client.post("/api/cards/import/", data, format="multipart")
    assert response.status_code == 202, response.content
    return client.get(f"/api/import-jobs/{response.json()['id']}/").json()


def test_edopro_pics_come_with_the_cdb_through_the_api_and_the_site_serves_them(
    api_client_for, editor, media, cdb_bytes, client, django_capture_on_commit_callbacks
):
    pics = make_zip(
        {
            "pics/46986414.jpg": picture(color=(200, 30, 30)),
            "pics/55144522.png": picture(color=(30, 200, 30), fmt="PNG"),
            "pics/field/55144522.png": picture(fmt="PNG"),
            "pics/99999999.jpg": picture(),
            "pics/readme.txt": b"made with love",
            "__MACOSX/pics/._46986414.jpg": b"\x00\x05\x16\x07",
        }
    )
    job = api_import(
        api_client_for(editor),
        django_capture_on_commit_callbacks,
        file=("cards.cdb", cdb_bytes()),
        pictures=("pics.zip", pics),
    )
    assert job["status"] == "done", job["errors"]
    assert job["created_count"] == 8 and job["pictures_count"] == 2
    warnings = {issue["card"]: issue["code"] for issue in job["errors"]}
    assert warnings == {
        "pics/99999999.jpg": "pictures_unknown_card",
        "pics/field/55144522.png": "pictures_field_art",
        "pics/readme.txt": "pictures_not_picture_file",
    }
    magician = Card.objects.get(external_id="46986414")
    alternate = Card.objects.get(external_id="46986415")  # its own passcode has no file: no picture
    urls = card_images([magician, alternate])
    assert urls[alternate.pk] == ""
    url = urls[magician.pk]
    assert url.startswith("/cards/pictures/card-pictures/yugioh/") and url.endswith(".jpg")
    assert len(stored_files(media)) == 2
    served = client.get(url)
    assert served.status_code == 200 and served["Content-Type"] == "image/jpeg"
    assert "immutable" in served["Cache-Control"]
    shown = Image.open(io.BytesIO(b"".join(served.streaming_content)))
    assert shown.format == "JPEG" and shown.size == (236, 344)
    assert shown.getpixel((100, 100))[0] > 150  # the red picture, not the green one
    # The card browser and the card's preview show it like a URL-template picture.
    page = client.get("/cards/?game=yugioh&q=pot+of+greed").content.decode()
    assert 'src="/cards/pictures/card-pictures/yugioh/' in page and 'loading="lazy"' in page
    assert f'src="{url}"' in client.get(f"/cards/{magician.pk}/").content.decode()


def test_cockatrice_custom_pictures_by_name_through_the_import_page(
    client, editor, media, django_capture_on_commit_callbacks
):
    pics = make_zip(
        {
            "pics/CUSTOM/Lantern Imp.full.jpg": picture(),
            "pics/CUSTOM/SD01/carella lv2.png": picture(fmt="PNG"),
        }
    )
    client.force_login(editor)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/cards/import/",
            {
                "game": "caster",
                "file": SimpleUploadedFile("c.xml", COCKATRICE_V3.encode()),
                "pictures": SimpleUploadedFile("pics.zip", pics),
            },
        )
    assert response.status_code == 302, response.content.decode()
    job = ImportJob.objects.get()
    assert job.status == "done" and job.pictures_count == 2 and job.errors == []
    assert bytes(job.pictures) == b"" and bytes(job.payload) == b""  # the uploads are dropped once done
    assert set(CardPicture.objects.values_list("card__external_id", flat=True)) == {
        "Lantern Imp",
        "Carella Lv2",
    }
    assert 'data-testid="pictures-count">2<' in client.get(response["Location"]).content.decode()


def test_cockatrice_corrected_names_as_cockatrice_writes_them():
    assert corrected_name("Fire // Ice") == "FireIce"
    assert corrected_name("Circle of Protection: Red") == "Circle of Protection Red"
    assert corrected_name("Who/What/When/Where/Why") == "Who What When Where Why"
    assert corrected_name('"Ach! Hans, Run!"') == "Ach! Hans, Run!"


def test_a_name_with_a_colon_matches_its_cockatrice_file(games, media):
    game = games["mtg"]
    xml = COCKATRICE_V3.replace("Lantern Imp", "Circle of Protection: Red")
    result = cards_import(
        game=game,
        data=xml.encode(),
        filename="c.xml",
        pictures=make_zip({"Circle of Protection Red.jpg": picture()}),
    )
    assert result.ok and result.pictures == 1, result.errors
    assert CardPicture.objects.get().card.name == "Circle of Protection: Red"


def test_large_pictures_are_shrunk_to_745_px_high_and_the_report_says_why(games, media, cdb_bytes):
    result = cards_import(
        game=games["yugioh"],
        data=cdb_bytes(),
        filename="cards.cdb",
        pictures=make_zip({"pics/55144522.jpg": picture(1000, 1400)}),
    )
    assert result.ok and result.pictures == 1
    stored = CardPicture.objects.get()
    assert (stored.width, stored.height) == (532, 745)
    (warning,) = result.warnings
    assert warning.message.code == "pictures_resized"
    assert "1000 × 1400 to 532 × 745" in warning.reason and "745 px high" in warning.reason
    assert "745" in import_issue_text(warning.as_dict(), "ru")
    with Image.open(stored.image.path) as image:
        assert image.size == (532, 745)


def test_the_command_imports_pictures_alone_for_cards_already_there(
    games, media, cdb_bytes, tmp_path, capsys
):
    assert cards_import(game=games["yugioh"], data=cdb_bytes(), filename="cards.cdb").ok
    path = tmp_path / "pics.zip"
    path.write_bytes(make_zip({"pics/44095762.jpg": picture(), "pics/1.jpg": picture()}))
    call_command("import_cards", "--game", "yugioh", "--pictures", str(path))
    captured = capsys.readouterr()
    assert "1 picture(s)" in captured.out and "pics/1.jpg" in captured.err
    assert CardPicture.objects.get().card.name == "Mirror Force"


def test_a_new_picture_replaces_the_old_file_once_committed(
    games, media, cdb_bytes, django_capture_on_commit_callbacks
):
    game = games["yugioh"]
    assert cards_import(game=game, data=cdb_bytes(), filename="cards.cdb").ok
    with django_capture_on_commit_callbacks(execute=True):
        assert cards_import(
            game=game, data=b"", pictures=make_zip({"55144522.jpg": picture(color=(1, 2, 3))})
        ).ok
    first = stored_files(media)
    with django_capture_on_commit_callbacks(execute=True):
        result = cards_import(
            game=game, data=b"", pictures=make_zip({"55144522.jpg": picture(color=(250, 2, 3))})
        )
    assert result.ok and result.pictures == 1
    second = stored_files(media)
    assert len(first) == len(second) == 1 and first != second


def test_the_picture_view_serves_only_stored_card_pictures(client, media):
    assert client.get("/cards/pictures/card-pictures/yugioh/" + "0" * 40 + ".jpg").status_code == 404
    assert client.get("/cards/pictures/../config/settings.py").status_code == 404
    assert client.get("/cards/pictures/card-pictures/yugioh/x.html").status_code == 404


def test_the_import_page_offers_the_pictures_zip_in_russian(client, editor):
    client.force_login(editor)
    client.cookies["django_language"] = "ru"
    page = client.get("/cards/import/").content.decode()
    assert (
        'name="pictures"' in page
        and "Картинки карт (ZIP)" in page
        and "(pics/CUSTOM/Dark Magician.jpg)" in page
    )
    refused = client.post("/cards/import/", {"game": "yugioh"}).content.decode()
    assert "Выберите файл базы карт, ZIP с картинками карт или то и другое." in refused
    assert not ImportJob.objects.exists()
