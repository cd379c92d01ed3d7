"""Who may import or overwrite a game's card database: staff, and the game's card editors.

Being an organizer is about running events; replacing a game's whole card database changes every
deck and tournament of that game, so it is granted per game by staff (admin → Games → card editors).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from .models import Game


def card_databases_editable_by(user: Any) -> QuerySet[Game]:
    if not user or not user.is_authenticated:
        return Game.objects.none()
    if user.is_staff:
        return Game.objects.all()
    return Game.objects.filter(card_editors=user)


def can_edit_card_database(*, user: Any, game: Game) -> bool:
    return card_databases_editable_by(user).filter(pk=game.pk).exists()
