from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"

    def ready(self) -> None:
        from cards.facts import card_fact_install

        from .card_facts import banlist_statuses
        from .messages import install

        # The engine builds no sentences: its reports are worded by the site's catalogues (rules/messages.py).
        install()
        # The card page shows the card's status on the ban lists in effect (cards stands below rules).
        card_fact_install("statuses", banlist_statuses)
