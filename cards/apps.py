from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CardsConfig(AppConfig):
    name = "cards"

    def ready(self) -> None:
        from . import (
            tasks,  # noqa: F401  registers the import task, which services enqueue by name
            updates,  # noqa: F401  registers the update runner of import jobs
        )
        from .games import games_sync_after_migrate

        # Games come from the rule-set files: a freshly migrated database has them, so import_cards works
        # on a production install where load_demo (demo accounts) is refused.
        post_migrate.connect(games_sync_after_migrate, sender=self, dispatch_uid="cards.games_sync")
