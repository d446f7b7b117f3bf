"""``tantrix serve``: run the web companion (default http://127.0.0.1:5000)."""
from __future__ import annotations

import argparse
import sys

from referee.errors import BadInput


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "serve", help="run the web companion",
        description="Serve the web companion: check photos, referee games, check puzzles.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=5000, help="port (default 5000; 0 picks a free one)")
    p.add_argument("--data-dir", default=None,
                   help="where games and their photos are kept (default ~/.local/share/tantrix)")
    p.add_argument("--profile", default=None, help="calibration profile file for the photo reader")
    p.add_argument("--max-upload-mb", type=float, default=25.0, help="upload size limit (default 25)")
    p.add_argument("--certfile", default=None,
                   help="TLS certificate (PEM): serve https, which phone browsers need for the live camera")
    p.add_argument("--keyfile", default=None, help="TLS private key (PEM) for --certfile")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from werkzeug.serving import make_server

    from webui import create_app

    try:
        app = create_app({"DATA_DIR": args.data_dir, "PROFILE": args.profile,
                          "MAX_CONTENT_LENGTH": int(args.max_upload_mb * 1024 * 1024)})
    except OSError as e:
        raise BadInput(f"cannot use data directory {args.data_dir}: {e.strerror}") from None
    ssl_context = None
    if args.certfile or args.keyfile:
        if not (args.certfile and args.keyfile):
            raise BadInput("--certfile and --keyfile go together")
        import ssl
        ssl_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        try:
            ssl_context.load_cert_chain(args.certfile, args.keyfile)
        except (OSError, ssl.SSLError) as e:
            raise BadInput(f"cannot use certificate {args.certfile}: {e}") from None
    try:
        server = make_server(args.host, args.port, app, threaded=True, ssl_context=ssl_context)
    except OSError as e:
        raise BadInput(f"cannot listen on {args.host}:{args.port}: {e.strerror}") from None
    host, port = server.server_address[:2]
    scheme = "https" if ssl_context else "http"
    print(f"Tantrix Table Companion on {scheme}://{host}:{port}/  (data in {app.config['DATA_DIR']}; "
          "Ctrl-C stops)", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0
