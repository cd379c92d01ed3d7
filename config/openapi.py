"""OpenAPI post-processing: statuses every operation with a request body can answer.

Any operation that reads a body answers 415 when the body's media type is not the one its schema documents
(DRF's content negotiation, before the view runs): a form or XML body to a JSON operation, JSON to an
upload (multipart) one, or a multipart body too broken to tell its type. Documented once here for every such operation, with the same error shape as its 400, so the
schema states what the API really answers without each view repeating it.
"""

from __future__ import annotations

from typing import Any

from games.registry import default_registry

UNSUPPORTED_MEDIA_TYPE = "415"


def document_unsupported_media_type(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict) or "requestBody" not in operation:
                continue
            responses = operation.setdefault("responses", {})
            if UNSUPPORTED_MEDIA_TYPE in responses:
                continue
            shape = responses.get("400", {}).get("content")
            answer: dict[str, Any] = {
                "description": "The body's media type is not the one documented (JSON; multipart for an upload)."
            }
            if shape:
                answer["content"] = shape
            responses[UNSUPPORTED_MEDIA_TYPE] = answer
    return result


def alternatives_by_choice(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A request body whose choice brings its own required fields (``required_when`` on the serializer, marked
    ``x-required-when`` by config.api): one ``oneOf`` branch per choice value, after the enum hook."""
    for component in result.get("components", {}).get("schemas", {}).values():
        marker = component.pop("x-required-when", None) if isinstance(component, dict) else None
        if marker:
            key = marker["key"]
            component["oneOf"] = [
                {"properties": {key: {"type": "string", "enum": [value]}}, "required": [key, *fields]}
                for value, fields in marker["needs"].items()
            ]
    return result


# Query parameters whose values the API reads as dates (YYYY-MM-DD) everywhere it takes them.
DATE_PARAMETERS = {"date", "on_date", "from", "to"}


def _game_slugs() -> list[str]:
    return sorted(default_registry().games)


def describe_accepted_values(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Say in the schema what the API accepts, so a request the schema allows is one the API takes.

    - ``game`` (a required query parameter or a request body's field): one of the games the rule sets
      define — the API refuses any other slug (and an empty one), so the schema lists them (``enum``).
    - date parameters: ``format: date`` (the API answers 400 for anything but YYYY-MM-DD).
    - ``page`` / ``page_size``: whole numbers from 1 (config.pagination refuses the rest).
    - ``Idempotency-Key``: 1–255 visible ASCII characters, as idempotency/ checks.
    """
    slugs = _game_slugs()
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                schema = parameter.setdefault("schema", {})
                name, where, kind = parameter.get("name"), parameter.get("in"), schema.get("type")
                # Required: the API refuses an unknown game; an optional filter just finds nothing for one.
                if where == "query" and name == "game" and kind == "string" and parameter.get("required"):
                    schema.setdefault("enum", slugs)
                elif where == "query" and name in DATE_PARAMETERS and kind == "string":
                    schema["format"] = "date"
                elif where == "query" and name in {"page", "page_size"} and kind == "integer":
                    schema.setdefault("minimum", 1)
                    schema.setdefault("maximum", 10**18 - 1)  # config.pagination reads at most 18 digits
                elif where == "header" and name == "Idempotency-Key":
                    schema.update(minLength=1, maxLength=255, pattern="^[!-~]+$")
    for name, component in result.get("components", {}).get("schemas", {}).items():
        game = component.get("properties", {}).get("game") if name.endswith("Request") else None
        if isinstance(game, dict) and game.get("type") == "string" and "enum" not in game:
            game["enum"] = slugs
    return result
