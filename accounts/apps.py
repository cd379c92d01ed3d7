from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the failed log-in counter)
