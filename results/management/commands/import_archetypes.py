"""Import the community's archetype definitions as a store's archetype file.

    manage.py import_archetypes mtgoformatdata <checkout | Formats dir | format dir | bare git dir> \\
        --format Modern [--rev <commit>] [--out path.toml] [--deckhall-format constructed] [--dry-run]

Writes ``<first DECKHALL_ARCHETYPE_DIRS>/mtg-mtgoformatdata-<format>.toml`` (or ``--out``), checked by the
same schema as the rule sets before it replaces anything; prints what it converted and, per file, what it
could not convert and why.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.errors import RuleSetError
from results.mtgoformatdata import convert, to_toml
from results.rules_engine import compile_book, parse_file

ATTRIBUTION = """Archetype rules converted from Badaro's MTGOFormatData ({origin}, format {format}),
the Magic community's archetype definitions maintained for MTGOArchetypeParser.
Written by `manage.py import_archetypes mtgoformatdata`; import again rather than editing by hand."""


def _is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir() and not (path / "Formats").exists()


def _git(git_dir: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True, check=False, timeout=120
    )
    if done.returncode != 0:
        raise CommandError(f"git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout


def read_format(path: Path, fmt: str, rev: str = "HEAD") -> tuple[dict[str, str], str]:
    """The format's Archetypes/ and Fallbacks/ files as {"<Format>/Archetypes/x.json": text}, and where from."""
    if _is_git_dir(path):
        prefix = f"Formats/{fmt}/"
        names = _git(path, "ls-tree", "-r", "--name-only", rev, "--", prefix).splitlines()
        wanted = [
            n
            for n in names
            if n.endswith(".json") and n[len(prefix) :].split("/")[0] in ("Archetypes", "Fallbacks")
        ]
        if not wanted:
            raise CommandError(f"{path} at {rev} has no Formats/{fmt}/Archetypes")
        commit = _git(path, "rev-parse", "--short", rev).strip()
        return {
            n.removeprefix("Formats/"): _git(path, "show", f"{rev}:{n}") for n in wanted
        }, f"commit {commit}"
    for folder in (path / "Formats" / fmt, path / fmt, path):
        if (folder / "Archetypes").is_dir():
            break
    else:
        raise CommandError(
            f"no {fmt}/Archetypes under {path} (give a checkout, its Formats folder or the format's)"
        )
    files = {}
    for kind in ("Archetypes", "Fallbacks"):
        for file in sorted((folder / kind).glob("*.json")) if (folder / kind).is_dir() else []:
            files[f"{fmt}/{kind}/{file.name}"] = file.read_text(encoding="utf-8", errors="replace")
    return files, str(path)


class Command(BaseCommand):
    help = "Import community archetype definitions (MTGOFormatData) as a store's archetype file."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("source", choices=["mtgoformatdata"])
        parser.add_argument(
            "path", help="a checkout, its Formats folder, one format's folder, or a bare git dir"
        )
        parser.add_argument(
            "--format", required=True, dest="fmt", help="MTGOFormatData's format folder: Modern"
        )
        parser.add_argument("--rev", default="HEAD", help="the commit to read, for a bare git dir")
        parser.add_argument("--game", default="mtg")
        parser.add_argument("--out", help="the archetype file to write (default: in DECKHALL_ARCHETYPE_DIRS)")
        parser.add_argument(
            "--deckhall-format", action="append", default=[], help="limit the rules to these Deckhall formats"
        )
        parser.add_argument("--dry-run", action="store_true", help="report only, write nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        fmt = options["fmt"].strip().strip("/")
        if not fmt or "/" in fmt or fmt.startswith("."):
            raise CommandError("--format names one folder of Formats/, e.g. Modern")
        path = Path(options["path"])
        if not path.exists():
            raise CommandError(f"{path} does not exist")
        files, origin = read_format(path, fmt, options["rev"])
        conversion = convert(files, formats=options["deckhall_format"] or None)
        text = to_toml(conversion, header=ATTRIBUTION.format(origin=origin, format=fmt))
        try:  # the same schema the rule sets pass; never write a file the classifier would refuse
            book = compile_book([parse_file(text, "imported archetypes")])
        except RuleSetError as error:
            raise CommandError(f"the converted rules do not validate: {error}") from None
        out = self._out(options, fmt)
        self.stdout.write(
            f"{fmt}: {len(conversion.archetypes)} archetypes ({conversion.variants} variants), "
            f"{len(conversion.references)} fallbacks converted; {len(conversion.skipped)} files not converted; "
            f"{len(book.tests)} distinct tests"
        )
        for file, reason in conversion.skipped:
            self.stdout.write(f"  not converted: {file}: {reason}")
        colours = [file for file, note in conversion.notes if note.startswith("IncludeColorInName")]
        if colours:
            self.stdout.write(f"  {len(colours)} archetypes take the deck's colours in MTGOArchetypeParser's "
                              "names; Deckhall labels them by the name alone")  # fmt: skip
        for file, note in conversion.notes:
            if not note.startswith("IncludeColorInName"):
                self.stdout.write(f"  note: {file}: {note}")
        if options["dry_run"]:
            return
        out.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(dir=out.parent, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(tmp, out)  # all or nothing: a reader never sees half a file
        self.stdout.write(f"written {out}")

    @staticmethod
    def _out(options: dict[str, Any], fmt: str) -> Path:
        if options["out"]:
            return Path(options["out"])
        dirs = list(getattr(settings, "DECKHALL_ARCHETYPE_DIRS", []))
        if not dirs:
            if options["dry_run"]:
                return Path(".")
            raise CommandError("give --out, or set DECKHALL_ARCHETYPE_DIRS (a store's archetype directory)")
        return Path(dirs[0]) / f"{options['game']}-mtgoformatdata-{fmt.lower()}.toml"
