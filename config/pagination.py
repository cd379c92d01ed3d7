"""Page-number pagination that refuses a page size it cannot read instead of silently ignoring it.

DRF's own falls back to the default size for ``page_size=abc`` or ``page_size=-3`` (and takes the last of
two values), so a request the schema calls invalid was answered 200: the API now answers 400 naming the
parameter, as the schema (``minimum: 1``) says. A size above the maximum is still served at the maximum
(documented on each list's parameter).
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


def strict_query_int(request: Any, name: str, *, minimum: int = 1) -> int | None:
    """The query parameter as a whole number ≥ ``minimum``; None when absent; 400 when unreadable,
    repeated with different values, or too small."""
    values = request.query_params.getlist(name)
    if not values:
        return None
    if len(set(values)) > 1 or not values[0].strip().isdecimal() or len(values[0].strip()) > 18:
        raise ValidationError({name: f"{name} must be one whole number, {minimum} or more"})
    number = int(values[0])
    if number < minimum:
        raise ValidationError({name: f"{name} must be one whole number, {minimum} or more"})
    return number


def strict_query_bool(request: Any, name: str) -> bool | None:
    """true/false (also 1/0); None when absent; 400 for anything else, as the schema's boolean says."""
    values = request.query_params.getlist(name)
    if not values:
        return None
    words = {value.strip().lower() for value in values}
    if words <= {"true", "1"}:
        return True
    if words <= {"false", "0"}:
        return False
    raise ValidationError({name: f"{name} must be true or false"})


class StrictPageNumberPagination(PageNumberPagination):
    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        strict_query_int(request, self.page_query_param)  # "page=x&page=" is not page 1
        return super().paginate_queryset(queryset, request, view)

    def get_page_size(self, request: Any) -> int:
        if self.page_size_query_param:
            size = strict_query_int(request, self.page_size_query_param)
            if size is not None:
                return min(size, self.max_page_size) if self.max_page_size else size
        return self.page_size
