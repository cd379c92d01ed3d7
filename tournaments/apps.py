from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from decks.compare import register_list_source

        # Connects the live pages' receiver (bumps Tournament.live_version on every tournament_changed).
        from . import live  # noqa: F401
        from .reads.compare_lists import registered_list

        # A registered list as one side of a deck comparison ("player:<id>"), where the event shows it.
        register_list_source("player", registered_list)
