"""The web boundary's first look at an uploaded photo, before anything decodes it.

Its header must name a format we accept and pixel dimensions under the configured limit;
both are read from the header bytes, so a decompression bomb is refused before a single
pixel is allocated.  Decoding (and refusing undecodable or truncated data) is the photo
reader's job (:mod:`vision.image_io`), done before anything is stored.  The file name the
client sent is never used: stored photos are named by the server.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

from referee.errors import BadInput

EXTENSIONS = {"jpeg": ".jpg", "png": ".png", "webp": ".webp", "bmp": ".bmp"}


@dataclass(frozen=True)
class Photo:
    """An upload whose header passed: its raw bytes, format name and size in pixels."""

    data: bytes
    format: str
    width: int
    height: int

    @property
    def extension(self) -> str:
        return EXTENSIONS[self.format]


def _jpeg_size(data: bytes) -> tuple[int, int]:
    i = 2
    n = len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            raise BadInput("corrupt JPEG: bad marker")
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        # SOFn markers carry the frame size; C4 (DHT), C8 (JPG), CC (DAC) do not.
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > n:
                break
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    raise BadInput("corrupt JPEG: no frame header")


def _webp_size(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        w = 1 + int.from_bytes(data[24:27], "little")
        h = 1 + int.from_bytes(data[27:30], "little")
        return w, h
    if chunk == b"VP8L" and len(data) >= 25:
        b = int.from_bytes(data[21:25], "little")
        return 1 + (b & 0x3FFF), 1 + ((b >> 14) & 0x3FFF)
    if chunk == b"VP8 " and len(data) >= 30:
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    raise BadInput("corrupt WebP header")


def sniff(data: bytes) -> tuple[str, int, int]:
    """Format name, width and height from the header bytes; ``BadInput`` if not an image."""
    if len(data) < 16:
        raise BadInput("not an image (file too short)" if data else "empty upload")
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        if data[12:16] != b"IHDR" or len(data) < 24:
            raise BadInput("corrupt PNG header")
        w, h = struct.unpack(">II", data[16:24])
        return "png", w, h
    if data.startswith(b"\xff\xd8\xff"):
        w, h = _jpeg_size(data)
        return "jpeg", w, h
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        w, h = _webp_size(data)
        return "webp", w, h
    if data[:2] == b"BM" and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return "bmp", abs(w), abs(h)
    raise BadInput("not a supported image (JPEG, PNG, WebP or BMP expected)")


def check_photo(data: bytes, max_pixels: int) -> Photo:
    """Check an upload's header; ``BadInput`` with a one-line reason if it is refused."""
    fmt, w, h = sniff(data)
    if w <= 0 or h <= 0:
        raise BadInput(f"image has no pixels ({w}x{h})")
    if w * h > max_pixels:
        raise BadInput(f"image too large: {w}x{h} pixels (limit {max_pixels:,} pixels)")
    return Photo(data, fmt, w, h)
