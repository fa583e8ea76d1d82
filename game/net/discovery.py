"""Tables on the local network: a server advertises itself over mDNS, and a browser lists them.

``advertise`` and ``browse`` return at once: zeroconf's own thread probes, announces and
resolves. Without multicast (no network, or a network that blocks it) both log, list
nothing and never raise, so typing an address stays the way in.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import secrets
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass

import ifaddr
from zeroconf import ServiceInfo, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo

from game.net.protocol import PROTOCOL_VERSION, SERVICE_TYPE
from game.session.names import clean_name

log = logging.getLogger(__name__)

# Everything heard on the network is untrusted: a name is cleaned like a seat's name and
# cut to what a list row shows; a TXT value longer than any we write is ignored.
NAME_CHARS = 40
# An mDNS instance name is one DNS label (63 bytes of UTF-8); zeroconf appends "-2", "-3"...
# to make a taken name unique, so ours leaves room for that.
_LABEL_BYTES = 56
_TXT_VALUE_BYTES = 100
MAX_SERVERS = 64  # listed at once: a flood of adverts cannot grow the list (or memory) without end
_MAX_RESOLVING = 32  # services being looked up at once
_MAX_ADDRESSES = 4  # per server
_RESOLVE_MS = 3000  # how long a service's address and port are waited for
# Our records live two minutes: a server that vanished without a goodbye (killed, unplugged)
# leaves the list within that time, not after DNS-SD's usual 75 minutes.
_RECORD_TTL = 120
_CLOSE_SECONDS = 1.0
_UNNAMED = "Trick Table"
_SCOPE = re.compile(r"[\w.-]{1,32}", re.ASCII)  # an interface's name or number


@dataclass(frozen=True)
class FoundServer:
    """A server heard on the local network. ``addresses`` holds IPv4 addresses first; ``protocol``
    is None when the advert's version is not a number. ``service`` is its mDNS name (unique)."""

    name: str
    addresses: tuple[str, ...]
    port: int
    protocol: int | None
    tls: bool
    service: str

    @property
    def host(self) -> str:
        """The address to try first."""
        return self.addresses[0]

    @property
    def compatible(self) -> bool:
        """Whether this program speaks the server's protocol (others are listed, greyed)."""
        return self.protocol == PROTOCOL_VERSION


def _shown_text(value: object, limit: int) -> str:
    """``value`` (text, or a TXT value's bytes, from the network) as text safe to draw, or ""."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")  # invalid UTF-8 shows as a replacement mark
    return clean_name(value)[:limit].rstrip() if isinstance(value, str) else ""


def _txt(properties: Mapping[bytes, object], key: bytes) -> bytes | None:
    value = properties.get(key)
    return value if isinstance(value, bytes) and len(value) <= _TXT_VALUE_BYTES else None


def _protocol_version(raw: bytes | None) -> int | None:
    text = raw.decode("ascii", "replace") if raw is not None else ""
    return int(text) if text.isdigit() and len(text) <= 6 else None


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _ordered_addresses(addresses: Iterable[object], local_networks: Sequence[Network] = ()) -> tuple[str, ...]:
    """Valid IP addresses, each once, at most ``_MAX_ADDRESSES``: IPv4 before IPv6, and within
    each those on one of ``local_networks`` (this machine's own) first. A server with a VPN or
    a virtual machine's adapter advertises addresses only it can use; the one on a network
    both share is the one to try."""
    ranked: list[tuple[int, int, str]] = []
    for position, address in enumerate(addresses):
        if not isinstance(address, str) or len(address) > 64:
            continue
        bare, _, scope = address.partition("%")
        try:
            parsed = ipaddress.ip_address(bare)
        except ValueError:
            continue
        if parsed.is_unspecified or parsed.is_multicast or (scope and not _SCOPE.fullmatch(scope)):
            continue
        # Every link has fe80::/64: a link-local address says nothing of a shared network.
        near = not parsed.is_link_local and any(parsed in network for network in local_networks)
        text = f"{parsed}%{scope}" if scope and parsed.version == 6 else str(parsed)  # fe80::1%eth0
        ranked.append((2 * (parsed.version == 6) + (not near), position, text))
    return tuple(dict.fromkeys(text for _, _, text in sorted(ranked)))[:_MAX_ADDRESSES]


def describe_service(
    service: str,
    port: object,
    properties: Mapping[bytes, object],
    addresses: Iterable[object],
    local_networks: Sequence[Network] = (),
) -> FoundServer | None:
    """What the join screen lists for one resolved advert, or None when it cannot be joined
    (no usable address or port). Any garbage in the advert is cleaned, cut or ignored;
    addresses on ``local_networks`` come first."""
    found_addresses = _ordered_addresses(addresses, local_networks)
    if not isinstance(port, int) or not 0 < port < 65536 or not found_addresses:
        return None
    label = service[: -len(SERVICE_TYPE) - 1] if service.endswith("." + SERVICE_TYPE) else service
    name = _shown_text(_txt(properties, b"name"), NAME_CHARS) or _shown_text(label, NAME_CHARS) or _UNNAMED
    return FoundServer(
        name=name,
        addresses=found_addresses,
        port=port,
        protocol=_protocol_version(_txt(properties, b"protocol")),
        tls=_txt(properties, b"tls") == b"1",
        service=_shown_text(service, 2 * _LABEL_BYTES),
    )


def _advertised_name(server_name: str) -> str:
    """The server's name as one mDNS label: cleaned, at most ``NAME_CHARS`` characters and
    ``_LABEL_BYTES`` bytes of UTF-8, and never ending in a dot (which would end the label)."""
    name = clean_name(server_name, _UNNAMED)[:NAME_CHARS]
    while len(name.encode("utf-8")) > _LABEL_BYTES:
        name = name[:-1]
    return name.rstrip(". ") or _UNNAMED


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other hosts can reach (loopback only when there is none)."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith(("127.", "169.254.")):
                found.append(ip.ip)
    return list(dict.fromkeys(found)) or ["127.0.0.1"]


def _local_networks() -> list[Network]:
    """The networks this machine's interfaces are on (loopback's too)."""
    networks: list[Network] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            address = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            try:
                networks.append(ipaddress.ip_network(f"{address}/{ip.network_prefix}", strict=False))
            except ValueError:
                continue
    return networks


def _start_zeroconf(interfaces: Sequence[str] | None, purpose: str) -> Zeroconf | None:
    """A running Zeroconf in its own thread (even when the caller runs an asyncio loop), or None
    when this machine cannot do multicast DNS."""
    try:
        if interfaces is None:
            return Zeroconf(use_asyncio=False)
        return Zeroconf(interfaces=list(interfaces), use_asyncio=False)
    except Exception as exc:  # no network, no multicast or a refused socket: discovery is off
        log.warning("Local network discovery is off (%s): %s", purpose, exc)
        return None


def _close_zeroconf(zc: Zeroconf, purpose: str) -> None:
    """Close ``zc``: goodbyes for its services (0.25 s), then its thread."""
    try:
        zc.close()
    except Exception as exc:  # a failed goodbye must not stop the caller's shutdown
        log.warning("Local network discovery (%s) did not close cleanly: %s", purpose, exc)


class Advertiser:
    """One running server's advert. Use ``advertise``; ``active`` is False when there is no
    multicast here (or after ``close``), and then the advertiser does nothing."""

    def __init__(self, zc: Zeroconf | None, info: ServiceInfo | None) -> None:
        self._zc = zc
        self._info = info
        self._lock = threading.Lock()
        self._failed = zc is None
        self._closed = False
        self._registered = False
        self._settled = threading.Event()  # registered, or failed
        if zc is None:
            self._settled.set()
        self._registration: Future[None] | None = None
        if zc is not None and zc.loop is not None:
            self._registration = asyncio.run_coroutine_threadsafe(self._register(), zc.loop)

    @property
    def active(self) -> bool:
        with self._lock:
            return not (self._failed or self._closed)

    @property
    def name(self) -> str:
        """The name as advertised: another server's name gets a "-2" (and so on) appended."""
        if self._info is None:
            return ""
        return _shown_text(self._info.name[: -len(SERVICE_TYPE) - 1], NAME_CHARS + 8)

    def wait_registered(self, timeout: float) -> bool:
        """Whether the advert is on the network, waiting at most ``timeout`` seconds (for tests
        and the log: nothing needs to wait for it)."""
        return self._settled.wait(timeout) and self._registered and self.active

    async def _register(self) -> None:
        zc, info = self._zc, self._info
        assert zc is not None and info is not None
        try:
            announced = await zc.async_register_service(info, allow_name_change=True)
            final_name = self.name
            if info.properties.get(b"name") != final_name.encode("utf-8"):
                # zeroconf renamed the advert (the name was taken): the TXT name follows.
                info = _service_info(
                    info.name,
                    info.port or 0,
                    final_name,
                    info.properties.get(b"tls") == b"1",
                    info.parsed_addresses(),
                    info.server,
                )
                self._info = info
                await announced
                announced = await zc.async_update_service(info)
            await announced
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a network that refuses the advert leaves the server as it is
            log.warning("Could not advertise the server on the local network: %s", exc)
            with self._lock:
                self._failed = True
            self._settled.set()
            return
        log.info("Advertising %r on the local network", self.name)
        self._registered = True
        self._settled.set()

    def close(self, wait: bool = True) -> None:
        """Withdraw the advert (goodbye packets, 0.25 s) and stop: within about a second, or at
        once with ``wait=False`` (a screen's frame) while a thread finishes the goodbyes. That
        thread is not a daemon, so a program that quits still says goodbye first."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if self._registration is not None:
            self._registration.cancel()
        if self._zc is None:
            return
        if wait:
            _close_zeroconf(self._zc, "advertiser")
        else:
            threading.Thread(target=_close_zeroconf, args=(self._zc, "advertiser"), name="advert-goodbye").start()


def _service_info(
    service: str, port: int, name: str, tls: bool, addresses: Sequence[str], server: str | None
) -> ServiceInfo:
    properties = {"protocol": str(PROTOCOL_VERSION), "name": name, "tls": "1" if tls else "0"}
    return ServiceInfo(
        SERVICE_TYPE,
        service,
        port=port,
        properties=properties,
        server=server,
        host_ttl=_RECORD_TTL,
        other_ttl=_RECORD_TTL,
        parsed_addresses=list(addresses),
    )


def advertise(
    port: int,
    server_name: str,
    addresses: Sequence[str] | None = None,
    *,
    tls: bool = False,
    interfaces: Sequence[str] | None = None,
) -> Advertiser:
    """Advertise a server listening on ``port`` as ``server_name``. ``addresses`` are where
    clients reach it (default: this machine's LAN addresses, or ``interfaces`` when given);
    ``interfaces`` are the IP addresses whose networks hear the advert (default: all)."""
    name = _advertised_name(server_name)
    if not 0 < port < 65536:  # a server bound to port 0 must pass the port the system chose
        log.warning("Could not advertise the server on the local network: port %r", port)
        return Advertiser(None, None)
    if addresses is None:
        addresses = list(interfaces) if interfaces is not None else lan_addresses()
    try:
        # A host name of its own: two tables on one machine (or a renamed advert) never share
        # address records, which the network would otherwise mix up.
        info = _service_info(
            f"{name}.{SERVICE_TYPE}", port, name, tls, addresses, f"tricktable-{secrets.token_hex(4)}.local."
        )
    except Exception as exc:  # a bad port or address: the server runs, unadvertised
        log.warning("Could not advertise the server on the local network: %s", exc)
        return Advertiser(None, None)
    return Advertiser(_start_zeroconf(interfaces, "advertiser"), info)


class Browser:
    """The servers heard on the local network, kept up to date in zeroconf's thread. Use
    ``browse``; ``servers()`` may be called from any thread at any time (it never waits)."""

    def __init__(self, zc: Zeroconf | None) -> None:
        self._zc = zc
        self._lock = threading.Lock()
        self._found: dict[str, FoundServer] = {}
        self._resolving: dict[str, asyncio.Task[None]] = {}  # touched only in zeroconf's thread
        self._browser: AsyncServiceBrowser | None = None
        self._closed = False
        self._local_networks = _local_networks() if zc is not None else []
        if zc is not None and zc.loop is not None:
            zc.loop.call_soon_threadsafe(self._start)

    @property
    def active(self) -> bool:
        """False when there is no multicast here (nothing will ever be found) or after ``close``."""
        return self._zc is not None and not self._closed

    def servers(self) -> list[FoundServer]:
        """The servers heard so far, compatible ones first, then by name."""
        with self._lock:
            found = list(self._found.values())
        return sorted(found, key=lambda server: (not server.compatible, server.name.casefold(), server.service))

    def _start(self) -> None:
        assert self._zc is not None
        try:
            self._browser = AsyncServiceBrowser(self._zc, SERVICE_TYPE, handlers=[self._on_change])
        except Exception as exc:  # browsing is a convenience: the join screen still takes an address
            log.warning("Could not browse the local network: %s", exc)

    def _on_change(self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        """zeroconf's news of one service (in its thread): look it up again, or drop it."""
        pending = self._resolving.pop(name, None)
        if pending is not None:
            pending.cancel()
        if state_change is ServiceStateChange.Removed:
            with self._lock:
                self._found.pop(name, None)
        elif len(self._resolving) < _MAX_RESOLVING:
            self._resolving[name] = asyncio.ensure_future(self._resolve(zeroconf, name))

    async def _resolve(self, zeroconf: Zeroconf, name: str) -> None:
        try:
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            if not await info.async_request(zeroconf, _RESOLVE_MS):
                return
            found = describe_service(
                name, info.port, info.properties, info.parsed_scoped_addresses(), self._local_networks
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # an advert zeroconf cannot read is skipped, never fatal
            log.debug("Skipped an unreadable advert %r: %s", name[:80], exc)
            return
        finally:
            if self._resolving.get(name) is asyncio.current_task():
                del self._resolving[name]
        with self._lock:
            if found is None:
                self._found.pop(name, None)
            elif name in self._found or len(self._found) < MAX_SERVERS:
                self._found[name] = found

    async def _stop(self) -> None:
        if self._browser is not None:
            await self._browser.async_cancel()
        for task in self._resolving.values():
            task.cancel()
        self._resolving.clear()

    def close(self) -> None:
        """Stop listening; returns within about a second."""
        if self._closed:
            return
        self._closed = True
        zc = self._zc
        if zc is not None and zc.loop is not None:
            # Lookups still waiting for an answer are dropped first: zeroconf's close waits
            # for the tasks left on its loop.
            try:
                asyncio.run_coroutine_threadsafe(self._stop(), zc.loop).result(_CLOSE_SECONDS / 2)
            except Exception as exc:  # closing goes on whatever the loop did
                log.debug("Browser did not stop cleanly: %s", exc)
            _close_zeroconf(zc, "browser")
        with self._lock:
            self._found.clear()


def browse(interfaces: Sequence[str] | None = None) -> Browser:
    """Start listening for servers on the local network (``interfaces``: the IP addresses of the
    networks to listen on; default all). Returns at once; ``servers()`` fills in as adverts arrive."""
    started = time.monotonic()
    browser = Browser(_start_zeroconf(interfaces, "browser"))
    log.debug("Browsing the local network (started in %.3f s)", time.monotonic() - started)
    return browser
