"""The web companion over real HTTP: a server on a free loopback port, real uploads of
the sample photos, 20 concurrent uploads, and games surviving a crash and restart.

The helpers at the top (servers, multipart uploads with the standard library) are also
used by the browser test."""
from __future__ import annotations

import json
import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_images"
REAL = ROOT.parent / "shared" / "real_photos"


def photos() -> list[Path]:
    """The bundled sample photos (those with ground truth beside them) plus the shared
    real photos."""
    out = sorted(p for p in SAMPLES.glob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png")
                 and p.with_suffix(".json").exists())
    return out + sorted(REAL.glob("*.jpg"))


def multipart(fields: dict[str, tuple[str, bytes, str]]) -> tuple[bytes, str]:
    """Encode ``{name: (filename, data, content_type)}`` as multipart/form-data."""
    boundary = "----ttc" + secrets.token_hex(8)
    parts = []
    for name, (filename, data, ctype) in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                     f'filename="{filename}"\r\nContent-Type: {ctype}\r\n\r\n'.encode() + data + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def request(method: str, url: str, body: bytes | None = None, ctype: str | None = None,
            timeout: float = 120) -> tuple[int, dict | None, bytes]:
    """(status, parsed JSON or None, raw body) for one HTTP request; never raises on 4xx/5xx."""
    req = urllib.request.Request(url, data=body, method=method)
    if ctype:
        req.add_header("Content-Type", ctype)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        data = json.loads(raw)
    except ValueError:
        data = None
    return status, data, raw


def upload(url: str, path: Path | None = None, data: bytes | None = None, name: str = "photo.jpg"):
    if data is None:
        data = path.read_bytes()
        name = path.name
    body, ctype = multipart({"photo": (name, data, "application/octet-stream")})
    return request("POST", url, body, ctype)


def post_json(url: str, obj) -> tuple[int, dict | None, bytes]:
    return request("POST", url, json.dumps(obj).encode(), "application/json")


class ThreadServer:
    """The app served by werkzeug in a thread on a free loopback port."""

    def __init__(self, app):
        from werkzeug.serving import make_server
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


class ProcessServer:
    """``tantrix serve`` as a separate process (so it can be killed like a crash)."""

    def __init__(self, data_dir: Path, *extra: str):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tantrix", "serve", "--port", "0", "--data-dir", str(data_dir), *extra],
            cwd=ROOT, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        line = self.proc.stderr.readline()
        m = re.search(r"https?://([\d.]+):(\d+)/", line)
        if not m:
            self.proc.kill()
            raise RuntimeError(f"server did not start: {line!r}")
        self.url = f"http://{m.group(1)}:{m.group(2)}"
        self.port = int(m.group(2))

    def crash(self) -> None:
        """SIGKILL: no clean-up code runs, as in a power cut or an OOM kill."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.proc.stderr:
            self.proc.stderr.close()


# ====================================================================== tests
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from referee.analysis import analyze
from referee.board import board_from_json, load
from referee.randomgame import random_position

PHOTOS = photos()


@pytest.fixture(scope="module")
def reference():
    """What the reader says about each photo, read directly (no web app in between):
    a Board, or the exception the reader raised."""
    import vision
    out = {}
    for p in PHOTOS:
        try:
            out[p] = vision.read_photo(p)
        except Exception as e:  # noqa: BLE001 - the web app must then answer 4xx/5xx JSON
            out[p] = e
    return out


def expect_same(expected, status: int, data, raw: bytes) -> None:
    """The web answer matches the direct reading: the same board, or the reader's failure
    as a JSON error (400 for bad input, 500 for a reader crash) without a traceback."""
    from referee.errors import BadInput
    assert b"Traceback" not in raw
    if isinstance(expected, BadInput):
        assert status == 400 and data["error"]
    elif isinstance(expected, Exception):
        assert status == 500 and data["error"].startswith("internal error")
    else:
        assert status == 200, data
        assert board_from_json(data.get("board", data)).tiles == expected.tiles


@pytest.fixture()
def server(tmp_path):
    from webui import create_app
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "MAX_CONTENT_LENGTH": 8 * 1024 * 1024})
    with ThreadServer(app) as s:
        yield s


def test_there_are_photos_to_upload():
    assert len(PHOTOS) >= 2, PHOTOS


@pytest.mark.parametrize("photo", PHOTOS, ids=lambda p: p.name)
def test_real_uploads_read_and_analyse_like_the_reader(server, reference, photo):
    expected = reference[photo]
    status, data, raw = upload(server.url + "/api/read", photo)
    expect_same(expected, status, data, raw)
    status, report, raw = upload(server.url + "/api/analyze", photo)
    expect_same(expected, status, report, raw)
    if status == 200:
        assert data["image"] == expected.meta["image"]
        assert all("confidence" in t and "pixel" in t for t in data["tiles"])
        want = json.loads(json.dumps(analyze(expected)))
        assert {k: v for k, v in report.items() if k != "board"} == want


def test_sample_board_json_over_http(server):
    for path in sorted(SAMPLES.glob("*.json")):
        board = load(path)
        status, report, _ = post_json(server.url + "/api/analyze", json.loads(path.read_text()))
        assert status == 200, (path, report)
        assert report["tiles"] == len(board)


def test_bad_uploads_over_http_are_clear_4xx(server):
    status, data, raw = upload(server.url + "/api/read", data=b"this is a text file, not a photo" * 10, name="x.jpg")
    assert status == 400 and "not a supported image" in data["error"] and b"Traceback" not in raw
    whole = PHOTOS[-1].read_bytes()
    status, data, _ = upload(server.url + "/api/read", data=whole[: len(whole) // 2], name="cut.jpg")
    assert status == 400 and "truncated" in data["error"]
    status, data, _ = upload(server.url + "/api/read", data=b"\xff\xd8\xff" + bytes(9 * 1024 * 1024), name="big.jpg")
    assert status == 413 and "too large" in data["error"]
    status, data, _ = request("POST", server.url + "/api/analyze", b"{nope", "application/json")
    assert status == 400 and "malformed JSON" in data["error"]


def test_twenty_concurrent_uploads_all_answer_correctly(server, reference):
    jobs = [PHOTOS[i % len(PHOTOS)] for i in range(20)]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda p: upload(server.url + "/api/analyze", p), jobs))
    elapsed = time.perf_counter() - t0
    print(f"\n20 concurrent uploads ({len(PHOTOS)} distinct photos): {elapsed:.1f} s")
    for photo, (status, report, raw) in zip(jobs, answers):
        expect_same(reference[photo], status, report, raw)
        if status == 200:
            assert report["colours"] == json.loads(json.dumps(analyze(reference[photo])))["colours"]
    assert sum(a[0] == 200 for a in answers) >= 15  # most samples must read, not just fail alike


def _game_with_turns(url: str, photo: Path) -> tuple[str, list]:
    status, game, _ = post_json(url + "/api/games", {"name": "Survivor", "players": [
        {"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "yellow"}]})
    assert status == 201
    gid = game["id"]
    boards = [random_position(n, seed=21).to_json() for n in (3, 6)]
    for b in boards:
        assert post_json(f"{url}/api/games/{gid}/turns", b)[0] == 201
    status, turn, _ = upload(f"{url}/api/games/{gid}/turns", photo)
    assert status == 201, turn
    return gid, boards


def test_game_survives_restart_and_a_crash_mid_upload(tmp_path):
    data_dir = tmp_path / "games"
    photo = PHOTOS[-1]
    body, ctype = multipart({"photo": (photo.name, photo.read_bytes(), "image/jpeg")})
    srv = ProcessServer(data_dir)
    try:
        gid, boards = _game_with_turns(srv.url, photo)
        before = request("GET", f"{srv.url}/api/games/{gid}")[1]
        assert len(before["turns"]) == 3
    except BaseException:
        srv.stop()
        raise
    # Kill the server while one more upload is half sent, then again (after a restart)
    # right after a whole upload was sent, while it is read and stored.
    for sent, wait in ((len(body) // 2, 0.3), (len(body), 0.05)):
        if srv is None:
            srv = ProcessServer(data_dir)
        try:
            sock = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
            sock.sendall(f"POST /api/games/{gid}/turns HTTP/1.1\r\nHost: x\r\nContent-Type: {ctype}\r\n"
                         f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:sent])
            time.sleep(wait)
            srv.crash()
            sock.close()
        finally:
            srv.stop()
            srv = None
    srv = ProcessServer(data_dir)
    try:
        status, after, _ = request("GET", f"{srv.url}/api/games/{gid}")
        assert status == 200
        # every earlier turn intact; the killed upload is either wholly there or absent
        assert after["turns"][:3] == before["turns"]
        assert len(after["turns"]) in (3, 4)
        assert [t["board"]["tiles"] for t in after["turns"][:2]] == [b["tiles"] for b in boards]
        status, _, raw = request("GET", srv.url + after["turns"][2]["photo"])
        assert status == 200 and raw == photo.read_bytes()
        # and the game goes on
        assert post_json(f"{srv.url}/api/games/{gid}/turns", random_position(8, seed=21).to_json())[0] == 201
        status, page, raw = request("GET", f"{srv.url}/games/{gid}")
        assert status == 200 and b"Survivor" in raw
    finally:
        srv.stop()


def test_serve_over_https_with_a_certificate(tmp_path):
    """--certfile/--keyfile: the live camera needs https on phones."""
    import shutil
    import ssl
    import subprocess as sp
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl binary to make a test certificate")
    cert, key = tmp_path / "c.pem", tmp_path / "k.pem"
    sp.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
            "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    srv = ProcessServer(tmp_path / "data", "--certfile", str(cert), "--keyfile", str(key))
    try:
        ctx = ssl.create_default_context(cafile=str(cert))
        ctx.check_hostname = False
        with urllib.request.urlopen(f"https://127.0.0.1:{srv.port}/", context=ctx, timeout=30) as r:
            assert r.status == 200 and b"Check a photo" in r.read()
    finally:
        srv.stop()
