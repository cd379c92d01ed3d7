"""The API's JSON parser: DRF's, with a nesting limit.

A body such as ``[[[[…]]]]`` nested a few thousand deep makes Python's decoder raise RecursionError,
which DRF does not catch (500). Bodies nested within the decoder's limit but deeper than any real
request still cost recursion in every serializer and helper that walks them, so anything deeper than
``API_JSON_MAX_DEPTH`` is refused as a 400 before a view sees it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """Whether a decoded JSON value nests deeper than ``limit`` (iterative: no recursion to exhaust)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


class DepthLimitedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.API_JSON_MAX_DEPTH
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested deeper than {limit} levels") from None
        if json_depth_exceeds(data, limit):
            raise ParseError(f"JSON parse error - nested deeper than {limit} levels")
        return data


class DepthLimitedJSONField(serializers.JSONField):
    """DRF's JSONField for input, refusing what the body parser refuses.

    A form or multipart body carries a JSON field as a string that the field decodes itself, past the
    body parser: ``deck=[[[[…]]]]`` raised RecursionError (500). Here that, and anything nested deeper than
    API_JSON_MAX_DEPTH, is the field's validation error (400 naming the field)."""

    default_error_messages = {"too_deep": "nested deeper than {limit} levels"}

    def to_internal_value(self, data: Any) -> Any:
        limit = settings.API_JSON_MAX_DEPTH
        try:
            value = super().to_internal_value(data)
        except RecursionError:
            self.fail("too_deep", limit=limit)
        if json_depth_exceeds(value, limit):
            self.fail("too_deep", limit=limit)
        return value
