"""Deck validation: a deck, a format's rules, a ban list and the hero's own restrictions in; a report out."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.cards import BanListInfo, CardInfo, Deck
from games.errors import NoDecksError, RulesError
from games.filters import compile_filter
from games.pairs import PairRule, pair_rule
from games.registry import CopyLimitRules, FormatRules, HeroRules, SectionRules, SizeRule

from .report import Report, RulesUsed, Violation, label


def _copy_key(card: CardInfo, key: str) -> str:
    if key == "name":
        return card.name.casefold()
    if key == "name_level":
        return f"{card.name.casefold()}|{card.level}"
    return card.identity


def _copy_label(card: CardInfo, key: str) -> str:
    if key == "name_level" and card.level is not None:
        return f"{card.name} Lv{card.level}"
    return card.name if key != "identity" else card.label


def _format_label(fmt: FormatRules) -> dict[str, str]:
    return fmt.words()


def _section_labels(
    fmt: FormatRules, slugs: Iterable[str], *, fallback: bool = False
) -> list[dict[str, str]]:
    """Section names per language for messages; with ``fallback`` a slug the format lacks is named as given."""
    out: list[dict[str, str]] = []
    for slug in slugs:
        sec = fmt.section_map.get(slug)
        if sec is not None:
            out.append(sec.words())
        elif fallback:
            out.append(label(slug))
    return out


def _hero_label(hero_rules: HeroRules) -> dict[str, str]:
    return hero_rules.words()


def _filter_params(fmt: FormatRules, spec: Any) -> dict[str, Any]:
    """A FILTER as message parameters: the spec and the game's names for its fields per language (the
    joining words — "or", "not", "contains" — come from the catalogues)."""
    return {"filter": spec, "fields": {key: dict(words) for key, words in fmt.field_labels.items()}}


def _kind(card: CardInfo, fmt: FormatRules) -> dict[str, str] | str:
    """A card's type as a data value: the edge names it by the game's ``[game.labels]`` word."""
    if not card.card_type:
        return "?"
    return {"game": fmt.game_slug, "field": "type", "value": card.card_type}


def _check_sections(deck: Deck, fmt: FormatRules, sizes: dict[str, SizeRule], report: Report) -> None:
    for slug, entries in deck.sections.items():
        if slug not in fmt.section_map and entries:
            total = sum(n for _, n in entries)
            known = ", ".join(fmt.section_map)
            report.add(
                Violation(
                    "section_size",
                    "section_size.unknown_section",
                    {"format": _format_label(fmt), "section": slug, "sections": known, "total": total},
                    section=slug,
                    count=total,
                    limit=0,
                )
            )
    # Lines no card matched are still cards in the deck: counting them keeps the size message honest.
    unknown: dict[str, int] = {}
    for u in deck.unknown:
        unknown[u.section] = unknown.get(u.section, 0) + u.count
    hero_in = fmt.hero.counts_in if fmt.hero is not None and deck.hero is not None else None
    heroes = 1 + len(deck.extra_heroes) if hero_pair(deck, fmt) is not None else 1
    for sec in fmt.sections:
        entries = deck.sections.get(sec.slug, ())
        # Magic's Commander counts the commander(s) in its 100 cards; Everseal's Hero stays outside the 30–40.
        total = unknown.get(sec.slug, 0) + (heroes if sec.slug == hero_in else 0)
        accept = sec.accept
        for card, n in entries:
            if n.__class__ is not int or n < 1:
                raise RulesError(
                    f"section {sec.slug!r}: the count of {card.label} must be a positive integer, got {n!r}",
                    key="count.not_positive", section=sec.slug, card=card.label, count=repr(n),
                )  # fmt: skip
            total += n
            # Fast path: most cards are fine; only a refused card needs the message-building call.
            if card.deck_buildable and not card.is_token and (accept is None or accept(card)):
                continue
            _check_card_in_section(card, n, sec, fmt, report)
        size = sizes.get(sec.slug, sec.size)
        if not size.ok(total):
            report.add(
                Violation(
                    "section_size",
                    "section_size.size",
                    {"section": sec.words(), "total": total, "size": size.as_params()},
                    section=sec.slug,
                    count=total,
                    limit=size.nearest_limit(total),
                ),
                provisional=sec.provisional,
            )


def _check_card_in_section(
    card: CardInfo, n: int, sec: SectionRules, fmt: FormatRules, report: Report
) -> None:
    if card.is_token or not card.deck_buildable:
        report.add(
            Violation(
                "section_card_type",
                "section_card_type.not_buildable",
                {"card": card.label, "count": n, "section": sec.words()},
                section=sec.slug,
                card=card.label,
                count=n,
                limit=0,
            )
        )
    elif sec.accept is not None and not sec.accept(card):
        report.add(
            Violation(
                "section_card_type",
                "section_card_type.wrong_type",
                {
                    "card": card.label,
                    "kind": _kind(card, fmt),
                    "section": sec.words(),
                    "takes": _filter_params(fmt, sec.accept_spec),
                    "count": n,
                },
                section=sec.slug,
                card=card.label,
                count=n,
                limit=0,
            ),
            provisional=sec.provisional,
        )


def _check_copy_limits(deck: Deck, fmt: FormatRules, override_max: int | None, report: Report) -> None:
    for rule in fmt.copy_limits:
        _check_copy_limit(deck, fmt, rule, override_max, report)


def _check_copy_limit(
    deck: Deck, fmt: FormatRules, rule: CopyLimitRules, override_max: int | None, report: Report
) -> None:
    totals: dict[str, int] = {}
    sample: dict[str, CardInfo] = {}
    flt = rule.filter
    by_identity = rule.key == "identity"
    for slug in rule.scope:
        for card, n in deck.sections.get(slug, ()):
            if flt is not None and not flt(card):
                continue
            k = card.identity if by_identity else _copy_key(card, rule.key)
            if k in totals:
                totals[k] += n
            else:
                totals[k] = n
                sample[k] = card
    base = rule.max if override_max is None else override_max
    exceptions = rule.exceptions
    for k, total in totals.items():
        if total <= base:
            continue
        card = sample[k]
        limit = exceptions.get(k, exceptions.get(card.name, base)) if exceptions else base
        if total <= limit:
            continue
        name = _copy_label(card, rule.key)
        report.add(
            Violation(
                "copy_limit",
                "copy_limit.over",
                {
                    "card": name,
                    "total": total,
                    "limit": limit,
                    "excess": total - limit,
                    "sections": _section_labels(fmt, rule.scope),
                },
                section=rule.scope[0] if len(rule.scope) == 1 else "+".join(rule.scope),
                card=name,
                count=total,
                limit=limit,
            )
        )


def _check_banlist(deck: Deck, fmt: FormatRules, banlist: BanListInfo, report: Report) -> None:
    forbidden_as = fmt.banlist.forbidden_as if fmt.banlist else None
    whitelist = banlist.whitelist or bool(fmt.banlist and fmt.banlist.whitelist)
    totals: dict[str, int] = {}
    limits: dict[str, int] = {}
    sample: dict[str, CardInfo] = {}
    reported_missing: set[str] = set()
    table = banlist.limits

    where_by_ident: dict[str, list[str]] = {}

    def holding(ident: str) -> list[str]:
        # Which sections hold a reported card: built once, on the first report, to keep the hot loop lean.
        if not where_by_ident:
            for slug, entries in deck.sections.items():
                for c, _ in entries:
                    held = where_by_ident.setdefault(c.identity, [])
                    if slug not in held:
                        held.append(slug)
        return where_by_ident.get(ident, [])

    for entries in deck.sections.values():
        for card, n in entries:
            ident = card.identity
            if ident in totals:
                totals[ident] += n
            else:
                totals[ident] = n
                sample[ident] = card
            # The printing's own entry wins, else its canonical identity's (BanListInfo.limit_for, inlined).
            limit = table.get(card.key)
            if limit is None:
                limit = table.get(ident)
            if limit is None:
                if whitelist and ident not in reported_missing:
                    reported_missing.add(ident)
                    limit = None
                continue
            if limit < 0:
                limit = 0  # EDOPro writes "forbidden" as a negative count too
            if limit == 0 and forbidden_as is not None:
                limit = forbidden_as
            if ident not in limits or limit < limits[ident]:
                limits[ident] = limit
    for ident in reported_missing:
        if ident in limits:
            continue  # another printing of the same card is on the list
        card = sample[ident]
        where = holding(ident)
        report.add(
            Violation(
                "not_on_whitelist",
                "not_on_whitelist.missing",
                {
                    "card": card.label,
                    "list": banlist.name,
                    "total": totals[ident],
                    "sections": _section_labels(fmt, where, fallback=True),
                },
                section="+".join(where),
                card=card.label,
                count=totals[ident],
                limit=0,
            )
        )
    for ident, limit in limits.items():
        total = totals[ident]
        if total <= limit:
            continue
        card = sample[ident]
        where = holding(ident)
        params = {
            "card": card.label,
            "list": banlist.name,
            "total": total,
            "sections": _section_labels(fmt, where, fallback=True),
        }
        if limit == 0:
            report.add(
                Violation(
                    "banlist_forbidden",
                    "banlist_forbidden.forbidden",
                    params,
                    section="+".join(where),
                    card=card.label,
                    count=total,
                    limit=0,
                )
            )
        else:
            report.add(
                Violation(
                    "banlist_limit",
                    "banlist_limit.limited" if limit == 1 else "banlist_limit.semi_limited",
                    {**params, "limit": limit, "excess": total - limit},
                    section="+".join(where),
                    card=card.label,
                    count=total,
                    limit=limit,
                )
            )


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _card_rule_ok(kind: Any, item: dict[str, Any]) -> bool:
    """A card rule needs a filter (an empty one would forbid or allow every card) and, except for
    forbid / only / a plain require, a count."""
    if kind not in ("forbid", "only", "require", "at_most", "at_least") or not item.get("filter"):
        return False
    return (
        kind in ("forbid", "only")
        or ("count" not in item and kind == "require")
        or _is_count(item.get("count"))
    )


def _hero_overrides(
    hero: CardInfo | None, fmt: FormatRules
) -> tuple[dict[str, SizeRule], int | None, list[dict[str, Any]]]:
    """Split a hero's restrictions into size/limit overrides and card rules.

    Hero restrictions are card data typed in by people; an entry that cannot be read is kept in the card
    rules as ``{"kind": "unreadable", ...}`` so the report warns about it instead of silently ignoring it.
    """
    sizes: dict[str, SizeRule] = {}
    copy_max: int | None = None
    rules: list[dict[str, Any]] = []
    if hero is None or not hero.restrictions:
        return sizes, copy_max, rules
    for item in hero.restrictions:
        kind = item.get("kind") if isinstance(item, dict) else None
        if kind == "section_size":
            lo, hi = item.get("min"), item.get("max")
            if (
                item.get("section") in fmt.section_map
                and (lo is None or _is_count(lo))
                and (hi is None or _is_count(hi))
                and (lo is not None or hi is not None)
            ):
                sizes[item["section"]] = SizeRule(min=lo, max=hi)
                continue
        elif kind == "copy_limit":
            if _is_count(item.get("max")):
                copy_max = item["max"]
                continue
        elif _card_rule_ok(kind, item):
            rules.append(item)
            continue
        rules.append({"kind": "unreadable", "entry": item})
    return sizes, copy_max, rules


def _check_hero(deck: Deck, fmt: FormatRules, card_rules: list[dict[str, Any]], report: Report) -> None:
    hero_rules = fmt.hero
    if hero_rules is None:
        for given in filter(None, [deck.hero, *deck.extra_heroes]):
            report.warnings.append(
                Violation(
                    "hero_restriction",
                    "hero_restriction.no_hero",
                    {"format": _format_label(fmt), "card": given.label},
                    card=given.label,
                )
            )
        return
    slot = _hero_label(hero_rules)
    hero = deck.hero
    pair = hero_pair(deck, fmt)
    if deck.extra_heroes and pair is None:
        _check_hero_count(deck, hero_rules, report)
    if hero is None:
        if hero_rules.required:
            report.add(
                Violation(
                    "hero_missing",
                    "hero_missing.none",
                    {"hero": slot},
                    section="hero",
                    count=0,
                    limit=1,
                )
            )
        return
    # With a pair, the card the pair rule names as "second" (a Background) need not be a hero by itself.
    given = [hero, *deck.extra_heroes] if pair is not None else [hero]
    wrong = [
        card
        for card in given
        if hero_rules.accept is not None
        and not hero_rules.accept(card)
        and not (pair is not None and pair.second is not None and pair.second(card))
    ]
    for card in wrong:
        report.add(
            Violation(
                "hero_missing",
                "hero_missing.wrong_card",
                {"card": card.label, "kind": _kind(card, fmt), "hero": slot},
                section="hero",
                card=card.label,
                count=1,
                limit=1,
            )
        )
    if wrong:
        return
    entries = [(c, n) for slug in hero_rules.scope for c, n in deck.sections.get(slug, ())]
    if hero_rules.identity is not None:
        _check_identity(hero, hero_rules, entries, fmt, report, partners=given[1:])
    if hero.restrictions is None or not hero.restrictions:
        # A format that derives the hero's limits from card data (colour identity) needs nothing entered.
        if hero_rules.identity is None:
            report.warnings.append(
                Violation(
                    "hero_restriction",
                    "hero_restriction.none_entered",
                    {"hero": slot, "leader": hero.label},
                    section="hero",
                    card=hero.label,
                )
            )
        return
    for item in card_rules:
        _check_restriction(hero, item, entries, fmt, hero_rules.scope, report)


def hero_pair(deck: Deck, fmt: FormatRules) -> PairRule | None:
    """The format's pair rule that lets the deck's two heroes share the slot, or None (one hero, more than
    two, two copies of one card, or no rule for them)."""
    if fmt.hero is None or deck.hero is None or len(deck.extra_heroes) != 1 or not fmt.hero.pairs:
        return None
    other = deck.extra_heroes[0]
    if other.identity == deck.hero.identity:
        return None
    return pair_rule(fmt.hero.pairs, deck.hero, other)


def _check_hero_count(deck: Deck, hero_rules: HeroRules, report: Report) -> None:
    """More than one hero card: its own violation, naming every hero given (they are real cards)."""
    given = [c for c in (deck.hero, *deck.extra_heroes) if c is not None]
    names = ", ".join(c.label for c in given)
    report.add(
        Violation(
            "hero_count",
            "hero_count.too_many",
            {"hero": _hero_label(hero_rules), "total": len(given), "names": names, "excess": len(given) - 1},
            section="hero",
            card=given[-1].label,
            count=len(given),
            limit=1,
        )
    )


def _check_identity(
    hero: CardInfo,
    hero_rules: HeroRules,
    entries: list[tuple[CardInfo, int]],
    fmt: FormatRules,
    report: Report,
    partners: list[CardInfo] = (),  # type: ignore[assignment]
) -> None:
    """Every card in the hero's scope within the hero's identity (a subset of its values); with partner
    heroes, within the union of theirs (CR 903.4c)."""
    rule = hero_rules.identity
    assert rule is not None
    allowed = rule.of(hero).union(*(rule.of(card) for card in partners))
    leader = " + ".join(card.label for card in (hero, *partners))
    slot = _hero_label(hero_rules)
    shown = "".join(v for v in rule.values if v in allowed) or "—"
    scope = hero_rules.scope
    section = scope[0] if len(scope) == 1 else "+".join(scope)
    where = _section_labels(fmt, scope, fallback=True)
    for card, n in entries:
        outside = rule.of(card) - allowed
        if not outside:
            continue
        extra = "".join(v for v in rule.values if v in outside)
        report.add(
            Violation(
                "hero_restriction",
                "hero_restriction.identity",
                {
                    "card": card.label,
                    "property": label(rule.label, rule.label_ru),
                    "hero": slot,
                    "leader": leader,
                    "shown": shown,
                    "extra": extra,
                    "count": n,
                    "sections": where,
                },
                section=section,
                card=card.label,
                count=n,
                limit=0,
            )
        )


def _check_restriction(
    hero: CardInfo,
    item: dict[str, Any],
    entries: list[tuple[CardInfo, int]],
    fmt: FormatRules,
    scope: tuple[str, ...],
    report: Report,
) -> None:
    assert fmt.hero is not None
    slot = _hero_label(fmt.hero)
    kind = item["kind"]
    spec = item.get("filter")
    try:
        if kind == "unreadable":
            raise RulesError(
                "unreadable hero restriction", key="hero_restriction.entry", entry=repr(item["entry"])
            )
        match = compile_filter(spec if spec is not None else {})
    except RulesError as exc:
        # Why it could not be read is a nested message, worded in the report's language at the edge.
        detail = {"key": exc.key, "params": exc.params}
        report.warnings.append(
            Violation(
                "hero_restriction",
                "hero_restriction.unreadable",
                {"hero": slot, "leader": hero.label, "detail": detail},
                section="hero",
                card=hero.label,
            )
        )
        return
    what = _filter_params(fmt, spec)
    section = scope[0] if len(scope) == 1 else "+".join(scope)
    where = _section_labels(fmt, scope, fallback=True)
    if kind in ("forbid", "only"):
        for card, n in entries:
            bad = match(card) if kind == "forbid" else not match(card)
            if not bad:
                continue
            report.add(
                Violation(
                    "hero_restriction",
                    f"hero_restriction.{kind}",
                    {
                        "hero": slot,
                        "leader": hero.label,
                        "what": what,
                        "count": n,
                        "card": card.label,
                        "sections": where,
                    },
                    section=section,
                    card=card.label,
                    count=n,
                    limit=0,
                )
            )
        return
    total = sum(n for card, n in entries if match(card))
    count_rule = item.get("count", 1)
    if kind == "require":
        lo, hi = max(1, int(count_rule)) if "count" in item else 1, None
    elif kind == "at_least":
        lo, hi = int(count_rule), None
    else:  # at_most
        lo, hi = None, int(count_rule)
    if lo is not None and total < lo:
        report.add(
            Violation(
                "hero_restriction",
                "hero_restriction.at_least",
                {
                    "hero": slot,
                    "leader": hero.label,
                    "limit": lo,
                    "what": what,
                    "sections": where,
                    "total": total,
                    "missing": lo - total,
                },
                section=section,
                card=hero.label,
                count=total,
                limit=lo,
            )
        )
    if hi is not None and total > hi:
        report.add(
            Violation(
                "hero_restriction",
                "hero_restriction.at_most",
                {
                    "hero": slot,
                    "leader": hero.label,
                    "limit": hi,
                    "what": what,
                    "sections": where,
                    "total": total,
                    "excess": total - hi,
                },
                section=section,
                card=hero.label,
                count=total,
                limit=hi,
            )
        )


def _check_pool(deck: Deck, fmt: FormatRules, report: Report) -> None:
    scope = fmt.pool_scope or ()
    if deck.pool is None:
        report.add(Violation("not_in_pool", "not_in_pool.no_pool", {"format": _format_label(fmt)}))
        return
    available: dict[str, int] = {}
    for card, n in deck.pool:
        available[card.identity] = available.get(card.identity, 0) + n
    used: dict[str, int] = {}
    sample: dict[str, tuple[CardInfo, str]] = {}
    for slug in scope:
        for card, n in deck.sections.get(slug, ()):
            if fmt.pool_free is not None and fmt.pool_free(card):
                continue  # basic lands and the like come from the event's stock, not the pool
            used[card.identity] = used.get(card.identity, 0) + n
            sample.setdefault(card.identity, (card, slug))
    for ident, total in used.items():
        have = available.get(ident, 0)
        if total > have:
            card, slug = sample[ident]
            report.add(
                Violation(
                    "not_in_pool",
                    "not_in_pool.short",
                    {
                        "card": card.label,
                        "total": total,
                        "have": have,
                        "excess": total - have,
                        "sections": _section_labels(fmt, [slug], fallback=True),
                    },
                    section=slug,
                    card=card.label,
                    count=total,
                    limit=have,
                )
            )


def _check_unknown(deck: Deck, fmt: FormatRules, report: Report) -> None:
    # A format without hero rules still names the slot: in words from the catalogues, not inline here.
    slot = _hero_label(fmt.hero) if fmt.hero else {"key": "slot.hero", "params": {}}
    for u in deck.unknown:
        if u.section == "hero":
            key, params = "unknown_card.hero_slot", {"hero": slot}
        else:
            key, params = (
                "unknown_card.not_found",
                {"sections": _section_labels(fmt, [u.section], fallback=True)},
            )
        report.add(
            Violation(
                "unknown_card",
                key,
                {"ref": u.ref, "count": u.count, **params},
                section=u.section,
                card=u.ref,
                count=u.count,
                limit=0,
            )
        )


def _check_counts(deck: Deck, fmt: FormatRules) -> None:
    """Counts in sections the format has are checked while sizing them; the others are checked here."""
    for slug, entries in deck.sections.items():
        if slug in fmt.section_map:
            continue
        for card, n in entries:
            if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                raise RulesError(
                    f"section {slug!r}: the count of {card.label} must be a positive integer, got {n!r}",
                    key="count.not_positive", section=slug, card=card.label, count=repr(n),
                )  # fmt: skip


def validate_deck(
    deck: Deck,
    fmt: FormatRules,
    *,
    banlist: BanListInfo | None = None,
    pool: list[tuple[CardInfo, int]] | None = None,
) -> Report:
    """Judge ``deck`` against ``fmt``, ``banlist`` and the hero's restrictions.

    ``pool`` is the registered card pool of a limited event (a format with ``pool``): the deck must be a
    sub-multiset of it. Given here it replaces ``deck.pool``; left out, ``deck.pool`` is used, and a pool
    format with neither reports ``not_in_pool``. ``fmt`` is one version of a format: pick the version in
    force on a date with ``Registry.format(game, slug, on_date)``; ``report.rules`` names it.

    An illegal deck is a report with violations; only input that cannot be judged raises
    (:class:`NoDecksError` for games without decks, :class:`RulesError` for non-positive counts).
    """
    if not fmt.has_decks:
        raise NoDecksError(
            f"{fmt.game_slug} is played without player decks (one shared stack of cards), "
            "so there is no deck to validate.",
            key="deck.no_decks", game=fmt.game_slug,
        )  # fmt: skip
    _check_counts(deck, fmt)
    if pool is not None:
        deck = Deck(sections=deck.sections, hero=deck.hero, pool=pool, unknown=deck.unknown,
                    extra_heroes=deck.extra_heroes)  # fmt: skip
    report = Report(rules=RulesUsed(fmt.game_slug, fmt.slug, fmt.version, fmt.effective_date))
    _check_unknown(deck, fmt, report)
    sizes, copy_max, hero_card_rules = _hero_overrides(deck.hero, fmt) if fmt.hero else ({}, None, [])
    _check_sections(deck, fmt, sizes, report)
    _check_copy_limits(deck, fmt, copy_max, report)
    if banlist is not None:
        _check_banlist(deck, fmt, banlist, report)
    elif fmt.banlist is not None and fmt.banlist.whitelist:
        report.warnings.append(
            Violation("not_on_whitelist", "not_on_whitelist.no_list", {"format": _format_label(fmt)})
        )
    _check_hero(deck, fmt, hero_card_rules, report)
    if fmt.pool_scope is not None:
        _check_pool(deck, fmt, report)
    return report
