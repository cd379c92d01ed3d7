"""Decks: an owner's named sections of cards for one game and format, with a version per save."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cards.models import Card, Game


class Deck(models.Model):
    class Visibility(models.TextChoices):
        PRIVATE = "private", _("private")
        UNLISTED = "unlisted", _("unlisted (anyone with the link)")
        PUBLIC = "public", _("public")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="decks")
    format_slug = models.SlugField(_("format"), max_length=40)
    # A ban list version is immutable (rules.BanList), so pointing at one pins the deck to it.
    banlist = models.ForeignKey(
        "rules.BanList",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("ban list"),
    )
    on_date = models.DateField(_("date"), null=True, blank=True)
    name = models.CharField(_("name"), max_length=200)
    notes = models.TextField(_("notes"), blank=True)
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    hero = models.ForeignKey(Card, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # Heroes beside ``hero`` in the same slot: a Commander deck's partner or background (the rules judge
    # whether the pair is allowed).
    co_heroes = models.ManyToManyField(Card, blank=True, related_name="+")
    copied_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    current_version = models.PositiveIntegerField(default=0)
    # The imported file's own lines (decks.formats.FileLayout.as_json: header, comments, card order,
    # line endings) so that exporting the deck in that format gives the author's file back; {} if none.
    file_layout = models.JSONField(default=dict, blank=True, editable=False)
    # The player's own shelf for the deck ("Testing", "Locals") — a name, not a model: folders are how one
    # player sorts their own list, nobody else sees or shares them.
    folder = models.CharField(_("folder"), max_length=80, blank=True, default="")

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["visibility", "game"]), models.Index(fields=["owner", "-updated_at"])]

    def __str__(self) -> str:
        return self.name

    def readable_by(self, user) -> bool:  # type: ignore[no-untyped-def]
        # Unlisted decks are readable by anyone holding the link; they are only left out of lists.
        return self.visibility != self.Visibility.PRIVATE or (
            user is not None and user.is_authenticated and user.pk == self.owner_id
        )

    def editable_by(self, user) -> bool:  # type: ignore[no-untyped-def]
        return user is not None and user.is_authenticated and user.pk == self.owner_id


class DeckCard(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    section = models.SlugField(max_length=40)
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    count = models.PositiveSmallIntegerField()
    position = models.PositiveIntegerField(default=0)
    # The player's own labels on this line ("combo", "hand trap"): several per line, grouped and filtered by in
    # the builder; never read by validation or exports to play formats.
    tags = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["deck", "section", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "section", "card"], name="deckcard_unique_card"),
            models.CheckConstraint(condition=models.Q(count__gte=1), name="deckcard_count_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.count} × {self.card_id} ({self.section})"


class DeckVersion(models.Model):
    """A snapshot per save: {"hero": [id, name] | null, "sections": {slug: [[card_id, count, name], ...]}}.

    Names ride along so a diff stays readable even if a card is later renamed.
    """

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    message = models.CharField(max_length=200, blank=True)
    format_slug = models.SlugField(max_length=40, blank=True)
    snapshot = models.JSONField(default=dict)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [models.UniqueConstraint(fields=["deck", "number"], name="deckversion_unique_number")]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"
