from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"

    def ready(self) -> None:
        # rules stands above cards: what the card pages and the card search need of ban lists is handed down
        # from here instead of cards importing rules.
        from cards import search
        from cards.facts import card_fact_install
        from cards.updates import BanListHooks, register_banlist_hooks

        from . import services
        from .card_facts import banlist_statuses
        from .messages import install
        from .search_legality import legality_for

        # The engine builds no sentences: its reports are worded by the site's catalogues (rules/messages.py).
        install()
        # The card page shows the card's status on the ban lists in effect.
        card_fact_install("statuses", banlist_statuses)
        # The card search's legality terms (banned:, limited:, legal:<format>) read ban lists.
        search.legality_provider = legality_for
        # A card update from the community's files also brings the game's ban lists (EDOPro's lflist.conf).
        register_banlist_hooks(
            BanListHooks(
                check=services.banlist_changes,
                apply=services.banlists_from_update,
                undo=services.banlists_undo_update,
            )
        )
