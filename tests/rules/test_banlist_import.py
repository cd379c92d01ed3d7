"""Ban list import: atomic, idempotent, immutable; export back to lflist.conf."""

from __future__ import annotations

from datetime import date
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rules.lflist import parse_lflist
from rules.messages import KeyedValidationError
from rules.models import BanList, BanListEntry
from rules.services import banlist_import

from .conftest import SAMPLE_LIST

pytestmark = pytest.mark.django_db


def test_it_imports_a_list_and_resolves_entries_to_cards(ygo):
    [item] = banlist_import(game=ygo["game"], text=SAMPLE_LIST, source="test")
    b = item.banlist
    assert item.created and (b.name, b.effective_date, b.region, b.is_whitelist) == (
        "2024.01 Test TCG", date(2024, 1, 1), "tcg", False,
    )  # fmt: skip
    pot = b.entries.get(external_id="55144522")
    assert (pot.limit, pot.card, pot.identity) == (0, ygo["55144522"], "55144522")


def test_reimporting_the_same_list_duplicates_nothing(ygo):
    banlist_import(game=ygo["game"], text=SAMPLE_LIST)
    [again] = banlist_import(game=ygo["game"], text=SAMPLE_LIST)
    assert not again.created
    assert BanList.objects.count() == 1 and BanListEntry.objects.count() == 4


def test_a_second_source_of_the_same_list_becomes_a_new_version(ygo):
    """A second source of a list (same name and date, other entries) used to be
    refused as "immutable"; it is now a new version dated after the stored one, which stays as it was."""
    banlist_import(game=ygo["game"], text=SAMPLE_LIST)
    changed = SAMPLE_LIST.replace("12580477 1", "12580477 0")
    [item] = banlist_import(game=ygo["game"], text=changed)
    assert item.created and item.banlist.effective_date == date(2024, 1, 2)
    assert BanList.objects.get(effective_date=date(2024, 1, 1)).entries.get(external_id="12580477").limit == 1
    [again] = banlist_import(game=ygo["game"], text=changed)
    assert not again.created and BanList.objects.count() == 2


def test_an_explicit_date_taken_by_other_entries_is_refused(ygo):
    banlist_import(game=ygo["game"], text=SAMPLE_LIST)
    changed = SAMPLE_LIST.replace("12580477 1", "12580477 0")
    with pytest.raises(KeyedValidationError) as refused:
        banlist_import(game=ygo["game"], text=changed, effective_date=date(2024, 1, 1))
    assert (refused.value.message_key, refused.value.message_params) == (
        "banlist_import.immutable", {"list": "2024.01 Test TCG", "date": "2024-01-01"},
    )  # fmt: skip
    assert "immutable" in refused.value.messages[0]
    # ... but the same name with a new date is a new version.
    [item] = banlist_import(game=ygo["game"], text=changed, effective_date=date(2024, 4, 1))
    assert item.created and BanList.objects.count() == 2


def test_a_bad_file_writes_nothing(ygo):
    text = SAMPLE_LIST + "!2024.02 Second\n12580477 1\n#date 2024-02-30\n"
    with pytest.raises(KeyedValidationError) as refused:
        banlist_import(game=ygo["game"], text=text)
    assert refused.value.message_key == "banlist_file.bad_date"
    assert refused.value.message_params == {"line": 9, "value": "2024-02-30"}
    assert BanList.objects.count() == 0


def test_a_list_without_a_date_is_dated_by_the_files_order(ygo):
    """A list with no date anywhere used to be refused; it is dated today now."""
    [item] = banlist_import(game=ygo["game"], text="!House list\n55144522 0\n")
    assert item.created and item.banlist.effective_date == date.today()


def test_asking_for_a_list_the_file_lacks_names_the_lists_it_has(ygo):
    with pytest.raises(KeyedValidationError) as refused:
        banlist_import(game=ygo["game"], text=SAMPLE_LIST, names=["2024.04 Nope", "2024.01 Test TCG"])
    assert refused.value.message_params == {"names": "2024.04 Nope", "known": "2024.01 Test TCG"}
    assert BanList.objects.count() == 0


def test_an_upload_of_a_bad_file_is_refused_in_the_uploaders_language(ygo, admin_user, api_client_for):
    client = api_client_for(admin_user)
    body = {"game": "yugioh", "text": "!2024.02 TCG\n#date 2024-02-30\n55144522 0\n"}
    answers = {
        lang: client.post("/api/banlists/import/", body, format="json", HTTP_ACCEPT_LANGUAGE=lang)
        for lang in ("ru", "en")
    }
    for response in answers.values():
        assert response.status_code == 422  # well-formed text the readers refuse (README "Errors")
        assert (response.json()["key"], response.json()["params"]) == (
            "banlist_file.bad_date", {"line": 2, "value": "2024-02-30"},
        )  # fmt: skip
    assert (
        answers["ru"].json()["detail"] == "строка 2: «#date 2024-02-30» — несуществующая дата (ГГГГ-ММ-ДД)."
    )
    assert answers["en"].json()["detail"] == "line 2: “#date 2024-02-30” is not a real date (YYYY-MM-DD)."
    assert BanList.objects.count() == 0


def test_an_upload_answers_each_lists_warnings_as_keys_with_words(ygo, admin_user, api_client_for):
    client = api_client_for(admin_user)
    body = {"game": "yugioh", "text": "[2024.02 TCG]\n!2024.02 TCG\n55144522 0\n"}
    response = client.post("/api/banlists/import/", body, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 201
    [imported] = response.json()
    assert (imported["name"], imported["created"]) == ("2024.02 TCG", True)
    assert imported["warnings"] == [
        {
            "key": "banlist_file.before_list",
            "params": {"line": 1, "text": "[2024.02 TCG]"},
            "message": "строка 1: «[2024.02 TCG]» стоит до первого списка «!название»; пропущена.",
        }
    ]
    again = client.post("/api/banlists/import/", body, format="json")
    assert again.status_code == 200 and again.json()[0]["created"] is False


def test_the_commands_import_and_export_lflist_files(ygo, tmp_path: Path):
    src = tmp_path / "in.conf"
    src.write_text(SAMPLE_LIST, encoding="utf-8")
    out = StringIO()
    call_command("import_banlist", str(src), game="yugioh", stdout=out)
    assert "2024.01 Test TCG" in out.getvalue() and "imported" in out.getvalue()
    dest = tmp_path / "out.conf"
    call_command("export_banlist", game="yugioh", output=dest)
    [lst] = parse_lflist(dest.read_text(encoding="utf-8"))
    assert sorted((e.external_id, e.limit) for e in lst.entries) == [
        ("12580477", 1), ("46986414", 1), ("5318639", 2), ("55144522", 0),
    ]  # fmt: skip
    bad = tmp_path / "bad.conf"
    bad.write_text("!x 2020.01\n#date 2020-13-01\n", encoding="utf-8")
    with pytest.raises(CommandError, match="line 2"):
        call_command("import_banlist", str(bad), game="yugioh")


def test_it_imports_every_shared_list(games, shared_data: Path):
    for path in sorted((shared_data / "ygo/lflist").glob("*.lflist.conf")):
        banlist_import(game=games["yugioh"], text=path.read_text(encoding="utf-8"), source=path.name)
    assert set(BanList.objects.values_list("region", flat=True)) == {"tcg", "ocg", "traditional", "goat"}
    assert BanList.objects.get(region="goat").is_whitelist


def _entries(lists) -> dict:
    return {
        lst.name: (lst.whitelist, sorted((e.external_id, e.limit, e.name) for e in lst.entries))
        for lst in lists
    }


def test_exporting_and_reimporting_the_shared_lists_gives_the_same_lists(
    games, shared_data: Path, tmp_path: Path
):
    originals = []
    for path in sorted((shared_data / "ygo/lflist").glob("*.lflist.conf")):
        text = path.read_text(encoding="utf-8")
        originals += parse_lflist(text)
        banlist_import(game=games["yugioh"], text=text, source=path.name)
    before = {(b.name, b.effective_date, b.region, b.is_whitelist) for b in BanList.objects.all()}
    dest = tmp_path / "all.conf"
    call_command("export_banlist", game="yugioh", output=dest)
    exported = dest.read_text(encoding="utf-8")
    assert _entries(parse_lflist(exported)) == _entries(originals)
    # Re-importing the export is recognised list by list: nothing new, nothing refused.
    out = StringIO()
    call_command("import_banlist", str(dest), game="yugioh", stdout=out)
    assert out.getvalue().count("already present") == len(originals) and "imported" not in out.getvalue()
    # ... and into an empty database it recreates the same lists with the same dates and regions.
    BanList.objects.all().delete()
    banlist_import(game=games["yugioh"], text=exported)
    assert {(b.name, b.effective_date, b.region, b.is_whitelist) for b in BanList.objects.all()} == before
    call_command("export_banlist", game="yugioh", output=dest)
    assert dest.read_text(encoding="utf-8") == exported


def test_the_category_after_a_name_is_not_part_of_the_name():
    [lst] = parse_lflist(
        "!2020.04 TCG\n53804307 0 --Blaster, Dragon Ruler of Infernos\t\t\tMAIN DECK MONSTERS\n"
    )
    assert lst.entries[0].name == "Blaster, Dragon Ruler of Infernos"
