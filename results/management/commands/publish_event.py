"""Publish a finished event of this (venue) install to a Deckhall site: idempotent, same results document."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from results.publishing import publication_payload, publish_to
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Send a finished event's public results (lists under its timeline and consent) to a Deckhall site."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("tournament", type=int)
        parser.add_argument("--site", required=True, help="the site's address, https://…")
        parser.add_argument("--token", required=True, help="an organizer's API token on that site")

    def handle(self, *args: Any, **options: Any) -> None:
        if urlsplit(options["site"]).scheme not in ("http", "https"):
            raise CommandError("--site must be an http:// or https:// address")
        tournament = Tournament.objects.filter(pk=options["tournament"]).first()
        if tournament is None:
            raise CommandError(f"no event {options['tournament']}")
        try:
            answer = publish_to(options["site"], options["token"], publication_payload(tournament))
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        state = "published" if answer.get("changed") else "already published, unchanged"
        self.stdout.write(
            f"{tournament.name}: {state} at {options['site'].rstrip('/')}{answer.get('url', '')}"
        )
