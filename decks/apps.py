from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"

    def ready(self) -> None:
        # decks stands above cards and rules: what they show or read of decks is handed down from here.
        from cards.facts import card_fact_install
        from rules.deckinput import DeckText, deck_text_install

        from .card_facts import hero_restrictions
        from .formats import parse_deck
        from .formats.model import ParsedDeck
        from .gamerules import format_info
        from .messages import install
        from .resolve import deck_resolve

        # The parsers and the card resolver build no sentences: decks/messages.py words their problems.
        install()
        # The rules API and validate_deck read deck text with the decks app's parsers and resolver.
        deck_text_install(
            DeckText(parse=parse_deck, resolve=deck_resolve, parsed_deck=ParsedDeck, format_info=format_info)
        )
        # The card page shows a hero's restrictions as the deck builder words them.
        card_fact_install("restrictions", hero_restrictions)
