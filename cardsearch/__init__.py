"""One search language for every game's cards (README "Searching cards").

Pure Python, no Django: the ground floor the card pages, the API, the deck page and the rules engine's
FILTER language all stand on. ``query`` reads the text a player typed into a tree (errors point at the
token), ``fields`` is each game's field table (built from its rule set's ``[game.search]`` data, so a new
game declares its keywords in data), ``evaluate`` judges cards in memory — a typed query's tree and a rule
set's FILTER compiled into the same tree (``games.filters.filter_tree``) alike — ``index`` answers a query
over a game's cards with postings and sorted arrays, ``explain`` puts a query back into words. The site's
side (rows, pages, legality) is ``cards.search``.
"""

from .fields import FieldSpec, FieldTable, field_table
from .query import And, Not, Or, QueryError, Term, parse
from .text import fold

__all__ = [
    "And",
    "FieldSpec",
    "FieldTable",
    "Not",
    "Or",
    "QueryError",
    "Term",
    "field_table",
    "fold",
    "parse",
]
