"""Write the application icon to ``assets/icon.png`` and ``assets/icon.ico``."""

from __future__ import annotations

# Usage::
#
#     python tools/make_icon.py [ASSETS_DIR]
#
# The icon is drawn by :func:`game.ui.art.table_art.make_app_icon`. The PNG is the
# 256 px version; the ICO holds several sizes, each drawn natively at that size
# (sharper than downscaling) and stored as PNG data, which every Windows since
# Vista accepts. The ICO container is simple enough to write by hand, so the tool
# needs nothing beyond pygame.

import io
import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

import pygame  # noqa: E402  (sys.path must name the project first)

from game.ui.art.table_art import make_app_icon  # noqa: E402  (sys.path must name the project first)

PNG_SIZE = 256
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def png_bytes(surface: pygame.Surface) -> bytes:
    buffer = io.BytesIO()
    pygame.image.save(surface, buffer, "icon.png")  # the name hint selects PNG
    return buffer.getvalue()


def ico_bytes(images: list[tuple[int, bytes]]) -> bytes:
    """An ICO file from ``(size, png_data)`` pairs.

    Layout: ICONDIR (reserved, type 1 = icon, count), one 16-byte ICONDIRENTRY
    per image, then the image data. A width/height byte of 0 means 256.
    """
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries = b""
    for size, data in images:
        dimension = 0 if size >= 256 else size
        # width, height, palette colours, reserved, colour planes, bits per pixel, bytes, offset
        entries += struct.pack("<BBBBHHII", dimension, dimension, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    return header + entries + b"".join(data for _, data in images)


def main(argv: list[str]) -> int:
    assets = Path(argv[0]) if argv else PROJECT_ROOT / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    pygame.init()
    pygame.image.save(make_app_icon(PNG_SIZE), str(assets / "icon.png"))
    images = [(size, png_bytes(make_app_icon(size))) for size in ICO_SIZES]
    (assets / "icon.ico").write_bytes(ico_bytes(images))
    print(f"wrote {assets / 'icon.png'} and {assets / 'icon.ico'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
