"""The Ray backend against a real local Ray cluster, started and stopped by these tests and bound
to loopback. Skipped when Ray is not installed (``pip install '.[ray]'``; CI installs it)."""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import cast

import pytest

import congo
import congo.pgn
from congo import Limit
from congo.distributed import RayPool, open_pool, ray_available
from tests.test_analysis import key, random_boards, run_cli, sample_games

# Keep every Ray service of these tests on 127.0.0.1 (Ray reads this when imported, and the
# command-line processes started below inherit it).
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A two-CPU Ray cluster on 127.0.0.1 for this module; its address for other processes."""
    ray.init(
        _node_ip_address="127.0.0.1",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
    )
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def test_ray_is_reported_available() -> None:
    assert ray_available()


def test_analyse_many_on_ray_equals_the_threaded_path(cluster: str) -> None:
    boards = random_boards(20, seed=11)
    limit = Limit(nodes=2500)
    threaded = [key(r) for r in congo.analyse_many(boards, limit, workers=2)]
    on_ray = [key(r) for r in congo.analyse_many(boards, limit, ray=cluster)]
    assert on_ray == threaded
    depth = Limit(depth=3)
    assert [key(r) for r in congo.analyse_many(boards[:6], depth, ray=cluster, workers=3)] == [
        key(r) for r in congo.analyse_many(boards[:6], depth, workers=1)
    ]


class Counter:
    """A worker state that counts the tasks it ran (module level: actors unpickle it)."""

    def __init__(self) -> None:
        self.count = 0


def count_task(state: Counter, item: int) -> tuple[int, int]:
    state.count += 1
    return item, state.count


def test_ray_actors_stay_warm_between_tasks(cluster: str) -> None:
    with open_pool(Counter, count_task, ray=cluster) as pool:
        assert isinstance(pool, RayPool)
        assert pool.workers == 2  # one per CPU of the cluster
        results = list(pool.imap(range(40), chunksize=3))
    assert [item for item, _ in results] == list(range(40))
    # Each actor's counter kept growing: its state was made once.
    assert max(count for _, count in results) >= 20


def failing_task(state: None, item: int) -> int:
    if item == 5:
        raise KeyError(item)
    return item


def test_ray_task_errors_arrive_in_order_as_themselves(cluster: str) -> None:
    with open_pool(type(None), failing_task, ray=cluster) as pool:
        results = pool.imap(range(10))
        assert [next(results) for _ in range(5)] == [0, 1, 2, 3, 4]
        with pytest.raises(KeyError):
            next(results)


class Gate:
    """A worker state whose tasks, all but item 0, wait until the pool's stop hook releases them;
    it records the items it started (module level: actors unpickle it)."""

    def __init__(self) -> None:
        self.released = threading.Event()
        self.started: list[int] = []


def gated_task(state: Gate, item: int | str) -> object:
    if item == "started":
        return list(state.started)
    assert isinstance(item, int)
    state.started.append(item)
    if item != 0:
        state.released.wait(timeout=300)  # a safety net: a bug fails the test instead of hanging it
    return item


def release(state: Gate) -> None:
    state.released.set()


def test_leaving_a_loop_on_ray_drops_its_queued_items_without_ray_cancel(
    cluster: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The items queued behind the running ones are skipped by the actors, not cancelled through
    Ray: cancelling queued calls to an actor leaves gaps in the sequence its ordered queue waits
    on, and on a loaded machine Ray then times out and fails every later call to that actor (a CI
    run failed so, in the datagen test below)."""
    cancelled: list[object] = []
    monkeypatch.setattr(ray, "cancel", lambda ref, **kwargs: cancelled.append(ref))
    with open_pool(Gate, gated_task, ray=cluster, stop=release) as pool:
        results = cast(Generator[object, None, None], pool.imap(range(20), window=20))
        assert next(results) == 0
        results.close()  # returns once the running items were stopped
        # Round-robin: the first query goes to the actor that ran item 0, the second to the other.
        queries = cast(Iterator[list[int]], pool.imap(["started", "started"]))
        started = sorted(item for items in queries for item in items)
    assert cancelled == []
    # Item 0, and at most the item each actor was running when the loop was left.
    assert started[0] == 0
    assert len(started) <= 3


def test_leaving_one_loop_on_ray_leaves_another_running_on_the_same_pool(cluster: str) -> None:
    with open_pool(Counter, count_task, ray=cluster) as pool:
        first = pool.imap(range(8), window=8)
        second = cast(Generator[tuple[int, int], None, None], pool.imap(range(100, 108), window=8))
        assert next(first)[0] == 0
        assert next(second)[0] == 100
        second.close()
        assert [item for item, _ in first] == list(range(1, 8))
        assert [item for item, _ in pool.imap(range(3))] == [0, 1, 2]


def test_annotate_cli_on_the_cluster_matches_threads(cluster: str, tmp_path: Path) -> None:
    source = tmp_path / "in.pgn"
    source.write_text(sample_games(2, plies=16), encoding="utf-8")
    outputs: list[str] = []
    for backend in (["--workers", "2"], ["--ray", cluster]):
        out = tmp_path / f"out{len(outputs)}.pgn"
        done = run_cli("annotate", str(source), "--nodes", "1500", "-o", str(out), *backend)
        assert done.returncode == 0, done.stderr
        outputs.append(out.read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1]
    assert len(list(congo.pgn.iter_games(io.StringIO(outputs[1])))) == 2


def test_annotate_with_tables_on_the_cluster_matches_threads(
    cluster: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Each actor opens the tables itself (the directory travels, not the tables) and gives the
    same exact values as the threads."""
    import congo.tablebase

    directory = tmp_path_factory.mktemp("tables")
    congo.tablebase.generate(directory, men=3)
    board = congo.Board("7/7/3l3/7/7/6P/2L4 w 1")  # White wins in 21 plies
    tables = congo.tablebase.open_tablebase(directory)
    for move in tables.best_line(board)[:8]:
        board.push(move)
    source = tmp_path_factory.mktemp("games") / "in.pgn"
    source.write_text(str(congo.pgn.Game.from_board(board)) + "\n", encoding="utf-8")
    outputs: list[str] = []
    for backend in (["--workers", "2"], ["--ray", cluster]):
        out = source.with_name(f"out{len(outputs)}.pgn")
        done = run_cli(
            "annotate", str(source), "--nodes", "300", "--tablebase", str(directory), "-o", str(out), *backend
        )
        assert done.returncode == 0, done.stderr
        outputs.append(out.read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1]
    (game,) = congo.pgn.iter_games(io.StringIO(outputs[1]))
    evals = [node.eval() for node in game.mainline()]
    # White wins in 21 plies from the start: after ply i the side to move is i plies nearer.
    assert [score.white().mate if score else None for score in evals] == [
        (21 - i + 1) // 2 for i in range(1, 9)
    ]


def test_match_on_the_cluster_plays_the_same_games(cluster: str) -> None:
    from congo import match

    first = match.parse_player("engine:nodes=300,hash=1")
    second = match.parse_player("random")
    threaded = match.run_match(first, second, games=4, opening_plies=2, max_plies=40, concurrency=2)
    on_ray = match.run_match(first, second, games=4, opening_plies=2, max_plies=40, ray=cluster)
    in_order = sorted(threaded.games, key=lambda g: g.index)
    assert [g.board.move_stack for g in on_ray.games] == [g.board.move_stack for g in in_order]
    assert (on_ray.wins, on_ray.draws, on_ray.losses) == (threaded.wins, threaded.draws, threaded.losses)


def test_a_tournament_on_the_cluster_plays_the_same_games(cluster: str) -> None:
    from congo import match

    players = ["random", "greedy", "engine:depth=1,hash=1"]
    threaded = match.run_tournament(players, games=2, opening_plies=2, max_plies=40, concurrency=2)
    on_ray = match.run_tournament(players, games=2, opening_plies=2, max_plies=40, ray=cluster)
    assert on_ray.numbers == threaded.numbers
    assert [g.board.move_stack for g in on_ray.games] == [g.board.move_stack for g in threaded.games]
    assert on_ray.table() == threaded.table()


def test_kept_outside_engines_are_quit_when_a_match_on_the_cluster_ends(cluster: str, tmp_path: Path) -> None:
    """A Ray actor's kept engine runs in a process group of its own: killing the actor would not end
    it in order. The pool's end tells each engine ``quit`` first."""
    from congo import match
    from tests.test_tournament import engines_left_running, pid_proxy, quit_logs

    result = match.run_match(
        match.parse_player(f"uci[depth=1]:{pid_proxy(tmp_path, 'a')}"),
        match.parse_player("random"),
        games=2,
        opening_plies=2,
        max_plies=10,
        ray=cluster,
    )
    assert result.played == 2
    logs = quit_logs(tmp_path, "a")
    assert logs
    assert all(log[-2:] == ["quit", "exited"] for log in logs)
    assert engines_left_running(tmp_path, "a") == []


def test_kept_outside_engines_are_quit_when_a_match_on_the_cluster_is_interrupted(
    cluster: str, tmp_path: Path
) -> None:
    from congo import match
    from tests.test_tournament import engines_left_running, pid_proxy, quit_logs

    def stop(result: match.MatchResult, game: match.GameRecord) -> None:
        raise KeyboardInterrupt

    with pytest.raises(match.MatchInterrupted) as interrupted:
        match.run_match(
            match.parse_player(f"uci[depth=1]:{pid_proxy(tmp_path, 'a')}"),
            match.parse_player("random"),
            games=6,
            opening_plies=2,
            max_plies=10,
            ray=cluster,
            on_game=stop,
        )
    assert interrupted.value.result.played == 1
    # The engines of the games in progress were killed (Ctrl-C aborts them), the others told quit:
    # none is left running either way.
    assert quit_logs(tmp_path, "a")
    assert engines_left_running(tmp_path, "a") == []
