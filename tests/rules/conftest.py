"""Fixtures for the rules app's database tests: a few real Yu-Gi-Oh! cards as Card rows."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest

# passcode, name, card_type, subtypes, alias
YGO_CARDS = [
    ("55144522", "Pot of Greed", "spell", ["normal"], None),
    ("12580477", "Raigeki", "spell", ["normal"], None),
    ("5318639", "Mystical Space Typhoon", "spell", ["quick-play"], None),
    ("46986414", "Dark Magician", "monster", ["normal"], None),
    ("36996508", "Dark Magician", "monster", ["normal"], "46986414"),
    ("16178681", "Odd-Eyes Pendulum Dragon", "monster", ["effect", "pendulum"], None),
    ("44508094", "Stardust Dragon", "monster", ["synchro", "effect"], None),
    ("73915051", "Scapeghost Token", "monster", ["token"], None),
] + [(str(90000000 + i), f"Filler Spell {i}", "spell", ["normal"], None) for i in range(20)]


@pytest.fixture
def ygo(games: dict[str, Any]) -> dict[str, Any]:
    """The yugioh Game with a handful of cards; returns {"game": Game, passcode: Card}."""
    from cards.models import Card

    game = games["yugioh"]
    out: dict[str, Any] = {"game": game}
    for code, name, kind, subtypes, alias in YGO_CARDS:
        token = "token" in subtypes
        out[code] = Card.objects.create(
            game=game, external_id=code, identity=alias or code, name=name, search_name=name.casefold(),
            card_type=kind, subtypes=subtypes, level=4 if kind == "monster" else None,
            attributes={"alias": alias} if alias else {}, is_token=token, deck_buildable=not token,
        )  # fmt: skip
    return out


SAMPLE_LIST = """#[2024.01 Test TCG]
!2024.01 Test TCG
55144522 0 --Pot of Greed
12580477 1 --Raigeki
5318639 2 --Mystical Space Typhoon
46986414 1 --Dark Magician
"""


def ydk(main: list[str], extra: list[str] = (), side: list[str] = ()) -> str:  # type: ignore[assignment]
    return "\n".join(["#created by test", "#main", *main, "#extra", *extra, "!side", *side]) + "\n"


def fillers(n: int) -> list[str]:
    """n passcodes of filler spells, three copies each."""
    return [str(90000000 + i // 3) for i in range(n)]


def run_validate_deck(*args: str) -> tuple[int, str, str]:
    """manage.py validate_deck ARGS -> (exit code, stdout, stderr)."""
    from django.core.management import call_command

    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("validate_deck", *args, stdout=out, stderr=err)
    return exit_info.value.code, out.getvalue(), err.getvalue()
