"""python manage.py update_cards GAME [--dry-run | --rollback] [--url URL ...]

Fetches the game's current files from the community's sources (settings CARD_UPDATE_URLS_<GAME>), says what
changes, and applies it in one transaction; --rollback undoes the latest applied update.
Exit status: 0 done, 1 refused or failed (the reason is printed; nothing was changed)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.models import CardUpdate, Game
from cards.services import import_job_run
from cards.updates import UpdateRefused, card_update_create, card_update_rollback


class Command(BaseCommand):
    help = "Update a game's card database from the community's current files (dry run, apply, roll back)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help="game slug, e.g. yugioh or mtg")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--dry-run", action="store_true", help="only say what would change")
        mode.add_argument("--rollback", action="store_true", help="undo the latest applied update")
        parser.add_argument(
            "--url",
            action="append",
            dest="urls",
            help="fetch this URL instead of the configured ones (repeatable)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        game = Game.objects.filter(slug=options["game"]).first()
        if game is None:
            known = ", ".join(Game.objects.values_list("slug", flat=True)) or "none"
            raise CommandError(f"unknown game {options['game']!r}; known games: {known}")
        try:
            if options["rollback"]:
                update = card_update_rollback(game=game)
                self.stdout.write(
                    self.style.SUCCESS(
                        f"{game.slug}: the update of {update.applied_at:%Y-%m-%d %H:%M} was rolled back"
                    )
                )
                return
            update = card_update_create(game=game, dry_run=options["dry_run"], urls=options["urls"])
        except UpdateRefused as exc:
            raise CommandError(str(exc)) from exc
        job = import_job_run(job_id=update.job_id)  # here, not in a worker: the command waits anyway
        update.refresh_from_db()
        for issue in job.errors:
            self.stderr.write(
                f"{'warning' if issue.get('severity') == 'warning' else 'error'}: {issue.get('reason')}"
            )
        if update.status == CardUpdate.Status.FAILED or job.status != job.Status.DONE:
            raise CommandError("the update failed; nothing was changed")
        self.stdout.write(self._summary(game, update))

    def _summary(self, game: Game, update: CardUpdate) -> str:
        s = update.summary
        files = ", ".join(f"{f['name']} ({f['bytes'] / 1e6:.1f} MB)" for f in s.get("files", []))
        verb = "would change" if update.dry_run else "changed"
        lines = [
            f"{game.slug}: {files}",
            f"{verb}: {s['new']} new, {s['changed']} changed, {s['unchanged']} unchanged; "
            f"{s['removed']} no longer in the source (kept: decks may hold them)",
        ]
        for key, label in (("new_names", "new"), ("changed_names", "changed"), ("removed_names", "removed")):
            if s.get(key):
                lines.append(
                    f"  {label}: {', '.join(s[key])}{' …' if s[key.split('_')[0]] > len(s[key]) else ''}"
                )
        flagged = {k: v for k, v in s.get("flagged", {}).items() if v}
        if flagged:
            lines.append("  flagged: " + ", ".join(f"{v} {k}" for k, v in flagged.items()))
        if s.get("banlist_moves_count"):
            lines.append(f"  ban-list moves: {s['banlist_moves_count']}")
            lines += [
                f"    {m['format']}: {m['card']}: {m['from']} → {m['to']}" for m in s["banlist_moves"][:10]
            ]
        for item in s.get("banlists", []):
            lines.append(
                f"  ban list {item['name']} ({item['file']}): {item['status']}, {item['entries']} cards"
            )
        if update.dry_run:
            lines.append("dry run: nothing was changed; run again without --dry-run to apply")
        else:
            lines.append(f"applied; `update_cards {game.slug} --rollback` undoes it")
        return "\n".join(lines)
