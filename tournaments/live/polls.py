"""The one place a live poll is decided: "still current" (304), "a new round was posted" (the short notice),
or "changed" (the page is rendered).

Both ways in ask ``poll_decide``: the WSGI fast path (``wsgi.LivePolls``, before Django's middleware) for
the hundreds of unchanged polls a second, and the views (``responses``) for everything else, so the two can
never disagree about what is current.

A shared page is current while the counter it follows is unchanged (one primary-key read). A player's page
is current while their fingerprint — one small query over their entry, their matches' versions and the
latest round — is unchanged, so a result at another table still ends in 304 for that phone. A player's tag
holds two marks, the page's and the round clock's: when only the clock moved the phone gets the clock
notice (``clock``), a few hundred bytes, never a full render.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

from .clock import ClockNotice, clock_notice, shared_clock_notice
from .etags import NOTICE, known_language, personal_etag, personal_tag_parts, shared_etag
from .my_event import FINGERPRINT_ROUND, fingerprint_marks, my_event_fingerprint
from .notice import Notice, my_event_notice
from .versions import CLOCK_PAGES, page_state

_MY_EVENT_SALT = "tournaments.live.my-event"
# A phone keeps its page open through a long event day (and a two-day event); past that it reloads.
TOKEN_MAX_AGE_S = 7 * 24 * 3600


def my_event_token(*, player_id: int, user_id: int) -> str:
    """A signed handle for the player's live fragment: an unchanged poll is answered without touching the
    session (no session or user query), and the token alone never shows anything (a 200 checks the user)."""
    return signing.dumps([player_id, user_id], salt=_MY_EVENT_SALT, compress=False)


def my_event_token_read(token: str) -> tuple[int, int] | None:
    try:
        player_id, user_id = signing.loads(token, salt=_MY_EVENT_SALT, max_age=TOKEN_MAX_AGE_S)
        return int(player_id), int(user_id)
    except (signing.BadSignature, TypeError, ValueError):
        return None


# --- shared pages ---------------------------------------------------------------------------------------


def shared_etag_current(tags: set[str], *, tournament_id: int, page: str, language: str | None) -> str | None:
    """The one of ``tags`` that still names the current version of a shared page, else None.
    ``language`` None accepts the tag's own language (the fast path, when no cookie picks one)."""
    state = page_state(tournament_id, page)
    return None if state is None else _current(tags, tournament_id, page, state, language)


def _current(tags: set[str], tournament_id: int, page: str, state: str, language: str | None) -> str | None:
    prefix = f'"{page}-{tournament_id}-{state}-'
    for tag in tags:
        if not tag.startswith(prefix) or known_language(tag[len(prefix) : -1]) is None:
            continue  # only our own tags, in one of the site's languages, are ever echoed back
        if language is None or tag == f'{prefix}{language}"':
            return tag
    return None


def _shared_clock(
    tags: set[str], tournament_id: int, page: str, state: str, language: str | None
) -> ClockNotice | None:
    """The clock notice for a page with a round clock whose copy names the current version of the page
    with another clock (``"<version>c<clock>"`` or, before the clock was set, ``"<version>"``)."""
    if not page.startswith(CLOCK_PAGES):
        return None
    version = state.partition("c")[0]
    prefix = f'"{page}-{tournament_id}-'
    for tag in tags:
        if not tag.startswith(prefix) or not tag.endswith('"'):
            continue
        tag_state, _dash, tag_language = tag[len(prefix) : -1].partition("-")
        if tag_state.partition("c")[0] != version or known_language(tag_language) is None:
            continue
        if language is not None and tag_language != language:
            continue
        etag = shared_etag(page=page, tournament_id=tournament_id, version=state, language=tag_language)
        return shared_clock_notice(tournament_id=tournament_id, page=page, language=tag_language, etag=etag)
    return None


# --- a player's own page --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PersonalPoll:
    """What a conditional poll of a player's page gets: ``current`` (304 with ``etag``), ``new_round`` (the
    phone last saw an earlier round: the short notice answers), ``clock`` (only the round clock moved: the
    clock notice answers under ``etag``), or ``changed`` (a full render)."""

    outcome: str
    etag: str = ""
    round_id: int = 0
    language: str = ""  # the language of the phone's copy (its tag's)


def personal_poll(
    tags: set[str], *, tournament_id: int, player_id: int, language: str | None
) -> PersonalPoll:
    """Decide a player's poll with one query (their fingerprint). A result at another table leaves it
    ``current``; a phone still showing an earlier round gets ``new_round``. ``language`` None accepts the
    tag's own language (the fast path, when no cookie picks one)."""
    parts = [(tag, p) for tag in tags if (p := personal_tag_parts(tag, tournament_id)) is not None]
    if not parts:
        return PersonalPoll("changed")
    fingerprint = my_event_fingerprint(tournament_id=tournament_id, player_id=player_id)
    if fingerprint is None:
        return PersonalPoll("changed")
    page_mark, clock_mark = fingerprint_marks(fingerprint)
    mark, round_id = f"{page_mark}.{clock_mark}", int(fingerprint[FINGERPRINT_ROUND] or 0)
    for tag, (tag_round, tag_language, tag_mark) in parts:
        if language is not None and tag_language != language:
            continue
        if tag_mark == mark or (tag_mark == NOTICE and tag_round == round_id):
            # A phone showing the notice fetches its full page by itself, spread over a few seconds.
            return PersonalPoll("current", tag, round_id)
        if tag_round == round_id and tag_mark.partition(".")[0] == page_mark:
            current = personal_etag(
                tournament_id=tournament_id, round_id=round_id, language=tag_language, mark=mark
            )
            return PersonalPoll("clock", current, round_id, tag_language)
        if tag_round != round_id and round_id:
            notice = personal_etag(
                tournament_id=tournament_id, round_id=round_id, language=tag_language, mark=NOTICE
            )
            return PersonalPoll("new_round", notice, round_id, tag_language)
    return PersonalPoll("changed", round_id=round_id)


def my_event_etag(*, tournament_id: int, player_id: int, language: str) -> str | None:
    """The ETag of what the player sees now (None when there is no such player in the event)."""
    fingerprint = my_event_fingerprint(tournament_id=tournament_id, player_id=player_id)
    if fingerprint is None:
        return None
    page_mark, clock_mark = fingerprint_marks(fingerprint)
    return personal_etag(tournament_id=tournament_id, round_id=int(fingerprint[FINGERPRINT_ROUND] or 0),
                         language=language, mark=f"{page_mark}.{clock_mark}")  # fmt: skip


# --- the entry ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """``etag`` set: answer 304 with it. ``notice`` set: answer the short new-round notice. ``clock`` set:
    answer the clock notice (only the round clock changed). None: the page changed (or the poll is not ours
    to decide) and is rendered."""

    etag: str | None = None
    notice: Notice | None = None
    clock: ClockNotice | None = None


RENDER = Decision()


def poll_decide(
    tags: set[str], *, tournament_id: int, language: str | None, page: str = "", player_id: int = 0
) -> Decision:
    """Decide one conditional poll: of the shared ``page``, or (``player_id``) of that player's own page."""
    if not tags:
        return RENDER
    if not player_id:
        state = page_state(tournament_id, page)
        if state is None:
            return RENDER
        current = _current(tags, tournament_id, page, state, language)
        if current is not None:
            return Decision(etag=current)
        clock = _shared_clock(tags, tournament_id, page, state, language)
        return Decision(clock=clock) if clock is not None else RENDER
    poll = personal_poll(tags, tournament_id=tournament_id, player_id=player_id, language=language)
    if poll.outcome == "current":
        return Decision(etag=poll.etag)
    if poll.outcome == "clock":
        clock = clock_notice(
            tournament_id=tournament_id, player_id=player_id, language=poll.language, etag=poll.etag
        )
        if clock is not None:
            return Decision(clock=clock)
    if poll.outcome == "new_round":
        # In the language of the phone's copy (its tag's; the chosen language's when one was given).
        notice = my_event_notice(tournament_id=tournament_id, player_id=player_id, language=poll.language)
        if notice is not None:
            return Decision(notice=notice)
    return RENDER
