from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save


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

        # One card or printing saved or deleted on its own (the admin, a test, a script): the game's search
        # index is out of date. Imports write in bulk and bump the version themselves (cards.services).
        from .models import Card, Printing
        from .search import cards_changed

        for model in (Card, Printing):
            post_save.connect(cards_changed, sender=model, dispatch_uid=f"cards.search.{model.__name__}.save")
            post_delete.connect(
                cards_changed, sender=model, dispatch_uid=f"cards.search.{model.__name__}.delete"
            )
