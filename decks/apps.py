from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"

    def ready(self) -> None:
        # The parsers and the card resolver build no sentences: decks/messages.py words their problems.
        from .messages import install

        install()
