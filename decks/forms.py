from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from cards.models import Game

from .formats import FORMATS, MAX_BYTES
from .models import Deck

FORMAT_LABELS = {
    "": _("Detect automatically"),
    "ydk": ".ydk (YGOPro / EDOPro)",
    "ydke": "ydke://",
    "text": _("Plain text (3 Card Name)"),
    "json": "Deckhall JSON",
    "csv": "CSV",
    "cod": "Cockatrice .cod",
}


def _deck_games() -> forms.ModelChoiceField:
    return forms.ModelChoiceField(
        queryset=Game.objects.filter(has_decks=True), to_field_name="slug", label=_("Game"), empty_label=None
    )


class DeckNewForm(forms.Form):
    game = _deck_games()
    name = forms.CharField(label=_("Name"), max_length=200)
    format_slug = forms.SlugField(
        label=_("Format"), required=False, help_text=_("Empty: the game's first format")
    )
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Deck.Visibility.choices)


class DeckImportForm(forms.Form):
    game = _deck_games()
    format_slug = forms.SlugField(
        label=_("Format"), required=False, help_text=_("Empty: the game's first format")
    )
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

    def clean(self) -> dict:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        if upload is None and not (cleaned.get("data") or "").strip():
            raise forms.ValidationError(_("Upload a file or paste a deck list."))
        if upload is not None and upload.size > MAX_BYTES:
            raise forms.ValidationError(_("The file is too large."))
        return cleaned
