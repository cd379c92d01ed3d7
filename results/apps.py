from django.apps import AppConfig


class ResultsConfig(AppConfig):
    """After the event: the deck list timeline's reads, archetypes, the metagame, results for other tools.
    Sits above tournaments in the layer order (games → cards → rules → decks → tournaments → results)."""

    name = "results"

    def ready(self) -> None:
        # The webhooks' outbox rows are written inside each change's transaction (tournaments.signals).
        from .receivers import connect_receivers

        connect_receivers()
