"""The words of the pairing and pod engines' refusals: the engines (tournaments/pairing, pods.py,
pod_rounds.py) raise with a message key and named params and build no sentence for people; the services
word the reason here, through the catalogues, in the reader's language. Add keys, never repurpose one."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

MESSAGES: dict[str, str] = {
    "pairing.rematch_only": gettext_noop(
        "no pairing without a rematch exists for these players (everyone left has played each other)"
    ),
    "pairing.all_had_bye": gettext_noop("odd number of players and every player has already had a bye"),
    "pairing.bye_forces_rematch": gettext_noop(
        "no player who has not had a bye can receive it without forcing a rematch among the others"
    ),
    "pods.too_few": gettext_noop("%(players)s players cannot fill a pod of at least %(min)s"),
    "pods.no_split": gettext_noop("%(players)s players cannot be split into pods of %(min)s–%(max)s"),
    "pods.no_bye": gettext_noop(
        "%(players)s players cannot be seated in pods of %(min)s–%(max)s and only %(eligible)s of them can "
        "still get a bye (nobody gets two)"
    ),
    "pods.defeats_range": gettext_noop(
        "player %(player)s cannot have defeated %(defeats)s opponents (between 0 and %(max)s)"
    ),
    "pods.two_winners": gettext_noop(
        "only one player can defeat every opponent: the game ends when the first does"
    ),
}


def reason(error: Exception) -> str:
    """Why an engine refused, in the active language; an error without a known key (a bad pod size range
    from a rule set, a bug) keeps its own text."""
    key = getattr(error, "key", "")
    if key not in MESSAGES:
        return str(error)
    return gettext(MESSAGES[key]) % getattr(error, "params", {})
