"""Analysis at scale: analyse_many, the warm-worker pool, and congo annotate (threads; the Ray
backend is tested in test_ray.py)."""

from __future__ import annotations

import io
import random
import signal
import subprocess
import sys
import time
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

import congo
import congo.pgn
from congo import Board, Limit, Score
from congo.annotate import BLUNDER, INACCURACY, MISTAKE, annotate_game, annotate_games, expected_score
from congo.distributed import open_pool
from congo.engine import InfoDict


def random_boards(count: int, seed: int = 7) -> list[Board]:
    rng = random.Random(seed)
    boards: list[Board] = []
    board = Board()
    while len(boards) < count:
        moves = list(board.legal_moves)
        if not moves or board.ply() > 80:
            board = Board()
            continue
        board.push(rng.choice(moves))
        boards.append(board.copy())
    return boards


def key(result: congo.SearchResult) -> tuple[object, ...]:
    return (result.move, result.score, result.pv, result.depth, result.nodes, result.seldepth, result.outcome)


def one_by_one(positions: list[Board], limit: Limit) -> list[congo.SearchResult]:
    engine = congo.Engine(hash_mb=congo.analysis.DEFAULT_HASH_MB)
    results = []
    for position in positions:
        engine.clear()
        results.append(engine.search(position, limit))
    return results


@pytest.mark.parametrize("limit", [Limit(nodes=3000), Limit(depth=3)])
def test_results_equal_a_one_by_one_loop_for_any_worker_count(limit: Limit) -> None:
    boards = random_boards(24)
    expected = [key(r) for r in one_by_one(boards, limit)]
    for workers in (1, 2, 3):
        assert [key(r) for r in congo.analyse_many(boards, limit, workers=workers)] == expected


def test_long_games_with_repetitions_give_the_results_of_a_loop() -> None:
    """The history handed to the workers is the end of the game that can repeat (taken by the
    core, not replayed in Python): the results equal a loop over the whole boards, also where a
    repetition decides the score, and through a pickle (as to a Ray actor)."""
    import pickle

    fen = "gmelecz/ppppppp/7/7/7/PPPPPPP/3L2Z w 1"
    board = Board(fen)
    boards = [board.copy()]
    for _ in range(30):  # both zebras out and back: every position repeats
        for uci in ("g1f3", "g7f5", "f3g1", "f5g7"):
            board.push(board.parse_uci(uci))
            boards.append(board.copy())
    board.push(board.parse_uci("a2a3"))  # a pawn move: material unchanged, still repeatable
    boards.append(board.copy())
    limit = Limit(depth=3)
    expected = [key(r) for r in one_by_one(boards, limit)]
    assert any(r[1] == Score(cp=0) for r in expected)
    assert [key(r) for r in congo.analyse_many(boards, limit, workers=2)] == expected
    job = congo.analysis._job(boards[-1], limit, 1)
    history = job[1]
    assert history is not None
    copy = pickle.loads(pickle.dumps(history))
    assert copy.moves() == history.moves()
    assert copy.root(job[0]) == history.root(job[0])
    # After a capture only the moves since it are handed over.
    captured = Board("7/7/2l4/7/Z6/3L3/7 w 1")
    for uci in ("a3c2", "c5c6", "c2a3", "c6c5"):
        captured.push(captured.parse_uci(uci))
    taken = Board("7/7/3l3/7/7/3L3/Z6 w 1")
    assert len(congo.analysis._job(taken, limit, 1)[1] or []) == 0
    assert len(congo.analysis._job(captured, limit, 1)[1] or []) == 4


def test_multipv_gives_the_engines_lines_equal_to_a_loop() -> None:
    boards = random_boards(8, seed=3)
    limit = Limit(nodes=2000)
    engine = congo.Engine(hash_mb=congo.analysis.DEFAULT_HASH_MB)
    expected = []
    for board in boards:
        engine.clear()
        expected.append(engine.analyse(board, limit, multipv=3))
    got = [
        typing.cast(list[InfoDict], lines)
        for lines in congo.analyse_many(boards, limit, multipv=3, workers=2)
    ]
    assert [[(info["pv"], info["score"]) for info in lines] for lines in got] == [
        [(info["pv"], info["score"]) for info in lines] for lines in expected
    ]
    assert all(isinstance(lines, list) and 1 <= len(lines) <= 3 for lines in got)


def test_inputs_of_every_kind_in_order() -> None:
    boards = random_boards(6)
    mixed: list[congo.Board | congo.Position | str] = [boards[0], boards[1].position, boards[2].fen()]
    results = list(congo.analyse_many(mixed, Limit(depth=2), workers=2))
    assert len(results) == 3
    # A board's history counts: the same position given as a FEN has no history, but the same
    # best move at depth 2 here.
    assert results[0].move in boards[0].legal_moves
    assert results[2].move in boards[2].legal_moves


def test_the_input_is_read_lazily_and_snapshotted() -> None:
    read = 0

    def positions() -> Iterator[Board]:
        nonlocal read
        board = Board()
        for move_text in ["c1c3", "c6c5", "g1f3", "a7c5"] * 50:
            if not board.is_legal(congo.Move.from_uci(move_text)):
                break
            board.push_uci(move_text)
            read += 1
            yield board  # the same object, changed after it is read: each input is copied

    analysis = congo.analyse_many(positions(), Limit(depth=1), workers=2)
    first = next(analysis)
    assert read <= 2 * 4 + 1  # a bounded window (four per worker), not the whole input
    assert first.move is not None
    rest = list(analysis)
    assert len(rest) + 1 == read


def test_bad_inputs_raise_in_order() -> None:
    positions = [congo.STARTING_FEN, "not a fen", congo.STARTING_FEN]
    analysis = congo.analyse_many(positions, Limit(depth=1), workers=2)
    assert next(analysis).move is not None
    with pytest.raises(congo.InvalidFenError):
        next(analysis)
    with pytest.raises(TypeError):
        list(congo.analyse_many([42], Limit(depth=1)))  # type: ignore[list-item]


def test_argument_errors_are_raised_at_once() -> None:
    with pytest.raises(TypeError):
        congo.analyse_many([], 3)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="workers"):
        list(congo.analyse_many([], Limit(depth=1), workers=0))
    with pytest.raises(ValueError, match="hash_mb"):
        congo.analyse_many([], Limit(depth=1), hash_mb=0)
    with pytest.raises(ValueError, match="multipv"):
        congo.analyse_many([], Limit(depth=1), multipv=0)
    with pytest.raises(TypeError, match="multipv"):
        congo.analyse_many([], Limit(depth=1), multipv=True)
    with pytest.raises(TypeError):
        congo.analyse_many([], Limit(depth=1), progress=5)  # type: ignore[call-overload]


def test_progress_is_reported_after_each_result() -> None:
    seen: list[tuple[int, int | None]] = []
    list(
        congo.analyse_many(
            [congo.STARTING_FEN] * 5, Limit(depth=1), progress=lambda d, t: seen.append((d, t))
        )
    )
    assert seen == [(i, 5) for i in range(1, 6)]
    seen.clear()
    list(
        congo.analyse_many(
            iter([congo.STARTING_FEN] * 2), Limit(depth=1), progress=lambda d, t: seen.append((d, t))
        )
    )
    assert seen == [(1, None), (2, None)]


def test_leaving_the_loop_stops_the_running_searches() -> None:
    # The first position is over (its result comes at once); the others would search for a minute
    # each. Leaving the loop after the first result must stop the searches already running.
    over = "7/7/7/7/7/7/3L3 b 1"
    analysis = congo.analyse_many([over] + [congo.STARTING_FEN] * 6, Limit(time=60), workers=2)
    first = next(analysis)
    assert first.move is None
    assert first.outcome is not None
    time.sleep(0.2)  # the workers are searching now
    start = time.perf_counter()
    analysis.close()
    # Stopped, not finished: well before the 60 s the searches would take (however busy the machine).
    assert time.perf_counter() - start < 30


def test_pool_runs_generic_tasks_in_order_with_warm_state() -> None:
    made = []

    def factory() -> list[int]:
        state: list[int] = []
        made.append(state)
        return state

    def task(state: list[int], item: int) -> int:
        state.append(item)
        return item * item

    with open_pool(factory, task, workers=3) as pool:
        assert list(pool.imap(range(100), chunksize=4)) == [i * i for i in range(100)]
        assert list(pool.imap(range(5))) == [0, 1, 4, 9, 16]
    assert 1 <= len(made) <= 3  # one state per worker thread, kept between tasks
    assert sorted(x for state in made for x in state) == sorted([*range(100), *range(5)])
    with pytest.raises(RuntimeError, match="closed"):
        list(pool.imap(range(3)))


def test_pool_hands_task_errors_over_in_order() -> None:
    def task(state: None, item: int) -> int:
        if item == 3:
            raise KeyError(item)
        return item

    with open_pool(lambda: None, task, workers=2) as pool:
        results = pool.imap(range(10))
        assert [next(results) for _ in range(3)] == [0, 1, 2]
        with pytest.raises(KeyError):
            next(results)


# -- annotate ------------------------------------------------------------------------------------


def test_expected_score_curve() -> None:
    assert expected_score(Score(cp=0)) == 0.5
    assert expected_score(Score(mate=3)) == 1.0
    assert expected_score(Score(mate=-2)) == 0.0
    assert expected_score(Score(mate=0)) == 0.0
    assert expected_score(-Score(mate=0)) == 1.0  # MateGiven: already won
    assert 0.67 < expected_score(Score(cp=200)) < 0.69
    assert INACCURACY < MISTAKE < BLUNDER


def sample_games(count: int, seed: int = 3, plies: int = 24) -> str:
    rng = random.Random(seed)
    out = io.StringIO()
    for number in range(count):
        board = Board()
        while board.ply() < plies and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        game = congo.pgn.Game.from_board(board)
        game.headers["Round"] = str(number + 1)
        congo.pgn.write_game(out, game)
    return out.getvalue()


def test_annotated_games_have_evals_glyphs_lines_and_summaries() -> None:
    games = list(congo.pgn.iter_games(io.StringIO(sample_games(3))))
    annotated = list(annotate_games(games, Limit(nodes=2000), workers=2))
    assert annotated == games  # the same objects, in order
    glyphs = 0
    for game in annotated:
        nodes = list(game.mainline())
        assert all(node.eval() is not None for node in nodes)
        assert game.headers["Annotator"].startswith("congo ")
        for color in ("White", "Black"):
            assert float(game.headers[f"{color}AverageLoss"]) >= 0
            counts = sum(
                int(game.headers[f"{color}{kind}"]) for kind in ("Inaccuracies", "Mistakes", "Blunders")
            )
            glyphs += counts
        for node in nodes:
            marks = node.nags & {2, 4, 6}
            if marks:
                assert len(node.parent.variations) >= 2  # the better line
                assert "was best" in node.comment
    assert glyphs > 0  # random moves: some are mistakes
    text = "".join(str(game) + "\n\n" for game in annotated)
    again = list(congo.pgn.iter_games(io.StringIO(text)))
    assert all(game.errors == [] for game in again)


def test_annotate_game_checks_the_number_of_results() -> None:
    game = congo.pgn.Game()
    game.add_variation(congo.Move.from_uci("g1f3"))
    with pytest.raises(ValueError, match="searches"):
        annotate_game(game, [], annotator="x")


def run_cli(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "congo", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def test_cli_output_is_deterministic_and_keeps_broken_games(tmp_path: Path) -> None:
    records = sample_games(3) + '[White "broken"]\n\n1. Zf3 Zz9 2. Ec3 *\n\n[FEN "bad"]\n\n1. Zf3 *\n'
    source = tmp_path / "in.pgn"
    source.write_text(records, encoding="utf-8")
    one = run_cli("annotate", str(source), "--nodes", "1500", "--workers", "1", "-o", str(tmp_path / "1.pgn"))
    two = run_cli("annotate", str(source), "--nodes", "1500", "--workers", "2", "-o", str(tmp_path / "2.pgn"))
    assert one.returncode == 0, one.stderr
    assert two.returncode == 0, two.stderr
    first = (tmp_path / "1.pgn").read_text(encoding="utf-8")
    assert first == (tmp_path / "2.pgn").read_text(encoding="utf-8")
    games = list(congo.pgn.iter_games(io.StringIO(first)))
    assert len(games) == 5
    assert "Zz9" in one.stderr
    assert "bad FEN" in one.stderr
    assert "problems in this record" in games[3].comment
    assert [m.uci() for m in games[3].mainline_moves()] == ["g1f3"]
    assert games[4].headers["FEN"] == "bad"
    assert "5/5" in one.stderr  # the progress bar
    assert "2 with problems" in one.stderr
    # Standard input to standard output works the same.
    piped = run_cli("annotate", "-", "--nodes", "1500", stdin=records)
    assert piped.returncode == 0
    assert piped.stdout == first


def test_cli_user_errors_are_one_line(tmp_path: Path) -> None:
    missing = run_cli("annotate", str(tmp_path / "none.pgn"))
    assert missing.returncode == 2
    assert "cannot read" in missing.stderr
    assert "Traceback" not in missing.stderr
    (tmp_path / "in.pgn").write_text("1. Zf3 *\n", encoding="utf-8")
    unwritable = run_cli("annotate", str(tmp_path / "in.pgn"), "-o", str(tmp_path / "no" / "out.pgn"))
    assert unwritable.returncode == 2
    assert "cannot write" in unwritable.stderr
    both = run_cli("annotate", str(tmp_path / "in.pgn"), "--nodes", "5", "--depth", "3")
    assert both.returncode == 2


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_cli_ctrl_c_writes_what_is_done_and_exits_130(tmp_path: Path) -> None:
    source = tmp_path / "in.pgn"
    source.write_text(sample_games(40, plies=40), encoding="utf-8")
    out = tmp_path / "out.pgn"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "congo",
            "annotate",
            str(source),
            "--nodes",
            "20000",
            "--workers",
            "2",
            "-o",
            str(out),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    for line in iter(process.stderr.readline, ""):  # wait for the first finished game, however long
        if "/40 " in line:
            break
    process.send_signal(signal.SIGINT)
    code = process.wait(timeout=60)
    rest = process.stderr.read()
    assert code == 130, rest
    assert "interrupted" in rest
    assert "Traceback" not in rest
    written = list(congo.pgn.iter_games(io.StringIO(out.read_text(encoding="utf-8"))))
    assert 1 <= len(written) < 40
    assert all("Annotator" in game.headers for game in written)
