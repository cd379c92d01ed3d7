"""A player's cards per game, and which of their decks are built (sleeved, holding physical copies)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cards.models import Card, Game
from decks.models import Deck


class CollectionEntry(models.Model):
    """Copies of one card the player owns, per printing detail the file gave (set, number, foil).

    Ownership is counted by the card's ``identity`` (what copy limits count: alternate artworks are the
    same card) unless the player tracks printings for the game (CollectionSettings)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+")
    count = models.PositiveIntegerField(_("copies"))
    set_code = models.CharField(_("set"), max_length=40, blank=True)
    number = models.CharField(_("collector number"), max_length=40, blank=True)
    foil = models.BooleanField(_("foil"), default=False)
    condition = models.CharField(_("condition"), max_length=30, blank=True)
    language = models.CharField(_("language"), max_length=30, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["card__name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "card", "set_code", "number", "foil"], name="collection_entry_unique"
            ),
            models.CheckConstraint(condition=models.Q(count__gte=1), name="collection_count_positive"),
        ]
        indexes = [models.Index(fields=["owner", "game"])]

    def __str__(self) -> str:
        return f"{self.count} × {self.card_id}"


def fresh_version() -> int:
    """A collection version no earlier state had (random, so it never repeats even for a reused user id)."""
    return secrets.randbelow(2**63)


class CollectionSettings(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    track_printings = models.BooleanField(
        _("track printings"),
        default=False,
        help_text=_("Count each printing (alternate artwork) apart instead of as the same card."),
    )
    # A fresh random number on every write to the player's collection of the game, to this row and to which
    # decks are built, in the write's transaction (collection.services.collection_version_bump): cached reads
    # are keyed on it, so every web node sees a write at once whatever cache it has (selectors.holdings).
    version = models.PositiveBigIntegerField(default=fresh_version, editable=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "game"], name="collection_settings_unique")]

    def __str__(self) -> str:
        return f"{self.owner_id}/{self.game_id}: printings {'tracked' if self.track_printings else 'merged'}"


class BuiltDeck(models.Model):
    """A deck the player has put together from their cards: it holds copies (collection.allocation)."""

    deck = models.OneToOneField(Deck, on_delete=models.CASCADE, related_name="+")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    built_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["built_at", "id"]
        indexes = [models.Index(fields=["owner", "game"])]

    def __str__(self) -> str:
        return f"built {self.deck_id}"
