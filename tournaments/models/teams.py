"""Teams of a team event (``Tournament.team_size`` 2 or 3): a name and its members' entries, each on a seat.

A team round pairs teams; each pairing is ``team_size`` ordinary matches, seat A against seat A and so on,
at consecutive tables ((team table - 1) × size + seat + 1), so results, phones and slips work as for any
match and the team pairing is read back from the table numbers. Imported by ``tournaments.models``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Team(models.Model):
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team name"), max_length=100)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "name", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="team_unique_name")]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    player = models.OneToOneField("tournaments.Player", on_delete=models.CASCADE, related_name="team_member")
    # 0 = seat A, 1 = seat B, 2 = seat C: who plays whom in a team match.
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["team", "seat"]
        constraints = [models.UniqueConstraint(fields=["team", "seat"], name="team_member_unique_seat")]

    def __str__(self) -> str:
        return f"{self.team} {'ABC'[self.seat]}"


class TeamInvite(models.Model):
    """A player a team's captain named for a seat: they join the team only by accepting on their own phone
    (nobody is registered without agreeing). A declined seat waits for the captain to name someone else."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invites")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="team_invites")
    seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    accepted = models.BooleanField(null=True)
    # A deck of the invited player's own that the organizer proposed for them: registered only when they
    # accept, and only if it is still theirs then (the organizer never reads it).
    deck = models.ForeignKey("decks.Deck", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["team", "seat", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "seat"],
                condition=models.Q(answered_at__isnull=True),
                name="team_invite_open_seat",
            )
        ]

    def __str__(self) -> str:
        return f"{self.team} {'ABC'[self.seat]} → {self.user}"
