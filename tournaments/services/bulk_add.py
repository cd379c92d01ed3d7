"""Organizers adding many players at once: names, or a CSV of ``name[,deck list]`` as spreadsheets write it.

- ``players_from_csv(text) -> rows`` — the rows of a CSV (a header row starting with "name" is skipped).
- ``players_bulk_add(tournament=, by=, rows=[(name, list_text)]) -> list[Player]`` — all rows are added or
  none; decks may be attached later with ``player_submit_deck``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.api import StateConflict, Unprocessable

from ..models import Player, Tournament
from ..permissions import require_organizer
from .common import announce
from .names import MAX_NAME
from .registration import player_submit_deck
from .waitlist import entry_goes_to_waitlist

MAX_BULK_PLAYERS = 512


def players_from_csv(text: str) -> list[tuple[str, str]]:
    """Rows of ``name[,deck list]``; a header row starting with "name" is skipped. Lists keep their newlines
    when quoted, as spreadsheets write them."""
    rows: list[tuple[str, str]] = []
    # newline="": the csv module reads line ends itself (a lone \r from an old Mac export is a line end, and
    # one inside quotes stays in the deck list), as its documentation asks of every file it reads.
    reader = csv.reader(io.StringIO(text, newline=""))
    number = 0
    while True:
        number += 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:  # what the reader cannot take: say where, never a server error
            raise ValidationError(
                {"csv": _("Line %(n)s cannot be read as CSV (%(why)s).") % {"n": number, "why": error}}
            ) from error
        if not row or not any(cell.strip() for cell in row):
            continue
        if number == 1 and row[0].strip().casefold() in ("name", "player", "имя"):
            continue
        if len(row) > 2:
            raise ValidationError(
                {"csv": _("Line %(n)s has %(k)s columns; give a name and, optionally, a deck list.")
                        % {"n": number, "k": len(row)}}
            )  # fmt: skip
        rows.append((row[0].strip(), row[1] if len(row) > 1 else ""))
    return rows


@transaction.atomic
def players_bulk_add(
    *, tournament: Tournament, by: Any, rows: Sequence[tuple[str, str] | str]
) -> list[Player]:
    """Organizers add guests by name (each with an optional deck list); all rows are added or none."""
    require_organizer(tournament, by)
    tournament.refresh_from_db()
    if tournament.status != Tournament.Status.REGISTRATION:
        raise StateConflict(
            _("Players can be added in bulk only before round 1; add late entries one by one.")
        )
    parsed = [(row, "") if isinstance(row, str) else (row[0], row[1]) for row in rows]
    parsed = [(name.strip(), deck_text) for name, deck_text in parsed if name.strip() or deck_text.strip()]
    if not parsed:  # only blank lines: a well-formed list with nothing to read, as an empty deck list (422)
        raise Unprocessable({"names": _("Give at least one name.")})
    if len(parsed) > MAX_BULK_PLAYERS:
        raise Unprocessable({"names": _("At most %(n)s players at once.") % {"n": MAX_BULK_PLAYERS}})
    # The list itself first (well-formed text whose lines cannot go together: 422), then what the event
    # already holds (its state, 409).
    seen: dict[str, int] = {}
    for number, (name, _deck) in enumerate(parsed, start=1):
        if not name:  # a CSV row "…,deck": the text is well-formed, the row names nobody (422)
            raise Unprocessable({"names": _("Line %(n)s has a deck list but no name.") % {"n": number}})
        if len(name) > MAX_NAME:
            raise Unprocessable(
                {"names": _("Line %(n)s: the name is longer than 150 characters.") % {"n": number}}
            )
        if name.casefold() in seen:
            raise Unprocessable(
                {
                    "names": _("Line %(n)s: %(name)s is already on line %(first)s of this list.")
                    % {"n": number, "name": name, "first": seen[name.casefold()]}
                }
            )
        seen[name.casefold()] = number
    taken = {n.casefold() for n in tournament.players.values_list("name", flat=True)}
    for number, (name, _deck) in enumerate(parsed, start=1):
        if name.casefold() in taken:
            raise StateConflict(
                _("Line %(n)s: %(name)s is already in the event.") % {"n": number, "name": name}
            )
    players = []
    for number, (name, deck_text) in enumerate(parsed, start=1):
        player = Player.objects.create(
            tournament=tournament, name=name, waitlisted=entry_goes_to_waitlist(tournament)
        )
        if deck_text.strip():
            try:
                player_submit_deck(player=player, by=by, text=deck_text)
            except ValidationError as error:
                # A list this event cannot take (unknown cards, not legal): well-formed, refused as 422.
                raise Unprocessable(
                    {"names": [_("Line %(n)s (%(name)s):") % {"n": number, "name": name}, *error.messages]}
                ) from None
        players.append(player)
    announce(tournament.pk, "players")
    return players
