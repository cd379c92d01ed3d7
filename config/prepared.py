"""Lookups whose SQL is written once per process and run again with new values.

Django compiles a queryset into SQL every time it is evaluated. For the lookups every request of a phone makes
(its event by id, its player by event and account) that compiling — the SQL compiler, one converter lookup per
column — costs 0.2–0.4 ms of Python against ~0.02 ms for the database to answer (bench/bench_draft.py: at
2,000 phones drafting, four such lookups were a third of a changed poll's CPU). A ``Prepared`` lookup keeps
what Django wrote for the first evaluation (the SQL, the columns' converters, how rows become model instances
with their ``select_related`` relations) and on later calls only binds the new values, runs the statement and
builds the instances as Django's ModelIterable does.

Only equality on integer and text values is prepared (their database value is the Python value on every
backend); the queryset is built with marker values once, and each marker's place among the statement's
parameters is found by value, so a lookup whose parameters cannot be placed that way is refused when it is
first compiled (ValueError), never run with the wrong values.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

M = TypeVar("M", bound=Model)

# Markers: values no real lookup carries (negative ids, a text no key has), one per argument.
_INT_MARKER = -7_331_000_000
_TEXT_MARKER = "\x00prepared-%d\x00"
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1


class _Compiled:
    """One database's statement for a lookup: SQL, where each argument goes, and how a row becomes models."""

    def __init__(self, queryset: QuerySet[Any], markers: tuple[Any, ...], alias: str) -> None:
        compiler = queryset.query.get_compiler(using=alias)
        self.sql, params = compiler.as_sql()
        self.places: list[int | None] = []
        self.constants = list(params)
        for value in params:
            self.places.append(markers.index(value) if value in markers else None)
        if sorted(p for p in self.places if p is not None) != list(range(len(markers))):
            raise ValueError(
                f"cannot prepare {queryset.query}: each argument must appear once as a parameter"
            )
        select, klass_info = compiler.select, compiler.klass_info
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, alias)
        # (position, converters, column): the converters are pure functions of the value (the column's type and
        # the database's time zone), so the compiling thread's may convert rows any thread fetched.
        self.converters = [
            (pos, tuple(convs), expression)
            for pos, (convs, expression) in compiler.get_converters(
                [s[0] for s in select[: compiler.col_count]]
            ).items()
        ]
        self.alias = alias

    def rows(self, values: tuple[Any, ...]) -> list[Model]:
        params = [
            self.constants[i] if place is None else values[place] for i, place in enumerate(self.places)
        ]
        connection = connections[self.alias]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            fetched = cursor.fetchall()
        out = []
        for row in map(list, fetched):
            for pos, convs, expression in self.converters:
                value = row[pos]
                for convert in convs:
                    value = convert(value, expression, connection)
                row[pos] = value
            instance = self.model.from_db(self.alias, self.init_list, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, instance)
            out.append(instance)
        return out


class Prepared(Generic[M]):
    """``Prepared(lambda event, user: Player.objects.filter(tournament_id=event, user_id=user)[:1], int, int)``:
    ``.first(7, 42)`` runs that statement for 7 and 42 and answers the instance (or None), ``.all(…)`` all of
    them. ``kinds`` says whether each argument is an ``int`` or a ``str``; values of another type are refused."""

    def __init__(self, build: Callable[..., QuerySet[M]], *kinds: type) -> None:
        if any(kind not in (int, str) for kind in kinds):
            raise TypeError("Prepared lookups take int and str arguments only")
        self.build, self.kinds = build, kinds
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def _markers(self) -> tuple[Any, ...]:
        counter = itertools.count()
        return tuple(
            _INT_MARKER - next(counter) if kind is int else _TEXT_MARKER % next(counter)
            for kind in self.kinds
        )

    def _for(self, alias: str) -> _Compiled:
        compiled = self._compiled.get(alias)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(alias)
                if compiled is None:
                    markers = self._markers()
                    compiled = self._compiled[alias] = _Compiled(self.build(*markers), markers, alias)
        return compiled

    def all(self, *values: Any, using: str = "default") -> list[M]:
        if len(values) != len(self.kinds) or any(
            not isinstance(v, k) or isinstance(v, bool) for v, k in zip(values, self.kinds, strict=False)
        ):
            raise TypeError(f"Prepared lookup wants {[k.__name__ for k in self.kinds]}, got {values!r}")
        if any(k is int and not _INT_MIN <= v <= _INT_MAX for v, k in zip(values, self.kinds, strict=True)):
            return []  # a number no 64-bit column holds names no row (the database would refuse to compare it)
        return self._for(using).rows(values)  # type: ignore[return-value]

    def first(self, *values: Any, using: str = "default") -> M | None:
        found = self.all(*values, using=using)
        return found[0] if found else None
