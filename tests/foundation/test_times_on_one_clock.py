"""Every page shows times on a 24-hour clock in English as in Russian: never "3:05 p.m." beside "15:05"."""

from __future__ import annotations

from datetime import datetime

from django.template import Context, Template
from django.utils import timezone, translation


def test_english_and_russian_read_the_same_time():
    moment = timezone.make_aware(datetime(2026, 11, 28, 15, 5), timezone.get_fixed_timezone(0))
    template = Template("{{ t }}|{{ t|time }}|{{ t|date:'SHORT_DATETIME_FORMAT' }}")
    for language in ("en", "ru"):
        with translation.override(language), timezone.override(timezone.get_fixed_timezone(0)):
            text = template.render(Context({"t": moment}))
        assert "15:05" in text.split("|")[0] and text.split("|")[1] == "15:05", (language, text)
        assert "p.m." not in text and "PM" not in text, (language, text)
