from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"

    def ready(self) -> None:
        # The engine builds no sentences: its reports are worded by the site's catalogues (rules/messages.py).
        from .messages import install

        install()
        # The card search's legality terms (banned:, limited:, legal:<format>) read ban lists, which live
        # here, above the cards app: the hook is handed down instead of cards importing rules.
        from cards import search

        from .search_legality import legality_for

        search.legality_provider = legality_for
