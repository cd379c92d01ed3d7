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
