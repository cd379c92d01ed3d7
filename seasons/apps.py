from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Series and ratings")

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (records results and ratings when an event finishes)
