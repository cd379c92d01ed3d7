from django.apps import AppConfig


class LimitedConfig(AppConfig):
    """Limited events above tournaments: boosters opened from the rule sets, sealed pools, drafts in pods."""

    name = "limited"
    verbose_name = "Limited events"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A lower layer never imports this app: tournaments asks its pool guards, and this one joins them here.
        from tournaments.pairings.inputs import PAIRING_GROUPS
        from tournaments.services.registration import POOL_GUARDS

        from .services import pod_pairing_groups, pool_guard

        if pool_guard not in POOL_GUARDS:
            POOL_GUARDS.append(pool_guard)
        if pod_pairing_groups not in PAIRING_GROUPS:
            PAIRING_GROUPS.append(pod_pairing_groups)
