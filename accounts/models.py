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

    @property
    def edits_card_databases(self) -> bool:
        """Staff, or a card editor of at least one game (cards.permissions)."""
        from cards.permissions import card_databases_editable_by

        return card_databases_editable_by(self).exists()
