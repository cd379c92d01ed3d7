"""Load the demo data for every game: idempotent, so `make run` can call it on every start."""

from __future__ import annotations

import importlib
from pathlib import Path
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
        self.stdout.write(self.style.SUCCESS(self._log_in_words(organizer)))

    def _log_in_words(self, organizer: User) -> str:
        """The demo organizer's log-in as it works now: `make venue` gives the organizer a password of its
        own (everyone on the Wi-Fi can read the published one), so never print a password that fails."""
        if organizer.check_password(DEMO_PASSWORD):
            return f"Demo organizer: log in as '{DEMO_ORGANIZER}' with password '{DEMO_PASSWORD}'"
        venue_file = Path(settings.VENUE_DIR) / "organizer-password"
        if venue_file.is_file():
            venue_password = venue_file.read_text(encoding="utf-8").strip()
            if venue_password and organizer.check_password(venue_password):
                return (
                    f"Demo organizer: log in as '{DEMO_ORGANIZER}' with the venue's password '{venue_password}' "
                    f"(`make venue` replaced the published one; it is kept in {venue_file})"
                )
        return (
            f"Demo organizer: '{DEMO_ORGANIZER}' has a password of its own now; set a new one with "
            f"`python manage.py changepassword {DEMO_ORGANIZER}`"
        )
