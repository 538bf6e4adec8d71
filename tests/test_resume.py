"""Resuming an interrupted match or tournament (``resume=`` / ``--resume FILE``): the state is on disk
after every game, a run continued from it ends with the same games, counts and LLR as one never
interrupted, and a state written by another command is refused."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from congo import match, tournament

CONGO = [sys.executable, "-m", "congo"]
UCI = f"{sys.executable} -m congo uci"


def _finished(state: Path) -> int:
    """The games a state file holds: its lines after the first, each complete."""
    lines = state.read_text().split("\n")
    assert lines[-1] == ""  # every line complete
    for line in lines[1:-1]:
        json.loads(line)
    return len(lines) - 2


def _stop_after(games: int) -> Callable[[Any, match.GameRecord], None]:
    def on_game(result: Any, game: match.GameRecord) -> None:
        if result.played >= games:
            raise KeyboardInterrupt

    return on_game


def _same_games(a: list[match.GameRecord], b: list[match.GameRecord]) -> None:
    assert [g.index for g in a] == [g.index for g in b]
    assert [g.board.move_stack for g in a] == [g.board.move_stack for g in b]
    assert [g.result() for g in a] == [g.result() for g in b]
    assert [g.outcome.termination for g in a] == [g.outcome.termination for g in b]


@pytest.mark.parametrize("concurrency", [1, 2])
@pytest.mark.parametrize("stop", [1, 4, 7])
def test_an_interrupted_match_resumed_ends_as_one_never_interrupted(
    tmp_path: Path, concurrency: int, stop: int
) -> None:
    players = match.parse_player("greedy"), match.parse_player("alphabeta:depth=1")
    options: dict[str, Any] = {
        "games": 11,
        "opening_plies": 3,
        "seed": 4,
        "sprt": match.SPRT(elo0=0, elo1=20),
        "concurrency": concurrency,
    }
    whole = match.run_match(*players, **options)
    state = tmp_path / "state.json"
    with pytest.raises(match.MatchInterrupted) as interrupted:
        match.run_match(*players, on_game=_stop_after(stop), resume=state, **options)
    assert interrupted.value.result.played == stop
    assert _finished(state) == stop
    told: list[int] = []
    resumed = match.run_match(*players, on_game=lambda r, g: told.append(g.index), resume=state, **options)
    assert told == list(range(stop, 11))  # the games taken from the state are not played again
    _same_games(resumed.games, whole.games)
    assert (resumed.wins, resumed.draws, resumed.losses) == (whole.wins, whole.draws, whole.losses)
    assert resumed.pentanomial == whole.pentanomial
    assert resumed.llr == whole.llr
    assert resumed.decision == whole.decision
    # A finished run's state resumes to the same result without playing.
    again = match.run_match(*players, on_game=lambda r, g: told.append(-1), resume=state, **options)
    assert -1 not in told
    assert again.pentanomial == whole.pentanomial


def test_the_built_in_engine_resumes_to_the_same_games(tmp_path: Path) -> None:
    players = match.parse_player("engine:depth=2"), match.parse_player("engine:depth=1")
    options: dict[str, Any] = {"games": 6, "opening_plies": 4, "seed": 2, "max_plies": 60}
    whole = match.run_match(*players, **options)
    state = tmp_path / "state.json"
    with pytest.raises(match.MatchInterrupted):
        match.run_match(*players, on_game=_stop_after(3), resume=state, **options)
    resumed = match.run_match(*players, resume=state, **options)
    _same_games(resumed.games, whole.games)
    assert resumed.pentanomial == whole.pentanomial
    # What the records say of each move (scores, depths) came back from the state too.
    assert [g.evals for g in resumed.games] == [g.evals for g in whole.games]


def test_an_interrupted_tournament_resumed_ends_as_one_never_interrupted(tmp_path: Path) -> None:
    players = ["greedy", "alphabeta:depth=1", "random"]
    options: dict[str, Any] = {"games": 4, "opening_plies": 2, "seed": 7, "concurrency": 2}
    whole = match.run_tournament(players, **options)
    state = tmp_path / "state.json"
    with pytest.raises(tournament.TournamentInterrupted) as interrupted:
        match.run_tournament(players, on_game=_stop_after(5), resume=state, **options)
    assert interrupted.value.result.played == 5
    resumed = match.run_tournament(players, resume=state, **options)
    assert resumed.numbers == whole.numbers
    _same_games(resumed.games, whole.games)
    assert [m.pentanomial for m in resumed.matches] == [m.pentanomial for m in whole.matches]
    assert resumed.table() == whole.table()
    assert list(resumed.records()) == list(whole.records())


def test_the_state_is_on_disk_after_every_game_and_nothing_else_is_left(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    seen: list[int] = []

    def on_game(result: match.MatchResult, game: match.GameRecord) -> None:
        seen.append(_finished(state))  # every game complete on disk when it is told

    match.run_match(
        match.parse_player("random"),
        match.parse_player("greedy"),
        games=5,
        opening_plies=2,
        on_game=on_game,
        resume=state,
    )
    assert seen == [1, 2, 3, 4, 5]
    assert sorted(os.listdir(tmp_path)) == ["state.json"]  # no temporary file left behind


def test_a_game_cut_short_on_disk_is_played_again(tmp_path: Path) -> None:
    """A kill in the middle of writing a game leaves part of a line: that game is not taken."""
    players = match.parse_player("greedy"), match.parse_player("random")
    options: dict[str, Any] = {"games": 6, "opening_plies": 2, "seed": 9}
    whole = match.run_match(*players, **options)
    state = tmp_path / "state.json"
    with pytest.raises(match.MatchInterrupted):
        match.run_match(*players, on_game=_stop_after(4), resume=state, **options)
    lines = state.read_text().split("\n")
    state.write_text("\n".join(lines[:4]) + "\n" + lines[4][: len(lines[4]) // 2])  # game 4 torn
    told: list[int] = []
    resumed = match.run_match(*players, on_game=lambda r, g: told.append(g.index), resume=state, **options)
    assert told == [3, 4, 5]
    _same_games(resumed.games, whole.games)
    assert resumed.pentanomial == whole.pentanomial
    assert _finished(state) == 6
    # A damaged line before the last is not a cut: refused, naming it.
    text = state.read_text().split("\n")
    text[2] = text[2][:10]
    state.write_text("\n".join(text))
    with pytest.raises(ValueError, match="line 3: a damaged match state"):
        match.run_match(*players, resume=state, **options)


def test_a_state_of_another_command_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    first, second = match.parse_player("random"), match.parse_player("greedy")
    match.run_match(first, second, games=4, opening_plies=2, resume=state)
    before = state.read_text()
    for changed, what in (
        ({"games": 6}, "games"),
        ({"seed": 2}, "seed"),
        ({"max_plies": 100}, "max_plies"),
        ({"sprt": match.SPRT(0, 5)}, "sprt"),
    ):
        options: dict[str, Any] = {"games": 4, "opening_plies": 2, **changed}
        with pytest.raises(ValueError, match=f"another match.*{what}"):
            match.run_match(first, second, resume=state, **options)
    with pytest.raises(ValueError, match="players"):
        match.run_match(
            first, match.parse_player("alphabeta:depth=1"), games=4, opening_plies=2, resume=state
        )
    # A uci player's settings are part of what is compared, though not of its name.
    uci_state = tmp_path / "uci.json"
    with pytest.raises(match.MatchInterrupted):
        match.run_match(
            match.parse_player(f"uci[depth=1]:{UCI}"),
            second,
            games=4,
            opening_plies=2,
            resume=uci_state,
            on_game=_stop_after(1),
        )
    with pytest.raises(ValueError, match="players"):
        match.run_match(
            match.parse_player(f"uci[depth=2]:{UCI}"), second, games=4, opening_plies=2, resume=uci_state
        )
    with pytest.raises(ValueError, match="another match"):
        match.run_tournament(["random", "greedy"], games=4, opening_plies=2, resume=state)
    assert state.read_text() == before  # a refused state is left as it was
    not_a_state = tmp_path / "notes.json"
    not_a_state.write_text('{"hello": 1}\n')
    with pytest.raises(ValueError, match="not a match state"):
        match.run_match(first, second, games=4, opening_plies=2, resume=not_a_state)
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    with pytest.raises(ValueError, match="not a match state"):
        match.run_match(first, second, games=4, opening_plies=2, resume=garbage)
    assert garbage.read_text() == "{not json"
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ValueError, match="cannot read the match state"):
        match.run_match(first, second, games=4, opening_plies=2, resume=binary)
    with pytest.raises(ValueError, match="cannot write the match state"):
        match.run_match(first, second, games=4, opening_plies=2, resume=tmp_path / "nowhere" / "s.json")


def _moves_and_results(pgn: str) -> list[str]:
    """The records without what depends on the clock on the wall (comments: times of moves)."""
    games = []
    for record in pgn.split("[Event ")[1:]:
        body = re.sub(r"\{[^}]*\}", "", record.split("\n\n", 1)[1])
        games.append(" ".join(body.split()))
    return games


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process group is POSIX")
def test_congo_match_killed_and_resumed_with_real_engines(tmp_path: Path) -> None:
    command = [
        *CONGO,
        "match",
        f"uci[depth=2]:{UCI}",
        f"uci[depth=1]:{UCI}",
        "--games",
        "6",
        "--opening-plies",
        "4",
        "--max-plies",
        "80",
    ]
    whole = subprocess.run(
        [*command, "--save", str(tmp_path / "whole.pgn")], capture_output=True, text=True, timeout=600
    )
    assert whole.returncode == 0, whole.stderr
    state = tmp_path / "state.json"
    resumed_command = [*command, "--resume", str(state), "--save", str(tmp_path / "resumed.pgn")]
    process = subprocess.Popen(resumed_command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:  # bounded: waits for two finished games, whatever the machine
        if state.exists() and state.read_text().count("\n") >= 3:
            break
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "interrupted after" in out
    finished = _finished(state)
    assert 2 <= finished < 6
    again = subprocess.run(resumed_command, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr

    def summary(text: str) -> list[str]:
        # Without what the wall clock decides (times, latencies) and the file's name.
        timed = ("time ", "interrupted", "latency", "overrun")
        return [line for line in text.splitlines() if not line.startswith(timed) and "saved to" not in line]

    assert summary(again.stdout) == summary(whole.stdout)
    assert _moves_and_results((tmp_path / "resumed.pgn").read_text()) == _moves_and_results(
        (tmp_path / "whole.pgn").read_text()
    )
    # Another command with the same state file is refused in one line.
    other = subprocess.run(
        [*command[:-4], "--games", "8", "--resume", str(state)], capture_output=True, text=True, timeout=120
    )
    assert other.returncode == 2
    assert "holds the state of another match" in other.stderr
    assert other.stderr.count("\n") == 1
