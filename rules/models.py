"""Ban lists: immutable, dated versions per game (a change is a new list)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class BanList(models.Model):
    """One version of a ban list as published. Never edited: services refuse changes, the admin is read-only."""

    game = models.ForeignKey("cards.Game", on_delete=models.CASCADE, related_name="banlists")
    name = models.CharField(_("name"), max_length=120)
    effective_date = models.DateField(_("effective date"))
    # Which formats read this list (games/rulesets/*.toml [formats.banlist] regions): tcg, ocg, goat, ...
    region = models.CharField(_("region"), max_length=40, blank=True, db_index=True)
    description = models.TextField(_("description"), blank=True)
    is_whitelist = models.BooleanField(_("whitelist"), default=False)
    source = models.CharField(_("source"), max_length=255, blank=True)
    # sha256 of the normalized entries: re-importing the same list is recognised, not duplicated.
    content_hash = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "-effective_date", "name"]
        constraints = [
            models.UniqueConstraint(fields=["game", "name", "effective_date"], name="banlist_unique_version")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.effective_date:%Y-%m-%d})"


class BanListEntry(models.Model):
    class Limit(models.IntegerChoices):
        FORBIDDEN = 0, _("Forbidden")
        LIMITED = 1, _("Limited")
        SEMI_LIMITED = 2, _("Semi-Limited")
        UNLIMITED = 3, _("Unlimited")

    banlist = models.ForeignKey(BanList, on_delete=models.CASCADE, related_name="entries")
    # The printing's passcode as written in the file; ``identity`` is the card's canonical id when resolved.
    external_id = models.CharField(max_length=120)
    card = models.ForeignKey("cards.Card", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    identity = models.CharField(max_length=200, blank=True)
    name = models.CharField(max_length=200, blank=True)
    limit = models.PositiveSmallIntegerField(choices=Limit.choices)

    class Meta:
        ordering = ["limit", "name", "external_id"]
        constraints = [
            models.UniqueConstraint(fields=["banlist", "external_id"], name="banlistentry_unique_card")
        ]

    def __str__(self) -> str:
        return f"{self.name or self.external_id}: {self.limit}"
