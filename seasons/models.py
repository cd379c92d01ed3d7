"""Series (a store league or season over events of one game), each event's recorded finishes, ratings.

``EventFinish`` rows are written once an event finishes: series standings and player histories read them
instead of recomputing every event's standings (52 events of a season stay a single query). ``Rating`` is one
per account and game, moved by Glicko-2 once per finished event (``RatedEvent`` makes that happen once).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .engine.points import DEFAULT_TABLE


def default_table() -> dict:
    return DEFAULT_TABLE


class Series(models.Model):
    name = models.CharField(_("name"), max_length=200)
    game = models.ForeignKey("cards.Game", on_delete=models.PROTECT, related_name="series")
    # Each player's best N events count (0: all of them).
    best_of = models.PositiveSmallIntegerField(_("best of"), default=0)
    points_table = models.JSONField(_("points table"), default=default_table)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="series")
    created_at = models.DateTimeField(auto_now_add=True)
    events = models.ManyToManyField("tournaments.Tournament", through="SeriesEvent", related_name="series")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name


class SeriesEvent(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="series_events")
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["series", "added_at", "id"]
        constraints = [models.UniqueConstraint(fields=["series", "tournament"], name="series_event_unique")]

    def __str__(self) -> str:
        return f"{self.series} / {self.tournament}"


class EventFinish(models.Model):
    """A player's final place and record in a finished event (the event's own standings, frozen)."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="finishes"
    )
    player = models.OneToOneField("tournaments.Player", on_delete=models.CASCADE, related_name="finish")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="finishes"
    )
    name = models.CharField(max_length=150)
    place = models.PositiveIntegerField()
    size = models.PositiveIntegerField()
    wins = models.PositiveSmallIntegerField(default=0)
    losses = models.PositiveSmallIntegerField(default=0)
    draws = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "place", "id"]
        indexes = [models.Index(fields=["user", "tournament"])]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.place} {self.name}"


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.ForeignKey("cards.Game", on_delete=models.CASCADE, related_name="ratings")
    rating = models.FloatField(default=1500.0)
    # Rating deviation: the uncertainty (about 95% of the time the true strength is within ±2 RD).
    rd = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    events = models.PositiveIntegerField(default=0)
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-rating"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_unique_user_game")]

    def __str__(self) -> str:
        return f"{self.user} {self.game}: {self.rating:.0f} ± {2 * self.rd:.0f}"


class RatingChange(models.Model):
    """One event's move of one player's rating: the audit trail an organizer reads to see where a rating came
    from (which events, how many matches against how many different opponents)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.ForeignKey("cards.Game", on_delete=models.CASCADE, related_name="+")
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    rd_after = models.FloatField()
    matches = models.PositiveIntegerField()
    opponents = models.PositiveIntegerField(help_text="different opponents in the event's rated matches")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "game", "created_at", "id"]
        indexes = [models.Index(fields=["user", "game", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user} {self.tournament}: {self.rating_before:.0f} → {self.rating_after:.0f}"


class RatedEvent(models.Model):
    """An event whose matches have moved the ratings (each event is one Glicko-2 period, applied once)."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    rated_at = models.DateTimeField(auto_now_add=True)
    players = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.tournament} rated"
