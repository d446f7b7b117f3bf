import csv
import json

from referee.tiles import (COLOURS, TILES, find_tile, partners, rotated_edges,
                           tiles_with_back, tiles_with_colours)


def test_tile_set_agrees_with_shared_json(shared_dir):
    data = json.loads((shared_dir / "tiles" / "tantrix_tiles.json").read_text())
    assert len(data["tiles"]) == len(TILES) == 56
    for t in data["tiles"]:
        ours = TILES[t["number"]]
        assert ours.back == t["back"]
        assert list(ours.edges) == t["edge_colours"]
        assert ours.missing_colour == t["missing_colour"]
        theirs = sorted((tuple(sorted(link["edges"])), link["colour"], link["shape"]) for link in t["links"])
        assert sorted((l.edges, l.colour, l.shape) for l in ours.links) == theirs


def test_back_colour_counts():
    assert {b: len(tiles_with_back(b)) for b in ("yellow", "red", "blue", "green", "white")} == {
        "yellow": 12, "red": 15, "blue": 10, "green": 10, "white": 9}


def test_every_tile_has_three_colours_on_two_edges_each():
    for t in TILES.values():
        assert len(t.colours) == 3
        for c in t.colours:
            assert t.edges.count(c) == 2


def test_colour_triples_have_fourteen_tiles_each():
    for missing in COLOURS:
        assert len(tiles_with_colours(set(COLOURS) - {missing})) == 14


def test_rotation_follows_contract():
    for n in TILES:
        base = TILES[n].edges
        for k in range(6):
            turned = rotated_edges(n, k)
            assert all(turned[i] == base[(i - k) % 6] for i in range(6))
            # turning a tile clockwise moves the colour on edge i to edge i + k
            assert all(turned[(i + k) % 6] == base[i] for i in range(6))


def test_all_336_orientations_are_distinct_and_found_back():
    seen = {}
    for n in TILES:
        for k in range(6):
            edges = rotated_edges(n, k)
            assert edges not in seen
            seen[edges] = (n, k)
            assert find_tile(edges) == (n, k)
    assert len(seen) == 336
    assert find_tile(["red"] * 6) is None


def test_mirror_image_is_another_tile_or_none():
    chiral = 0
    for n, t in TILES.items():
        mirrored = tuple(t.edges[(-i) % 6] for i in range(6))
        found = find_tile(mirrored)
        if found is None or found[0] != n:
            chiral += 1
            assert found is not None, f"mirror of tile {n} is in the set"
    assert chiral > 0


def test_partners_join_the_two_ends_of_each_link():
    for n in TILES:
        for k in range(6):
            p = partners(n, k)
            edges = rotated_edges(n, k)
            for e in range(6):
                assert p[p[e]] == e and p[e] != e and edges[p[e]] == edges[e]


def test_real_tile_labels_are_the_listed_tiles(shared_dir):
    names = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
    with open(shared_dir / "real_tiles" / "labels.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 56
    for row in rows:
        edges = [names[ch] for ch in row["edge_colours_in_photo"]]
        found = find_tile(edges)
        assert found is not None and found[0] == int(row["tile"])
