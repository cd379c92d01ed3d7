"""Printables as HTML or PDF: pairings, match slips, standings and deck lists (``documents``, which hands
team events' kinds to ``teams``), and the registered deck lists they print (``decklists``: JSON snapshots,
their validation and sideboard swaps)."""
