"""How the event ended for one player, in words for their My event page.

- After the Swiss rounds, a player outside the top cut: "… you finished 5th of 9 and did not make the top 4."
- After Finish, everyone: their final place (the final standings: the cut by how far each went, then the
  rest by Swiss rank) and record.

The standings are computed once per visible change of the event (keyed by ``Tournament.live_version``) and
shared by every phone that asks, so a room of phones polling a finished event costs one computation.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..models import Player, Tournament


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th … — each form a catalogue entry, so a language has its own."""
    if n % 100 in (11, 12, 13):
        form = pgettext("ordinal 11, 12, 13", "%(n)sth")
    else:
        form = {
            1: pgettext("ordinal 1", "%(n)sst"),
            2: pgettext("ordinal 2", "%(n)snd"),
            3: pgettext("ordinal 3", "%(n)srd"),
        }.get(n % 10) or pgettext("ordinal", "%(n)sth")
    return form % {"n": n}


def _places(tournament: Tournament) -> dict[str, Any]:
    """{"rank": {player: place}, "swiss": {player: Swiss rank}, "cut": {players of the cut}, "count": n}."""
    key = f"tournaments:outcome:{tournament.pk}:{tournament.live_version}"
    found = cache.get(key)
    if found is not None:
        return found
    from .selectors import standings_compute

    rows = standings_compute(tournament=tournament)
    found = {
        "rank": {r["player"]: r["rank"] for r in rows},
        "swiss": {r["player"]: r["swiss_rank"] for r in rows},
        "cut": {r["player"] for r in rows if r["top_cut"]},
        "count": len(rows),
    }
    if tournament.team_size > 1 and tournament.status == Tournament.Status.FINISHED:
        # A team event is won by teams: each member is told their team's place (player id -> the team's row).
        from ..services.teams import team_standings_rows

        teams = team_standings_rows(tournament)
        found["team_count"] = len(teams)
        found["teams"] = {
            m["player"]: {k: row[k] for k in ("name", "rank", "wins", "losses", "draws")}
            for row in teams
            for m in row["members"]
        }
    cache.set(key, found, 600)
    return found


def player_outcome(
    tournament: Tournament, player: Player, record: dict[str, int], *, seated: bool = False
) -> dict[str, Any] | None:
    """What My event says about how the event ended for ``player``; None while it has not ended for them."""
    if player.waitlisted:
        return None
    if tournament.status == Tournament.Status.RUNNING:
        # Only a player with no table in the latest round can have been cut from a phase.
        return None if seated else _phase_cut_outcome(tournament, player)
    if tournament.status not in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        return None
    places = _places(tournament)
    if player.pk not in places["rank"]:
        return None
    count = places["count"]
    team = places.get("teams", {}).get(player.pk)
    if tournament.status == Tournament.Status.FINISHED and team is not None:
        text = _("Final standings: your team %(team)s finished %(place)s of %(count)s teams, with a record of "
                 "%(wins)s–%(losses)s–%(draws)s.") % {
            "team": team["name"], "place": ordinal(team["rank"]), "count": places["team_count"],
            "wins": team["wins"], "losses": team["losses"], "draws": team["draws"],
        }  # fmt: skip
        return {"final": True, "place": team["rank"], "count": places["team_count"], "text": text,
                "next": _("The event is over. Thank you for playing!")}  # fmt: skip
    if tournament.status == Tournament.Status.FINISHED:
        place = places["rank"][player.pk]
        text = _("Final standings: you finished %(place)s of %(count)s, with a record of %(wins)s–%(losses)s–%(draws)s.") % {
            "place": ordinal(place), "count": count, **record,
        }  # fmt: skip
        return {"final": True, "place": place, "count": count, "text": text,
                "next": _("The event is over. Thank you for playing!")}  # fmt: skip
    if player.pk in places["cut"]:
        return None
    place = places["swiss"][player.pk]
    text = _("The Swiss rounds are over: you finished %(place)s of %(count)s and did not make the top %(cut)s.") % {
        "place": ordinal(place), "count": count, "cut": len(places["cut"]) or tournament.top_cut,
    }  # fmt: skip
    return {"final": False, "place": place, "count": count, "text": text,
            "next": _("Your event is over: the top cut plays on (see the standings). Thank you for playing!")}  # fmt: skip


def _phase_cut_outcome(tournament: Tournament, player: Player) -> dict[str, Any] | None:
    """A player the cut before a day-2 phase left out: the line they missed and where they finished."""
    from .phases import cut_from_phase

    cut = cut_from_phase(tournament, player.pk)
    if cut is None:
        return None
    phase = cut["phase"]
    words = {"place": ordinal(cut["place"]), "count": cut["count"], "phase": phase.number}
    if phase.min_points is not None:
        text = _("You did not make the cut for phase %(phase)s (%(points)s points needed); you finished "
                 "%(place)s of %(count)s.") % {**words, "points": phase.min_points}  # fmt: skip
    else:
        text = _("You did not make the cut for phase %(phase)s (the top %(top)s advanced); you finished "
                 "%(place)s of %(count)s.") % {**words, "top": len(phase.entrants or ())}  # fmt: skip
    return {"final": False, "place": cut["place"], "count": cut["count"], "text": text,
            "next": _("Your event is over: phase %(phase)s plays on (see the standings). Thank you for "
                      "playing!") % words}  # fmt: skip
