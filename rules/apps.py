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
        # A card update from the community's files also brings the game's ban lists (EDOPro's lflist.conf).
        from cards.updates import BanListHooks, register_banlist_hooks

        from . import services

        register_banlist_hooks(
            BanListHooks(
                check=services.banlist_changes,
                apply=services.banlists_from_update,
                undo=services.banlists_undo_update,
            )
        )
