"""``congo match`` on a clock and with outside engines: time controls, adjudication of time losses,
illegal moves and dead engines, clocks and evaluations in the records, Ctrl-C, and user errors caught
before any game is played."""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import congo
from congo import match, pgn
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
    assert re.search(
        r"sleeper \(White\) lost on time: \d+\.\d{3} s for its move, \d+ ms over its clock", record
    )
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


class LateMover(Sleeper):
    """Plays its first move at once and then one move 0.3 s late on a clock of 0.2 s: late by about
    100 ms (more than the test's scheduling noise in either direction)."""

    name = "late"

    def __init__(self) -> None:
        super().__init__(0.0)
        self.moves = 0

    def play(self, board: congo.Board, limit: Limit | None) -> PlayResult:
        self.moves += 1
        time.sleep(0.3 if self.moves == 2 else 0.0)
        return PlayResult(self.choose(board))


def test_a_move_late_by_less_than_the_margin_is_reported_not_lost() -> None:
    events: list[match.MatchEvent] = []
    clock = match.TimeControl(0.2, 0.05)
    game = match.play_game(
        LateMover(),
        match.RandomPlayer(1),
        time_control=clock,
        time_margin=5.0,
        max_plies=8,
        on_event=events.append,
    )
    assert not isinstance(game.outcome, match.Adjudicated), game.outcome
    late = [event for event in events if event.kind == "late_move"]
    assert len(late) == 1
    assert late[0].player == "late"
    assert late[0].overrun is not None
    assert 0.04 < late[0].overrun < 5.0
    assert re.fullmatch(
        r"late \(White\) was \d+ ms late with move 2 \(within the 5000 ms margin\)", late[0].message
    )
    assert game.clocks[2] == pytest.approx(0.05)  # 0 after the late move, then the increment
    assert late[0].message in game.record()
    result = match.MatchResult("late", "random")
    result.add(game)
    assert re.search(
        r"^late late: 1 move within the time margin, at most \d+ ms over$", result.summary(), re.M
    )
    # Without the margin the same move loses on time, said as it happens and by how much.
    events.clear()
    game = match.play_game(LateMover(), match.RandomPlayer(1), time_control=clock, on_event=events.append)
    assert isinstance(game.outcome, match.Adjudicated)
    assert game.outcome.termination is match.Adjudication.TIME_FORFEIT
    assert [event.kind for event in events] == ["time_forfeit"]
    result = match.MatchResult("late", "random")
    result.add(game)
    assert re.search(r"^lost on time late: 1 game, by (\d+) to \1 ms$", result.summary(), re.M)
    assert re.fullmatch(
        r"late \(White\) lost on time: \d+\.\d{3} s for its move, \d+ ms over its clock", events[0].message
    )
    with pytest.raises(ValueError, match="time margin"):
        match.play_game(LateMover(), match.RandomPlayer(1), time_control=clock, time_margin=-1)


def test_cli_timemargin_on_a_clock(tmp_path: Path) -> None:
    """--timemargin MS reaches the games: a congo uci engine on a clock keeps within it; the
    summary names it by its id name and gives its latency."""
    save = tmp_path / "games.pgn"
    engine = f"uci:{sys.executable} -m congo uci"
    run = subprocess.run(
        [
            *CONGO,
            "match",
            engine,
            "random",
            "--games",
            "2",
            "--tc",
            "2+0.05",
            "--timemargin",
            "200",
            "--max-plies",
            "16",
            "--save",
            str(save),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"^congo \S+ vs random: ", run.stdout, re.M), run.stdout
    assert re.search(r"^latency congo \S+: mean \d+\.\d ms, max \d+\.\d ms \(\d+ moves\)$", run.stdout, re.M)
    text = save.read_text()
    assert f'[WhiteCommand "{sys.executable} -m congo uci"]' in text
    assert "time_forfeit" not in text


def test_errors_are_reported_as_they_happen_and_kept_in_the_record() -> None:
    """An illegal move (the move and the position) and a crash (the exit status and the engine's
    last stderr lines) reach ``on_event`` during the match and stay in the records; the engines
    are named by their id name, their command lines in tags."""
    events: list[match.MatchEvent] = []
    crash = match.parse_player(f"uci[time=0.02]:{FOREIGN} --mode crash")
    illegal = match.parse_player(f"uci[time=0.02]:{FOREIGN} --mode illegal")
    result = match.run_match(crash, illegal, games=2, opening_plies=0, on_event=events.append)
    assert [(event.kind, event.game) for event in events] == [("engine_failure", 0), ("illegal_move", 1)]
    died, wrong = events
    assert died.message.startswith("Foreign Table Engine (White) failed: ")
    assert "exit code 3" in died.message
    assert "foreign engine: simulated crash" in died.message  # its last stderr line
    assert "'a1a7'" in wrong.message
    assert wrong.fen == congo.STARTING_FEN
    assert wrong.message.endswith(f"in {congo.STARTING_FEN}")
    assert str(wrong) == f"game 2: {wrong.message}"
    for game, event in zip(result.games, events):
        assert (game.white, game.black) == ("Foreign Table Engine", "Foreign Table Engine")
        record = game.record()
        assert f'[WhiteCommand "{FOREIGN} --mode ' in record
        assert re.search(r'\[Date "\d{4}\.\d\d\.\d\d"\]', record)
        assert " ".join(event.message.split()) in " ".join(record.split())
    # Two engines of the same id name keep their descriptions in the summary.
    assert result.summary().startswith(f"uci:{FOREIGN} --mode crash vs uci:{FOREIGN} --mode illegal:")


def test_cli_prints_errors_on_stderr_as_they_happen() -> None:
    run = subprocess.run(
        [
            *CONGO,
            "match",
            f"uci[time=0.02]:{FOREIGN} --mode crash",
            "random",
            "--games",
            "2",
            "--opening-plies",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    lines = [line for line in run.stderr.splitlines() if line.startswith("game ")]
    assert len(lines) == 2
    assert lines[0].startswith("game 1: Foreign Table Engine (White) failed: the engine process died")
    assert "exit code 3" in lines[0]
    assert "simulated crash" in lines[0]
    # Named by its id name against a player of another name.
    assert run.stdout.startswith("Foreign Table Engine vs random: +0 =0 -2"), run.stdout


def test_records_carry_each_move_s_depth_score_nodes_and_time_read_back_by_the_pgn_reader() -> None:
    engine = match.parse_player(f"uci[depth=2]:{sys.executable} -m congo uci")
    game = match.play_match_game(engine, match.parse_player("random"), 0, [], max_plies=6)
    record = game.record()
    comments = re.findall(
        r"\{([+-](?:\d+\.\d\d|M\d+)/\d+ \d+\.\d{3}s, n=\d+)[^}]*\}", " ".join(record.split())
    )
    assert len(comments) == 3, record  # the engine's three moves
    parsed = pgn.read_game(io.StringIO(record))
    assert parsed is not None
    assert not parsed.errors
    nodes = list(parsed.mainline())
    for node, info in zip(nodes[::2], game.infos[::2]):
        assert info is not None
        assert info.score is not None
        stats = node.move_stats()
        assert stats is not None
        assert stats.depth == info.depth == 2
        assert stats.nodes == info.nodes
        assert stats.time == pytest.approx(info.elapsed, abs=0.0005)
        assert stats.score == info.score
    assert all(node.move_stats() is None for node in nodes[1::2])  # a random mover says nothing
