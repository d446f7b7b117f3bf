"""``tantrix calibrate``: camera, table-plane and colour profiles for one table setup.

Subcommands write (or add their section to) a profile JSON file that ``--profile FILE``
hands to the reader.  An existing output file keeps its other sections.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.errors import BadInput

DEFAULT_OUT = "profile.json"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("calibrate", help="make camera / table / colour profiles for --profile",
                              description="Calibrate a table setup once; pass the profile with --profile.")
    sub = p.add_subparsers(dest="what", metavar="WHAT", parser_class=type(p))
    sub.required = True

    cam = sub.add_parser("camera", help="lens intrinsics and distortion from photos of a printed board")
    cam.add_argument("photos", nargs="+", metavar="PHOTO")
    _board_options(cam)
    cam.add_argument("-o", "--output", default=DEFAULT_OUT, help=f"profile file to write (default {DEFAULT_OUT})")
    cam.set_defaults(func=_camera)

    pb = sub.add_parser("print-board", help="write a printable calibration board PNG at its true size")
    pb.add_argument("out", metavar="OUT.png")
    _board_options(pb)
    pb.add_argument("--dpi", type=float, default=300.0, help="printer resolution the PNG is made for (default 300)")
    pb.set_defaults(func=_print_board)

    tab = sub.add_parser("table", help="fix the table plane of a camera on a stand from one photo")
    tab.add_argument("photo", metavar="PHOTO")
    tab.add_argument("--tiles", metavar="BOARD.json",
                     help="use these tiles' pixel centres instead of a printed board "
                          "(without either, tiles read confidently from the photo are used)")
    _board_options(tab)
    tab.add_argument("--tile-mm", type=float, default=None,
                     help="centre distance of touching tiles in mm, for a printed-board calibration (default 45)")
    tab.add_argument("-o", "--output", default=DEFAULT_OUT, help=f"profile file to write (default {DEFAULT_OUT})")
    tab.set_defaults(func=_table)

    col = sub.add_parser("colours", aliases=["colors"], help="learn the link and body colours under this light")
    col.add_argument("photo", metavar="PHOTO")
    col.add_argument("board", nargs="?", metavar="BOARD.json",
                     help="the tiles in the photo with pixel centres (default: read the photo)")
    col.add_argument("--min-confidence", type=float, default=0.8,
                     help="ignore tiles read with lower confidence (default 0.8)")
    col.add_argument("-o", "--output", default=DEFAULT_OUT, help=f"profile file to write (default {DEFAULT_OUT})")
    col.set_defaults(func=_colours)

    show = sub.add_parser("show", help="check a profile file and summarise it")
    show.add_argument("profile", metavar="PROFILE.json")
    show.set_defaults(func=_show)


def _board_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--board", choices=("chessboard", "charuco"), default="chessboard",
                   help="printed pattern (default chessboard)")
    p.add_argument("--squares", default="9x6", help="squares across x down (default 9x6 = 8x5 inner corners)")
    p.add_argument("--square-mm", type=float, default=25.0, help="side of one square in mm (default 25)")


def _board(args: argparse.Namespace):
    from calibration.camera import BoardSpec, parse_squares
    return BoardSpec(args.board, parse_squares(args.squares), args.square_mm)


def _check_output(path: str) -> None:
    p = Path(path)
    if p.is_dir():
        raise BadInput(f"output is a directory: {p}")
    if p.parent and not p.parent.exists():
        raise BadInput(f"output folder does not exist: {p.parent}")


def _camera(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from calibration import camera
    from vision.image_io import load_image
    from calibration.profile import load_or_empty

    board = _board(args)
    _check_output(args.output)
    profile = load_or_empty(args.output)  # fails early on a malformed existing file
    images = [load_image(p) for p in args.photos]

    def progress(it):
        return tqdm(it, desc="finding boards", unit="photo", file=sys.stderr, disable=len(images) < 2)

    cam, notes = camera.calibrate(images, board, names=args.photos, progress=progress)
    for note in notes:
        print(f"tantrix: note: {note}", file=sys.stderr)
    profile.camera = cam
    profile.save(args.output)
    fx, fy = cam.focal_px
    print(f"camera: {cam.image_size[0]}x{cam.image_size[1]}, fx {fx:.1f} fy {fy:.1f} px, "
          f"centre ({cam.camera_matrix[0, 2]:.1f}, {cam.camera_matrix[1, 2]:.1f}), "
          f"k1 {cam.dist_coeffs[0]:+.4f} k2 {cam.dist_coeffs[1]:+.4f}, "
          f"RMS reprojection {cam.rms_px:.3f} px from {cam.photos_used}/{len(images)} photos -> {args.output}")
    return 0


def _print_board(args: argparse.Namespace) -> int:
    from calibration import camera

    board = _board(args)
    out = Path(args.out)
    if out.suffix.lower() != ".png":
        raise BadInput(f"print-board writes a PNG; name the output *.png, got {out.name}")
    if out.parent and not out.parent.exists():
        raise BadInput(f"output folder does not exist: {out.parent}")
    image = camera.board_image(board, args.dpi)
    text = camera.describe_board(board, args.dpi)
    out.write_bytes(camera.png_with_dpi(image, args.dpi, text))
    h, w = image.shape
    print(f"{text}; page {w / args.dpi * 25.4:.1f} x {h / args.dpi * 25.4:.1f} mm ({w}x{h} px) -> {out}")
    return 0


def _read_with_reader(photo: str, min_confidence: float):
    """The reader's board for ``photo`` (the CLI may use vision; calibration/ may not)."""
    try:
        from vision import read_photo
    except ImportError:
        raise BadInput("give BOARD.json with the tiles' pixel centres (this build has no photo reader)") from None
    return read_photo(photo)


def _table(args: argparse.Namespace) -> int:
    from calibration import table
    from calibration.colours import tiles_of_board
    from vision.image_io import load_image
    from calibration.profile import load_or_empty
    from referee import board as boards

    _check_output(args.output)
    profile = load_or_empty(args.output)
    image = load_image(args.photo)
    size = (image.shape[1], image.shape[0])
    if profile.camera is not None:
        profile.camera.matrix_for(size)  # BadInput if this photo is not from that camera
    if args.tiles:
        if args.tile_mm is not None:
            raise BadInput("--tile-mm is for printed-board calibration; with --tiles the tiles give the scale")
        tiles = tiles_of_board(boards.load(args.tiles))
        result = table.from_tiles([(c, p) for c, _, _, p in tiles], size, profile.camera)
    else:
        tile_mm = table.DEFAULT_TILE_MM if args.tile_mm is None else args.tile_mm
        if not (10 <= tile_mm <= 200):
            raise BadInput(f"--tile-mm must be between 10 and 200, got {tile_mm}")
        board = _board(args)
        try:
            result = table.from_board_photo(image, board, profile.camera, tile_mm)
        except BadInput as no_board:
            # No printed board: the tiles on the table, read confidently, fix the plane.
            if args.tile_mm is not None:
                raise
            try:
                read = _read_with_reader(args.photo, 0.8)
            except BadInput:
                raise no_board from None
            tiles = tiles_of_board(read, 0.8)
            if len(tiles) < 4:
                raise BadInput(f"no {board.squares[0]}x{board.squares[1]} {board.kind} in the table photo, "
                               f"and only {len(tiles)} tiles read confidently (need 4)") from None
            print(f"tantrix: note: no printed board found; using {len(tiles)} tiles read from the photo",
                  file=sys.stderr)
            result = table.from_tiles([(c, p) for c, _, _, p in tiles], size, profile.camera)
    profile.table = result
    profile.save(args.output)
    tilt = "unknown" if result.tilt_deg is None else f"{result.tilt_deg:.1f} deg"
    print(f"table: rectified {result.rectified_size[0]}x{result.rectified_size[1]} px, tile pitch "
          f"{result.tile_pitch_px:.1f} px, camera tilt {tilt}, fit RMS {result.rms_px:.3f} px "
          f"(from {result.source}) -> {args.output}")
    return 0


def _colours(args: argparse.Namespace) -> int:
    from calibration import colours
    from vision.image_io import load_image
    from calibration.profile import load_or_empty
    from referee import board as boards

    _check_output(args.output)
    if not (0 <= args.min_confidence <= 1):
        raise BadInput(f"--min-confidence must be between 0 and 1, got {args.min_confidence}")
    profile = load_or_empty(args.output)
    image = load_image(args.photo)
    board = boards.load(args.board) if args.board else _read_with_reader(args.photo, args.min_confidence)
    tiles = colours.tiles_of_board(board, args.min_confidence)
    if len(tiles) < 3:
        raise BadInput(f"colour calibration needs at least 3 confidently known tiles with pixel centres, "
                       f"found {len(tiles)}")
    model = colours.learn(image, tiles)
    profile.colours = model
    profile.save(args.output)
    missing = [c for c in colours.CLASSES if c not in model.learned]
    parts = [f"{c} L{m[0]:.0f} a{m[1]:+.0f} b{m[2]:+.0f}" for c, m in zip(colours.CLASSES, model.means)]
    print(f"colours from {len(tiles)} tiles: " + ", ".join(parts) + f" -> {args.output}")
    if missing:
        print(f"tantrix: note: no {', '.join(missing)} in the photo; predicted from the light's colour cast "
              "(calibrate with tiles showing every colour for a better profile)", file=sys.stderr)
    return 0


def _show(args: argparse.Namespace) -> int:
    from calibration.profile import load

    profile = load(args.profile)
    if profile.camera is not None:
        c = profile.camera
        print(f"camera: {c.image_size[0]}x{c.image_size[1]}, fx {c.focal_px[0]:.1f} fy {c.focal_px[1]:.1f} px, "
              f"RMS {c.rms_px:.3f} px, {c.photos_used} photos")
    if profile.table is not None:
        t = profile.table
        tilt = "unknown" if t.tilt_deg is None else f"{t.tilt_deg:.1f} deg"
        print(f"table: photos {t.image_size[0]}x{t.image_size[1]} -> rectified {t.rectified_size[0]}x"
              f"{t.rectified_size[1]}, tile pitch {t.tile_pitch_px:.1f} px, tilt {tilt}")
    if profile.colours is not None:
        print(f"colours: learned {', '.join(profile.colours.learned)}")
    return 0
