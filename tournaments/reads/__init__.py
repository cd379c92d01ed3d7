"""Reads of an event (no writes): its match history as plain data for the engines (``records``, and
``team_records`` for Two-Headed Giant seats), standings, rounds and lists (``selectors``), teams and their
standings (``teams``), phases (``phases``), audit trails in words (``history``), how the event ended for a
player (``outcomes``), the names of the top cut's stages (``cut_stages``) and a registered list as one side
of a deck comparison (``compare_lists``)."""
