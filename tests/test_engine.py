"""The search engine from Python: limits, results, forced wins, threads, stopping, progress, CLI."""

from __future__ import annotations

import math
import threading
import time
import warnings
from collections.abc import Iterable, Iterator

import pytest

import congo
from tests.gil import assert_releases_the_gil

# (FEN, own moves to the win), each confirmed by brute force in rust/congo-core/tests/search.rs.
FORCED_WINS = [
    ("7/4l2/7/4c2/7/2p4/1M1L3 w 1", 1),
    ("3l3/7/7/7/7/7/3L3 w 1", 1),
    ("4l2/7/4P2/5S1/7/7/4LG1 w 1", 2),
    ("2l4/5C1/1P5/2G4/7/7/4L2 w 1", 2),
    ("7/2Z1l2/7/5M1/2L4/E6/7 w 1", 2),
    ("7/3l3/5P1/2S4/3Z3/2L4/7 w 1", 3),
    ("3Z3/2l4/7/1P5/7/3L3/7 w 1", 3),
]


@pytest.fixture(scope="module")
def engine() -> congo.Engine:
    return congo.Engine(hash_mb=16)


# -- limits ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"depth": "3"},
        {"depth": 2.5},
        {"depth": True},
        {"nodes": 1000.0},
        {"nodes": "10"},
        {"time": "1"},
        {"time": True},
    ],
)
def test_limits_of_the_wrong_type_raise_type_error(kwargs: dict[str, object]) -> None:
    with pytest.raises(TypeError, match=next(iter(kwargs))):
        congo.Limit(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"depth": 0},
        {"depth": -2},
        {"depth": congo.engine.MAX_DEPTH + 1},
        {"nodes": 0},
        {"nodes": -5},
        {"nodes": 2**64},
        {"time": 0},
        {"time": -1.0},
        {"time": math.nan},
        {"time": math.inf},
        {"time": 1e300},
    ],
)
def test_limits_out_of_range_raise_value_error(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        congo.Limit(**kwargs)  # type: ignore[arg-type]


def test_valid_limits() -> None:
    assert congo.Limit() == congo.Limit(depth=None, nodes=None, time=None)
    assert congo.Limit(depth=congo.engine.MAX_DEPTH).depth == congo.engine.MAX_DEPTH
    assert congo.Limit(time=1).time == 1
    assert congo.Limit(depth=3, nodes=10, time=0.5) == congo.Limit(3, 10, 0.5)


def test_bad_engine_arguments() -> None:
    with pytest.raises(ValueError, match="threads"):
        congo.Engine(threads=0)
    with pytest.raises(ValueError, match="hash_mb"):
        congo.Engine(hash_mb=0)
    with pytest.raises(ValueError, match="hash_mb"):
        congo.Engine(hash_mb=10**30)
    with pytest.raises(ValueError, match="threads"):
        congo.Engine(threads=257)
    with pytest.raises(ValueError, match=r'"pawn" must be from 0 to 2000, got 2\*\*127 or more'):
        congo.Engine(options={"pawn": 10**40})
    with pytest.raises(TypeError, match="threads"):
        congo.Engine(threads="2")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown engine option"):
        congo.Engine(options={"nullmove": 0})
    with pytest.raises(ValueError, match="null_move"):
        congo.Engine(options={"null_move": 5})
    with pytest.raises(TypeError):
        congo.Engine(options={"null_move": "off"})


def test_bad_search_arguments(engine: congo.Engine) -> None:
    with pytest.raises(TypeError, match="Limit"):
        engine.search(congo.Board(), 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Board"):
        engine.search(42, congo.Limit(depth=1))  # type: ignore[arg-type]
    with pytest.raises(congo.InvalidFenError):
        engine.search("not a fen", congo.Limit(depth=1))
    with pytest.raises(TypeError, match="callback"):
        engine.search(congo.Board(), congo.Limit(depth=1), callback=3)  # type: ignore[arg-type]


# -- results --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fen", "moves"), FORCED_WINS)
def test_finds_forced_wins(fen: str, moves: int) -> None:
    result = congo.Engine(hash_mb=16).search(congo.Board(fen), congo.Limit(depth=8))
    assert result.score == congo.Score(mate=moves)
    assert result.move is not None
    assert result.pv[0] == result.move
    board = congo.Board(fen)
    for move in result.pv:
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.winner == congo.Board(fen).turn


def test_lion_capture_in_one(engine: congo.Engine) -> None:
    result = engine.search("7/4l2/7/4c2/7/2p4/1M1L3 w 1", congo.Limit(depth=1))
    assert result.move == congo.Move.from_uci("b1d3f5d7")
    assert result.score.mate == 1
    assert result.score.cp is None
    assert str(result.score) == "#1"


def test_result_fields(engine: congo.Engine) -> None:
    result = engine.search(congo.Board(), congo.Limit(depth=4))
    assert result.move in congo.Board().legal_moves
    assert result.depth == 4
    assert result.seldepth >= 4
    assert result.nodes > 0
    assert result.time > 0
    assert result.nps > 0
    assert result.score.cp is not None
    assert result.score.mate is None
    assert result.outcome is None
    assert len(result.pv) >= 1


@pytest.mark.parametrize(
    ("fen", "termination", "score"),
    [
        ("7/7/7/7/7/7/3L3 b 1", congo.Termination.LION_CAPTURED, congo.Score(mate=0)),
        ("2l4/7/7/7/7/7/4L2 w 1", congo.Termination.BARE_LIONS, congo.Score(cp=0)),
    ],
)
def test_a_finished_game_has_no_move(
    engine: congo.Engine, fen: str, termination: congo.Termination, score: congo.Score
) -> None:
    result = engine.search(fen, congo.Limit(depth=3))
    assert result.move is None
    assert result.pv == []
    assert result.outcome is not None
    assert result.outcome.termination == termination
    assert result.score == score


def test_board_history_is_used() -> None:
    board = congo.Board()
    for uci in ["b2b3", "b6b5", "a1a3", "a7a5"]:
        board.push_uci(uci)
    result = congo.Engine(hash_mb=16).search(board, congo.Limit(depth=3))
    assert result.move in board.legal_moves


def test_score_helpers() -> None:
    assert str(congo.Score(cp=35)) == "+35"
    assert str(congo.Score(cp=-120)) == "-120"
    assert str(congo.Score(mate=-2)) == "#-2"
    assert congo.Score(mate=1).score() > congo.Score(mate=3).score() > congo.Score(cp=2000).score()
    assert congo.Score(mate=-1).score() < congo.Score(mate=-4).score() < congo.Score(cp=-2000).score()
    assert congo.Score(mate=2).is_mate()
    assert not congo.Score(cp=0).is_mate()


def test_evaluate_and_options() -> None:
    # The hand-written evaluation (nnue=0; the default is the network) is 0 at the start but for the
    # side to move's bonus.
    engine = congo.Engine(hash_mb=1, options={"nnue": 0, "tempo": 0})
    assert engine.evaluate(congo.Board()) == 0
    assert engine.option("tempo") == 0
    assert congo.Engine(hash_mb=1, options={"nnue": 0, "tempo": 12}).evaluate(congo.Board()) == 12
    assert congo.Engine().option("nnue") == 1
    names = [option.name for option in congo.Engine.option_info()]
    assert {"null_move", "lmr", "mobility", "pst"} <= set(names)
    with pytest.raises(ValueError, match="unknown engine option"):
        engine.option("nope")
    assert repr(engine) == "<Engine threads=1 hash_mb=1, nnue=0, tempo=0>"


def test_a_weight_the_network_ignores_warns() -> None:
    # The default evaluation is the network; the hand-written evaluation's weights need nnue=0.
    with pytest.warns(UserWarning, match="no effect while nnue is on: pst, tempo") as caught:
        engine = congo.Engine(options={"tempo": 0, "pst": 50})
    assert caught[0].filename == __file__  # the caller's line, not congo's
    assert engine.option("tempo") == 0  # set all the same
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        congo.Engine(options={"tempo": 0, "nnue": 0})
        congo.Engine(options={"pawn": 120, "null_move": 0})  # the ordering uses material; a search switch


# -- determinism, threads, stopping, progress --------------------------------------------------------


@pytest.mark.parametrize("limit", [congo.Limit(depth=6), congo.Limit(nodes=20_000)])
def test_one_thread_with_depth_or_nodes_is_deterministic(limit: congo.Limit) -> None:
    board = congo.Board("g1elecz/pmpp1pp/4p2/1p5/2P1P2/PP1P1PP/GMEL1CZ b 5")
    first = congo.Engine(hash_mb=16).search(board, limit)
    second = congo.Engine(hash_mb=16).search(board, limit)
    assert (first.move, first.score, first.pv, first.nodes) == (
        second.move,
        second.score,
        second.pv,
        second.nodes,
    )
    reused = congo.Engine(hash_mb=16)
    reused.search(congo.Board(), congo.Limit(depth=3))
    reused.clear()
    third = reused.search(board, limit)
    assert (third.move, third.nodes) == (first.move, first.nodes)


def test_stop_from_another_thread_ends_an_unlimited_search() -> None:
    engine = congo.Engine(hash_mb=16)
    asked: list[float] = []

    def stop_soon() -> None:
        time.sleep(0.2)
        asked.append(time.perf_counter())
        engine.stop()

    stopper = threading.Thread(target=stop_soon)
    stopper.start()
    result = engine.search(congo.Board(), congo.Limit())
    returned = time.perf_counter()
    stopper.join()
    assert result.move is not None
    # An unlimited search has no other end than the stop. (The engine notices within a millisecond:
    # a benchmark figure, benches/worst_case.py; the bound here only tells ended from never.)
    assert returned - asked[0] < 30


def test_the_gil_is_released_while_searching() -> None:
    engine = congo.Engine(hash_mb=16)
    assert_releases_the_gil(lambda: engine.search(congo.Board(), congo.Limit(time=0.3)))


def test_several_engines_search_at_once_from_threads() -> None:
    boards = [congo.Board(), congo.Board("g1elecz/pmpp1pp/4p2/1p5/2P1P2/PP1P1PP/GMEL1CZ b 5")]
    limit = congo.Limit(depth=6)
    alone = [congo.Engine(hash_mb=16).search(board, limit) for board in boards]
    together: list[congo.SearchResult | None] = [None, None]

    def run(i: int) -> None:
        together[i] = congo.Engine(hash_mb=16).search(boards[i], limit)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for a, b in zip(alone, together):
        assert b is not None
        assert (a.move, a.nodes) == (b.move, b.nodes)


def test_an_engine_searches_one_position_at_a_time() -> None:
    engine = congo.Engine(hash_mb=16)
    started = threading.Event()
    results: list[congo.SearchResult] = []
    searcher = threading.Thread(
        target=lambda: results.append(
            engine.search(congo.Board(), congo.Limit(), callback=lambda _: started.set())
        )
    )
    searcher.start()
    assert started.wait(10)
    with pytest.raises(RuntimeError, match="already searching"):
        engine.search(congo.Board(), congo.Limit(depth=1))
    with pytest.raises(RuntimeError, match="already searching"):
        engine.clear()
    engine.stop()
    searcher.join()
    assert results[0].move is not None


def test_two_threads_find_the_forced_wins() -> None:
    engine = congo.Engine(threads=2, hash_mb=16)
    assert engine.threads == 2
    for fen, moves in FORCED_WINS:
        engine.clear()
        assert engine.search(fen, congo.Limit(depth=8)).score == congo.Score(mate=moves)
    assert engine.search(congo.Board(), congo.Limit(nodes=50_000)).move is not None


def test_time_limit() -> None:
    engine = congo.Engine(hash_mb=16)
    start = time.perf_counter()
    result = engine.search(congo.Board(), congo.Limit(time=0.2))
    assert result.move is not None
    # Ended by its time, where nothing else would end it (its overrun is a benchmark figure,
    # benches/worst_case.py; this bound only tells ended from never, on any machine).
    assert time.perf_counter() - start < 30


def test_callback_sees_every_depth() -> None:
    seen: list[congo.SearchInfo] = []
    result = congo.Engine(hash_mb=16).search(congo.Board(), congo.Limit(depth=5), callback=seen.append)
    # Bound reports (a score outside the aspiration window) come only after a second: on a slow
    # enough machine there could be some, so only the exact ones are counted.
    seen = [info for info in seen if info.bound == "exact"]
    assert [info.depth for info in seen] == [1, 2, 3, 4, 5]
    assert all(a.nodes <= b.nodes for a, b in zip(seen, seen[1:]))
    assert seen[-1].pv == result.pv
    assert seen[-1].score == result.score
    assert seen[-1].move == result.move


def test_callback_errors_stop_the_search_and_propagate() -> None:
    def fail(info: congo.SearchInfo) -> None:
        if info.depth == 2:
            raise KeyError("enough")

    engine = congo.Engine(hash_mb=16)
    with pytest.raises(KeyError, match="enough"):
        engine.search(congo.Board(), congo.Limit(), callback=fail)
    assert engine.search(congo.Board(), congo.Limit(depth=2)).move is not None


def test_analysis_iterates_and_stops_when_left() -> None:
    engine = congo.Engine(hash_mb=16)
    infos = engine.analysis(congo.Board(), congo.Limit(depth=4))
    # Exact scores only: see test_callback_sees_every_depth.
    depths = [info["depth"] for info in infos if not {"lowerbound", "upperbound"} & info.keys()]
    assert depths == [1, 2, 3, 4]
    for info in engine.analysis(congo.Board()):  # unlimited: ended by the next call
        if info["depth"] >= 3:
            break
    # Not left searching: the engine takes the next search at once.
    assert engine.search(congo.Board(), congo.Limit(depth=1)).move is not None


# -- documentation ---------------------------------------------------------------------------------------


def test_docstring_examples() -> None:
    import doctest

    from congo import engine

    failures, tried = doctest.testmod(engine, optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failures == 0


def test_engine_page_examples() -> None:
    import doctest
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "engine.md"
    failures, tried = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failures == 0


def _stop_until_ended(engine: congo.Engine, thread: threading.Thread) -> None:
    """Ends a search whose stop was lost, so that a failing test does not leave it running."""
    while thread.is_alive():
        engine.stop()
        thread.join(0.05)


def _search_on_a_thread(
    engine: congo.Engine, root_moves: Iterable[congo.Move] | None = None
) -> tuple[threading.Thread, list[congo.SearchResult]]:
    """An unlimited search started on a thread of its own, and where its result will be."""
    results: list[congo.SearchResult] = []

    def run() -> None:
        results.append(engine.search(congo.Board(), congo.Limit(), root_moves=root_moves))

    searcher = threading.Thread(target=run)
    searcher.start()
    return searcher, results


def _signalling(moves: list[congo.Move], starting: threading.Event) -> Iterator[congo.Move]:
    """The moves, read by the search while it is starting: ``starting`` is set then."""
    starting.set()
    yield from moves


def test_a_stop_while_a_search_is_starting_ends_that_search() -> None:
    # A search is starting from the moment search() is called: its root moves are read on the
    # search's thread, and the stop is sent right then, before the core has begun to search.
    engine = congo.Engine(hash_mb=16)
    moves = list(congo.Board().legal_moves)
    for attempt in range(50):
        starting = threading.Event()
        searcher, results = _search_on_a_thread(engine, _signalling(moves, starting))
        assert starting.wait(30)
        engine.stop()
        searcher.join(30)
        ended = not searcher.is_alive()
        _stop_until_ended(engine, searcher)
        assert ended, f"the stop of attempt {attempt} was lost"
        assert results[0].move is not None


def test_a_search_started_on_a_thread_and_stopped_at_once_always_ends() -> None:
    # stop() right after the thread starts: the stop lands before search() is called (then it
    # does nothing, and the search is stopped again once it has begun), while it is starting or
    # while it runs; every search ends and the engine stays usable.
    engine = congo.Engine(hash_mb=16)
    for _ in range(50):
        searcher, results = _search_on_a_thread(engine)
        engine.stop()
        _stop_until_ended(engine, searcher)
        assert results[0].move is not None
    assert engine.search(congo.Board(), congo.Limit(depth=2)).depth == 2


def test_a_stop_while_idle_does_not_stop_the_next_search() -> None:
    engine = congo.Engine(hash_mb=16)
    engine.search(congo.Board(), congo.Limit(depth=1))
    engine.stop()
    assert engine.search(congo.Board(), congo.Limit(depth=4)).depth == 4


def test_a_search_right_after_a_stop_waits_for_the_stopped_one() -> None:
    # The stopped search is held in its callback, so it is still running when the next one is
    # asked for: that one waits for it instead of finding the engine "already searching".
    engine = congo.Engine(hash_mb=16)
    started, release = threading.Event(), threading.Event()

    def hold(_: congo.SearchInfo) -> None:
        started.set()
        release.wait(30)

    first: list[congo.SearchResult] = []
    searcher = threading.Thread(
        target=lambda: first.append(engine.search(congo.Board(), congo.Limit(), callback=hold))
    )
    searcher.start()
    assert started.wait(30)
    engine.stop()
    releaser = threading.Timer(0.5, release.set)
    releaser.start()
    try:
        second = engine.search(congo.Board(), congo.Limit(depth=2))
    finally:
        release.set()
        releaser.join()
        _stop_until_ended(engine, searcher)
    assert second.depth == 2
    assert first[0].move is not None


def test_a_search_from_its_own_callback_is_refused_even_after_a_stop() -> None:
    # Waiting for the stopped search there would wait for itself.
    engine = congo.Engine(hash_mb=16)
    errors: list[BaseException] = []

    def again(_: congo.SearchInfo) -> None:
        engine.stop()
        try:
            engine.search(congo.Board(), congo.Limit(depth=1))
        except RuntimeError as error:
            errors.append(error)

    engine.search(congo.Board(), congo.Limit(), callback=again)
    assert errors
    assert all("already searching" in str(error) for error in errors)


def test_many_threads_complete_the_first_iteration_under_a_short_time_limit() -> None:
    # Starting 255 helper threads, which then share the processor with the main one, must not
    # starve the first iteration: with time left, the answer comes from a completed depth.
    engine = congo.Engine(threads=congo.engine.MAX_THREADS, hash_mb=16)
    for _ in range(3):
        result = engine.search(congo.Board(), congo.Limit(time=0.1))
        assert result.move is not None
        assert result.depth >= 1
