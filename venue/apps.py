from django.apps import AppConfig


class VenueConfig(AppConfig):
    name = "venue"
    verbose_name = "Venue"

    def ready(self) -> None:
        from . import snapshots

        snapshots.connect_receivers()
