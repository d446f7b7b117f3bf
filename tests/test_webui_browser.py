"""The companion in a real headless browser: Debian's chromium driven by playwright.

Each test uploads through the page as a player would, waits for the verdict and checks
what is drawn against the JSON API's answer for the same input.  Screenshots go to the
test's temporary directory, or to ``$TTC_SCREENSHOTS`` when set (how the README's
screenshots in docs/screenshots/ are made).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from test_webui_server import PHOTOS, REAL, ThreadServer, post_json, upload

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from webui import create_app
    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("browser-data"))})
    with ThreadServer(app) as s:
        yield s


@pytest.fixture(scope="module")
def playwright():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium is missing (.ci/run installs it)")
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright):
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield b
    b.close()


@pytest.fixture()
def page(browser, server):
    ctx = browser.new_context(viewport={"width": 1300, "height": 1000})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # Everything must come from our server: any other request is a bug (no CDN, no internet).
    foreign: list[str] = []
    pg.on("request", lambda r: foreign.append(r.url)
          if not r.url.startswith((server.url, "blob:", "data:")) else None)
    yield pg
    ctx.close()
    assert not errors, errors
    assert not foreign, foreign


def shot_dir(tmp_path: Path) -> Path:
    d = Path(os.environ.get("TTC_SCREENSHOTS") or tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.fixture(scope="module")
def good_photo(server) -> Path:
    """A sample photo the reader reads tiles from, preferring ones that show findings
    (the browser tests check the page, not the reader, so any readable photo will do)."""
    from test_webui_server import SAMPLES
    preferred = [SAMPLES / n for n in ("midgame_mismatch.jpg", "double_gobble.jpg", "midgame_clean.jpg")]
    for photo in [p for p in preferred if p.exists()] + PHOTOS:
        status, report, _ = upload(server.url + "/api/analyze", photo)
        if status == 200 and report["tiles"] >= 3:
            return photo
    pytest.fail("the reader reads no tiles from any sample photo")


def test_check_a_photo_shows_verdict_overlay_scores_and_findings(page, server, tmp_path, good_photo):
    photo = good_photo
    status, report, _ = upload(server.url + "/api/analyze?view=1", photo)
    assert status == 200 and report["tiles"] > 0, report
    page.goto(server.url + "/")
    page.set_input_files("#file", str(photo))
    page.wait_for_selector("body[data-state=done]", timeout=90_000)
    verdict = page.text_content("#verdict-text")
    assert verdict.startswith(f"{report['tiles']} tile")
    # the overlay: one number per read tile, at the reader's pixels, over the photo
    assert page.locator("#overlay g.otile").count() == len(report["overlay"]["tiles"]) == report["tiles"]
    assert page.is_visible("#photo") and page.get_attribute("#overlay", "viewBox") == \
        f"0 0 {report['overlay']['width']} {report['overlay']['height']}"
    # the score table says what the report says
    for colour, entry in report["colours"].items():
        row = page.locator(f"#scores tr[data-colour={colour}] td")
        assert row.nth(3).text_content() == str(entry["score"])
        assert row.nth(1).text_content() == str(entry["longest_line"])
    # findings in words and the diagram, one hexagon per tile
    findings = page.locator("#findings li").all_text_contents()
    assert findings == [f["text"] for f in report["findings"]]
    assert page.locator("#diagram g.tile").count() == report["tiles"]
    page.screenshot(path=str(shot_dir(tmp_path) / "check-photo.png"), full_page=True)


def test_hand_correction_reruns_the_analysis(page, server, tmp_path):
    board = {"tiles": [{"q": 0, "r": 0, "tile": 1, "rotation": 3, "confidence": 0.2},
                       {"q": 1, "r": 0, "tile": 2, "rotation": 1, "confidence": 0.9},
                       {"q": 1, "r": -1, "tile": 3, "rotation": 1, "confidence": 0.95}]}
    path = tmp_path / "ring.json"
    path.write_text(json.dumps(board))
    page.goto(server.url + "/")
    page.set_input_files("#board-file", str(path))
    page.wait_for_selector("body[data-state=done]")
    assert page.locator("#diagram g.tile.low").count() == 1  # the 0.2-confidence tile is marked
    assert page.text_content("#scores tr[data-colour=yellow] td.score") == "6"  # the yellow ring
    # the player turns tile 1 by three steps: the ring breaks into mismatches
    page.evaluate("document.body.dataset.state = 'busy'")
    page.click("#diagram g.tile[data-tile='1']")
    page.select_option("#fix-rot", "0")
    page.click("#fix-ok")
    page.wait_for_selector("body[data-state=done]")
    status, want, _ = post_json(server.url + "/api/analyze?view=1",
                                {"tiles": [dict(board["tiles"][0], rotation=0, confidence=1.0, corrected=True),
                                           *board["tiles"][1:]]})
    assert status == 200 and want["mismatches"]
    assert page.locator("#findings li").all_text_contents() == [f["text"] for f in want["findings"]]
    assert page.locator("#diagram g.tile.low").count() == 0  # corrected by hand
    assert json.loads(page.text_content("#board-json"))["tiles"][0]["rotation"] == 0
    page.screenshot(path=str(shot_dir(tmp_path) / "hand-correction.png"), full_page=True)


def test_referee_a_game(page, server, tmp_path, good_photo):
    page.goto(server.url + "/games")
    inputs = page.locator("input[name=player]")
    page.fill("#game-name", "Tuesday club")
    inputs.nth(0).fill("Ann")
    inputs.nth(1).fill("Bob")
    page.click("#new-game button[type=submit]")
    page.wait_for_url("**/games/*")
    photo = good_photo
    page.set_input_files("#file", str(photo))
    page.wait_for_selector("#turns li.turn")
    page.wait_for_selector("body[data-state=done]", timeout=90_000)
    assert page.locator("#turns li.turn").count() == 1
    gid = page.get_attribute("#game-title", "data-game")
    status, record, _ = upload(f"{server.url}/api/games/{gid}/turns", photo)  # a second turn via the API
    page.reload()
    page.wait_for_selector("#turns li.turn >> nth=1")
    from test_webui_server import request
    record = request("GET", f"{server.url}/api/games/{gid}")[1]
    assert page.locator("#players tr[data-colour=red] td.score").text_content() == str(record["scores"]["red"])
    assert "Leading" in page.text_content("#game-status")
    page.screenshot(path=str(shot_dir(tmp_path) / "game.png"), full_page=True)
    # correct the last turn by hand: the stored turn changes and is re-analysed
    tile = page.locator("#diagram g.tile").first
    q, r, rot = (int(tile.get_attribute(k)) for k in ("data-q", "data-r", "data-rotation"))
    page.evaluate("document.body.dataset.state = 'busy'")
    tile.click()
    page.select_option("#fix-rot", str((rot + 1) % 6))
    page.click("#fix-ok")
    page.wait_for_selector("body[data-state=done]")
    last = request("GET", f"{server.url}/api/games/{gid}")[1]["turns"][-1]
    fixed = next(t for t in last["board"]["tiles"] if (t["q"], t["r"]) == (q, r))
    assert fixed["rotation"] == (rot + 1) % 6 and fixed["corrected"] is True
    assert len(request("GET", f"{server.url}/api/games/{gid}")[1]["turns"]) == 2
    page.once("dialog", lambda d: d.accept())
    page.click("#finish")
    page.wait_for_function("document.querySelector('#game-status').textContent.includes('winner')")
    page.goto(server.url + "/games")
    assert "Tuesday club" in page.text_content(".game-list")
    page.screenshot(path=str(shot_dir(tmp_path) / "games.png"), full_page=True)


def test_check_a_puzzle(page, server, tmp_path):
    pytest.importorskip("referee.puzzles")
    photo = REAL / "discovery10.jpg"
    page.goto(server.url + "/puzzles")
    page.select_option("#puzzle", "discovery-10")
    page.set_input_files("#file", str(photo))
    page.wait_for_selector("#puzzle-solved", timeout=90_000)
    status, verdict, _ = upload(server.url + "/api/check/discovery-10", photo)
    assert status == 200
    assert page.text_content("#puzzle-solved") == \
        f"discovery-10: {'solved' if verdict['solved'] else 'not solved'}"
    if not verdict["solved"]:
        assert page.locator("#reasons li").all_text_contents() == verdict["reasons"]
    assert page.locator("#overlay g.otile").count() > 0
    page.screenshot(path=str(shot_dir(tmp_path) / "puzzle.png"), full_page=True)


def test_bad_upload_shows_a_message(page, server, tmp_path):
    bad = tmp_path / "notes.jpg"
    bad.write_bytes(b"just some text pretending to be a photo" * 20)
    page.goto(server.url + "/")
    page.set_input_files("#file", str(bad))
    page.wait_for_selector("#error:not([hidden])")
    assert "not a supported image" in page.text_content("#error")


def test_live_camera_sends_frames(playwright, server, tmp_path):
    """Chromium's fake camera stands in for a phone camera: frames go to the server and a
    verdict comes back (the fake picture has no tiles, so: 0 tiles)."""
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS + [
        "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"])
    try:
        pg = b.new_context(viewport={"width": 1300, "height": 1000}).new_page()
        pg.goto(server.url + "/")
        pg.click("#camera-start")
        pg.wait_for_selector("body[data-state=done]", timeout=90_000)
        assert pg.text_content("#verdict-text").startswith("0 tiles")
        assert pg.is_visible("#camera") and pg.is_visible("#camera-stop")
        pg.click("#camera-stop")
        assert pg.is_hidden("#camera")
    finally:
        b.close()
