"""Ban lists as community servers and YGOPro write them: names without a date, dated by the
file's order or by an explicit date per list and chosen by name; YGOPro's date-only OCG names get the OCG
region; `export_banlist -o -` writes to standard output."""

from __future__ import annotations

from datetime import date, timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rules.models import BanList
from rules.selectors import banlist_in_effect
from rules.services import banlist_choose, banlist_import

pytestmark = pytest.mark.django_db

# The shape of a community server's lflist.conf (DuelingBook / MDC style): several lists, no dates,
# a whitelist among them, the title comment line of EDOPro files.
COMMUNITY = """#[JTP (Original)][MDC Season 5][Edison]
!JTP (Original)
$whitelist
55144522 3 --Pot of Greed
12580477 3 --Raigeki
!MDC Season 5
55144522 0 --Pot of Greed
12580477 1 --Raigeki
!Edison
12580477 0 --Raigeki
"""

# The first lines of YGOPro's own lflist.conf: OCG lists are named by the date alone.
YGOPRO = """#[2026.7][2026.5 TCG][2013.3.1]
!2026.7
55144522 0 --Pot of Greed
!2026.5 TCG
55144522 0 --Pot of Greed
12580477 1 --Raigeki
!2013.3.1
55144522 0 --Pot of Greed
"""


def test_undated_lists_are_dated_by_the_files_order_newest_first(ygo):
    results = banlist_import(game=ygo["game"], text=COMMUNITY)
    today = date.today()
    assert [(r.banlist.name, r.banlist.effective_date) for r in results] == [
        ("JTP (Original)", today),
        ("MDC Season 5", today - timedelta(days=1)),
        ("Edison", today - timedelta(days=2)),
    ]
    assert results[0].banlist.is_whitelist
    # Re-importing the same file on another day duplicates nothing.
    again = banlist_import(game=ygo["game"], text=COMMUNITY)
    assert not any(r.created for r in again) and BanList.objects.count() == 3


def test_a_list_can_be_given_its_own_date(ygo):
    results = banlist_import(
        game=ygo["game"], text=COMMUNITY, dates={"MDC Season 5": date(2023, 6, 1), "Edison": date(2010, 3, 1)}
    )
    by_name = {r.banlist.name: r.banlist.effective_date for r in results}
    assert by_name == {
        "JTP (Original)": date.today(),
        "MDC Season 5": date(2023, 6, 1),
        "Edison": date(2010, 3, 1),
    }


def test_a_date_for_a_list_the_file_lacks_is_refused_naming_the_lists(ygo):
    with pytest.raises(Exception, match="Season 6") as refused:
        banlist_import(game=ygo["game"], text=COMMUNITY, dates={"MDC Season 6": date(2024, 1, 1)})
    assert refused.value.message_params["known"] == "JTP (Original), MDC Season 5, Edison"
    assert BanList.objects.count() == 0


def test_an_undated_list_is_chosen_by_name_and_a_new_season_is_a_new_version(ygo):
    banlist_import(game=ygo["game"], text=COMMUNITY, dates={"MDC Season 5": date(2024, 1, 1)})
    updated = COMMUNITY.replace("12580477 1 --Raigeki", "12580477 0 --Raigeki")
    [item] = banlist_import(game=ygo["game"], text=updated, names=["MDC Season 5"])
    assert item.created and item.banlist.effective_date > date(2024, 1, 1)
    fmt = _format("advanced")
    chosen = banlist_choose(game=ygo["game"], fmt=fmt, banlist="MDC Season 5")
    assert chosen == item.banlist and chosen.entries.get(external_id="12580477").limit == 0


def _format(slug: str):
    from rules.engine import default_registry

    return default_registry().format("yugioh", slug, date.today())


def test_ygopro_date_only_names_are_ocg_lists_and_the_ocg_format_reads_them(ygo):
    results = banlist_import(game=ygo["game"], text=YGOPRO)
    regions = {r.banlist.name: r.banlist.region for r in results}
    # "2013.3.1" is one of YGOPro's old TCG lists (its second title line): no region is guessed for it.
    assert regions == {"2026.7": "ocg", "2026.5 TCG": "tcg", "2013.3.1": ""}
    ocg = _format("ocg")
    assert (
        banlist_in_effect(game=ygo["game"], regions=ocg.banlist.regions, on_date=date(2026, 8, 1)).name
        == "2026.7"
    )


def test_the_command_takes_a_date_per_list(ygo, tmp_path: Path):
    path = tmp_path / "server.lflist.conf"
    path.write_text(COMMUNITY, encoding="utf-8")
    out = StringIO()
    call_command("import_banlist", str(path), game="yugioh", list_date=["Edison=2005-09-01"], stdout=out)
    assert "Edison (2005-09-01, region -): imported" in out.getvalue()
    with pytest.raises(CommandError, match="LIST=YYYY-MM-DD"):
        call_command("import_banlist", str(path), game="yugioh", list_date=["Edison=September"])


def test_export_to_a_dash_writes_to_standard_output(ygo, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    banlist_import(game=ygo["game"], text=COMMUNITY, dates={"Edison": date(2005, 9, 1)})
    out = StringIO()
    call_command("export_banlist", game="yugioh", output=Path("-"), name=["Edison"], stdout=out)
    assert out.getvalue().splitlines()[:3] == ["#[Edison]", "!Edison", "#date 2005-09-01"]
    assert not (tmp_path / "-").exists()
    # What it wrote reads back as the same list.
    BanList.objects.all().delete()
    [again] = banlist_import(game=ygo["game"], text=out.getvalue())
    assert again.banlist.effective_date == date(2005, 9, 1)
