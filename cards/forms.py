from __future__ import annotations

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .importers import FORMATS
from .labels import game_title
from .models import Game
from .pictures import MAX_ZIP_BYTES
from .services import MAX_IMPORT_BYTES


class GameChoiceField(forms.ModelChoiceField):
    """A game select whose options name each game in the page's language (rule-set labels, English
    fallback); labels are made when the form renders, so each request gets its own language."""

    def label_from_instance(self, obj: Game) -> str:
        return game_title(obj, get_language() or "en")


class ImportForm(forms.Form):
    game = GameChoiceField(queryset=Game.objects.all(), label=_("Game"), to_field_name="slug")
    file = forms.FileField(label=_("Card database file"), required=False)
    pictures = forms.FileField(
        label=_("Card pictures (ZIP)"),
        required=False,
        help_text=_(
            # No angle brackets: Django's form templates show help texts unescaped.
            "Optional. Pictures named by the card's id or name, as in EDOPro's pics folder "
            "(pics/46986414.jpg) or Cockatrice's pics/CUSTOM folder (pics/CUSTOM/Dark Magician.jpg). "
            "Without a card database file they go to the cards already imported."
        ),
    )
    file_format = forms.ChoiceField(
        label=_("Format"),
        required=False,
        # Labels through the catalogues at render time (product names have no entry and stay as they are).
        choices=[("", _("Detect from the file"))] + [(slug, _(fmt.label)) for slug, fmt in FORMATS.items()],
    )

    def clean_file(self) -> object:
        upload = self.cleaned_data["file"]
        if upload is not None and upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(_("The file is larger than 64 MB."))
        return upload

    def clean_pictures(self) -> object:
        upload = self.cleaned_data["pictures"]
        if upload is not None and upload.size > MAX_ZIP_BYTES:
            raise forms.ValidationError(_("The pictures ZIP is larger than 64 MB."))
        return upload

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        if not self.errors and not cleaned.get("file") and not cleaned.get("pictures"):
            raise forms.ValidationError(_("Choose a card database file, a ZIP of card pictures, or both."))
        return cleaned
