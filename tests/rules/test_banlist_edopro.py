"""Ban lists as EDOPro reads them, through the import service and commands: warnings in the import report,
explicit dates, and regions that come from each game's rule set (data, not code)."""

from __future__ import annotations

from datetime import date
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from rules.models import BanList
from rules.services import banlist_import

pytestmark = pytest.mark.django_db

LENIENT = """[2023.01 OCG]
!2023.01 OCG
35371948 2--Trickstar Light Stage
--SS05 Bakura
55144522 0 --Pot of Greed
55144522 1 --Pot of Greed
"""


def test_the_import_report_lists_every_line_edopro_would_skip(ygo):
    [item] = banlist_import(game=ygo["game"], text=LENIENT)
    assert item.created and item.banlist.region == "ocg"
    assert [(w.key, w.params["line"]) for w in item.warnings] == [
        ("banlist_file.before_list", 1), ("banlist_file.not_passcode_count", 4), ("banlist_file.repeated", 6),
    ]  # fmt: skip
    limits = dict(item.banlist.entries.values_list("external_id", "limit"))
    assert limits == {"35371948": 2, "55144522": 1}


def test_the_import_command_prints_the_warnings(ygo, tmp_path: Path):
    src = tmp_path / "lenient.conf"
    src.write_text(LENIENT, encoding="utf-8")
    out = StringIO()
    call_command("import_banlist", str(src), game="yugioh", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("2023.01 OCG (2023-01-01, region ocg): imported")
    assert sum(line.startswith("  warning: line ") for line in lines) == 3


def test_a_world_list_gets_the_world_region_from_the_rule_set(ygo):
    """yugioh.toml [game] banlist_regions names `world`: a `World` list no longer imports without a region."""
    [item] = banlist_import(game=ygo["game"], text="!2024.05 World\n55144522 0\n")
    assert item.banlist.region == "world"


def test_the_effective_date_is_the_option_then_the_date_line_then_the_name(ygo):
    text = "!2024.04 TCG\n#date 2024-04-15\n55144522 0\n"
    [from_line] = banlist_import(game=ygo["game"], text=text)
    assert from_line.banlist.effective_date == date(2024, 4, 15)
    [from_option] = banlist_import(game=ygo["game"], text=text, effective_date=date(2024, 4, 22))
    assert from_option.banlist.effective_date == date(2024, 4, 22)
    [from_name] = banlist_import(game=ygo["game"], text="!2024.07 TCG\n55144522 0\n")
    assert from_name.banlist.effective_date == date(2024, 7, 1)


def test_export_writes_the_date_and_region_back(ygo, tmp_path: Path):
    banlist_import(game=ygo["game"], text="!House list\n55144522 0\n", effective_date=date(2024, 3, 9),
                   region="tcg")  # fmt: skip
    dest = tmp_path / "out.conf"
    call_command("export_banlist", game="yugioh", output=dest)
    assert "#date 2024-03-09" in dest.read_text(encoding="utf-8").splitlines()
    BanList.objects.all().delete()
    [again] = banlist_import(game=ygo["game"], text=dest.read_text(encoding="utf-8"))
    assert (again.banlist.effective_date, again.banlist.region) == (date(2024, 3, 9), "tcg")
