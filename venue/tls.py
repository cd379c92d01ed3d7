"""HTTPS for venue mode: the certificate the organizer brings, or one made here for the LAN address.

Why HTTPS at all on a LAN: browsers run a service worker (the installable app, My event reloading while the
Wi-Fi is down) only in a secure context, and `http://192.168.x.x` is not one. Two ways in:

- a real certificate for a name that resolves to the laptop on the venue network (a store's own name,
  e.g. `deckhall.mystore.example` pointing at the laptop's LAN address in the store router's DNS): phones
  trust it, no warning, the service worker works;
- `--self-signed`: a certificate for the LAN address made here (`cryptography`). Phones warn on the first
  open; after the player accepts, pages work over HTTPS, but Chromium refuses to register a service worker
  on a page with a certificate error, so the offline reload is not gained (README, "HTTPS at the venue").

Only `make_self_signed` needs `cryptography`; the rest is the standard library.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import ssl
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_EARLIEST = dt.datetime.min.replace(tzinfo=dt.UTC)


class TLSError(Exception):
    """A certificate the venue cannot serve: the message says which file and what to do."""


@dataclass(frozen=True)
class CertificateNames:
    dns: tuple[str, ...]
    ips: tuple[str, ...]
    not_after: dt.datetime
    not_before: dt.datetime = _EARLIEST

    def covers(self, host: str) -> bool:
        """True when a browser would accept this certificate for ``host`` (an IP must be listed as an IP
        address entry; a name may match a one-label wildcard)."""
        name = host.strip("[]").lower().rstrip(".")
        try:
            return str(ipaddress.ip_address(name)) in self.ips
        except ValueError:
            pass
        for pattern in self.dns:
            if pattern == name:
                return True
            if pattern.startswith("*.") and "." in name:
                label, _dot, rest = name.partition(".")
                if label and rest == pattern[2:]:
                    return True
        return False


@lru_cache(maxsize=8)
def _names_cached(path: str, mtime_ns: int) -> CertificateNames:
    from cryptography import x509

    try:
        certificate = x509.load_pem_x509_certificate(Path(path).read_bytes())
    except (OSError, ValueError) as exc:
        raise TLSError(f"{path}: not a PEM certificate ({exc})") from None
    try:
        san = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        dns = tuple(name.lower() for name in san.get_values_for_type(x509.DNSName))
        ips = tuple(str(address) for address in san.get_values_for_type(x509.IPAddress))
    except x509.ExtensionNotFound:
        dns, ips = (), ()  # browsers ignore the subject's common name: such a certificate names nothing
    return CertificateNames(
        dns=dns,
        ips=ips,
        not_after=certificate.not_valid_after_utc,
        not_before=certificate.not_valid_before_utc,
    )


def certificate_names(certfile: str | Path) -> CertificateNames:
    """The host names and addresses a certificate is valid for (its subjectAltName), read once per change."""
    path = Path(certfile)
    try:
        mtime = path.stat().st_mtime_ns
    except OSError as exc:
        raise TLSError(f"certificate {path}: {exc.strerror or exc}") from None
    return _names_cached(str(path), mtime)


def check_pair(certfile: str | Path, keyfile: str | Path) -> None:
    """Refuse, with the reason, a certificate and key that gunicorn could not serve (missing, unreadable,
    not matching): better at start-up than as phones failing to connect."""
    for label, path in (("certificate", certfile), ("key", keyfile)):
        if not Path(path).is_file():
            raise TLSError(f"the {label} file {path} does not exist")
    _check_key_private(Path(keyfile))
    _check_dates(certificate_names(certfile), certfile)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        if b"ENCRYPTED" in Path(keyfile).read_bytes()[:4096]:
            # OpenSSL would ask for the passphrase on the terminal, and so would every gunicorn worker.
            raise TLSError(
                f"the key {keyfile} is protected by a passphrase: give an unencrypted copy "
                "(openssl pkey -in key.pem -out key-plain.pem), readable by this user only"
            )
        context.load_cert_chain(str(certfile), str(keyfile), password=lambda: b"")
    except ssl.SSLError as exc:
        raise TLSError(
            f"{certfile} and {keyfile} do not make a certificate and its private key ({exc.reason or exc})"
        ) from None
    except OSError as exc:
        raise TLSError(f"cannot read {certfile} or {keyfile}: {exc.strerror or exc}") from None


def _check_key_private(keyfile: Path) -> None:
    """A private key other accounts on the laptop can read lets any of them pose as the venue's server."""
    if os.name != "posix":
        return
    mode = keyfile.stat().st_mode & 0o777
    if mode & 0o007:
        raise TLSError(
            f"the key {keyfile} can be read by other users of this computer (permissions {mode:o}): "
            f"make it private with  chmod 600 {keyfile}"
        )


def _check_dates(names: CertificateNames, certfile: str | Path) -> None:
    """Phones refuse a certificate outside its dates with a full-page warning: say so before they do."""
    now = dt.datetime.now(dt.UTC)
    if now >= names.not_after:
        raise TLSError(
            f"the certificate {certfile} expired on {names.not_after:%Y-%m-%d %H:%M} UTC: renew it (or start "
            "with --self-signed for a new one made here)"
        )
    if now < names.not_before:
        raise TLSError(
            f"the certificate {certfile} is not valid before {names.not_before:%Y-%m-%d %H:%M} UTC: check this "
            f"laptop's clock (it says {now:%Y-%m-%d %H:%M} UTC) or use a certificate valid now"
        )


def choose_host(names: CertificateNames, *, requested: str, lan_address: str | None) -> str:
    """The host name phones' links use: the one asked for (it must be in the certificate), else the
    certificate's only concrete name, else the LAN address when the certificate lists it."""
    if requested:
        if not names.covers(requested):
            listed = ", ".join([*names.dns, *names.ips]) or "no name at all"
            raise TLSError(f"the certificate is not valid for {requested} (it names {listed})")
        return requested.lower()
    concrete = [
        n for n in names.dns if not n.startswith("*.") and n != "localhost" and not n.endswith(".local")
    ]
    if len(concrete) == 1:
        return concrete[0]
    if lan_address and names.covers(lan_address):
        return lan_address
    listed = ", ".join([*names.dns, *names.ips]) or "no name at all"
    raise TLSError(
        f"say which name phones should open with --host (or VENUE_HOST): the certificate names {listed}"
        + (f", not this laptop's address {lan_address}" if lan_address else "")
    )


def make_self_signed(directory: Path, *, addresses: list[str], names: list[str]) -> tuple[Path, Path]:
    """A certificate for this laptop's LAN address(es) and names, kept in ``directory`` and made again only
    when it no longer covers them or expires within a week (each new one means a new warning on phones)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    certfile, keyfile = directory / "self-signed.pem", directory / "self-signed-key.pem"
    now = dt.datetime.now(dt.UTC)
    if certfile.exists() and keyfile.exists():
        try:
            have = certificate_names(certfile)
            check_pair(certfile, keyfile)
        except TLSError:
            have = None
        if (
            have is not None
            and all(have.covers(host) for host in [*addresses, *names])
            and have.not_after - now > dt.timedelta(days=7)
        ):
            return certfile, keyfile
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, (addresses or names or ["deckhall"])[0])])
    alternative = [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    alternative += [x509.DNSName(n) for n in names]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        # A year: browsers cap publicly trusted certificates at 398 days; a venue restarts long before.
        .not_valid_after(now + dt.timedelta(days=365))
        .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    fd = os.open(keyfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    certfile.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return certfile, keyfile
