"""An archetype label per registered deck, with the rule that gave it (shown beside the label)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class DeckArchetype(models.Model):
    class Source(models.TextChoices):
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
