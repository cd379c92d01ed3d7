"""The limited pages: My draft on a phone (a pick through the offline queue's form, once), build from the
pool, the organizer's pods with pause, the projector's seatings and timer, printables with the seed — in
English and Russian."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.urls import reverse

from limited.models import DraftPick, DraftPod
from tournaments.models import Player

from .conftest import create_limited_event, draft_started, sign_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(twindeck, api_client_for, make_user, organizer):
    return draft_started(api_client_for, make_user, organizer, players=4)


def test_a_player_picks_on_the_phone_page_once(draft, client):
    event_id, players = draft
    user = players[0][0]
    client.force_login(user)
    detail = client.get(reverse("tournaments:detail", args=[event_id])).content.decode()
    assert reverse("limited:my_draft", args=[event_id]) in detail  # the way in from the event's page
    page = client.get(reverse("limited:my_draft", args=[event_id])).content.decode()
    assert 'data-testid="pick"' in page and "Pack 1, pick 1" in page and 'data-queue="Pick 1"' in page
    # The timer as draft.js counts it down (m:ss): a full pack of 15 has 40 s (MTR Appendix B).
    timer = re.search(r'data-testid="draft-timer"[^>]*>([^<]*)<', page).group(1)
    assert re.fullmatch(r"0:(39|40)", timer), timer
    card = page.split('name="card" value="')[1].split('"')[0]
    # A card's name is the card database's text: shown on its button, never run.
    from cards.models import Card
    from limited import phone_box

    Card.objects.filter(external_id=card).update(name='Bolt <script>alert("x")</script> & Co')
    phone_box._SHOWN.clear()
    hostile = client.get(reverse("limited:my_draft", args=[event_id])).content.decode()
    assert "<script>alert" not in hostile
    assert "Bolt &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co" in hostile
    url = reverse("limited:pick", args=[event_id])
    first = client.post(url, {"card": card, "pick_number": 1}, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 200 and 'id="live"' in first.content.decode()
    replay = client.post(url, {"card": card, "pick_number": 1}, HTTP_IDEMPOTENCY_KEY="k-1")
    assert replay.status_code == 200 and replay.headers["Idempotent-Replayed"] == "true"
    again = client.post(url, {"card": card, "pick_number": 1}, HTTP_IDEMPOTENCY_KEY="k-2", follow=True)
    assert again.status_code == 409 and "already made this pick" in again.content.decode()
    assert DraftPick.objects.count() == 1
    waiting = client.get(reverse("limited:my_draft", args=[event_id]), {"fragment": 1})
    assert 'data-testid="draft-waiting"' in waiting.content.decode()
    assert "<li>1 × Bolt &lt;script&gt;" in waiting.content.decode()  # the pick, by its escaped name
    assert (
        client.get(
            reverse("limited:my_draft", args=[event_id]), {"fragment": 1}, HTTP_IF_NONE_MATCH=waiting["ETag"]
        ).status_code
        == 304
    )
    # An event id no database column holds names no event: 404, as any unknown event.
    for path in ("/tournaments/99999999999999999999/draft/", "/tournaments/9223372036854775808/limited/"):
        assert client.get(path).status_code == 404
    assert client.post("/tournaments/99999999999999999999/draft/pick/", {"card": card}).status_code == 404
    client.cookies["django_language"] = "ru"
    ru = client.get(reverse("limited:my_draft", args=[event_id]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Стол 1" in ru or "Под 1" in ru


def test_the_organizer_pauses_a_pod_and_prints_seatings(draft, client, organizer):
    event_id, players = draft
    client.force_login(organizer)
    url = reverse("limited:organizer", args=[event_id])
    page = client.get(url).content.decode()
    assert 'data-testid="pod"' in page and players[0][0].username in page
    assert "Pick 1 of 45" in page and " s left" in page and page.count('data-testid="pause"') == 1
    # A seat's name is the player's own text: shown, never run.
    Player.objects.filter(user=players[1][0]).update(name='<img src=x onerror="alert(1)">')
    fragment = client.get(url, {"fragment": 1}).content.decode()
    assert "<img src=x" not in fragment and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in fragment
    client.post(url, {"action": "pause", "pod": 1})
    assert DraftPod.objects.get().paused_left is not None
    paused = client.get(url, {"fragment": 1}).content.decode()
    assert "paused" in paused and 'data-testid="resume"' in paused and "csrfmiddlewaretoken" in paused
    ru = client.get(url, {"fragment": 1}, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Стол 1" in ru and "Пик 1 из 45" in ru and "Продолжить" in ru
    projector = client.get(reverse("limited:projector", args=[event_id])).content.decode()
    assert 'data-schedule="40,40,35,30,25,25,20,20,15,10,10,5,5,5,5"' in projector
    printed = client.get(reverse("limited:printables", args=[event_id])).content.decode()
    assert 'data-testid="print-seed">3<' in printed and printed.count('data-testid="pool-sheet"') == 4
    client.force_login(players[0][0])
    assert client.get(url).status_code == 403


def test_a_physical_draft_seats_pods_and_players_type_in_their_pools(
    twindeck, api_client_for, make_user, organizer, client
):
    from cards.models import Printing
    from tournaments.models import Player

    org = api_client_for(organizer)
    created = create_limited_event(
        org, {"kind": "draft", "product": "td-sample", "seed": 4, "physical": True}
    )
    event_id = created.json()["id"]
    players = sign_up(api_client_for, make_user, event_id, created.json()["join_code"], 5)
    started = org.post(f"/api/tournaments/{event_id}/draft/start/")
    assert started.status_code == 201 and [len(p["seats"]) for p in started.json()] == [5]
    assert DraftPod.objects.get().packs == []
    client.force_login(players[0][0])
    page = client.get(reverse("limited:my_draft", args=[event_id])).content.decode()
    assert 'data-testid="draft-physical"' in page and 'data-testid="pick"' not in page
    url = reverse("limited:enter_pool", args=[event_id])
    printing = Printing.objects.filter(card__game=twindeck).select_related("card", "card_set").first()
    found = client.get(url, {"q": printing.code}).content.decode()
    assert printing.card.name in found
    bad = client.post(url, {"pool_text": "2 No Such Card"}, follow=True).content.decode()
    assert "Line 1: no card No Such Card" in bad
    text = f"3 {printing.card_set.code} {printing.code}\n2 {printing.card.name}\nГоблин-Налётчик"
    client.post(url, {"pool_text": text})
    player = Player.objects.get(pk=players[0][2])
    expected = Counter({printing.card.external_id: 5})
    expected["td-001"] += 1  # Гоблин-Налётчик, typed by name
    pool = api_client_for(players[0][0]).get(f"/api/tournaments/{event_id}/pools/{player.pk}/").json()
    assert pool == dict(expected)


def test_a_player_builds_and_registers_a_deck_from_a_dealt_pool_on_the_phone(
    twindeck, api_client_for, make_user, organizer, client
):
    from cards.models import Card
    from tournaments.models import Player

    org = api_client_for(organizer)
    created = create_limited_event(org, {"kind": "sealed", "product": "td-sample", "packs": 5, "seed": 17})
    event_id = created.json()["id"]
    ((user, api, player_id),) = sign_up(
        api_client_for, make_user, event_id, created.json()["join_code"], 1, "s"
    )
    org.post(f"/api/tournaments/{event_id}/limited/deal/")
    pool = api.get(f"/api/tournaments/{event_id}/pools/{player_id}/").json()
    backs = dict(Card.objects.filter(external_id__in=pool).values_list("external_id", "attributes__back"))
    client.force_login(user)
    url = reverse("limited:build", args=[event_id])
    response = client.get(url)
    page = response.content.decode()
    assert response.status_code == 200, page[page.find("<main") :][:600]
    assert 'data-testid="build-form"' in page, page[page.find("<main") :][:1500]
    assert 'data-testid="build-clock"' in page
    too_many = {f"main:{next(k for k in pool if backs[k] == 'blue')}": 99}
    assert "between 0 and" in client.post(url, too_many, follow=True).content.decode()
    form = {f"{'creatures' if backs[k] == 'red' else 'main'}:{k}": n for k, n in pool.items()}
    answer = client.post(url, form, follow=True).content.decode()
    assert "Deck registered." in answer and 'data-testid="deck-registered"' in answer
    deck = Player.objects.get(pk=player_id).deck
    assert sum(line["count"] for lines in deck["sections"].values() for line in lines) == sum(pool.values())
