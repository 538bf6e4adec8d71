"""The browser session of ``congo serve``, apart from its web layer (which is :mod:`congo.serve.app`):
the games the tabs show (:class:`BoardSession`), the server's state (:class:`Hub`), the analyser,
and the handling of a tab's messages, one handler per kind (:data:`HANDLERS`).

Nothing here knows of Starlette or uvicorn: a tab is a :class:`Subscriber` (a bounded queue of
messages handed to its event loop), and a message is a dict in and a dict (or nothing) out.
A :class:`BoardSession`'s methods run on worker threads, one at a time (its ``lock``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import io
import json
import re
import secrets
import threading
from collections.abc import Mapping
from typing import Any, Callable

import congo.svg
from congo import _core, pgn
from congo._core import Move
from congo.board import Board
from congo.engine import Engine, Limit, Score
from congo.pieces import PIECE_NAMES
from congo.squares import parse_square, square_name
from congo.tablebase import Tablebase

__all__ = [
    "DEFAULT_LIMIT",
    "HANDLERS",
    "LOOPBACK_HOSTS",
    "BoardSession",
    "Busy",
    "Hub",
    "Settings",
    "Subscriber",
    "handle",
    "parse_limit",
]

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
MAX_GAMES_KEPT = 64
"""Games (tabs opened with their own position) kept at once; the oldest unwatched go first."""
MAX_QUEUE = 64
"""Messages waiting to be sent to one tab: a tab that lets more pile up is closed (code 1008)."""
MAX_LEGAL_SENT = 256
"""Legal moves sent with a position (with their SAN). A position with more (up to 25,786) sends
only their number; the page asks for the moves that match what is typed (``complete``)."""
MAX_COMPLETIONS = 12
"""Moves sent in answer to a ``complete``."""
DEFAULT_LIMIT = "time:1"
"""The engine's strength in a new game, and the one the page's menu shows first."""


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
    """Each occupied square's name and what stands on it (``"white lion"``), for screen readers."""
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


class BoardSession:
    """One game as the tabs that show it share it: a start position, a tree of moves, the line
    shown and a cursor into it, the mode (analyse or play against the engine) and the engines.
    Its methods run on worker threads, one at a time (``lock``); the message handlers change it
    only through them."""

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
        # The move list as sent (SAN of every move and its variations), kept while the line and its
        # variations stay the same: going through a long game recomputed it at every step.
        self._move_list: tuple[tuple[Any, ...], list[dict[str, Any]]] | None = None

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

    def is_over(self) -> bool:
        """Whether no move may be played here: the game has ended and the cursor is at its end."""
        return bool(self.result()[0]) and self.at_tip

    @property
    def at_tip(self) -> bool:
        """Whether the cursor is at the end of the line shown."""
        return self.cursor == len(self.moves)

    @property
    def lastmove(self) -> Move | None:
        """The move that led to the position shown (``None`` at the start)."""
        return self.moves[self.cursor - 1] if self.cursor else None

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

    def move_list(self) -> list[dict[str, Any]]:
        """The line shown as the page lists it: each move's SAN and the other moves tried there.
        Computed again only when the line or a variation along it changed (the key, moves without
        their SAN, costs a walk of the line; the SAN costs far more)."""
        line = self.moves
        node: pgn.GameNode = self.tree
        key: list[Any] = [self.root.fen()]
        for move in line:
            key.append((move, tuple(child.move for child in node.variations)))
            node = node.variation(move)
        if self._move_list is not None and self._move_list[0] == tuple(key):
            return self._move_list[1]
        replay = self.root.copy(stack=False)
        moves = []
        node = self.tree
        for ply, move in enumerate(line, 1):
            others = [
                {"uci": child.move.uci(), "san": replay.san(child.move)}
                for child in node.variations
                if child.move != move
            ]
            moves.append({"ply": ply, "uci": move.uci(), "san": replay.san(move), "variations": others})
            replay.push(move)
            node = node.variation(move)
        self._move_list = (tuple(key), moves)
        return moves

    def state(self) -> dict[str, Any]:
        board = self.board()
        lastmove = self.lastmove
        moves = self.move_list()
        result, reason = self.result()
        # The SAN of every legal move costs about 0.2 ms each: up to 25,786 of them would hold the
        # game's lock for seconds. Beyond MAX_LEGAL_SENT only their number is sent.
        legal_moves = [] if self.is_over() else list(board.legal_moves)
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
            self.analyser_for().start(board, self.lastmove)
        elif self.analyser is not None:
            self.analyser.stop()
        self.resume(board)

    def resume(self, board: Board) -> None:
        """In play mode, starts the engine's move when it is its turn and it is not thinking."""
        engine_to_move = (
            self.mode == "play"
            and self.at_tip
            and not self.is_over()
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

    # -- what a tab asks for (the message handlers call these)

    def enter_move(self, text: str) -> None:
        """Plays the tab's move, given in SAN or machine notation."""
        board = self.board()
        if self.is_over():
            raise ValueError("the game is over")
        try:
            move = board.parse_san(text.strip())
        except ValueError:
            move = board.parse_uci(text.strip())
        if self.mode == "play" and board.turn != self.human:
            raise ValueError("it is the engine's turn")
        self.play(move)

    def play_best(self) -> None:
        """Plays the analysis's best move, if the analysis is of the position shown."""
        analysis = self.last_analysis
        if analysis is None or not analysis.get("best") or analysis.get("fen") != self.board().fen():
            return
        self.play(Move.from_uci(analysis["best"]))

    def go_to(self, ply: int) -> None:
        """Shows the position after ``ply`` moves of the line (0: the start)."""
        if not 0 <= ply <= len(self.moves):
            raise ValueError(f"ply must be from 0 to {len(self.moves)}")
        if self.mode == "play":
            self.stop_engine()
        self.cursor = ply
        self.changed()

    def set_up(self, root: Board) -> None:
        """A new game from ``root``, in the same mode."""
        self.stop_engine()
        self.reset(root)
        self.changed()

    def load(self, record: pgn.Game) -> None:
        """The game of a record, with its variations, to analyse."""
        self.stop_engine()
        self.reset(record.board(), record)
        self.mode = "analyse"
        self.changed()

    def new_game(self, mode: str, human: bool, limit_text: str, root: Board | None = None) -> None:
        """A new game from ``root`` (the same start when ``None``): analysed, or played against
        the engine at ``limit_text``, the tab playing White when ``human``."""
        self.stop_engine()
        self.mode, self.human, self.limit_text = mode, human, limit_text
        self.reset(self.root if root is None else root)
        self.changed()

    def take_back(self) -> None:
        """Removes the move before the cursor and those after it; when playing, back to the tab's
        own turn."""
        self.stop_engine()
        self.resigned = None
        self.cut()
        self.cursor = max(0, self.cursor - 1)
        if self.mode == "play" and self.cursor and self.board().turn != self.human:
            self.cursor -= 1
        self.cut()
        self.changed()

    def resign(self) -> None:
        """The tab's side resigns the game being played."""
        result, _ = self.result()
        if self.mode != "play" or result:
            raise ValueError("nothing to resign")
        self.stop_engine()
        self.resigned = self.human
        self.cursor = len(self.moves)
        self.changed()

    def set_multipv(self, count: int) -> None:
        """How many lines the analysis shows."""
        self.analyser_for().multipv = count
        self.changed()

    def record(self) -> str:
        """The game as a record, its result in its headers."""
        result, _ = self.result()
        self.tree.headers["Result"] = result or "*"
        return str(self.tree)

    def join(self, subscriber: Subscriber) -> None:
        """A new tab on an existing game: the state, the analysis so far (started if none runs)."""
        with self.lock:
            subscriber.send(self.state())
            if self.last_analysis is not None:
                subscriber.send(self.last_analysis)
            board = self.board()
            if self.mode == "analyse" and (self.analyser is None or not self.analyser.running):
                self.analyser_for().start(board, self.lastmove)
            self.resume(board)

    def leave(self, subscriber: Subscriber) -> None:
        """A tab has gone; the last to go stops the engines."""
        with self.lock:
            self.subscribers.discard(subscriber)
            if not self.subscribers:
                self.close()

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
        self.games: dict[str, BoardSession] = {}
        self.lock = threading.Lock()
        self.tablebase = Tablebase(self.settings.tablebase) if self.settings.tablebase else None
        self.match: Any = None  # a congo.serve.watch.MatchWatch when --match was given
        self.sockets = 0  # open WebSockets (counted on the event loop)
        self.games["main"] = BoardSession(self, "main")

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

    def game(self, game_id: str | None, fresh: bool, subscriber: Subscriber | None = None) -> BoardSession:
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

    def _find(self, game_id: str | None, fresh: bool) -> BoardSession:
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
        game = BoardSession(self, secrets.token_hex(6))
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
                board, lastmove = game.board(), game.lastmove
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


def choices(game: BoardSession, path: list[int]) -> dict[str, Any]:
    """What may follow a partial path of squares: the next landings and whether it may stop here.
    A path that only one move has, with nothing after it, is that move: it is played.

    The answer names the position it is about (``fen``): it reaches the tab after the game's lock is
    let go, so another tab's move may reach it first, and the page drops an answer about a
    position it no longer shows."""
    board = game.board()
    fen = board.fen()
    legal = [] if game.is_over() else list(board.legal_moves)
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


def completions(game: BoardSession, text: str) -> dict[str, Any]:
    """The legal moves that match typed text (its start), up to :data:`MAX_COMPLETIONS`: for a
    position with more legal moves than a state carries. Matched by machine notation, and by SAN
    for moves whose squares after the first fit (at most :data:`MAX_SAN_SCAN` SANs computed)."""
    board = game.board()
    over = game.is_over()
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


Reply = dict[str, Any] | None
"""What a handler answers the tab that sent the message (``None``: nothing; every tab of the game
hears of a change through the state the game publishes)."""
Handler = Callable[[BoardSession, Mapping[str, Any]], Reply]


def _ply(message: Mapping[str, Any]) -> int | None:
    ply = message.get("ply")
    return None if not isinstance(ply, int) or isinstance(ply, bool) else ply


def _on_path(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    return choices(game, _path(message))


def _on_complete(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    text = message.get("text")
    if not isinstance(text, str) or len(text) > 64:
        raise ValueError("text must be a string of at most 64 characters")
    return completions(game, text)


def _on_move(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    text = message.get("move")
    if not isinstance(text, str) or not 1 <= len(text) <= 64:
        raise ValueError("move must be a string")
    game.enter_move(text)
    return None


def _on_variation(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    ply, uci = _ply(message), message.get("uci")
    if ply is None or not isinstance(uci, str):
        raise ValueError("a variation is a ply and a move")
    game.switch(ply, Move.from_uci(uci))
    return None


def _on_goto(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    ply = _ply(message)
    if ply is None:
        raise ValueError(f"ply must be from 0 to {len(game.moves)}")
    game.go_to(ply)
    return None


def _on_fen(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    fen = message.get("fen")
    if not isinstance(fen, str) or len(fen) > 200:
        raise ValueError("fen must be a string")
    game.set_up(Board(fen.strip()))
    return None


def _on_load(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    text = message.get("text")
    if not isinstance(text, str):
        raise ValueError("text must be a string")
    record = pgn.read_game(io.StringIO(text))
    if record is None:
        raise ValueError("no game found in the record")
    if record.errors:
        raise ValueError(f"the record has errors: {record.errors[0]}")
    game.load(record)
    return None


def _on_save(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    return {"type": "record", "text": game.record()}


def _on_new(game: BoardSession, message: Mapping[str, Any]) -> Reply:
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
    game.new_game(mode, side == "white", limit, Board(fen) if isinstance(fen, str) and fen else None)
    return None


def _on_takeback(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    game.take_back()
    return None


def _on_resign(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    game.resign()
    return None


def _on_multipv(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    count = message.get("count")
    if count not in (1, 2, 3):
        raise ValueError("multipv is 1, 2 or 3")
    game.set_multipv(int(count))
    return None


def _on_best(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    game.play_best()
    return None


def _on_ping(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    return {"type": "pong"}


HANDLERS: dict[str, Handler] = {
    "path": _on_path,
    "complete": _on_complete,
    "move": _on_move,
    "variation": _on_variation,
    "goto": _on_goto,
    "fen": _on_fen,
    "load": _on_load,
    "save": _on_save,
    "new": _on_new,
    "takeback": _on_takeback,
    "resign": _on_resign,
    "multipv": _on_multipv,
    "best": _on_best,
    "ping": _on_ping,
}
"""The handler of each kind of message a tab sends: it checks the message's fields and calls the
game's methods. A new kind of message is one more handler here."""


def handle(hub: Hub, game: BoardSession, message: Mapping[str, Any]) -> Reply:
    """One message from a tab; returns the reply for that tab alone (``None``: nothing)."""
    kind = message.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise ValueError(f"unknown message type {kind!r}")
    with game.lock:
        return handler(game, message)
