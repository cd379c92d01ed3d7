"""HTTPS start-up refuses, with the reason and the fix, a certificate outside its dates (expired, or not yet
valid: a laptop clock set wrong) and a private key other users of the laptop can read."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from venue import tls


def _pair(
    directory: Path, *, start: dt.datetime, end: dt.datetime, key_mode: int = 0o600
) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "shop.example")])
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(start).not_valid_after(end)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("shop.example")]), critical=False)
        .sign(key, hashes.SHA256())
    )  # fmt: skip
    directory.mkdir(parents=True, exist_ok=True)
    certfile, keyfile = directory / "cert.pem", directory / "key.pem"
    certfile.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    keyfile.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    os.chmod(keyfile, key_mode)
    return certfile, keyfile


NOW = dt.datetime.now(dt.UTC)


def test_a_certificate_valid_now_with_a_private_key_is_served(tmp_path: Path) -> None:
    tls.check_pair(*_pair(tmp_path, start=NOW - dt.timedelta(days=1), end=NOW + dt.timedelta(days=30)))


def test_an_expired_certificate_is_refused_with_its_date(tmp_path: Path) -> None:
    cert, key = _pair(tmp_path, start=NOW - dt.timedelta(days=400), end=NOW - dt.timedelta(days=2))
    with pytest.raises(tls.TLSError, match=r"expired on \d{4}-\d\d-\d\d.*renew it"):
        tls.check_pair(cert, key)


def test_a_certificate_not_yet_valid_is_refused_naming_the_clock(tmp_path: Path) -> None:
    cert, key = _pair(tmp_path, start=NOW + dt.timedelta(days=3), end=NOW + dt.timedelta(days=90))
    with pytest.raises(tls.TLSError, match=r"not valid before .*laptop's clock"):
        tls.check_pair(cert, key)


@pytest.mark.skipif(os.name != "posix", reason="POSIX file permissions")
def test_a_key_readable_by_others_is_refused_with_the_chmod_that_fixes_it(tmp_path: Path) -> None:
    cert, key = _pair(
        tmp_path, start=NOW - dt.timedelta(days=1), end=NOW + dt.timedelta(days=30), key_mode=0o644
    )
    with pytest.raises(tls.TLSError, match=r"can be read by other users .*chmod 600"):
        tls.check_pair(cert, key)
    os.chmod(key, 0o640)  # a group such as Debian's ssl-cert may read it; other users may not
    tls.check_pair(cert, key)


def test_an_expired_self_signed_certificate_is_made_again(tmp_path: Path) -> None:
    cert, key = _pair(tmp_path, start=NOW - dt.timedelta(days=400), end=NOW - dt.timedelta(days=2))
    os.replace(cert, tmp_path / "self-signed.pem")
    os.replace(key, tmp_path / "self-signed-key.pem")
    made, made_key = tls.make_self_signed(tmp_path, addresses=["10.0.0.5"], names=[])
    tls.check_pair(made, made_key)
    assert tls.certificate_names(made).not_after > NOW
