"""When late entries are taken, and from which round a late entry plays.

An event takes late entries (by join code, or an organizer adding an account or a guest) until the end of
Swiss round ``Tournament.late_entry_until_round``: while no later Swiss round has been paired, and while a
Swiss round is still left to play. A late entry plays from the next round to be paired; the rounds it
missed are recorded as the event's policy says (``Tournament.late_entry_losses``: a match loss each, as
MTR 2.x and the KTS do, or nothing) — ``records.standing_inputs`` adds them from ``Player.joined_round``.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..models import Round, Tournament


def latest_swiss_round(tournament: Tournament) -> int:
    """The number of the latest Swiss round paired (0 before round 1)."""
    return (
        tournament.round_set.filter(kind=Round.Kind.SWISS)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    )


def late_entry_refusal(tournament: Tournament) -> str | None:
    """Why a late entry is not taken now, in words for the requester; None while it is."""
    if tournament.status == Tournament.Status.REGISTRATION:
        return _("The event has not started: register players normally.")
    if tournament.status != Tournament.Status.RUNNING:
        return _("Late entries join only while the Swiss rounds run.")
    latest = latest_swiss_round(tournament)
    until = tournament.late_entry_until_round
    if until == 0:
        return _("%(event)s takes no late entries.") % {"event": tournament.name}
    if latest > until:
        return _("Late entry for %(event)s closed at the end of round %(n)s.") % {
            "event": tournament.name,
            "n": until,
        }
    if tournament.rounds is not None and latest >= tournament.rounds:
        return _("The last Swiss round of %(event)s is under way: no round is left to join.") % {
            "event": tournament.name
        }
    return None


def late_entry_open(tournament: Tournament) -> bool:
    return late_entry_refusal(tournament) is None
