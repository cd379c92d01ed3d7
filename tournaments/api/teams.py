"""/api/tournaments/{id}/teams/: a team event's teams (register: organizers) and team standings;
/api/tournaments/team-check/: the deck builder's live check of a deck against the teammates' decks."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.fields import StrictCharField, StrictSlugField
from config.throttles import DeckCheckThrottle
from decks.models import Deck

from .. import services
from ..models import Tournament
from ..permissions import require_organizer
from .common import TournamentApiView, errors, parse


class TeamInSerializer(serializers.Serializer):
    name = StrictCharField(max_length=100)
    members = serializers.ListField(child=StrictCharField(max_length=150), min_length=2, max_length=3,
                                    help_text="usernames, in seat order (A, B, C)")  # fmt: skip
    decks = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1), required=False, max_length=3,
        help_text="deck ids, one per member in the same order",
    )  # fmt: skip


class TeamMemberOutSerializer(serializers.Serializer):
    seat = StrictCharField(help_text="A, B or C: who plays whom in a team match")
    player = serializers.IntegerField()
    name = StrictCharField()
    user = StrictCharField(allow_null=True)


class TeamRowOutSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="after a top cut: the cut's teams first, by how far each went")
    swiss_rank = serializers.IntegerField(help_text="the place in the Swiss team standings")
    top_cut = StrictCharField(
        allow_null=True, help_text="winner / final / semifinal / …; null outside the cut"
    )
    team = serializers.IntegerField()
    name = StrictCharField()
    points = serializers.IntegerField(help_text="3 per team match won (most seat matches), 1 per draw")
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    omw = serializers.FloatField(help_text="opponent teams' match-win percentage (each at least 1/3)")
    seat_win = serializers.FloatField(help_text="share of seat matches won")
    members = TeamMemberOutSerializer(many=True)


class TeamsOutSerializer(serializers.Serializer):
    teams = TeamRowOutSerializer(many=True, help_text="in team standings order")


class TeamInvitedOutSerializer(serializers.Serializer):
    team = serializers.IntegerField()
    name = StrictCharField()
    invited = serializers.ListField(
        child=StrictCharField(), help_text="usernames asked to accept on their phones, in seat order"
    )


class TeamsView(TournamentApiView, APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="tournaments_teams_list", responses={200: TeamsOutSerializer, **errors(404)})
    def get(self, request: Request, pk: str) -> Response:
        """The teams in standings order: points, opponents' match-win %, seat matches won."""
        tournament = get_object_or_404(Tournament, pk=pk)
        return Response(TeamsOutSerializer({"teams": services.team_standings_rows(tournament)}).data)

    @extend_schema(
        operation_id="tournaments_teams_register",
        request=TeamInSerializer,
        responses={201: TeamsOutSerializer, 202: TeamInvitedOutSerializer, **errors(400, 401, 403, 404)},
        examples=[OpenApiExample("trio", value={"name": "Blue Moon", "members": ["ann", "boris", "chen"],
                                                "decks": [11, 12, 13]}, request_only=True)],
    )  # fmt: skip
    def post(self, request: Request, pk: str) -> Response:
        """Organizers: register a team. ``decks`` are either your own copies of the members' lists (entered by
        hand: registered at once, marked "entered by the organizer", checked together by the format's team
        rule — a 400 names the card and both decks) or each member's own deck: then nothing is registered
        until each member accepts on their phone (202, the invited usernames)."""

        tournament = get_object_or_404(Tournament, pk=pk)
        require_organizer(tournament, request.user)
        v = parse(TeamInSerializer, request)
        users = {
            u.username: u for u in get_user_model().objects.filter(username__in=v["members"], is_active=True)
        }
        missing = [name for name in v["members"] if name not in users]
        if missing:
            raise NotFound({"members": f"no account named {', '.join(missing)}"})
        seated = [users[n] for n in v["members"]]
        ids = v.get("decks", [])
        found = Deck.objects.in_bulk(ids)
        decks = [found.get(deck_id) for deck_id in ids]
        if (
            decks
            and len(decks) == len(seated)
            and all(d is not None and d.owner_id == m.pk for d, m in zip(decks, seated, strict=True))
        ):
            # Each member's own deck: nothing is registered until each accepts on their phone (the organizer
            # never reads the decks; the team rule is checked as each list is registered).
            team = services.team_invite_by_organizer(
                tournament=tournament, by=request.user, name=v["name"], members=seated, decks=decks
            )
            return Response(
                TeamInvitedOutSerializer(
                    {"team": team.pk, "name": team.name, "invited": [m.username for m in seated]}
                ).data,
                status=status.HTTP_202_ACCEPTED,
            )
        for deck_id, deck in zip(ids, decks, strict=True):
            # Otherwise only the organizer's own copies (lists entered by hand, marked so on every page).
            if deck is None or deck.owner_id != request.user.pk:
                raise serializers.ValidationError(
                    {"decks": f"no deck {deck_id} of yours: give your own copy for every member, or each "
                              "member's own deck (they then accept on their phones)"}
                )  # fmt: skip
        services.team_register(
            tournament=tournament, by=request.user, name=v["name"], members=seated,
            decks=decks,
        )  # fmt: skip
        return Response(
            TeamsOutSerializer({"teams": services.team_standings_rows(tournament)}).data,
            status=status.HTTP_201_CREATED,
        )


class TeamCheckInSerializer(serializers.Serializer):
    deck = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, help_text="the deck being built (yours)"
    )
    format = StrictSlugField(
        required=False, help_text="the format chosen in the builder (default the deck's)"
    )
    sections = serializers.DictField(
        child=serializers.ListField(child=serializers.DictField(), max_length=500), required=False,
        help_text="the builder's unsaved lines {slug: [{card, count}]} (default the saved deck)",
    )  # fmt: skip
    tournament = serializers.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1,
        help_text="a team event you are on: its format, and your teammates' registered decks",
    )  # fmt: skip
    decks = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1), required=False, min_length=1,
        max_length=2, help_text="teammates' decks you can read (their own, public or shared by link)",
    )  # fmt: skip
    at_least_one_of = ("tournament", "decks")  # validate() refuses neither

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("tournament") and not attrs.get("decks"):
            raise serializers.ValidationError(_("Choose a team event or give your teammates' decks."))
        sections = attrs.get("sections") or {}
        if len(sections) > 20 or sum(len(lines) for lines in sections.values()) > 500:
            raise serializers.ValidationError({"sections": _("At most 20 sections and 500 card lines.")})
        return attrs


class TeamConflictOutSerializer(serializers.Serializer):
    card = StrictCharField()
    decks = serializers.ListField(child=StrictCharField(), help_text="the two decks holding the card")
    message = StrictCharField()


class TeamCheckOutSerializer(serializers.Serializer):
    format = StrictCharField()
    rule = serializers.BooleanField(help_text="whether the format has a team deck rule at all")
    decks = serializers.ListField(child=StrictCharField(), help_text="the decks checked together")
    conflicts = TeamConflictOutSerializer(many=True)


class TeamEventOptionOutSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = StrictCharField()
    game = StrictCharField()
    format = StrictCharField()
    team = StrictCharField()
    seat = StrictCharField()
    rule = serializers.BooleanField()
    teammates = serializers.ListField(child=serializers.DictField())


class TeamCheckOptionsOutSerializer(serializers.Serializer):
    events = TeamEventOptionOutSerializer(many=True)


class TeamDeckCheckView(TournamentApiView, APIView):
    """The deck builder's team check: a deck against the teammates' decks, by the format's team rule."""

    permission_classes = [IsAuthenticated]

    def get_throttles(self) -> list[Any]:
        # The check (POST) resolves whole lists, like POST /api/decks/validate/; the list of events is a read.
        return [DeckCheckThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="tournaments_team_check_events", responses={200: TeamCheckOptionsOutSerializer}
    )
    def get(self, request: Request) -> Response:
        """Your unfinished team events, with your teammates and whether each registered a deck."""
        return Response(
            TeamCheckOptionsOutSerializer({"events": services.team_check_events(request.user)}).data
        )

    @extend_schema(
        operation_id="tournaments_team_check",
        request=TeamCheckInSerializer,
        responses={200: TeamCheckOutSerializer, **errors(400, 401, 403, 404, 429)},
    )
    def post(self, request: Request) -> Response:
        """Check your deck (with the builder's unsaved lines) against your teammates' decks: every card both
        hold that the team rule forbids (unified construction), naming the card and both decks."""

        from ..printables.decklists import snapshot_from_deck, snapshot_from_payload

        v = parse(TeamCheckInSerializer, request)
        deck = Deck.objects.select_related("game").filter(pk=v["deck"]).first()
        if deck is None or not deck.editable_by(request.user):
            return Response({"detail": _("No deck %(id)s of yours.") % {"id": v["deck"]}}, status=404)
        snapshot = (
            snapshot_from_payload(game=deck.game, payload={"sections": v["sections"]})
            if "sections" in v
            else snapshot_from_deck(deck)
        )
        tournament = None
        if v.get("tournament"):
            tournament = get_object_or_404(Tournament, pk=v["tournament"])
        others = []
        for deck_id in v.get("decks", []):
            other = Deck.objects.filter(pk=deck_id).first()
            if other is None or not other.readable_by(request.user) or other.pk == deck.pk:
                raise serializers.ValidationError(
                    {"decks": _("No other deck %(id)s you can read.") % {"id": deck_id}}
                )
            others.append(other)
        result = services.team_deck_check(
            user=request.user, game=deck.game, format_slug=v.get("format") or deck.format_slug, label=deck.name,
            snapshot=snapshot, tournament=tournament, decks=others,
        )  # fmt: skip
        return Response(TeamCheckOutSerializer(result).data)
