"""`make run` loads the demo data on every start: loading twice must duplicate nothing."""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def debug_on(settings: object) -> None:
    # pytest-django runs with DEBUG off; load_demo is a development command that needs it on.
    settings.DEBUG = True  # type: ignore[attr-defined]


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label in {"accounts", "cards", "rules", "decks", "tournaments"}
    }


def test_it_loads_all_five_games_and_the_demo_organizer() -> None:
    out = StringIO()
    call_command("load_demo", stdout=out)
    from accounts.models import User
    from cards.models import Game

    assert set(Game.objects.values_list("slug", flat=True)) == {
        "everseal",
        "twindeck",
        "yugioh",
        "caster",
        "vale",
        "mtg",  # the sixth game, games/rulesets/mtg.toml: data only, no demo decks
    }
    organizer = User.objects.get(username="organizer")
    assert organizer.is_organizer and organizer.check_password("deckhall-demo")
    assert "log in as 'organizer'" in out.getvalue()
    # The demo organizer may import and update every demo game's cards from the pages.
    assert set(organizer.card_databases.values_list("slug", flat=True)) == set(
        Game.objects.values_list("slug", flat=True)
    )


def test_it_loads_magic_from_the_shared_set_files(shared_data) -> None:
    from cards.models import Card, Printing

    out = StringIO()
    call_command("load_demo", stdout=out)
    files = sorted((shared_data / "mtg" / "cockatrice").glob("*.xml"))
    assert files, "no Magic set files in the shared data"
    for path in files:
        assert "cards: mtg: " in out.getvalue() and path.name in out.getvalue()
    assert Card.objects.filter(game__slug="mtg").count() > 1000
    # One database built from the set files: a reprint is one card with a printing per set.
    assert Printing.objects.filter(card__game__slug="mtg").values("card_set").distinct().count() >= len(files)


def test_it_duplicates_nothing_when_run_twice() -> None:
    call_command("load_demo", stdout=StringIO())
    first = row_counts()
    call_command("load_demo", stdout=StringIO())
    assert row_counts() == first


def test_it_refuses_to_load_demo_data_in_production(settings: object) -> None:
    from django.core.management.base import CommandError

    settings.DEBUG = False  # type: ignore[attr-defined]
    with pytest.raises(CommandError, match="DEBUG off"):
        call_command("load_demo", stdout=StringIO())
