"""The tournament engines: pure Python over plain dataclasses, no Django (a test checks it).

- ``pairing/`` — Swiss pairing (score groups, rematch avoidance, byes, the pair-down lower bound);
- ``standings`` — standings with each game's official tiebreakers;
- ``topcut`` — single-elimination brackets seeded from the standings;
- ``pods`` and ``pod_rounds`` — multiplayer pods (sizes, seating, byes, places from game scores);
- ``first_player`` — who goes first in each game of a match, by the game's policy.

Engines refuse with a message key and params (``error.key``, ``error.params``); the words live in
``tournaments/pairings/refusals.py`` and the catalogues, so an engine never builds a sentence for people.
"""
