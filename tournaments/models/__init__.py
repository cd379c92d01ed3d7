"""Tournaments: events, registered players, rounds, matches (2-player or pods), games, sideboarding, audit.

Business rules live in services.py; these models only hold state. A registered deck is a JSON
snapshot, never a foreign key to live deck content, so later edits never change what an event holds.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# Join codes avoid letters and digits people confuse when reading a projector or a poster (0/O, 1/I/L, 2/Z,
# 5/S, 8/B, U/V): 23 symbols, 6 of them give 148 million codes.
JOIN_CODE_ALPHABET = "ACDEFGHJKMNPQRTWXY34679"  # each symbol once: a repeated one is drawn twice as often
JOIN_CODE_LENGTH = 6


class Tournament(models.Model):
    class MatchFormat(models.TextChoices):
        BO3 = "bo3", _("best of three")
        BO1 = "bo1", _("best of one")
        PODS = "pods", _("pods")

    class Tiebreakers(models.TextChoices):
        MTG = "mtg", _("MTR (points, OMW%, GW%, OGW%)")
        YUGIOH = "yugioh", _("KTS (points, OMW%, OOMW%)")
        POKEMON = "pokemon", _("Pokémon (points, OWP, OOWP)")
        PODS = "pods", _("Pods (placement points, game tiebreak, opponents)")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        TOP_CUT = "top_cut", _("top cut")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=200)
    game = models.ForeignKey("cards.Game", on_delete=models.PROTECT, related_name="tournaments")
    format_slug = models.SlugField(_("format"))
    banlist = models.ForeignKey(
        "rules.BanList", null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments"
    )
    # When no list is chosen explicitly, the list in force on this date applies (the event date).
    on_date = models.DateField(_("ban list date"), null=True, blank=True)
    match_format = models.CharField(
        _("match format"), max_length=8, choices=MatchFormat.choices, default=MatchFormat.BO3
    )
    tiebreakers = models.CharField(_("tiebreakers"), max_length=10, choices=Tiebreakers.choices)
    # Null until set: the default comes from the attendance table when round 1 is paired.
    rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), null=True, blank=True)
    top_cut = models.PositiveSmallIntegerField(_("top cut"), default=0)
    seed = models.BigIntegerField(_("seed"), help_text=_("Stored so every pairing can be reproduced."))
    deck_registration = models.BooleanField(_("deck registration required"), default=False)
    registration_deadline = models.DateTimeField(_("registration deadline"), null=True, blank=True)
    allow_sideboard = models.BooleanField(_("allow sideboarding (house rule)"), default=False)
    # The store marks which events move ratings (a casual or a test event does not): seasons reads it.
    rated = models.BooleanField(_("rated"), default=True)
    late_entry_losses = models.BooleanField(_("late entries get a loss per missed round"), default=True)
    # Late entries (the join code, an organizer adding an account) are taken until the end of this Swiss
    # round: while no later round is paired. 0: none after the start.
    late_entry_until_round = models.PositiveSmallIntegerField(
        _("late entry until the end of round"), default=2
    )
    # Null: no cap. Entries past it wait in line (Player.waitlisted) and move up as places free before the start.
    capacity = models.PositiveIntegerField(_("player cap"), null=True, blank=True)
    publish_decklists = models.BooleanField(_("publish deck lists when finished"), default=False)
    # What the public sees of the lists per stage: {"registration"|"swiss"|"top_cut"|"finished":
    # "closed"|"archetypes"|"open"}. Empty: the legacy switch above (finished → open, else closed).
    # Read only through permissions.decklist_level.
    decklist_timeline = models.JSONField(_("deck list visibility per stage"), default=dict, blank=True)
    round_minutes = models.PositiveSmallIntegerField(_("round time (minutes)"), default=50)
    # Each Swiss round is paired as a draft the organizers review and publish; players see it once published.
    draft_pairings = models.BooleanField(_("review pairings before players see them"), default=False)
    # 1: players play for themselves; 2 or 3: teams (tournaments/models/teams.py), paired as units.
    team_size = models.PositiveSmallIntegerField(_("team size"), default=1)
    # How a team pairing is played: one match per seat, won by the majority, or Two-Headed Giant (one shared
    # game per pairing, teams of 2): see tournaments/models/teams.py.
    team_mode = models.CharField(
        _("team mode"),
        max_length=5,
        choices=[("seats", _("seat matches")), ("2hg", _("Two-Headed Giant"))],
        default="seats",
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    registration_frozen_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organized_tournaments"
    )
    co_organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="co_organized_tournaments"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Players join with this code (or the link/QR code holding it) while registration is open.
    join_code = models.CharField(_("join code"), max_length=12, unique=True, null=True, blank=True)
    # Set while check-in is open; starting the event closes it and drops those who did not check in.
    check_in_opened_at = models.DateTimeField(null=True, blank=True)
    # Bumped (by a receiver of signals.tournament_changed) on every visible change: cheap ETags for live pages.
    live_version = models.PositiveBigIntegerField(default=0)
    # Bumped with it, except for changes the pairings and timer pages do not show (results, swaps …).
    pairings_version = models.PositiveBigIntegerField(default=0)
    # Bumped with it, except for changes the standings do not show (swaps, decks, judge calls, the clock).
    standings_version = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    # Null for guests the organizer adds by name.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    name = models.CharField(_("name"), max_length=150)
    # Dropped after this round: never paired again, still in the standings.
    dropped_at_round = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_round = models.PositiveSmallIntegerField(default=1)
    # {"hero": {...}|null, "sections": {slug: [{"card_id", "external_id", "name", "count"}]}}
    deck = models.JSONField(null=True, blank=True)
    pool = models.JSONField(null=True, blank=True)
    deck_report = models.JSONField(null=True, blank=True)
    deck_submitted_at = models.DateTimeField(null=True, blank=True)
    # The player's answer at registration to "may the public see my list when the event opens lists?":
    # None when never asked (guests added by name, entries older than the question). See permissions.
    publish_consent = models.BooleanField(_("list may be published"), null=True, blank=True)
    # Informational only: where the snapshot came from. The snapshot is the registered list.
    source_deck = models.ForeignKey("decks.Deck", null=True, blank=True, on_delete=models.SET_NULL)
    # The registered list was entered by an organizer (their own copy, typed at the desk), not by the player:
    # every page and printable showing the list says so.
    deck_entered_by_organizer = models.BooleanField(default=False)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    # Dropped when the event started because they had not checked in (undoable until round 1 has results).
    no_show = models.BooleanField(default=False)
    # Accessibility: the player always sits at this table (pairings renumber tables around it).
    fixed_table = models.PositiveIntegerField(_("fixed table"), null=True, blank=True)
    # Joined past the event's cap: in line (by id) for a place, never paired, checked in or in the standings.
    waitlisted = models.BooleanField(default=False)
    # The game's official player ID (``[game.player_id]``) as registered: printed on the sheets and exports.
    official_id = models.CharField(_("official player ID"), max_length=120, blank=True)

    class Meta:
        ordering = ["tournament", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(user__isnull=False),
                name="player_unique_user_per_tournament",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def dropped(self) -> bool:
        return self.dropped_at_round is not None


class Round(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        TOP_CUT = "top_cut", _("top cut")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.SWISS)
    seed = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    timer_ends_at = models.DateTimeField(null=True, blank=True)
    # Set while the clock is paused (timer_ends_at is then None): the seconds that were left.
    timer_paused_left = models.PositiveIntegerField(null=True, blank=True)
    paired_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # Paired but not yet published (``Tournament.draft_pairings``): only the organizers see it.
    draft = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament} R{self.number}"

    @property
    def stage(self) -> str:
        """A person's name for a top-cut round (by how many matches it has), else "Round N"."""
        if self.kind != self.Kind.TOP_CUT:
            return _("Round %(number)d") % {"number": self.number}
        matches = getattr(self, "match_count", None)
        if matches is None:
            matches = self.matches.count()
        names = {1: _("Final"), 2: _("Semifinals"), 4: _("Quarterfinals")}
        return names.get(matches) or _("Top %(players)d") % {"players": 2 * matches}


class Match(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("match status", "pending")
        REPORTED = "reported", _("reported")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        FINAL = "final", _("final")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField()
    bye = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    draws = models.PositiveSmallIntegerField(default=0)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Top cut: the higher seed chooses play/draw in game 1.
    chooser = models.ForeignKey("Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # Bumped by every change to the result (a game saved, a report, a correction, a dispute): a confirm names
    # the version it confirms, so nobody confirms a result that changed under their eyes.
    # Database defaults: rounds are inserted with raw SQL (services/rounds.py) that names only the pairing.
    version = models.PositiveIntegerField(default=0, db_default=0)
    # How a finished match ended when not by playing it out ("time", "concession", "intentional_draw").
    ended_by = models.CharField(max_length=20, blank=True, default="", db_default="")
    dispute_reason = models.CharField(max_length=300, blank=True, default="", db_default="")
    # A judge's time extension for this table only, on top of the round clock.
    extra_minutes = models.PositiveSmallIntegerField(default=0, db_default=0)

    class Meta:
        ordering = ["round", "table"]
        indexes = [models.Index(fields=["round", "status"])]

    def __str__(self) -> str:
        return f"{self.round} T{self.table}"

    @property
    def has_result(self) -> bool:
        return self.status != self.Status.PENDING


class MatchSeat(models.Model):
    """One player's place at a match: seat 0/1 for two-player matches, 0–3 in a pod."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    wins = models.PositiveSmallIntegerField(default=0)
    # Pods: the finishing place (shared places allowed), the game score (VP / defeats) and its tiebreak.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    tiebreak = models.IntegerField(null=True, blank=True)
    # Set when the pairing engine floated this player down; the count steers later pair-downs elsewhere.
    paired_down = models.BooleanField(default=False)
    # Top cut: the player's seed from the Swiss standings (1 = best), kept so the bracket can advance.
    cut_seed = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="seat_unique_in_match"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.match} seat {self.seat}"


class Game(models.Model):
    """One game of a match: the winner's seat (null for a draw), who went first and who chose that."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    first_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Who chose to go first or second (the toss winner, the loser of the previous game, the higher seed in
    # game 1 of the top cut); null where nobody chooses (the twin-deck game's order is fixed) or not reported.
    chooser_seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="game_unique_number")]

    def __str__(self) -> str:
        return f"{self.match} G{self.number}"


class SideboardChange(models.Model):
    """A player's swaps before game `game_number` of a match, validated by the rules engine."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sideboard_changes")
    game_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="sideboard_changes")
    swaps = models.JSONField()
    deck = models.JSONField()
    report = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "game_number", "id"]

    def __str__(self) -> str:
        return f"{self.match} before G{self.game_number}"


class GameDeck(models.Model):
    """The deck a player played a game with: the registered list, or the list after ``change`` (a swap).

    Sideboard changes are immutable rows, so pointing at the last one before the game records the exact list
    without copying it per game.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="decks")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    change = models.ForeignKey(
        SideboardChange, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="gamedeck_unique_player")]

    def __str__(self) -> str:
        return f"{self.game} {self.player}"


class Change(models.Model):
    """An audit row: who changed what, when, old → new."""

    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=20)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)

    class Meta:
        abstract = True


class EntryChange(Change):
    """The audit trail of entries: an organizer renaming a player, check-ins marked, drops undone."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="changes")

    class Meta:
        ordering = ["player", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.player} {self.action}"


class ResultChange(Change):
    """The audit trail: every change to a match result (who, when, old → new)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="result_changes")
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["match", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.match} {self.action}"


class PairingChange(models.Model):
    """A manual change to a round's pairings (swap, hand pairing, bye, loss, fixed table): who, when, what.

    Kept as rows so a pairings report can list every manual change of a round; ``detail`` holds plain values
    (player ids and names, tables before and after) that read back without the players still existing.
    """

    class Kind(models.TextChoices):
        SWAP = "swap", _("players swapped")
        PAIR = "pair", _("paired by hand")
        BYE = "bye", _("bye given by hand")
        LOSS = "loss", _("match loss given by hand")
        FIXED_TABLE = "fixed_table", _("fixed table")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairing_changes")
    # None for a change made before round 1 (a fixed table set at registration).
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="pairing_changes"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    detail = models.JSONField(default=dict)

    class Meta:
        ordering = ["tournament", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.tournament} {self.round} {self.kind}"


class Penalty(models.Model):
    """A judge's penalty: the infraction in words, the penalty, and the match it was applied to (if any)."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("warning")
        GAME_LOSS = "game_loss", _("game loss")
        MATCH_LOSS = "match_loss", _("match loss")
        DISQUALIFICATION = "disqualification", _("disqualification")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="penalties")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    infraction = models.CharField(_("infraction"), max_length=120)
    penalty = models.CharField(_("penalty"), max_length=20, choices=Kind.choices)
    note = models.CharField(_("note"), max_length=500, blank=True)
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The match whose record the penalty changed (a game or match loss), None when nothing was applied.
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.player} {self.penalty}"


class JudgeCall(models.Model):
    """A player at a table calls a judge from their phone; an organizer answers (clears) it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="judge_calls")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["match", "answered_at"])]

    def __str__(self) -> str:
        return f"{self.match} judge call"


from .entry_requests import EntryRequest  # noqa: E402,F401  (registrations asked of a player: likewise)
from .phases import Phase  # noqa: E402,F401  (phases: a module of their own, see its docstring)
from .teams import Team, TeamInvite, TeamMember  # noqa: E402,F401  (teams: likewise)
