"""What the venue laptop is on its network: the addresses and names phones will use to reach it.

Standard library only: config/settings.py imports this before Django is set up.
"""

from __future__ import annotations

import ipaddress
import os
import re
import secrets
import shutil
import socket
import subprocess
from pathlib import Path

_INET = re.compile(r"\binet6?\s+(?:addr:)?([0-9a-fA-F.:]+)")


def secret_key_file(path: Path) -> str:
    """The key in `path`, generated there on first use (owner-only), so sessions survive restarts and
    no key is ever committed."""
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if len(key) >= 50:
        return key
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(64)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    return key


def parse_interface_addresses(text: str) -> list[str]:
    """Addresses in the output of `ip -o addr` (Linux) or `ifconfig` (macOS, BSD): usable unicast only."""
    found: list[str] = []
    for raw in _INET.findall(text):
        candidate = raw.split("%")[0]
        try:
            address = ipaddress.ip_address(candidate)
        except ValueError:
            continue
        if address.is_loopback or address.is_multicast or address.is_unspecified or address.is_link_local:
            continue
        if str(address) not in found:
            found.append(str(address))
    return found


def _interface_addresses() -> list[str]:
    for command in (["ip", "-o", "addr", "show", "up"], ["ifconfig"]):
        if shutil.which(command[0]) is None:
            continue
        try:
            output = subprocess.run(command, capture_output=True, text=True, timeout=3, check=False).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        addresses = parse_interface_addresses(output)
        if addresses:
            return addresses
    return []


def primary_address() -> str | None:
    """The IPv4 address of the interface with the default route: the one to give players. Connecting a UDP
    socket sends nothing; it only asks the kernel which source address it would use."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            address = probe.getsockname()[0]
        except OSError:  # no default route (the laptop is its own hotspot): fall back to the interfaces
            address = ""
    if address and not ipaddress.ip_address(address).is_loopback:
        return address
    ipv4 = [a for a in _interface_addresses() if ipaddress.ip_address(a).version == 4]
    return ipv4[0] if ipv4 else None


def venue_hosts() -> list[str]:
    """Host names the venue server answers to: localhost, this machine's name and `<name>.local` (mDNS,
    what phones resolve on a LAN without DNS), and every address of its interfaces."""
    hostname = socket.gethostname().split(".")[0]
    hosts = ["localhost", "127.0.0.1", "[::1]", hostname, f"{hostname}.local"]
    addresses = _interface_addresses()
    primary = primary_address()
    if primary:
        addresses.insert(0, primary)
    for address in addresses:
        host = f"[{address}]" if ":" in address else address
        if host not in hosts:
            hosts.append(host)
    return hosts


def is_loopback_host(host: str) -> bool:
    """True for a name or address only this machine can reach (``localhost``, 127.x, ``::1``): a link or QR
    code with it works on the laptop that shows it and on no phone."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def split_host(host: str) -> tuple[str, str]:
    """``host[:port]`` (an IPv6 address in brackets) as (host, port); the port is "" when none is given."""
    if host.startswith("["):
        name, _sep, rest = host.partition("]")
        return name + "]", rest[1:] if rest.startswith(":") else ""
    name, _sep, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    return name, port
