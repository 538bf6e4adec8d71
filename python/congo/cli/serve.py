"""``congo serve``: a board in the browser.

Needs the ``serve`` extra: ``pip install 'congo-chess[serve]'``."""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
import threading
import webbrowser
from typing import Any
from urllib.parse import urlencode

from congo._extras import pip_install
from congo.cli._args import EXIT_INTERRUPTED, EXIT_OK, add_tablebase, nonnegative_int, positive_int

__all__ = ["register", "run"]

DESCRIPTION = """Serves a Congo board in the browser: play the engine, analyse with live lines, enter
monkey chains jump by jump, load and save records, and (with --match) watch a match between two
players live. Prints the page's address with its access token as the first line, opens a browser
unless --no-browser, and stops on Ctrl-C (exit status 130). See docs/serve.md."""


def _port(text: str) -> int:
    value = nonnegative_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"a port is from 0 to 65535, got {value}")
    return value


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Adds the ``serve`` command to the ``congo`` command's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="play, analyse and watch Congo in the browser", description=DESCRIPTION
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="port (default: 8000; 0 picks a free one)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    add_tablebase(parser, "the result and distance of positions in the tables, exact engine scores")
    parser.add_argument(
        "--threads", type=positive_int, default=1, metavar="N", help="search threads (default: 1)"
    )
    parser.add_argument(
        "--match",
        nargs=2,
        metavar="PLAYER",
        help="watch a match between two players (as `congo match` takes them, e.g. engine:time=0.1)",
    )
    parser.add_argument(
        "--games", type=positive_int, default=2, metavar="N", help="games of the match (default: 2)"
    )
    parser.add_argument("--tc", metavar="T+I", help="time control of the match, e.g. 10+0.1")
    parser.add_argument("--save", metavar="FILE", help="write the match's games to FILE as records")
    parser.set_defaults(run=run)
    return parser


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback  # ::ffff:127.0.0.1
    return address.is_loopback


def run(args: argparse.Namespace) -> int:
    """Runs the server until Ctrl-C. Returns the exit status."""
    try:
        import uvicorn

        from congo.serve.app import LOOPBACK_HOSTS, Settings, create_app, server_config
        from congo.serve.watch import MatchWatch
    except ImportError as error:  # a user error (exit 2, docs/cli.md): the extra is not installed
        raise ImportError(f"{error.name} is missing: {pip_install('serve')}") from None
    if args.match is None and (args.tc is not None or args.save is not None):
        raise ValueError("--tc and --save belong with --match")
    # The Host headers accepted: the loopback names, the address listened on (as printed), and
    # on every address (0.0.0.0, ::) this machine's name and any IP address (DNS rebinding needs a
    # name; an address cannot be made to point elsewhere).
    hosts = set(LOOPBACK_HOSTS) | {args.host.lower().strip("[]")}
    any_address = args.host in ("0.0.0.0", "::")
    if not _is_loopback(args.host):
        print(
            f"congo serve: warning: listening on {args.host}, not only on this machine: anyone who can"
            " reach it and knows the token can use the page (and the engine's CPU time)",
            file=sys.stderr,
        )
        if any_address:
            hosts.add(socket.gethostname().lower())
    settings = Settings(
        tablebase=args.tablebase,
        threads=args.threads,
        allowed_hosts=frozenset(hosts),
        any_address=any_address,
    )
    # The match (and its --save path, checked now: before the first game) before the server.
    watch = None
    if args.match is not None:
        watch = MatchWatch(
            args.match[0], args.match[1], games=args.games, time_control=args.tc, save=args.save
        )
    app, hub, token = create_app(settings)
    hub.match = watch
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    if ":" in shown:
        shown = f"[{shown}]"
    query = {"token": token}
    if args.match is not None:
        query["mode"] = "match"
    url = f"http://{shown}:{port}/?{urlencode(query)}"
    print(url, flush=True)
    server = uvicorn.Server(server_config(app))
    handle_exit = server.handle_exit
    # The signals that stopped the server, kept here rather than read from uvicorn's private
    # Server._captured_signals: uvicorn installs handle_exit (this on_signal) as the handler of
    # SIGINT and SIGTERM while it serves, and has no public record of them.
    received: list[int] = []

    def on_signal(sig: int, frame: Any) -> None:
        received.append(sig)
        # A second Ctrl-C (or SIGTERM): stop waiting for the match, save what was finished, go.
        if server.should_exit and watch is not None:
            watch.hurry.set()
        handle_exit(sig, frame)

    server.handle_exit = on_signal  # type: ignore[method-assign]
    if not args.no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    finally:
        sock.close()
    # uvicorn raises the signal again once it has stopped: Ctrl-C ends above, with 130.
    return EXIT_INTERRUPTED if received else EXIT_OK
