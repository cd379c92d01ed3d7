"""Load the demo data for every game: idempotent, so `make run` can call it on every start."""

from __future__ import annotations

import importlib
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from cards.games import games_sync

DEMO_ORGANIZER = "organizer"
DEMO_PASSWORD = "deckhall-demo"
# Order matters: decks need cards and ban lists, tournaments need decks.
DEMO_APPS = ("cards", "rules", "decks", "tournaments")


class Command(BaseCommand):
    help = "Create the five games, the demo organizer account and each app's demo data (safe to re-run)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Load even with DEBUG off (the demo account has a published password).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["allow_production"]:
            raise CommandError(
                "Refusing to load demo data with DEBUG off (pass --allow-production to insist)."
            )
        games = games_sync()
        self.stdout.write(f"games: {', '.join(game.slug for game in games)}")
        organizer, created = User.objects.get_or_create(
            username=DEMO_ORGANIZER, defaults={"is_organizer": True, "email": "organizer@example.com"}
        )
        if created:
            organizer.set_password(DEMO_PASSWORD)
            organizer.save(update_fields=["password"])
        # The demo organizer tries everything a store does, importing and updating card databases too.
        for game in games:
            game.card_editors.add(organizer)
        for app in DEMO_APPS:
            try:
                module = importlib.import_module(f"{app}.demo")
            except ModuleNotFoundError as exc:
                if exc.name != f"{app}.demo":
                    raise
                continue
            if app == "cards":
                # A newcomer gets the real card database (when ../shared is there) to build real decks.
                module.load(self.stdout, full_database=True)
            else:
                module.load(self.stdout)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo organizer: log in as '{DEMO_ORGANIZER}' with password '{DEMO_PASSWORD}'"
                + ("" if created else " (unless you changed it)")
            )
        )
