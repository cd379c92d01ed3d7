"""/api/tournaments/{id}/phases/ and /api/tournaments/{id}/rounds/{n}/report/: an event's chain of Swiss
phases (cut by points and/or rank, points carried over or reset) and each round's public pairing report."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.fields import StrictCharField

from .. import services
from ..models import Phase, Round, Tournament
from ..pairings import report as pairing_report
from ..pairings.team_report import report_of_round
from ..reads import phases
from .common import ROUND_NUMBER, TournamentApiView, errors, parse
from .teams import TeamRowOutSerializer


class AdvanceInSerializer(serializers.Serializer):
    min_points = serializers.IntegerField(required=False, min_value=0, max_value=10_000)
    top = serializers.IntegerField(required=False, min_value=2, max_value=100_000)
    min_count = serializers.IntegerField(required=False, min_value=2, max_value=100_000)


class PhaseInSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["swiss", "single_elim"])
    rounds = serializers.IntegerField(required=False, min_value=1, max_value=20)
    advance = AdvanceInSerializer(required=False)
    points = serializers.ChoiceField(choices=["carry", "reset"], required=False, default="carry")
    size = serializers.IntegerField(
        required=False, min_value=2, max_value=64, help_text="single_elim: players"
    )
    required_when = ("kind", {"swiss": ("rounds",), "single_elim": ("size",)})  # post() refuses the rest


class PhaseOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = StrictCharField()
    rounds = serializers.ListField(child=serializers.IntegerField(), help_text="Swiss round numbers")
    advance = serializers.DictField(help_text="min_points / top / min_count, as set")
    points = StrictCharField(help_text="carry or reset")
    entrants = serializers.IntegerField(allow_null=True, help_text="players who made the cut (once started)")


class PhaseStandingOutSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = StrictCharField()
    points = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()


class PhasesOutSerializer(serializers.Serializer):
    phases = PhaseOutSerializer(many=True)


class PhaseDetailOutSerializer(PhaseOutSerializer):
    standings = PhaseStandingOutSerializer(many=True)
    teams = TeamRowOutSerializer(
        many=True, required=False, help_text="team events: the phase's team standings"
    )


class PersonOutSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = StrictCharField()


class ByeOutSerializer(PersonOutSerializer):
    points = serializers.IntegerField()
    reason = serializers.ChoiceField(
        choices=[
            pairing_report.BYE_LOWEST,
            pairing_report.BYE_LOWER_HAD_BYES,
            pairing_report.BYE_AVOIDS_REMATCH,
        ]
    )


class RematchOutSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    players = PersonOutSerializer(many=True)


class PairingReportOutSerializer(serializers.Serializer):
    rematches = RematchOutSerializer(many=True, help_text="pairs who had met before (empty when none)")
    byes = ByeOutSerializer(many=True)
    pair_downs = serializers.IntegerField(help_text="score-group boundaries crossed by the round's pairs")
    pair_downs_lower_bound = serializers.IntegerField(help_text="fewest any pairing of the round could cross")
    seed = serializers.IntegerField(help_text="reproduces the round: manage.py pairing_verify")
    manual_changes = serializers.ListField(child=serializers.DictField())
    teams = serializers.BooleanField(
        required=False,
        help_text="team events only (true): each player above is a team, each table a team table",
    )


def phase_payloads(tournament: Tournament) -> list[dict[str, Any]]:
    added = list(tournament.phases.order_by("number"))
    first_end = added[0].first_round - 1 if added else tournament.rounds or 0
    rows: list[dict[str, Any]] = [
        {"number": 1, "kind": "swiss", "rounds": list(range(1, first_end + 1)), "advance": {},
         "points": "carry", "entrants": None}
    ]  # fmt: skip
    for phase in added:
        advance = {
            k: getattr(phase, k) for k in ("min_points", "top", "min_count") if getattr(phase, k) is not None
        }
        rows.append({
            "number": phase.number, "kind": phase.kind,
            "rounds": list(range(phase.first_round, phase.last_round + 1)), "advance": advance,
            "points": "carry" if phase.carry_points else "reset",
            "entrants": len(phase.entrants) if phase.entrants is not None else None,
        })  # fmt: skip
    if tournament.top_cut:
        rows.append({"number": len(rows) + 1, "kind": "single_elim", "rounds": [], "advance": {"top": tournament.top_cut},
                     "points": "carry", "entrants": tournament.top_cut})  # fmt: skip
    return rows


class PhasesView(TournamentApiView, APIView):
    """An event's phases: Swiss (the first rounds), more Swiss after a cut, a single-elimination cut."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="tournaments_phases_list", responses={200: PhasesOutSerializer, **errors(404)}
    )
    def get(self, request: Request, pk: str) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        return Response(PhasesOutSerializer({"phases": phase_payloads(tournament)}).data)

    @extend_schema(
        operation_id="tournaments_phases_create",
        request=PhaseInSerializer,
        responses={201: PhasesOutSerializer, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample("day 2", value={"kind": "swiss", "rounds": 2, "advance": {"min_points": 6}}, request_only=True),
            OpenApiExample("top 12", value={"kind": "single_elim", "size": 12}, request_only=True),
        ],
    )  # fmt: skip
    def post(self, request: Request, pk: str) -> Response:
        """Organizers: add a Swiss phase after the current last Swiss round (``advance``: who is paired in it,
        ``points``: carried over or reset), or set the closing single-elimination cut (``size``: any, the top
        seeds get byes when it is not a power of two)."""
        tournament = get_object_or_404(Tournament, pk=pk)
        v = parse(PhaseInSerializer, request)
        if v["kind"] == "single_elim":
            if "size" not in v:
                raise serializers.ValidationError({"size": _("Give the number of players in the cut.")})
            services.phase_set_cut(tournament=tournament, by=request.user, size=v["size"])
        else:
            if "rounds" not in v:
                raise serializers.ValidationError({"rounds": _("Give the number of rounds of the phase.")})
            advance = v.get("advance") or {}
            services.phase_create(
                tournament=tournament,
                by=request.user,
                rounds=v["rounds"],
                min_points=advance.get("min_points"),
                top=advance.get("top"),
                min_count=advance.get("min_count"),
                carry_points=v["points"] == "carry",
            )
        tournament.refresh_from_db()
        return Response(
            PhasesOutSerializer({"phases": phase_payloads(tournament)}).data, status=status.HTTP_201_CREATED
        )


class PhaseDetailView(TournamentApiView, APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="tournaments_phase_retrieve", responses={200: PhaseDetailOutSerializer, **errors(404)}
    )
    def get(self, request: Request, pk: str, number: str) -> Response:
        """One phase with its own standings (an added phase counts its rounds and entrants only; the event's
        standings are the overall ones)."""
        tournament = get_object_or_404(Tournament, pk=pk)
        payloads = {str(p["number"]): p for p in phase_payloads(tournament)}
        payload = payloads.get(str(number))
        if payload is None or payload["kind"] != "swiss":
            return Response(
                {"detail": _("No Swiss phase %(n)s.") % {"n": number}}, status=status.HTTP_404_NOT_FOUND
            )
        phase = (
            None
            if payload["number"] == 1
            else Phase.objects.get(tournament=tournament, number=payload["number"])
        )
        rows = phases.phase_rows(tournament, phase)
        standings = [
            {"rank": r.rank, "player": r.player_id, "name": r.name, "points": r.points,
             "wins": r.wins, "losses": r.losses, "draws": r.draws}
            for r in rows
        ]  # fmt: skip
        extra = {}
        if tournament.team_size > 1:
            extra["teams"] = services.team_standings_rows(tournament, phase, phase_one=phase is None)
        return Response(PhaseDetailOutSerializer({**payload, "standings": standings, **extra}).data)


def swiss_round(tournament_pk: str, number: str) -> Round:
    """The two-player Swiss round a report is about (a top-cut or pod round has no pairing report: 404
    naming why); in a team event the report is about its teams."""
    tournament = get_object_or_404(Tournament, pk=tournament_pk)
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )
    if round_.kind != Round.Kind.SWISS or tournament.match_format == Tournament.MatchFormat.PODS:
        raise NotFound(
            _("Round %(n)s is not a two-player Swiss round; pairing reports cover those.")
            % {"n": round_.number}
        )
    return round_


class PairingReportView(TournamentApiView, APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(parameters=[ROUND_NUMBER], responses={200: PairingReportOutSerializer, **errors(400, 404)})
    def get(self, request: Request, pk: str, number: str) -> Response:
        """The public checker report of a Swiss round: rematches, byes and why, pair-downs against their lower
        bound, the seed that reproduces the round, manual changes."""
        report = report_of_round(swiss_round(pk, number))
        return Response(PairingReportOutSerializer(report).data)
