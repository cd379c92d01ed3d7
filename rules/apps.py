from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"

    def ready(self) -> None:
        # The engine builds no sentences: its reports are worded by the site's catalogues (rules/messages.py).
        from .messages import install

        install()
