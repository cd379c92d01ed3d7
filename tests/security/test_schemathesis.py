"""schemathesis over every operation of the API, as anonymous, player, organizer and staff.

Every generated request (valid and invalid data) must get an answer that is no server error and that
the schema documents: the status, the content type and the body's shape. Path ids are half of the time
the ids of real objects, so the checks also reach past the 404s. Prints the figures for the report.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from typing import Any

import pytest
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.test import APIClient

from accounts.tokens import api_token_create

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is in requirements-test.txt")
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Examples per operation, role and generation mode; SCHEMATHESIS_EXAMPLES raises it for a longer hunt.
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "6"))


# Failures in code this suite's owners do not own, reported to its owners; listed so they stay visible
# (printed) without turning the whole suite red while the fix is made there. Matched on the operation and
# a piece of the failure text, so any other failure of the same operation still fails the test.
KNOWN_ELSEWHERE: list[tuple[str, str]] = []


def _known_elsewhere(label: str, text: str) -> bool:
    return any(label == operation and piece in text for operation, piece in KNOWN_ELSEWHERE)


def _world(make_user: Any) -> dict[str, Any]:
    """Users with tokens, and real objects for the path ids: cards, a deck, a ban list, a tournament
    with a paired round. Built through the API so the set-up follows the API's own rules."""
    import io

    from cards import demo
    from cards.games import games_sync
    from cards.models import Card
    from rules.models import BanList

    games_sync()
    demo.load(io.StringIO())
    player, organizer = make_user("sx-player"), make_user("sx-organizer", organizer=True)
    staff = make_user("sx-staff")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    tokens = {user.username: api_token_create(user=user) for user in (player, organizer, staff)}
    card = Card.objects.filter(game__slug="yugioh").order_by("pk").first()
    as_player, as_organizer = APIClient(), APIClient()
    as_player.force_authenticate(player)
    as_organizer.force_authenticate(organizer)
    deck = as_player.post(
        "/api/decks/",
        {
            "game": "yugioh",
            "name": "Fuzzed",
            "visibility": "public",
            "sections": {"main": [{"card": card.pk, "count": 3}]},
        },
        format="json",
    ).json()
    ids: dict[str, Any] = {"decks": deck["id"], "cards": card.pk, "slug": "yugioh", "number": 1}
    banlist = BanList.objects.order_by("pk").first()
    if banlist is not None:
        ids["banlists"] = banlist.pk
    event = as_organizer.post(
        "/api/tournaments/", {"name": "Fuzz Open", "game": "vale", "format": "standard"}, format="json"
    )
    if event.status_code == 201:
        ids["tournaments"] = event.json()["id"]
        for name in ("Guest A", "Guest B", "Guest C", "Guest D"):
            as_organizer.post(
                f"/api/tournaments/{ids['tournaments']}/players/", {"name": name}, format="json"
            )
        players = as_organizer.get(f"/api/tournaments/{ids['tournaments']}/players/").json()
        if isinstance(players, list) and players:
            ids["player_id"] = players[0]["id"]
        round_ = as_organizer.post(f"/api/tournaments/{ids['tournaments']}/rounds/", {}, format="json")
        from tournaments.models import Match

        match = Match.objects.order_by("pk").first()
        if round_.status_code == 201 and match is not None:
            ids["matches"] = match.pk
    roles = {
        "anonymous": {},
        "player": {"Authorization": f"Token {tokens['sx-player']}"},
        "organizer": {"Authorization": f"Token {tokens['sx-organizer']}"},
        "staff": {"Authorization": f"Token {tokens['sx-staff']}"},
    }
    return {"ids": ids, "roles": roles}


def _known_path(operation: Any, ids: dict[str, Any]) -> dict[str, Any]:
    collection = re.match(r"/api/([a-z-]+)/", operation.path)
    known = {}
    for name in re.findall(r"\{(\w+)\}", operation.path):
        key = collection.group(1) if name == "id" and collection else name
        if key in ids:
            known[name] = ids[key]
    return known


def _run(
    operation: Any, mode: GenerationMode, headers: dict[str, str], known: dict[str, Any], stats: Counter
) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode), use_known=st.booleans())
    def check(case: Any, use_known: bool) -> None:
        if use_known and known:
            case.path_parameters = {**(case.path_parameters or {}), **known}
        # Schemathesis's WSGI transport asks for gzip but never decodes it, as an HTTP client would: ask for
        # the plain body (compression has its own tests, tests/foundation/test_compression.py).
        response = case.call(headers={"Accept-Encoding": "identity", **headers})
        stats["requests"] += 1
        case.validate_response(response, checks=CHECKS, headers=headers)

    check()


# transaction=True: requests run in autocommit as in production, so a query PostgreSQL refuses (and
# the API answers 400 for) cannot poison the one test-wide transaction for every later request.
@pytest.mark.django_db(transaction=True)
def test_every_operation_answers_as_documented_and_never_5xx(make_user: Any, capsys: Any) -> None:
    world = _world(make_user)
    schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    stats: Counter = Counter()
    failures: list[str] = []
    elsewhere: list[str] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    for operation in operations:
        known = _known_path(operation, world["ids"])
        for role, headers in world["roles"].items():
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                try:
                    _run(operation, mode, headers, known, stats)
                except Unsatisfiable:
                    stats["no_negative_cases"] += 1  # nothing in the operation can be made invalid
                except (Exception, BaseExceptionGroup) as error:  # one failing operation must not hide others
                    text = " | ".join(line.strip() for line in str(error).splitlines() if line.strip())
                    found = f"{operation.label} [{role}, {mode.value}]: {text[:700]}"
                    (elsewhere if _known_elsewhere(operation.label, text) else failures).append(found)
    with capsys.disabled():
        print(
            f"\nschemathesis: {stats['requests']} requests over {len(operations)} operations "
            f"× {len(world['roles'])} roles; {len(failures)} failures; {len(elsewhere)} known elsewhere"
        )
        for failure in failures:
            print("  " + failure)
        for failure in elsewhere:
            print("  known elsewhere: " + failure[:200])
    assert len(operations) >= 45
    assert not failures, "\n".join(failures)
