"""Finding tables on the local network (game/net/discovery.py) with real zeroconf adverts.

In this process on the loopback interface, then between network namespaces joined by a veth
pair: two real hosts, with and without multicast between them. The namespace tests need root,
iproute2 and nftables (.ci/run installs both); without them they skip and say why.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import queue
import random
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from zeroconf import DNSAddress, DNSOutgoing, DNSPointer, DNSService, DNSText, Zeroconf
from zeroconf.const import _CLASS_IN, _CLASS_UNIQUE, _FLAGS_AA, _FLAGS_QR_RESPONSE, _TYPE_A, _TYPE_PTR, _TYPE_SRV
from zeroconf.const import _TYPE_TXT

from game.net.discovery import NAME_CHARS, FoundServer, _advertised_name, advertise, browse, describe_service
from game.net.protocol import PROTOCOL_VERSION, SERVICE_TYPE

ROOT = Path(__file__).resolve().parent.parent
LOOPBACK = ["127.0.0.1"]


def wait_for(check: Callable[[], Any], seconds: float) -> Any:
    """``check()``'s first true answer, polling until ``seconds`` have passed (then its last)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = check()
        if answer or time.monotonic() >= deadline:
            return answer
        time.sleep(0.02)


def shown_safely(server: FoundServer) -> bool:
    """What a list row may draw: a short name with no control or invisible characters."""
    text = server.name + server.service
    return (
        0 < len(server.name) <= NAME_CHARS
        and all(unicodedata.category(char) not in ("Cc", "Cf", "Cs") for char in text)
        and 0 < server.port < 65536
        and 0 < len(server.addresses) <= 4
    )


# --- What a resolved advert becomes (no network) ---


def test_a_good_advert_is_listed_with_ipv4_first() -> None:
    found = describe_service(
        f"Ann's table.{SERVICE_TYPE}",
        47123,
        {b"protocol": str(PROTOCOL_VERSION).encode(), b"name": "Ann's table ♠".encode(), b"tls": b"1"},
        ["fe80::1%eth0", "2001:db8::7", "192.0.2.10", "not an address", "192.0.2.10", "fe80::9%no way!"],
    )
    assert found == FoundServer(
        name="Ann's table ♠",
        addresses=("192.0.2.10", "fe80::1%eth0", "2001:db8::7"),
        port=47123,
        protocol=PROTOCOL_VERSION,
        tls=True,
        service=f"Ann's table.{SERVICE_TYPE}",
    )
    assert found.compatible and found.host == "192.0.2.10"


def test_addresses_on_a_network_this_machine_shares_come_first() -> None:
    # The server also advertises a VPN's address (203.0.113.5) and IPv6 ones; this machine
    # is on 192.0.2.0/24 and 2001:db8::/64.
    here = [ipaddress.ip_network("192.0.2.0/24"), ipaddress.ip_network("2001:db8::/64")]
    found = describe_service(
        f"t.{SERVICE_TYPE}",
        4000,
        {},
        ["fe80::1%eth0", "203.0.113.5", "2001:db8:1::9", "192.0.2.10%eth0", "2001:db8::7", "198.51.100.3"],
        here,
    )
    assert found is not None
    assert found.addresses == ("192.0.2.10", "203.0.113.5", "198.51.100.3", "2001:db8::7")


def test_another_protocol_version_is_listed_but_incompatible() -> None:
    for raw, version in ((str(PROTOCOL_VERSION + 1).encode(), PROTOCOL_VERSION + 1), (b"banana", None), (None, None)):
        found = describe_service(f"t.{SERVICE_TYPE}", 4000, {b"protocol": raw}, ["192.0.2.1"])
        assert found is not None and found.protocol == version and not found.compatible


def test_garbage_adverts_are_cleaned_cut_or_skipped() -> None:
    hostile = describe_service(
        "\x1b[31mEvil\u200b" + "é" * 300 + f".{SERVICE_TYPE}",
        4000,
        {b"name": b"\x00\x1b[2J\xff\xfe" + b"x" * 90, b"tls": b"\xff", b"protocol": b"1" * 50},
        ["192.0.2.1"] * 20 + [f"198.51.100.{n}" for n in range(20)],
    )
    assert hostile is not None and shown_safely(hostile)
    assert hostile.name.startswith("[2J") and not hostile.tls and hostile.protocol is None
    assert len(hostile.addresses) == 4
    # A name over the TXT value limit is not read: the advert's label stands in, cut.
    too_long = describe_service(f"Label.{SERVICE_TYPE}", 4000, {b"name": b"n" * 500}, ["192.0.2.1"])
    assert too_long is not None and too_long.name == "Label"
    # Nothing to join: no port, no usable address.
    assert describe_service(f"t.{SERVICE_TYPE}", 0, {}, ["192.0.2.1"]) is None
    assert describe_service(f"t.{SERVICE_TYPE}", 70000, {}, ["192.0.2.1"]) is None
    assert describe_service(f"t.{SERVICE_TYPE}", 4000, {}, ["224.0.0.251", "0.0.0.0", "x", None]) is None

    rng = random.Random(27)
    for _ in range(300):

        def junk() -> bytes:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 120)))

        properties: dict[Any, Any] = {junk(): rng.choice([junk(), None, 7]) for _ in range(rng.randrange(4))}
        properties.update({key: rng.choice([junk(), None]) for key in (b"name", b"protocol", b"tls")})
        service = junk().decode("utf-8", "replace") + f".{SERVICE_TYPE}"
        found = describe_service(service, rng.choice([4000, 0, -1, "80", None]), properties, ["192.0.2.1", junk()])
        assert found is None or shown_safely(found)


def test_the_advertised_name_fits_one_dns_label() -> None:
    assert _advertised_name("Ann's table") == "Ann's table"
    assert _advertised_name("  Ann's\ttable\x00 ") == "Ann's table"
    assert _advertised_name("") == _advertised_name("\x00\u200b") == "Trick Table"
    assert _advertised_name("trailing dots...") == "trailing dots"
    for name in ("🂡" * 40, "é" * 100, "x" * 100):
        advertised = _advertised_name(name)
        # Room left for zeroconf's "-2" within the 63-byte label.
        assert 0 < len(advertised) <= NAME_CHARS and len(advertised.encode()) <= 56


# --- On this machine's loopback interface, in this process ---


@pytest.fixture(scope="module")
def loopback_multicast() -> None:
    try:
        Zeroconf(interfaces=LOOPBACK, use_asyncio=False).close()
    except OSError as exc:
        pytest.skip(f"this machine cannot do multicast DNS on its loopback interface: {exc}")


needs_loopback_multicast = pytest.mark.usefixtures("loopback_multicast")


def ours(browser_servers: list[FoundServer], token: str) -> list[FoundServer]:
    """The servers this test advertised (other tests may advertise on loopback at the same time)."""
    return [server for server in browser_servers if token in server.service]


@needs_loopback_multicast
def test_a_table_advertised_here_is_found_and_leaves_when_closed() -> None:
    token = secrets.token_hex(3)

    async def serve_and_close() -> None:
        # Advertised from inside a running asyncio loop, as the server does: zeroconf works in
        # its own thread and never waits on (or blocks) the caller's loop.
        browser = browse(LOOPBACK)
        advertiser = advertise(47123, f"Ann's table {token}", tls=True, interfaces=LOOPBACK)
        try:
            assert advertiser.active and browser.active
            deadline = time.monotonic() + 5.0
            while not ours(browser.servers(), token) and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            found = ours(browser.servers(), token)
            assert found == [
                FoundServer(
                    name=f"Ann's table {token}",
                    addresses=("127.0.0.1",),
                    port=47123,
                    protocol=PROTOCOL_VERSION,
                    tls=True,
                    service=f"Ann's table {token}.{SERVICE_TYPE}",
                )
            ]
            assert found[0].compatible
            started = time.monotonic()
            advertiser.close()
            assert time.monotonic() - started < 1.0
            assert not advertiser.active
            assert wait_for(lambda: not ours(browser.servers(), token), 2.0)
        finally:
            advertiser.close()
            browser.close()
        assert browser.servers() == []

    asyncio.run(serve_and_close())


@needs_loopback_multicast
def test_a_second_table_with_a_taken_name_gets_a_unique_one() -> None:
    token = secrets.token_hex(3)
    browser = browse(LOOPBACK)
    first = advertise(47123, f"Ann's table {token}", interfaces=LOOPBACK)
    second = None
    try:
        assert first.wait_registered(3.0)
        second = advertise(47124, f"Ann's table {token}", interfaces=LOOPBACK)
        assert second.wait_registered(4.0)
        assert second.name == f"Ann's table {token}-2"
        names = wait_for(lambda: sorted(server.name for server in ours(browser.servers(), token)), 2.0)
        assert names == [f"Ann's table {token}", f"Ann's table {token}-2"]
        ports = {server.name: server.port for server in ours(browser.servers(), token)}
        assert ports == {f"Ann's table {token}": 47123, f"Ann's table {token}-2": 47124}
        # Closed without waiting (as a screen does): both still say goodbye.
        started = time.monotonic()
        first.close(wait=False)
        second.close(wait=False)
        assert time.monotonic() - started < 0.2  # a waiting close takes 0.25 s each
        assert wait_for(lambda: not ours(browser.servers(), token), 2.0)
    finally:
        first.close()
        if second is not None:
            second.close()
        browser.close()


def _send_raw_adverts(adverts: list[tuple[str, bytes]], port: int) -> None:
    """Hand-made mDNS answers on loopback, as a hostile or broken host would send them:
    each (instance label, raw TXT record), with no probing and no checks."""
    packet = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
    now = 0.0
    for index, (label, text) in enumerate(adverts):
        service = f"{label}.{SERVICE_TYPE}"
        server = f"raw-{index}.local."
        packet.add_answer_at_time(DNSPointer(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN, 120, service), now)
        packet.add_answer_at_time(
            DNSService(service, _TYPE_SRV, _CLASS_IN | _CLASS_UNIQUE, 120, 0, 0, port, server), now
        )
        packet.add_answer_at_time(DNSText(service, _TYPE_TXT, _CLASS_IN | _CLASS_UNIQUE, 120, text), now)
        packet.add_answer_at_time(
            DNSAddress(server, _TYPE_A, _CLASS_IN | _CLASS_UNIQUE, 120, socket.inet_aton("127.0.0.1")), now
        )
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
        sender.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1"))
        sender.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
        for raw in packet.packets():
            sender.sendto(raw, ("224.0.0.251", 5353))


def _txt(*entries: bytes) -> bytes:
    return b"".join(bytes([len(entry)]) + entry for entry in entries)


@needs_loopback_multicast
def test_garbage_adverts_on_the_network_are_shown_safely_or_skipped() -> None:
    token = secrets.token_hex(3)
    rng = random.Random(27)
    adverts = [
        (f"Good {token}", _txt(f"protocol={PROTOCOL_VERSION}".encode(), b"name=Good " + token.encode(), b"tls=0")),
        (
            f"Bad text {token}",
            _txt(b"protocol=banana", b"name=\x1b[2J" + "é".encode() * 45, b"tls=\xff\xfe", b"\x00\x01")
            + b"\x7ftruncated",
        ),
        (f"Binary {token}", bytes(rng.randrange(256) for _ in range(200))),
        (f"Control \x07 {token}", _txt(b"protocol=1")),
        (f"{token} " + "é" * 28, b""),  # a label of 63 bytes, no TXT at all
    ]
    browser = browse(LOOPBACK)
    try:

        def heard() -> list[FoundServer]:
            # Sent again until heard: the browser may not be listening yet the first time.
            _send_raw_adverts(adverts, port=47125)
            time.sleep(0.2)
            return ours(browser.servers(), token)

        assert wait_for(lambda: len(heard()) >= 4, 3.0)
        listed = ours(browser.servers(), token)
        assert all(shown_safely(server) for server in listed), listed
        good = [server for server in listed if server.name == f"Good {token}"]
        assert len(good) == 1 and good[0].compatible and good[0].port == 47125 and not good[0].tls
        bad = next(server for server in listed if server.service.startswith("Bad text"))
        assert bad.protocol is None and not bad.tls and bad.name == "[2J" + "é" * (NAME_CHARS - 3)
        binary = next(server for server in listed if server.service.startswith("Binary"))
        assert binary.name == f"Binary {token}" and not binary.compatible
        long_label = next(server for server in listed if server.service.startswith(token))
        assert long_label.name == (f"{token} " + "é" * 28)[:NAME_CHARS] and long_label.protocol is None
        # The label with a bell in it: zeroconf refuses to look it up, or it is shown without it.
        assert all("\x07" not in server.service for server in listed)
    finally:
        browser.close()


def test_without_multicast_here_advertising_and_browsing_do_nothing_quietly() -> None:
    started = time.monotonic()
    # An address no interface of this machine has: zeroconf cannot open its sockets.
    browser = browse(["203.0.113.9"])
    advertiser = advertise(47123, "Ann's table", interfaces=["203.0.113.9"])
    unadvertisable = advertise(0, "Ann's table", interfaces=LOOPBACK)
    assert time.monotonic() - started < 0.5
    assert not browser.active and not advertiser.active and not unadvertisable.active
    assert browser.servers() == [] and not advertiser.wait_registered(0.1)
    for closer in (browser, advertiser, unadvertisable):
        closer.close()
        closer.close()


# --- Two hosts: network namespaces joined by a veth pair ---

# Addresses of the test's own hosts (the benchmarking range, RFC 2544): they exist only
# inside the namespaces this test makes.
_HOST_A, _HOST_B = "198.18.27.1", "198.18.27.2"
_NAMESPACE_PREFIX = "ttdisc"
_NO_MULTICAST_RULES = """
table ip tricktable_test {
  chain incoming { type filter hook input priority 0; ip daddr 224.0.0.0/4 drop; }
  chain outgoing { type filter hook output priority 0; ip daddr 224.0.0.0/4 oifname != "lo" drop; }
}
"""


def _run(*command: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=10, check=False)


def _remove_stale_namespaces() -> None:
    """Namespaces a killed run of this test left behind (their pid is gone)."""
    for line in _run("ip", "netns", "list").stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        parts = name.split("-")
        if len(parts) == 4 and parts[0] == _NAMESPACE_PREFIX and parts[1].isdigit():
            if not Path(f"/proc/{parts[1]}").exists():
                _run("ip", "netns", "del", name)


class Hosts:
    """Network namespaces made for one test, removed (with their links) when it ends."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.peers: list[Peer] = []
        self._count = 0

    def new(self, loopback: bool = True) -> str:
        self._count += 1
        name = f"{_NAMESPACE_PREFIX}-{os.getpid()}-{secrets.token_hex(2)}-{self._count}"
        made = _run("ip", "netns", "add", name)
        if made.returncode != 0:
            pytest.skip(f"cannot create a network namespace: {made.stderr.strip()}")
        self.names.append(name)
        if loopback:
            self.must("ip", "-n", name, "link", "set", "lo", "up")
        return name

    def pair(self, blocked: bool = False) -> tuple[str, str]:
        """Two hosts on one link (A at _HOST_A, B at _HOST_B); ``blocked``: each host's firewall
        drops multicast, as some routers and guest networks do, while unicast still passes."""
        first, second = self.new(), self.new()
        link = f"ttd{secrets.token_hex(4)}"
        self.must("ip", "link", "add", f"{link}a", "netns", first, "type", "veth", "peer", f"{link}b", "netns", second)
        for host, end, address in ((first, "a", _HOST_A), (second, "b", _HOST_B)):
            self.must("ip", "-n", host, "addr", "add", f"{address}/24", "dev", f"{link}{end}")
            self.must("ip", "-n", host, "link", "set", f"{link}{end}", "up")
            if blocked:
                self.must("ip", "netns", "exec", host, "nft", "-f", "-", stdin=_NO_MULTICAST_RULES)
        return first, second

    def must(self, *command: str, stdin: str | None = None) -> None:
        done = _run(*command, stdin=stdin)
        assert done.returncode == 0, f"{' '.join(command)}: {done.stderr}"

    def start(self, host: str, *arguments: str) -> Peer:
        peer = Peer(host, arguments)
        self.peers.append(peer)
        return peer

    def remove(self) -> None:
        for peer in self.peers:
            peer.stop()
        for name in self.names:
            _run("ip", "netns", "del", name)


@pytest.fixture
def hosts() -> Iterator[Hosts]:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("network namespaces need root")
    if shutil.which("ip") is None:
        pytest.skip("iproute2's ip is not installed (apt-get install iproute2)")
    _remove_stale_namespaces()
    made = Hosts()
    try:
        yield made
    finally:
        made.remove()
    left = _run("ip", "netns", "list").stdout
    assert not any(name in left for name in made.names)


class Peer:
    """tests/discovery_peer.py running on one host; its JSON lines read as they come."""

    def __init__(self, host: str, arguments: tuple[str, ...]) -> None:
        command = ["ip", "netns", "exec", host, sys.executable, "-m", "tests.discovery_peer", *arguments]
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.events.put(json.loads(line))

    def expect(self, check: Callable[[dict[str, Any]], bool], seconds: float) -> dict[str, Any]:
        """The first event ``check`` accepts, within ``seconds``."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                break
            self.seen.append(event)
            if check(event):
                return event
        raise AssertionError(f"no such event in {seconds} s; saw {self.seen}; {self.stderr()}")

    def tell(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def stderr(self) -> str:
        if self.process.poll() is None:
            return "(still running)"
        assert self.process.stderr is not None
        return self.process.stderr.read()[-2000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=5)


def _names(event: dict[str, Any]) -> list[str]:
    return [server["name"] for server in event.get("servers", [])]


def test_a_table_on_one_host_is_found_from_another_and_leaves_when_closed(hosts: Hosts) -> None:
    host_a, host_b = hosts.pair()
    browser = hosts.start(host_b, "browse")
    advertiser = hosts.start(host_a, "advertise", "Ann's table", "47123", "--tls")
    started = browser.expect(lambda event: event["event"] == "started", 3.0)
    assert started["active"] and started["seconds"] < 0.5
    found = browser.expect(lambda event: "Ann's table" in _names(event), 5.0)
    assert found["servers"] == [
        {
            "name": "Ann's table",
            "addresses": [_HOST_A],  # the advertiser's own address on the link, found by itself
            "port": 47123,
            "protocol": PROTOCOL_VERSION,
            "tls": True,
            "service": f"Ann's table.{SERVICE_TYPE}",
            "compatible": True,
        }
    ]
    advertiser.tell("close")
    assert advertiser.expect(lambda event: event["event"] == "closed", 2.0)["seconds"] < 1.0
    browser.expect(lambda event: event["event"] == "servers" and not event["servers"], 2.0)
    browser.tell("close")
    browser.expect(lambda event: event["event"] == "closed", 2.0)


def test_with_multicast_blocked_browsing_finds_nothing_quickly_and_quietly(hosts: Hosts) -> None:
    if shutil.which("nft") is None:
        pytest.skip("nftables' nft is not installed (apt-get install nftables)")
    host_a, host_b = hosts.pair(blocked=True)
    offline = hosts.new(loopback=False)  # a host with no network at all: its loopback is down
    browser = hosts.start(host_b, "browse")
    advertiser = hosts.start(host_a, "advertise", "Ann's table", "47123")
    lonely_browser = hosts.start(offline, "browse")
    lonely_advertiser = hosts.start(offline, "advertise", "Bo's table", "47123")

    started = browser.expect(lambda event: event["event"] == "started", 3.0)
    assert started["active"] and started["seconds"] < 0.5
    # The advert went out (the advertiser sees no error) but never arrives.
    assert advertiser.expect(lambda event: event["event"] == "registered", 4.0)["ok"]
    time.sleep(0.5)  # longer than an announcement takes to arrive on a link that passes it
    browser.tell("close")
    browser.expect(lambda event: event["event"] == "closed", 2.0)
    assert [event for event in browser.seen if event.get("servers")] == []

    lonely = lonely_browser.expect(lambda event: event["event"] == "started", 3.0)
    assert lonely == {"event": "started", "seconds": lonely["seconds"], "active": False, "servers": []}
    assert lonely["seconds"] < 0.5
    assert lonely_advertiser.expect(lambda event: event["event"] == "started", 3.0)["active"] is False
    lonely_advertiser.expect(lambda event: event["event"] == "registered" and not event["ok"], 1.0)
    for peer in (lonely_browser, lonely_advertiser, advertiser):
        peer.tell("close")
        peer.expect(lambda event: event["event"] == "closed", 2.0)
        assert peer.process.wait(timeout=2) == 0
