"""python manage.py venue [--port P] [--workers N] [--certfile F --keyfile F [--host NAME] | --self-signed]:
serve the event to players' phones on the LAN, over HTTP or (with a certificate) HTTPS.

Run through `make venue` (which sets DECKHALL_VENUE=1): migrates, loads the demo data on first start,
collects static files, prints the address and its QR code, then becomes a gunicorn server on every
interface. The database (db.sqlite3 unless DATABASE_URL says otherwise) is kept between runs.
"""

from __future__ import annotations

import hashlib
import io
import os
import secrets
import socket
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.management.commands.load_demo import DEMO_ORGANIZER, DEMO_PASSWORD
from accounts.models import User
from venue import snapshots, tls
from venue.addresses import local_origin, resolves_to
from venue.lan import primary_address

PASSWORD_FILE = "organizer-password"


class Command(BaseCommand):
    help = "Serve Deckhall to phones on the local network (production server, DEBUG off, snapshots on)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
        parser.add_argument(
            "--workers",
            type=int,
            default=int(os.environ.get("VENUE_WORKERS") or 3),
            help="gunicorn processes",
        )
        parser.add_argument("--threads", type=int, default=int(os.environ.get("VENUE_THREADS") or 4))
        parser.add_argument("--no-serve", action="store_true", help="prepare and print, but do not serve")
        https = parser.add_argument_group(
            "HTTPS (the phones' offline app needs it; README: HTTPS at the venue)"
        )
        https.add_argument(
            "--certfile",
            default=os.environ.get("VENUE_TLS_CERT", ""),
            help="PEM certificate (with its chain) for a name that resolves to this laptop on the LAN",
        )
        https.add_argument("--keyfile", default=os.environ.get("VENUE_TLS_KEY", ""), help="its private key")
        https.add_argument(
            "--host",
            default=os.environ.get("VENUE_HOST", ""),
            help="the certificate's name that links and QR codes use (default: its only name)",
        )
        https.add_argument(
            "--self-signed",
            action="store_true",
            default=os.environ.get("VENUE_TLS_SELF_SIGNED", "").lower() in {"1", "true", "yes", "on"},
            help="make a certificate for the LAN address (phones warn on first open)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.VENUE_MODE:
            raise CommandError("run `make venue` (or set DECKHALL_VENUE=1): venue settings are not active")
        venue_dir = Path(settings.VENUE_DIR)
        venue_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        certfile, keyfile = self._tls(options, venue_dir)  # a wrong file is said at once, before any work
        self._check_database()
        _private_files(venue_dir)
        call_command("migrate", interactive=False, verbosity=0)
        if snapshots.enabled():
            owed = snapshots.snapshot_if_behind()  # the server was killed before its last snapshot
            if owed is not None:
                self.stdout.write(f"Snapshot of the changes before the last stop: {owed.name}")
        self._demo_on_first_start(venue_dir)
        self._collectstatic_if_changed()
        port = options["port"]
        self._announce(port, venue_dir, options)
        if options["no_serve"]:
            return
        command = [sys.executable, "-m", "gunicorn", "config.wsgi"]
        if certfile:
            command += ["--certfile", certfile, "--keyfile", keyfile]
        command += ["--bind", f"0.0.0.0:{port}", "--workers", str(options["workers"])]
        command += ["--threads", str(options["threads"]), "--worker-class", "gthread"]
        # Phones poll every 4 s: a keep-alive longer than that keeps one connection per phone across polls
        # (gunicorn's default 2 s made every poll a new TCP handshake, which costs more than the poll on Wi-Fi).
        command += ["--keep-alive", "10"]
        # Generous timeout: with no broker a card import runs inside the request (eager Celery).
        command += ["--timeout", "300", "--graceful-timeout", "10", "--pid", str(venue_dir / "venue.pid")]
        sys.stdout.flush()
        os.execv(sys.executable, command)  # noqa: S606 - becomes the server; Ctrl+C stops it

    def _tls(self, options: dict[str, Any], venue_dir: Path) -> tuple[str, str]:
        """The certificate and key to serve, checked; their settings exported for the gunicorn this process
        becomes (settings.py reads VENUE_TLS_CERT and VENUE_HOST there). ("", "") for plain HTTP."""
        certfile, keyfile = options["certfile"], options["keyfile"]
        address = primary_address()
        if options["self_signed"]:
            if certfile or keyfile:
                raise CommandError("give either --self-signed or --certfile/--keyfile, not both")
            addresses = [a for a in (address, "127.0.0.1") if a]
            names = [socket.gethostname().split(".")[0].lower() + ".local", "localhost"]
            made = tls.make_self_signed(venue_dir / "tls", addresses=addresses, names=names)
            certfile, keyfile = str(made[0]), str(made[1])
        elif bool(certfile) != bool(keyfile):
            raise CommandError(
                "HTTPS needs both --certfile and --keyfile (or VENUE_TLS_CERT and VENUE_TLS_KEY)"
            )
        if not certfile:
            for name in ("VENUE_TLS_CERT", "VENUE_TLS_KEY", "VENUE_HOST"):
                os.environ.pop(name, None)
            settings.VENUE_TLS_CERT = settings.VENUE_HOST = ""
            return "", ""
        certfile, keyfile = str(Path(certfile).resolve()), str(Path(keyfile).resolve())
        try:
            tls.check_pair(certfile, keyfile)
            names = tls.certificate_names(certfile)
            host = tls.choose_host(names, requested=options["host"].strip(), lan_address=address)
        except tls.TLSError as exc:
            raise CommandError(f"HTTPS: {exc}") from None
        # The LAN address is looked up again per request (it may change); a name is fixed by the certificate.
        public = "" if host == address else host
        os.environ.update(VENUE_TLS_CERT=certfile, VENUE_TLS_KEY=keyfile, VENUE_HOST=public)
        settings.VENUE_TLS_CERT, settings.VENUE_HOST = certfile, public
        if public and address and not resolves_to(public, address):
            self.stderr.write(
                self.style.WARNING(
                    f"{public} does not resolve to this laptop's address {address} here: phones on the Wi-Fi "
                    "must get that answer from the venue's DNS (the router), or they will not reach the event."
                )
            )
        return certfile, keyfile

    def _check_database(self) -> None:
        """Refuse to start on a damaged database, saying what to do (a traceback helps nobody at an event)."""
        if not snapshots.supported():
            return
        damage = snapshots.database_damage()
        if damage is None:
            return
        raise CommandError(
            f"The venue database {snapshots.database_path()} is damaged ({damage}).\n"
            "Put the newest good snapshot back, then start again:\n"
            "    .venv/bin/python manage.py restore_snapshot    (no name: it picks the newest good one)\n"
            "    make venue\n"
            "The damaged file is kept beside it as db.sqlite3.damaged-<time>. "
            'See README, "The laptop died".'
        )

    def _demo_on_first_start(self, venue_dir: Path) -> None:
        if not User.objects.exists():
            self.stdout.write("First start: loading the demo data (as `make run` does)…")
            call_command("load_demo", allow_production=True, stdout=io.StringIO())
        # Everyone on the Wi-Fi can read the published demo password: the venue organizer gets its own.
        organizer = User.objects.filter(username=DEMO_ORGANIZER).first()
        if organizer is not None and organizer.check_password(DEMO_PASSWORD):
            password = secrets.token_urlsafe(9)
            organizer.set_password(password)
            organizer.save(update_fields=["password"])
            path = venue_dir / PASSWORD_FILE
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(password + "\n")

    def _collectstatic_if_changed(self) -> None:
        # Compressing every file (brotli + gzip) costs about a minute of CPU: do it only when a source
        # file changed since the last run, so a restart after a crash is quick.
        from django.contrib.staticfiles.finders import get_finders

        digest = hashlib.sha256(settings.STORAGES["staticfiles"]["BACKEND"].encode())
        for finder in get_finders():
            for path, storage in sorted(finder.list(["CVS", ".*", "*~"]), key=lambda item: item[0]):
                stat = os.stat(storage.path(path))
                digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
        marker = Path(settings.STATIC_ROOT) / ".deckhall-sources"
        if marker.exists() and marker.read_text() == digest.hexdigest():
            return
        self.stdout.write("Collecting static files (once per change; about a minute)…")
        call_command("collectstatic", interactive=False, verbosity=0)
        marker.write_text(digest.hexdigest())

    def _announce(self, port: int, venue_dir: Path, options: dict[str, Any]) -> None:
        import segno

        address = primary_address()
        scheme = "https" if settings.VENUE_TLS_CERT else "http"
        host = settings.VENUE_HOST or address or "127.0.0.1"
        url = f"{scheme}://{host}:{port}/"
        self.stdout.write("")
        self.stdout.write(self.style.SUCCESS(f"Players: join the Wi-Fi, then open {url}"))
        local = local_origin(scheme, str(port), address) if address else ""
        if local:
            self.stdout.write(f"         (or {local}/ on phones that resolve .local names)")
        if options["self_signed"]:
            self.stdout.write(
                "         Self-signed certificate: phones warn on the first open, and the offline app "
                "(service worker) stays off."
            )
        buffer = io.StringIO()
        segno.make(url, error="m").terminal(out=buffer, compact=True)
        self.stdout.write(buffer.getvalue())
        password_file = venue_dir / PASSWORD_FILE
        if password_file.exists():
            self.stdout.write(f"Organizer log-in: organizer / {password_file.read_text().strip()}")
        self.stdout.write(f"Snapshots: {settings.VENUE_SNAPSHOT_DIR} (`manage.py snapshots`)")
        self.stdout.write("Stop the server with Ctrl+C.")


def _private_files(venue_dir: Path) -> None:
    """The database (with its WAL), the snapshots and everything under var/ readable by the venue's user
    only: they hold password hashes, API token digests and players' private lists. New files are private
    already (settings sets the umask in venue mode); this fixes files an older version left 0644."""
    paths = [venue_dir, *venue_dir.rglob("*")]
    if snapshots.supported():
        database = snapshots.database_path()
        paths += [database.with_name(database.name + suffix) for suffix in ("", "-wal", "-shm", "-journal")]
    for path in paths:
        if path.is_symlink() or not path.exists():
            continue
        os.chmod(path, 0o700 if path.is_dir() else 0o600)
