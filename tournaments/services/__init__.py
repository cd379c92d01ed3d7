"""Writes for tournaments, one module per concept; find a behaviour by the file name:

- ``setup``        creating an event, changing its settings, join codes
- ``registration`` joining (by code), organizers adding players (one, many, CSV), deck lists, renaming
- ``start``        starting the event (no-shows dropped, the round count fixed)
- ``checkin``      check-in, and undoing the no-show drops
- ``drops``        drops and their undo
- ``rounds``       pairing rounds (Swiss and pods), re-pairing, the round clock
- ``result_rules`` reading and checking a reported result against the game's rules (before any write)
- ``results``      game-by-game results, finishing early, confirm / dispute / correct / resolve
- ``sideboarding`` private swaps between games
- ``topcut``       the single-elimination cut and finishing the event

Every service is keyword-only, typed and atomic, checks permissions itself and writes nothing on error; every
visible change sends ``signals.tournament_changed`` after commit. Public names are re-exported here so callers
write ``services.round_pair_next(...)``.
"""

from .. import records
from .checkin import checkin_open, no_shows_restore, player_check_in
from .common import (
    MAX_SEED,
    TOP_CUT_SIZES,
    StaleVersion,
    format_uses_pool,
    game_rules,
    max_games,
    sideboarding_allowed,
    wins_needed,
)
from .drops import drop_undoable, player_drop, player_drop_undo
from .registration import (
    JudgedDeck,
    decks_frozen,
    display_name,
    freeze_if_deadline_passed,
    join_code_check,
    player_add_late,
    player_join,
    player_register,
    player_rename,
    player_submit_deck,
    player_submit_pool,
    players_bulk_add,
    players_from_csv,
    registration_deck_judge,
    registration_freeze,
    registration_open,
    tournament_by_join_code,
)
from .results import (
    FINISH_REASONS,
    match_confirm_result,
    match_correct_result,
    match_dispute,
    match_finish_early,
    match_report_result,
    match_resolve_dispute,
    match_result_dict,
    match_save_game,
    next_first_player,
)
from .rounds import round_pair_next, round_repair, round_timer_start
from .setup import (
    EDITABLE_ALWAYS,
    EDITABLE_BEFORE_ROUND_1,
    new_join_code,
    tournament_create,
    tournament_update,
)
from .sideboarding import current_deck, match_sideboard, side_section, sideboard_options
from .start import rounds_from_attendance, tournament_start
from .topcut import bracket_of, match_winner, topcut_advance, topcut_start, tournament_finish

__all__ = [
    "EDITABLE_ALWAYS",
    "EDITABLE_BEFORE_ROUND_1",
    "FINISH_REASONS",
    "MAX_SEED",
    "TOP_CUT_SIZES",
    "JudgedDeck",
    "StaleVersion",
    "bracket_of",
    "checkin_open",
    "current_deck",
    "decks_frozen",
    "display_name",
    "drop_undoable",
    "format_uses_pool",
    "freeze_if_deadline_passed",
    "game_rules",
    "join_code_check",
    "match_confirm_result",
    "match_correct_result",
    "match_dispute",
    "match_finish_early",
    "match_report_result",
    "match_resolve_dispute",
    "match_result_dict",
    "match_save_game",
    "match_sideboard",
    "match_winner",
    "max_games",
    "new_join_code",
    "next_first_player",
    "no_shows_restore",
    "player_add_late",
    "player_check_in",
    "player_drop",
    "player_drop_undo",
    "player_join",
    "player_register",
    "player_rename",
    "player_submit_deck",
    "player_submit_pool",
    "players_bulk_add",
    "players_from_csv",
    "records",
    "registration_deck_judge",
    "registration_freeze",
    "registration_open",
    "round_pair_next",
    "round_repair",
    "round_timer_start",
    "rounds_from_attendance",
    "side_section",
    "sideboard_options",
    "sideboarding_allowed",
    "topcut_advance",
    "topcut_start",
    "tournament_by_join_code",
    "tournament_create",
    "tournament_finish",
    "tournament_start",
    "tournament_update",
    "wins_needed",
]  # fmt: skip
