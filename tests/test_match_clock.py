"""``congo match`` on a clock and with outside engines: time controls, adjudication of time losses,
illegal moves and dead engines, clocks and evaluations in the records, Ctrl-C, and user errors caught
before any game is played."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import congo
from congo import match
from congo.engine import Limit, PlayResult

CONGO = [sys.executable, "-m", "congo"]
FOREIGN = f"{sys.executable} {Path(__file__).with_name('foreign_engine.py')}"


def test_time_controls() -> None:
    assert match.TimeControl.parse("10+0.1") == match.TimeControl(10, 0.1)
    assert match.TimeControl.parse("60") == match.TimeControl(60)
    assert match.TimeControl.parse("40/120+1") == match.TimeControl(120, 1, 40)
    assert str(match.TimeControl(10, 0.1)) == "10+0.1"
    assert str(match.TimeControl(120, 1, 40)) == "40/120+1"
    for bad in ("", "fast", "10+x", "-1+0", "0+0", "x/10", "0/10", "nan", "inf+1"):
        with pytest.raises(ValueError, match="time control"):
            match.TimeControl.parse(bad)


class Sleeper(match.Player):
    """A player that thinks longer than its clock allows."""

    name = "sleeper"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def choose(self, board: congo.Board) -> congo.Move:
        return next(iter(board.legal_moves))

    def play(self, board: congo.Board, limit: Limit | None) -> PlayResult:
        time.sleep(self.seconds)
        return PlayResult(self.choose(board))

    def new_game(self) -> None:
        pass


def test_a_clock_that_runs_out_loses_the_game() -> None:
    game = match.play_game(Sleeper(0.15), match.RandomPlayer(1), time_control=match.TimeControl(0.5, 0.01))
    assert isinstance(game.outcome, match.Adjudicated)
    assert game.outcome.termination is match.Adjudication.TIME_FORFEIT
    assert game.outcome.winner is congo.BLACK
    assert game.result() == "0-1"
    assert len(game.board.move_stack) in (6, 7)  # three or four moves of 0.15 s from 0.5 s + 0.01 s each
    record = game.record()
    assert '[Termination "time_forfeit"]' in record
    assert '[TimeControl "0.5+0.01"]' in record
    assert "sleeper ran out of time" in record
    # Clocks after each move, White's shrinking by about 0.14 s a move.
    clocks = [c for c in game.clocks[::2] if c is not None]
    assert clocks[0] == pytest.approx(0.36, abs=0.05)
    assert all(a > b for a, b in zip(clocks, clocks[1:]))


def test_records_carry_clocks_and_evaluations() -> None:
    first, second = match.parse_player("engine:depth=2"), match.parse_player("random")
    game = match.play_match_game(first, second, 0, [], max_plies=12, time_control=match.TimeControl(2, 0.1))
    record = game.record()
    clocks = re.findall(r"\[%clk\s+(\d+):(\d\d):(\d\d\.\d\d\d)\]", record)
    assert len(clocks) == len(game.board.move_stack)
    assert all(float(s) <= 2 + 6 * 0.1 for _, _, s in clocks)  # 2 s and six increments at most
    evals = re.findall(r"\[%eval\s+(#-?\+?\d+|-?\d+\.\d\d)\]", record)
    assert len(evals) == (len(game.board.move_stack) + 1) // 2  # the engine's moves (White) only
    # The built-in engine plays by the clock (not by its depth): it keeps well within it.
    # The engine may win before the 12th ply against a random mover: count its moves, not 6.
    white = [c for c in game.clocks[::2] if c is not None]
    assert len(white) == (len(game.board.move_stack) + 1) // 2 >= 1
    assert min(white) > 0.8
    assert white[-1] < 2 + len(white) * 0.1 - 0.05  # it did think


def test_outside_engines_that_misbehave_lose() -> None:
    for mode, kind in (
        ("illegal", match.Adjudication.ILLEGAL_MOVE),
        ("nonsense", match.Adjudication.ILLEGAL_MOVE),
        ("crash", match.Adjudication.ENGINE_FAILURE),
        ("normal", match.Adjudication.ENGINE_FAILURE),  # it runs out of known positions: no move
    ):
        foreign = match.parse_player(f"uci[time=0.02]:{FOREIGN} --mode {mode}")
        result = match.run_match(foreign, match.parse_player("random"), games=2, opening_plies=0)
        assert result.losses == 2, mode
        for game in result.games:
            assert isinstance(game.outcome, match.Adjudicated), mode
            assert game.outcome.termination is kind, mode
    name, _ = match.parse_player(f"uci:{FOREIGN}")
    assert name == f"uci:{FOREIGN}"
    for bad in ("uci:", "uci[time]:x", "uci[time=fast]:x", "uci:'unclosed"):
        with pytest.raises(ValueError, match=r"uci|key=value|number|split"):
            match.parse_player(bad)


def test_user_errors_are_one_line_before_any_game() -> None:
    run = subprocess.run(
        [*CONGO, "match", "random", "random", "--games", "2", "--save", "/nonexistent/x.pgn"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert "cannot write the games to /nonexistent/x.pgn" in run.stderr
    run = subprocess.run(
        [*CONGO, "match", "random", "random", "--games", str(10**22)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stdout == ""  # no game played
    assert run.stderr.count("\n") == 1
    assert "--games must be at most 1,000,000" in run.stderr
    for bad in (["--tc", "soon"], ["--tc", "0+0"]):
        run = subprocess.run(
            [*CONGO, "match", "random", "random", *bad], capture_output=True, text=True, timeout=60
        )
        assert run.returncode == 2, run.stderr
        assert run.stdout == ""
        assert run.stderr.count("\n") == 1, run.stderr


@pytest.mark.parametrize(
    ("player", "concurrency"),
    [("engine:time=0.02", 1), ("engine:time=0.02", 2), (f"uci[time=0.02]:{sys.executable} -m congo uci", 2)],
)
def test_ctrl_c_prints_the_standings_saves_the_games_and_exits_130(
    tmp_path: Path, player: str, concurrency: int
) -> None:
    save = tmp_path / "games.pgn"
    command = [*CONGO, "match", player, "greedy", "--games", "1000"]
    command += ["--concurrency", str(concurrency), "--save", str(save)]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    # The finished games are in FILE.partial while the match runs; FILE is written at the end.
    partial = save.with_name(save.name + ".partial")
    while not (partial.exists() and partial.read_text().count("[Event ") >= 2):
        assert process.poll() is None
        assert time.monotonic() < deadline
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)  # a thousand games would take far longer
    assert process.returncode == 130, err
    assert "Traceback" not in err
    played = int(re.search(r"interrupted after (\d+) of 1000 games", out).group(1))  # type: ignore[union-attr]
    assert f"({played} games)" in out
    assert "Elo" in out
    assert f"{played} games saved to {save}" in out
    text = save.read_text()
    assert text.count("[Event ") == played >= 2
    rounds = [int(r) for r in re.findall(r'\[Round "(\d+)"\]', text)]
    assert rounds == sorted(rounds)
    assert not partial.exists()


@pytest.mark.slow
def test_a_clock_match_of_congo_uci_has_no_losses_on_time(tmp_path: Path) -> None:
    """20 games of ``congo uci`` against itself at 1 s + 0.02 s per side, through the CLI (CI runs
    this once: ``.ci/run``)."""
    save = tmp_path / "clock.pgn"
    engine = f"uci:{sys.executable} -m congo uci"
    command = [*CONGO, "match", engine, engine, "--games", "20", "--tc", "1+0.02"]
    command += ["--concurrency", "2", "--save", str(save)]
    run = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr
    assert "(20 games)" in run.stdout
    text = save.read_text()
    assert text.count("[Event ") == 20
    terminations = re.findall(r'\[Termination "(\w+)"\]', text)
    assert "time_forfeit" not in terminations, terminations
    assert "engine_failure" not in terminations, terminations
    clocks = [float(s) + 60 * int(m) for m, s in re.findall(r"\[%clk\s+0:(\d\d):(\d\d\.\d+)\]", text)]
    assert len(clocks) > 20 * 20
    assert min(clocks) > 0
    assert re.search(r"\[%eval\s", text)
    print(f"clock match: lowest clock {min(clocks):.3f} s; endings {sorted(set(terminations))}")
