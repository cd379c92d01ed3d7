"""Games, their formats and their card databases."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    """A game Deckhall knows. Rows are created from the rule-set files (games/rulesets/);
    the display name is editable data (the twin-deck game has no official name)."""

    slug = models.SlugField(unique=True)
    name = models.CharField(_("name"), max_length=100)
    name_ru = models.CharField(_("Russian name"), max_length=100, blank=True)
    description = models.TextField(blank=True)
    has_decks = models.BooleanField(default=True)
    min_players = models.PositiveSmallIntegerField(default=2)
    max_players = models.PositiveSmallIntegerField(default=2)
    # Bumped in the same transaction as every change to the game's cards or printings (an import, an admin
    # edit): the search's in-process index (cards/search.py) compares it on each request, so every web node
    # rebuilds its copy after a change and none answers from a stale one.
    # A fresh random token, not a counter: a counter rolled back with a transaction could come again.
    cards_version = models.CharField(max_length=32, default="", blank=True, editable=False)
    # Granted by staff in the admin; see cards.permissions.
    card_editors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="card_databases",
        verbose_name=_("card editors"),
        help_text=_("May import and overwrite this game's card database."),
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Format(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="formats")
    slug = models.SlugField()
    name = models.CharField(max_length=100)
    name_ru = models.CharField(max_length=100, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "position", "slug"]
        constraints = [models.UniqueConstraint(fields=["game", "slug"], name="format_unique_slug")]

    def __str__(self) -> str:
        return f"{self.game.slug}/{self.slug}"


class CardSet(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sets")
    code = models.CharField(max_length=40)
    name = models.CharField(max_length=200, blank=True)
    set_type = models.CharField(max_length=40, blank=True)
    release_date = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["game", "release_date", "code"]
        constraints = [models.UniqueConstraint(fields=["game", "code"], name="cardset_unique_code")]

    def __str__(self) -> str:
        return self.code


class Card(models.Model):
    """One printing-independent card entry of a game's database.

    ``external_id`` is the id the community format uses (YGO passcode, Cockatrice name);
    ``identity`` is what copy limits count (YGO alias passcode for alternate artworks,
    Caster name+level, otherwise the name), so alternate printings share one limit.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cards")
    external_id = models.CharField(max_length=120)
    identity = models.CharField(max_length=200, db_index=True)
    name = models.CharField(max_length=200)
    # casefold()ed name: SQLite's LIKE only folds ASCII, so Cyrillic search needs this column.
    search_name = models.CharField(max_length=200, db_index=True, editable=False)
    card_type = models.CharField(max_length=40, db_index=True, blank=True)
    subtypes = models.JSONField(default=list, blank=True)
    level = models.IntegerField(null=True, blank=True)
    cost = models.IntegerField(null=True, blank=True)
    attributes = models.JSONField(default=dict, blank=True)
    text = models.TextField(blank=True)
    is_token = models.BooleanField(default=False)
    deck_buildable = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "level", "external_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "external_id"], name="card_unique_external_id")
        ]
        indexes = [models.Index(fields=["game", "search_name"]), models.Index(fields=["game", "card_type"])]

    def __str__(self) -> str:
        return (
            self.name if self.level is None or self.card_type != "caster" else f"{self.name} Lv{self.level}"
        )


class Printing(models.Model):
    """One printing of a card in a set: its collector number, rarity and artwork. A set may print a
    card twice with different artworks and no number (Magic-Spoiler files), so the artwork is part of
    what tells printings apart."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="printings")
    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="printings")
    code = models.CharField(max_length=60, blank=True)
    rarity = models.CharField(max_length=40, blank=True)
    image_url = models.URLField(max_length=500, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["card", "card_set", "code", "image_url"], name="printing_unique")
        ]

    def __str__(self) -> str:
        return f"{self.card} ({self.card_set.code} {self.code})".strip()


class CardPicture(models.Model):
    """A card's picture uploaded with a card import (a ZIP of pictures named by external id or name).

    The file lives in the default storage (MEDIA) under a name made of its content hash, so a re-upload
    never overwrites a file a page may be showing, and cards with the same picture share one file.
    Shown before the printing's own picture and the game's URL template (cards/images.py): the game's
    editors chose it, and it is served by the site itself, so it shows at an offline venue too."""

    card = models.OneToOneField(Card, on_delete=models.CASCADE, related_name="picture")
    image = models.FileField(max_length=200)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    # The ZIP entry it came from, for the import report and the admin.
    source_name = models.CharField(max_length=255, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.card}: {self.image.name}"


class ImportJob(models.Model):
    """A card-database import, run by a Celery task; the browser polls it for progress."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="import_jobs")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    filename = models.CharField(max_length=255)
    file_format = models.CharField(max_length=20, blank=True)
    # Stored in the database so any worker machine can read it (no shared disk needed).
    payload = models.BinaryField()
    # A ZIP of card pictures uploaded beside (or instead of) the card database; dropped when the job ends.
    pictures = models.BinaryField(default=b"", blank=True)
    pictures_count = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    total = models.PositiveIntegerField(default=0)
    processed = models.PositiveIntegerField(default=0)
    created_count = models.PositiveIntegerField(default=0)
    updated_count = models.PositiveIntegerField(default=0)
    errors = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A running job's worker touches this every few seconds; a stale one means the worker died, and
    # the job is taken over by a re-run or marked failed (cards.services.import_job_reap).
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.filename} → {self.game.slug} ({self.status})"

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.processed / self.total) if self.total else 0


class SavedSearch(models.Model):
    """A query in the search language a player named to run again (README "Searching cards").

    ``is_default`` marks the player's default part for the game (``-banned:``, ``s:ELD``): added to every
    search they make in that game (the card browser, the builder, the API signed in) unless they turn it off."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_searches"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(_("name"), max_length=80)
    query = models.CharField(_("query"), max_length=1000)
    is_default = models.BooleanField(_("default part of every search"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "name"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "name"], name="savedsearch_unique_name"),
            models.UniqueConstraint(
                fields=["user", "game"], condition=models.Q(is_default=True), name="savedsearch_one_default"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} / {self.game.slug}: {self.name}"


class CardUpdate(models.Model):
    """A game's card database updated from the community's current files (cards/updates.py), run as an
    import job (its progress bar and report). A dry run only says what would change; an applied update keeps
    the database as it was before (`snapshot`, Deckhall JSON gzipped, plus what it created) so the latest
    one can be undone in one step."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        CHECKED = "checked", _("checked (dry run)")
        APPLIED = "applied", _("applied")
        FAILED = "failed", _("failed")
        ROLLED_BACK = "rolled_back", _("rolled back")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="card_updates")
    job = models.OneToOneField(ImportJob, on_delete=models.CASCADE, related_name="card_update")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    dry_run = models.BooleanField(default=False)
    urls = models.JSONField(default=list)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    # What changes (or changed): counts and the first names of new, changed and removed cards, ban-list moves.
    summary = models.JSONField(default=dict, blank=True)
    snapshot = models.BinaryField(default=b"", blank=True)
    created_card_ids = models.JSONField(default=list, blank=True)
    created_set_ids = models.JSONField(default=list, blank=True)
    # Ban lists fetched with the cards (EDOPro's lflist.conf) that the update created: the undo removes them.
    created_banlist_ids = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    rolled_back_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.game.slug} update ({self.status})"
