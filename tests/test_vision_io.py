"""Decoding photos: clear BadInput for missing, non-image, truncated and oversized files."""
import struct
import zlib

import cv2
import numpy as np
import pytest

from referee.errors import BadInput
from vision.image_io import MAX_PIXELS, load_photo
from vision import read_photo


def _jpeg(w=320, h=240) -> bytes:
    rng = np.random.default_rng(1)
    img = rng.integers(0, 255, (h, w, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()


def _png_header_only(w: int, h: int) -> bytes:
    """A syntactically valid PNG that claims w x h pixels (tiny file)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 10)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def test_missing_file(tmp_path):
    with pytest.raises(BadInput, match="no such file"):
        read_photo(tmp_path / "nothing.jpg")


def test_directory(tmp_path):
    with pytest.raises(BadInput, match="directory"):
        load_photo(tmp_path)


def test_not_an_image(tmp_path):
    p = tmp_path / "notes.jpg"
    p.write_text("this is text, not a photo")
    with pytest.raises(BadInput, match="not a readable image"):
        read_photo(p)


def test_empty_file(tmp_path):
    p = tmp_path / "empty.png"
    p.write_bytes(b"")
    with pytest.raises(BadInput, match="empty"):
        read_photo(p)


def test_truncated_jpeg(tmp_path):
    data = _jpeg()
    p = tmp_path / "cut.jpg"
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(BadInput, match="truncated"):
        read_photo(p)


def test_truncated_png(tmp_path):
    ok, buf = cv2.imencode(".png", np.zeros((50, 60, 3), np.uint8))
    p = tmp_path / "cut.png"
    p.write_bytes(buf.tobytes()[:-20])
    with pytest.raises(BadInput, match="truncated"):
        read_photo(p)


def test_pixel_limit():
    side = int((MAX_PIXELS * 1.1) ** 0.5)
    with pytest.raises(BadInput, match="too large"):
        load_photo(_png_header_only(side, side))


def test_decodes_bytes_and_arrays():
    photo = load_photo(_jpeg(320, 240))
    assert (photo.width, photo.height) == (320, 240)
    assert photo.image.shape == (240, 320, 3)
    grey = load_photo(np.zeros((10, 12), np.uint8))
    assert grey.image.shape == (10, 12, 3)
    with pytest.raises(BadInput):
        load_photo(np.zeros((10, 12), np.float32))


def test_big_jpeg_is_decoded_reduced():
    img = np.full((2400, 3200, 3), 128, np.uint8)
    ok, buf = cv2.imencode(".jpg", img)
    photo = load_photo(buf.tobytes())
    assert (photo.width, photo.height) == (3200, 2400)
    assert photo.scale < 1.0
    assert photo.image.shape[1] == round(3200 * photo.scale)
