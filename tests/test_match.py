"""congo.match and ``congo match``: opening suites and files, paired games and their statistics, the
SPRT stopping a match, the summary's text, and the bound on the plain alpha-beta player."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

import congo
from congo import match
from congo.__main__ import main
from congo.stats import SPRT

CONGO = [sys.executable, "-m", "congo"]
START = congo.Board().fen()


def _opening_fens(count: int) -> list[str]:
    fens = []
    for line in match.make_openings(count, 2, seed=5):
        board = congo.Board()
        for move in line:
            board.push(move)
        fens.append(board.fen())
    return fens


def test_openings_files() -> None:
    one, two = _opening_fens(2)
    text = f"# a suite\n\n{one}\n  {two} ; cp +3 ; id two   # comment\n"
    assert match.parse_openings(text) == [one, two]
    for bad, message in [
        (f"{one}\nnonsense w 1\n", "line 2"),
        (f"# x\n\n ; id x\n{one}\n", "line 3: no FEN"),
        ("# only comments\n\n", "no openings"),
        ("7/7/7/7/7/7/3L3 b 1\n", "line 1: the game is already over"),
    ]:
        with pytest.raises(ValueError, match=message):
            match.parse_openings(bad, source="suite.txt")
    with pytest.raises(ValueError, match=r"cannot read the openings /nonexistent/suite\.txt"):
        match.read_openings("/nonexistent/suite.txt")


def test_the_bundled_suite() -> None:
    suite = match.default_openings()
    assert 100 <= len(suite) <= 300
    assert len(set(suite)) == len(suite)
    assert START not in suite
    assert all(congo.Board(fen).outcome() is None for fen in suite)


def _game(index: int, winner: bool | None) -> match.GameRecord:
    outcome = match.Adjudicated(match.Adjudication.ENGINE_FAILURE, winner)
    return match.GameRecord("a", "b", [], congo.Board(), outcome, index=index)


def test_pairs_and_the_summary() -> None:
    result = match.MatchResult("one", "two")
    # Pair 0: the first player (White in even games) wins then draws; pair 1: wins as Black, loses.
    for index, winner in [(0, True), (1, None), (2, True), (3, True)]:
        result.add(_game(index, winner))
    assert (result.wins, result.draws, result.losses) == (2, 1, 1)
    assert result.pentanomial == [0, 0, 1, 1, 0]
    assert result.summary() == (
        "one vs two: +2 =1 -1 (4 games), score 62.5%\n"
        "Elo +89 ± 136 (95 %, 2 pairs), LOS 92.1 %\n"
        "Ptnml(0-2): [0, 0, 1, 1, 0]"
    )
    # Two draws: no interval, not "Elo 0 ± 0"; two wins: not "+inf ± inf".
    draws = match.MatchResult("one", "two")
    draws.add(_game(0, None))
    draws.add(_game(1, None))
    assert "Elo 0 (too few games for an interval, 1 pairs)" in draws.summary()
    assert "±" not in draws.summary()
    wins = match.MatchResult("one", "two")
    wins.add(_game(0, True))
    wins.add(_game(1, False))
    assert "Elo +inf (too few games for an interval, 1 pairs)" in wins.summary()
    assert "inf ±" not in wins.summary()
    # Compatibility: elo() gives the estimate and an infinite error where none is defined.
    assert match.elo(0, 2, 0) == (0.0, float("inf"))
    assert wins.elo()[1] == float("inf")


def test_a_match_from_a_file_of_openings_with_an_odd_number_of_games() -> None:
    fens = _opening_fens(2)
    result = match.run_match(
        match.parse_player("greedy"), match.parse_player("random"), games=3, openings=fens, max_plies=30
    )
    assert result.played == 3
    assert result.pairs == 1  # the third game, alone on the second opening, is not in a pair
    assert [game.index for game in result.games] == [0, 1, 2]
    assert [game.start_fen for game in result.games] == [fens[0], fens[0], fens[1]]
    assert [game.white for game in result.games] == ["greedy", "random", "greedy"]
    record = result.games[2].record()
    assert f'[FEN "{fens[1]}"]' in record
    assert "[Opening" not in record
    # Openings are reused in order when the match is longer than the suite.
    longer = match.run_match(
        match.parse_player("random"), match.parse_player("random"), games=6, openings=fens[:1], max_plies=4
    )
    assert {game.start_fen for game in longer.games} == {fens[0]}
    with pytest.raises(ValueError, match="not both"):
        match.run_match(
            match.parse_player("random"),
            match.parse_player("random"),
            games=2,
            openings=fens,
            opening_plies=2,
        )
    with pytest.raises(ValueError, match="already over"):
        match.run_match(
            match.parse_player("random"),
            match.parse_player("random"),
            games=2,
            openings=["7/7/7/7/7/7/3L3 b 1"],
        )


def test_the_default_openings_are_the_bundled_suite() -> None:
    result = match.run_match(match.parse_player("random"), match.parse_player("random"), games=2, max_plies=2)
    suite = match.default_openings()
    assert result.games[0].start_fen == suite[0]
    assert result.games[1].start_fen == suite[0]


def test_an_sprt_stops_the_match_once_a_bound_is_crossed() -> None:
    test = SPRT(elo0=0, elo1=50)
    seen: list[float | None] = []
    result = match.run_match(
        match.parse_player("engine:depth=1"),
        match.parse_player("random"),
        games=400,
        concurrency=2,
        sprt=test,
        on_game=lambda result, game: seen.append(result.llr),
    )
    assert result.decision == "H1"
    assert result.llr is not None
    assert result.llr >= test.upper_bound
    assert result.played < 400
    assert result.played % 2 == 0  # checked after each finished pair
    assert result.llr == test.llr_pentanomial(result.pentanomial)
    assert seen[0] is None  # no pair yet after the first game
    assert f"{test.status(result.llr)}  H1 accepted" in result.summary()
    with pytest.raises(TypeError, match="SPRT"):
        match.run_match(
            match.parse_player("random"),
            match.parse_player("random"),
            games=2,
            sprt="elo0=0",  # type: ignore[arg-type]
        )


def test_cli_openings_and_sprt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = tmp_path / "suite.epd"
    suite.write_text("\n".join(f"{fen} ; id {n}" for n, fen in enumerate(_opening_fens(3))) + "\n")
    save = tmp_path / "games.pgn"
    argv = ["match", "engine:depth=1", "random", "--games", "200", "--openings", str(suite)]
    argv += ["--save", str(save), "--sprt", "elo0=0", "elo1=50", "alpha=0.05", "beta=0.05"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "LLR: " in out
    assert "(-2.94, 2.94) [0.00, 50.00]  H1 accepted" in out
    assert "Ptnml(0-2): [" in out
    assert save.read_text().count('[FEN "') >= 2
    suite.write_text("# fine\nnot a fen\n")
    assert main(["match", "random", "random", "--openings", str(suite)]) == 2
    assert f"{suite}, line 2" in capsys.readouterr().err
    assert main(["match", "random", "random", "--sprt", "elo0=5", "elo1=1"]) == 2
    assert "elo0 < elo1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["match", "random", "random", "--openings", str(suite), "--opening-plies", "2"])


def test_alphabeta_depth_is_bounded() -> None:
    assert match.MAX_ALPHABETA_DEPTH == 8
    assert match.parse_player("alphabeta:depth=8")[0] == "alphabeta:depth=8"
    for depth in (0, 9, 1000):
        with pytest.raises(ValueError, match="alphabeta depth must be from 1 to 8"):
            match.parse_player(f"alphabeta:depth={depth}")
    run = subprocess.run(
        [*CONGO, "match", "alphabeta:depth=1000", "random", "--games", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1
    assert "alphabeta depth must be from 1 to 8, got 1000" in run.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_openings_from_an_endless_file_are_refused_not_read_into_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Review: `--openings /dev/zero` read until memory ran out (then 'error: ' with no message)."""
    monkeypatch.setattr(match, "MAX_OPENINGS_BYTES", 1 << 20)
    with pytest.raises(ValueError, match="larger than 1 MiB"):
        match.read_openings("/dev/zero")


def test_openings_with_windows_line_ends_and_a_bad_line(tmp_path: Path) -> None:
    suite = tmp_path / "suite.epd"
    suite.write_bytes(f"{congo.STARTING_FEN} ; id a\r\n# comment\r\n\r\n{congo.STARTING_FEN}\r\n".encode())
    assert match.read_openings(str(suite)) == [congo.STARTING_FEN] * 2
    suite.write_bytes(b"\xff\xfe binary")
    with pytest.raises(ValueError, match="cannot read the openings"):
        match.read_openings(str(suite))


def test_elo() -> None:
    assert match.elo(5, 0, 5)[0] == 0
    difference, error = match.elo(75, 0, 25)
    assert 180 < difference < 200
    assert 0 < error < 100
    assert match.elo(10, 0, 0)[0] == math.inf


def test_openings_are_distinct_and_reproducible() -> None:
    openings = match.make_openings(20, 4, seed=3)
    assert openings == match.make_openings(20, 4, seed=3)
    assert len({tuple(line) for line in openings}) == 20


def test_parse_player() -> None:
    assert match.parse_player("random")[0] == "random"
    assert match.parse_player("alphabeta:depth=1")[0] == "alphabeta:depth=1"
    _name, factory = match.parse_player("engine:nodes=500,null_move=0")
    player = factory(1)
    assert isinstance(player, match.EnginePlayer)
    assert player.limit == congo.Limit(nodes=500)
    for bad in [
        "nobody",
        "random:x=1",
        "engine:depth=zero",
        "engine:nope=1",
        "engine:time=-1",
        "engine:depth",
    ]:
        with pytest.raises(ValueError, match=r"\S"):
            match.parse_player(bad)


def test_a_short_match() -> None:
    result = match.run_match(
        match.parse_player("engine:depth=2"), match.parse_player("random"), games=4, concurrency=2
    )
    assert result.played == 4
    assert result.wins >= 3
    record = result.games[0].record()
    assert '[White "' in record
    assert "[Result" in record


def test_cli_match(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import pathlib

    save = pathlib.Path(str(tmp_path)) / "games.pgn"
    assert main(["match", "engine:depth=1", "random", "--games", "2", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "engine:depth=1 vs random" in out
    assert "Elo" in out
    assert save.read_text().count("[Event ") == 2


@pytest.mark.slow
def test_beats_a_depth_two_material_player() -> None:
    """A short version of the strength benchmark (docs/engine.md): 20 games at 20,000 nodes per move
    (a node limit, not a time: the same games on a loaded machine; measured +20 =0 -0)."""
    result = match.run_match(
        match.parse_player("engine:nodes=20000"), match.parse_player("alphabeta:depth=2"), games=20, seed=7
    )
    assert result.score >= 0.9, result.summary()
