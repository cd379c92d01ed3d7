"""Team deck construction: the format's ``team`` rule (unified construction…) over a team's decks.

- ``team_deck_conflicts(game=, format_slug=, decks=[(label, snapshot)])`` — every card the rule forbids two
  teammates to share, naming the card and both decks (nothing when the format has no team rule). Team
  registration refuses on these; the deck builder shows them live.
- ``team_deck_check(user=, game=, format_slug=, label=, snapshot=, tournament=None, decks=())`` — the builder's
  check of a deck being edited against the teammates' decks: the registered decks of the user's teammates in a
  team event, and/or decks the user can read (a teammate's deck shared by its link).
- ``team_check_events(user)`` — the user's team events a builder can check against.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from games.cards import Deck as EngineDeck
from rules.engine.team import team_conflicts
from rules.services import card_info

from ..models import TeamMember, Tournament
from ..printables.decklists import Snapshot, snapshot_cards, snapshot_from_deck
from .common import game_rules

SEATS = "ABC"


def _format_rule(game: Any, format_slug: str) -> Any:
    fmt = game_rules(game).formats.get(format_slug)
    return None if fmt is None else fmt.team


def team_deck_conflicts(
    *, game: Any, format_slug: str, decks: Sequence[tuple[str, Snapshot]]
) -> list[dict[str, Any]]:
    """The team rule's violations, each naming the card and both decks, in the order the decks are given."""

    rule = _format_rule(game, format_slug)
    if rule is None:
        return []
    engine_decks = []
    for label, snapshot in decks:
        sections, _hero = snapshot_cards(snapshot)
        engine_decks.append(
            (
                label,
                EngineDeck(
                    sections={slug: [(card_info(c), n) for c, n in rows] for slug, rows in sections.items()}
                ),
            )
        )
    return [
        {
            "card": c.card,
            "decks": list(c.decks),
            "message": _("“%(card)s” is in both “%(first)s” and “%(second)s”: with unified deck construction a "
                         "card other than basic lands may be in one teammate's deck only.")
            % {"card": c.card, "first": c.decks[0], "second": c.decks[1]},
        }
        for c in team_conflicts(rule, engine_decks)
    ]  # fmt: skip


def _member_deck_label(member: TeamMember) -> str:
    player = member.player
    if player.source_deck_id is not None and player.source_deck is not None:
        return player.source_deck.name
    return _("%(player)s's deck (seat %(seat)s)") % {"player": player.name, "seat": SEATS[member.seat]}


def team_check_events(user: Any) -> list[dict[str, Any]]:
    """The unfinished team events where ``user`` is on a team, with the teammates and their registered decks."""
    if user is None or not user.is_authenticated:
        return []
    mine = (
        TeamMember.objects.filter(player__user=user)
        .exclude(team__tournament__status=Tournament.Status.FINISHED)
        .select_related("team__tournament__game")
        .order_by("-team__tournament__created_at")[:20]
    )
    out = []
    for own in mine:
        tournament = own.team.tournament
        mates = [
            {"seat": SEATS[m.seat], "name": m.player.name,
             "deck": _member_deck_label(m) if m.player.deck else None}
            for m in own.team.members.select_related("player__source_deck").exclude(pk=own.pk)
        ]  # fmt: skip
        out.append({
            "tournament": tournament.pk, "name": tournament.name, "game": tournament.game.slug,
            "format": tournament.format_slug, "team": own.team.name, "seat": SEATS[own.seat], "teammates": mates,
            "rule": _format_rule(tournament.game, tournament.format_slug) is not None,
        })  # fmt: skip
    return out


def team_deck_check(
    *,
    user: Any,
    game: Any,
    format_slug: str,
    label: str,
    snapshot: Snapshot,
    tournament: Tournament | None = None,
    decks: Sequence[Any] = (),
) -> dict[str, Any]:
    """Check a deck (as being edited) against the teammates' decks. Read only; a teammate's registered list is
    reported only by the names of the cards both decks hold, and only to a member of that team."""
    others: list[tuple[str, Snapshot]] = []
    if tournament is not None:
        own = (
            TeamMember.objects.filter(player__user=user, team__tournament=tournament)
            .select_related("team")
            .first()
            if user is not None and user.is_authenticated
            else None
        )
        if own is None:
            raise PermissionDenied(_("You are not on a team of this event."))
        if tournament.game_id != game.pk:
            raise ValidationError({"tournament": _("This event is for another game than the deck.")})
        format_slug = tournament.format_slug
        for member in own.team.members.select_related("player__source_deck").exclude(pk=own.pk):
            if member.player.deck:
                others.append((_member_deck_label(member), member.player.deck))
    for deck in decks:
        if deck.game_id != game.pk:
            raise ValidationError({"decks": _("“%(deck)s” is a deck of another game.") % {"deck": deck.name}})
        others.append((deck.name, snapshot_from_deck(deck)))
    names = [label] + [name for name, _snapshot in others]
    return {
        "format": format_slug,
        "rule": _format_rule(game, format_slug) is not None,
        "decks": names,
        "conflicts": team_deck_conflicts(
            game=game, format_slug=format_slug, decks=[(label, snapshot), *others]
        ),
    }
