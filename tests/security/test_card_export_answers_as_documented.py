"""GET /api/cards/export/ is documented as what it answers: the interchange JSON as an object, CSV as text,
and a 400 naming the parameter for an unknown or empty game — so a schema client validating the answers
(schemathesis) accepts them instead of failing on an answer "binary" could not describe."""

from __future__ import annotations

import pytest
from django.core.wsgi import get_wsgi_application

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is in requirements-test.txt")
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("query", "status"),
    [({"game": "caster", "fmt": "json"}, 200), ({"game": "caster", "fmt": "csv"}, 200),
     ({"game": ""}, 400), ({"game": "nope", "fmt": "json"}, 400), ({"game": "caster", "fmt": "xml"}, 400)],
)  # fmt: skip
def test_every_answer_of_the_card_export_matches_its_schema(
    games, query: dict[str, str], status: int
) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    operation = schema["/api/cards/export/"]["GET"]
    case = operation.Case(query=query)
    response = case.call(headers={"Accept-Encoding": "identity"})
    assert response.status_code == status
    case.validate_response(response, checks=CHECKS)
