"""Re-run the Swiss rounds of an event from their stored seeds and compare with what was paired.

    manage.py pairing_verify <event id> [--round N]

Prints one line per round ("identical" or the tables that differ) and fails (exit status 1) when any round
differs: a result corrected after the next round was paired, or a pairing changed by hand.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Round, Tournament
from tournaments.pairings.team_report import rerun_of_round


class Command(BaseCommand):
    help = "Re-run an event's Swiss rounds from their stored seeds and compare them bit for bit."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", type=int)
        parser.add_argument("--round", type=int, dest="number")

    def handle(self, *args: Any, tournament: int, number: int | None, **options: Any) -> None:
        event = Tournament.objects.filter(pk=tournament).first()
        if event is None:
            raise CommandError(f"no event {tournament}")
        if event.match_format == Tournament.MatchFormat.PODS:
            raise CommandError("pod rounds are not paired by the Swiss engine")
        rounds = event.round_set.filter(kind=Round.Kind.SWISS).order_by("number")
        if number is not None:
            rounds = rounds.filter(number=number)
            if not rounds.exists():
                raise CommandError(f"event {tournament} has no Swiss round {number}")
        differing = []
        for round_ in rounds:
            rerun = rerun_of_round(round_)
            if rerun.identical:
                self.stdout.write(f"round {round_.number} (seed {round_.seed}): identical")
                continue
            differing.append(round_.number)
            self.stdout.write(f"round {round_.number} (seed {round_.seed}): DIFFERENT {rerun.error}")
            for line in rerun.differences:
                self.stdout.write(f"  {line}")
        if differing:
            raise CommandError(f"rounds {', '.join(map(str, differing))} differ from a rerun of their seed")
