from django.apps import AppConfig


class LimitedConfig(AppConfig):
    """Limited events above tournaments: boosters opened from the rule sets, sealed pools, drafts in pods."""

    name = "limited"
    verbose_name = "Limited events"
    default_auto_field = "django.db.models.BigAutoField"
