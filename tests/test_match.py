"""congo.match and ``congo match``: opening suites and files, paired games and their statistics, the
SPRT stopping a match, the summary's text, and the bound on the plain alpha-beta player."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

import congo
from congo import match, stats
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
        "Elo +89 ± 136 (95 %, 2 pairs), LOS 92.1 %, nElo +246 ± 340\n"
        "Ptnml(0-2): [0, 0, 1, 1, 0]"
    )
    # Two draws: no interval, not "Elo 0 ± 0"; two wins: not "+inf ± inf"; one pair, not "1 pairs".
    draws = match.MatchResult("one", "two")
    draws.add(_game(0, None))
    draws.add(_game(1, None))
    assert "Elo 0 (too few games for an interval, 1 pair)\n" in draws.summary()
    assert "±" not in draws.summary()
    wins = match.MatchResult("one", "two")
    wins.add(_game(0, True))
    wins.add(_game(1, False))
    assert "Elo +inf (too few games for an interval, 1 pair)" in wins.summary()
    assert "inf ±" not in wins.summary()
    # Compatibility: elo() gives the estimate and an infinite error where none is defined.
    assert match.elo(0, 2, 0) == (0.0, float("inf"))
    assert wins.elo()[1] == float("inf")


def test_a_match_won_in_every_pair_gives_the_one_sided_bound_and_normalized_elo() -> None:
    """23 pairs all won printed "Elo +inf (too few games for an interval, 23 pairs)" and nothing
    more: the one-sided bound of benches/ladder.py (now congo.stats) informs."""
    wins = match.MatchResult("one", "two")
    for index in range(46):
        wins.add(_game(index, index % 2 == 0))
    bound = stats.elo_lower_bound([0, 0, 0, 0, 23])
    assert bound == pytest.approx(stats.elo_from_score(23 / (23 + 2.7)), abs=3)
    assert (
        f"(too few games for an interval, 23 pairs), at least {bound:+.0f} (one-sided 95 %)" in wins.summary()
    )
    losses = match.MatchResult("one", "two")
    for index in range(6):
        losses.add(_game(index, index % 2 == 1))
    assert f"at most {-stats.elo_lower_bound([0, 0, 0, 0, 3]):+.0f} (one-sided 95 %)" in losses.summary()
    # fastchess's nElo: (mean - 1/2) / sqrt(2 var) * 800 / ln 10 from the pairs, ± 1.96 * that / sqrt(2N).
    normalized = stats.normalized_elo_pentanomial([1, 4, 10, 6, 3])
    assert normalized is not None
    nelo, error = normalized
    mean = (4 * 0.25 + 10 * 0.5 + 6 * 0.75 + 3) / 24
    variance = (0.5625**2 + 4 * 0.3125**2 + 10 * 0.0625**2 + 6 * 0.1875**2 + 3 * 0.4375**2) / 24
    assert mean == 0.5625
    assert nelo == pytest.approx((mean - 0.5) / math.sqrt(2 * variance) * 800 / math.log(10))
    assert error == pytest.approx(1.959964 * 800 / math.log(10) / math.sqrt(48))
    assert stats.normalized_elo_pentanomial([0, 0, 5, 0, 0]) is None  # no variance
    assert stats.normalized_elo_pentanomial([0, 0, 0, 0, 1]) is None  # one pair


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


def test_deterministic_players_are_named_precisely() -> None:
    deterministic = [
        "engine:depth=1",
        "engine:nodes=500",
        "uci[depth=2]:congo uci",
        "uci[nodes=9,Threads=1]:x",
    ]
    for spec in deterministic:
        assert match.is_deterministic(match.parse_player(spec)[1]), spec
    for spec in [
        "engine:time=0.1",
        "engine",  # time=0.1 by default
        "engine:depth=1,threads=2",
        "uci:congo uci",
        "uci[depth=2,Threads=4]:congo uci",
        "alphabeta:depth=2",  # ties broken by each game's seed
        "greedy",
        "random",
    ]:
        assert not match.is_deterministic(match.parse_player(spec)[1]), spec
    # On a clock nothing is: the time each move gets depends on the machine.
    assert not match.is_deterministic(match.parse_player("engine:depth=1")[1], match.TimeControl(1))


def test_replayed_pairs_are_refused_or_counted_once() -> None:
    """Six openings and 24 games with node-limited engines gave 'Elo +89 ± 53 (12 pairs)' from six
    distinct pairs each played twice: refused unless allowed, then said and counted once."""
    fens = _opening_fens(3)
    first, second = match.parse_player("engine:depth=1"), match.parse_player("engine:depth=2")
    with pytest.raises(
        ValueError, match=r"deterministic .*: 5 pairs over 3 distinct openings replay 2 pairs"
    ):
        match.run_match(first, second, games=10, openings=fens)
    events: list[match.MatchEvent] = []
    played: list[int] = []
    result = match.run_match(
        first,
        second,
        games=10,
        openings=fens,
        allow_repeats=True,
        on_event=events.append,
        on_game=lambda result, game: played.append(game.index),
    )
    assert events[0].kind == "repeats"
    assert events[0].game is None
    assert played == list(range(10))  # the warning came before the first game
    assert len(result.games) == 10
    assert result.replayed == 4
    assert result.played == 6
    assert result.pairs == 3
    # The replays are the same games: nothing was lost by not counting them.
    moves = [[m.uci() for m in game.board.move_stack] for game in result.games]
    assert moves[6:] == moves[:4]
    summary = result.summary()
    assert "(95 %, 3 pairs)" in summary or "3 pairs)" in summary
    assert "repeats: engine:depth=1 and engine:depth=2 are deterministic" in summary
    assert "4 replayed games not counted (each distinct pair once)" in summary
    # Random openings, or a player that is not deterministic, replay nothing.
    assert match.run_match(first, second, games=10, opening_plies=2, max_plies=20).repeats is None
    greedy = match.parse_player("greedy")
    assert match.run_match(first, greedy, games=10, openings=fens, max_plies=20).repeats is None


def test_cli_options_in_any_order_and_the_defaults_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    """`--sprt` before the players swallowed them ('the following arguments are required')."""
    argv = ["match", "--sprt", "elo0=0", "elo1=50", "engine:depth=1", "--games", "4", "random"]
    assert main([*argv, "--resign", "movecount=3", "score=900", "--max-plies", "40"]) == 0
    out = capsys.readouterr().out
    assert "engine:depth=1 vs random: " in out
    assert "LLR: " in out
    argv = ["match", "--resign", "movecount=3", "score=900", "random", "--draw", "movenumber=1"]
    assert main([*argv, "movecount=1", "score=5", "greedy", "--games", "2"]) == 0
    assert "random vs greedy: " in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "a uci: or engine: player without time/depth/nodes gets time=0.1 s a move" in text
    assert "--timemargin MS" in text
    assert "--openings-order {sequential,random}" in text


def test_cli_refuses_replayed_pairs_unless_allowed(tmp_path: Path) -> None:
    suite = tmp_path / "three.txt"
    suite.write_text("\n".join(_opening_fens(3)) + "\n")
    command = [*CONGO, "match", "engine:depth=1", "engine:depth=2", "--openings", str(suite), "--games", "10"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stdout == ""  # refused before the first game
    assert run.stderr.count("\n") == 1
    assert "5 pairs over 3 distinct openings replay 2 pairs" in run.stderr
    run = subprocess.run([*command, "--allow-repeats"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith("warning: engine:depth=1 and engine:depth=2 are deterministic")
    assert "(6 games)" in run.stdout
    assert "4 replayed games not counted (each distinct pair once)" in run.stdout
