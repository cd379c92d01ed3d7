"""Fixtures the tournament tests share."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def opened() -> Iterator[list[Any]]:
    """The test's browser contexts, closed before the live server goes: a phone left open keeps polling."""
    contexts: list[Any] = []
    yield contexts
    for context in contexts:
        context.close()
