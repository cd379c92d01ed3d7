"""The unchanged draft poll is a 304 before Django (limited/wsgi.py): only for a tag minted for the signed-in
player's own seat, and never once the seat's state moved, its pod's pick timer ran out, or the sign-in is not
the player's — those go to Django, whose answer is the new state with a new tag."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.tokens import api_token_create
from limited import polls
from limited.engine.draft import PICK_GRACE_SECONDS
from limited.models import DraftPick, DraftPod
from limited.wsgi import DraftPolls
from tests.wsgi_downstream import Downstream

from .draft_phones import call
from .draft_phones import pick as _pick

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_unchanged_poll_is_a_304_without_django_and_another_seats_pick_keeps_it(pod):
    django = Downstream()
    app = DraftPolls(django)
    me, other = pod["phones"][0], pod["phones"][1]
    with CaptureQueriesContext(connection) as queries:
        status, headers = call(app, pod["url"], me["etag"], cookie=me["cookie"])
    assert status.startswith("304") and headers["ETag"] == me["etag"] and django.calls == 0
    # The session, then the seat's state with the account (its password hash checked against the session's).
    assert len(queries) == 2, [q["sql"] for q in queries]
    assert _pick(other, pod["event"]).status_code == 201  # what another seat took is not on my phone
    assert call(app, pod["url"], me["etag"], cookie=me["cookie"])[0].startswith("304")
    assert django.calls == 0


def test_after_my_pick_the_poll_goes_to_django_and_shows_the_new_state(pod):
    django = Downstream()
    app = DraftPolls(django)
    me = pod["phones"][0]
    assert _pick(me, pod["event"]).status_code == 201
    assert call(app, pod["url"], me["etag"], cookie=me["cookie"])[0].startswith("200")
    assert django.calls == 1
    answer = me["browser"].get(pod["url"], HTTP_IF_NONE_MATCH=me["etag"])
    assert answer.status_code == 200 and answer["ETag"] != me["etag"]
    assert answer.json()["waiting"] is True and answer.json()["picks"] == [me["me"]["pack"][0]]
    # The new tag is current again, before Django and in the view.
    assert call(app, pod["url"], answer["ETag"], cookie=me["cookie"])[0].startswith("304")
    assert me["browser"].get(pod["url"], HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304


def test_a_run_out_timer_goes_to_django_which_picks_for_the_sleeping_seats(pod, monkeypatch):
    """The rule the pick timer follows (limited/engine/draft.py, pick times from MTR Appendix B): "A seat whose
    timer runs out gets an automatic pick, so one phone that sleeps or loses the Wi-Fi never holds its pod
    up" — the first card of its pack as opened. The first poll after the deadline and its grace for picks on
    their way (PICK_GRACE_SECONDS) runs it, so that poll is never answered 304 before Django."""
    django = Downstream()
    app = DraftPolls(django)
    me = pod["phones"][0]
    deadline = DraftPod.objects.get().deadline
    # The phone's tag is current, but its pod's time is up: the poll must go where the timer is run.
    ran_out = deadline + timedelta(seconds=PICK_GRACE_SECONDS + 1)
    monkeypatch.setattr(polls, "timezone", SimpleNamespace(now=lambda: ran_out))
    assert call(app, pod["url"], me["etag"], cookie=me["cookie"])[0].startswith("200")
    assert django.calls == 1 and DraftPick.objects.count() == 0
    monkeypatch.undo()
    DraftPod.objects.update(deadline=timezone.now() - timedelta(seconds=PICK_GRACE_SECONDS + 1))
    answer = me["browser"].get(pod["url"], HTTP_IF_NONE_MATCH=me["etag"])
    assert answer.status_code == 200 and answer.json()["pick_number"] == 2
    assert DraftPick.objects.filter(auto=True).count() == 4


def test_the_picks_answer_names_the_waiting_tag_until_the_pod_passes(pod):
    django = Downstream()
    app = DraftPolls(django)
    first, *others = pod["phones"]
    made = _pick(first, pod["event"])
    waiting = made["Draft-Me-ETag"]
    assert made.status_code == 201 and waiting != first["etag"]
    # The phone shows "waiting" by itself and polls with the tag it was given: 304 until the pass.
    assert call(app, pod["url"], waiting, cookie=first["cookie"])[0].startswith("304")
    shown = first["browser"].get(pod["url"])
    assert shown["ETag"] == waiting and shown.json()["waiting"] is True
    for phone in others[:-1]:
        assert _pick(phone, pod["event"]).has_header("Draft-Me-ETag")
    last = _pick(others[-1], pod["event"])
    assert last.status_code == 201 and not last.has_header(
        "Draft-Me-ETag"
    )  # the pod passed: nothing to wait for
    assert call(app, pod["url"], waiting, cookie=first["cookie"])[0].startswith("200")
    passed = first["browser"].get(pod["url"], HTTP_IF_NONE_MATCH=waiting)
    assert passed.status_code == 200 and passed.json()["pick_number"] == 2 and passed.json()["pack"]


def test_a_pause_changes_the_tag(pod):
    django = Downstream()
    app = DraftPolls(django)
    me = pod["phones"][0]
    assert pod["org"].post(f"/api/tournaments/{pod['event']}/draft/pods/1/pause/", {"paused": True},
                           format="json").status_code == 200  # fmt: skip
    assert call(app, pod["url"], me["etag"], cookie=me["cookie"])[0].startswith("200")
    assert me["browser"].get(pod["url"], HTTP_IF_NONE_MATCH=me["etag"]).json()["paused"] is True


@pytest.mark.parametrize(
    "who",
    ["no session", "another player's session", "another seat's tag", "a forged mark", "a bad token",
     "a password changed since", "a deactivated account", "an expired session", "a malformed tag",
     "a malformed cookie"],
)  # fmt: skip
def test_a_poll_not_certainly_the_players_own_goes_to_django(pod, who, caplog):
    django = Downstream()
    app = DraftPolls(django)
    me, other = pod["phones"][0], pod["phones"][1]
    etag, cookie, token = me["etag"], me["cookie"], ""
    if who == "no session":
        cookie = ""
    elif who == "another player's session":
        cookie = other["cookie"]
    elif who == "another seat's tag":
        # My session with a tag naming the other seat: the mark is keyed with the secret and names the
        # player, so it never matches (a 304 would tell whether that seat has picked).
        etag = other["etag"].replace(f"-{other['player']}.", f"-{me['player']}.")
    elif who == "a forged mark":
        etag = etag[:-3] + ('00"' if not etag.endswith('00"') else '11"')
    elif who == "a password changed since":
        me["user"].set_password("another-Pass-1")  # every other session of the account is signed out
        me["user"].save()
    elif who == "a deactivated account":
        type(me["user"]).objects.filter(pk=me["user"].pk).update(is_active=False)
    elif who == "a malformed tag":
        etag = '"draft-api-²-1.2.3-xx-00", W/"draft-page-1-x.y.z-en-", "draft-api-1-1.1-xx-0"'
    elif who == "a malformed cookie":
        cookie = 'sessionid="unterminated; ; =;;'
    elif who == "an expired session":
        Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    else:
        cookie, token = "", "not-a-token"
    assert call(app, pod["url"], etag, cookie=cookie, token=token)[0].startswith("200")
    assert django.calls == 1
    assert not [r for r in caplog.records if "fast path failed" in r.getMessage()]  # decided, not crashed


def test_an_api_token_signs_in_as_the_api_does(pod):
    django = Downstream()
    app = DraftPolls(django)
    me, other = pod["phones"][0], pod["phones"][1]
    token = api_token_create(user=me["user"])
    assert call(app, pod["url"], me["etag"], token=token)[0].startswith("304")
    assert call(app, pod["url"], other["etag"], token=token)[0].startswith("200")
    assert django.calls == 1


def test_the_phone_page_fragment_is_a_304_in_its_own_language_only(pod):
    django = Downstream()
    app = DraftPolls(django)
    me = pod["phones"][0]
    url = f"/tournaments/{pod['event']}/draft/?fragment=1"
    first = me["browser"].get(url)
    assert first.status_code == 200 and first["ETag"].startswith('"draft-page-')
    assert call(app, url, first["ETag"], cookie=me["cookie"])[0].startswith("304")
    assert call(app, url.split("?")[0], first["ETag"], cookie=me["cookie"])[0].startswith("200")  # the page
    # Another language chosen since: not a 304 (the copy in the old language is not current) — the box in
    # the new one, answered before Django (tests/limited/test_a_changed_draft_box_is_answered_before_django.py).
    russian = f"{me['cookie']}; {settings.LANGUAGE_COOKIE_NAME}=ru"
    status, headers = call(app, url, first["ETag"], cookie=russian)
    assert status.startswith("200") and headers["Content-Language"] == "ru" and django.calls == 1
    assert call(app, url, me["etag"], cookie=me["cookie"])[0].startswith(
        "200"
    )  # the API's tag is not the page's
    assert django.calls == 2
    assert me["browser"].get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
