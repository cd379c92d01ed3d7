from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A Deckhall account. Everyone is a player; organizers may also create tournaments."""

    is_organizer = models.BooleanField(
        _("organizer"), default=False, help_text=_("May create and run tournaments.")
    )

    @property
    def can_organize(self) -> bool:
        return self.is_organizer or self.is_staff


class AttemptCounter(models.Model):
    """A counter of attempts (failed log-ins, sign-ups, join-code look-ups) for one key until ``expires_at``.

    Kept in the database rather than the cache: a cache under pressure evicts entries (858 cheap anonymous
    requests flushed a lockout out of the venue's file cache), and a counter read and then written from
    the cache lets simultaneous requests all pass the check. Here every attempt is one atomic
    INSERT … ON CONFLICT … RETURNING (accounts.lockout.attempt_count).
    """

    key = models.CharField(max_length=120, primary_key=True)
    count = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"


class ApiToken(models.Model):
    """An API token, stored as the SHA-256 digest of the token (shown to its owner once, at creation).

    Tokens are 160 random bits, so a fast hash is the right one (a slow password hash protects guessable
    secrets; it would only slow every API request). A stolen database or snapshot holds no usable token.
    Clients keep DRF's header: ``Authorization: Token <token>``.
    """

    digest = models.CharField(max_length=64, primary_key=True)
    user = models.ForeignKey("accounts.User", on_delete=models.CASCADE, related_name="api_tokens")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.digest[:8]}…"


class OfficialId(models.Model):
    """A player's ID in a game's sanctioned play (Konami CARD GAME ID, Wizards account …), per game slug.

    The format each game accepts is data in its rule set (``[game.player_id]``); registrations copy it onto the
    entry (``tournaments.Player.official_id``) so a printed sheet keeps the ID it was registered with."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="official_ids")
    game_slug = models.SlugField(max_length=40)
    value = models.CharField(max_length=120)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game_slug"], name="official_id_unique_game")]

    def __str__(self) -> str:
        return f"{self.user} {self.game_slug}: {self.value}"
