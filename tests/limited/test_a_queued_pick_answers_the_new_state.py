"""A pick from the phone's offline queue (it carries Idempotency-Key) is answered with the page's live box for
the new state and the "Picked." note: 200, no redirect to follow, no session write for the note. A replay of
the key answers the same, from a stored answer of tens of bytes. A plain form post still redirects."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from idempotency.models import IdempotencyKey
from limited.models import DraftPick

from .conftest import create_limited_event, draft_started, sign_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(twindeck, api_client_for, make_user, organizer):
    return draft_started(api_client_for, make_user, organizer, players=2)


def _first_card(client, event_id):
    page = client.get(reverse("limited:my_draft", args=[event_id]), {"fragment": 1}).content.decode()
    return page.split('name="card" value="')[1].split('"')[0]


def test_it_answers_a_queued_pick_with_the_new_state_and_the_note(draft, client):
    event_id, players = draft
    client.force_login(players[0][0])
    card = _first_card(client, event_id)
    session = Session.objects.get().session_data
    url = reverse("limited:pick", args=[event_id])
    first = client.post(url, {"card": card, "pick_number": 1}, HTTP_IDEMPOTENCY_KEY="q-1")
    html = first.content.decode()
    assert first.status_code == 200 and "Location" not in first.headers
    assert '<ul class="messages"' in html and 'class="message success">Picked.</li>' in html
    # The box is the state after the pick: the other seat has not picked, so this phone waits, and the box
    # names its tag so the page's next poll is a 304.
    assert '<div id="live"' in html and 'data-testid="draft-waiting"' in html and "data-draft-etag=" in html
    tag = unescape(html.split('data-draft-etag="')[1].split('"')[0])
    poll = client.get(reverse("limited:my_draft", args=[event_id]), {"fragment": 1}, HTTP_IF_NONE_MATCH=tag)
    assert poll.status_code == 304
    assert Session.objects.get().session_data == session  # the note went in the answer, not the session
    assert len(bytes(IdempotencyKey.objects.get(key="q-1").body)) < 200  # the note only, not the box

    replay = client.post(url, {"card": card, "pick_number": 1}, HTTP_IDEMPOTENCY_KEY="q-1")
    assert replay.status_code == 200 and replay.headers["Idempotent-Replayed"] == "true"
    # The same answer, but for the server's clock the countdown is set by.
    assert re.sub(r'data-now="[^"]*"', "", replay.content.decode()) == re.sub(r'data-now="[^"]*"', "", html)
    assert DraftPick.objects.count() == 1


def test_a_replay_shows_the_state_of_now_after_the_pod_passed(draft, client):
    event_id, players = draft
    client.force_login(players[0][0])
    url = reverse("limited:pick", args=[event_id])
    card = _first_card(client, event_id)
    client.post(url, {"card": card, "pick_number": 1}, HTTP_IDEMPOTENCY_KEY="q-1")
    other = players[1][1]
    me = other.get(f"/api/tournaments/{event_id}/draft/me/").json()
    assert other.post(f"/api/tournaments/{event_id}/draft/pick/",
                      {"card": me["pack"][0], "pick_number": 1}, format="json").status_code == 201  # fmt: skip
    replay = client.post(url, {"card": card, "pick_number": 1}, HTTP_IDEMPOTENCY_KEY="q-1").content.decode()
    assert "Picked." in replay and "Pack 1, pick 2" in replay and 'data-testid="pick"' in replay


def test_a_plain_form_post_still_redirects_to_the_page(draft, client):
    event_id, players = draft
    client.force_login(players[0][0])
    card = _first_card(client, event_id)
    answer = client.post(reverse("limited:pick", args=[event_id]), {"card": card, "pick_number": 1})
    assert answer.status_code == 302 and answer["Location"] == reverse("limited:my_draft", args=[event_id])
    page = client.get(answer["Location"]).content.decode()
    assert "Picked." in page and 'data-testid="draft-waiting"' in page


def test_a_queued_pick_in_conflict_still_answers_409_with_its_note(draft, client):
    event_id, players = draft
    client.force_login(players[0][0])
    url = reverse("limited:pick", args=[event_id])
    card = _first_card(client, event_id)
    client.post(url, {"card": card, "pick_number": 1}, HTTP_IDEMPOTENCY_KEY="q-1")
    again = client.post(url, {"card": card, "pick_number": 1}, HTTP_IDEMPOTENCY_KEY="q-2")
    html = again.content.decode()
    assert again.status_code == 409 and "already made this pick" in html
    # The queue's answer, not a whole page: the error note (offline.js shows it on the queued item) and the
    # live box of now, which the phone adopts — a pick sent after its timer ran out costs no page render.
    assert html.startswith('<ul class="messages"') and 'class="message error">' in html
    assert '<div id="live"' in html and 'data-testid="draft-waiting"' in html and "<html" not in html
    assert len(bytes(IdempotencyKey.objects.get(key="q-2").body)) < 300
    replay = client.post(url, {"card": card, "pick_number": 1}, HTTP_IDEMPOTENCY_KEY="q-2")
    assert replay.status_code == 409 and replay.headers["Idempotent-Replayed"] == "true"
    assert '<div id="live"' in replay.content.decode()
    assert DraftPick.objects.count() == 1


def test_the_pack_is_one_form_whose_buttons_are_the_cards(draft, client):
    event_id, players = draft
    client.force_login(players[0][0])
    page = client.get(reverse("limited:my_draft", args=[event_id])).content.decode()
    html = page[page.index('id="live"') :]
    # One CSRF token and one pick number for the whole pack: the pressed button names the card.
    assert html.count("<form") == 1 and html.count('name="csrfmiddlewaretoken"') == 1
    assert html.count('name="pick_number"') == 1 and html.count('data-testid="pick"') == 15


def test_the_polled_box_and_a_picks_answer_carry_no_token_and_the_pages_token_picks(draft):
    """Only the whole page (it works without JavaScript) renders a CSRF token, in the pack's form and once for
    the page (#draft-csrf), which draft.js puts into the form of every box it adopts: the polled box and a
    pick's answer neither mask a token nor renew the cookie. CSRF still holds: a pick without a token is
    refused, one with the page's token is applied."""
    event_id, players = draft
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(players[0][0])
    page = browser.get(reverse("limited:my_draft", args=[event_id])).content.decode()
    live = page[page.index('id="live"') :]
    assert live.count("<form") == live.count('name="csrfmiddlewaretoken"') == 1
    token = page.split('id="draft-csrf" value="')[1].split('"')[0]
    assert len(token) == 64
    polled = browser.get(reverse("limited:my_draft", args=[event_id]), {"fragment": 1})
    html = polled.content.decode()
    assert polled.status_code == 200 and 'data-testid="pick"' in html and "<form" in html
    assert "csrfmiddlewaretoken" not in html and settings.CSRF_COOKIE_NAME not in polled.cookies
    card = html.split('name="card" value="')[1].split('"')[0]
    url = reverse("limited:pick", args=[event_id])
    refused = browser.post(url, {"card": card, "pick_number": 1}, HTTP_IDEMPOTENCY_KEY="t-1")
    assert refused.status_code == 403 and not DraftPick.objects.exists()
    answer = browser.post(
        url, {"card": card, "pick_number": 1, "csrfmiddlewaretoken": token}, HTTP_IDEMPOTENCY_KEY="t-2"
    )
    assert answer.status_code == 200 and "Picked." in answer.content.decode()
    assert "csrfmiddlewaretoken" not in answer.content.decode()
    assert DraftPick.objects.count() == 1


def test_a_queued_pick_in_a_draft_played_on_the_tables_answers_its_note_and_the_box(
    twindeck, api_client_for, make_user, organizer, client
):
    """A physical draft has no packs on the phones: a pick sent anyway (a page left open from another event, a
    replayed queue) is refused with the queue's answer — the note saying why and the box of now — not a whole
    page, as every other answer to the queue."""
    org = api_client_for(organizer)
    created = create_limited_event(
        org, {"kind": "draft", "product": "td-sample", "seed": 3, "physical": True}
    )
    event_id = created.json()["id"]
    [(user, _api, _player_id), *_rest] = sign_up(
        api_client_for, make_user, event_id, created.json()["join_code"], 2
    )
    assert org.post(f"/api/tournaments/{event_id}/draft/start/").status_code == 201
    client.force_login(user)
    answer = client.post(
        reverse("limited:pick", args=[event_id]),
        {"card": "td-001", "pick_number": 1},
        HTTP_IDEMPOTENCY_KEY="q-1",
    )
    html = answer.content.decode()
    assert answer.status_code == 400 and html.startswith('<ul class="messages"') and "<html" not in html
    assert "played with packs on the tables" in html and '<div id="live"' in html
    assert DraftPick.objects.count() == 0
