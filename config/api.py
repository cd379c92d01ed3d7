"""API-wide glue: the error shape, the exception handler that keeps every error a JSON object, and the
schema generator that documents the error statuses each operation can answer."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import RegexValidator
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import force_instance
from rest_framework import exceptions, permissions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class ApiErrorOutSerializer(serializers.Serializer):
    """Every 4xx body: an object with ``detail`` (what is wrong) and/or one key per faulty field."""

    detail = serializers.JSONField(required=False, help_text="what is wrong, or the list of problems")
    non_field_errors = serializers.ListField(child=serializers.CharField(), required=False)


class StateConflict(DjangoValidationError):
    """A well-formed request the object's current state refuses (the event has started, the round is already
    published, the match is not disputed): 409 on the API. A ValidationError, so the pages that show a
    service's refusal as a form error keep doing so."""


class MissingReference(DjangoValidationError):
    """The request names an object that does not exist or is not the caller's to see (a join code no event
    has): 404 on the API, still a form error on the pages."""


class Unprocessable(DjangoValidationError):
    """A request that matches the schema but names something that cannot be used together with the rest
    of it, for a reason no schema can state (a card, hero, format or ban list of another game; a deck list
    that names no card of the game): 422 on the API. Malformed input stays 400."""


def _status_of(exc: DjangoValidationError) -> int:
    if isinstance(exc, StateConflict):
        return 409
    if isinstance(exc, MissingReference):
        return 404
    if isinstance(exc, Unprocessable):
        return 422
    return 400


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    # Services raise Django's ValidationError; turn it into a 4xx rather than a 500: 400, or the status its
    # class names (MissingReference 404, StateConflict 409, Unprocessable 422).
    status = None
    if isinstance(exc, DjangoValidationError):
        status = _status_of(exc)
        detail: Any = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = exceptions.ValidationError(detail)
    response = drf_exception_handler(exc, context)
    if response is not None and status is not None:
        response.status_code = status
        if status == 409 and isinstance(response.data, list):
            # One documented 409 shape with the stale-version answers: ``detail`` says what the state is.
            response.data = {"detail": " ".join(str(message) for message in response.data)}
    # ValidationError("…") renders as a bare list; keep one documented shape (an object) for errors.
    if response is not None and isinstance(response.data, list):
        response.data = {"non_field_errors": response.data}
    return response


_ERROR_DESCRIPTIONS = {
    "400": "the request is malformed or a field is invalid (the body names it)",
    "403": "not logged in, not allowed, or a missing CSRF token with session authentication",
    "404": "no such object, or not visible to you",
    "409": "the current state refuses it (already started, already published, changed since you read it)",
    "422": "well-formed, but names something that does not fit the rest (a card of another game), or an "
    "Idempotency-Key already used for a different request",
    "429": "too many requests or failed log-ins; wait and retry",
}
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
# Python's str.strip() white space (what DRF trims), spelled for both Python's and ECMA-262's regexes.
_SPACE = r"\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_NO_NUL = r"^[^\x00]*$"
_NOT_BLANK = rf"^[^\x00]*[^\x00{_SPACE}][^\x00]*$"


class DeckhallAutoSchema(AutoSchema):
    """drf-spectacular's schema, plus the error responses the operation can really give.

    Which errors are possible follows from the view: a body or query parameters can be invalid (400);
    non-public views and unsafe methods under session authentication can refuse (403); a path with an
    id can miss (404); a write to an existing object can meet a state that refuses it (409); a throttled
    view can throttle (429). Views declare anything else (422) themselves; an explicitly declared status
    is never overwritten.
    """

    def _possible_errors(self) -> list[str]:
        view = self.view
        codes: list[str] = []
        public = all(
            issubclass(permission, permissions.AllowAny) for permission in view.permission_classes
        ) or (self.method not in _UNSAFE and _read_only_public(view))
        has_query = any(p.get("in") == "query" for p in self._get_parameters())
        # A path id too large for the database is a 400 as well (config.errors).
        if self.method in _UNSAFE or has_query or "{" in self.path:
            codes.append("400")
        if not public or (self.method in _UNSAFE and view.authentication_classes):
            codes.append("403")
        # A write to an existing object can meet a state that refuses it (services raise StateConflict).
        if self.method in _UNSAFE and "{" in self.path:
            codes.append("409")
        # A path id can miss; so can a page number beyond the last page of a paginated list.
        if "{" in self.path or any(
            p.get("in") == "query" and p.get("name") == "page" for p in self._get_parameters()
        ):
            codes.append("404")
        if getattr(view, "throttle_scope", None):
            codes.append("429")
        # A body naming a game can name a card, format, hero or ban list of another game (README "Errors").
        if self.method in _UNSAFE and getattr(self, "_body_names_a_game", False):
            codes.append("422")
        return codes

    def _map_serializer_field(self, field: Any, direction: str, bypass_extensions: bool = False) -> Any:
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        # What every DRF CharField refuses, stated for the requests: a NUL character, and (unless blank is
        # allowed) a value that is only white space, which DRF strips to "" and refuses as blank.
        if (
            direction != "request"
            or not isinstance(field, serializers.CharField)
            or not isinstance(schema, dict)
        ):
            return schema
        regexes = [v.regex.pattern for v in field.validators if isinstance(v, RegexValidator)]
        if isinstance(field, serializers.SlugField):  # validate_slug: letters, digits, "-" and "_"
            pattern = r"^[-\w]+$" if field.allow_unicode else r"^[-a-zA-Z0-9_]+$"
        elif isinstance(field, serializers.RegexField) and len(regexes) == 1:
            pattern = regexes[0]
        else:
            blank_ok = field.allow_blank or not field.trim_whitespace
            pattern = _NO_NUL if blank_ok else _NOT_BLANK
        # drf-spectacular writes an allowed blank as oneOf [the text, maxLength 0]: the rule goes on the text.
        for branch in schema.get("oneOf", [schema]):
            if (
                branch.get("type") == "string"
                and branch.get("maxLength") != 0
                and (
                    isinstance(field, (serializers.SlugField, serializers.RegexField))
                    or not {"format", "enum"} & branch.keys()
                )
                and "enum" not in branch
            ):
                branch["pattern"] = pattern
        return schema

    def _map_serializer(self, serializer: Any, direction: str, bypass_extensions: bool = False) -> Any:
        schema = super()._map_serializer(serializer, direction, bypass_extensions)
        # Alternatives a request serializer's validate() enforces (class attributes ``exactly_one_of``: one
        # thing given one way, and ``at_least_one_of``), stated as the schema's own rule.
        one_of = getattr(serializer, "exactly_one_of", None)
        any_of = getattr(serializer, "at_least_one_of", None)
        # ``required_when = (field, {value: (fields it needs)})``: a choice that brings its own fields.
        required_when = getattr(serializer, "required_when", None)
        if direction == "request" and isinstance(schema, dict):
            if required_when:
                # Written as oneOf by config.openapi.alternatives_by_choice, after drf-spectacular's enum
                # hook (which would turn a one-value enum back into the whole choice list).
                key, needs = required_when
                schema["x-required-when"] = {"key": key, "needs": {v: list(f) for v, f in needs.items()}}
            if one_of:
                schema["oneOf"] = [{"required": [name]} for name in one_of]
            if any_of:
                schema["anyOf"] = [{"required": [name]} for name in any_of]
        return schema

    def _get_request_body(self, direction: str = "request") -> Any:
        body = super()._get_request_body(direction)
        if not isinstance(body, dict):
            return (
                body  # no body (a GET): asking for its serializer would make the generator guess one and warn
            )
        serializer = force_instance(self.get_request_serializer())
        if not isinstance(serializer, serializers.Serializer):
            return body
        game = serializer.fields.get("game")
        # Read by _possible_errors (drf-spectacular maps the request body before the responses).
        self._body_names_a_game = game is not None and not game.read_only
        content = body.get("content", {})
        # One documented encoding per body: multipart for an upload (a file part), JSON otherwise. A form
        # cannot say null, nesting (a deck's sections, a list of games) or a number from a string, so a
        # schema-valid form would not be the request the schema describes. The views read only this one
        # (settings.REST_FRAMEWORK's JSON parser; MultiPartParser on the upload views): anything else is 415.
        media = "multipart/form-data" if _has_file_field(serializer) else "application/json"
        if media in content:
            body["content"] = {media: content[media]}
        # A body of alternatives (one of them must come) is never optional.
        if getattr(serializer, "exactly_one_of", None) or getattr(serializer, "at_least_one_of", None):
            body["required"] = True
        return body

    def get_auth(self) -> list[dict[str, Any]]:
        # The API's own credential (the token header) first, the site's session cookie after it: the two are
        # alternatives, and a client or a checker that takes the first one listed takes the one an API client
        # holds (schemathesis judges a request by the first scheme it carries, so a stray session cookie
        # listed first made a token-authenticated request look like one sent with a made-up cookie).
        auths = super().get_auth()
        return sorted(auths, key=lambda requirement: "tokenAuth" not in requirement)

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code in self._possible_errors():
            if code not in responses:
                body = self._get_response_for_code(ApiErrorOutSerializer, code, direction=direction)
                responses[code] = {**body, "description": _ERROR_DESCRIPTIONS[code]}
        return responses


def _has_file_field(serializer: serializers.Serializer) -> bool:
    return any(isinstance(field, serializers.FileField) for field in serializer.fields.values())


def _read_only_public(view: Any) -> bool:
    return all(
        issubclass(permission, (permissions.AllowAny, permissions.IsAuthenticatedOrReadOnly))
        for permission in view.permission_classes
    )
