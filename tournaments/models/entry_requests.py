"""A registration an organizer asks a player for: the organizer names an account (and optionally one of that
player's own decks) and the player accepts or declines on their own phone. Until accepted nothing exists in
the event — no entry, no frozen list, no pairing — and the organizer never reads the deck. Imported by
``tournaments.models``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class EntryRequest(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="entry_requests"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entry_requests"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # One of the player's own decks the organizer proposes: registered (as a snapshot) only when the player
    # accepts, and only if it is still theirs then.
    deck = models.ForeignKey("decks.Deck", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    accepted = models.BooleanField(null=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(answered_at__isnull=True),
                name="entry_request_one_open_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} → {self.user}"
