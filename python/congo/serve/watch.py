"""Watching a match live: :func:`congo.match.run_match` in a thread, its players wrapped so that
every move they choose is shown as it is made."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Callable

import congo.svg
from congo import match
from congo.board import Board
from congo.engine import Limit, PlayResult

if TYPE_CHECKING:
    from congo.serve.app import Subscriber

__all__ = ["MatchWatch"]


class _Stopped(Exception):
    """The server is shutting down: the match ends."""


class _Watched:
    """A player that reports each position it is asked about and the move it chooses."""

    def __init__(self, inner: match.Player, watch: MatchWatch) -> None:
        self.inner = inner
        self.watch = watch
        self.name = inner.name

    def new_game(self) -> None:
        self.inner.new_game()

    def choose(self, board: Board) -> Any:
        return self.play(board, None).move

    def play(self, board: Board, limit: Limit | None) -> PlayResult:
        if self.watch.stopping.is_set():
            raise _Stopped()
        self.watch.position(board, limit, None)
        inner_play = getattr(self.inner, "play", None)
        played = inner_play(board, limit) if inner_play is not None else PlayResult(self.inner.choose(board))
        if self.watch.stopping.is_set():
            raise _Stopped()
        score = played.info.get("score") if played.info else None
        self.watch.evaluation(board.turn, None if score is None else score.white())
        return played

    def abort(self) -> None:
        abort = getattr(self.inner, "abort", None)
        if abort is not None:
            abort()

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()


def _wrap(factory: Callable[[int], match.Player], watch: MatchWatch) -> Callable[[int], match.Player]:
    return lambda seed: _Watched(factory(seed), watch)


class MatchWatch:
    """A match played on a thread of the server, shown to every tab of its view."""

    def __init__(
        self,
        first: str,
        second: str,
        *,
        games: int,
        time_control: str | None = None,
        save: str | None = None,
        opening_plies: int = 4,
        max_plies: int = 200,
    ) -> None:
        self.first = match.parse_player(first)
        self.second = match.parse_player(second)
        self.games = games
        self.time_control = None if time_control is None else match.TimeControl.parse(time_control)
        self.save = save
        self.opening_plies = opening_plies
        self.max_plies = max_plies
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.subscribers: set[Subscriber] = set()
        self.finished: list[dict[str, Any]] = []
        self.points = [0.0, 0.0]
        self.current: dict[str, Any] = {}
        self.evals: dict[str, str] = {}
        self.done = False
        self.error = ""
        self.thread: threading.Thread | None = None

    # -- what the tabs see

    def snapshot(self) -> dict[str, Any]:
        """The match as a message (called under ``lock``). Its lists and dicts are copies: a tab's
        message is serialised later, on the server's event loop, while the match goes on."""
        return {
            "type": "match",
            "first": self.first[0],
            "second": self.second[0],
            "score": f"{_points(self.points[0])}-{_points(self.points[1])}",
            "games": len(self.finished),
            "total": self.games,
            "finished": list(self.finished),  # its games are never changed once in
            "current": dict(self.current),  # replaced, never changed, but copied all the same
            "evals": dict(self.evals),
            "done": self.done,
            "error": self.error,
        }

    def publish(self) -> None:
        message = self.snapshot()
        for subscriber in list(self.subscribers):
            subscriber.send(message)

    def subscribe(self, subscriber: Subscriber) -> None:
        with self.lock:
            self.subscribers.add(subscriber)
            subscriber.send(self.snapshot())

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self.lock:
            self.subscribers.discard(subscriber)

    # -- what the players report

    def position(self, board: Board, limit: Limit | None, _: object) -> None:
        lastmove = board.peek() if board.move_stack else None
        clocks = {}
        if limit is not None and limit.white_clock is not None and limit.black_clock is not None:
            clocks = {"white": round(limit.white_clock, 2), "black": round(limit.black_clock, 2)}
        with self.lock:
            players = (self.first[0], self.second[0])
            index = len(self.finished)
            white, black = players if index % 2 == 0 else players[::-1]
            self.current = {
                "index": index,
                "white": white,
                "black": black,
                "fen": board.fen(),
                "ply": board.ply(),
                "clocks": clocks or self.current.get("clocks", {}),
                "svg": congo.svg.board(board, lastmove=lastmove),
                "lastmove": None if lastmove is None else lastmove.uci(),
            }
            self.publish()

    def evaluation(self, white_moved: bool, score: Any) -> None:
        if score is None:
            return
        text = f"#{score.mate}" if score.mate is not None else str(score.cp or 0)
        with self.lock:
            self.evals["white" if white_moved else "black"] = text

    def on_game(self, result: match.MatchResult, game: match.GameRecord) -> None:
        first_white = game.index % 2 == 0
        winner = game.outcome.winner
        with self.lock:
            if winner is None:
                self.points[0] += 0.5
                self.points[1] += 0.5
            elif winner == first_white:
                self.points[0] += 1
            else:
                self.points[1] += 1
            self.finished.append(
                {
                    "index": game.index,
                    "white": game.white,
                    "black": game.black,
                    "result": game.result(),
                    "termination": game.outcome.termination.name.lower(),
                    "plies": game.board.ply(),
                    "record": game.record(event="congo serve match"),
                }
            )
            self.current = {
                **self.current,
                "fen": game.board.fen(),
                "svg": congo.svg.board(
                    game.board, lastmove=game.board.peek() if game.board.move_stack else None
                ),
                "result": game.result(),
            }
            self.publish()

    # -- running

    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, name="congo-serve-match", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        first = (self.first[0], _wrap(self.first[1], self))
        second = (self.second[0], _wrap(self.second[1], self))
        try:
            result = match.run_match(
                first,
                second,
                games=self.games,
                opening_plies=self.opening_plies,
                max_plies=self.max_plies,
                time_control=self.time_control,
                on_game=self.on_game,
            )
            if self.save is not None:
                match.write_records(self.save, result.games, event="congo serve match")
        except _Stopped:
            return
        except Exception as error:
            with self.lock:
                self.error = str(error)
        with self.lock:
            self.done = True
            self.publish()

    def stop(self) -> None:
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(10)


def _points(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
