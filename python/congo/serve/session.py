"""The browser session of ``congo serve``, apart from its web layer (which is :mod:`congo.serve.app`):
the games the tabs show (:class:`BoardSession`), the server's state (:class:`Hub`), the analyser,
and the handling of a tab's messages, one handler per kind (:data:`HANDLERS`).

Nothing here knows of Starlette or uvicorn: a tab is a :class:`Subscriber` (a bounded queue of
messages handed to its event loop), and a message is a dict in and a dict (or nothing) out.
A :class:`BoardSession`'s methods run on worker threads, one at a time (its ``lock``). The engines
are awaited on the hub's :class:`EngineLoop` (their asyncio surface, :class:`~congo.engine.AsyncEngine`):
an engine's move or an analysis is a task there, cancelled when the game moves on.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import dataclasses
import io
import json
import re
import secrets
import threading
from collections.abc import Coroutine, Mapping
from typing import Any, Callable

import congo.svg
from congo import _core, pgn
from congo._core import Move
from congo.board import Board
from congo.engine import AsyncEngine, Engine, InfoDict, Limit, Score
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


def white_wdl(score: Score, white_to_move: bool, ply: int) -> list[int]:
    """The engine's win/draw/loss chances for a score (:meth:`congo.Score.wdl`, at the position's
    ply), per mille, from White's point of view: ``[wins, draws, losses]``."""
    chances = score.wdl(ply=ply)
    if not white_to_move:
        chances = -chances
    return [chances.wins, chances.draws, chances.losses]


def known_wdl(result: str, tablebase: Mapping[str, Any] | None) -> list[int] | None:
    """The chances where they are known, without the engine: a finished game's result, or the
    tablebase's exact verdict (from White's point of view, per mille); ``None`` otherwise."""
    verdict = {"1-0": "win", "0-1": "loss", "1/2-1/2": "draw"}.get(result)
    if verdict is None and tablebase is not None:
        verdict = tablebase["wdl"]
    return {"win": [1000, 0, 0], "draw": [0, 1000, 0], "loss": [0, 0, 1000]}.get(verdict or "")


def _arrow_json(arrow: congo.svg.Arrow) -> dict[str, str]:
    """A record's arrow (or marked square, whose tail is its head) as a state carries it."""
    return {"tail": square_name(arrow.tail), "head": square_name(arrow.head), "color": arrow.color}


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


SIDES = ("white", "black")


def for_side(message: Mapping[str, Any], side: str) -> dict[str, Any]:
    """A message for a tab that shows the board from ``side``: without the other side's drawing."""
    other = f"svg_{'black' if side == 'white' else 'white'}"
    return {key: value for key, value in message.items() if key != other}


class Whole:
    """A message's whole form (a state with every move, an analysis with its board), serialised
    the first time a tab's queue needs it, once for all the tabs that do: a message that carries
    only what changed since the one before it cannot replace that one unsent (the tab would miss
    what the replaced one carried), its whole form can."""

    def __init__(self, message: Mapping[str, Any]) -> None:
        self._message: Mapping[str, Any] | None = message
        self._text: str | None = None

    def text(self) -> str:
        """The message serialised (on the event loop that sends it)."""
        if self._text is None:
            assert self._message is not None
            self._text, self._message = encode(self._message), None
        return self._text


class Subscriber:
    """One WebSocket: messages (serialised, or dicts serialised here) are handed to its event loop
    from any thread. A message that only says what is now (a state, an analysis, a match's move)
    replaces one of its kind that is last in the queue, unsent (by its whole form, when it has
    one); at most :data:`MAX_QUEUE` wait, and a tab that lets more pile up is given up on (its
    queue emptied, the socket closed)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, side: str = "white") -> None:
        self.loop = loop
        self.side = side
        """The side the tab shows the board from: the drawings it is sent are for that side."""
        self.pending: collections.deque[tuple[str | None, str | None]] = collections.deque()
        self.closed = False
        self._ready = asyncio.Event()

    def send(
        self,
        message: Mapping[str, Any] | str | None,
        *,
        replaces: str | None = None,
        whole: Whole | None = None,
    ) -> None:
        """Queues a message (``None``: the end); ``replaces`` names its kind, for one that
        supersedes the last queued of that kind; ``whole`` is what is queued instead when it does
        (the message itself when not given)."""
        text = message if message is None or isinstance(message, str) else encode(message)
        with contextlib.suppress(RuntimeError):  # a closed loop: the tab is gone
            self.loop.call_soon_threadsafe(self._put, text, replaces, whole)

    def _put(self, text: str | None, replaces: str | None, whole: Whole | None = None) -> None:
        """On the event loop: queues a message, or gives up on a tab that does not read."""
        if self.closed:
            return
        if replaces is not None and self.pending and self.pending[-1][0] == replaces:
            self.pending[-1] = (replaces, text if whole is None else whole.text())
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


class EngineLoop:
    """The event loop the games' engines are awaited on, on a thread of its own (made when first
    needed): each search (an engine's move, an analysis) is a task there, awaiting the engine's
    asyncio surface (:class:`congo.engine.AsyncEngine`, the surface of
    :func:`congo.engine.popen_uci`'s engines). Cancelling the task stops the search; the engine
    stays usable, and its next search waits for the stopped one to end."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._closed = False

    def submit(self, work: Coroutine[Any, Any, None]) -> concurrent.futures.Future[None]:
        """Runs ``work`` as a task on the loop; the future returned cancels it (from any thread)."""
        with self._lock:
            if self._closed:
                work.close()
                raise RuntimeError("the server is stopping")
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="congo-serve-engines", daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            return asyncio.run_coroutine_threadsafe(work, self._loop)

    def close(self, wait: float = 10.0) -> None:
        """Cancels every task (their searches stop), waits for them up to ``wait`` seconds and
        ends the loop."""
        with self._lock:
            self._closed = True
            loop, thread = self._loop, self._thread
            self._loop = None
        if loop is None or thread is None:
            return

        async def cancel_all() -> None:
            tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(cancel_all(), loop).result(wait)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(wait)
        if not thread.is_alive():
            loop.close()


class Analyser:
    """Analyses one position at a time, a task on the engine loop awaiting the engine's
    analysis; a change of position cancels it (stopping the search) and starts another."""

    def __init__(
        self,
        engine: AsyncEngine,
        loop: EngineLoop,
        publish: Callable[[dict[str, Any], dict[str, Any] | None], None],
        limit: Limit,
    ) -> None:
        self.engine = engine
        self.loop = loop
        self.publish = publish
        self.limit = limit
        self.multipv = 1
        self._task: concurrent.futures.Future[None] | None = None
        self._generation = 0

    @property
    def running(self) -> bool:
        task = self._task
        return task is not None and not task.done()

    def stop(self) -> None:
        """Ends the analysis (at once: its task is cancelled, the search told to stop)."""
        self._generation += 1
        task, self._task = self._task, None
        if task is not None:
            task.cancel()

    def start(
        self, board: Board, lastmove: Move | None = None, arrows: list[congo.svg.Arrow] | None = None
    ) -> None:
        """Analyses ``board`` (drawn with ``lastmove`` and the record's ``arrows``), the analysis
        before stopped first."""
        self.stop()
        if board.outcome(claim_draw=True) is not None:
            return
        work = self._run(board.copy(), self._generation, lastmove, list(arrows or []))
        with contextlib.suppress(RuntimeError):  # the server is stopping
            self._task = self.loop.submit(work)

    async def _run(
        self, board: Board, generation: int, lastmove: Move | None, arrows: list[congo.svg.Arrow]
    ) -> None:
        lines: dict[int, dict[str, Any]] = {}
        drawn: tuple[Move | None, dict[str, str]] = (None, {})
        best_move: Move | None = None
        redraw = False
        white = board.turn
        fen = board.fen()
        ply = board.ply()
        try:
            async with await self.engine.analysis(board, self.limit, multipv=self.multipv) as analysis:
                async for found in analysis:
                    if generation != self._generation:
                        break
                    info = _line(found)
                    if info is None:
                        continue
                    lines[info.multipv] = {
                        "rank": info.multipv,
                        "depth": info.depth,
                        "score": white_score(info.score, white),
                        "wdl": white_wdl(info.score, white, ply),
                        "pv": " ".join(move.uci() for move in info.pv),
                        "san": board.variation_san(info.pv) if info.pv else "",
                    }
                    if info.multipv == 1 and info.pv:
                        best_move = info.pv[0]
                    # One message per iteration, once its last line is in.
                    if info.multipv != len(lines) or info.multipv < min(self.multipv, len(lines)):
                        continue
                    if best_move is not None and best_move != drawn[0]:
                        # The board with the best move's arrow over the record's own, drawn again
                        # only when the best move of a message differs from the one before.
                        best_arrow: list[congo.svg.Arrow | Move] = [*arrows, best_move]
                        svgs = {
                            f"svg_{side}": str(
                                congo.svg.board(
                                    board, orientation=side == "white", lastmove=lastmove, arrows=best_arrow
                                )
                            )
                            for side in SIDES
                        }
                        drawn = (best_move, svgs)
                        redraw = True
                    best = lines[1]
                    message = {
                        "type": "analysis",
                        "fen": fen,
                        "depth": best["depth"],
                        "score": best["score"],
                        "wdl": best["wdl"],
                        "pv": best["pv"],
                        "nps": info.nps,
                        "nodes": info.nodes,
                        "lines": [lines[rank] for rank in sorted(lines)],
                        "best": None if drawn[0] is None else drawn[0].uci(),
                    }
                    # The board only when its arrow changed; the whole message (for a tab that
                    # joins, or whose queue replaces the one before unsent) always has it.
                    whole = {**message, **drawn[1]}
                    self.publish(whole if redraw else message, whole)
                    redraw = False
        except Exception as error:  # reported to the page; the server goes on
            self.publish({"type": "error", "message": f"analysis stopped: {error}"}, None)


@dataclasses.dataclass(frozen=True)
class Line:
    """One line of an analysis at one depth; ``score`` is from the side to move's point of view."""

    multipv: int
    depth: int
    score: Score
    pv: list[Move]
    nps: int
    nodes: int


def _line(info: InfoDict) -> Line | None:
    """An analysis info as a :class:`Line` (``None`` for one without a score, such as a string)."""
    score = info.get("score")
    if score is None:
        return None
    return Line(
        info.get("multipv", 1),
        info.get("depth", 0),
        score.relative,
        list(info.get("pv", [])),
        info.get("nps", 0),
        info.get("nodes", 0),
    )


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
        self.engine_task: concurrent.futures.Future[None] | None = None  # the engine's move
        self.resigned: bool | None = None  # the side that resigned
        self.analyser: Analyser | None = None
        self.player: AsyncEngine | None = None
        self.thinking = 0  # the generation of the engine's move being searched (0: none)
        self.generation = 0
        self.last_analysis: dict[str, Any] | None = None
        # The move list (SAN of every move and its variations) with its key (the root's FEN, each
        # ply's move and variations): going through a long game recomputed it at every step.
        self._move_list: tuple[str, list[tuple[Any, ...]], list[dict[str, Any]]] | None = None
        # What the last state carried: the move list (and its version), the board drawn.
        self._sent_line: list[dict[str, Any]] | None = None
        self._line_version = 0
        self._sent_drawing: tuple[Any, ...] | None = None
        self._drawings: dict[str, str] | None = None

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

    def publish(self, message: dict[str, Any], whole: dict[str, Any] | None = None) -> None:
        """Sends every tab a message, serialised once for all the tabs that show the board from the
        same side (each is sent the board drawn for its side alone); ``whole`` is its whole form,
        for a tab whose queue replaces an unsent one of its kind with it (:class:`Subscriber`)."""
        kind = message.get("type")
        if kind == "analysis":
            self.last_analysis = message if whole is None else whole
        replaces = kind if kind in ("state", "analysis") else None
        texts: dict[str, tuple[str, Whole | None]] = {}
        for subscriber in list(self.subscribers):
            side = subscriber.side
            if side not in texts:
                text = encode(for_side(message, side))
                lazy = None if whole is None or whole is message else Whole(for_side(whole, side))
                texts[side] = (text, lazy)
            text, lazy = texts[side]
            subscriber.send(text, replaces=replaces, whole=lazy)

    def drawing_message(self) -> dict[str, Any]:
        """The board shown as drawn now, for both sides (a tab that turned its board is sent its
        own): the analysis's board, with its best move's arrow, when it is of this position."""
        board = self.board()
        analysis = self.last_analysis
        if analysis is not None and analysis.get("fen") == board.fen() and "svg_white" in analysis:
            drawings = {key: analysis[key] for key in ("svg_white", "svg_black")}
        else:
            drawings = self.render(board, lastmove=self.lastmove, arrows=self.arrows())
        return {"type": "drawing", "fen": board.fen(), **drawings}

    def publish_state(self) -> None:
        """Sends every tab what changed (:meth:`state`)."""
        message, whole = self._state(False)
        self.publish(message, whole)

    def render(self, board: Board, **extra: Any) -> dict[str, str]:
        return {
            "svg_white": congo.svg.board(board, orientation=True, **extra),
            "svg_black": congo.svg.board(board, orientation=False, **extra),
        }

    def move_list(self) -> list[dict[str, Any]]:
        """The line shown as the page lists it: each move's SAN and the other moves tried there.
        The entries of the line's start that are unchanged (the same move and the same variations
        at each ply) are kept; only those from the first change on are made again (the key, moves
        without their SAN, costs a walk of the line; the SAN costs far more)."""
        line = self.moves
        node: pgn.GameNode = self.tree
        keys: list[tuple[Any, ...]] = []
        for move in line:
            keys.append((move, tuple(child.move for child in node.variations)))
            node = node.variation(move)
        root = self.root.fen()
        kept: list[dict[str, Any]] = []
        if self._move_list is not None and self._move_list[0] == root:
            old_keys, old_moves = self._move_list[1], self._move_list[2]
            if old_keys == keys:
                return old_moves
            same = 0
            for old, new in zip(old_keys, keys):
                if old != new:
                    break
                same += 1
            kept = old_moves[:same]
        replay = self.root.copy(stack=False)
        node = self.tree
        for move in line[: len(kept)]:
            replay.push(move)
            node = node.variation(move)
        moves = list(kept)
        for ply, move in enumerate(line[len(kept) :], len(kept) + 1):
            others = [
                {"uci": child.move.uci(), "san": replay.san(child.move)}
                for child in node.variations
                if child.move != move
            ]
            moves.append({"ply": ply, "uci": move.uci(), "san": replay.san(move), "variations": others})
            replay.push(move)
            node = node.variation(move)
        self._move_list = (root, keys, moves)
        return moves

    def _line_delta(self) -> tuple[int, int, int, list[dict[str, Any]]]:
        """The move list as a change to the one the last state carried: (the version it changes,
        the new version, the number of entries kept from the old list, the new list). The version
        goes up whenever the list changes; every state computed goes to every tab of the game (or is
        whole), so a tab at the version changed can rebuild the list from the entries sent."""
        moves = self.move_list()
        sent = self._sent_line
        if sent is moves:
            return self._line_version, self._line_version, len(moves), moves
        same = 0
        if sent is not None:
            for old, new in zip(sent, moves):
                if old != new:
                    break
                same += 1
            if same == len(sent) == len(moves):
                self._sent_line = moves
                return self._line_version, self._line_version, same, moves
        base = self._line_version
        self._line_version += 1
        self._sent_line = moves
        return base, self._line_version, same, moves

    def arrows(self) -> list[congo.svg.Arrow]:
        """The arrows and marked squares of the record's comment on the position shown
        (``[%cal]``, ``[%csl]``), drawn on the board."""
        node = self.node_at(self.cursor)
        return node.arrows() if node.comment else []

    def drawing(self, board: Board) -> dict[str, str]:
        """The board shown, as congo.svg renders it for either side: its last move and the record's
        arrows on it."""
        return self.render(board, lastmove=self.lastmove, arrows=self.arrows())

    def state(self, *, whole: bool = False) -> dict[str, Any]:
        """The game as a ``state`` message. By default it carries only what changed since the state
        before it: the move list's entries from the first that changed (``moves_from`` entries are
        kept; ``base`` is the version they change, ``version`` the one they make), and the board's
        drawings only when the board drawn changed. ``whole``: every entry and both drawings, for a
        tab that joins or asks for it (``full`` says which a message is)."""
        return self._state(whole)[0]

    def _state(self, whole: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        """The state (:meth:`state`) and the same state whole."""
        board = self.board()
        lastmove = self.lastmove
        base, version, kept, moves = self._line_delta()
        result, reason = self.result()
        # The SAN of every legal move costs about 0.2 ms each: up to 25,786 of them would hold the
        # game's lock for seconds. Beyond MAX_LEGAL_SENT only their number is sent.
        legal_moves = [] if self.is_over() else list(board.legal_moves)
        legal: list[dict[str, str]] | None = None
        if len(legal_moves) <= MAX_LEGAL_SENT:
            legal = [{"uci": m.uci(), "san": board.san(m)} for m in legal_moves]
        arrows = self.arrows()
        tablebase = self.hub.probe(board)
        drawn = (board.fen(), lastmove, tuple(arrows))
        redraw = drawn != self._sent_drawing or self._drawings is None
        if redraw:
            self._sent_drawing = drawn
            self._drawings = self.render(board, lastmove=lastmove, arrows=arrows)
        assert self._drawings is not None
        message: dict[str, Any] = {
            "type": "state",
            "game": self.id,
            "full": False,
            "base": base,
            "version": version,
            "moves_from": kept,
            "moves": moves[kept:],
            "length": len(moves),
            "fen": board.fen(),
            "turn": "w" if board.turn else "b",
            "pieces": piece_names(board),
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
            "arrows": [_arrow_json(arrow) for arrow in arrows],
            "tablebase": tablebase,
            "wdl": known_wdl(result if self.at_tip else "", tablebase),
        }
        full = {**message, "full": True, "base": None, "moves_from": 0, "moves": moves, **self._drawings}
        if whole or (kept == 0 and redraw):
            return full, full
        if redraw:
            message.update(self._drawings)
        return message, full

    def changed(self) -> None:
        """After every change: tell every tab, restart the analysis, let the engine move."""
        self.generation += 1
        self.publish_state()
        self.last_analysis = None
        board = self.board()
        if self.mode == "analyse" and self.subscribers:
            self.analyser_for().start(board, self.lastmove, self.arrows())
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
            engine = self.hub.new_engine().asyncio()
            self.analyser = Analyser(engine, self.hub.engines, self.publish, self.hub.settings.analysis_limit)
        return self.analyser

    def start_engine_move(self, board: Board) -> None:
        """The engine's move: a task on the engine loop awaiting its search, played when it ends
        if nothing changed meanwhile (:meth:`stop_engine` cancels it)."""
        if self.player is None:
            self.player = self.hub.new_engine().asyncio()
        generation = self.generation
        self.thinking = generation
        try:
            self.engine_task = self.hub.engines.submit(
                self._engine_move(self.player, board.copy(), parse_limit(self.limit_text), generation)
            )
        except RuntimeError:  # the server is stopping
            self.thinking = 0

    async def _engine_move(self, engine: AsyncEngine, board: Board, limit: Limit, generation: int) -> None:
        move: Move | None = None
        try:
            move = (await engine.play(board, limit)).move
        except Exception as error:
            self.publish({"type": "error", "message": f"the engine failed: {error}"})
        # Played under the game's lock, which the engine loop does not wait for itself.
        await asyncio.to_thread(self._engine_moved, generation, move)

    def _engine_moved(self, generation: int, move: Move | None) -> None:
        with self.lock:
            if self.thinking == generation:
                self.thinking = 0
            if self.generation == generation and move is not None:
                self.play(move)

    def stop_engine(self) -> None:
        """Ends the engine's move in progress: its task is cancelled, which stops the search (even
        one not begun yet); the engine stays, and its next move waits for this search to end."""
        task, self.engine_task = self.engine_task, None
        self.thinking = 0
        if task is not None:
            task.cancel()

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
            subscriber.send(for_side(self.state(whole=True), subscriber.side))
            if self.last_analysis is not None:
                subscriber.send(for_side(self.last_analysis, subscriber.side))
            board = self.board()
            if self.mode == "analyse" and (self.analyser is None or not self.analyser.running):
                self.analyser_for().start(board, self.lastmove, self.arrows())
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
        for engine in (None if self.analyser is None else self.analyser.engine, self.player):
            if engine is not None:  # its thread ends after the search it was stopped in
                with contextlib.suppress(RuntimeError):
                    self.hub.engines.submit(engine.quit())
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
        self.engines = EngineLoop()
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
                board, lastmove, arrows = game.board(), game.lastmove, game.arrows()
            return str(congo.svg.board(board, orientation=white, lastmove=lastmove, arrows=arrows))
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
        self.engines.close()


# -- handling a tab's messages ---------------------------------------------------------------------


def _path(message: Mapping[str, Any]) -> list[int]:
    squares = message.get("path")
    if not isinstance(squares, list) or not 1 <= len(squares) <= 16:
        raise ValueError("path must be a list of 1 to 16 squares")
    return [parse_square(name) for name in squares]


def choices(game: BoardSession, path: list[int]) -> dict[str, Any]:
    """What may follow a partial path of squares: the next landings and whether it may stop here.
    A path that only one move has, with nothing after it, is that move: it is played.

    The answer names the position it is about (``fen``): the page drops an answer about a position
    it no longer shows (it is queued in order with the game's states, but a tab that asked about
    the position before another tab's move learns of that move only from the state after it)."""
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


def _on_view(game: BoardSession, message: Mapping[str, Any], subscriber: Subscriber | None = None) -> Reply:
    """The tab turned its board: it is sent the board drawn from its side, now and from now on."""
    side = message.get("side")
    if side not in SIDES:
        raise ValueError("side is white or black")
    if subscriber is not None:
        subscriber.side = str(side)
    return game.drawing_message()


def _on_sync(game: BoardSession, message: Mapping[str, Any]) -> Reply:
    """The whole state, for a tab that found a gap in the states it was sent."""
    return game.state(whole=True)


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
    "sync": _on_sync,
    "view": _on_view,
}
"""The handler of each kind of message a tab sends: it checks the message's fields and calls the
game's methods. A new kind of message is one more handler here."""


def handle(
    hub: Hub, game: BoardSession, message: Mapping[str, Any], subscriber: Subscriber | None = None
) -> Reply:
    """One message from a tab; returns the reply for that tab alone (``None``: nothing). Given the
    tab's ``subscriber``, the reply is also queued to it, under the game's lock: after every state
    published before it and before any published after it (a whole state asked for with ``sync``
    is then the last word until the next change)."""
    kind = message.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise ValueError(f"unknown message type {kind!r}")
    with game.lock:
        reply = _on_view(game, message, subscriber) if kind == "view" else handler(game, message)
        if reply is not None and subscriber is not None:
            subscriber.send(for_side(reply, subscriber.side))
        return reply
