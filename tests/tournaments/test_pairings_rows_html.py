"""The pairings page's rows written in Python (views/projector.pairing_rows_html) are the markup of the template
loop they replaced, byte for byte, in English and Russian, with names that need escaping."""

from __future__ import annotations

import pytest
from django.template import engines
from django.utils import translation

from tournaments.views.projector import pairing_rows_html

TEMPLATE_LOOP = (
    '{% load i18n %}{% for r in rows %}<li><span class="tbl">{% if r.bye %}—{% else %}{{ r.table }}{% endif %}'
    '</span> <strong>{{ r.player }}</strong> {% if r.bye %}<span class="badge">{% translate "bye" %}</span>'
    '{% else %}<span class="muted">{% translate "vs" %}</span> {{ r.opponents|join:", " }}{% endif %}</li>'
    "{% endfor %}"
)
ROWS = [
    {"table": 12345, "player": "A & <b>'x\"", "opponents": ["Ёлка <i>", "O'Neil"], "bye": False},
    {"table": 3, "player": "Solo", "opponents": [], "bye": True},
    {"table": 7, "player": "Pod", "opponents": ["a", "b", "c&d"], "bye": False},
]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_rows_are_the_template_loops_markup(language):
    with translation.override(language):
        assert str(pairing_rows_html(ROWS)) == engines["django"].from_string(TEMPLATE_LOOP).render(
            {"rows": ROWS}
        )
