"""Every request and response shape of the tournament API, one definition each.

Input serializers parse and bound what clients send; output serializers *produce* the responses
(``MatchOutSerializer(payload).data``), and the OpenAPI schema is generated from the same classes, so the
documentation cannot drift from what the API answers. Outputs read either model instances (tournaments,
players, audit rows) or the plain payloads built in ``selectors`` (matches and rounds: a 4,096-player round
is read with two queries, not 6,000 model instances).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.fields import StrictCharField, StrictSlugField
from config.parsers import DepthLimitedJSONField

from .models import Match, Player, ResultChange, Round, Tournament
from .permissions import DECKLIST_LEVELS, DECKLIST_STAGES, decklist_timeline, is_organizer

MAX_ID = 2**63 - 1

# --- inputs -----------------------------------------------------------------------------------------------


class StrictBooleanField(serializers.BooleanField):
    """true/false (and a form's "true"/"false"), never a number the schema does not allow."""

    def to_internal_value(self, data: Any) -> bool:
        if isinstance(data, int | float) and not isinstance(data, bool):
            self.fail("invalid", input=data)
        return super().to_internal_value(data)


def _id(**kw: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kw)


@extend_schema_field(
    {
        "type": "object",
        "properties": {stage: {"type": "string", "enum": list(DECKLIST_LEVELS)} for stage in DECKLIST_STAGES},
        "additionalProperties": False,
    }
)
class DecklistTimelineField(serializers.DictField):
    """{"registration"|"swiss"|"top_cut"|"finished": "closed"|"archetypes"|"open"}; stages left out are closed."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(child=StrictCharField(), **kw)

    def to_internal_value(self, data: Any) -> dict[str, str]:
        value = super().to_internal_value(data)
        errors = [f"unknown stage {k!r} (stages: {', '.join(DECKLIST_STAGES)})" for k in value
                  if k not in DECKLIST_STAGES]  # fmt: skip
        errors += [f"{k}: unknown level {v!r} (levels: {', '.join(DECKLIST_LEVELS)})" for k, v in value.items()
                   if k in DECKLIST_STAGES and v not in DECKLIST_LEVELS]  # fmt: skip
        if errors:
            raise serializers.ValidationError(errors)
        return {stage: value.get(stage, "closed") for stage in DECKLIST_STAGES}


DECKLISTS_HELP = (
    "What the public sees of the lists per stage: closed, archetypes or open (top_cut: the cut's lists). "
    "A list goes public only with its player's publish_consent."
)


class TournamentInSerializer(serializers.Serializer):
    name = StrictCharField(max_length=200)
    game = StrictSlugField()
    format = StrictSlugField()
    match_format = serializers.ChoiceField(choices=Tournament.MatchFormat.values, required=False)
    tiebreakers = serializers.ChoiceField(choices=Tournament.Tiebreakers.values, required=False)
    rounds = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=30, help_text="blank: from attendance"
    )
    top_cut = serializers.IntegerField(required=False, min_value=0, max_value=64, default=0)
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=2**62 - 1)
    deck_registration = StrictBooleanField(required=False, default=False)
    registration_deadline = serializers.DateTimeField(required=False, allow_null=True)
    on_date = serializers.DateField(required=False, allow_null=True)
    allow_sideboard = StrictBooleanField(required=False, default=False)
    rated = StrictBooleanField(required=False, default=True, help_text="the event moves players' ratings")
    late_entry_losses = StrictBooleanField(required=False, default=True)
    publish_decklists = StrictBooleanField(required=False, default=False)
    decklists = DecklistTimelineField(required=False, help_text=DECKLISTS_HELP)
    round_minutes = serializers.IntegerField(required=False, default=50, min_value=1, max_value=600)
    draft_pairings = StrictBooleanField(
        required=False, default=False, help_text="Rounds are paired as drafts the organizers publish."
    )
    team_size = serializers.IntegerField(
        required=False, default=1, min_value=1, max_value=3, help_text="2 or 3: a team event (1: no teams)"
    )
    team_mode = serializers.ChoiceField(
        choices=["seats", "2hg"], required=False, default="seats",
        help_text="seats: a team match is won by most seat matches; 2hg: Two-Headed Giant, one shared game "
        "per team pairing (team_size 2)",
    )  # fmt: skip
    capacity = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=100_000,
        help_text="A player cap; joins past it go to the waitlist (null: no cap).",
    )  # fmt: skip
    late_entry_until_round = serializers.IntegerField(
        required=False, default=2, min_value=0, max_value=30,
        help_text="Late entries (join code, organizers adding accounts) until the end of this round; 0: none.",
    )  # fmt: skip


_ID = {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}
# A card in an inline list: its database id, or its id in the game (a passcode, a name).
_CARD_REF = {"oneOf": [_ID, {"type": "string", "minLength": 1}]}


@extend_schema_field(
    {
        "nullable": True,
        "oneOf": [
            {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
            {
                "type": "object",
                "required": ["sections"],
                "properties": {
                    "hero": {**_CARD_REF, "nullable": True},
                    "co_heroes": {"type": "array", "items": _CARD_REF},
                    "sections": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["card"],
                                "properties": {
                                    "card": _CARD_REF,
                                    "count": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
                                },
                            },
                        },
                    },
                },
            },
        ],
    }
)
class DeckRefField(DepthLimitedJSONField):
    """A deck id, or an inline list (tournaments/api/events.py deck_arg reads it)."""


DECK_HELP = (
    "A deck id of yours, or an inline list {hero?, co_heroes?: [card], sections: {slug: [{card, count}]}} "
    "(co_heroes: partner commanders beside the hero)."
)


CONSENT_HELP = "May the public see your list at the stages where the event opens lists? (null: not asked)"


class TournamentPatchInSerializer(serializers.Serializer):
    decklists = DecklistTimelineField(required=False, help_text=DECKLISTS_HELP)
    publish_decklists = StrictBooleanField(required=False)
    name = StrictCharField(max_length=200, required=False)
    rated = StrictBooleanField(required=False, help_text="the event moves players' ratings")


class PlayerInSerializer(serializers.Serializer):
    name = StrictCharField(max_length=150, required=False, allow_blank=True)
    username = StrictCharField(
        max_length=150, required=False,
        help_text="Organizers: add this existing account (before the start, or as a late entry).",
    )  # fmt: skip
    code = StrictCharField(
        max_length=32, required=False, allow_blank=True,
        help_text="The event's join code: needed to register yourself (organizers need none).",
    )  # fmt: skip
    deck = DeckRefField(required=False, allow_null=True, help_text=DECK_HELP)
    pool = DepthLimitedJSONField(
        required=False,
        allow_null=True,
        help_text="Limited formats: the product the player received, {sections: {slug: [{card, count}]}}.",
    )
    publish_consent = StrictBooleanField(required=False, allow_null=True, help_text=CONSENT_HELP)


class JoinInSerializer(serializers.Serializer):
    code = StrictCharField(max_length=32, help_text="The event's join code (case and dashes ignored).")
    deck = DeckRefField(required=False, allow_null=True, help_text=DECK_HELP)
    list = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=200_000,
        help_text="A pasted deck list in any supported format.",
    )
    claim = _id(required=False, help_text='The id of a guest entry under your name: "this is me".')
    new_entry = StrictBooleanField(
        required=False, default=False, help_text="Join as a new entry although a guest entry has your name."
    )
    publish_consent = StrictBooleanField(required=False, allow_null=True, help_text=CONSENT_HELP)


class LinkInSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150, help_text="The account the guest entry now belongs to.")


class BulkPlayersInSerializer(serializers.Serializer):
    names = serializers.ListField(
        child=StrictCharField(max_length=150, allow_blank=True), required=False, max_length=512
    )
    csv = StrictCharField(
        required=False, max_length=2_000_000, help_text="Rows of name[,deck list]; a header row is skipped."
    )
    exactly_one_of = ("names", "csv")  # the bulk view refuses both or neither


class CheckInInSerializer(serializers.Serializer):
    present = StrictBooleanField(required=False, default=True)


class RenameInSerializer(serializers.Serializer):
    name = StrictCharField(max_length=150)


_COUNT = {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}


@extend_schema_field(
    {
        "type": "object",
        "properties": {
            "winner": {**_ID, "nullable": True},
            "first": _ID,
            "chooser": {**_ID, "nullable": True},
        },
        "required": ["winner", "first"],
    }
)
class ResultGameField(serializers.DictField):
    """One game of a result; services/result_rules.py reads it (players of another match: 422)."""


@extend_schema_field(
    {
        "type": "object",
        "properties": {"player": _ID, "score": _COUNT, "tiebreak": _COUNT, "place": {**_COUNT, "minimum": 1}},
        "required": ["player"],
    }
)
class PodPlaceField(serializers.DictField):
    """One player's place or score in a pod; services/result_rules.py reads it (players of another pod,
    a pod left incomplete: 422)."""


class ResultInSerializer(serializers.Serializer):
    wins = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=99), required=False)
    draws = serializers.IntegerField(required=False, default=0, min_value=0, max_value=99)
    games = serializers.ListField(child=ResultGameField(), required=False, min_length=1, max_length=20)
    places = serializers.ListField(child=PodPlaceField(), required=False, min_length=1, max_length=20)
    reason = StrictCharField(required=False, allow_blank=True, max_length=300)
    # The result is given one way (tournaments/api/matches.py result_input refuses the rest).
    exactly_one_of = ("wins", "games", "places")


class PreviousGameSerializer(serializers.Serializer):
    first = _id(help_text="The player who went first.")
    winner = _id(allow_null=True, help_text="The winner; null for a drawn game.")


class GameInSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=99)
    first = _id(help_text="The player who went first.")
    winner = _id(allow_null=True, help_text="The winner; null for a drawn game.")
    chooser = _id(
        required=False, allow_null=True,
        help_text="Who chose to go first or second (the toss winner; the rule fills in the loser of the previous "
        "game or the higher seed). Leave out where nobody chooses (the twin-deck game).",
    )  # fmt: skip
    previous = PreviousGameSerializer(
        required=False,
        allow_null=True,
        help_text="Game `number` as you last saw it (null: not saved yet). When given and the game was saved "
        "differently meanwhile, the answer is 409 with the current result instead of replacing it.",
    )


class ConfirmInSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        required=False, min_value=0, max_value=2**31 - 1, help_text="The match `version` you are confirming."
    )


class DisputeInSerializer(serializers.Serializer):
    reason = StrictCharField(required=False, allow_blank=True, max_length=300)


class FinishInSerializer(serializers.Serializer):
    how = serializers.ChoiceField(choices=("time", "concession", "intentional_draw"))
    conceded_by = _id(required=False, help_text="With how=concession: the player who concedes.")


class TimerInSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=600)


class SideboardInSerializer(serializers.Serializer):
    player = _id()
    game_number = serializers.IntegerField(min_value=1, max_value=99)
    swaps = serializers.ListField(child=serializers.DictField(), max_length=100)


# --- outputs ----------------------------------------------------------------------------------------------


class TournamentOutSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = StrictCharField()
    game = StrictSlugField(source="game.slug")
    format = StrictSlugField(source="format_slug")
    match_format = serializers.ChoiceField(choices=Tournament.MatchFormat.values)
    tiebreakers = serializers.ChoiceField(choices=Tournament.Tiebreakers.values)
    rounds = serializers.IntegerField(allow_null=True)
    top_cut = serializers.IntegerField()
    seed = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Tournament.Status.values)
    deck_registration = serializers.BooleanField()
    registration_deadline = serializers.DateTimeField(allow_null=True)
    banlist = serializers.IntegerField(source="banlist_id", allow_null=True)
    on_date = serializers.DateField(allow_null=True)
    allow_sideboard = serializers.BooleanField()
    rated = serializers.BooleanField()
    late_entry_losses = serializers.BooleanField()
    publish_decklists = serializers.BooleanField()
    decklists = serializers.SerializerMethodField(help_text=DECKLISTS_HELP)
    round_minutes = serializers.IntegerField()
    draft_pairings = serializers.BooleanField()
    team_size = serializers.IntegerField(help_text="1, or the players of each team")
    team_mode = StrictCharField(help_text="seats or 2hg (Two-Headed Giant)")
    capacity = serializers.IntegerField(allow_null=True)
    late_entry_until_round = serializers.IntegerField()
    check_in_open = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField()
    rounds_paired = serializers.SerializerMethodField()
    join_code = serializers.SerializerMethodField(
        help_text="Shown to the event's organizers only (else null)."
    )
    live_version = serializers.IntegerField(help_text="Grows with every visible change of the event.")

    @extend_schema_field(serializers.DictField(child=StrictCharField()))
    def get_decklists(self, t: Tournament) -> dict[str, str]:
        return decklist_timeline(t)

    def get_check_in_open(self, t: Tournament) -> bool:
        return t.check_in_opened_at is not None and t.status == Tournament.Status.REGISTRATION

    def get_players(self, t: Tournament) -> int:
        return t.player_count if hasattr(t, "player_count") else t.players.count()

    def get_rounds_paired(self, t: Tournament) -> int:
        return t.round_count if hasattr(t, "round_count") else t.round_set.count()

    @extend_schema_field(StrictCharField(allow_null=True))
    def get_join_code(self, t: Tournament) -> str | None:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        return t.join_code if user is not None and is_organizer(t, user) else None


class EntryRequestOutSerializer(serializers.Serializer):
    """A registration an organizer asked of a player: nothing is registered until the player accepts."""

    id = serializers.IntegerField(source="pk")
    tournament = serializers.IntegerField(source="tournament_id")
    event = StrictCharField(source="tournament.name")
    username = StrictCharField(source="user.username", help_text="The player asked.")
    requested_by = StrictCharField(source="requested_by.username", allow_null=True, default=None)
    deck = serializers.IntegerField(
        source="deck_id",
        allow_null=True,
        help_text="The player's own deck proposed (registered on accepting).",
    )
    status = serializers.SerializerMethodField(help_text="waiting, accepted or declined.")

    @extend_schema_field(serializers.ChoiceField(choices=("waiting", "accepted", "declined")))
    def get_status(self, r: Any) -> str:
        return "waiting" if r.answered_at is None else ("accepted" if r.accepted else "declined")


class PlayerOutSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = StrictCharField()
    user = serializers.IntegerField(source="user_id", allow_null=True)
    dropped = serializers.BooleanField()
    dropped_at_round = serializers.IntegerField(allow_null=True)
    joined_round = serializers.IntegerField()
    has_deck = serializers.SerializerMethodField()
    deck_entered_by_organizer = serializers.BooleanField(
        help_text="The registered list was entered by an organizer (their own copy), not by the player."
    )
    checked_in = serializers.SerializerMethodField()
    no_show = serializers.BooleanField()
    username = serializers.SerializerMethodField(
        help_text="The account the entry belongs to (null: a guest)."
    )
    status = serializers.SerializerMethodField(help_text="registered, or waitlisted (past the event's cap).")
    waitlist_position = serializers.SerializerMethodField(help_text="1 for the first in line; else null.")
    place = serializers.SerializerMethodField(
        help_text="The final place once the event is finished, else null."
    )
    publish_consent = serializers.BooleanField(allow_null=True, help_text=CONSENT_HELP)

    def get_has_deck(self, p: Player) -> bool:
        return p.deck is not None

    @extend_schema_field(StrictCharField(allow_null=True))
    def get_username(self, p: Player) -> str | None:
        return p.user.username if p.user_id is not None else None

    @extend_schema_field(serializers.ChoiceField(choices=("registered", "waitlisted")))
    def get_status(self, p: Player) -> str:
        return "waitlisted" if p.waitlisted else "registered"

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_waitlist_position(self, p: Player) -> int | None:
        if not p.waitlisted:
            return None
        positions = self.context.get("waitlist")
        if positions is not None:
            return positions.get(p.pk)
        from .services.waitlist import waitlist_position

        return waitlist_position(p)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_place(self, p: Player) -> int | None:
        return self.context.get("places", {}).get(p.pk)

    def get_checked_in(self, p: Player) -> bool:
        return p.checked_in_at is not None


class PlayersOutSerializer(serializers.Serializer):
    players = PlayerOutSerializer(many=True)


class PlaceOutSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    tiebreak = serializers.IntegerField(allow_null=True)


class GameOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    first = serializers.IntegerField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True, help_text="null: a drawn game")
    chooser = serializers.IntegerField(
        allow_null=True, help_text="who chose to go first or second; null where nobody chose or not reported"
    )


class NextFirstOutSerializer(serializers.Serializer):
    toss = serializers.BooleanField(
        help_text="true: nobody lost the previous game (or none was played): toss"
    )
    player = serializers.IntegerField(allow_null=True)
    action = serializers.ChoiceField(choices=("chooses", "goes_first"))


class RoundMatchOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    players = serializers.ListField(
        child=serializers.IntegerField(), help_text="1 id for a bye, 2 for a match, 2–4 for a pod"
    )
    bye = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Match.Status.values)
    wins = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="game wins, order of players"
    )
    draws = serializers.IntegerField(required=False)
    places = PlaceOutSerializer(many=True, required=False)


class MatchOutSerializer(RoundMatchOutSerializer):
    round = serializers.IntegerField(help_text="round number")
    version = serializers.IntegerField(help_text="Changes with every change of the result; confirm names it.")
    games = GameOutSerializer(many=True)
    ended_by = StrictCharField(allow_blank=True, help_text="time, concession or intentional_draw")
    dispute_reason = StrictCharField(allow_blank=True)
    extra_minutes = serializers.IntegerField(help_text="A judge's time extension for this table, in minutes.")
    judge_called = serializers.BooleanField(help_text="A judge call from this table is waiting for a judge.")
    next_first = NextFirstOutSerializer(
        required=False, help_text="Who chooses or goes first in the next game."
    )


class ConflictOutSerializer(serializers.Serializer):
    detail = StrictCharField()
    current = MatchOutSerializer(
        required=False, help_text="the match as it is now, when it changed since you read it"
    )


class RoundOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Round.Kind.values)
    stage = StrictCharField(help_text="Round 3, Quarterfinals, Semifinals, Final …")
    seed = serializers.IntegerField()
    timer_ends_at = serializers.DateTimeField(allow_null=True)
    draft = serializers.BooleanField(
        help_text="Paired as a draft: only the organizers see it until published."
    )
    matches = RoundMatchOutSerializer(many=True)


class RoundsOutSerializer(serializers.Serializer):
    rounds = RoundOutSerializer(many=True)


class TimerOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    timer_ends_at = serializers.DateTimeField(allow_null=True)


STAGES = ("winner", "final", "semifinal", "quarterfinal", "top16", "top32", "top64")


class StandingRowOutSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        help_text="Final place: the top cut by how far each went, then Swiss rank"
    )
    swiss_rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = StrictCharField()
    points = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    dropped = serializers.BooleanField()
    tiebreakers = serializers.DictField(
        child=serializers.FloatField(),
        help_text="mtg: omw, gw, ogw; yugioh: omw, oomw; pokemon: owp, oowp (fractions 0–1); pods: raw totals",
    )
    top_cut = serializers.ChoiceField(
        choices=STAGES, allow_null=True, help_text="How far the player went in the cut"
    )


class StandingsOutSerializer(serializers.Serializer):
    standings = StandingRowOutSerializer(many=True)


class ChangeOutSerializer(serializers.Serializer):
    changed_by = serializers.SerializerMethodField()
    changed_at = serializers.DateTimeField()
    action = StrictCharField()
    old = serializers.JSONField(allow_null=True)
    new = serializers.JSONField(allow_null=True)
    reason = StrictCharField(allow_blank=True)

    @extend_schema_field(StrictCharField(allow_null=True))
    def get_changed_by(self, c: ResultChange) -> str | None:
        return c.changed_by.username if c.changed_by else None


class AuditOutSerializer(serializers.Serializer):
    changes = ChangeOutSerializer(many=True)


class SideboardChangeOutSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    game_number = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    deck = serializers.JSONField()
    report = serializers.JSONField()


class CardLineOutSerializer(serializers.Serializer):
    section = StrictCharField()
    external_id = StrictCharField()
    name = StrictCharField()
    count = serializers.IntegerField()


class SwapsOutSerializer(serializers.Serializer):
    game_number = serializers.IntegerField()
    swaps = serializers.ListField(child=serializers.DictField())


class SideboardOptionsOutSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    player = serializers.IntegerField()
    allowed = serializers.BooleanField()
    refusal = StrictCharField(allow_blank=True)
    next_game = serializers.IntegerField()
    side_section = StrictCharField(allow_blank=True)
    deck = CardLineOutSerializer(many=True, help_text="cards that can go out")
    side = CardLineOutSerializer(many=True, help_text="cards that can come in (side deck, or pool)")
    swaps = SwapsOutSerializer(many=True)
