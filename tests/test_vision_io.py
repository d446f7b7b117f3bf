"""Decoding photos: clear BadInput for missing, non-image, truncated and oversized files."""
import io
import struct
import zlib

import cv2
import numpy as np
import pytest

from referee.errors import BadInput
from vision.image_io import MAX_PIXELS, load_photo
from vision import read_photo

from conftest import SHARED


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


def _decoded_by_opencv(data: bytes, factor: int) -> np.ndarray:
    flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
             8: cv2.IMREAD_REDUCED_COLOR_8}[factor]
    return cv2.imdecode(np.frombuffer(data, np.uint8), flags)


@pytest.mark.parametrize("name", ["carpet13.jpg", "discovery10.jpg"])
def test_a_real_photo_decodes_to_opencvs_pixels(name):
    # JPEGs stored upright go through simplejpeg: the reader must see the very pixels
    # OpenCV's decoder gives (its thresholds were measured on those)
    data = (SHARED / "real_photos" / name).read_bytes()
    photo = load_photo(data)
    factor = round(photo.width / photo.image.shape[1])
    assert np.array_equal(photo.image, _decoded_by_opencv(data, factor))


def test_a_reduced_jpeg_decodes_to_opencvs_pixels():
    rng = np.random.default_rng(5)
    img = cv2.resize(rng.integers(0, 256, (300, 400, 3), np.uint8), (3203, 2401))
    ok, buf = cv2.imencode(".jpg", img)
    photo = load_photo(buf.tobytes())
    assert photo.scale < 1.0
    factor = round(1 / photo.scale)
    assert np.array_equal(photo.image, _decoded_by_opencv(buf.tobytes(), factor))


def test_a_jpeg_turned_by_exif_is_shown_upright():
    from PIL import Image
    img = np.zeros((60, 100, 3), np.uint8)
    img[:, :50] = 255  # left half white: after a quarter turn it is the top or bottom
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90° clockwise to show"
    out = io.BytesIO()
    Image.fromarray(img).save(out, "JPEG", exif=exif.tobytes())
    photo = load_photo(out.getvalue())
    assert (photo.width, photo.height) == (60, 100)
    assert photo.image.shape[:2] == (100, 60)
    assert np.array_equal(photo.image, _decoded_by_opencv(out.getvalue(), 1))
    assert photo.image[:50].mean() > 200 and photo.image[50:].mean() < 50
