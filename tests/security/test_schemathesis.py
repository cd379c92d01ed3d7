"""schemathesis over every operation of the API, as anonymous, player and organizer in turn (staff too in
bench/bench_schemathesis.py).

Every generated request (valid and invalid data) must get an answer that is no server error and that
the schema documents — the status, the content type, the headers and the body's shape — and the API must
accept what the schema allows and refuse what it forbids. Path ids of valid cases are half of the time the
ids of real objects, so the checks also reach past the 404s. Prints the figures for the report.
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
from schemathesis import checks as st_checks  # noqa: E402

# Every check of `st run --checks all` that a stateless run can make: no server error; the status, content
# type, headers and body as documented; a request the schema allows is accepted (positive data) and one it
# forbids refused (negative data); a missing required header and an undeclared method refused, with an Allow
# header naming the documented methods; and authentication enforced where the schema requires it (each 2xx
# with a token is sent again without it and with a wrong one: ignored_auth). Left out only what needs a
# stateful run or configured identities: use_after_free and ensure_resource_availability follow links
# between operations, object_level_authorization needs peer identities. The statuses a schema-valid request
# may get are set in schemathesis.toml (which also says why 422 is one of them), read by `st run` too.
CHECKS = [
    st_checks.not_a_server_error,
    st_checks.status_code_conformance,
    st_checks.content_type_conformance,
    st_checks.response_schema_conformance,
    st_checks.response_headers_conformance,
    st_checks.negative_data_rejection,
    st_checks.positive_data_acceptance,
    st_checks.missing_required_header,
    st_checks.unsupported_method,
    st_checks.allow_header_conformance,
    st_checks.ignored_auth,
]
# Examples per operation, role and generation mode; SCHEMATHESIS_EXAMPLES raises it for a longer hunt.
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "1"))
# The suite's bounded pass ("rotate"): each operation as one of anonymous / player / organizer in turn, so
# the three identities are all exercised over the schema in about a minute; the bench names all four roles
# for every operation.
ROLES = os.environ.get("SCHEMATHESIS_ROLES", "rotate").split(",")
ROTATION = ["anonymous", "player", "organizer"]


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
            # Path parameters travel as text and the schema types them as strings: an int here would make
            # schemathesis re-judge the case as schema-violating.
            known[name] = str(ids[key])
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
        # Real ids reach past the 404s; only for valid data: in a negative case the path may be the very part
        # made invalid, and replacing it would send a valid request the negative check expects refused.
        if use_known and known and mode == GenerationMode.POSITIVE:
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
    operations = [result.ok() for result in schema.get_all_operations()]
    # SCHEMATHESIS_ONLY=<text>: only the operations whose label contains it (to look into one failure).
    only = os.environ.get("SCHEMATHESIS_ONLY", "")
    for index, operation in enumerate(operations):
        if only and only not in operation.label:
            continue
        known = _known_path(operation, world["ids"])
        roles = [ROTATION[index % len(ROTATION)]] if ROLES == ["rotate"] else ROLES
        for role, headers in [(r, world["roles"][r]) for r in roles]:
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                try:
                    _run(operation, mode, headers, known, stats)
                except Unsatisfiable:
                    stats["no_negative_cases"] += 1  # nothing in the operation can be made invalid
                except (Exception, BaseExceptionGroup) as error:  # one failing operation must not hide others
                    text = " | ".join(line.strip() for line in str(error).splitlines() if line.strip())
                    found = f"{operation.label} [{role}, {mode.value}]: {text[: int(os.environ.get('SCHEMATHESIS_TEXT', '700'))]}"
                    failures.append(found)
    with capsys.disabled():
        print(
            f"\nschemathesis: {stats['requests']} requests over {len(operations)} operations "
            f"× roles {','.join(ROLES)}; {len(failures)} failures"
        )
        for failure in failures:
            print("  " + failure)
    assert len(operations) >= 45 and stats["requests"] > 0
    assert not failures, "\n".join(failures)
