from django.apps import AppConfig


class CollectionConfig(AppConfig):
    name = "collection"
    verbose_name = "Collection"

    def ready(self) -> None:
        # decks/ sits below this app: it asks decks.ownership, which this fills in.
        from decks import ownership

        from .selectors import deck_ownership_for, decks_missing_for

        ownership.register(deck=deck_ownership_for, decks_missing=decks_missing_for)
