"""Writes for tournaments, one module per concept; find a behaviour by the file name:

- ``setup``        creating an event, changing its settings, join codes
- ``registration`` joining (by code), organizers adding players, deck lists, renaming
- ``bulk_add``     organizers adding many players at once (names, or a CSV with deck lists)
- ``start``        starting the event (no-shows dropped, the round count fixed)
- ``late_entry``   when late entries are taken and from which round they play
- ``waitlist``     the player cap and its waitlist (promotion before and after the start, admits)
- ``names``/``claims`` guest entries claimed by their player or linked to an account by an organizer
- ``checkin``      check-in, and undoing the no-show drops
- ``drops``        drops and their undo
- ``rounds``       pairing rounds (Swiss and pods), re-pairing, the round clock
- ``result_rules`` reading and checking a reported result against the game's rules (before any write)
- ``results``      game-by-game results, finishing early, confirm / dispute / correct / resolve
- ``sideboarding`` private swaps between games
- ``topcut``       the single-elimination cut and finishing the event
- ``mending``      one match at a time: swaps, pairing by hand, byes and losses by hand, fixed tables
- ``clock``        pausing, resuming and adding time to the round clock
- ``judging``      penalties, per-table time extensions, judge calls
- ``teams``        team events: teams with a team deck rule, team Swiss rounds, team standings
- ``phases``       more Swiss after a cut by points and/or rank (points carried over or reset)

Every service is keyword-only, typed and atomic, checks permissions itself and writes nothing on error; every
visible change sends ``signals.tournament_changed`` after commit. Public names are re-exported here so callers
write ``services.round_pair_next(...)``.
"""

from ..reads import records
from .bulk_add import players_bulk_add, players_from_csv
from .checkin import checkin_open, no_shows_restore, player_check_in
from .claims import player_claim, player_link, user_by_username
from .clock import round_timer_add, round_timer_pause, round_timer_resume
from .common import (
    EXTRA_DRAWS,
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
from .entry_requests import (
    AnswerOutcome,
    entry_request_answer,
    entry_request_create,
    open_entry_requests,
    open_team_invites,
    team_invite_by_organizer,
)
from .judging import judge_call, judge_call_answer, match_extend, penalty_add, penalty_counts
from .late_entry import late_entry_open, late_entry_refusal, latest_swiss_round
from .mending import pairing_bye, pairing_loss, pairing_pair, pairing_swap, player_fix_table, round_publish
from .names import claim_candidates
from .official_ids import official_id_check, official_id_of, official_id_save, player_official_id_set
from .phases import phase_create, phase_seat_entrants, phase_set_cut
from .registration import (
    JudgedDeck,
    decks_frozen,
    display_name,
    freeze_if_deadline_passed,
    join_code_check,
    player_add_late,
    player_consent_set,
    player_join,
    player_register,
    player_rename,
    player_submit_deck,
    player_submit_pool,
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
    seeded_seat,
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
from .team_decks import team_check_events, team_deck_check, team_deck_conflicts
from .team_invites import open_invites, team_invite_answer, team_invite_replace, team_of_captain, team_propose
from .teams import (
    team_register,
    team_seat_of,
    team_standings_rows,
    two_headed_side_ids,
    two_headed_side_users,
    two_headed_versus,
)
from .topcut import bracket_of, match_winner, topcut_advance, topcut_start, tournament_finish, was_in_top_cut
from .waitlist import (
    admitted_over_cap,
    waitlist_admit,
    waitlist_may_move_up,
    waitlist_position,
    waitlist_promote,
    was_promoted,
)

__all__ = [
    "EDITABLE_ALWAYS",
    "EDITABLE_BEFORE_ROUND_1",
    "EXTRA_DRAWS",
    "FINISH_REASONS",
    "MAX_SEED",
    "TOP_CUT_SIZES",
    "AnswerOutcome",
    "JudgedDeck",
    "StaleVersion",
    "admitted_over_cap",
    "bracket_of",
    "checkin_open",
    "claim_candidates",
    "current_deck",
    "decks_frozen",
    "display_name",
    "drop_undoable",
    "entry_request_answer",
    "entry_request_create",
    "format_uses_pool",
    "freeze_if_deadline_passed",
    "game_rules",
    "join_code_check",
    "judge_call",
    "judge_call_answer",
    "late_entry_open",
    "late_entry_refusal",
    "latest_swiss_round",
    "match_confirm_result",
    "match_correct_result",
    "match_dispute",
    "match_extend",
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
    "official_id_check",
    "official_id_of",
    "official_id_save",
    "open_entry_requests",
    "open_invites",
    "open_team_invites",
    "pairing_bye",
    "pairing_loss",
    "pairing_pair",
    "pairing_swap",
    "penalty_add",
    "penalty_counts",
    "phase_create",
    "phase_seat_entrants",
    "phase_set_cut",
    "player_add_late",
    "player_check_in",
    "player_claim",
    "player_consent_set",
    "player_drop",
    "player_drop_undo",
    "player_fix_table",
    "player_join",
    "player_link",
    "player_official_id_set",
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
    "round_publish",
    "round_repair",
    "round_timer_add",
    "round_timer_pause",
    "round_timer_resume",
    "round_timer_start",
    "rounds_from_attendance",
    "seeded_seat",
    "side_section",
    "sideboard_options",
    "sideboarding_allowed",
    "team_check_events",
    "team_deck_check",
    "team_deck_conflicts",
    "team_invite_answer",
    "team_invite_by_organizer",
    "team_invite_replace",
    "team_of_captain",
    "team_propose",
    "team_register",
    "team_seat_of",
    "team_standings_rows",
    "topcut_advance",
    "topcut_start",
    "tournament_by_join_code",
    "tournament_create",
    "tournament_finish",
    "tournament_start",
    "tournament_update",
    "two_headed_side_ids",
    "two_headed_side_users",
    "two_headed_versus",
    "user_by_username",
    "waitlist_admit",
    "waitlist_may_move_up",
    "waitlist_position",
    "waitlist_promote",
    "was_in_top_cut",
    "was_promoted",
    "wins_needed",
]  # fmt: skip
