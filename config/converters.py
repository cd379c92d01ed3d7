"""The path converter of every object id in the API's paths: ``<id:pk>``.

Digits only, so an id can never be read as a fixed route's name (``/api/tournaments/join/`` is the join
route, not a tournament called "join" that PATCH would then reach as a 405) and the schema says exactly
which ids exist: drf-spectacular documents a registered converter as a string with its pattern. Anything
else matches no route and gets the API's JSON 404 (config.errors.not_found). The value stays the text the
client sent, as ``<str:…>`` gave it, so views keep their own bounds checks (an id too long for the
database is still their 404 or the 400 of config.errors).
"""

from __future__ import annotations

from django.urls import register_converter

# At most 18 digits: every id the database can hold (64-bit keys) that this site will ever hand out, and no
# number too large to look up — a longer id names nothing and gets the JSON 404 of no route, not the 400 of
# a value the database cannot compare.
DIGITS = "[0-9]{1,18}"


class DigitsConverter:
    regex = DIGITS

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: object) -> str:
        return str(value)


register_converter(DigitsConverter, "id")
