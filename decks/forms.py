from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from cards.forms import GameChoiceField
from cards.models import Game

from .formats import FORMATS, MAX_BYTES
from .gamerules import game_formats
from .models import Deck

FORMAT_LABELS = {
    "": _("Detect automatically"),
    "ydk": ".ydk (YGOPro / EDOPro)",
    "ydke": "ydke://",
    "text": _("Plain text (3 Card Name)"),
    "json": "Deckhall JSON",
    "csv": "CSV",
    "cod": _("Cockatrice .cod, MTGO .dek, OCTGN .o8d (XML)"),
    "dck": _("XMage or Forge .dck"),
    "mtgjson": _("MTGJSON deck (JSON)"),
}


def _deck_games() -> forms.ModelChoiceField:
    return GameChoiceField(
        queryset=Game.objects.filter(has_decks=True),
        to_field_name="slug",
        label=_("Game"),
        empty_label=None,
        widget=forms.Select(attrs={"data-game-select": ""}),
    )


def _format_choices() -> list[tuple[str, str]]:
    """Every deck game's formats as "game/format" options: the page shows only the chosen game's
    (decks/static/decks/forms.js), and the form checks the format belongs to the game."""
    lang = get_language() or "en"
    choices = [("", _("The game's first format"))]
    for game in Game.objects.filter(has_decks=True).order_by("name"):
        choices += [(f"{game.slug}/{fmt.slug}", fmt.title(lang)) for fmt in game_formats(game.slug)]
    return choices


def _format_field() -> forms.CharField:
    # A CharField with a select: the options are per game, and a bare slug in any case ("Advanced") from
    # a script or an old bookmark is accepted too; clean_format_slug() is the one check.
    return forms.CharField(
        label=_("Format"),
        required=False,
        max_length=80,
        widget=forms.Select(attrs={"data-format-select": ""}),
    )


class _GameFormatMixin:
    """The format select's options (built per request: languages and games change) and its check."""

    def _setup_formats(self) -> None:
        self.fields["format_slug"].widget.choices = _format_choices()  # type: ignore[attr-defined]

    def clean_format_slug(self) -> str:
        raw = (self.cleaned_data.get("format_slug") or "").strip().casefold()  # type: ignore[attr-defined]
        game = self.cleaned_data.get("game")  # type: ignore[attr-defined]
        if not raw or game is None:
            return ""
        game_slug, _slash, slug = raw.rpartition("/")
        known = [fmt.slug for fmt in game_formats(game.slug)]
        if (game_slug and game_slug != game.slug) or slug not in known:
            raise forms.ValidationError(
                _("%(game)s has no format “%(format)s”; its formats: %(known)s")
                % {"game": game.name, "format": raw[:40], "known": ", ".join(known)}
            )
        return slug


class DeckNewForm(_GameFormatMixin, forms.Form):
    game = _deck_games()
    name = forms.CharField(label=_("Name"), max_length=200)
    format_slug = _format_field()
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Deck.Visibility.choices)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._setup_formats()


class DeckImportForm(_GameFormatMixin, forms.Form):
    game = _deck_games()
    format_slug = _format_field()
    fmt = forms.ChoiceField(
        label=_("File format"), choices=[(k, FORMAT_LABELS[k]) for k in ("", *FORMATS)], required=False
    )
    name = forms.CharField(label=_("Deck name"), max_length=200, required=False)
    file = forms.FileField(label=_("Upload a file"), required=False)
    data = forms.CharField(
        label=_("…or paste the deck list"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "cols": 60}),
    )
    allow_unknown = forms.BooleanField(label=_("Import without the unknown cards"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._setup_formats()

    def clean(self) -> dict:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        if upload is None and not (cleaned.get("data") or "").strip():
            raise forms.ValidationError(_("Upload a file or paste a deck list."))
        if upload is not None and upload.size > MAX_BYTES:
            raise forms.ValidationError(_("The file is too large."))
        return cleaned
