"""Limited events: what an event opens (product, packs, seed), its draft pods and every pick.

A pod keeps only the packs as opened and the picks: the pack a seat holds now follows from them
(limited/engine/draft.py), so a phone that comes back after a drop is shown exactly what it left.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class LimitedEvent(models.Model):
    class Kind(models.TextChoices):
        SEALED = "sealed", _("sealed")
        DRAFT = "draft", _("booster draft")

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="limited"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    # A booster slug of the game's rule set, or "cube" (``cube`` holds the store's list of card keys).
    product = models.CharField(max_length=60)
    packs = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(
        help_text=_("Every pack comes from it: pools can be replayed and printed again.")
    )
    cube = models.JSONField(null=True, blank=True)
    cube_pack_size = models.PositiveSmallIntegerField(default=15)
    # A physical draft: the store's own packs on the tables; pods, seats and the called timer on screens.
    physical = models.BooleanField(default=False)
    # Pick times are MTR Appendix B's times multiplied by this.
    pick_time_scale = models.FloatField(default=1.0)
    # MTR 7.x: play the first rounds within the pod (0: pair across the event from round 1).
    pod_rounds = models.PositiveSmallIntegerField(default=0)
    deck_building_minutes = models.PositiveSmallIntegerField(default=30)
    pools_dealt_at = models.DateTimeField(null=True, blank=True)
    draft_started_at = models.DateTimeField(null=True, blank=True)
    draft_finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.tournament} ({self.kind}, {self.product})"


class DraftPod(models.Model):
    event = models.ForeignKey(LimitedEvent, on_delete=models.CASCADE, related_name="pods")
    number = models.PositiveSmallIntegerField()
    # Player ids in seat order, clockwise (seat 0 first).
    seats = models.JSONField()
    # packs[pack_number - 1][seat that opened it] = card keys as opened ([] for a physical draft).
    packs = models.JSONField()
    # The pick the pod is on (from 1, across packs); total + 1 once finished.
    step = models.PositiveSmallIntegerField(default=1)
    deadline = models.DateTimeField(null=True, blank=True)
    # Seconds the current pick had left when the organizer paused the pod; null while running.
    paused_left = models.FloatField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="draftpod_unique_number")]

    def __str__(self) -> str:
        return f"pod {self.number}"


class DraftPick(models.Model):
    pod = models.ForeignKey(DraftPod, on_delete=models.CASCADE, related_name="picks")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="draft_picks")
    pick_number = models.PositiveSmallIntegerField()
    card = models.CharField(max_length=200)
    # Taken by the timer for a seat that did not pick in time.
    auto = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pod", "seat", "pick_number"]
        # The database's own guard: one pick per seat and pick number, whatever two requests race.
        constraints = [
            models.UniqueConstraint(fields=["pod", "seat", "pick_number"], name="draftpick_once_per_pick")
        ]

    def __str__(self) -> str:
        return f"pick {self.pick_number} of seat {self.seat + 1}"
