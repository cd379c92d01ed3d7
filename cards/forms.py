from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .importers import FORMATS
from .models import Game
from .services import MAX_IMPORT_BYTES


class ImportForm(forms.Form):
    game = forms.ModelChoiceField(queryset=Game.objects.all(), label=_("Game"), to_field_name="slug")
    file = forms.FileField(label=_("Card database file"))
    file_format = forms.ChoiceField(
        label=_("Format"),
        required=False,
        choices=[("", _("Detect from the file"))] + [(slug, fmt.label) for slug, fmt in FORMATS.items()],
    )

    def clean_file(self) -> object:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(_("The file is larger than 64 MB."))
        return upload
