"""Create Game and Format rows from the rule-set files, so a new game needs data, not code."""

from __future__ import annotations

from django.db import transaction

from games.registry import default_registry

from .models import Format, Game


@transaction.atomic
def games_sync(*, registry=None) -> list[Game]:  # type: ignore[no-untyped-def]
    """Upsert one Game per rule-set file and its formats.

    An existing game's display names are left alone: they are editable data (the twin-deck
    game has no official name, an admin may rename it) and a re-sync must not undo that.
    A rule-set file that does not load is not in the registry (``registry.errors`` says why), so one broken
    file leaves its game as it was and every other game is still synced.
    """

    registry = registry or default_registry()
    synced: list[Game] = []
    for rules in registry.games.values():
        game, created = Game.objects.get_or_create(
            slug=rules.slug,
            defaults={"name": rules.name, "name_ru": rules.name_ru, "description": rules.description},
        )
        fields = {
            "has_decks": rules.has_decks,
            "min_players": rules.min_players,
            "max_players": rules.max_players,
        }
        changed = [name for name, value in fields.items() if getattr(game, name) != value]
        for name in changed:
            setattr(game, name, fields[name])
        if changed and not created:
            game.save(update_fields=changed)
        elif created and changed:
            game.save()
        for position, fmt in enumerate(rules.formats.values()):
            Format.objects.update_or_create(
                game=game,
                slug=fmt.slug,
                defaults={"name": fmt.name, "name_ru": fmt.name_ru, "position": position},
            )
        synced.append(game)
    return synced


def games_sync_after_migrate(*, using: str = "default", **kwargs: object) -> None:
    """post_migrate receiver: create the games once the cards tables are fully migrated (not after a
    migration back to an older state, whose tables may lack the columns games_sync writes)."""
    from django.db import DEFAULT_DB_ALIAS, connections
    from django.db.migrations.executor import MigrationExecutor

    if using != DEFAULT_DB_ALIAS:  # games_sync writes to the default database only
        return
    executor = MigrationExecutor(connections[using])
    leaves = [node for node in executor.loader.graph.leaf_nodes() if node[0] == "cards"]
    if executor.migration_plan(leaves):
        return
    games_sync()
