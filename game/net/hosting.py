"""``HostedServer``: the table server run inside the program for **Host a table**.

It listens on every IPv4 address at the protocol's port (a free port when that is
taken), keeps its table logs in the data folder's ``server/``, announces itself on
the local network, and stops (server, advert, computer players) without waiting.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path

from game.net.discovery import Advertiser, advertise, lan_addresses
from game.net.protocol import DEFAULT_PORT
from game.net.server import ServerThread, TableServer

log = logging.getLogger("tricktable.net")

LISTEN_ON = "0.0.0.0"  # every IPv4 address: players on the local network reach it


class HostedServer:
    """One server in this program, from ``start`` to ``stop``."""

    def __init__(self, data_dir: Path | None, name: str, *, host: str = LISTEN_ON, port: int = DEFAULT_PORT) -> None:
        """``data_dir``: where its table logs go (None: nowhere); ``name``: the name it is
        announced by; ``host`` and ``port``: where it listens (port 0: any free one)."""
        self.data_dir = data_dir
        self.name = name
        self.host = host
        self.wanted_port = port
        self.port = 0
        self.advertiser: Advertiser | None = None
        self._thread: ServerThread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None

    @property
    def url(self) -> str:
        """Where this program's own client connects: over loopback."""
        return f"ws://127.0.0.1:{self.port}/"

    def start(self, announce: bool = True) -> int:
        """Listen (the wanted port, else a free one) and announce; the port. ``OSError`` when it
        cannot listen at all."""
        if self._thread is not None:
            return self.port
        ports = [self.wanted_port] if self.wanted_port == 0 else [self.wanted_port, 0]
        for number, port in enumerate(ports):
            # Its table logs' folder is held by one server at a time (FolderInUseError, an OSError).
            thread = ServerThread(TableServer(self.data_dir, self.name, resume_tables=False), self.host, port)
            try:
                self.port = thread.start()
            except OSError as error:
                _stop_thread(thread)  # and let the folder go, for the next try
                if number == len(ports) - 1:
                    raise
                log.info("port %s cannot be used (%s): a free port instead", port, error)
                continue
            self._thread = thread
            break
        log.info("hosting on port %s", self.port)
        if announce:
            self.advertiser = advertise(self.port, self.name)
        return self.port

    def addresses(self) -> list[str]:
        """Where players on the local network reach it: this machine's IPv4 addresses with the port."""
        return [f"{address}:{self.port}" for address in lan_addresses()]

    def stop(self) -> None:
        """Stop serving, withdraw the advert and drop the computers' work: returns at once."""
        thread, self._thread = self._thread, None
        if thread is not None:
            _stop_thread(thread)
        advertiser, self.advertiser = self.advertiser, None
        if advertiser is not None:
            advertiser.close(wait=False)


def _stop_thread(thread: ServerThread) -> None:
    with contextlib.suppress(RuntimeError):  # its loop has ended already (it could not listen)
        thread.stop()
    # A computer still thinking is not waited for, nothing new is started, the folder is free.
    thread.table_server.close()
