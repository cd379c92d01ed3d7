"""Builders for small card files used by the cards tests."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

DATAS_SQL = (
    "CREATE TABLE datas (id INTEGER PRIMARY KEY, ot INTEGER, alias INTEGER, setcode INTEGER, type INTEGER,"
    " atk INTEGER, def INTEGER, level INTEGER, race INTEGER, attribute INTEGER, category INTEGER)"
)
TEXTS_SQL = "CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT, desc TEXT)"

# (id, ot, alias, setcode, type, atk, def, level, race, attribute, name, desc)
GOOD_ROWS = [
    (46986414, 3, 0, 0x10A2, 0x11, 2500, 2100, 7, 0x2, 0x20, "Dark Magician", "The ultimate wizard."),
    (46986415, 3, 46986414, 0, 0x11, 2500, 2100, 7, 0x2, 0x20, "Dark Magician", "The ultimate wizard."),
    (55144522, 3, 0, 0, 0x2, 0, 0, 0, 0, 0, "Pot of Greed", "Draw 2 cards."),
    (44095762, 3, 0, 0, 0x4, 0, 0, 0, 0, 0, "Mirror Force", "Destroy attackers."),
    (16178681, 3, 0, 0, 0x1000021, 2500, 2000, 67371015, 0x2000, 0x20, "Odd-Eyes Pendulum Dragon", "Pend."),
    (1861629, 3, 0, 0, 0x4000021, 2300, 0x2A, 3, 0x1000000, 0x20, "Decode Talker", "Link."),
    (73915052, 3, 0, 0, 0x4011, 0, 0, 1, 0x4000, 0x1, "Sheep Token", "A token."),
    (84013237, 2, 0, 0, 0x800021, 2500, 2000, 4, 0x1, 0x10, "Number 39: Utopia", "Xyz."),
]


def make_cdb(path: Path, rows: list[tuple[Any, ...]]) -> bytes:
    conn = sqlite3.connect(path)
    conn.execute(DATAS_SQL)
    conn.execute(TEXTS_SQL)
    for row in rows:
        conn.execute("INSERT INTO datas VALUES (?,?,?,?,?,?,?,?,?,?,0)", row[:10])
        conn.execute("INSERT INTO texts VALUES (?,?,?)", (row[0], row[10], row[11]))
    conn.commit()
    conn.close()
    return path.read_bytes()


@pytest.fixture
def cdb_bytes(tmp_path: Path) -> Any:
    def build(rows: list[tuple[Any, ...]] | None = None) -> bytes:
        return make_cdb(
            tmp_path / f"cards{len(list(tmp_path.iterdir()))}.cdb", GOOD_ROWS if rows is None else rows
        )

    return build


def deckhall_json(
    cards: list[dict[str, Any]], game: str = "everseal", sets: list[dict[str, Any]] | None = None
) -> bytes:
    return json.dumps(
        {"format": "deckhall-cards", "version": 1, "game": game, "sets": sets or [], "cards": cards},
        ensure_ascii=False,
    ).encode()


def es_card(external_id: str, name: str, **extra: Any) -> dict[str, Any]:
    return {
        "external_id": external_id,
        "name": name,
        "card_type": "monster",
        "attributes": {"size": "S", "region": "Север", "keywords": ["Стая"], "atk": 3},
        **extra,
    }


COCKATRICE_V3 = """<?xml version='1.0' encoding='UTF8'?>
<cockatrice_carddatabase version="3">
  <sets><set><name>SD01</name><longname>Starter π</longname><settype>Starter</settype>
  <releasedate>2017-10-20</releasedate></set></sets>
  <cards>
    <card><name>The Coin</name><set>SD01</set><cmc>0</cmc><type/><text>Token.</text><token>1</token></card>
    <card><name>Carella Lv1</name><set picURL="http://example.com/c1.jpg">SD01</set><color>Ignus</color>
      <type>Caster</type><text>Caster one.</text></card>
    <card><name>Carella Lv2</name><set>SD01</set><color>Ignus</color><type>Caster</type><text>Caster two.</text></card>
    <card><name>Lantern Imp</name><set>SD01</set><color>Ignus</color><manacost>1</manacost><cmc>1</cmc>
      <type>Servant - Youkai/Heishi</type><pt>10/20</pt><text>Servant.</text></card>
    <card><name>Twin Spirit</name><set>SD01</set><color>Soulbond</color>
      <type>Soul Bond Servant - Spirit Form</type><pt>10/10</pt><text>Bond.</text></card>
  </cards>
</cockatrice_carddatabase>
"""

COCKATRICE_V4 = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>TST</name><longname>Test Set</longname><settype>Core</settype><releasedate>2020-01-01</releasedate></set></sets>
  <cards>
    <card><name>Огненный Дракон</name><text>Летает.</text>
      <prop><type>Creature - Dragon</type><maintype>Creature</maintype><manacost>4R</manacost><cmc>5</cmc>
        <colors>R</colors><pt>5/5</pt></prop>
      <set rarity="rare" num="12" picurl="https://example.com/d.jpg">TST</set>
    </card>
    <card><name>Spark</name><text>Deal 1.</text>
      <prop><type>Instant</type><maintype>Instant</maintype><manacost>R</manacost><cmc>1</cmc><colors>R</colors></prop>
      <set rarity="common" num="13">TST</set>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


@pytest.fixture
def organizer(make_user: Any, games: dict[str, Any]) -> Any:
    """In the card tests the organizer is also a card editor of every game: importing a card database
    is a per-game grant (cards.permissions), not part of being an organizer."""
    user = make_user("olga", organizer=True)
    for game in games.values():
        game.card_editors.add(user)
    return user


@pytest.fixture
def media(settings: Any, tmp_path: Path) -> Path:
    """Uploaded card pictures go to a folder of the test's own."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # keep the test output clean
        pass


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A local HTTP server on 127.0.0.1 serving tmp_path/www: the community's files in update tests."""
    root = tmp_path / "www"
    root.mkdir()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    httpd.shutdown()
    httpd.server_close()
