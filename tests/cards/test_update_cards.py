"""`update_cards <game>` fetches the community's current files over HTTP (here from a local server on
127.0.0.1, never the internet), merges them newest-wins, says what changes, applies atomically and rolls back
in one step; with the server down it says so and changes nothing."""

from __future__ import annotations

import gzip
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards.models import Card, CardUpdate
from cards.services import import_job_run
from cards.updates import UpdateRefused, card_update_create, card_update_rollback
from rules.models import BanList
from tests.cards import magic_files
from tests.cards.conftest import GOOD_ROWS, make_cdb

pytestmark = pytest.mark.django_db

MAGICIAN, POT, MIRROR = GOOD_ROWS[0], GOOD_ROWS[2], GOOD_ROWS[3]
NEW_CARD = (10000001, 4, 0, 0, 0x2, 0, 0, 0, 0, 0, "Kashtira Unicorn", "Unofficial for now.")
PRERELEASE = (10000002, 4, 0, 0, 0x4, 0, 0, 0, 0, 0, "Kashtira Birth", "Prerelease.")
POT_ERRATA = (*POT[:10], "Pot of Greed", "Draw 2 cards. (errata)")


def _babel(base: str, root: Path, tmp_path: Path) -> str:
    """EDOPro's BabelCDB layout: a listing (GitHub's contents API shape) of the main, unofficial and
    prerelease databases, the prerelease one correcting a card of the main one."""
    make_cdb(root / "cards.cdb", [MAGICIAN, POT, MIRROR])
    make_cdb(root / "cards-unofficial.cdb", [NEW_CARD])
    make_cdb(root / "prerelease-KASH.cdb", [PRERELEASE, POT_ERRATA])
    (root / "README.md").write_text("not a database")
    (root / "TCG.lflist.conf").write_text(
        f"#[2026.11 TCG]\n!2026.11 TCG\n{POT[0]} 0 --Pot of Greed\n{NEW_CARD[0]} 1 --Kashtira Unicorn\n"
    )
    listing = [
        {"name": name, "type": "file", "download_url": f"{base}/{name}"}
        for name in (
            "README.md",
            "prerelease-KASH.cdb",
            "cards.cdb",
            "TCG.lflist.conf",
            "cards-unofficial.cdb",
        )
    ]
    (root / "contents.json").write_text(json.dumps(listing))
    return f"{base}/contents.json"


def _run(game, *, dry_run: bool, urls: list[str]) -> CardUpdate:
    update = card_update_create(game=game, dry_run=dry_run, urls=urls)
    import_job_run(job_id=update.job_id)
    update.refresh_from_db()
    return update


def test_it_says_what_a_babelcdb_update_would_change_and_changes_nothing(games, server, tmp_path):
    base, root = server
    make_cdb(tmp_path / "old.cdb", [MAGICIAN, POT])
    from cards.services import cards_import

    assert cards_import(game=games["yugioh"], data=(tmp_path / "old.cdb").read_bytes(), filename="old.cdb").ok
    update = _run(games["yugioh"], dry_run=True, urls=[_babel(base, root, tmp_path)])
    assert update.status == CardUpdate.Status.CHECKED
    summary = update.summary
    assert [f["name"] for f in summary["files"]] == [
        "cards.cdb",
        "cards-unofficial.cdb",
        "prerelease-KASH.cdb",
        "TCG.lflist.conf",
    ]
    assert summary["banlists"] == [
        {"name": "2026.11 TCG", "status": "new", "entries": 2, "file": "TCG.lflist.conf"}
    ]
    assert (summary["new"], summary["changed"], summary["removed"]) == (3, 1, 0)
    assert set(summary["new_names"]) == {"Mirror Force", "Kashtira Unicorn", "Kashtira Birth"}
    assert summary["changed_names"] == ["Pot of Greed"]
    assert summary["flagged"] == {"unofficial": 1, "prerelease": 2}
    assert Card.objects.filter(game__slug="yugioh").count() == 2  # a dry run writes no card
    assert Card.objects.get(external_id=str(POT[0])).text == "Draw 2 cards."


def test_it_applies_newest_wins_with_flags_and_rolls_back_in_one_step(games, server, tmp_path):
    base, root = server
    make_cdb(tmp_path / "old.cdb", [MAGICIAN, POT])
    from cards.services import cards_import

    assert cards_import(game=games["yugioh"], data=(tmp_path / "old.cdb").read_bytes(), filename="old.cdb").ok
    update = _run(games["yugioh"], dry_run=False, urls=[_babel(base, root, tmp_path)])
    assert update.status == CardUpdate.Status.APPLIED, update.job.errors
    pot = Card.objects.get(external_id=str(POT[0]))
    assert pot.text == "Draw 2 cards. (errata)"  # the prerelease file came last and wins
    assert pot.attributes["prerelease"] is True
    unicorn = Card.objects.get(name="Kashtira Unicorn")
    assert unicorn.attributes["unofficial"] is True and "prerelease" not in unicorn.attributes
    assert "unofficial" not in Card.objects.get(name="Mirror Force").attributes
    assert Card.objects.filter(game__slug="yugioh").count() == 5
    banlist = BanList.objects.get(name="2026.11 TCG")
    assert {(e.card.name, e.limit) for e in banlist.entries.select_related("card")} == {
        ("Pot of Greed", 0),
        ("Kashtira Unicorn", 1),
    }

    card_update_rollback(game=games["yugioh"])
    assert not BanList.objects.filter(name="2026.11 TCG").exists()
    assert sorted(Card.objects.filter(game__slug="yugioh").values_list("name", flat=True)) == [
        "Dark Magician",
        "Pot of Greed",
    ]
    pot.refresh_from_db()
    assert pot.text == "Draw 2 cards." and "prerelease" not in pot.attributes
    with pytest.raises(UpdateRefused, match="no applied update"):  # one step, not two
        card_update_rollback(game=games["yugioh"])


def test_it_updates_magic_from_a_gzipped_mtgjson_and_a_spoiler_file(games, server, tmp_path):
    base, root = server
    (root / "AllPrintings.json.gz").write_bytes(
        gzip.compress(json.dumps(magic_files.all_printings()).encode())
    )
    spoiler = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4"><sets><set><name>SPL</name><longname>Spoiled</longname></set></sets><cards>
<card><name>Insectile Aberration</name><text>Flying</text><prop><type>Creature — Human Insect</type></prop><set>SPL</set></card>
<card><name>Brand New Spoiler</name><text>New.</text><prop><type>Instant</type><cmc>1</cmc></prop><set>SPL</set></card>
</cards></cockatrice_carddatabase>"""
    (root / "spoiler.xml").write_text(spoiler)
    urls = [f"{base}/AllPrintings.json.gz", f"{base}/spoiler.xml"]
    update = _run(games["mtg"], dry_run=False, urls=urls)
    assert update.status == CardUpdate.Status.APPLIED, update.job.errors
    names = set(Card.objects.filter(game__slug="mtg").values_list("name", flat=True))
    assert "Brand New Spoiler" in names
    assert "Insectile Aberration" not in names  # the back face of a card MTGJSON gave: not a second card

    # The next day Delver is banned in Modern: the dry run names the move.
    document = magic_files.all_printings()
    for face in document["data"]["INR"]["cards"]:
        face["legalities"]["modern"] = "Banned"
    (root / "AllPrintings.json.gz").write_bytes(gzip.compress(json.dumps(document).encode()))
    check = _run(games["mtg"], dry_run=True, urls=urls)
    assert check.summary["banlist_moves"] == [
        {
            "card": "Delver of Secrets // Insectile Aberration",
            "format": "modern",
            "from": "legal",
            "to": "banned",
        }
    ]


def test_it_says_so_and_changes_nothing_when_the_server_is_down(games, server, tmp_path):
    base, root = server
    url = _babel(base, root, tmp_path)
    dead = "http://127.0.0.1:9/contents.json"  # the discard port: nothing listens there
    update = _run(games["yugioh"], dry_run=False, urls=[dead])
    assert update.status == CardUpdate.Status.FAILED
    assert "cannot reach 127.0.0.1:9" in update.job.errors[0]["reason"]
    assert "Nothing was changed" in update.job.errors[0]["reason"]
    assert not Card.objects.exists()
    assert url  # the live server was there all along; only the dead address failed


def test_it_refuses_a_file_of_another_game_and_changes_nothing(games, server):
    base, root = server
    (root / "AllPrintings.json").write_text(json.dumps(magic_files.all_printings()))
    update = _run(games["yugioh"], dry_run=False, urls=[f"{base}/AllPrintings.json"])
    assert update.status == CardUpdate.Status.FAILED
    assert any("mtg" in issue["reason"] for issue in update.job.errors)
    assert not Card.objects.exists()


def test_the_command_reports_a_dry_run_and_a_missing_internet(games, server, tmp_path):
    base, root = server
    out = StringIO()
    call_command("update_cards", "yugioh", "--dry-run", "--url", _babel(base, root, tmp_path), stdout=out)
    assert "would change: 5 new, 0 changed" in out.getvalue()
    assert "dry run: nothing was changed" in out.getvalue()
    with pytest.raises(CommandError, match="nothing was changed"):
        call_command(
            "update_cards",
            "yugioh",
            "--url",
            "http://127.0.0.1:9/x.cdb",
            stdout=StringIO(),
            stderr=StringIO(),
        )
    assert not Card.objects.exists()
