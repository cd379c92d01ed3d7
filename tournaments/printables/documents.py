"""Printables (pairings by table and by name, match slips, standings, deck lists) as HTML or PDF,
and the deck check that compares a presented list with the registered one."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from decks.deckhash import snapshot_hash
from decks.formats import parse_deck
from decks.resolve import deck_resolve
from decks.selectors import sections_in_game_order
from games.registry import default_registry

from ..models import Player, Round, Tournament
from ..permissions import is_organizer
from ..reads import selectors
from . import decklists

TIEBREAK_LABELS = {
    "omw": "OMW%",
    "gw": "GW%",
    "ogw": "OGW%",
    "oomw": "OOMW%",
    "owp": "OWP",
    "oowp": "OOWP",
}
# Pod tiebreaks are game totals: each game names its own, in words (not "TB1 / TB2 / OPP").
POD_LABELS = {
    "vale": {"tiebreak": _lazy("Victory points"), "tiebreak2": _lazy("Summoned cards")},
    "everseal": {"tiebreak": _lazy("Defeats dealt")},
}
POD_DEFAULT_LABELS = {"tiebreak": _lazy("Game score"), "tiebreak2": _lazy("Second game score")}
OPPONENTS_LABEL = _lazy("Opponents' average points")
# Top-cut finish in the final standings, by how far the player went.
CUT_LABELS = {
    "winner": _lazy("Winner"),
    "final": _lazy("Finalist"),
    "semifinal": _lazy("Semifinalist"),
    "quarterfinal": _lazy("Quarterfinalist"),
}


def pod_labels(tournament: Tournament) -> dict[str, Any]:
    """A pod game's own words for its score and tiebreak (Vale: victory points, summoned cards)."""
    return dict(POD_LABELS.get(tournament.game.slug, POD_DEFAULT_LABELS))


def tiebreak_columns(tournament: Tournament, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keys = selectors.TIEBREAK_KEYS.get(tournament.tiebreakers, ())
    if rows:
        keys = tuple(k for k in keys if k in rows[0]["tiebreakers"]) or tuple(rows[0]["tiebreakers"])
    labels = pod_labels(tournament) if keys and set(keys) <= selectors.RAW_TIEBREAKS else None
    columns = []
    for key in keys:
        if labels is not None:
            if key == "opp":
                label = OPPONENTS_LABEL
            elif key in labels:
                label = labels[key]
            else:
                continue  # a tiebreak this game does not have (Everseal has one value, not two)
            columns.append({"key": key, "label": label, "percent": False})
        else:
            columns.append(
                {
                    "key": key,
                    "label": TIEBREAK_LABELS.get(key, key),
                    "percent": key not in selectors.RAW_TIEBREAKS,
                }
            )
    return columns


def _number(value: Any) -> str:
    """Rounded for people: whole numbers as such, others to one decimal (2.33333 → 2.3)."""
    value = float(value or 0)
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def standings_rows(tournament: Tournament) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rows = selectors.standings_compute(tournament=tournament)
    columns = tiebreak_columns(tournament, rows)
    for row in rows:
        row["cells"] = [
            f"{row['tiebreakers'].get(c['key'], 0) * 100:.2f}%"
            if c["percent"]
            else _number(row["tiebreakers"].get(c["key"], 0))
            for c in columns
        ]
        row["points_text"] = _number(row["points"])
        cut = row.get("top_cut")
        row["cut_label"] = CUT_LABELS.get(cut, cut) if cut else ""
    return rows, columns


# Section words for a list whose game is not at hand (a snapshot alone): the catalogues name the usual slugs.
GENERIC_SECTION_TITLES: dict[str, Any] = {
    "main": pgettext_lazy("deck section", "Main"),
    "extra": pgettext_lazy("deck section", "Extra"),
    "side": pgettext_lazy("deck section", "Side"),
    "hero": pgettext_lazy("deck section", "Hero"),
    "creatures": pgettext_lazy("deck section", "Creatures"),
    "additional": pgettext_lazy("deck section", "Additional"),
    "pool": pgettext_lazy("deck section", "Pool"),
    "images": pgettext_lazy("deck section", "Images"),
    "soulbond": pgettext_lazy("deck section", "Soul Bond"),
    "tokens": pgettext_lazy("deck section", "Tokens"),
}


def section_title(slug: str, game_slug: str = "", format_slug: str = "") -> str:
    """A section's name in the active language: the rule set's (English when it has no word in the
    language) when the game is known, else the catalogue's word for the usual slugs, else the slug."""
    if game_slug:
        try:
            fmt = default_registry().format(game_slug, format_slug) if format_slug else None
        except KeyError:
            fmt = None
        if fmt is not None and slug in fmt.section_map:
            return fmt.section_map[slug].title(get_language() or "en")
    generic = GENERIC_SECTION_TITLES.get(slug)
    return str(generic) if generic is not None else slug.replace("_", " ").capitalize()


def snapshot_entry(
    snapshot: dict[str, Any] | None, *, game_slug: str = "", format_slug: str = ""
) -> dict[str, Any]:
    """A deck snapshot for display: sections with their titles, lines and totals, in the game's own
    section order (Main, Extra, Side …) when the game is known — the same order as the deck page and
    every export, so a judge reads every player's list the same way."""

    snapshot = snapshot or {}
    raw = snapshot.get("sections", {})
    if game_slug:
        raw = sections_in_game_order(game_slug=game_slug, format_slug=format_slug, sections=raw)
    sections = [
        {"slug": slug, "title": section_title(slug, game_slug, format_slug), "lines": lines,
         "total": sum(int(line["count"]) for line in lines)}
        for slug, lines in raw.items()
        if lines
    ]  # fmt: skip
    return {"hero": snapshot.get("hero"), "co_heroes": snapshot.get("co_heroes") or [], "sections": sections,
            "has_deck": bool(snapshot),
            "hash": snapshot_hash(game_slug=game_slug, snapshot=snapshot) if snapshot and game_slug else ""}  # fmt: skip


def decklist_entries(players: list[Player]) -> list[dict[str, Any]]:
    """Registered lists for display, one entry per player."""
    games: dict[int, tuple[str, str]] = {}  # tournament id -> (game, format): looked up once, not per player
    entries = []
    for player in players:
        if player.tournament_id not in games:
            games[player.tournament_id] = (player.tournament.game.slug, player.tournament.format_slug)
        game_slug, format_slug = games[player.tournament_id]
        entries.append(
            {"player": player, **snapshot_entry(player.deck, game_slug=game_slug, format_slug=format_slug)}
        )
    return entries


SIDE_SECTION = "side"


def sideboard_rows(snapshot: dict[str, Any], *, game_slug: str = "", format_slug: str = "") -> dict[str, Any]:
    """The clickable sideboarding table: every card that can go out (by section) and every side card that can
    come in, with the sections it may go into. Cards are named by external id, never typed by the player."""
    # The main deck first: it is where most swaps go, and the default target of a side card.
    sections = dict(sorted(snapshot.get("sections", {}).items(), key=lambda item: item[0] != "main"))
    titles = {slug: section_title(slug, game_slug, format_slug) for slug in sections}
    targets = [{"slug": slug, "title": titles[slug]} for slug in sections if slug != SIDE_SECTION]
    out_rows = [
        {"section": slug, "title": titles[slug], "id": line["external_id"], "name": line["name"],
         "count": int(line["count"])}
        for slug, lines in sections.items() if slug != SIDE_SECTION
        for line in lines
    ]  # fmt: skip
    in_rows = [
        {"id": line["external_id"], "name": line["name"], "count": int(line["count"])}
        for line in sections.get(SIDE_SECTION, [])
    ]
    return {"out": out_rows, "in": in_rows, "targets": targets}


def pool_entry(player: Player) -> dict[str, Any]:
    """A limited player's registered pool, shaped like a deck list entry."""
    lines = [line for lines in (player.pool or {}).get("sections", {}).values() for line in lines]
    return {
        "player": player,
        "has_deck": bool(lines),
        "hero": None,
        "sections": [{"slug": "pool", "title": _("Pool"), "lines": lines,
                      "total": sum(int(line["count"]) for line in lines)}] if lines else [],
    }  # fmt: skip


def pairing_rows(round_: Round, order: str) -> list[dict[str, Any]]:
    """One row per match (by table), or one row per player with their table and opponent (by name)."""
    if order != "name":
        return [
            {"match": m, "seats": list(m.seats.all())} for m in selectors.round_with_matches(round_=round_)
        ]
    # By name: the page players look for their table on, re-rendered for every new round of events of
    # thousands — read as plain values (no model instances, none of the players' stored decks).
    by_match: dict[int, dict[str, Any]] = {}
    for match_id, table, bye, player_id, name in selectors.round_seat_names(round_=round_):
        entry = by_match.setdefault(match_id, {"table": table, "bye": bye, "seats": []})
        entry["seats"].append((player_id, name))
    teams: dict[int, str] = {}
    if round_.tournament.team_mode == "2hg":
        from ..reads.teams import two_headed_labels
        from .teams import add_second_heads

        add_second_heads(round_.tournament, by_match)  # seat B finds the team's table under their own name
        teams = two_headed_labels(round_.tournament)  # ... and the other team by name, both heads with it
    rows = []
    for m in by_match.values():
        for player_id, name in m["seats"]:
            mate = m.get("mates", {}).get(player_id)
            others = [
                teams.get(other_id, other)
                for other_id, other in m["seats"]
                if other_id not in (player_id, mate)
            ]
            others = list(dict.fromkeys(others))  # the two heads of one team are one opponent
            rows.append({"table": m["table"], "player": name, "opponents": others, "bye": m["bye"]})
    rows.sort(key=lambda r: (r["player"].casefold(), r["table"]))
    return rows


def context_for(
    tournament: Tournament, kind: str, *, number: int | None, order: str, user: Any
) -> dict[str, Any] | None:
    # Only two orders exist; anything else (including header-breaking text) means by table, so the
    # value that reaches the file name is always one of ours.
    order = "name" if order == "name" else "table"
    base: dict[str, Any] = {"tournament": tournament, "kind": kind}
    round_ = None
    if kind in ("pairings", "slips"):
        rounds = tournament.round_set.order_by("-number")
        round_ = rounds.filter(number=number).first() if number else rounds.first()
        if round_ is None:
            return None
        base["round"] = round_
    if kind == "pairings" and order == "table" and tournament.team_size > 1:
        from .teams import team_pairing_rows

        base.update(
            template="tournaments/print/team_pairings.html",
            rows=team_pairing_rows(tournament, round_),  # type: ignore[arg-type]
            filename=f"team-pairings-{tournament.pk}-r{round_.number}",  # type: ignore[union-attr]
        )
    elif kind == "pairings":
        base.update(
            template="tournaments/print/pairings.html",
            order=order,
            rows=pairing_rows(round_, order),  # type: ignore[arg-type]
            filename=f"pairings-{tournament.pk}-r{round_.number}-{order}",  # type: ignore[union-attr]
        )
    elif kind == "slips":
        matches = [m for m in selectors.round_with_matches(round_=round_) if not m.bye]  # type: ignore[arg-type]
        if tournament.team_size > 1:
            from .teams import label_team_slips

            label_team_slips(tournament, matches)
        from ..services import EXTRA_DRAWS, game_rules, max_games

        rules = game_rules(tournament.game)
        base.update(
            template="tournaments/print/slips.html",
            matches=matches,
            # As many rows as the match can have games (the phone and the API use the same bound).
            game_rows=range(1, max_games(tournament, round_, drawn=EXTRA_DRAWS) + 1),
            ask_chooser=rules.first_player == "loser_chooses",
            cut_seeded=round_.kind == Round.Kind.TOP_CUT and rules.top_cut_first_player == "higher_seed",  # type: ignore[union-attr]
            filename=f"slips-{tournament.pk}-r{round_.number}",  # type: ignore[union-attr]
        )
    elif kind == "standings":
        rows, columns = standings_rows(tournament)
        base.update(template="tournaments/print/standings.html", rows=rows, columns=columns,
                    filename=f"standings-{tournament.pk}")  # fmt: skip
        if tournament.team_size > 1:
            from .teams import teams_context

            base["team_rows"] = teams_context(tournament)["team_rows"]  # type: ignore[index]  # teams first
    elif kind in ("teams", "phase"):
        from .teams import phase_context, teams_context

        extra = teams_context(tournament) if kind == "teams" else phase_context(tournament, number)
        if extra is None:
            return None
        for row in extra.get("team_rows") or ():
            row["top_cut_label"] = CUT_LABELS.get(row["top_cut"], row["top_cut"]) if row["top_cut"] else ""
        base.update(extra)
    elif kind == "decklists":
        players = selectors.visible_decklists(tournament, user)
        base.update(template="tournaments/print/decklists.html", players=decklist_entries(players),
                    filename=f"decklists-{tournament.pk}")  # fmt: skip
    else:
        return None
    base["organizer"] = is_organizer(tournament, user)
    return base


def render_pdf(request: HttpRequest, context: dict[str, Any]) -> bytes:
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    html = render_to_string(context["template"], {**context, "pdf": True}, request=request)
    # Only inline data: URLs; never fetch http(s) or local files while rendering user-provided names.
    fetcher = URLFetcher(allowed_protocols=("data",), allow_redirects=False)
    return HTML(string=html, url_fetcher=fetcher, base_url="data:,").write_pdf()


def deck_check(tournament: Tournament, player: Player, text: str) -> list[dict[str, Any]]:
    """Parse a presented list (any supported deck format) and list every difference to the registered one."""

    if not text.strip():
        raise ValidationError({"text": _("Paste the presented deck list.")})
    parsed = parse_deck(text)
    if getattr(parsed, "errors", None):
        raise ValidationError({"text": [str(e) for e in parsed.errors][:10]})
    resolved = deck_resolve(
        game=tournament.game, parsed=parsed, format_slug=tournament.format_slug,
        house_sideboard=tournament.allow_sideboard,
    )  # fmt: skip
    if not resolved.ok:
        raise ValidationError({"text": resolved.problems()[:10]})
    presented = decklists.snapshot_from_sections(resolved.sections, resolved.hero, resolved.extra_heroes)
    return decklists.compare_lists(player.deck, presented)


def swap_lines(deck: dict[str, Any] | None, changes: list[Any]) -> list[dict[str, Any]]:
    """A player's swaps in words ("−1 Card A; +1 Card B"), with card names from their registered deck."""
    names = {line["external_id"]: line["name"] for lines in (deck or {}).get("sections", {}).values()
             for line in lines}  # fmt: skip
    lines = []
    for change in changes:
        items = []
        for swap in change.swaps:
            if swap.get("out"):
                items.append(("−", swap.get("count", 1), names.get(swap["out"], swap["out"])))
            if swap.get("in"):
                items.append(("+", swap.get("count", 1), names.get(swap["in"], swap["in"])))
        lines.append({"game": change.game_number, "items": items})
    return lines
