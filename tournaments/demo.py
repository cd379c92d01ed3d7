"""Demo event for `manage.py load_demo`: a finished 8-player Caster Chronicles Swiss with a top 4.

Owned by the demo organizer ("organizer", created with an unusable password if missing). Idempotent: the
event is recognised by its name and organizer and left alone when it exists. Results come from a seeded
random generator, so every fresh database gets the same event.
"""

from __future__ import annotations

import random
from typing import TextIO

from django.db import transaction

from accounts.models import User
from cards.models import Game

from . import services
from .models import Tournament

DEMO_ORGANIZER = "organizer"
DEMO_NAME = "Demo: Caster Chronicles Friday Swiss"
PLAYERS = ["Alina", "Boris", "Clara", "Dmitri", "Elena", "Fyodor", "Galina", "Hugo"]


def _organizer() -> User:
    user = User.objects.filter(username=DEMO_ORGANIZER).first()
    if user is None:
        user = User(username=DEMO_ORGANIZER, is_organizer=True)
        user.set_unusable_password()
        user.save()
    elif not user.can_organize:
        user.is_organizer = True
        user.save(update_fields=["is_organizer"])
    return user


def _result(rng: random.Random) -> list[int]:
    return rng.choice([[2, 0], [2, 1], [1, 2], [0, 2], [2, 1]])


@transaction.atomic
def load(stdout: TextIO) -> None:
    game = Game.objects.filter(slug="caster").first()
    if game is None:
        stdout.write("tournaments: no game 'caster' (rule set missing?), demo event skipped\n")
        return
    organizer = _organizer()
    if Tournament.objects.filter(name=DEMO_NAME, created_by=organizer).exists():
        stdout.write("tournaments: demo event already present\n")
        return
    event = services.tournament_create(
        created_by=organizer,
        name=DEMO_NAME,
        game=game,
        format_slug="standard",
        rounds=3,
        top_cut=4,
        seed=2026,
    )
    for name in PLAYERS:
        services.player_register(tournament=event, by=organizer, name=name)
    rng = random.Random(2026)
    for _ in range(3):
        round_ = services.round_pair_next(tournament=event, by=organizer)
        for match in round_.matches.filter(bye=False).order_by("table"):
            services.match_report_result(match=match, by=organizer, wins=_result(rng))
    round_ = services.topcut_start(tournament=event, by=organizer)
    while True:
        for match in round_.matches.filter(bye=False).order_by("table"):
            services.match_report_result(
                match=match, by=organizer, wins=rng.choice([[2, 0], [2, 1], [0, 2], [1, 2]])
            )
        if round_.matches.count() == 1:
            break
        round_ = services.topcut_advance(tournament=event, by=organizer)
    services.tournament_finish(tournament=event, by=organizer)
    stdout.write(f"tournaments: demo event {DEMO_NAME!r} with {len(PLAYERS)} players, 3 rounds and a top 4\n")
