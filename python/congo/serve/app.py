"""The server of ``congo serve``: a Starlette application with one page, its static files and a
WebSocket per browser tab.

The server is authoritative: the page shows what the server sends (the board as ``congo.svg``
renders it, the legal moves, the chain continuations) and asks for everything else; every move is
checked here. Every request needs the access token (``?token=``), one ``Host`` header naming this
machine, and (when the browser sends one) an ``Origin`` of this server (scheme, host and port);
WebSocket messages are capped at :data:`MAX_MESSAGE` bytes.

Every per-connection resource is bounded, so that one tab cannot stall another: the messages
waiting to be sent to a tab (:data:`MAX_QUEUE`; a tab that does not read them is closed) and those
waiting to be handled (:data:`MAX_INBOX`; those of a tab that has gone are dropped), the sockets
per game and in all (:class:`Settings`), the legal moves sent with a position
(:data:`MAX_LEGAL_SENT`; beyond that they are asked for as they are typed), and the time a request
may take to arrive (:data:`REQUEST_TIMEOUT`). A message for every tab of a game is serialised once.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import hmac
import html
import io
import ipaddress
import json
import re
import secrets
import threading
from collections.abc import AsyncIterator, Mapping
from importlib import resources
from typing import Any, Callable
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

import congo.svg
from congo import _core, pgn
from congo._core import Move
from congo.board import Board
from congo.engine import Engine, Limit, Score
from congo.pieces import PIECE_NAMES
from congo.squares import FILE_NAMES, RANK_NAMES
from congo.tablebase import Tablebase

__all__ = ["LOOPBACK_HOSTS", "MAX_MESSAGE", "Hub", "create_app", "parse_limit", "server_config"]

MAX_MESSAGE = 1 << 20
"""The largest WebSocket message accepted, in bytes (a pasted record must fit)."""
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
MAX_GAMES_KEPT = 64
"""Games (tabs opened with their own position) kept at once; the oldest unwatched go first."""
MAX_QUEUE = 64
"""Messages waiting to be sent to one tab: a tab that lets more pile up is closed (code 1008)."""
MAX_INBOX = 64
"""Messages from one tab waiting to be handled: a tab that sends more at once is closed (1008)."""
MAX_LEGAL_SENT = 256
"""Legal moves sent with a position (with their SAN). A position with more (up to 25,786) sends
only their number; the page asks for the moves that match what is typed (``complete``)."""
MAX_COMPLETIONS = 12
"""Moves sent in answer to a ``complete``."""
REQUEST_TIMEOUT = 10.0
"""Seconds a connection may take to send a whole request (its headers) before it is closed."""
MAX_CONNECTIONS = 256
"""Connections and requests served at once; beyond that uvicorn answers 503."""
DEFAULT_LIMIT = "time:1"
"""The engine's strength in a new game, and the one the page's menu shows first."""
LIMIT_CHOICES = (
    ("nodes:2000", "2,000 nodes"),
    ("nodes:20000", "20,000 nodes"),
    ("depth:4", "depth 4"),
    ("depth:8", "depth 8"),
    ("time:1", "1 second"),
    ("time:5", "5 seconds"),
)

STATIC_FILES = {"app.js": "text/javascript", "style.css": "text/css"}


def square_name(sq: int) -> str:
    return FILE_NAMES[sq % 7] + RANK_NAMES[sq // 7]


def parse_square(name: object) -> int:
    if not isinstance(name, str) or len(name) != 2 or name[0] not in FILE_NAMES or name[1] not in RANK_NAMES:
        raise ValueError(f"not a square: {name!r}")
    return FILE_NAMES.index(name[0]) + 7 * RANK_NAMES.index(name[1])


def parse_limit(text: str) -> Limit:
    """``nodes:N``, ``depth:D`` or ``time:S`` as a :class:`~congo.Limit`; raises ``ValueError``."""
    kind, _, value = text.partition(":")
    try:
        if kind == "nodes":
            return Limit(nodes=int(value))
        if kind == "depth":
            return Limit(depth=int(value))
        if kind == "time":
            return Limit(time=float(value))
    except (TypeError, ValueError) as error:
        raise ValueError(f"bad limit {text!r}: {error}") from None
    raise ValueError(f"a limit is nodes:N, depth:D or time:S, got {text!r}")


def white_score(score: Score, white_to_move: bool) -> str:
    """A score from White's point of view as the page shows it: ``35``, ``-120``, ``#3``, ``#-2``."""
    if not white_to_move:
        score = -score
    if score.mate is not None:
        return f"#{score.mate}"
    return str(score.cp or 0)


def encode(message: Mapping[str, Any]) -> str:
    """A message as the text sent (once, however many tabs it goes to)."""
    return json.dumps(message, default=str)


def piece_names(board: Board) -> dict[str, str]:
    return {
        square_name(sq): f"{'white' if p.color else 'black'} {PIECE_NAMES[p.piece_type]}"
        for sq, p in board.piece_map().items()
    }


# -- the shared state ---------------------------------------------------------------------------


OVERFLOW = "overflow"
"""What a tab's queue holds once it let more than :data:`MAX_QUEUE` messages pile up."""


class Subscriber:
    """One WebSocket: messages (serialised, or dicts serialised here) are handed to its event loop
    from any thread. A message that only says what is now (a state, an analysis, a match's move)
    replaces one of its kind that is last in the queue, unsent; at most :data:`MAX_QUEUE` wait, and
    a tab that lets more pile up is given up on (its queue emptied, the socket closed)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending: collections.deque[tuple[str | None, str | None]] = collections.deque()
        self.closed = False
        self._ready = asyncio.Event()

    def send(self, message: Mapping[str, Any] | str | None, *, replaces: str | None = None) -> None:
        """Queues a message (``None``: the end); ``replaces`` names its kind, for one that
        supersedes the last queued of that kind."""
        text = message if message is None or isinstance(message, str) else encode(message)
        with contextlib.suppress(RuntimeError):  # a closed loop: the tab is gone
            self.loop.call_soon_threadsafe(self._put, text, replaces)

    def _put(self, text: str | None, replaces: str | None) -> None:
        """On the event loop: queues a message, or gives up on a tab that does not read."""
        if self.closed:
            return
        if replaces is not None and self.pending and self.pending[-1][0] == replaces:
            self.pending[-1] = (replaces, text)
        elif text is not None and len(self.pending) >= MAX_QUEUE:
            self.closed = True
            self.pending.clear()
            self.pending.append((None, OVERFLOW))
        else:
            self.pending.append((replaces, text))
        self._ready.set()

    async def get(self) -> str | None:
        """The next message to send (on the event loop)."""
        while not self.pending:
            self._ready.clear()
            await self._ready.wait()
        return self.pending.popleft()[1]


class Analyser:
    """Runs the engine on one position at a time in a thread, restarting at once on a change."""

    def __init__(self, engine: Engine, publish: Callable[[dict[str, Any]], None], limit: Limit) -> None:
        self.engine = engine
        self.publish = publish
        self.limit = limit
        self.multipv = 1
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._generation = 0

    @property
    def running(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive()

    def stop(self) -> None:
        with self._lock:
            self._generation += 1
            self._halt()

    def _halt(self) -> None:
        thread, self._thread = self._thread, None
        while thread is not None and thread.is_alive():
            # A stop sent before the search began is lost: send it until the thread ends.
            self.engine.stop()
            thread.join(0.01)

    def start(self, board: Board, lastmove: Move | None = None) -> None:
        with self._lock:
            self._generation += 1
            self._halt()
            if board.outcome(claim_draw=True) is not None:
                return
            generation = self._generation
            thread = threading.Thread(
                target=self._run,
                args=(board.copy(), generation, lastmove),
                name="congo-serve-analysis",
                daemon=True,
            )
            self._thread = thread
            thread.start()

    def _run(self, board: Board, generation: int, lastmove: Move | None) -> None:
        lines: dict[int, dict[str, Any]] = {}
        drawn: tuple[Move | None, dict[str, str]] = (None, {})
        white = board.turn
        fen = board.fen()
        try:
            for info in self.engine.analysis(board, self.limit, multipv=self.multipv):
                if generation != self._generation:
                    break
                lines[info.multipv] = {
                    "rank": info.multipv,
                    "depth": info.depth,
                    "score": white_score(info.score, white),
                    "pv": " ".join(move.uci() for move in info.pv),
                    "san": board.variation_san(info.pv) if info.pv else "",
                }
                if info.multipv == 1 and info.pv and info.pv[0] != drawn[0]:
                    # The board with the best move's arrow (drawn again only when it changes).
                    svgs = {
                        f"svg_{side}": str(
                            congo.svg.board(
                                board, orientation=side == "white", lastmove=lastmove, arrows=[info.pv[0]]
                            )
                        )
                        for side in ("white", "black")
                    }
                    drawn = (info.pv[0], svgs)
                # One message per iteration, once its last line is in.
                if info.multipv != len(lines) or info.multipv < min(self.multipv, len(lines)):
                    continue
                best = lines[1]
                self.publish(
                    {
                        "type": "analysis",
                        "fen": fen,
                        "depth": best["depth"],
                        "score": best["score"],
                        "pv": best["pv"],
                        "nps": info.nps,
                        "nodes": info.nodes,
                        "lines": [lines[rank] for rank in sorted(lines)],
                        "best": None if drawn[0] is None else drawn[0].uci(),
                        **drawn[1],
                    }
                )
        except Exception as error:  # reported to the page; the server goes on
            self.publish({"type": "error", "message": f"analysis stopped: {error}"})


@dataclasses.dataclass
class Settings:
    """What the command line chose."""

    tablebase: str | None = None
    threads: int = 1
    hash_mb: int = _core.GAME_POOL_HASH_MB
    analysis_limit: Limit = dataclasses.field(default_factory=lambda: Limit(time=120.0))
    allowed_hosts: frozenset[str] = LOOPBACK_HOSTS
    any_address: bool = False
    """Listening on every address (``0.0.0.0``, ``::``): a ``Host`` that is an IP address is this
    machine's (an address, unlike a name, cannot be rebound to another machine by DNS)."""
    max_sockets: int = 64
    """WebSockets open at once, over all tabs."""
    max_sockets_per_game: int = 16
    """WebSockets open at once on one game (or on the match)."""


class Game:
    """One game: a start position, a line of moves and a cursor into it, shared by the tabs that
    show it. Its methods run on worker threads, one at a time (``lock``)."""

    def __init__(self, hub: Hub, game_id: str, fen: str | None = None) -> None:
        self.hub = hub
        self.id = game_id
        self.lock = threading.RLock()
        self.subscribers: set[Subscriber] = set()
        self.tree = pgn.Game()
        self.tip: pgn.GameNode = self.tree  # the end of the line shown
        self.root = Board()
        self.cursor = 0
        self.mode = "analyse"
        self.human = True
        self.limit_text = DEFAULT_LIMIT
        self.think_thread: threading.Thread | None = None
        self.resigned: bool | None = None  # the side that resigned
        self.analyser: Analyser | None = None
        self.player: Engine | None = None
        self.thinking = 0  # the generation of the engine's move being searched (0: none)
        self.generation = 0
        self.last_analysis: dict[str, Any] | None = None

    # -- the tree of moves (a congo.pgn game with its variations) and the line shown

    def reset(self, root: Board, tree: pgn.Game | None = None) -> None:
        """A new game from ``root`` (or the record ``tree``), at its start."""
        if tree is None:
            tree = pgn.Game()
            tree.setup(root)
        self.tree, self.tip, self.root = tree, tree.end(), tree.board()
        self.cursor = 0
        self.resigned = None

    @property
    def moves(self) -> list[Move]:
        """The moves of the line shown, from the start to its end."""
        line: list[Move] = []
        node: pgn.GameNode | None = self.tip
        while node is not None and node.move is not None:
            line.append(node.move)
            node = node.parent
        line.reverse()
        return line

    def node_at(self, ply: int) -> pgn.GameNode:
        """The line's node after ``ply`` moves."""
        node = self.tip
        for _ in range(len(self.moves) - ply):
            assert node.parent is not None
            node = node.parent
        return node

    def board(self, ply: int | None = None) -> Board:
        board = self.root.copy(stack=False)
        for move in self.moves[: self.cursor if ply is None else ply]:
            board.push(move)
        return board

    def result(self) -> tuple[str, str]:
        """The game's result (``1-0``, ``0-1``, ``1/2-1/2`` or ``""``) and why."""
        if self.resigned is not None:
            return ("0-1" if self.resigned else "1-0"), f"{'White' if self.resigned else 'Black'} resigned"
        outcome = self.board(len(self.moves)).outcome(claim_draw=True)
        if outcome is None:
            return "", ""
        return outcome.result(), outcome.termination.name.lower().replace("_", " ")

    # -- messages

    def publish(self, message: dict[str, Any]) -> None:
        if message.get("type") == "analysis":
            self.last_analysis = message
        text = encode(message)  # once for every tab
        kind = message.get("type")
        replaces = kind if kind in ("state", "analysis") else None
        for subscriber in list(self.subscribers):
            subscriber.send(text, replaces=replaces)

    def render(self, board: Board, **extra: Any) -> dict[str, str]:
        return {
            "svg_white": congo.svg.board(board, orientation=True, **extra),
            "svg_black": congo.svg.board(board, orientation=False, **extra),
        }

    def state(self) -> dict[str, Any]:
        board = self.board()
        lastmove = self.moves[self.cursor - 1] if self.cursor else None
        replay = self.root.copy(stack=False)
        moves = []
        node: pgn.GameNode = self.tree
        for ply, move in enumerate(self.moves, 1):
            others = [
                {"uci": child.move.uci(), "san": replay.san(child.move)}
                for child in node.variations
                if child.move != move
            ]
            moves.append({"ply": ply, "uci": move.uci(), "san": replay.san(move), "variations": others})
            replay.push(move)
            node = node.variation(move)
        result, reason = self.result()
        over = bool(result) and self.cursor == len(self.moves)
        # The SAN of every legal move costs about 0.2 ms each: up to 25,786 of them would hold the
        # game's lock for seconds. Beyond MAX_LEGAL_SENT only their number is sent.
        legal_moves = [] if over else list(board.legal_moves)
        legal: list[dict[str, str]] | None = None
        if len(legal_moves) <= MAX_LEGAL_SENT:
            legal = [{"uci": m.uci(), "san": board.san(m)} for m in legal_moves]
        message: dict[str, Any] = {
            "type": "state",
            "game": self.id,
            "fen": board.fen(),
            "turn": "w" if board.turn else "b",
            "pieces": piece_names(board),
            "moves": moves,
            "cursor": self.cursor,
            "root": self.root.fen(),
            "result": result,
            "reason": reason,
            "mode": self.mode,
            "side": "white" if self.human else "black",
            "limit": self.limit_text,
            "legal": legal,
            "legal_count": len(legal_moves),
            "thinking": bool(self.thinking),
            "lastmove": None if lastmove is None else lastmove.uci(),
            "tablebase": self.hub.probe(board),
            **self.render(board, lastmove=lastmove),
        }
        return message

    def changed(self) -> None:
        """After every change: tell every tab, restart the analysis, let the engine move."""
        self.generation += 1
        self.publish(self.state())
        self.last_analysis = None
        board = self.board()
        if self.mode == "analyse" and self.subscribers:
            self.analyser_for().start(board, self.moves[self.cursor - 1] if self.cursor else None)
        elif self.analyser is not None:
            self.analyser.stop()
        self.resume(board)

    def resume(self, board: Board) -> None:
        """In play mode, starts the engine's move when it is its turn and it is not thinking."""
        result, _ = self.result()
        engine_to_move = (
            self.mode == "play"
            and not result
            and self.cursor == len(self.moves)
            and board.turn != self.human
            and not self.thinking
        )
        if engine_to_move:
            self.start_engine_move(board)

    def analyser_for(self) -> Analyser:
        if self.analyser is None:
            engine = self.hub.new_engine()
            self.analyser = Analyser(engine, self.publish, self.hub.settings.analysis_limit)
        return self.analyser

    def start_engine_move(self, board: Board) -> None:
        if self.player is None:
            self.player = self.hub.new_engine()
        engine = self.player
        limit = parse_limit(self.limit_text)
        generation = self.generation
        self.thinking = generation

        def think() -> None:
            try:
                found = engine.search(board, limit)
            except Exception as error:
                self.publish({"type": "error", "message": f"the engine failed: {error}"})
                return
            finally:
                with self.lock:
                    if self.thinking == generation:
                        self.thinking = 0
            with self.lock:
                if self.generation != generation or found.move is None:
                    return
                self.play(found.move)

        thread = threading.Thread(target=think, name="congo-serve-engine", daemon=True)
        self.think_thread = thread
        thread.start()

    def stop_engine(self) -> None:
        """Ends the engine's move in progress. Its stop is asynchronous (and one sent before its
        search began is lost), so the next move must not wait for it on the same engine (it would
        find it still searching): that engine is let go, stopped until its thread ends, and the
        next move gets a fresh one."""
        thread, engine = self.think_thread, self.player
        self.think_thread = None
        self.thinking = 0
        if engine is None or thread is None or not thread.is_alive():
            return
        self.player = None

        def halt() -> None:
            while thread.is_alive():
                engine.stop()
                thread.join(0.01)

        threading.Thread(target=halt, name="congo-serve-engine-stop", daemon=True).start()

    def play(self, move: Move) -> None:
        board = self.board()
        if not board.is_legal(move):
            raise ValueError(f"illegal move {move.uci()} in {board.fen()}")
        moves = self.moves
        if self.cursor < len(moves) and moves[self.cursor] == move:
            self.cursor += 1
        else:
            node = self.node_at(self.cursor)
            # A move already in the tree follows its line; a new one starts a variation.
            child = node.variation(move) if node.has_variation(move) else node.add_variation(move)
            self.tip = child.end()
            self.cursor += 1
        self.changed()

    def switch(self, ply: int, move: Move) -> None:
        """Shows the variation that plays ``move`` at ``ply`` (from 1) instead of the line's move."""
        if not 1 <= ply <= len(self.moves):
            raise ValueError(f"ply must be from 1 to {len(self.moves)}")
        node = self.node_at(ply - 1)
        if not node.has_variation(move):
            raise ValueError(f"no variation {move.uci()} at ply {ply}")
        self.tip = node.variation(move).end()
        self.cursor = ply
        self.changed()

    def cut(self) -> None:
        """Removes the moves after the cursor from the tree (a takeback)."""
        node = self.node_at(self.cursor)
        for child in list(node.variations):
            node.remove_variation(child.move)
        self.tip = node

    def close(self) -> None:
        """Stops the searches and lets the engines go (their tables are memory): the last tab left."""
        self.generation += 1
        if self.analyser is not None:
            self.analyser.stop()
        self.stop_engine()
        self.analyser = None
        self.player = None
        self.thinking = 0


class Busy(ValueError):
    """Too many tabs: the socket is closed with code 1013 (try again later)."""


class Hub:
    """Every game of a server, the engines' settings and the match being watched."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.games: dict[str, Game] = {}
        self.lock = threading.Lock()
        self.tablebase = Tablebase(self.settings.tablebase) if self.settings.tablebase else None
        self.match: Any = None  # a congo.serve.watch.MatchWatch when --match was given
        self.sockets = 0  # open WebSockets (counted on the event loop)
        self.games["main"] = Game(self, "main")

    def new_engine(self) -> Engine:
        return Engine(
            threads=self.settings.threads,
            hash_mb=self.settings.hash_mb,
            tablebase_path=self.settings.tablebase,
        )

    def probe(self, board: Board) -> dict[str, Any] | None:
        if self.tablebase is None or len(board.piece_map()) > self.tablebase.max_men:
            return None
        dtm = self.tablebase.probe_dtm(board)
        wdl = self.tablebase.probe_wdl(board)
        if dtm is None or wdl is None:
            return None
        # From White's point of view: "win", "draw" or "loss", and the plies to the end of the game.
        verdict = {1: "win", 0: "draw", -1: "loss"}[wdl if board.turn else -wdl]
        winner = "" if wdl == 0 else ("White" if (wdl > 0) == board.turn else "Black")
        text = "draw" if not winner else f"{winner} wins, {abs(dtm)} plies to the end"
        return {"wdl": verdict, "dtm": abs(dtm), "text": text}

    def game(self, game_id: str | None, fresh: bool, subscriber: Subscriber | None = None) -> Game:
        """The game a tab asked for: by its id, a new one (``fresh``: the tab set up its own), or
        the shared main game; ``subscriber`` (the tab) watches it from then on.

        Finding or making the game and subscribing are one step (under the hub's lock, which
        eviction also holds): a game is never evicted between being made and its tab watching it
        (the tab would be left on a game that no other tab could open)."""
        with self.lock:
            game = self._find(game_id, fresh)
            if subscriber is not None:
                with game.lock:
                    if len(game.subscribers) >= self.settings.max_sockets_per_game:
                        raise Busy(f"this game is open in {len(game.subscribers)} tabs already: close some")
                    game.subscribers.add(subscriber)
            return game

    def _find(self, game_id: str | None, fresh: bool) -> Game:
        if game_id and game_id in self.games:
            return self.games[game_id]
        if not fresh:
            return self.games["main"]
        if len(self.games) >= MAX_GAMES_KEPT:
            for key, old in list(self.games.items()):
                if key != "main" and not old.subscribers:
                    old.close()
                    del self.games[key]
                    break
            else:
                raise ValueError("too many games open: close some tabs")
        game = Game(self, secrets.token_hex(6))
        self.games[game.id] = game
        return game

    def first_board(self, params: Mapping[str, str]) -> str:
        """The board a page opened with ``params`` shows first, drawn into the page itself (the
        socket's state replaces it): the game it names, its ``fen``, or the main game."""
        white = params.get("side") != "black"
        if params.get("mode") == "match":
            watch = self.match
            if watch is None:
                return ""
            with watch.lock:
                return str(watch.current.get("svg", ""))
        game = self.games.get(params.get("game") or "")
        if game is not None or not (params.get("fen") or params.get("mode") == "play"):
            game = game or self.games["main"]
            with game.lock:
                board, lastmove = game.board(), game.moves[game.cursor - 1] if game.cursor else None
            return str(congo.svg.board(board, orientation=white, lastmove=lastmove))
        try:  # the tab's own game, not made yet
            fen = params.get("fen")
            board = Board(fen) if fen else Board()
        except ValueError:
            return ""  # the socket will say what is wrong with it
        return str(congo.svg.board(board, orientation=white))

    def close(self) -> None:
        if self.match is not None:  # first: its finished games are saved before anything else
            self.match.stop()
        for game in list(self.games.values()):
            game.close()


# -- handling a tab's messages ---------------------------------------------------------------------


def _path(message: Mapping[str, Any]) -> list[int]:
    squares = message.get("path")
    if not isinstance(squares, list) or not 1 <= len(squares) <= 16:
        raise ValueError("path must be a list of 1 to 16 squares")
    return [parse_square(name) for name in squares]


def choices(game: Game, path: list[int]) -> dict[str, Any]:
    """What may follow a partial path of squares: the next landings and whether it may stop here.
    A path that only one move has, with nothing after it, is that move: it is played.

    The answer names the position it is about (``fen``): it reaches the tab after the game's lock is
    let go, so another tab's move may reach it first, and the page drops an answer about a
    position it no longer shows."""
    board = game.board()
    fen = board.fen()
    result, _ = game.result()
    legal = [] if result and game.cursor == len(game.moves) else list(board.legal_moves)
    matching = [m for m in legal if list(m.path[: len(path)]) == path]
    exact = [m for m in matching if len(m.path) == len(path)]
    longer = [m for m in matching if len(m.path) > len(path)]
    if exact and not longer:
        game.play(exact[0])
        played = exact[0].uci()
        return {"type": "choices", "fen": fen, "path": [], "targets": [], "stop": False, "played": played}
    if not matching:
        return {"type": "choices", "fen": fen, "path": [], "targets": [], "stop": False}
    targets = sorted({square_name(m.path[len(path)]) for m in longer})
    message: dict[str, Any] = {
        "type": "choices",
        "fen": fen,
        "path": [square_name(sq) for sq in path],
        "targets": targets,
        "stop": bool(exact) and len(path) > 1,
    }
    if len(path) > 1:
        chain = congo.svg.DEFAULT_COLORS["chain"]
        legs = [congo.svg.Arrow(a, b, chain) for a, b in zip(path, path[1:])]
        # The monkey shown where it landed, each piece it jumped marked with a cross.
        shown = board.copy(stack=False)
        monkey = shown.remove_piece_at(path[0])
        shown.set_piece_at(path[-1], monkey)
        jumped = [(a + b) // 2 for a, b in zip(path, path[1:])]
        message.update(game.render(shown, arrows=legs, squares=jumped))
    return message


MAX_SAN_SCAN = 256
"""SANs computed at most for one ``complete`` (about 0.2 ms each in the worst position)."""


def _normalise(text: str) -> str:
    """What the page compares typed text by: lower case, no ``-``, ``x``, ``,``, ``+``, ``#``."""
    return re.sub(r"[-x,+#\s]", "", text.lower())


def _could_be_san(board: Board, uci: str, key: str) -> bool:
    """Whether a move's SAN, normalised, might start with ``key``: its piece's letter (none for a
    pawn, whose SAN starts with its file), perhaps its file, rank or square, then the squares it
    goes to (checked without computing the SAN, which costs a search of the legal moves)."""
    piece = board.piece_at(parse_square(uci[:2]))
    letter = "" if piece is None else piece.symbol().lower()
    rest = uci[2:]
    forms = (
        letter + rest,
        letter + uci[0] + rest,
        letter + uci[1] + rest,
        letter + uci[:2] + rest,
        uci[0] + rest,
    )
    return any(form.startswith(key) for form in forms)


def completions(game: Game, text: str) -> dict[str, Any]:
    """The legal moves that match typed text (its start), up to :data:`MAX_COMPLETIONS`: for a
    position with more legal moves than a state carries. Matched by machine notation, and by SAN
    for moves whose squares after the first fit (at most :data:`MAX_SAN_SCAN` SANs computed)."""
    board = game.board()
    result, _ = game.result()
    over = bool(result) and game.cursor == len(game.moves)
    key = _normalise(text)
    lowered = text.strip().lower()
    found: list[dict[str, str]] = []
    scanned = 0
    for move in [] if over or not key else board.legal_moves:
        uci = move.uci()
        if uci.startswith(key):
            found.append({"uci": uci, "san": board.san(move)})
        elif scanned < MAX_SAN_SCAN and _could_be_san(board, uci, key):
            scanned += 1
            san = board.san(move)
            if san.lower().startswith(lowered) or _normalise(san).startswith(key):
                found.append({"uci": uci, "san": san})
        if len(found) >= MAX_COMPLETIONS:
            break
    return {"type": "completions", "fen": board.fen(), "text": text, "moves": found}


def handle(hub: Hub, game: Game, message: Mapping[str, Any]) -> dict[str, Any] | None:
    """One message from a tab; returns the reply for that tab alone (``None``: nothing)."""
    kind = message.get("type")
    with game.lock:
        if kind == "path":
            return choices(game, _path(message))
        if kind == "complete":
            text = message.get("text")
            if not isinstance(text, str) or len(text) > 64:
                raise ValueError("text must be a string of at most 64 characters")
            return completions(game, text)
        if kind == "move":
            text = message.get("move")
            if not isinstance(text, str) or not 1 <= len(text) <= 64:
                raise ValueError("move must be a string")
            board = game.board()
            result, _ = game.result()
            if result and game.cursor == len(game.moves):
                raise ValueError("the game is over")
            try:
                move = board.parse_san(text.strip())
            except ValueError:
                move = board.parse_uci(text.strip())
            if game.mode == "play" and board.turn != game.human:
                raise ValueError("it is the engine's turn")
            game.play(move)
            return None
        if kind == "variation":
            ply, uci = message.get("ply"), message.get("uci")
            if not isinstance(ply, int) or isinstance(ply, bool) or not isinstance(uci, str):
                raise ValueError("a variation is a ply and a move")
            game.switch(ply, Move.from_uci(uci))
            return None
        if kind == "goto":
            ply = message.get("ply")
            if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= len(game.moves):
                raise ValueError(f"ply must be from 0 to {len(game.moves)}")
            if game.mode == "play":
                game.stop_engine()
            game.cursor = ply
            game.changed()
            return None
        if kind == "fen":
            fen = message.get("fen")
            if not isinstance(fen, str) or len(fen) > 200:
                raise ValueError("fen must be a string")
            root = Board(fen.strip())
            game.stop_engine()
            game.reset(root)
            game.changed()
            return None
        if kind == "load":
            text = message.get("text")
            if not isinstance(text, str):
                raise ValueError("text must be a string")
            record = pgn.read_game(io.StringIO(text))
            if record is None:
                raise ValueError("no game found in the record")
            if record.errors:
                raise ValueError(f"the record has errors: {record.errors[0]}")
            game.stop_engine()
            game.reset(record.board(), record)
            game.mode = "analyse"
            game.changed()
            return None
        if kind == "save":
            result, _ = game.result()
            game.tree.headers["Result"] = result or "*"
            return {"type": "record", "text": str(game.tree)}
        if kind == "new":
            mode = message.get("mode", "analyse")
            if mode not in ("analyse", "play"):
                raise ValueError("mode is analyse or play")
            side = message.get("side", "white")
            if side not in ("white", "black"):
                raise ValueError("side is white or black")
            limit = message.get("limit", game.limit_text)
            if not isinstance(limit, str):
                raise ValueError("limit must be a string")
            parse_limit(limit)
            fen = message.get("fen")
            root = Board(fen) if isinstance(fen, str) and fen else game.root
            game.stop_engine()
            game.mode, game.human, game.limit_text = mode, side == "white", limit
            game.reset(root)
            game.changed()
            return None
        if kind == "takeback":
            game.stop_engine()
            game.resigned = None
            game.cut()
            game.cursor = max(0, game.cursor - 1)
            if game.mode == "play" and game.cursor and game.board().turn != game.human:
                game.cursor -= 1
            game.cut()
            game.changed()
            return None
        if kind == "resign":
            result, _ = game.result()
            if game.mode != "play" or result:
                raise ValueError("nothing to resign")
            game.stop_engine()
            game.resigned = game.human
            game.cursor = len(game.moves)
            game.changed()
            return None
        if kind == "multipv":
            count = message.get("count")
            if count not in (1, 2, 3):
                raise ValueError("multipv is 1, 2 or 3")
            game.analyser_for().multipv = int(count)
            game.changed()
            return None
        if kind == "best":
            analysis = game.last_analysis
            if analysis is None or not analysis.get("best") or analysis.get("fen") != game.board().fen():
                return None
            game.play(Move.from_uci(analysis["best"]))
            return None
        if kind == "ping":
            return {"type": "pong"}
    raise ValueError(f"unknown message type {kind!r}")


# -- HTTP and WebSocket -----------------------------------------------------------------------------


_HOST = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9._-]+))(?::(?P<port>[0-9]{1,5}))?")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def split_host(value: str) -> tuple[str, int | None] | None:
    """``host[:port]`` of a ``Host`` header (an IPv6 address in brackets) as (lower-case host,
    port or ``None``); ``None`` for anything else (``evil.com@127.0.0.1``, ``127.0.0.1#x``,
    ``127.0.0.1/x``, a port above 65535)."""
    found = _HOST.fullmatch(value)
    if found is None:
        return None
    port = None if found["port"] is None else int(found["port"])
    if port is not None and port > 65535:
        return None
    host = found["v6"] or found["name"]
    if found["v6"] is not None:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return None
    return host.lower(), port


def is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class Guard:
    """Refuses every request without the token, with a ``Host`` that is not this machine's (or
    more than one), or with an ``Origin`` other than this server's own (scheme, host and port, as
    the ``Host`` header names it). ``/favicon.ico`` alone needs no token (browsers ask for it
    without one): it is an empty answer (204)."""

    def __init__(self, app: ASGIApp, token: str, hosts: frozenset[str], *, any_address: bool = False) -> None:
        self.app = app
        self.token = token
        self.hosts = frozenset(host.lower().strip("[]") for host in hosts)
        self.any_address = any_address

    def _host(self, values: list[str]) -> tuple[str, int | None] | None:
        if len(values) != 1:  # none, or two (which one a proxy would read is anyone's guess)
            return None
        parsed = split_host(values[0])
        if parsed is None:
            return None
        host = parsed[0]
        if host in self.hosts or (self.any_address and is_address(host)):
            return parsed
        return None

    def _origin_ok(self, values: list[str], scheme: str, host: str, port: int) -> bool:
        if not values:
            return True  # not a browser's request from a page (curl, the page's own navigation)
        if len(values) != 1:
            return False
        found = re.fullmatch(r"(?P<scheme>https?)://(?P<host>[^/?#@]+)", values[0].lower())
        if found is None:
            return False
        parsed = split_host(found["host"])
        if parsed is None:
            return False
        origin_port = parsed[1] if parsed[1] is not None else _DEFAULT_PORTS[found["scheme"]]
        return (found["scheme"], parsed[0], origin_port) == (scheme, host, port)

    def refusal(self, scope: Scope) -> str | None:
        headers: dict[str, list[str]] = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key.decode("latin-1").lower(), []).append(value.decode("latin-1"))
        host = self._host(headers.get("host", []))
        if host is None:
            return "foreign Host header"
        given: str = scope.get("scheme") or "http"
        scheme = {"ws": "http", "wss": "https"}.get(given, given)
        port = host[1] if host[1] is not None else _DEFAULT_PORTS.get(scheme, 80)
        if not self._origin_ok(headers.get("origin", []), scheme, host[0], port):
            return "foreign Origin"
        if scope.get("path") == "/favicon.ico":
            return None
        query = scope.get("query_string", b"").decode("latin-1")
        given = parse_qs(query).get("token", [""])[0]
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return "missing or wrong token"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            why = self.refusal(scope)
            if why is not None:
                if scope["type"] == "http":
                    await PlainTextResponse(f"403 Forbidden: {why}\n", status_code=403)(scope, receive, send)
                else:
                    await send({"type": "websocket.close", "code": 1008, "reason": why})
                return
        await self.app(scope, receive, send)


def _static(name: str) -> str:
    return resources.files("congo.serve").joinpath("static", name).read_text(encoding="utf-8")


def create_app(
    settings: Settings | None = None, *, token: str | None = None, hub: Hub | None = None
) -> tuple[ASGIApp, Hub, str]:
    """The application, its state and its token (made up when not given)."""
    token = token or secrets.token_urlsafe(24)
    hub = hub or Hub(settings)
    page_template = _static("index.html")

    async def page(request: Request) -> Response:
        config = {"token": token, "match": hub.match is not None}
        board = await asyncio.to_thread(hub.first_board, request.query_params)
        text = (
            page_template.replace("{{TOKEN}}", html.escape(token, quote=True))
            .replace("{{CONFIG}}", html.escape(json.dumps(config), quote=True))
            .replace("{{LIMITS}}", _limit_options())
        )
        match_view = request.query_params.get("mode") == "match"
        text = text.replace("{{MATCHBOARD}}", board if match_view else "")
        text = text.replace("{{BOARD}}", "" if match_view else board)
        return HTMLResponse(
            text,
            headers={
                "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self';"
                " script-src 'self'; connect-src 'self'",
                "Cache-Control": "no-store",
                "Referrer-Policy": "no-referrer",
            },
        )

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC_FILES:
            return PlainTextResponse("not found\n", status_code=404)
        return Response(_static(name), media_type=STATIC_FILES[name], headers={"Cache-Control": "no-store"})

    async def favicon(request: Request) -> Response:
        return Response(status_code=204, headers={"Cache-Control": "max-age=86400"})

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        if hub.sockets >= hub.settings.max_sockets:
            await websocket.close(code=1013, reason="too many tabs open: close some")
            return
        hub.sockets += 1
        try:
            await _serve_socket(hub, websocket)
        finally:
            hub.sockets -= 1

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/favicon.ico", favicon),
            Route("/static/{name}", static),
            WebSocketRoute("/ws", socket),
        ],
        lifespan=_lifespan(hub),
    )
    guard = Guard(app, token, hub.settings.allowed_hosts, any_address=hub.settings.any_address)
    return guard, hub, token


def _limit_options() -> str:
    """The page's strength menu, the default chosen: the one list of them (:data:`LIMIT_CHOICES`)."""
    options = []
    for value, label in LIMIT_CHOICES:
        chosen = " selected" if value == DEFAULT_LIMIT else ""
        options.append(f'<option value="{value}"{chosen}>{html.escape(label)}</option>')
    return "".join(options)


async def _serve_socket(hub: Hub, websocket: WebSocket) -> None:
    """One tab: its messages are read as they come (into an inbox of at most :data:`MAX_INBOX`)
    and handled one at a time; those still waiting when the tab goes are dropped."""
    params = websocket.query_params
    view = params.get("view", "game")
    loop = asyncio.get_running_loop()
    subscriber = Subscriber(loop)
    game: Game | None = None
    if view == "match":
        if hub.match is None:
            await websocket.send_json({"type": "error", "message": "no match is being played"})
            await websocket.close()
            return
        if len(hub.match.subscribers) >= hub.settings.max_sockets_per_game:
            await websocket.close(code=1013, reason="the match is open in too many tabs: close some")
            return
        hub.match.subscribe(subscriber)
    else:
        try:
            fresh = bool(params.get("fen")) or params.get("mode") == "play"
            game = await asyncio.to_thread(hub.game, params.get("game"), fresh, subscriber)
        except Busy as error:
            await websocket.close(code=1013, reason=str(error)[:120])
            return
        except ValueError as error:
            await websocket.send_json({"type": "error", "message": str(error)})
            await websocket.close()
            return
        mode = params.get("mode")
        if not params.get("game") and fresh:
            # A tab that asked for its own game sets it up.
            setup = {
                "type": "new",
                "mode": mode or "analyse",
                "side": params.get("side", "white"),
                "limit": params.get("limit", game.limit_text),
                "fen": params.get("fen"),
            }
            try:
                await asyncio.to_thread(handle, hub, game, setup)
            except ValueError as error:
                await websocket.send_json({"type": "error", "message": str(error)})
        else:
            await asyncio.to_thread(_join, game, subscriber)

    closing: list[tuple[int, str]] = []  # why the server closes the socket, if it does

    async def sender() -> None:
        while True:
            text = await subscriber.get()
            if text is None:
                return
            if text is OVERFLOW:
                closing.append((1008, "the tab did not read its messages"))
                return
            await websocket.send_text(text)

    inbox: asyncio.Queue[str] = asyncio.Queue()
    gone = asyncio.Event()

    async def reader() -> None:
        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    return
                text = received.get("text")
                if text is None and received.get("bytes") is not None:
                    text = received["bytes"].decode("utf-8", "replace")
                if text is None:
                    continue
                if len(text.encode("utf-8")) > MAX_MESSAGE:
                    closing.append((1009, "message too big"))
                    return
                if inbox.qsize() >= MAX_INBOX:
                    closing.append((1008, "too many messages waiting"))
                    return
                inbox.put_nowait(text)
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            gone.set()
            while not inbox.empty():  # a tab that has gone: what it sent is not handled
                inbox.get_nowait()

    async def handler() -> None:
        while not gone.is_set():
            text = await inbox.get()
            if gone.is_set():
                return
            kind: object = None
            try:
                message = json.loads(text)
                if not isinstance(message, dict):
                    raise ValueError("a message is a JSON object")
                kind = message.get("type")
                if game is None:
                    raise ValueError("the match view only watches")
                reply = await asyncio.to_thread(handle, hub, game, message)
            except RecursionError:
                closing.append((1008, "message nested too deeply"))
                return
            except (ValueError, TypeError) as error:
                reply = {"type": "error", "message": str(error), "request": str(kind)}
            if reply is not None:
                subscriber.send(reply)

    tasks = [asyncio.create_task(job()) for job in (sender, reader, handler)]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            await _cancel(task)
        if closing:
            with contextlib.suppress(Exception):
                await websocket.close(code=closing[0][0], reason=closing[0][1])
        if game is not None:
            await asyncio.to_thread(_leave, game, subscriber)
        elif hub.match is not None:
            hub.match.unsubscribe(subscriber)


class _TimedProtocol:
    """Mixed into uvicorn's HTTP protocol: a connection that has not sent a whole request within
    :data:`REQUEST_TIMEOUT` seconds of opening (or of its last response) is closed."""

    timeout_request_task: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def _arm(self) -> None:
        loop: asyncio.AbstractEventLoop = self.loop  # type: ignore[attr-defined]
        self.timeout_request_task = loop.call_later(REQUEST_TIMEOUT, self._request_timed_out)

    def _request_timed_out(self) -> None:
        transport = self.transport  # type: ignore[attr-defined]
        if transport.is_closing() or transport.get_protocol() is not self:
            return  # closed, or upgraded to a WebSocket
        cycle = getattr(self, "cycle", None)
        if cycle is not None and not cycle.response_complete:
            self._arm()  # a request being answered (the page, a static file): not slow to arrive
            return
        transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timeout_request_task is not None:
            self.timeout_request_task.cancel()
        super().connection_lost(exc)  # type: ignore[misc]


def server_config(app: ASGIApp, **options: Any) -> Any:
    """The ``uvicorn.Config`` of ``congo serve`` (and of the tests): the limits above, and a
    WebSocket ping that closes a tab whose browser has gone without a word."""
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(_TimedProtocol, H11Protocol):
        pass

    settings: dict[str, Any] = {
        "log_level": "warning",
        "ws_max_size": MAX_MESSAGE + 4096,
        "lifespan": "on",
        "timeout_graceful_shutdown": 2,
        "timeout_keep_alive": 5,
        "limit_concurrency": MAX_CONNECTIONS,
        "h11_max_incomplete_event_size": 16 * 1024,
        "http": Protocol,
        **options,
    }
    return uvicorn.Config(app, **settings)


def _lifespan(hub: Hub) -> Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if hub.match is not None:
            hub.match.start()
        try:
            yield
        finally:
            await asyncio.to_thread(hub.close)

    return lifespan


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(BaseException):
        await task


def _leave(game: Game, subscriber: Subscriber) -> None:
    with game.lock:
        game.subscribers.discard(subscriber)
        if not game.subscribers:
            game.close()


def _join(game: Game, subscriber: Subscriber) -> None:
    """A new tab on an existing game: the state, the analysis so far (started if none runs)."""
    with game.lock:
        subscriber.send(game.state())
        if game.last_analysis is not None:
            subscriber.send(game.last_analysis)
        board = game.board()
        if game.mode == "analyse" and (game.analyser is None or not game.analyser.running):
            game.analyser_for().start(board, game.moves[game.cursor - 1] if game.cursor else None)
        game.resume(board)
