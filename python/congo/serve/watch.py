"""Watching a match live: :func:`congo.match.run_match` in a thread, its players wrapped so that
every move they choose is shown as it is made.

Stopping (Ctrl-C, SIGTERM) aborts the players of the game in progress, as ``congo match`` does (an
outside engine is killed, even one still in its handshake), and writes the finished games to
``--save`` first. Each message a tab receives carries only the games finished since the one before
(a tab that joins is sent them all once)."""

from __future__ import annotations

import contextlib
import threading
import time
from typing import TYPE_CHECKING, Any, Callable

import congo.svg
from congo import match, players
from congo.board import Board
from congo.engine import Limit, PlayResult

if TYPE_CHECKING:
    from congo.serve.session import Subscriber

__all__ = ["MatchWatch"]


class _Stopped(Exception):
    """The server is shutting down: the match ends."""


class _Watched(players.Player):
    """A player that reports each position it is asked about and the move it chooses."""

    def __init__(self, inner: players.Player, watch: MatchWatch) -> None:
        self.inner = inner
        self.watch = watch
        self.name = inner.name

    def new_game(self) -> None:
        # An outside engine is started here: not once the server is stopping.
        if self.watch.stopping.is_set():
            raise _Stopped()
        self.inner.new_game()

    def choose(self, board: Board) -> Any:
        return self.play(board, None).move

    def play(self, board: Board, limit: Limit | None) -> PlayResult:
        if self.watch.stopping.is_set():
            raise _Stopped()
        self.watch.position(board, limit, None)
        played = self.inner.play(board, limit)
        if self.watch.stopping.is_set():
            raise _Stopped()
        score = played.info.get("score") if played.info else None
        self.watch.evaluation(board.turn, None if score is None else score.white())
        return played

    def abort(self) -> None:
        self.inner.abort()

    def close(self) -> None:
        self.watch.forget(self)
        self.inner.close()


def _wrap(factory: Callable[[int], players.Player], watch: MatchWatch) -> Callable[[int], players.Player]:
    def make(seed: int) -> players.Player:
        if watch.stopping.is_set():
            raise _Stopped()
        player = _Watched(factory(seed), watch)
        watch.track(player)
        return player

    return make


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
        """Raises ``ValueError`` for a bad player, time control or ``save`` path (one that cannot be
        written), before any game is played."""
        if save is not None:
            from congo._files import check_writable

            try:
                check_writable(save)
            except OSError as error:
                raise ValueError(f"cannot write the games to {save}: {error.strerror or error}") from None
        self.first = players.parse_player(first)
        self.second = players.parse_player(second)
        self.games = games
        self.time_control = None if time_control is None else match.TimeControl.parse(time_control)
        self.save = save
        self.opening_plies = opening_plies
        self.max_plies = max_plies
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.subscribers: set[Subscriber] = set()
        self.finished: list[dict[str, Any]] = []
        self.records: list[match.GameRecord] = []  # what --save writes, in the order finished
        self.saved = False
        self.hurry = threading.Event()  # a second Ctrl-C: stop waiting for the match thread
        self.players: set[_Watched] = set()
        self._published = 0  # the finished games already sent to every tab
        self.points = [0.0, 0.0]
        self.current: dict[str, Any] = {}
        self.evals: dict[str, str] = {}
        self.done = False
        self.error = ""
        self.thread: threading.Thread | None = None

    # -- what the tabs see

    def snapshot(self, since: int = 0) -> dict[str, Any]:
        """The match as a message (called under ``lock``), with the finished games from ``since``
        on (``finished_from``). Its lists and dicts are copies: a tab's message is serialised
        later, on the server's event loop, while the match goes on."""
        return {
            "type": "match",
            "first": self.first[0],
            "second": self.second[0],
            "score": f"{_points(self.points[0])}-{_points(self.points[1])}",
            "games": len(self.finished),
            "total": self.games,
            "finished_from": since,
            "finished": self.finished[since:],  # a copy; its games are never changed once in
            "current": dict(self.current),  # replaced, never changed, but copied all the same
            "evals": dict(self.evals),
            "done": self.done,
            "error": self.error,
        }

    def publish(self) -> None:
        """Sends every tab what changed (called under ``lock``): serialised once for all of them."""
        from congo.serve.session import encode

        message = self.snapshot(self._published)
        self._published = len(self.finished)
        text = encode(message)
        # A move supersedes the move before it, unsent; a finished game is always sent.
        replaces = None if message["finished"] else "match"
        for subscriber in list(self.subscribers):
            subscriber.send(text, replaces=replaces)

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
            if self.stopping.is_set():
                return  # a game cut short by the stop (its players aborted): not a finished game
            self.records.append(game)
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
            match.run_match(
                first,
                second,
                games=self.games,
                opening_plies=self.opening_plies,
                max_plies=self.max_plies,
                time_control=self.time_control,
                on_game=self.on_game,
            )
        except Exception as error:
            if self.stopping.is_set():
                return  # stopped: stop() saves what was finished
            with self.lock:
                self.error = str(error)
        except BaseException:  # KeyboardInterrupt and the like: what was finished is kept
            self.save_finished()
            raise
        try:
            self.save_finished()
        except Exception as error:
            with self.lock:
                self.error = str(error)
        with self.lock:
            self.done = True
            self.publish()

    def track(self, player: _Watched) -> None:
        with self.lock:
            self.players.add(player)
        if self.stopping.is_set():  # stopped while it was being made
            player.abort()

    def forget(self, player: _Watched) -> None:
        with self.lock:
            self.players.discard(player)

    def save_finished(self) -> None:
        """Writes the finished games to ``save`` (once; whole or not at all: a temporary file
        created beside it, renamed into place)."""
        with self.lock:
            if self.save is None or self.saved:
                return
            self.saved = True
            games = sorted(self.records, key=lambda game: game.index)
        match.write_records(self.save, games, event="congo serve match")

    def stop(self, wait: float = 10.0) -> None:
        """Ends the match: aborts the players of the game in progress (an outside engine is killed),
        waits for the match thread up to ``wait`` seconds (less after :attr:`hurry` is set), then
        saves the finished games."""
        self.stopping.set()
        with self.lock:
            playing = list(self.players)
        for player in playing:
            with contextlib.suppress(Exception):
                player.abort()
        deadline = time.monotonic() + wait
        thread = self.thread
        while thread is not None and thread.is_alive() and not self.hurry.is_set():
            if time.monotonic() > deadline:
                break
            thread.join(0.05)
        self.save_finished()


def _points(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
