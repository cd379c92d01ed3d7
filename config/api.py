"""API-wide glue: the error shape, the exception handler that keeps every error a JSON object, and the
schema generator that documents the error statuses each operation can answer."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.openapi import AutoSchema
from rest_framework import exceptions, permissions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class ApiErrorOutSerializer(serializers.Serializer):
    """Every 4xx body: an object with ``detail`` (what is wrong) and/or one key per faulty field."""

    detail = serializers.JSONField(required=False, help_text="what is wrong, or the list of problems")
    non_field_errors = serializers.ListField(child=serializers.CharField(), required=False)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    # Services raise Django's ValidationError; turn it into a 400 rather than a 500.
    if isinstance(exc, DjangoValidationError):
        detail: Any = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = exceptions.ValidationError(detail)
    response = drf_exception_handler(exc, context)
    # ValidationError("…") renders as a bare list; keep one documented shape (an object) for errors.
    if response is not None and isinstance(response.data, list):
        response.data = {"non_field_errors": response.data}
    return response


_ERROR_DESCRIPTIONS = {
    "400": "the request is malformed or a field is invalid (the body names it)",
    "403": "not logged in, not allowed, or a missing CSRF token with session authentication",
    "404": "no such object, or not visible to you",
    "409": "the object changed since the version the request was based on",
    "422": "the Idempotency-Key was already used for a different request",
    "429": "too many requests or failed log-ins; wait and retry",
}
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class DeckhallAutoSchema(AutoSchema):
    """drf-spectacular's schema, plus the error responses the operation can really give.

    Which errors are possible follows from the view: a body or query parameters can be invalid (400);
    non-public views and unsafe methods under session authentication can refuse (403); a path with an
    id can miss (404); a throttled view can throttle (429). Views declare anything else (409)
    themselves; an explicitly declared status is never overwritten.
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
        # A path id can miss; so can a page number beyond the last page of a paginated list.
        if "{" in self.path or any(
            p.get("in") == "query" and p.get("name") == "page" for p in self._get_parameters()
        ):
            codes.append("404")
        if getattr(view, "throttle_scope", None):
            codes.append("429")
        return codes

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code in self._possible_errors():
            if code not in responses:
                body = self._get_response_for_code(ApiErrorOutSerializer, code, direction=direction)
                responses[code] = {**body, "description": _ERROR_DESCRIPTIONS[code]}
        return responses


def _read_only_public(view: Any) -> bool:
    return all(
        issubclass(permission, (permissions.AllowAny, permissions.IsAuthenticatedOrReadOnly))
        for permission in view.permission_classes
    )
