"""Phases of an event beyond the first Swiss rounds: more Swiss with a cut by points or rank before it.

Phase 1 is implicit (Swiss rounds 1..n of the event as created). Each added phase extends the event's Swiss
rounds by its own count, so every existing "after the last Swiss round" rule (the top cut, finishing) keeps
working unchanged; a phase only narrows who is paired in its rounds and, when set, which points count.
Imported by ``tournaments.models`` so Django sees these models as the app's own.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Phase(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="phases")
    # 2, 3 …: phase 1 is the event's first Swiss rounds.
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SWISS)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    first_round = models.PositiveSmallIntegerField()
    # The cut before the phase: players with at least min_points, and/or the top N of the standings; if that
    # leaves fewer than min_count players, the best-ranked others fill up to it ("19 points, at least 32").
    min_points = models.PositiveSmallIntegerField(_("minimum points"), null=True, blank=True)
    top = models.PositiveIntegerField(_("top N"), null=True, blank=True)
    min_count = models.PositiveIntegerField(_("at least"), null=True, blank=True)
    # Carried over (day 2 of a Regional) or counted from zero in this phase.
    carry_points = models.BooleanField(_("points carried over"), default=True)
    # Player ids, fixed when the phase's first round is paired so later corrections cannot move the cut.
    entrants = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="phase_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament} phase {self.number}"

    @property
    def last_round(self) -> int:
        return self.first_round + self.rounds - 1
