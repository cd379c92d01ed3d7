"""A Prepared lookup (config/prepared.py) answers what the ORM answers for the same queryset — every column
converted as Django converts it, select_related relations filled — in one statement, from any thread."""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from config.prepared import Prepared


@pytest.fixture
def entries(games: dict[str, Any], make_user: Any) -> dict[str, Any]:
    from tournaments.models import Player, Tournament

    alice, bob = make_user("alice"), make_user("bob")
    tournament = Tournament.objects.create(
        name="Friday <draft>",
        game=games["mtg"],
        format_slug="draft",
        tiebreakers="mtg",
        seed=7,
        created_by=alice,
    )
    a = Player.objects.create(
        tournament=tournament, user=alice, name="Alice", pool={"td-001": 2}, no_show=True, fixed_table=4
    )
    b = Player.objects.create(tournament=tournament, user=bob, name="Bob")
    return {"tournament": tournament, "alice": alice, "bob": bob, "a": a, "b": b}


def _player() -> Prepared[Any]:
    from tournaments.models import Player

    return Prepared(
        lambda tournament, user: (
            Player.objects.select_related("tournament__game")
            .filter(tournament_id=tournament, user_id=user)
            .order_by()[:1]
        ),
        int,
        int,
    )


def test_it_answers_the_instance_the_orm_answers(entries: dict[str, Any]) -> None:
    from tournaments.models import Player

    lookup = _player()
    for user in (entries["alice"], entries["bob"]):
        orm = Player.objects.select_related("tournament__game").get(
            tournament=entries["tournament"], user=user
        )
        got = lookup.first(entries["tournament"].pk, user.pk)
        assert got is not None and got.pk == orm.pk
        for field in Player._meta.concrete_fields:
            assert getattr(got, field.attname) == getattr(orm, field.attname), field.name
        assert isinstance(got.registered_at, datetime) and got.registered_at.tzinfo is not None
        assert got.tournament.name == "Friday <draft>" and got.tournament.game.slug == "mtg"
    alice = lookup.first(entries["tournament"].pk, entries["alice"].pk)
    assert alice.pool == {"td-001": 2} and alice.no_show is True and alice.fixed_table == 4
    assert alice._state.adding is False and alice._state.db == "default"


def test_it_runs_one_statement_per_call_and_answers_none_for_no_row(entries: dict[str, Any]) -> None:
    lookup = _player()
    lookup.first(entries["tournament"].pk, entries["alice"].pk)  # compiled here
    with CaptureQueriesContext(connection) as queries:
        assert lookup.first(entries["tournament"].pk, 999_999) is None
        assert lookup.first(entries["tournament"].pk + 1, entries["alice"].pk) is None
        assert lookup.first(entries["tournament"].pk, entries["bob"].pk).name == "Bob"
    assert len(queries.captured_queries) == 3
    # A number no 64-bit column holds names no row, without asking the database (which would refuse it).
    with CaptureQueriesContext(connection) as queries:
        assert lookup.first(2**63, entries["alice"].pk) is None
        assert lookup.first(entries["tournament"].pk, -(10**30)) is None
    assert queries.captured_queries == []


def test_it_refuses_values_of_another_type(entries: dict[str, Any]) -> None:
    lookup = _player()
    for bad in (("1", 2), (1.5, 2), (True, 2), (1,), (1, 2, 3), (None, 2)):
        with pytest.raises(TypeError):
            lookup.first(*bad)


def test_it_refuses_a_lookup_whose_arguments_it_cannot_place(entries: dict[str, Any]) -> None:
    from tournaments.models import Player

    twice = Prepared(lambda user: Player.objects.filter(Q(user_id=user) | Q(tournament_id=user)), int)
    with pytest.raises(ValueError, match="each argument must appear once"):
        twice.first(entries["alice"].pk)
    with pytest.raises(TypeError):
        Prepared(lambda when: Player.objects.filter(registered_at=when), datetime)


def test_a_text_argument_is_bound_as_given(entries: dict[str, Any]) -> None:
    from tournaments.models import Player

    by_name = Prepared(
        lambda tournament, name: Player.objects.filter(tournament_id=tournament, name=name), int, str
    )
    assert [p.pk for p in by_name.all(entries["tournament"].pk, "Bob")] == [entries["b"].pk]
    assert by_name.all(entries["tournament"].pk, "Bob' OR '1'='1") == []


@pytest.mark.django_db(transaction=True)
def test_a_lookup_compiled_in_one_thread_serves_another(entries: dict[str, Any]) -> None:
    lookup = _player()
    ids = (entries["tournament"].pk, entries["alice"].pk)
    assert lookup.first(*ids).name == "Alice"
    seen: list[Any] = []

    def other() -> None:
        try:
            seen.append(lookup.first(*ids))
        finally:
            connection.close()

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert seen[0].name == "Alice" and seen[0].registered_at == lookup.first(*ids).registered_at
