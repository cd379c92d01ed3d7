"""Names of the top cut's stages, best first: how far a player (or a team) went. Shared by the players'
standings (``selectors``) and the team standings (``teams``)."""

from __future__ import annotations

# Best first. A stage is the furthest round a player reached: losing a semifinal leaves them at "semifinal".
STAGE_ORDER = {name: i for i, name in enumerate(
    ("winner", "final", "semifinal", "quarterfinal", "top16", "top32", "top64")
)}  # fmt: skip


def stage_name(matches_in_round: int) -> str:
    return {1: "final", 2: "semifinal", 4: "quarterfinal"}.get(matches_in_round, f"top{2 * matches_in_round}")
