from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        # Connects the live pages' receiver (bumps Tournament.live_version on every tournament_changed).
        from . import live  # noqa: F401
