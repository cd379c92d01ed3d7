"""An archetype label per registered deck, with the rule that gave it (shown beside the label)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class DeckArchetype(models.Model):
    class Source(models.TextChoices):
        RULE = "rule", _("archetype rule")
        OVERLAP = "overlap", _("overlap with a reference list")
        SETCODE = "setcode", _("archetype set code")
        HUMAN = "human", _("organizer")
        NONE = "none", _("no rule matched")

    player = models.OneToOneField("tournaments.Player", on_delete=models.CASCADE, related_name="archetype")
    # Empty when no rule caught the deck (or two did): the deck waits in the organizers' review queue.
    name = models.CharField(_("archetype"), max_length=120, blank=True)
    # Which rule matched, in words a player can check: "set code 0x2 Genex: 24 of 40 main-deck cards".
    rule = models.CharField(_("rule"), max_length=300, blank=True)
    source = models.CharField(max_length=8, choices=Source.choices)
    # The competing labels when two rules caught the deck (a tie): the queue shows them.
    candidates = models.JSONField(default=list, blank=True)
    # A human label wins over every rule and is kept when the deck is classified again.
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    def __str__(self) -> str:
        return self.name or "?"

    @property
    def needs_review(self) -> bool:
        return self.source != self.Source.HUMAN and (not self.name or bool(self.candidates))


class Webhook(models.Model):
    """An organizer's endpoint: events of the tournaments they organize, signed with their secret."""

    EVENTS = ("round.paired", "results.changed", "event.finished")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    events = models.JSONField(default=list)
    # Only ever used to sign (HMAC-SHA256 of the body); never sent, never shown again after creation.
    secret = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    # Circuit breaker: after this many failures in a row deliveries pause until circuit_open_until.
    consecutive_failures = models.PositiveIntegerField(default=0)
    circuit_open_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """The outbox: one row per event and webhook, written in the transaction of the change itself."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        DELIVERED = "delivered", _("delivered")

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    event = models.CharField(max_length=40)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    last_error = models.CharField(max_length=300, blank=True)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # Delivered in id order per webhook: the order the changes committed in.
        ordering = ["id"]
        indexes = [models.Index(fields=["webhook", "status", "id"])]

    def __str__(self) -> str:
        return f"{self.event} #{self.pk}"


class PublishedEvent(models.Model):
    """A finished event run elsewhere (a venue laptop) and published here later: its results document as the
    public saw it there (the deck list timeline and consent already applied), one row per origin and event."""

    origin = models.CharField(max_length=64)
    source_id = models.PositiveBigIntegerField()
    name = models.CharField(max_length=200)
    game = models.CharField(max_length=40)
    document = models.JSONField()
    # sha256 of the canonical document: publishing the same results again changes nothing.
    digest = models.CharField(max_length=64)
    published_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    published_at = models.DateTimeField()

    class Meta:
        ordering = ["-published_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["origin", "source_id"], name="published_event_once")]

    def __str__(self) -> str:
        return self.name
