"""manage.py validate_deck: exit 0 legal, 1 illegal, 2 unusable input (reason on stderr)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.services import banlist_import

from .conftest import SAMPLE_LIST, fillers, run_validate_deck, ydk

pytestmark = pytest.mark.django_db


run = run_validate_deck


def test_a_legal_ydk_exits_0(ygo, tmp_path: Path):
    f = tmp_path / "deck.ydk"
    f.write_text(ydk(fillers(40), ["44508094"]), encoding="utf-8")
    code, out, _ = run("--game", "yugioh", "--format", "advanced", str(f))
    assert (code, out.splitlines()[0]) == (0, "LEGAL")


def test_an_illegal_deck_exits_1_and_json_has_the_report_shape(ygo, tmp_path: Path):
    banlist_import(game=ygo["game"], text=SAMPLE_LIST)
    f = tmp_path / "deck.ydk"
    f.write_text(ydk([*fillers(39), "55144522", "99999999"]), encoding="utf-8")
    code, out, _ = run(
        "--game", "yugioh", "--format", "advanced", "--banlist", "2024.01 Test TCG", "--json", str(f)
    )
    report = json.loads(out)
    assert code == 1 and report["legal"] is False
    assert sorted(v["code"] for v in report["violations"]) == ["banlist_forbidden", "unknown_card"]


def test_plain_text_with_section_headers_is_read(ygo, tmp_path: Path):
    f = tmp_path / "deck.txt"
    f.write_text("Main\n" + "".join(f"3 Filler Spell {i}\n" for i in range(13)) + "1 Raigeki\nExtra\n1 Stardust Dragon\n",
                 encoding="utf-8")  # fmt: skip
    code, out, _ = run("--game", "yugioh", "--format", "advanced", str(f))
    assert (code, out.splitlines()[0]) == (0, "LEGAL")


def test_a_ydke_url_is_read(ygo, tmp_path: Path):
    from decks.formats import to_ydke
    from decks.formats.model import DeckList

    assert callable(to_ydke) and DeckList  # the decks app's writer builds the URL the CLI must read
    import base64
    import struct

    def part(codes: list[str]) -> str:
        return base64.b64encode(b"".join(struct.pack("<I", int(c)) for c in codes)).decode()

    url = f"ydke://{part(fillers(40))}!{part([])}!{part([])}!"
    f = tmp_path / "deck.txt"
    f.write_text(url, encoding="utf-8")
    code, out, err = run("--game", "yugioh", "--format", "advanced", str(f))
    assert code == 0, out + err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--game", "chess", "--format", "x"], "unknown game"),
        (["--game", "yugioh", "--format", "modern"], "no format “modern”"),
        (["--game", "yugioh", "--format", "advanced", "--date", "2024-13-01"], "--date must be YYYY-MM-DD"),
        (["--game", "vale", "--format", "standard"], "without player decks"),
    ],
)
def test_unusable_input_exits_2_with_the_reason_on_stderr(ygo, tmp_path: Path, args, needle):
    f = tmp_path / "deck.ydk"
    f.write_text(ydk(fillers(40)), encoding="utf-8")
    code, _, err = run(*args, str(f))
    assert code == 2 and needle in err


def test_a_missing_file_exits_2(ygo, tmp_path: Path):
    code, _, err = run("--game", "yugioh", "--format", "advanced", str(tmp_path / "nope.ydk"))
    assert code == 2 and "cannot read" in err


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"", "is empty"),
        (b"  \n\n", "is empty"),
        (bytes(range(256)) * 8, "not text"),
        (b"#main\nabc\n", "line 2: 'abc' is not a card passcode"),
        (b'{"sections": ', "not valid JSON"),
    ],
)
def test_unreadable_files_exit_2_with_the_reason(ygo, tmp_path: Path, content: bytes, needle: str):
    f = tmp_path / ("deck.json" if content.startswith(b"{") else "deck.ydk")
    f.write_bytes(content)
    code, out, err = run("--game", "yugioh", "--format", "advanced", str(f))
    assert code == 2 and needle in err and out == ""


def test_an_unknown_ban_list_name_exits_2(ygo, tmp_path: Path):
    f = tmp_path / "deck.ydk"
    f.write_text(ydk(fillers(40)), encoding="utf-8")
    code, _, err = run("--game", "yugioh", "--format", "advanced", "--banlist", "1999.01 Nope", str(f))
    assert code == 2 and "There is no ban list named “1999.01 Nope” for yugioh." in err


def test_the_report_can_be_printed_in_russian(ygo, tmp_path: Path):
    f = tmp_path / "deck.ydk"
    f.write_text(ydk(fillers(39)), encoding="utf-8")
    code, out, _ = run("--game", "yugioh", "--format", "advanced", "--lang", "ru", str(f))
    assert code == 1 and "«Основная колода»" in out and "39" in out
    assert "  правила: yugioh/advanced " in out and "(действуют с " in out and "rules" not in out


def test_unusable_input_is_explained_in_the_asked_language(ygo, tmp_path: Path):
    f = tmp_path / "deck.ydk"
    f.write_text(ydk(fillers(40)), encoding="utf-8")
    code, _, err = run(
        "--game", "yugioh", "--format", "advanced", "--banlist", "1999.01 Nope", "--lang", "ru", str(f)
    )
    assert code == 2 and "Для yugioh нет бан-листа «1999.01 Nope»." in err
    code, _, err = run(
        "--game", "yugioh", "--format", "advanced", "--lang", "ru", str(tmp_path / "empty.ydk")
    )
    assert code == 2 and "не удаётся прочитать" in err
