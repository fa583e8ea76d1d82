"""The server's own framing of a text message is the websockets library's, byte for byte."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode

from game.net.direct_connection import text_frame_header


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 1000, 65535, 65536, 70000])
def test_a_text_frame_is_written_as_the_library_writes_it(size: int) -> None:
    payload = b"x" * size
    assert text_frame_header(size) + payload == Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])
