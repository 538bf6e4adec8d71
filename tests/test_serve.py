"""``congo serve``: the protocol (Starlette's TestClient) and the page in a real Chromium (Playwright).

The protocol tests need the ``serve`` extra (Starlette, uvicorn, httpx for the TestClient); the
browser tests also need Debian's ``chromium`` and the ``playwright`` package, as tests/test_browser.py
does. Each is skipped when missing, except with ``CONGO_TEST_REQUIRE_EXTRAS=1`` (CI's run with every
extra installed), where a missing install fails.
Screenshots of the main views are saved under ``build/screenshots/``.
"""

from __future__ import annotations

import io
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import congo
import congo.svg
from congo import pgn
from tests import extras

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "build" / "screenshots"
CHAIN_FEN = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"


def _missing_server() -> str | None:
    for name in ("starlette", "uvicorn", "httpx"):
        try:
            __import__(name)
        except ImportError:
            return f"{name} is not installed (pip install -e '.[serve,test]')"
    return None


MISSING = _missing_server()
if MISSING is not None:
    if extras.REQUIRED:
        pytest.fail(f"serve tests cannot run with CONGO_TEST_REQUIRE_EXTRAS=1: {MISSING}", pytrace=False)
    pytest.skip(MISSING, allow_module_level=True)

import uvicorn  # noqa: E402

with warnings.catch_warnings():  # Starlette's advice about the httpx package it runs on
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from congo.engine import Limit  # noqa: E402
from congo.serve.app import LOOPBACK_HOSTS, MAX_MESSAGE, Settings, create_app, server_config  # noqa: E402
from congo.serve.watch import MatchWatch  # noqa: E402
from tests.browser_support import CHROMIUM, missing_browser  # noqa: E402

MISSING_BROWSER = missing_browser()
needs_browser = pytest.mark.skipif(
    MISSING_BROWSER is not None and not extras.REQUIRED, reason=str(MISSING_BROWSER)
)


# -- the protocol ---------------------------------------------------------------------------------


def _test_app(**settings: Any) -> tuple[Any, Any, str]:
    hosts = LOOPBACK_HOSTS | {"testserver"}
    return create_app(Settings(allowed_hosts=hosts, analysis_limit=Limit(depth=3), **settings))


@pytest.fixture
def client() -> Iterator[tuple[TestClient, str]]:
    app, _, token = _test_app()
    with TestClient(app) as test_client:
        yield test_client, token


def _seen(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """A message as the page sees it. A state carries the move list's entries from the first that
    changed (``moves_from`` of them kept) and the board only when it changed: its ``moves`` here is
    the whole list rebuilt from the states before it (``sent``: what it carried), its drawings the
    last ones sent. Every change must apply to the version the tab has (a gap fails the test)."""
    if message["type"] == "analysis":
        # The board with the best move's arrow comes only when the arrow changes.
        drawn = getattr(ws, "congo_analysis", {})
        if message["fen"] != drawn.get("fen"):
            drawn = {"fen": message["fen"]}
        drawn.update({key: value for key, value in message.items() if key.startswith("svg_")})
        ws.congo_analysis = drawn
        return {**drawn, **message}
    if message["type"] != "state":
        return message
    line = getattr(ws, "congo_line", None)
    if message["full"]:
        moves = list(message["moves"])
        assert "svg_white" in message or "svg_black" in message  # the drawing for the tab's side
        assert message["moves_from"] == 0
    else:
        assert line is not None, "a change before any whole state"
        version, old, _ = line
        assert message["base"] == version, (
            f"a gap: a change to version {message['base']}, the tab has {version}"
        )
        assert message["moves_from"] <= len(old)
        moves = old[: message["moves_from"]] + message["moves"]
    assert len(moves) == message["length"]
    drawings = {key: value for key, value in message.items() if key.startswith("svg_")}
    redrawn = bool(drawings)
    if not redrawn:
        assert line is not None
        drawings = line[2]
    ws.congo_line = (message["version"], moves, drawings)
    return {**message, **drawings, "moves": moves, "sent": message["moves"], "redrawn": redrawn}


def _receive(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of a kind (others, such as analysis, are skipped), as the page sees it."""
    for _ in range(500):
        message = ws.receive_json()
        assert isinstance(message, dict)
        message = _seen(ws, message)
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def test_the_protocol_table_names_every_field_of_a_state(client: tuple[TestClient, str]) -> None:
    # docs/serve.md's table of a state's fields is the page's contract: a field sent but not
    # described there, or described but never sent, is a difference between the two.
    text = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    table = text.split("A `state` says what changed", 1)[1].split("\n\n", 2)[1]
    documented = {
        name for row in table.splitlines()[2:] for name in re.findall(r"`(\w+)`", row.split(" | ")[0])
    }
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&fen={congo.STARTING_FEN}&mode=analyse") as ws:
        state = ws.receive_json()
        while state["type"] != "state":
            state = ws.receive_json()
        analysis = ws.receive_json()
        for _ in range(500):
            if analysis["type"] == "analysis" and analysis["lines"]:
                break
            analysis = ws.receive_json()
    sent = set(state) - {"type"}
    assert sent - documented == set()
    assert documented - sent <= {"svg_black"}  # one side's drawing is sent at a time
    # The sentence on an analysis names its fields, and those of each of its lines.
    sentence = text.split("An `analysis` carries", 1)[1].split(", and the board", 1)[0]
    line_fields = set(re.findall(r"`(\w+)`", sentence.split("(each", 1)[1].split(")", 1)[0]))
    assert set(analysis) - {"type", "svg_white", "svg_black"} == set(re.findall(r"`(\w+)`", sentence)) - (
        line_fields - {"depth", "score", "wdl", "pv"}
    )
    assert set(analysis["lines"][0]) == line_fields


def test_page_and_static_files_need_the_token(client: tuple[TestClient, str]) -> None:
    http, token = client
    assert http.get(f"/?token={token}").status_code == 200
    assert "data-fen" in http.get(f"/?token={token}").text
    assert http.get(f"/static/app.js?token={token}").status_code == 200
    for path in ("/", "/?token=wrong", "/static/app.js", f"/static/app.js?token={token}x"):
        response = http.get(path)
        assert response.status_code == 403, path
    assert http.get(f"/static/secret.txt?token={token}").status_code == 404


def test_foreign_host_and_origin_are_refused(client: tuple[TestClient, str]) -> None:
    http, token = client
    assert http.get(f"/?token={token}", headers={"Host": "evil.example:8000"}).status_code == 403
    assert http.get(f"/?token={token}", headers={"Origin": "http://evil.example"}).status_code == 403
    assert http.get(f"/?token={token}", headers={"Host": "127.0.0.1:8000"}).status_code == 200
    # The Origin is this server's own: its scheme, host and port, as the Host header names them.
    own = {"Host": "127.0.0.1:8000"}
    assert http.get(f"/?token={token}", headers={**own, "Origin": "http://127.0.0.1:8000"}).status_code == 200
    for origin in (
        "http://127.0.0.1:1",
        "http://127.0.0.1",
        "https://127.0.0.1:8000",
        "https://localhost:9",
        "http://localhost:8000",
        "http://127.0.0.1:8000/path",
        "null",
    ):
        assert http.get(f"/?token={token}", headers={**own, "Origin": origin}).status_code == 403, origin
    # A Host header is a host and a port, nothing else.
    for host in ("evil.com@127.0.0.1", "127.0.0.1#evil.com", "127.0.0.1/evil.com", "127.0.0.1:99999", "[::1"):
        assert http.get(f"/?token={token}", headers={"Host": host}).status_code == 403, host
    assert http.get(f"/?token={token}", headers={"Host": "[::1]:8000"}).status_code == 200


def test_two_host_headers_are_refused() -> None:
    from congo.serve.app import Guard

    guard = Guard(lambda *_: None, "t", LOOPBACK_HOSTS)  # type: ignore[arg-type]
    scope: dict[str, Any] = {"type": "http", "scheme": "http", "path": "/", "query_string": b"token=t"}
    one = [(b"host", b"127.0.0.1:8000")]
    assert guard.refusal({**scope, "headers": one}) is None
    two = [(b"host", b"evil.example"), (b"host", b"127.0.0.1:8000")]
    assert guard.refusal({**scope, "headers": two}) == "foreign Host header"
    assert guard.refusal({**scope, "headers": list(reversed(two))}) == "foreign Host header"
    assert guard.refusal({**scope, "headers": []}) == "foreign Host header"


def test_every_address_accepts_ip_hosts_only() -> None:
    """Listening on 0.0.0.0, the page is reached through the machine's address: a Host that is an IP
    address is accepted (DNS rebinding needs a name), a name other than the machine's is not."""
    from congo.serve.app import Guard

    scope: dict[str, Any] = {"type": "http", "scheme": "http", "path": "/", "query_string": b"token=t"}
    anywhere = Guard(lambda *_: None, "t", LOOPBACK_HOSTS | {"0.0.0.0"}, any_address=True)  # type: ignore[arg-type]
    loopback = Guard(lambda *_: None, "t", LOOPBACK_HOSTS)  # type: ignore[arg-type]
    for host, accepted in (
        ("192.168.1.4:8000", True),
        ("[fe80::1]:8000", True),
        ("evil.example:8000", False),
    ):
        assert (anywhere.refusal({**scope, "headers": [(b"host", host.encode())]}) is None) == accepted, host
        assert loopback.refusal({**scope, "headers": [(b"host", host.encode())]}) is not None, host


def test_websockets_without_token_or_with_foreign_origin_are_refused(client: tuple[TestClient, str]) -> None:
    http, token = client
    for path, headers in (
        ("/ws", {}),
        ("/ws?token=nope", {}),
        (f"/ws?token={token}", {"origin": "http://evil.example"}),
        (f"/ws?token={token}", {"host": "evil.example"}),
    ):
        with pytest.raises(WebSocketDisconnect) as refused, http.websocket_connect(path, headers=headers):
            pass
        assert refused.value.code == 1008, path
    foreign = {"origin": "http://127.0.0.1:1234"}
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        http.websocket_connect(f"/ws?token={token}", headers=foreign),
    ):
        pass
    assert refused.value.code == 1008
    with http.websocket_connect(f"/ws?token={token}", headers={"origin": "http://testserver"}) as ws:
        assert _receive(ws, "state")["fen"] == congo.STARTING_FEN


def test_oversized_messages_close_the_socket(client: tuple[TestClient, str]) -> None:
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as ws:
        _receive(ws, "state")
        ws.send_text(json.dumps({"type": "load", "text": "x" * (MAX_MESSAGE + 1)}))
        with pytest.raises(WebSocketDisconnect) as closed:
            _receive(ws, "never sent")
        assert closed.value.code == 1009


def test_moves_are_validated_by_the_server(client: tuple[TestClient, str]) -> None:
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as ws:
        assert _receive(ws, "state")["fen"] == CHAIN_FEN
        for bad in (
            {"type": "move", "move": "b1b4"},
            {"type": "move", "move": 7},
            {"type": "path", "path": ["z9"]},
        ):
            ws.send_json(bad)
            assert "message" in _receive(ws, "error")
        ws.send_json({"type": "nonsense"})
        assert "unknown" in _receive(ws, "error")["message"]
        ws.send_text("not json")
        _receive(ws, "error")
        # A click on a square with no move: nothing selected.
        ws.send_json({"type": "path", "path": ["a4"]})
        assert _receive(ws, "choices")["path"] == []
        # The chain, jump by jump.
        ws.send_json({"type": "path", "path": ["b1"]})
        first = _receive(ws, "choices")
        assert first["targets"] == ["a1", "a2", "b2", "c1", "d3"]
        assert not first["stop"]
        ws.send_json({"type": "path", "path": ["b1", "d3"]})
        middle = _receive(ws, "choices")
        assert (middle["targets"], middle["stop"]) == (["f5"], True)
        ws.send_json({"type": "path", "path": ["b1", "d3", "f5", "d7"]})
        state = _receive(ws, "state")  # published to every tab before the reply to this one
        assert _receive(ws, "choices")["played"] == "b1d3f5d7"
        assert state["result"] == "1-0"
        assert state["moves"] == [{"ply": 1, "uci": "b1d3f5d7", "san": "Mxd3xf5xd7#", "variations": []}]
        # The game is over: no more moves.
        ws.send_json({"type": "move", "move": "d7d6"})
        assert "over" in _receive(ws, "error")["message"]
        # Typed moves in all three notations.
        ws.send_json({"type": "fen", "fen": CHAIN_FEN})
        _receive(ws, "state")
        for text in ("Mxd3xf5", "b1d3f5", "b1-d3-f5"):
            ws.send_json({"type": "goto", "ply": 0})
            _receive(ws, "state")
            ws.send_json({"type": "move", "move": text})
            assert _receive(ws, "state")["moves"][0]["uci"] == "b1d3f5"
        ws.send_json({"type": "fen", "fen": "not a fen"})
        _receive(ws, "error")


def test_analysis_lines_and_best_move(client: tuple[TestClient, str]) -> None:
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as ws:
        _receive(ws, "state")
        ws.send_json({"type": "multipv", "count": 2})
        analysis = _receive(ws, "analysis")
        while len(analysis["lines"]) < 2 or analysis["fen"] != CHAIN_FEN:
            analysis = _receive(ws, "analysis")
        assert analysis["lines"][0]["pv"].split()[0] == "b1d3f5d7"
        assert analysis["score"] == "#1"
        assert analysis["best"] == "b1d3f5d7"
        assert 'class="arrow"' in analysis["svg_white"]
        ws.send_json({"type": "best"})
        assert _receive(ws, "state")["result"] == "1-0"
        ws.send_json({"type": "multipv", "count": 5})
        _receive(ws, "error")


def test_import_congo_does_not_import_the_server() -> None:
    code = (
        "import sys, congo, congo.svg\n"
        "print(any(m.split('.')[0] in ('starlette', 'uvicorn') for m in sys.modules))"
    )
    # The congo under test (installed, or this tree in development): no PYTHONPATH of our own, which
    # would point an installed wheel's run at sources without the extension.
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_records_load_and_save(client: tuple[TestClient, str]) -> None:
    http, token = client
    board = congo.Board()
    for uci in ("c2c3", "c6c5", "d1c2"):
        board.push_uci(uci)
    record = str(pgn.Game.from_board(board))
    with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as ws:
        _receive(ws, "state")
        ws.send_json({"type": "load", "text": record})
        state = _receive(ws, "state")
        assert [m["uci"] for m in state["moves"]] == ["c2c3", "c6c5", "d1c2"]
        assert state["cursor"] == 0
        ws.send_json({"type": "goto", "ply": 2})
        assert _receive(ws, "state")["cursor"] == 2
        ws.send_json({"type": "save"})
        saved = pgn.read_game(io.StringIO(_receive(ws, "record")["text"]))
        assert saved is not None
        assert [m.uci() for m in saved.mainline_moves()] == ["c2c3", "c6c5", "d1c2"]
        ws.send_json({"type": "load", "text": "1. Zz9 *"})
        _receive(ws, "error")


def test_variations_are_kept_and_saved(client: tuple[TestClient, str]) -> None:
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as ws:
        _receive(ws, "state")
        for message in (
            {"type": "move", "move": "b1b2"},
            {"type": "move", "move": "e6e7"},
            {"type": "goto", "ply": 0},
            {"type": "move", "move": "b1d3"},
        ):
            ws.send_json(message)
            state = _receive(ws, "state")
        # The new move is shown, the first line is kept as a variation at ply 1.
        assert [m["uci"] for m in state["moves"]] == ["b1d3"]
        assert state["moves"][0]["variations"] == [{"uci": "b1b2", "san": "Mb2"}]
        ws.send_json({"type": "variation", "ply": 1, "uci": "b1b2"})
        state = _receive(ws, "state")
        assert [m["uci"] for m in state["moves"]] == ["b1b2", "e6e7"]
        assert state["cursor"] == 1
        ws.send_json({"type": "variation", "ply": 1, "uci": "b1c1"})
        _receive(ws, "error")
        ws.send_json({"type": "save"})
        saved = pgn.read_game(io.StringIO(_receive(ws, "record")["text"]))
        assert saved is not None
        assert [m.uci() for m in saved.mainline_moves()] == ["b1b2", "e6e7"]
        assert [child.move.uci() for child in saved.variations] == ["b1b2", "b1d3"]
        # Taking back removes the last move of the line shown.
        ws.send_json({"type": "goto", "ply": 2})
        _receive(ws, "state")
        ws.send_json({"type": "takeback"})
        assert [m["uci"] for m in _receive(ws, "state")["moves"]] == ["b1b2"]


def test_play_mode_engine_replies_and_takeback(client: tuple[TestClient, str]) -> None:
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&mode=play&side=white&limit=nodes:200") as ws:
        state = _receive(ws, "state")
        assert (state["mode"], state["side"]) == ("play", "white")
        ws.send_json({"type": "move", "move": "c2c3"})
        while len(state["moves"]) < 2:
            state = _receive(ws, "state")
        assert state["turn"] == "w"
        ws.send_json({"type": "takeback"})
        assert _receive(ws, "state")["moves"] == []
        ws.send_json({"type": "resign"})
        assert _receive(ws, "state")["result"] == "0-1"
    # Playing Black: the engine opens.
    with http.websocket_connect(f"/ws?token={token}&mode=play&side=black&limit=depth:2") as ws:
        state = _receive(ws, "state")
        while not state["moves"]:
            state = _receive(ws, "state")
        assert (state["side"], state["turn"]) == ("black", "b")


def test_tablebase_results_are_shown(tmp_path: Path) -> None:
    from congo import tablebase

    given = os.environ.get("CONGO_TEST_TABLEBASES")
    directory = Path(given) if given else tmp_path
    if not given:
        tablebase.generate(directory, men=3)
    app, _, token = _test_app(tablebase=str(directory))
    with TestClient(app) as http:
        with http.websocket_connect(f"/ws?token={token}&fen=7/7/2l4/7/Z6/3L3/7 w 1") as ws:
            found = _receive(ws, "state")["tablebase"]
            assert found["wdl"] == "win"
            assert found["text"].startswith("White wins")
        with http.websocket_connect(f"/ws?token={token}") as ws:
            assert _receive(ws, "state")["tablebase"] is None  # the start: too many men


def test_a_new_game_is_watched_before_another_tab_can_evict_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tab's own game is made and subscribed to in one step. Were there a moment between the two,
    another tab opening a game then, with the server holding its most games, would evict the new
    (unwatched) one: its tab would play on alone, and its address would open another game."""
    import asyncio

    from congo.serve.session import MAX_GAMES_KEPT, BoardSession, Subscriber

    app, hub, token = _test_app()
    loop = asyncio.new_event_loop()
    try:
        watcher = Subscriber(loop)
        while len(hub.games) < MAX_GAMES_KEPT - 1:  # every game watched but one place free
            game = BoardSession(hub, f"watched{len(hub.games)}")
            game.subscribers.add(watcher)
            hub.games[game.id] = game
        made = hub.game
        others: list[str] = []

        def another_tab_meanwhile(*args: Any, **kwargs: Any) -> Any:
            game = made(*args, **kwargs)
            if not others:  # the first tab's game is made: another tab opens one of its own now
                others.append("opened")
                try:
                    made(None, True)
                except ValueError:
                    others.append("refused: the server is full")
            return game

        monkeypatch.setattr(hub, "game", another_tab_meanwhile)
        with TestClient(app) as http, http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as first:
            own = _receive(first, "state")["game"]
            assert own != "main"
            with http.websocket_connect(f"/ws?token={token}&game={own}") as second:
                joined = _receive(second, "state")
                assert (joined["game"], joined["fen"]) == (own, CHAIN_FEN)
                second.send_json({"type": "move", "move": "b1b2"})
                assert _receive(first, "state")["moves"][0]["uci"] == "b1b2"
        assert others == ["opened", "refused: the server is full"]
    finally:
        loop.close()


def test_match_watch_streams_to_the_end() -> None:
    app, hub, token = _test_app()
    hub.match = MatchWatch("random", "greedy", games=2, time_control="60+1")
    with TestClient(app) as http, http.websocket_connect(f"/ws?token={token}&view=match") as ws:
        message = _receive(ws, "match")
        clocks = []
        finished = list(message["finished"])
        while not message["done"]:
            clocks.append(message["current"].get("clocks"))
            message = _receive(ws, "match")
            assert message["finished_from"] == len(finished)  # only what is new since the last
            finished += message["finished"]
        clocks.append(message["current"].get("clocks"))  # the match may be over before the tab came
        assert any(clock and clock["white"] > 0 and clock["black"] > 0 for clock in clocks)
        assert message["games"] == 2
        first, second = (float(x) for x in message["score"].split("-"))
        assert first + second == 2
        assert [game["index"] for game in finished] == [0, 1]
        assert all(game["result"] in ("1-0", "0-1", "1/2-1/2") for game in finished)


def test_a_match_message_stays_what_it_was_when_sent() -> None:
    """A tab's queued message is sent (serialised) later, on the server's event loop, while the match
    goes on in its thread: it must not share the watch's lists and dicts, or it would show later
    games and evaluations beside the earlier score and count (a tab joining mid-match included)."""
    from congo import match
    from congo._results import Cp

    watch = MatchWatch("random", "greedy", games=2)
    board = congo.Board()
    watch.position(board, None, None)
    joined = watch.snapshot()  # what a tab subscribing now is sent
    sent = json.dumps(joined)
    watch.evaluation(True, Cp(30))
    game = match.play_game(match.RandomPlayer(1), match.RandomPlayer(2), max_plies=6)
    watch.on_game(match.MatchResult("random", "greedy", games=[game]), game)
    later = watch.snapshot()
    assert (later["games"], later["evals"]) == (1, {"white": "30"})
    assert json.dumps(joined) == sent


def test_congo_serve_prints_its_url_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    import signal

    process = subprocess.Popen(
        [sys.executable, "-m", "congo", "serve", "--port", "0", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        assert "token=" in url
        port = int(url.split(":")[2].split("/")[0])
        assert port > 0
        import urllib.request

        for _ in range(100):
            try:
                with urllib.request.urlopen(url) as response:
                    assert response.status == 200
                break
            except OSError:
                time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 130
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_binding_beyond_loopback_warns(tmp_path: Path) -> None:
    from congo.cli.serve import _is_loopback

    assert _is_loopback("127.0.0.1")
    assert _is_loopback("::1")
    assert _is_loopback("localhost")
    assert _is_loopback("127.1.2.3")
    assert _is_loopback("::ffff:127.0.0.1")
    assert not _is_loopback("::ffff:192.168.1.4")
    assert not _is_loopback("0.0.0.0")
    assert not _is_loopback("192.168.1.4")


# -- bounded work, bounded queues ---------------------------------------------------------------------

MOST_MOVES_FEN = "1C1G3/1M1lMMM/3g1m1/GMmmmem/G2cMm1/2Scmzm/S2L1S1 w 1"  # 25,786 legal moves


def test_a_position_with_the_most_moves_is_bounded(client: tuple[TestClient, str]) -> None:
    """Its state carries the number of legal moves, not 25,786 SANs (2 MB, 10 s under the game's
    lock); the moves that match typed text are sent on demand; and another tab's ping is answered
    while it is open."""
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&fen={MOST_MOVES_FEN}") as worst:
        text = worst.receive_text()
        state = _seen(worst, json.loads(text))
        assert (state["type"], state["fen"]) == ("state", MOST_MOVES_FEN)
        assert (state["legal"], state["legal_count"]) == (None, 25_786)
        assert len(text) < 100_000
        board = congo.Board(MOST_MOVES_FEN)
        for typed in ("e3", "Mxc3xe1", "Lxe2", "d1"):
            worst.send_json({"type": "complete", "text": typed})
            found = _receive(worst, "completions")
            assert (found["fen"], found["text"]) == (MOST_MOVES_FEN, typed)
            assert 1 <= len(found["moves"]) <= 12, typed
            for move in found["moves"]:
                assert board.san(congo.Move.from_uci(move["uci"])) == move["san"]
        with http.websocket_connect(f"/ws?token={token}") as other:
            _receive(other, "state")
            other.send_json({"type": "ping"})
            assert _receive(other, "pong") == {"type": "pong"}
        worst.send_json({"type": "move", "move": "Lxe2"})
        assert _receive(worst, "state")["moves"][0]["san"] == "Lxe2"


def test_a_tab_that_does_not_read_is_dropped_not_queued_for() -> None:
    import asyncio

    from congo.serve.session import MAX_QUEUE, OVERFLOW, Subscriber

    loop = asyncio.new_event_loop()
    try:
        subscriber = Subscriber(loop)
        # A state supersedes the one before it while unsent: however many, one waits.
        for ply in range(10 * MAX_QUEUE):
            subscriber.send({"type": "state", "ply": ply}, replaces="state")
        loop.run_until_complete(asyncio.sleep(0))  # the handed-over messages are queued now
        assert [json.loads(text or "")["ply"] for _, text in subscriber.pending] == [10 * MAX_QUEUE - 1]
        assert not subscriber.closed
        # Answers are not superseded: past MAX_QUEUE the tab is given up on and its queue emptied.
        for ply in range(10 * MAX_QUEUE):
            subscriber.send({"type": "choices", "ply": ply})
        loop.run_until_complete(asyncio.sleep(0))
        assert subscriber.closed
        assert list(subscriber.pending) == [(None, OVERFLOW)]
        assert loop.run_until_complete(subscriber.get()) is OVERFLOW
    finally:
        loop.close()


def test_messages_of_a_tab_that_has_gone_are_not_handled(monkeypatch: pytest.MonkeyPatch) -> None:
    import congo.serve.app as app_module
    import congo.serve.session as session_module

    handled = []
    real = session_module.handle

    def counting(*args: Any) -> Any:
        handled.append(args[2].get("type"))
        # Each message takes a moment, as on a busy server: the tab sends faster than it is
        # answered (a step through a game is quick enough for it to be the other way round).
        time.sleep(0.005)
        return real(*args)

    monkeypatch.setattr(session_module, "handle", counting)
    app, _, token = _test_app()
    with TestClient(app) as http, http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as ws:
        _receive(ws, "state")
        before = len(handled)
        for _ in range(2_000):
            ws.send_json({"type": "goto", "ply": 0})
        # The socket's handler has ended (the test client waits for it): what was left is dropped.
    assert len(handled) - before <= app_module.MAX_INBOX + 1


def test_a_match_message_carries_only_the_games_new_since_the_last() -> None:
    app, hub, token = _test_app()
    hub.match = MatchWatch("random", "random", games=6)
    received = 0
    with TestClient(app) as http, http.websocket_connect(f"/ws?token={token}&view=match") as ws:
        seen: list[int] = []
        while True:
            text = ws.receive_text()
            received += len(text)
            message = json.loads(text)
            if message["type"] != "match":
                continue
            seen += [game["index"] for game in message["finished"]]
            if message["done"]:
                break
    assert seen == list(range(6))  # each game's record sent once, not once a move


def test_sockets_are_capped_per_game_and_in_all() -> None:
    app, _, token = _test_app(max_sockets=3, max_sockets_per_game=2)
    with TestClient(app) as http:
        with (
            http.websocket_connect(f"/ws?token={token}") as one,
            http.websocket_connect(f"/ws?token={token}") as two,
        ):
            _receive(one, "state")
            _receive(two, "state")
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                http.websocket_connect(f"/ws?token={token}") as third,
            ):
                _receive(third, "state")
            assert refused.value.code == 1013
            with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as own:
                _receive(own, "state")
                path = f"/ws?token={token}&fen={CHAIN_FEN}"
                with pytest.raises(WebSocketDisconnect) as full, http.websocket_connect(path) as fourth:
                    _receive(fourth, "state")
                assert full.value.code == 1013
        # Closed tabs free their places.
        with http.websocket_connect(f"/ws?token={token}") as again:
            assert _receive(again, "state")["fen"] == congo.STARTING_FEN


def test_a_message_to_every_tab_is_serialised_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import congo.serve.session as session_module

    encoded: list[str] = []
    real = session_module.encode

    def counting(message: Any) -> str:
        encoded.append(message.get("type"))
        return real(message)

    monkeypatch.setattr(session_module, "encode", counting)
    app, _, token = _test_app()
    with TestClient(app) as http:
        tabs = [http.websocket_connect(f"/ws?token={token}") for _ in range(5)]
        sockets = [tab.__enter__() for tab in tabs]
        try:
            for ws in sockets:
                _receive(ws, "state")
            encoded.clear()
            sockets[0].send_json({"type": "move", "move": "c2c3"})
            for ws in sockets:
                assert _receive(ws, "state")["moves"][0]["uci"] == "c2c3"
            assert encoded.count("state") == 1
        finally:
            for tab in tabs:
                tab.__exit__(None, None, None)


def test_deeply_nested_json_closes_the_socket_cleanly(client: tuple[TestClient, str]) -> None:
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as ws:
        _receive(ws, "state")
        ws.send_text("[" * 200_000 + "]" * 200_000)
        with pytest.raises(WebSocketDisconnect) as closed:
            _receive(ws, "never sent")
        assert closed.value.code == 1008
    with http.websocket_connect(f"/ws?token={token}") as ws:  # the server goes on
        assert _receive(ws, "state")["fen"] == congo.STARTING_FEN


def test_a_request_that_never_ends_is_timed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    import congo.serve.app as app_module

    monkeypatch.setattr(app_module, "REQUEST_TIMEOUT", 0.5)
    running = Server()
    try:
        with socket.create_connection(("127.0.0.1", running.port), timeout=60) as slow:
            slow.sendall(b"GET /?token=" + running.token.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            assert slow.recv(4096) == b""  # closed by the server (a hang ends in socket.timeout)
        with socket.create_connection(("127.0.0.1", running.port), timeout=60) as idle:
            assert idle.recv(4096) == b""
        # A whole request is answered as before.
        import urllib.request

        with urllib.request.urlopen(running.url(), timeout=60) as response:
            assert response.status == 200
    finally:
        running.close()


def _engine_reply(ws: Any, plies: int) -> dict[str, Any]:
    """The state once the line has ``plies`` moves; an engine that failed fails the test."""
    while True:
        message = _seen(ws, ws.receive_json())
        assert "engine failed" not in message.get("message", ""), message
        if message["type"] == "state" and len(message["moves"]) >= plies:
            return dict(message)


@pytest.fixture
def slow_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every search begins a moment after it is asked for, as a thread may: a stop sent then finds
    no search (the engine is not searching yet), and must still end the search when it begins."""
    from congo.engine import Engine

    real = Engine._search  # what every search of the engine, awaited or not, goes through

    def search(self: Engine, *args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Engine, "_search", search)


@pytest.mark.usefixtures("slow_to_start")
def test_new_game_while_the_engine_thinks_gets_a_move(client: tuple[TestClient, str]) -> None:
    """The stop of the search in progress is asynchronous (and lost when sent before the search
    began): the next search must not find the engine still searching (it would never move)."""
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&mode=play&side=black&limit=time:60") as ws:
        _receive(ws, "state")
        for _ in range(3):
            # A tab's messages are handled in order: the engine is thinking (for a minute) now.
            ws.send_json({"type": "new", "mode": "play", "side": "black", "limit": "nodes:300"})
            assert _receive(ws, "state")["moves"] == []
            assert len(_engine_reply(ws, 1)["moves"]) == 1
            ws.send_json({"type": "new", "mode": "play", "side": "black", "limit": "time:60"})
            assert _receive(ws, "state")["moves"] == []


@pytest.mark.usefixtures("slow_to_start")
def test_takeback_while_the_engine_thinks_gets_a_move(client: tuple[TestClient, str]) -> None:
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&mode=play&side=white&limit=time:1") as ws:
        _receive(ws, "state")
        for _ in range(2):
            ws.send_json({"type": "move", "move": "c2c3"})
            ws.send_json({"type": "takeback"})  # handled while the engine thinks its second
            ws.send_json({"type": "move", "move": "c2c3"})
            state = _engine_reply(ws, 2)
            assert state["turn"] == "w"
            ws.send_json({"type": "new", "mode": "play", "side": "white", "limit": "time:1"})
            assert _receive(ws, "state")["moves"] == []


# -- states as changes, win/draw/loss, arrows ------------------------------------------------------------


def _long_record(plies: int) -> pgn.Game:
    """A game of ``plies`` moves that does not end (seeded random moves, captures last; none that
    ends it)."""
    import random

    rng = random.Random(7)
    board = congo.Board()
    record = pgn.Game()
    node: pgn.GameNode = record

    def takes(move: congo.Move) -> bool:
        men = len(board.piece_map())
        board.push(move)
        fewer = len(board.piece_map()) < men
        board.pop()
        return fewer

    while board.ply() < plies:
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        rng.shuffle(moves)
        moves.sort(key=takes)
        for move in moves:
            board.push(move)
            if board.outcome(claim_draw=True) is None:
                break
            board.pop()
        else:
            raise AssertionError("every move ends the game")
        node = node.add_variation(move)
    return record


def test_states_carry_what_changed_not_the_whole_list(client: tuple[TestClient, str]) -> None:
    """In a game of 300 plies a move's state carried the SAN of all 300 moves before it and both
    drawings: each state now carries the entries from the first that changed, and the drawings only
    when the board drawn changed; the tab rebuilds the list (``_seen`` checks every change applies
    to the version it has)."""
    http, token = client
    record = str(_long_record(300))
    with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as ws:
        _receive(ws, "state")
        ws.send_json({"type": "load", "text": record})
        loaded = _receive(ws, "state")
        assert loaded["full"]
        assert len(loaded["sent"]) == 300
        ws.send_json({"type": "goto", "ply": 300})
        end = _receive(ws, "state")
        assert (end["sent"], end["moves_from"], end["version"]) == ([], 300, loaded["version"])
        assert end["redrawn"]  # the board shown changed
        played = sorted(congo.Board(end["fen"]).legal_moves, key=lambda m: m.uci())[0]
        ws.send_json({"type": "move", "move": played.uci()})
        moved = _receive(ws, "state")
        assert (moved["base"], moved["version"]) == (end["version"], end["version"] + 1)
        assert moved["moves_from"] == 300
        assert [m["uci"] for m in moved["sent"]] == [played.uci()]
        assert moved["length"] == len(moved["moves"]) == 301
        assert moved["redrawn"]
        # A change that leaves the board as it was (the analysis's lines): no drawings, no entries.
        ws.send_json({"type": "multipv", "count": 2})
        same = _receive(ws, "state")
        assert (same["sent"], same["version"], same["fen"]) == ([], moved["version"], moved["fen"])
        assert not same["redrawn"]
        # A takeback: the list is cut, nothing sent but where.
        ws.send_json({"type": "takeback"})
        back = _receive(ws, "state")
        assert (back["moves_from"], back["sent"], back["length"]) == (300, [], 300)
        assert back["moves"] == loaded["moves"]
        assert back["redrawn"]
        # A new game: the list from nothing, a whole state.
        ws.send_json({"type": "new", "mode": "analyse"})
        fresh = _receive(ws, "state")
        assert fresh["full"]
        assert fresh["moves"] == []
        assert fresh["moves_from"] == 0


def test_the_drawings_come_only_when_the_board_drawn_changed(client: tuple[TestClient, str]) -> None:
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as ws:
        _receive(ws, "state")
        ws.send_json({"type": "multipv", "count": 2})  # the same board
        raw = ws.receive_json()
        while raw["type"] != "state":
            raw = ws.receive_json()
        assert "svg_white" not in raw
        assert "svg_black" not in raw
        ws.send_json({"type": "move", "move": "b1b2"})
        raw = ws.receive_json()
        while raw["type"] != "state":
            raw = ws.receive_json()
        assert raw["svg_white"].startswith("<svg")
        assert "svg_black" not in raw  # the tab shows the board from White's side: its drawing alone


def test_each_tab_is_sent_the_board_from_its_side(client: tuple[TestClient, str]) -> None:
    """Both drawings went to every tab; each tab is now sent the one from its side (it says which
    when it turns the board), serialised once for all the tabs of a side."""
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}&side=black") as black:
        state = _receive(black, "state")
        assert "svg_black" in state
        assert "svg_white" not in state
        assert state["svg_black"] == str(congo.svg.board(congo.Board(CHAIN_FEN), orientation=congo.BLACK))
        with http.websocket_connect(f"/ws?token={token}&game={state['game']}") as white:
            joined = _receive(white, "state")
            assert "svg_white" in joined
            assert "svg_black" not in joined
            white.send_json({"type": "move", "move": "b1b2"})
            for tab, own, other in ((black, "svg_black", "svg_white"), (white, "svg_white", "svg_black")):
                moved = _receive(tab, "state")
                assert moved["redrawn"]
                assert own in moved
                assert other not in moved
            black.send_json({"type": "view", "side": "white"})
            drawing = _receive(black, "drawing")
            board = congo.Board(CHAIN_FEN)
            board.push_uci("b1b2")
            assert drawing["fen"] == board.fen()
            assert "svg_white" in drawing
            assert "svg_black" not in drawing
            black.send_json({"type": "move", "move": "e6e5"})
            assert "svg_white" in _receive(black, "state")
            black.send_json({"type": "view", "side": "sideways"})
            assert "side" in _receive(black, "error")["message"]


def test_a_tab_that_finds_a_gap_gets_the_whole_state(client: tuple[TestClient, str]) -> None:
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as ws:
        _receive(ws, "state")
        for uci in ("b1b2", "e6e5"):
            ws.send_json({"type": "move", "move": uci})
            last = _receive(ws, "state")
        ws.send_json({"type": "sync"})
        whole = ws.receive_json()
        while whole["type"] != "state":
            whole = ws.receive_json()
        assert whole["full"]
        assert whole["base"] is None
        assert [m["uci"] for m in whole["moves"]] == ["b1b2", "e6e5"]
        assert (whole["version"], whole["fen"]) == (last["version"], last["fen"])
        assert whole["svg_white"].startswith("<svg")


def test_a_change_replacing_an_unsent_state_is_sent_whole() -> None:
    """A tab's queue replaces a state it has not sent with the next: the tab never sees the one
    replaced, so the next is sent whole (a change to a version the tab never had would be a gap)."""
    import asyncio

    from congo.serve.session import BoardSession, Subscriber

    _, hub, _ = _test_app()
    loop = asyncio.new_event_loop()
    try:
        game = BoardSession(hub, "slow")
        tab = Subscriber(loop)
        game.subscribers.add(tab)
        with game.lock:  # played against the engine: only states are queued (no analysis)
            game.new_game("play", True, "nodes:1", congo.Board())
        loop.run_until_complete(asyncio.sleep(0))
        tab.pending.clear()  # sent: the tab has the game's first state
        for uci in ("c2c3", "e2e3"):
            with game.lock:
                game.enter_move(uci)
                thinking = game.engine_task
            assert thinking is not None
            thinking.result(60)  # the engine's reply, another state
        loop.run_until_complete(asyncio.sleep(0))
        assert len(tab.pending) == 1
        sent = json.loads(tab.pending[0][1] or "")
        assert sent["full"]
        assert sent["moves"] == game.state(whole=True)["moves"]
        assert [m["uci"] for m in sent["moves"]][::2] == ["c2c3", "e2e3"]
        assert sent["svg_white"].startswith("<svg")
    finally:
        hub.close()
        loop.close()


def test_analysis_sends_its_board_when_the_best_move_changes(client: tuple[TestClient, str]) -> None:
    """Each analysis message carried both drawings; the board (with the best move's arrow) now
    comes only when the best move changed, its whole form (for a tab that joins, or whose queue
    replaces an unsent one) always has it."""
    import asyncio

    from congo.serve.session import Analyser, EngineLoop

    published: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
    engines = EngineLoop()
    analyser = Analyser(
        congo.Engine().asyncio(),
        engines,
        lambda message, whole: published.append((message, whole)),
        Limit(depth=8),
    )
    asyncio.run(analyser._run(congo.Board(), analyser._generation, None, []))
    messages = [message for message, _ in published]
    assert [m["depth"] for m in messages] == list(range(1, 9))
    assert "svg_white" in messages[0]
    for before, after in zip(messages, messages[1:]):
        assert ("svg_white" in after) == (after["best"] != before["best"]), (before["best"], after["best"])
    assert any("svg_white" not in message for message in messages)
    for message, whole in published:
        assert whole is not None
        assert whole["svg_white"].startswith("<svg")
        assert {**whole, "svg_white": None, "svg_black": None} == {
            **message,
            "svg_white": None,
            "svg_black": None,
        }
    engines.close()
    # Through a socket: a message without the board never changes the best move the tab shows.
    http, token = client
    with http.websocket_connect(f"/ws?token={token}&fen={congo.STARTING_FEN}&mode=analyse") as ws:
        game = _receive(ws, "state")["game"]
        seen: list[dict[str, Any]] = []
        while not seen or seen[-1]["depth"] < 3:
            message = ws.receive_json()
            if message["type"] == "analysis":
                seen.append(message)
        assert "svg_white" in seen[0]
        for before, after in zip(seen, seen[1:]):
            if "svg_white" not in after:
                assert after["best"] == before["best"]
        # A tab that joins is sent the analysis so far with its board, whatever the last carried.
        with http.websocket_connect(f"/ws?token={token}&game={game}") as joined:
            _receive(joined, "state")
            first = joined.receive_json()
            while first["type"] != "analysis":
                first = joined.receive_json()
            assert first["svg_white"].startswith("<svg")
            assert first["best"]


def test_analysis_and_state_show_win_draw_loss(client: tuple[TestClient, str]) -> None:
    """The engine's chances (congo.Score.wdl at the position's ply) from White's point of view,
    per mille, in each analysis and each line; a finished game's are its result."""
    http, token = client
    # The same mate in one for each side: White's chances are a win, then a loss.
    black_fen = "1m1l3/2P4/7/4C2/7/4L2/7 b 1"
    for fen, expected, mover in (
        (CHAIN_FEN, [1000, 0, 0], "b1d3f5d7"),
        (black_fen, [0, 0, 1000], "b7d5f3d1"),
    ):
        with http.websocket_connect(f"/ws?token={token}&fen={fen}") as ws:
            assert _receive(ws, "state")["wdl"] is None  # not known without the engine
            analysis = _receive(ws, "analysis")
            assert analysis["best"] == mover
            assert analysis["wdl"] == expected
            assert analysis["lines"][0]["wdl"] == expected
            ws.send_json({"type": "best"})
            assert _receive(ws, "state")["wdl"] == expected  # the game's result
    with http.websocket_connect(f"/ws?token={token}&fen={congo.STARTING_FEN}&mode=analyse") as ws:
        _receive(ws, "state")
        analysis = _receive(ws, "analysis")
        wins, draws, losses = analysis["wdl"]
        assert wins + draws + losses == 1000
        chances = congo.Score(cp=int(analysis["score"])).wdl(ply=congo.Board().ply())
        assert analysis["wdl"] == [chances.wins, chances.draws, chances.losses]


def test_a_records_arrows_are_drawn(client: tuple[TestClient, str]) -> None:
    http, token = client
    record = "{[%cal Gc2c3,Rd1d2][%csl Ye6]} 1. c2c3 {[%cal Bd6d5]} 1... c6c5 *"
    with http.websocket_connect(f"/ws?token={token}&fen={CHAIN_FEN}") as ws:
        _receive(ws, "state")
        ws.send_json({"type": "load", "text": record})
        start = _receive(ws, "state")
        assert start["arrows"] == [
            {"tail": "c2", "head": "c3", "color": "green"},
            {"tail": "d1", "head": "d2", "color": "red"},
            {"tail": "e6", "head": "e6", "color": "yellow"},
        ]
        assert start["svg_white"].count('class="arrow"') == 3  # two arrows and a ring
        for color in ("green", "red", "yellow"):
            assert congo.svg.DEFAULT_COLORS[f"arrow {color}"] in start["svg_white"]
        # The first HTML of a tab opened on this game draws them too.
        page = http.get(f"/?token={token}&game={start['game']}").text
        assert congo.svg.DEFAULT_COLORS["arrow red"] in page
        ws.send_json({"type": "goto", "ply": 1})
        after = _receive(ws, "state")
        assert after["arrows"] == [{"tail": "d6", "head": "d5", "color": "blue"}]
        assert congo.svg.DEFAULT_COLORS["arrow blue"] in after["svg_white"]
        # The analysis's board keeps them under the best move's arrow.
        analysis = _receive(ws, "analysis")
        while analysis["fen"] != after["fen"] or "svg_white" not in analysis:
            analysis = _receive(ws, "analysis")
        assert analysis["svg_white"].count('class="arrow"') == 2
        assert congo.svg.DEFAULT_COLORS["arrow blue"] in analysis["svg_white"]
        ws.send_json({"type": "goto", "ply": 2})
        assert _receive(ws, "state")["arrows"] == []
        ws.send_json({"type": "save"})  # written back as they were
        saved = pgn.read_game(io.StringIO(_receive(ws, "record")["text"]))
        assert saved is not None
        assert saved.comment == "[%cal Gc2c3,Rd1d2][%csl Ye6]"
        assert saved.variations[0].comment == "[%cal Bd6d5]"


@pytest.mark.usefixtures("slow_to_start")
def test_one_engine_plays_through_new_games_and_takebacks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stopped search used to be left to end on an engine of its own, the next move taking a
    fresh engine (a new table at each New game or Takeback while it thought). The engine's move
    is now a task awaiting the engine; cancelled, its search stops even if not begun, and the next
    search on the same engine waits for it to end."""
    app, hub, token = _test_app()
    import concurrent.futures

    made: list[int] = []
    real = hub.new_engine

    def counted() -> Any:
        made.append(1)
        return real()

    monkeypatch.setattr(hub, "new_engine", counted)
    with TestClient(app) as http:
        with http.websocket_connect(f"/ws?token={token}&mode=play&side=black&limit=time:60") as ws:
            game = hub.games[_receive(ws, "state")["game"]]
            for _ in range(2):
                ws.send_json({"type": "new", "mode": "play", "side": "black", "limit": "nodes:300"})
                assert _receive(ws, "state")["moves"] == []
                assert len(_engine_reply(ws, 1)["moves"]) == 1
                ws.send_json({"type": "move", "move": "c6c5"})
                ws.send_json({"type": "takeback"})  # perhaps while the engine thinks its reply
                state = _receive(ws, "state")
                while len(state["moves"]) != 1:  # the states of c6c5 (and of the reply) first
                    state = _receive(ws, "state")
                assert state["turn"] == "b"  # back to the tab's turn
                ws.send_json({"type": "new", "mode": "play", "side": "black", "limit": "time:60"})
                assert _receive(ws, "state")["moves"] == []
            with game.lock:  # once the handler that published the state is done
                task = game.engine_task  # thinking a minute
            assert task is not None
            assert not task.done()
        # The last tab gone (the server hears of it soon after): the search is stopped.
        concurrent.futures.wait([task], timeout=60)
        assert task.cancelled()
    assert made == [1]  # one engine for the whole game
    assert hub.engines._thread is not None
    assert not hub.engines._thread.is_alive()  # the server stopped: its engine loop ended


# -- small things of the page ---------------------------------------------------------------------------


def test_favicon_is_answered_without_the_token(client: tuple[TestClient, str]) -> None:
    http, token = client
    assert http.get("/favicon.ico").status_code == 204
    assert http.get("/favicon.ico", headers={"Host": "evil.example"}).status_code == 403
    assert '<link rel="icon" href="data:,">' in http.get(f"/?token={token}").text


def test_the_strength_menu_starts_at_the_server_default(client: tuple[TestClient, str]) -> None:
    from congo.serve.session import DEFAULT_LIMIT

    http, token = client
    page = http.get(f"/?token={token}").text
    chosen = re.findall(r'<option value="([^"]+)" selected>', page)
    assert chosen == [DEFAULT_LIMIT]
    with http.websocket_connect(f"/ws?token={token}") as ws:
        assert _receive(ws, "state")["limit"] == DEFAULT_LIMIT


def test_the_page_is_given_the_boards_geometry(client: tuple[TestClient, str]) -> None:
    """The page lays its square buttons over the drawn board by congo.svg's own geometry, as the
    server gives it, so that the two cannot disagree."""
    import html

    http, token = client
    found = re.search(r'<body data-config="([^"]*)"', http.get(f"/?token={token}").text)
    assert found is not None
    config = json.loads(html.unescape(found.group(1)))
    square, margin = congo.svg.SQUARE_SIZE, congo.svg.MARGIN
    assert (config["square"], config["margin"], config["board"]) == (square, margin, 7 * square + 2 * margin)
    drawn = str(congo.svg.board(congo.Board()))
    assert f'viewBox="0 0 {config["board"]} {config["board"]}"' in drawn


def test_the_first_html_shows_the_board(client: tuple[TestClient, str]) -> None:
    http, token = client
    page = http.get(f"/?token={token}&fen={CHAIN_FEN}").text
    drawn = re.search(r'<div id="svg" class="svg">(.*?)</div>\s*<div id="squares"', page, re.S)
    assert drawn is not None
    assert drawn.group(1) == str(congo.svg.board(congo.Board(CHAIN_FEN)))
    flipped = http.get(f"/?token={token}&mode=play&side=black").text
    assert str(congo.svg.board(congo.Board(), orientation=False)) in flipped
    main = http.get(f"/?token={token}").text
    assert str(congo.svg.board(congo.Board())) in main


# -- the command: interrupted matches -------------------------------------------------------------------


def _serve(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "congo", "serve", "--port", "0", "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    assert process.stdout is not None
    return process, process.stdout.readline().strip()


def _watch_until(url: str, games: int) -> None:
    """Watches the match view until ``games`` games are finished."""
    websockets_sync = pytest.importorskip("websockets.sync.client")
    token = url.split("token=")[1].split("&")[0]
    address = url.split("/?")[0].replace("http://", "ws://")
    for _ in range(600):  # the address is printed before the server listens
        try:
            ws = websockets_sync.connect(f"{address}/ws?token={token}&view=match", open_timeout=60)
            break
        except ConnectionRefusedError:
            time.sleep(0.05)
    else:
        raise AssertionError("the server did not answer")
    with ws:
        while True:
            message = json.loads(ws.recv(timeout=120))
            if message["type"] == "match" and message["games"] >= games:
                return


def test_a_serve_stopped_by_an_ignored_sigterm_still_says_it_was_stopped(tmp_path: Path) -> None:
    import signal

    # With SIGTERM ignored (inherited), the signal uvicorn raises again once stopped does not end
    # the process: the command's own record of the signal gives the status of an interruption.
    saved = tmp_path / "games.pgn"
    command = ["serve", "--port", "0", "--no-browser", "--match", "random", "random", "--games", "2000"]
    process = subprocess.Popen(
        [sys.executable, "-m", "congo", *command, "--save", str(saved)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGTERM, signal.SIG_IGN),
    )
    assert process.stdout is not None
    try:
        _watch_until(process.stdout.readline().strip(), 2)
        process.send_signal(signal.SIGTERM)
        status = process.wait(120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert status == 130
    assert "[Result" in saved.read_text()


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_a_stopped_match_saves_its_finished_games(tmp_path: Path, signal_name: str) -> None:
    import signal

    saved = tmp_path / "games.pgn"
    process, url = _serve(tmp_path, "--match", "random", "random", "--games", "2000", "--save", str(saved))
    try:
        _watch_until(url, 3)
        process.send_signal(getattr(signal, signal_name))
        status = process.wait(120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert status == (130 if signal_name == "SIGINT" else 128 + signal.SIGTERM)
    records = io.StringIO(saved.read_text())
    games = []
    while (game := pgn.read_game(records)) is not None:
        games.append(game)
    assert len(games) >= 3
    assert [game.headers["Round"] for game in games] == [str(n) for n in range(1, len(games) + 1)]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["games.pgn"]  # no temporary file left


def test_a_bad_save_path_is_refused_before_the_first_game(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "congo",
            "serve",
            "--port",
            "0",
            "--no-browser",
            "--match",
            "random",
            "random",
            "--save",
            str(tmp_path / "nonexistent" / "s.pgn"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert result.stdout == ""  # no address: no server, no game
    assert "s.pgn" in result.stderr
    assert "Traceback" not in result.stderr


def test_ctrl_c_kills_an_outside_engine_stuck_in_its_handshake(tmp_path: Path) -> None:
    import signal

    script = "import os, time; open('engine.pid', 'w').write(str(os.getpid())); time.sleep(600)"
    hung = f'{sys.executable} -c "{script}"'
    process, _url = _serve(tmp_path, "--match", "random", f"uci:{hung}", "--games", "2")
    pid_file = tmp_path / "engine.pid"
    try:
        for _ in range(1200):  # the engine is started and waits in its handshake
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.05)
        pid = int(pid_file.read_text())
        process.send_signal(signal.SIGINT)
        # Prompt: not after the handshake's 30 s timeout (what waiting for the engine took). The
        # bound only tells a stop from a hang: stopping takes about a second.
        assert process.wait(15) == 130
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    for _ in range(200):  # killed, and reaped once its parent is gone
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        raise AssertionError("the outside engine was left running after Ctrl-C")
    assert list(tmp_path.iterdir()) == [pid_file]


def test_congo_serve_accepts_its_own_printed_address(tmp_path: Path) -> None:
    import signal
    import urllib.error
    import urllib.request

    process, url = _serve(tmp_path, "--host", "127.1.2.3")
    try:
        assert url.startswith("http://127.1.2.3:")
        for _ in range(600):
            try:
                with urllib.request.urlopen(url, timeout=60) as response:
                    assert response.status == 200
                break
            except urllib.error.HTTPError:
                raise  # refused (403): the failure this test is about
            except OSError:  # not listening yet
                time.sleep(0.05)
        else:
            raise AssertionError("the server did not answer")
        process.send_signal(signal.SIGINT)
        assert process.wait(60) == 130
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# -- the page in Chromium -------------------------------------------------------------------------


class Server:
    """The app served by uvicorn on a free loopback port, in a thread of the test process."""

    def __init__(self, hub_setup: Any = None) -> None:
        app, self.hub, self.token = create_app(Settings(analysis_limit=Limit(time=20.0)))
        if hub_setup is not None:
            hub_setup(self.hub)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.server = uvicorn.Server(server_config(app))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.05)
        self.sock = sock

    def url(self, **query: str) -> str:
        from urllib.parse import urlencode

        return f"http://127.0.0.1:{self.port}/?{urlencode({'token': self.token, **query})}"

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


if MISSING_BROWSER is None:
    from playwright.sync_api import Browser, Page, expect, sync_playwright


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server()
    yield running
    running.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if MISSING_BROWSER is not None:
        pytest.fail(f"browser tests cannot run under CI: {MISSING_BROWSER}")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1100, "height": 800}, device_scale_factor=1)
    opened = context.new_page()
    opened.set_default_timeout(30_000)
    expect.set_options(timeout=30_000)
    yield opened
    context.close()


def shot(page: Page, name: str) -> bytes:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = page.screenshot(type="png")
    (SHOTS / f"{name}.png").write_bytes(data)
    return data


def board_image(page: Page) -> Any:
    from tests.test_browser import Image

    # A clip of the page rather than the element: the analysis may redraw the board meanwhile.
    box = page.locator("#svg").bounding_box()
    assert box is not None
    return Image(page.screenshot(type="png", clip=box))


def probe(image: Any, x: float, y: float) -> tuple[int, int, int]:
    """The pixel at (x, y) in the SVG's own units (355 wide with coordinates), whatever its size."""
    scale = image.width / (7 * congo.svg.SQUARE_SIZE + 40)
    return image.pixel(x * scale, y * scale)  # type: ignore[no-any-return]


def square(page: Page, name: str) -> Any:
    return page.locator(f'#board [data-square="{name}"]')


def open_board(page: Page, server: Server, **query: str) -> None:
    page.goto(server.url(**query))
    expect(page.locator("#board")).to_have_attribute("data-fen", query.get("fen", congo.STARTING_FEN))


def moves(page: Page) -> list[str]:
    return [
        str(x) for x in page.locator("[data-moves] [data-ply]").evaluate_all("e => e.map(x => x.dataset.uci)")
    ]


@needs_browser
def test_click_move_and_illegal_click(page: Page, server: Server) -> None:
    open_board(page, server, fen=congo.STARTING_FEN)
    expect(square(page, "b1")).to_have_attribute("aria-label", "b1, white monkey")
    expect(page.locator("[data-turn]").first).to_have_attribute("data-turn", "w")
    shot(page, "start")
    # An illegal click changes nothing.
    square(page, "c2").click()
    expect(square(page, "c3")).to_have_class("target")
    square(page, "c5").click()
    expect(square(page, "c3")).not_to_have_class("target")
    expect(page.locator("#board")).to_have_attribute("data-fen", congo.STARTING_FEN)
    assert moves(page) == []
    # A legal one plays.
    square(page, "c2").click()
    square(page, "c3").click()
    expect(page.locator("#board")).to_have_attribute("data-turn", "b")
    expect(page.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "c2c3")
    expected = congo.Board()
    expected.push_uci("c2c3")
    expect(page.locator("#board")).to_have_attribute("data-fen", expected.fen())
    # Last-move tint on c2 (yellow over the square).
    from tests.test_browser import centre, is_highlight

    image = board_image(page)
    x, y = centre(congo.C2, margin=20)
    assert is_highlight(probe(image, x - 15, y - 15)), probe(image, x - 15, y - 15)


@needs_browser
def test_drag_move(page: Page, server: Server) -> None:
    open_board(page, server, fen=congo.STARTING_FEN)
    square(page, "e2").drag_to(square(page, "e3"))
    expect(page.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "e2e3")
    # While a piece is dragged its targets show; dropped on one, it moves there.
    start, end = square(page, "e6").bounding_box(), square(page, "e5").bounding_box()
    assert start is not None
    assert end is not None
    page.mouse.move(start["x"] + 20, start["y"] + 20)
    page.mouse.down()
    page.mouse.move(start["x"] + 20, start["y"] + 40, steps=3)
    expect(square(page, "e5")).to_have_class("target")
    page.mouse.move(end["x"] + 20, end["y"] + 20, steps=3)
    page.mouse.up()
    expect(page.locator('[data-moves] [data-ply="2"]')).to_have_attribute("data-uci", "e6e5")


@needs_browser
def test_monkey_chain_that_takes_the_lion_ends_at_once(page: Page, server: Server) -> None:
    open_board(page, server, fen=CHAIN_FEN)
    for name in ("b1", "d3", "f5", "d7"):
        square(page, name).click()
    expect(page.locator("[data-result]")).to_have_attribute("data-result", "1-0")
    expect(page.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "b1d3f5d7")
    from tests.test_browser import centre, is_chain

    image = board_image(page)
    for a, b in ((congo.B1, congo.D3), (congo.D3, congo.F5)):
        (x1, y1), (x2, y2) = centre(a, margin=20), centre(b, margin=20)
        assert is_chain(probe(image, (x1 + x2) / 2, (y1 + y2) / 2))


@needs_browser
def test_monkey_chain_stopped_half_way(page: Page, server: Server) -> None:
    open_board(page, server, fen=CHAIN_FEN)
    square(page, "b1").click()
    square(page, "d3").click()
    stop = page.locator("[data-stop]")
    expect(stop).to_be_visible()
    expect(square(page, "f5")).to_have_class("target")
    shot(page, "mid-chain")
    from tests.test_browser import centre, is_chain

    image = board_image(page)
    (x1, y1), (x2, y2) = centre(congo.B1, margin=20), centre(congo.D3, margin=20)
    assert is_chain(probe(image, (x1 + x2) / 2, (y1 + y2) / 2))
    stop.click()
    expect(page.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "b1d3")
    expect(stop).to_be_hidden()
    # Esc cancels a chain half way.
    page.locator("#first").click()
    expect(page.locator("#board")).to_have_attribute("data-fen", CHAIN_FEN)
    square(page, "b1").click()
    square(page, "d3").click()
    expect(stop).to_be_visible()
    page.keyboard.press("Escape")
    expect(stop).to_be_hidden()
    expect(page.locator("#board")).to_have_attribute("data-fen", CHAIN_FEN)


@needs_browser
def test_typed_moves_and_keyboard_squares(page: Page, server: Server) -> None:
    open_board(page, server, fen=CHAIN_FEN)
    page.locator("#typed").fill("Mxd3x")
    expect(page.locator("#typed-list li")).to_have_count(3)
    page.locator("#typed").press("Enter")  # a prefix is not a move: an error, nothing played
    expect(page.locator("#error")).not_to_be_empty()
    page.locator("#typed").fill("b1-d3-f5")
    page.locator("#typed").press("Enter")
    expect(page.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "b1d3f5")
    # Keyboard: focus a square, move with the arrows, select with Enter.
    page.locator("#first").click()
    expect(page.locator("#board")).to_have_attribute("data-fen", CHAIN_FEN)
    square(page, "d1").focus()
    page.keyboard.press("Enter")
    expect(square(page, "d2")).to_have_class("target")
    page.keyboard.press("ArrowUp")
    expect(square(page, "d2")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "d1d2")
    expect(page.locator("[aria-live]")).not_to_be_empty()


@needs_browser
def test_shortcuts_flip_and_best_move(page: Page, server: Server) -> None:
    open_board(page, server, fen=CHAIN_FEN)
    a1 = square(page, "a1")
    below = a1.bounding_box()
    page.locator("h1").click()
    page.keyboard.press("f")
    page.wait_for_function(
        "y => document.querySelector('#board [data-square=a1]').getBoundingClientRect().top < y",
        arg=below["y"] if below else 0,
    )
    page.keyboard.press("f")
    # The lion can be taken: the search says so at depth 1 and ends (a mate in one is final).
    expect(page.locator("#analysis")).to_have_attribute("data-pv", re.compile(r"^b1d3f5d7"))
    page.keyboard.press(" ")
    expect(page.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "b1d3f5d7")
    expect(page.locator("[data-result]")).to_have_attribute("data-result", "1-0")
    expect(page.locator("[aria-live]")).to_contain_text("1-0")


@needs_browser
def test_phone_viewport_with_touch(browser: Browser, server: Server) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, has_touch=True, is_mobile=True
    )
    try:
        phone = context.new_page()
        phone.goto(server.url(fen=CHAIN_FEN))
        expect(phone.locator("#board")).to_have_attribute("data-fen", CHAIN_FEN)
        square(phone, "d1").tap()
        square(phone, "d2").tap()
        expect(phone.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "d1d2")
        shot(phone, "phone")
    finally:
        context.close()


@needs_browser
def test_analysis_depth_rises_and_restarts_after_a_move(page: Page, server: Server) -> None:
    open_board(page, server, fen=congo.STARTING_FEN, mode="analyse")
    panel = page.locator("#analysis")
    page.wait_for_function("() => +document.querySelector('#analysis').dataset.depth >= 4")
    assert panel.get_attribute("data-pv")
    assert panel.get_attribute("data-score")
    shot(page, "analysis")
    square(page, "c2").click()
    square(page, "c3").click()
    expected = congo.Board()
    expected.push_uci("c2c3")
    expect(panel).to_have_attribute("data-fen", expected.fen())
    page.wait_for_function(
        "fen => { const p = document.querySelector('#analysis');"
        " return p.dataset.fen === fen && +p.dataset.depth >= 3; }",
        arg=expected.fen(),
    )
    # The line is one of the new position's.
    first = str(panel.get_attribute("data-pv")).split()[0]
    assert first in {move.uci() for move in expected.legal_moves}


@needs_browser
def test_engine_replies_in_play_mode(page: Page, server: Server) -> None:
    open_board(page, server, mode="play", side="white", limit="nodes:200")
    square(page, "c2").click()
    square(page, "c3").click()
    expect(page.locator('[data-moves] [data-ply="2"]')).to_have_count(1)
    expect(page.locator("#board")).to_have_attribute("data-turn", "w")
    shot(page, "play")
    page.locator("#resign").click()
    expect(page.locator("[data-result]")).to_have_attribute("data-result", "0-1")


@needs_browser
def test_a_won_game_shows_its_result_as_the_score_and_nothing_is_refused(page: Page, server: Server) -> None:
    refused: list[str] = []
    page.on("response", lambda response: refused.append(response.url) if response.status >= 400 else None)
    open_board(page, server, fen=CHAIN_FEN)
    expect(page.locator("#limit")).to_have_value("time:1")  # what a new game will play at
    page.locator("#typed").fill("b1d3f5d7")
    page.locator("#typed").press("Enter")
    expect(page.locator("[data-result]")).to_have_attribute("data-result", "1-0")
    expect(page.locator("#score")).to_have_text("1-0")
    expect(page.locator("#evalfill")).to_have_attribute("style", re.compile(r"height: 100%"))
    assert refused == []  # no 403 for /favicon.ico


@needs_browser
def test_a_play_tab_with_many_legal_moves_lists_typed_matches(page: Page, server: Server) -> None:
    open_board(page, server, fen=MOST_MOVES_FEN)
    page.locator("#typed").fill("Lxe")
    expect(page.locator("#typed-list li")).to_have_text(["Le1", "Lxe2"])  # as the page matches them


@needs_browser
def test_the_board_is_drawn_before_the_script_runs(browser: Browser, server: Server) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        bare = context.new_page()
        bare.goto(server.url(fen=CHAIN_FEN))
        expect(bare.locator("#svg svg")).to_have_count(1)
    finally:
        context.close()


@needs_browser
def test_record_loaded_and_navigated_with_arrow_keys(page: Page, server: Server, tmp_path: Path) -> None:
    board = congo.Board()
    fens = [board.fen()]
    for uci in ("c2c3", "c6c5", "d1c2", "e6e5"):
        board.push_uci(uci)
        fens.append(board.fen())
    record = tmp_path / "game.pgn"
    record.write_text(str(pgn.Game.from_board(board)), encoding="utf-8")
    open_board(page, server, fen=CHAIN_FEN)
    page.locator("[data-load]").set_input_files(str(record))
    expect(page.locator("[data-moves] [data-ply]")).to_have_count(4)
    expect(page.locator("#board")).to_have_attribute("data-fen", fens[0])
    page.locator("h1").click()
    for ply in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#board")).to_have_attribute("data-fen", fens[ply])
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#board")).to_have_attribute("data-fen", fens[2])
    page.keyboard.press("End")
    expect(page.locator("#board")).to_have_attribute("data-fen", fens[4])
    page.keyboard.press("Home")
    expect(page.locator("#board")).to_have_attribute("data-fen", fens[0])
    page.locator('[data-moves] [data-ply="3"]').click()
    expect(page.locator("#board")).to_have_attribute("data-fen", fens[3])
    # Save: a download of the record.
    with page.expect_download() as download:
        page.locator("#save").click()
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    game = pgn.read_game(io.StringIO(saved))
    assert game is not None
    assert [m.uci() for m in game.mainline_moves()] == ["c2c3", "c6c5", "d1c2", "e6e5"]


def open_second_tab(page: Page) -> Page:
    """Another tab of the same browser at the address the page has now (``game=`` in it)."""
    page.wait_for_function("() => location.search.includes('game=')")
    # The address as the page has it now: Playwright's page.url learns of history.replaceState
    # through an event that may come later (the old address would open a game of its own).
    address = str(page.evaluate("location.href"))
    assert "game=" in address
    other = page.context.new_page()
    other.goto(address)
    return other


def fen_after(fen: str, *moves: str) -> str:
    board = congo.Board(fen)
    for uci in moves:
        board.push_uci(uci)
    return board.fen()


@needs_browser
def test_two_tabs_stay_in_sync(browser: Browser, page: Page, server: Server) -> None:
    open_board(page, server, fen=CHAIN_FEN)
    other = open_second_tab(page)
    expect(other.locator("#board")).to_have_attribute("data-fen", CHAIN_FEN)
    square(page, "b1").click()
    square(page, "b2").click()
    expect(other.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "b1b2")
    # Both tabs show the position after the move. (Each tab hears of it on its own socket, in no
    # set order: this test once read the first tab's board the moment the second showed the move,
    # and in about one run in six that was before the first tab had heard of it; see the next test.)
    for tab in (page, other):
        expect(tab.locator("#board")).to_have_attribute("data-fen", fen_after(CHAIN_FEN, "b1b2"))
    other.locator("#first").click()
    expect(page.locator("#board")).to_have_attribute("data-fen", CHAIN_FEN)
    # Another first move starts a variation; the first line stays one click away, in both tabs.
    square(page, "b1").click()
    square(page, "a1").click()
    expect(other.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "b1a1")
    variation = other.locator('[data-moves] [data-variation="1"]')
    expect(variation).to_have_attribute("data-uci", "b1b2")
    variation.click()
    expect(page.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "b1b2")


def hold_frames(page: Page) -> tuple[list[str | bytes], list[bool], list[Any]]:
    """Routes the page's socket through the test: the server's messages pass through, unless
    ``holding[0]`` is set, when they are kept in ``held`` (``routes[0].send`` delivers them later)."""
    held: list[str | bytes] = []
    holding = [False]
    routes: list[Any] = []

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()
        routes.append(ws)
        upstream.on_message(lambda message: held.append(message) if holding[0] else ws.send(message))

    page.route_web_socket(re.compile(r"/ws\?"), route)
    return held, holding, routes


@needs_browser
def test_a_tab_that_hears_of_a_move_last_catches_up(browser: Browser, page: Page, server: Server) -> None:
    """The order that test_two_tabs_stay_in_sync met by chance, forced: the server's messages to the
    tab that played are held back until the other tab shows the move, then delivered."""
    held, holding, routes = hold_frames(page)
    open_board(page, server, fen=CHAIN_FEN)
    other = open_second_tab(page)
    expect(other.locator("#board")).to_have_attribute("data-fen", CHAIN_FEN)
    square(page, "b1").click()
    expect(square(page, "b2")).to_have_class(re.compile(r"\btarget\b"))
    holding[0] = True
    square(page, "b2").click()
    moved = fen_after(CHAIN_FEN, "b1b2")
    expect(other.locator("#board")).to_have_attribute("data-fen", moved)
    # The moment the old assertion looked: the tab that played has not heard of its move yet.
    assert page.locator("#board").get_attribute("data-fen") == CHAIN_FEN
    for _ in range(200):  # until the route has the new state (it is told only while Playwright runs)
        if "state" in [json.loads(message)["type"] for message in held]:
            break
        page.wait_for_timeout(50)
    assert "state" in [json.loads(message)["type"] for message in held]
    holding[0] = False
    for message in held:
        routes[0].send(message)
    expect(page.locator("#board")).to_have_attribute("data-fen", moved)
    expect(page.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "b1b2")
    # And it plays on, the other tab following.
    square(page, "e6").click()
    square(page, "e5").click()
    expect(other.locator('[data-moves] [data-ply="2"]')).to_have_attribute("data-uci", "e6e5")
    for tab in (page, other):
        expect(tab.locator("#board")).to_have_attribute("data-fen", fen_after(CHAIN_FEN, "b1b2", "e6e5"))


@needs_browser
def test_an_answer_about_a_position_gone_is_dropped(browser: Browser, page: Page, server: Server) -> None:
    """A tab asks what its clicked piece may do; before the answer comes, another tab moves. When
    the answer arrives after the new position (the server answers outside the game's lock, so this
    order happens), the page drops it rather than show the old position's targets on the new board."""
    held, holding, routes = hold_frames(page)
    open_board(page, server, fen=CHAIN_FEN)
    other = open_second_tab(page)
    expect(other.locator("#board")).to_have_attribute("data-fen", CHAIN_FEN)
    holding[0] = True
    square(page, "b1").click()  # its answer (b1's targets in the position now) is held
    other.locator("#typed").fill("b1b2")
    other.locator("#typed").press("Enter")
    moved = fen_after(CHAIN_FEN, "b1b2")
    expect(other.locator("#board")).to_have_attribute("data-fen", moved)

    def kinds() -> list[str]:
        return [json.loads(message)["type"] for message in held]

    for _ in range(200):  # until the route has both: the answer, then the other tab's move
        if "choices" in kinds() and "state" in kinds():
            break
        page.wait_for_timeout(50)
    answer = held[kinds().index("choices")]
    new_state = held[kinds().index("state")]
    assert json.loads(answer)["targets"]  # b1's targets in the old position
    holding[0] = False
    routes[0].send(new_state)  # delivered the other way round: the new position first
    routes[0].send(answer)
    with page.expect_download():  # a message after them: once it is here, both have been handled
        routes[0].send(json.dumps({"type": "record", "text": "1. Mb2 *"}))
    expect(page.locator("#board")).to_have_attribute("data-fen", moved)
    assert page.locator("#squares .selected, #squares .target").count() == 0
    # The tab goes on: a click now is answered about the position it shows.
    square(page, "e6").click()
    expect(square(page, "e5")).to_have_class(re.compile(r"\btarget\b"))


def type_move(page: Page, text: str) -> None:
    page.locator("#typed").fill(text)
    page.locator("#typed").press("Enter")


def server_moves(server: Server, page: Page) -> list[str]:
    """The line of the page's game as the server has it."""
    game_id = str(page.evaluate("new URLSearchParams(location.search).get('game')"))
    game = server.hub.games[game_id]
    with game.lock:
        return [move.uci() for move in game.moves]


@needs_browser
def test_the_page_rebuilds_its_move_list_from_the_changes(page: Page, server: Server) -> None:
    """Each state carries the move list's entries from the first that changed: the page keeps the
    rest, through moves, a takeback, a loaded record, a variation and a new game."""
    open_board(page, server, fen=congo.STARTING_FEN, mode="analyse")
    for ply, uci in enumerate(("c2c3", "c6c5", "d1c2"), 1):
        type_move(page, uci)
        expect(page.locator(f'[data-moves] [data-ply="{ply}"]')).to_have_attribute("data-uci", uci)
    assert moves(page) == ["c2c3", "c6c5", "d1c2"] == server_moves(server, page)
    page.locator("#takeback").click()
    expect(page.locator("[data-moves] [data-ply]")).to_have_count(2)
    assert moves(page) == ["c2c3", "c6c5"]
    # A long record, then a move at its end and another line from the middle.
    record = _long_record(300)
    page.locator("#paste").fill(str(record))
    page.locator("#load-paste").click()
    expect(page.locator("[data-moves] [data-ply]")).to_have_count(300)
    expected = [move.uci() for move in record.mainline_moves()]
    assert moves(page) == expected
    page.locator("h1").click()
    page.keyboard.press("End")
    end = fen_after(congo.STARTING_FEN, *expected)
    expect(page.locator("#board")).to_have_attribute("data-fen", end)
    extra = sorted(congo.Board(end).legal_moves, key=lambda m: m.uci())[0].uci()
    type_move(page, extra)
    expect(page.locator("[data-moves] [data-ply]")).to_have_count(301)
    assert moves(page) == [*expected, extra] == server_moves(server, page)
    page.locator('[data-moves] [data-ply="100"]').click()
    expect(page.locator("#board")).to_have_attribute(
        "data-fen", fen_after(congo.STARTING_FEN, *expected[:100])
    )
    other = next(
        m.uci()
        for m in congo.Board(fen_after(congo.STARTING_FEN, *expected[:100])).legal_moves
        if m.uci() != expected[100]
    )
    type_move(page, other)
    expect(page.locator("[data-moves] [data-ply]")).to_have_count(101)
    assert moves(page) == [*expected[:100], other] == server_moves(server, page)
    expect(page.locator('[data-moves] [data-variation="101"]')).to_have_attribute("data-uci", expected[100])
    # A new game: the list from nothing.
    page.locator("#new-game").click()
    expect(page.locator("[data-moves] [data-ply]")).to_have_count(0)
    type_move(page, "c2c3")
    expect(page.locator("[data-moves] [data-ply]")).to_have_count(2)  # the engine replied
    assert moves(page) == server_moves(server, page)


@needs_browser
def test_a_page_that_misses_a_change_asks_for_the_whole_state(page: Page, server: Server) -> None:
    held, holding, _ = hold_frames(page)
    open_board(page, server, fen=CHAIN_FEN)
    type_move(page, "b1b2")
    expect(page.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "b1b2")
    holding[0] = True
    type_move(page, "e6e5")
    for _ in range(200):  # until the route has the state the page is to miss
        if "state" in [json.loads(message)["type"] for message in held]:
            break
        page.wait_for_timeout(50)
    assert "state" in [json.loads(message)["type"] for message in held]
    holding[0] = False
    held.clear()  # lost: the page never hears of e6e5
    assert moves(page) == ["b1b2"]
    type_move(page, "d1d2")  # the next change is to a version the page does not have
    expect(page.locator("[data-moves] [data-ply]")).to_have_count(3)
    assert moves(page) == ["b1b2", "e6e5", "d1d2"] == server_moves(server, page)
    expect(page.locator("#board")).to_have_attribute("data-fen", fen_after(CHAIN_FEN, "b1b2", "e6e5", "d1d2"))


@needs_browser
def test_the_page_shows_win_draw_loss_and_a_records_arrows(page: Page, server: Server) -> None:
    open_board(page, server, fen=CHAIN_FEN)
    # The engine's chances beside the evaluation bar (a mate in one: White wins).
    expect(page.locator("#wdl")).to_have_attribute("data-wdl", "1000 0 0")
    expect(page.locator("#wdl")).to_contain_text("White 100%")
    record = "{[%cal Rc2c3][%csl Gd1]} 1. c2c3 c6c5 *"
    page.locator("#paste").fill(record)
    page.locator("#load-paste").click()
    expect(page.locator("#board")).to_have_attribute("data-fen", congo.STARTING_FEN)
    red = congo.svg.DEFAULT_COLORS["arrow red"]
    expect(page.locator(f'#svg svg g.arrow polyline[stroke="{red}"]')).to_have_count(1)
    wdl = page.locator("#wdl")
    page.wait_for_function("() => document.querySelector('#wdl').dataset.wdl !== ''")
    wins, draws, losses = (int(x) for x in str(wdl.get_attribute("data-wdl")).split())
    assert wins + draws + losses == 1000
    page.locator("h1").click()
    page.keyboard.press("ArrowRight")  # no arrows on the next position
    expect(page.locator("#board")).to_have_attribute("data-fen", fen_after(congo.STARTING_FEN, "c2c3"))
    expect(page.locator(f'#svg svg g.arrow polyline[stroke="{red}"]')).to_have_count(0)


@needs_browser
def test_a_turned_board_is_drawn_from_its_side(page: Page, server: Server) -> None:
    """The server sends each tab the board from its side: turned, the page says so and is sent the
    board drawn for Black (the white monkey of b1 at the top right), then each move so drawn."""
    open_board(page, server, fen=CHAIN_FEN)
    page.locator("#flip").click()
    top_right = "use[href='#congo-white-monkey'][x='245'][y='20']"  # b1 seen from Black's side
    expect(page.locator(f"#svg svg {top_right}")).to_have_count(1)
    image = board_image(page)
    from tests.test_browser import centre, is_light

    x, y = centre(congo.B1, margin=20, flipped=True)
    assert is_light(probe(image, x, y + 16))  # the white monkey's disc, where Black's view has it
    square(page, "b1").click()
    square(page, "b2").click()
    expect(page.locator('[data-moves] [data-ply="1"]')).to_have_attribute("data-uci", "b1b2")
    x, y = centre(congo.B2, margin=20, flipped=True)
    page.wait_for_function(
        "fen => document.querySelector('#svg svg title').textContent === fen",
        arg=fen_after(CHAIN_FEN, "b1b2"),
    )
    assert is_light(probe(board_image(page), x, y + 16))


@needs_browser
def test_match_streamed_to_its_end(page: Page) -> None:
    def setup(hub: Any) -> None:
        hub.match = MatchWatch("random", "greedy", games=2)

    running = Server(setup)
    try:
        page.goto(running.url(mode="match"))
        info = page.locator("[data-match-score]")
        page.wait_for_function("() => document.querySelector('#m-board').dataset.fen !== ''")
        shot(page, "match")
        expect(info).to_have_attribute("data-games", "2", timeout=120_000)
        first, second = (float(x) for x in str(info.get_attribute("data-match-score")).split("-"))
        assert first + second == 2
        expect(page.locator("#m-finished li")).to_have_count(2)
    finally:
        running.close()


def test_going_through_a_long_game_does_not_recompute_its_move_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step through a game sent the SAN of every move again (a long record cost that at every
    arrow key); the list is kept while the line and its variations stay the same, and made again
    from the first ply that changed when they change."""
    from congo.serve.session import BoardSession

    _, hub, _ = _test_app()
    game = BoardSession(hub, "long")
    published: list[dict[str, Any]] = []
    game.publish = lambda message, whole=None: published.append(message)  # type: ignore[method-assign]
    board = congo.Board()
    record = pgn.Game()
    node: pgn.GameNode = record
    for _ in range(120):
        if board.is_game_over():
            break
        move = sorted(board.legal_moves, key=lambda m: m.uci())[0]
        node = node.add_variation(move)
        board.push(move)
    game.load(record)
    first = published[-1]["moves"]
    assert published[-1]["full"]
    assert first == game.state(whole=True)["moves"]
    calls: list[int] = []
    san = congo.Board.san

    def counted(self: congo.Board, move: congo.Move) -> str:
        calls.append(1)
        return san(self, move)

    monkeypatch.setattr(congo.Board, "san", counted)
    game.go_to(len(first) // 2)
    state = published[-1]
    assert (state["moves"], state["moves_from"], state["version"]) == (
        [],
        len(first),
        published[-2]["version"],
    )
    assert game.state(whole=True)["moves"] == first
    legal = state["legal"]
    assert len(calls) <= (len(legal) if legal is not None else 0) * 2  # the legal moves' SAN only
    game.go_to(3)
    calls.clear()
    game.enter_move(sorted(game.board().legal_moves, key=lambda m: m.uci())[-1].uci())
    changed = published[-1]
    assert (changed["base"], changed["version"]) == (published[-2]["version"], published[-2]["version"] + 1)
    assert changed["moves_from"] == 3  # a new line from ply 4: the three before it are kept
    assert len(changed["moves"]) == 1
    assert changed["moves"][0]["variations"][0]["uci"] == first[3]["uci"]  # the old line, now a variation
    legal = changed["legal"]
    assert len(calls) <= 2 + (len(legal) if legal is not None else 0)  # ply 4, its variation, the legal moves
    whole = game.state(whole=True)["moves"]
    assert whole[:3] == first[:3]
    assert len(whole) == 4
