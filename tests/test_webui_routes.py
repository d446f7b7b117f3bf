"""Every route of the web companion through Flask's test client, with real boards."""
from __future__ import annotations

import io
import json
import struct
import zlib

import pytest

from referee.analysis import analyze
from referee.board import Board, board_from_json
from referee.randomgame import random_position
from webui import create_app


@pytest.fixture()
def app(tmp_path):
    return create_app({"DATA_DIR": str(tmp_path / "data"), "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
                       "MAX_IMAGE_PIXELS": 4_000_000})


@pytest.fixture()
def client(app):
    return app.test_client()


def position(n=12, seed=1) -> Board:
    return random_position(n, seed=seed)


def broken_board() -> dict:
    # tiles 1 and 2 side by side unturned: edge 2 of tile 1 (blue) meets edge 5 of tile 2 (yellow)
    return {"tiles": [{"q": 0, "r": 0, "tile": 1, "rotation": 0},
                      {"q": 1, "r": 0, "tile": 2, "rotation": 0}]}


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims width x height (no real pixel data needed to refuse it)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)) + b"\0" * 64)


def without_board(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "board"}


# ------------------------------------------------------------------ pages
@pytest.mark.parametrize("url, needle", [
    ("/", b"Check a photo"), ("/games", b"New game"), ("/puzzles", b"Check a puzzle")])
def test_pages_render(client, url, needle):
    r = client.get(url)
    assert r.status_code == 200
    assert needle in r.data
    assert b"<script src=\"/static/app.js\"></script>" in r.data


def test_static_files_are_local(client):
    for name in ("app.js", "check.js", "game.js", "games.js", "puzzle.js", "style.css", "favicon.svg"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        assert b"http://" not in r.data.replace(b"http://www.w3.org/2000/svg", b"") and b"https://" not in r.data


def test_home_page_offers_upload_capture_and_live_camera(client):
    html = client.get("/").data.decode()
    assert 'capture="environment"' in html
    assert 'id="camera-start"' in html
    assert 'accept="image/*"' in html


def test_unknown_page_is_a_404_page_and_unknown_api_route_is_json(client):
    r = client.get("/no/such/page", headers={"Accept": "text/html"})
    assert r.status_code == 404 and b"<html" in r.data
    r = client.get("/api/no-such-route")
    assert r.status_code == 404 and "error" in r.json


# ------------------------------------------------------------------ /api/analyze
def test_analyze_json_body_is_the_referee_report_plus_board(client):
    board = position(14, seed=5)
    r = client.post("/api/analyze", json=board.to_json())
    assert r.status_code == 200
    assert without_board(r.json) == json.loads(json.dumps(analyze(board)))
    assert board_from_json(r.json["board"]).tiles == board.tiles


def test_analyze_reports_a_mismatch(client):
    r = client.post("/api/analyze", json=broken_board())
    assert r.status_code == 200
    assert r.json["mismatches"] == [{"cell": [0, 0], "neighbour": [1, 0], "edge": 2,
                                     "colours": ["blue", "yellow"]}]


def test_analyze_view_adds_diagram_overlay_and_findings(client):
    board = position(10, seed=2)
    data = board.to_json()
    r = client.post("/api/analyze?view=1", json=data)
    assert r.status_code == 200
    svg = r.json["diagram"]
    assert svg.startswith("<svg") and svg.count('class="tile') == 10
    for p in board.tiles.values():
        assert f'data-tile="{p.tile}"' in svg
    assert r.json["overlay"] is None  # no pixel coordinates in a hand-made board
    assert r.json["findings"] and all(f["text"] for f in r.json["findings"])
    bad = client.post("/api/analyze?view=1", json=broken_board()).json
    assert bad["findings"][0]["kind"] == "mismatch"
    assert 'class="mismatch"' in bad["diagram"]


def test_overlay_follows_reader_pixels(client):
    board = position(9, seed=4)
    data = board.to_json()
    # a reader's output: tile centres on a 100 px lattice shifted by (500, 400)
    from referee.hexgrid import to_pixel
    for t in data["tiles"]:
        x, y = to_pixel((t["q"], t["r"]), 57.7)
        t["pixel"] = [500 + x, 400 + y]
        t["confidence"] = 0.3 if t is data["tiles"][0] else 0.99
    data["image"] = {"width": 1200, "height": 900}
    data["loose"] = []
    r = client.post("/api/analyze?view=1", json=data)
    ov = r.json["overlay"]
    assert ov["width"] == 1200 and len(ov["tiles"]) == 9
    assert [t["low"] for t in ov["tiles"]].count(True) == 1
    # empty cells are placed on the fitted lattice: forced spaces at their true pixels
    for m in ov["marks"]:
        x, y = to_pixel(tuple(m["cell"]), 57.7)
        assert abs(m["x"] - (500 + x)) < 1 and abs(m["y"] - (400 + y)) < 1
    assert ov["radius"] == pytest.approx(57.7, abs=0.5)
    assert 'class="tile low"' in r.json["diagram"]


@pytest.mark.parametrize("body, needle", [
    ("{bad json", "malformed JSON"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 57, "rotation": 0}]}', "not 1..56"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 5, "rotation": 0}, {"q": 1, "r": 0, "tile": 5, "rotation": 0}]}', "used twice"),
    ('{"tiles": [{"q": "0", "r": 0, "tile": 5, "rotation": 0}]}', "integer"),
    ('{"tiles": [], "bag_empty": "yes"}', "bag_empty"),
    ('[1, 2]', "object"),
])
def test_bad_boards_are_400_with_one_line(client, body, needle):
    r = client.post("/api/analyze", data=body, content_type="application/json")
    assert r.status_code == 400
    assert needle in r.json["error"] and "\n" not in r.json["error"]


def test_not_an_image_is_400(client):
    r = client.post("/api/analyze", data={"photo": (io.BytesIO(b"GIF89a this is no photo at all"), "x.jpg")})
    assert r.status_code == 400 and "not a supported image" in r.json["error"]
    r = client.post("/api/read", data={"photo": (io.BytesIO(b""), "empty.png")})
    assert r.status_code == 400 and "empty" in r.json["error"]


def test_decompression_bomb_is_refused_from_its_header(client):
    r = client.post("/api/read", data={"photo": (io.BytesIO(png_header(30000, 30000)), "bomb.png")})
    assert r.status_code == 400 and "too large" in r.json["error"]


def test_upload_over_the_limit_is_413_json(client):
    big = b"\xff\xd8\xff" + b"\0" * (3 * 1024 * 1024)
    r = client.post("/api/analyze", data={"photo": (io.BytesIO(big), "big.jpg")})
    assert r.status_code == 413 and "too large" in r.json["error"]


def test_missing_photo_or_wrong_content_type_is_400(client):
    assert client.post("/api/read", data={"other": "x"}).status_code == 400
    r = client.post("/api/analyze", data=b"abc", content_type="application/octet-stream")
    assert r.status_code == 400 and "content type" in r.json["error"]
    r = client.post("/api/analyze")
    assert r.status_code == 400 and "empty request" in r.json["error"]
    assert client.get("/api/analyze").status_code == 405


def test_multipart_board_field_is_accepted(client):
    board = position(6, seed=7)
    r = client.post("/api/analyze", data={"board": (io.BytesIO(board.dumps().encode()), "b.json")})
    assert r.status_code == 200 and r.json["tiles"] == 6


def test_internal_error_is_a_json_500_without_traceback(client, monkeypatch):
    from webui import services

    def boom(board):
        raise RuntimeError("secret internals")
    monkeypatch.setattr(services, "analyze", boom)
    r = client.post("/api/analyze", json=broken_board())
    assert r.status_code == 500
    assert "Traceback" not in r.get_data(as_text=True) and "secret" not in r.json["error"]


def test_app_never_runs_in_debug_mode(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "DEBUG": True})
    assert app.debug is False


# ------------------------------------------------------------------ puzzles
def test_puzzle_routes(client):
    puzzles = pytest.importorskip("referee.puzzles")
    names = client.get("/api/puzzles").json["puzzles"]
    assert "discovery-3" in names and "rainbow-green" in names
    r = client.post("/api/check/no-such-puzzle", json=broken_board())
    assert r.status_code == 404 and "unknown puzzle" in r.json["error"]
    r = client.post("/api/check/discovery-3", json=broken_board())
    assert r.status_code == 200
    assert r.json["puzzle"] == "discovery-3" and r.json["solved"] is False and r.json["reasons"]
    assert r.json == json.loads(json.dumps(puzzles.check_puzzle("discovery-3", board_from_json(broken_board()))))
    page = client.get("/puzzles").data.decode()
    assert '<option value="discovery-3">' in page
    # with ?view=1 the cells the reasons name are drawn
    v = client.post("/api/check/discovery-3?view=1", json=broken_board()).json
    named = {c for c in ((0, 0), (1, 0)) if any(f"({c[0]},{c[1]})" in x for x in v["reasons"])}
    assert named and v["diagram"].count(" flagged") == len(named)
    assert v["report"]["mismatches"] and v["board"]["tiles"]


# ------------------------------------------------------------------ games
def new_game(client, name="Friday", players=None):
    players = players or [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]
    r = client.post("/api/games", json={"name": name, "players": players})
    assert r.status_code == 201, r.json
    return r.json


def test_game_lifecycle(client):
    game = new_game(client)
    gid = game["id"]
    assert game["turns"] == [] and game["players"][0] == {"name": "Ann", "colour": "red"}
    boards = [position(n, seed=11) for n in (4, 7, 9)]
    for i, b in enumerate(boards, 1):
        r = client.post(f"/api/games/{gid}/turns", json=b.to_json())
        assert r.status_code == 201 and r.json["n"] == i
    rec = client.get(f"/api/games/{gid}").json
    assert [t["n"] for t in rec["turns"]] == [1, 2, 3]
    last = analyze(boards[-1])
    assert rec["scores"] == {"red": last["colours"]["red"]["score"], "blue": last["colours"]["blue"]["score"]}
    assert "winners" not in rec
    view = client.get(f"/api/games/{gid}?view=1").json["view"]
    assert view["diagram"].startswith("<svg")
    placed = {c for c, p in boards[2].tiles.items() if boards[1].tiles.get(c) != p}
    assert placed and view["diagram"].count('class="tile new"') == len(placed)
    # hand correction of the last turn: turn a tile and the report follows
    corrected = boards[-1].to_json()
    corrected["tiles"][0]["rotation"] = (corrected["tiles"][0]["rotation"] + 3) % 6
    r = client.put(f"/api/games/{gid}/turns/3", json=corrected)
    assert r.status_code == 200
    assert r.json["report"]["mismatches"] == analyze(board_from_json(corrected))["mismatches"]
    assert client.put(f"/api/games/{gid}/turns/9", json=corrected).status_code == 404
    # undo, finish, export
    assert len(client.delete(f"/api/games/{gid}/turns/last").json["turns"]) == 2
    fin = client.post(f"/api/games/{gid}/finish").json
    assert fin["finished"] and fin["winners"]
    assert client.post(f"/api/games/{gid}/turns", json=boards[0].to_json()).status_code == 400
    exp = client.get(f"/api/games/{gid}/export")
    assert exp.status_code == 200 and "attachment" in exp.headers["Content-Disposition"]
    assert json.loads(exp.data)["id"] == gid and len(json.loads(exp.data)["turns"]) == 2
    assert any(g["id"] == gid for g in client.get("/api/games").json["games"])
    page = client.get(f"/games/{gid}")
    assert page.status_code == 200 and b"Friday" in page.data


def test_game_errors(client):
    assert client.post("/api/games", json={"players": []}).status_code == 400
    assert client.post("/api/games", json={"players": [{"name": "A", "colour": "pink"}]}).status_code == 400
    r = client.post("/api/games", json={"players": [{"name": "A", "colour": "red"}, {"name": "B", "colour": "red"}]})
    assert r.status_code == 400 and "twice" in r.json["error"]
    assert client.post("/api/games", data="x", content_type="text/plain").status_code == 400
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/games/nope").status_code == 404
    assert client.get("/games/nope/photos/1").status_code == 404
    gid = new_game(client)["id"]
    assert client.get(f"/games/{gid}/photos/1").status_code == 404
    assert client.delete(f"/api/games/{gid}/turns/last").status_code == 400
    r = client.post(f"/api/games/{gid}/turns", data="{", content_type="application/json")
    assert r.status_code == 400
    assert client.get(f"/api/games/{gid}").json["turns"] == []


def test_output_is_escaped(client):
    game = new_game(client, name="<script>alert(1)</script>",
                    players=[{"name": "<b>x</b>", "colour": "green"}])
    for url in ("/games", f"/games/{game['id']}"):
        html = client.get(url).get_data(as_text=True)
        assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html
        assert "<b>x</b>" not in html


# ------------------------------------------------------------------ calibration profiles
def test_bad_profile_upload_is_400(client):
    from pathlib import Path
    photo = Path(__file__).resolve().parent.parent.parent / "shared" / "real_photos" / "carpet13.jpg"
    for text, needle in ((b"{not json", "malformed JSON"), (b'{"format": "other"}', "format")):
        r = client.post("/api/read", data={"photo": (io.BytesIO(photo.read_bytes()), "p.jpg"),
                                           "profile": (io.BytesIO(text), "p.json")})
        assert r.status_code == 400 and needle in r.json["error"], r.json


def test_serve_refuses_a_missing_profile_with_exit_2(tmp_path):
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "tantrix", "serve", "--port", "0", "--data-dir", str(tmp_path),
                        "--profile", str(tmp_path / "nope.json")], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "profile" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_bag_empty_flag_with_a_photo_lifts_restraints(client):
    from pathlib import Path
    photo = Path(__file__).resolve().parent.parent / "sample_images" / "controlled_side.jpg"
    if not photo.exists():
        photo = Path(__file__).resolve().parent.parent.parent / "shared" / "real_photos" / "discovery10.jpg"
    data = photo.read_bytes()
    mid = client.post("/api/analyze", data={"photo": (io.BytesIO(data), "p.jpg")}).json
    end = client.post("/api/analyze", data={"photo": (io.BytesIO(data), "p.jpg"), "bag_empty": "1"}).json
    assert mid["board"]["bag_empty"] is False and end["board"]["bag_empty"] is True
    assert end["controlled_cells"] == [] and end["restraint_violations"] == []
    assert mid["tiles"] == end["tiles"]
    r = client.post("/api/analyze", data={"photo": (io.BytesIO(data), "p.jpg"), "bag_empty": "maybe"})
    assert r.status_code == 400 and "bag_empty" in r.json["error"]


def test_game_is_replayed_move_by_move(client):
    replay = pytest.importorskip("referee.replay")
    people = [replay.Player("Ann", "red"), replay.Player("Bob", "blue")]
    positions = replay.play_game(people, 5, seed=3)[1:]  # the table after each turn
    gid = new_game(client)["id"]
    for b in positions:
        assert client.post(f"/api/games/{gid}/turns", json=b.to_json()).status_code == 201
    rec = client.get(f"/api/games/{gid}").json
    want = replay.replay([Board()] + positions, people)
    assert rec["replay"] == json.loads(json.dumps(want))
    assert len(rec["replay"]["turns"]) == 5 and rec["replay"]["violations"] == 0
    assert rec["bag"] == replay.bag_count(positions[-1], people, None)
    # a tile taken off the table between photos is a violation the page will show
    cheat = positions[-1].copy()
    cheat.remove(sorted(cheat.tiles)[0])
    client.post(f"/api/games/{gid}/turns", json=cheat.to_json())
    last = client.get(f"/api/games/{gid}").json["replay"]["turns"][-1]
    assert any("removed" in v for v in last["violations"])


def test_game_turn_enters_the_endgame_when_the_bag_is_counted_empty(client):
    pytest.importorskip("referee.replay")
    mid = random_position(20, seed=1).to_json()
    late = random_position(44, seed=1).to_json()  # 56 - 44 - 12 = 0 left in the bag
    mid["bag_empty"] = late["bag_empty"] = False
    gid = new_game(client)["id"]  # two players: 12 tiles in hands
    assert client.post(f"/api/games/{gid}/turns", json=mid).json["board"]["bag_empty"] is False
    gid = new_game(client)["id"]
    r = client.post(f"/api/games/{gid}/turns", json=late).json
    assert r["board"]["bag_empty"] is True
    assert r["report"]["controlled_cells"] == [] and r["report"]["restraint_violations"] == []
    assert client.get(f"/api/games/{gid}").json["bag"] == 0


def test_analyze_a_board_with_unread_tiles_marks_them_occupied(client):
    """A board JSON whose `unreadable` list names a tile hidden by a hand: the page's report
    counts that cell as occupied (no forced space there), says so in its findings and
    draws the cell as unreadable."""
    board = position(16, seed=3)
    data = board.to_json()
    hidden = data["tiles"].pop(5)
    data["unreadable"] = [{"q": hidden["q"], "r": hidden["r"], "confidence": 0.1}]
    r = client.post("/api/analyze?view=1", json=data)
    assert r.status_code == 200
    cell = [hidden["q"], hidden["r"]]
    assert r.json["unread_cells"] == [cell]
    assert cell not in [s["cell"] for s in r.json["forced_spaces"]] + r.json["holes"]
    assert any(f["kind"] == "unread" for f in r.json["findings"])
    assert 'class="unreadable"' in r.json["diagram"]
    bad = dict(data, unreadable=[{"q": data["tiles"][0]["q"], "r": data["tiles"][0]["r"]}])
    r = client.post("/api/analyze", json=bad)
    assert r.status_code == 400 and "already holds a tile" in r.get_data(as_text=True)
