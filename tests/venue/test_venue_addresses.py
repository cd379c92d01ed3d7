"""Venue addresses: the `.local` name is shown beside the LAN address only when it resolves to it on
the laptop; with HTTPS the links name the certificate's host and https; venue/tls.py refuses certificates it
could not serve and makes a self-signed one for the LAN address."""

from __future__ import annotations

import datetime as dt
import io
import os
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tests.tournaments.factories import make_event
from venue import addresses, lan, tls

LAN = "10.1.2.3"


@pytest.fixture
def venue_mode(settings: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, set[str]]:
    """Venue settings with a laptop at LAN on a network whose names the test decides (name → addresses)."""
    settings.VENUE_MODE, settings.ALLOWED_HOSTS = True, ["*"]
    settings.VENUE_TLS_CERT, settings.VENUE_HOST = "", ""
    names: dict[str, set[str]] = {}
    monkeypatch.setattr(lan, "primary_address", lambda: LAN)
    monkeypatch.setattr(addresses, "local_name", lambda: "store-laptop.local")
    monkeypatch.setattr(addresses, "resolve", lambda name: names.get(name, set()))
    addresses.forget()
    yield names
    addresses.forget()


def _page(user: Any, path: str, host: str, *, secure: bool = False) -> str:
    client = Client(HTTP_HOST=host)
    client.force_login(user)
    response = client.get(path, secure=secure)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.mark.django_db
def test_the_local_name_is_shown_only_when_it_resolves_to_the_lan_address(
    venue_mode: dict[str, set[str]], organizer: Any, games: Any
) -> None:
    event = make_event(organizer, games["yugioh"], name="mDNS Cup", rounds=3)
    poster, detail = f"/tournaments/{event.pk}/poster/", f"/tournaments/{event.pk}/"

    page = _page(organizer, poster, "127.0.0.1:8000")
    assert "store-laptop.local" not in page  # does not resolve: nothing promised
    assert f"http://{LAN}:8000/tournaments/join/{event.join_code}/" in page

    venue_mode["store-laptop.local"] = {"172.16.0.9"}  # resolves, but to another machine (or network)
    addresses.forget()
    assert "store-laptop.local" not in _page(organizer, poster, "127.0.0.1:8000")

    venue_mode["store-laptop.local"] = {"fe80::1", LAN}
    addresses.forget()
    page = _page(organizer, poster, "127.0.0.1:8000")
    assert (
        'data-testid="poster-local-url"' in page
        and "Or open http://store-laptop.local:8000/ and type" in page
    )
    # The QR code and the printed link keep the address: every phone opens it, mDNS or not.
    assert f"http://{LAN}:8000/tournaments/join/{event.join_code}/" in page
    assert 'data-testid="local-address"' not in page  # said once on the poster, not twice
    event_page = _page(organizer, detail, "127.0.0.1:8000")
    assert 'data-testid="local-address"' in event_page and "http://store-laptop.local:8000/" in event_page


@pytest.mark.django_db
def test_the_local_name_is_in_russian_too(
    venue_mode: dict[str, set[str]], organizer: Any, games: Any
) -> None:
    venue_mode["store-laptop.local"] = {LAN}
    event = make_event(organizer, games["yugioh"], name="mDNS Cup", rounds=3)
    client = Client(HTTP_HOST=f"{LAN}:8000", HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    page = client.get(f"/tournaments/{event.pk}/poster/").content.decode()
    assert "Или откройте http://store-laptop.local:8000/ и введите код для входа." in page


def test_a_hanging_resolver_counts_as_not_resolving_and_is_asked_once_a_minute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    asked: list[str] = []
    release = threading.Event()

    def hang(name: str) -> set[str]:
        asked.append(name)
        release.wait(5)
        return {LAN}

    monkeypatch.setattr(addresses, "resolve", hang)
    monkeypatch.setattr(addresses, "RESOLVE_TIMEOUT", 0.2)
    addresses.forget()
    try:
        assert addresses.resolves_to("slow.local", LAN) is False
        assert addresses.resolves_to("slow.local", LAN) is False  # cached: not asked again
        assert asked == ["slow.local"]
    finally:
        release.set()
        addresses.forget()


@pytest.mark.django_db
def test_with_a_certificate_links_use_https_and_its_host_name(
    venue_mode: dict[str, set[str]], organizer: Any, games: Any, settings: Any, tmp_path: Path
) -> None:
    certfile, _key = tls.make_self_signed(tmp_path, addresses=[LAN], names=["deckhall.store.example"])
    settings.VENUE_TLS_CERT, settings.VENUE_HOST = str(certfile), "deckhall.store.example"
    venue_mode["store-laptop.local"] = {LAN}  # resolves, but the certificate does not name it: not shown
    event = make_event(organizer, games["yugioh"], name="TLS Cup", rounds=3)
    page = _page(organizer, f"/tournaments/{event.pk}/poster/", "localhost:8443", secure=True)
    assert f"https://deckhall.store.example:8443/tournaments/join/{event.join_code}/" in page
    assert "You opened this page as localhost" in page and "store-laptop.local" not in page

    # A self-signed certificate for the address and the .local name: links use the address, .local is shown.
    certfile, _key = tls.make_self_signed(tmp_path / "self", addresses=[LAN], names=["store-laptop.local"])
    settings.VENUE_TLS_CERT, settings.VENUE_HOST = str(certfile), ""
    page = _page(organizer, f"/tournaments/{event.pk}/poster/", f"{LAN}:8443", secure=True)
    assert f"https://{LAN}:8443/tournaments/join/{event.join_code}/" in page
    assert "Or open https://store-laptop.local:8443/ and type" in page


def test_a_self_signed_certificate_covers_the_lan_and_is_made_again_only_when_it_must(tmp_path: Path) -> None:
    cert, key = tls.make_self_signed(tmp_path, addresses=["192.168.1.10", "127.0.0.1"], names=["box.local"])
    tls.check_pair(cert, key)
    names = tls.certificate_names(cert)
    assert names.covers("192.168.1.10") and names.covers("box.local") and names.covers("127.0.0.1")
    assert not names.covers("192.168.1.11") and not names.covers("other.local")
    assert names.not_after - dt.datetime.now(dt.UTC) > dt.timedelta(days=300)
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    first = cert.read_bytes()
    tls.make_self_signed(tmp_path, addresses=["192.168.1.10"], names=["box.local"])
    assert cert.read_bytes() == first  # still covers the LAN: the phones' accepted exception stays valid
    tls.make_self_signed(tmp_path, addresses=["10.0.0.7"], names=["box.local"])  # another Wi-Fi
    assert cert.read_bytes() != first and tls.certificate_names(cert).covers("10.0.0.7")


def test_certificates_that_cannot_be_served_are_refused_with_the_reason(tmp_path: Path) -> None:
    cert_a, key_a = tls.make_self_signed(tmp_path / "a", addresses=["10.0.0.1"], names=["a.example"])
    cert_b, key_b = tls.make_self_signed(tmp_path / "b", addresses=["10.0.0.2"], names=["*.shop.example"])
    with pytest.raises(tls.TLSError, match="do not make a certificate and its private key"):
        tls.check_pair(cert_a, key_b)
    with pytest.raises(tls.TLSError, match="does not exist"):
        tls.check_pair(tmp_path / "missing.pem", key_a)
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(key_a.read_bytes(), password=None)
    locked = tmp_path / "locked-key.pem"
    locked.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"secret"),
        )
    )
    locked.chmod(0o600)  # a key readable by others is refused before its passphrase is looked at
    with pytest.raises(tls.TLSError, match="protected by a passphrase"):
        tls.check_pair(cert_a, locked)
    (tmp_path / "junk.pem").write_text("not a certificate")
    with pytest.raises(tls.TLSError, match="not a PEM certificate"):
        tls.certificate_names(tmp_path / "junk.pem")

    names_a, names_b = tls.certificate_names(cert_a), tls.certificate_names(cert_b)
    assert tls.choose_host(names_a, requested="", lan_address="10.9.9.9") == "a.example"  # its only name
    assert (
        tls.choose_host(names_b, requested="Deckhall.Shop.Example", lan_address=None)
        == "deckhall.shop.example"
    )
    assert not names_b.covers("a.b.shop.example") and not names_b.covers("shop.example")
    with pytest.raises(tls.TLSError, match=r"not valid for other\.example"):
        tls.choose_host(names_a, requested="other.example", lan_address=None)
    # A wildcard alone names no host: the operator must say which one, and is told what the certificate names.
    assert tls.choose_host(names_b, requested="", lan_address="10.0.0.2") == "10.0.0.2"
    with pytest.raises(tls.TLSError, match=r"--host .*\*\.shop\.example"):
        tls.choose_host(names_b, requested="", lan_address="10.0.0.3")


def test_the_venue_command_refuses_a_bad_certificate_before_touching_anything(
    settings: Any, tmp_path: Path
) -> None:
    settings.VENUE_MODE, settings.VENUE_DIR = True, tmp_path / "var"
    cert_a, _key_a = tls.make_self_signed(tmp_path / "a", addresses=["10.0.0.1"], names=["a.example"])
    _cert_b, key_b = tls.make_self_signed(tmp_path / "b", addresses=["10.0.0.2"], names=["b.example"])
    with pytest.raises(CommandError, match="both --certfile and --keyfile"):
        call_command("venue", certfile=str(cert_a), keyfile="", no_serve=True)
    with pytest.raises(CommandError, match=r"HTTPS: .* do not make a certificate"):
        call_command("venue", certfile=str(cert_a), keyfile=str(key_b), no_serve=True)
    with pytest.raises(CommandError, match="either --self-signed or --certfile"):
        call_command("venue", certfile=str(cert_a), keyfile=str(key_b), self_signed=True, no_serve=True)
    assert not (tmp_path / "var" / "organizer-password").exists()


def test_venue_settings_with_a_certificate_name_the_https_origins_and_secure_cookies(tmp_path: Path) -> None:
    from tests.venue.test_venue_settings import _settings

    served = _settings(
        tmp_path, VENUE_TLS_CERT=str(tmp_path / "cert.pem"), VENUE_HOST="Deckhall.Store.Example"
    )
    assert "deckhall.store.example" in served["hosts"]  # type: ignore[operator]
    assert "https://deckhall.store.example:8080" in served["csrf"]  # type: ignore[operator]
    assert not [o for o in served["csrf"] if str(o).startswith("http:")]  # type: ignore[union-attr]
    assert served["secure_cookie"] is True and served["hsts"] == 0 and served["ssl"] is False
    plain = _settings(tmp_path, VENUE_HOST="deckhall.store.example")  # a name alone changes nothing
    assert plain["secure_cookie"] is False and "deckhall.store.example" in plain["hosts"]  # type: ignore[operator]


def test_the_venue_command_exports_the_certificate_and_host_for_its_server(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `manage.py venue` hands its gunicorn (the server re-reads settings from the environment)."""
    from venue.management.commands import venue as command

    for name in ("VENUE_TLS_CERT", "VENUE_TLS_KEY", "VENUE_HOST"):
        monkeypatch.setenv(name, "")  # restored after the test, whatever the command sets
    settings.VENUE_TLS_CERT, settings.VENUE_HOST = "", ""
    monkeypatch.setattr(command, "primary_address", lambda: LAN)
    monkeypatch.setattr(command, "resolves_to", lambda name, address: False)
    cert, key = tls.make_self_signed(tmp_path / "store", addresses=[], names=["deckhall.store.example"])
    options = {"certfile": str(cert), "keyfile": str(key), "host": "", "self_signed": False}
    said = io.StringIO()
    runner = command.Command(stdout=io.StringIO(), stderr=said)
    assert runner._tls(options, tmp_path) == (str(cert), str(key))
    assert os.environ["VENUE_HOST"] == "deckhall.store.example" and os.environ["VENUE_TLS_KEY"] == str(key)
    assert str(cert) == settings.VENUE_TLS_CERT
    # The laptop does not resolve the name to itself here: said, since phones would not reach it either.
    assert "does not resolve to this laptop's address 10.1.2.3" in said.getvalue()

    # Self-signed: a certificate for the LAN address; links then follow the address (no fixed host).
    assert runner._tls({**options, "certfile": "", "keyfile": "", "self_signed": True}, tmp_path)[0].endswith(
        "self-signed.pem"
    )
    assert os.environ["VENUE_HOST"] == "" and tls.certificate_names(os.environ["VENUE_TLS_CERT"]).covers(LAN)
    # No certificate: plain HTTP, nothing left over from a previous choice.
    assert runner._tls({**options, "certfile": "", "keyfile": ""}, tmp_path) == ("", "")
    assert "VENUE_TLS_CERT" not in os.environ and settings.VENUE_TLS_CERT == ""
