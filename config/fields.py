"""Request fields shared by every API serializer.

DRF's CharField turns a JSON number into text (``{"name": 5}`` became the name "5"), while the schema says
the field is a string: a client sending a number has the wrong type, which README "Errors" calls malformed
(400). These fields refuse anything but text with the field's own "Not a valid string." under its name.
Every request serializer of the API reads text through them (ruff cannot say so; the schemathesis suite
and tests/security/test_text_fields_refuse_numbers.py do).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StrictTextMixin:
    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid")  # type: ignore[attr-defined]
        return super().to_internal_value(data)  # type: ignore[misc]


class StrictCharField(StrictTextMixin, serializers.CharField):
    """A CharField that takes text only (no number coerced to text)."""


class StrictSlugField(StrictTextMixin, serializers.SlugField):
    """A SlugField that takes text only."""


class StrictRegexField(StrictTextMixin, serializers.RegexField):
    """A RegexField that takes text only."""
