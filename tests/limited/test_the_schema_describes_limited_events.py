"""The OpenAPI schema describes limited events as the code answers them: ``POST /api/tournaments/`` with its
``limited`` object, the draft and pool endpoints; a request built from the schema works and every answer
validates against the schema's own shapes."""

from __future__ import annotations

import uuid
from typing import Any

import jsonschema
import pytest

from .conftest import sign_up

pytestmark = pytest.mark.django_db


def _plain(node: Any, components: dict[str, Any]) -> Any:
    """The schema's OpenAPI 3.0 dialect as plain JSON Schema: refs inlined, ``nullable`` as a null type."""
    if isinstance(node, list):
        return [_plain(n, components) for n in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _plain(components[node["$ref"].rsplit("/", 1)[1]], components)
    out = {
        k: _plain(v, components) for k, v in node.items() if k not in ("nullable", "readOnly", "writeOnly")
    }
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def _check(answer: Any, operation: dict[str, Any], components: dict[str, Any]) -> Any:
    """The answer validates against the response the operation documents for its status code."""
    documented = operation["responses"][str(answer.status_code)]["content"]["application/json"]["schema"]
    data = answer.json()
    jsonschema.validate(data, _plain(documented, components))
    return data


def test_the_create_endpoint_documents_the_limited_block_and_a_request_built_from_it_drafts(
    client, twindeck, api_client_for, make_user, organizer
):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths, components = schema["paths"], schema["components"]["schemas"]
    create = paths["/api/tournaments/"]["post"]
    body_schema = create["requestBody"]["content"]["application/json"]
    limited = _plain(body_schema["schema"], components)["properties"]["limited"]["anyOf"][0]["allOf"][0]
    assert limited["properties"]["kind"]["enum"] == ["sealed", "draft"]
    assert {"kind", "product"} <= set(limited["required"])
    assert {"packs", "seed", "cube", "physical", "pick_time_scale", "pod_rounds"} <= set(
        limited["properties"]
    )
    for path in (
        "draft/me/",
        "draft/pick/",
        "draft/tick/",
        "draft/start/",
        "draft/pods/",
        "pools/{player_id}/",
    ):
        assert f"/api/tournaments/{{id}}/{path}" in paths, path
    pick = paths["/api/tournaments/{id}/draft/pick/"]["post"]
    assert any(p["name"] == "Idempotency-Key" for p in pick["parameters"])
    assert {"201", "409"} <= set(pick["responses"])

    # The request: the schema's own example, checked against the request schema, then sent.
    example = next(iter(body_schema["examples"].values()))["value"]
    jsonschema.validate(example, _plain(body_schema["schema"], components))
    org = api_client_for(organizer)
    created = org.post("/api/tournaments/", example, format="json")
    assert created.status_code == 201, created.content
    event = _check(created, create, components)
    assert event["limited"]["kind"] == "draft" and event["limited"]["seed"] == example["limited"]["seed"]
    plain = org.post("/api/tournaments/", {k: v for k, v in example.items() if k != "limited"}, format="json")
    assert _check(plain, create, components)["limited"] is None
    refused = org.post("/api/tournaments/", {**example, "limited": {"kind": "draft"}}, format="json")
    assert refused.status_code == 400 and "product" in refused.content.decode()
    # Well formed, but a product this game does not have: unprocessable (README, API "Errors"), named.
    other = org.post(
        "/api/tournaments/",
        {**example, "limited": {**example["limited"], "product": "no-such-set"}},
        format="json",
    )
    assert other.status_code == 422 and "no-such-set" in other.content.decode(), other.content

    players = sign_up(api_client_for, make_user, event["id"], event["join_code"], 4)
    start = paths["/api/tournaments/{id}/draft/start/"]["post"]
    _check(org.post(f"/api/tournaments/{event['id']}/draft/start/"), start, components)
    me_op = paths["/api/tournaments/{id}/draft/me/"]["get"]
    _user, phone, player_id = players[0]
    me = _check(phone.get(f"/api/tournaments/{event['id']}/draft/me/"), me_op, components)
    # The pick body from the schema's required fields, filled from draft/me.
    pick_in = _plain(pick["requestBody"]["content"]["application/json"]["schema"], components)
    body = {"card": me["pack"][0], "pick_number": me["pick_number"]}
    assert set(pick_in["required"]) == set(body)
    jsonschema.validate(body, pick_in)
    made = phone.post(
        f"/api/tournaments/{event['id']}/draft/pick/",
        body,
        format="json",
        HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
    )
    assert _check(made, pick, components)["card"] == body["card"]
    again = phone.post(
        f"/api/tournaments/{event['id']}/draft/pick/",
        {**body, "card": me["pack"][1]},
        format="json",
        HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
    )
    assert again.status_code == 409
    assert _check(phone.get(f"/api/tournaments/{event['id']}/draft/me/"), me_op, components)["waiting"]
    pods = paths["/api/tournaments/{id}/draft/pods/"]["get"]
    board = _check(org.get(f"/api/tournaments/{event['id']}/draft/pods/"), pods, components)
    assert [s["picked"] for s in board[0]["seats"]].count(True) == 1
    pool_op = paths["/api/tournaments/{id}/pools/{player_id}/"]["get"]
    assert pool_op["responses"]["200"]["content"]["application/json"]["schema"]["type"] == "object"
    assert phone.get(f"/api/tournaments/{event['id']}/pools/{player_id}/").status_code == 200
