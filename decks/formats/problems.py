"""Deck-list problems as codes with named parameters: the parsers and the resolver build no sentence.

A problem is ``(code, params)``; its words come from the site's catalogues (decks/messages.py), which
installs its renderer here when Django starts, so a problem reads in whatever language is asked for.
Without it (the parsers used on their own) a problem reads as its code and parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Renderer = Callable[[str, Mapping[str, Any], "str | None"], str]


def _plain(code: str, params: Mapping[str, Any], lang: str | None) -> str:
    return f"{code} {dict(params)}" if params else code


_renderer: Renderer = _plain


def set_renderer(renderer: Renderer) -> None:
    """Install the function that words a problem (decks/messages.py does, at start-up)."""
    global _renderer
    _renderer = renderer


def render(code: str, params: Mapping[str, Any], lang: str | None = None) -> str:
    """The problem in ``lang``'s words (None: the active language)."""
    return _renderer(code, params, lang)
