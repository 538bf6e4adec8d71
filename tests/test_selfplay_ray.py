"""Self-play on a real local Ray cluster, started by these tests and bound to loopback: the same
rows as on threads, and ``congo selfplay --ray`` from another process. Skipped when Ray is not
installed (``pip install '.[ray]'``; CI installs it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from congo import selfplay
from tests.test_analysis import run_cli
from tests.test_ray import cluster

__all__ = ["cluster"]  # the module-scoped loopback cluster of tests/test_ray.py

CONFIG = selfplay.SelfPlayConfig(nodes=150, opening_plies=4, max_plies=40, hash_mb=1)


def test_selfplay_on_ray_equals_the_threaded_run(cluster: str) -> None:
    threaded = list(selfplay.play_games(6, CONFIG, seed=9, workers=2))
    on_ray = list(selfplay.play_games(6, CONFIG, seed=9, ray=cluster))
    assert on_ray == threaded
    assert [rows["game"][0] for rows in on_ray] == list(range(6))
    # Leaving the loop early stops the actors' games; the cluster is usable at once.
    games = selfplay.play_games(20, CONFIG, seed=9, ray=cluster, workers=2)
    assert next(games) == threaded[0]
    games.close()
    assert list(selfplay.play_games(2, CONFIG, seed=9, ray=cluster)) == threaded[:2]


def test_the_command_plays_on_the_cluster(cluster: str, tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    out = tmp_path / "ray.npz"
    args = ["--games", "4", "--nodes", "150", "--max-plies", "40", "--opening-plies", "4", "--hash", "1"]
    done = run_cli("selfplay", *args, "--seed", "9", "--ray", cluster, "-o", str(out))
    assert done.returncode == 0, done.stderr
    local = tmp_path / "local.npz"
    done = run_cli("selfplay", *args, "--seed", "9", "--workers", "2", "-o", str(local))
    assert done.returncode == 0, done.stderr
    ray_data, local_data = np.load(out), np.load(local)
    assert ray_data["fen"].tolist() == local_data["fen"].tolist()
    assert np.array_equal(ray_data["planes"], local_data["planes"])


def test_an_unreachable_cluster_is_a_clear_error(tmp_path: Path) -> None:
    done = run_cli(
        "selfplay",
        "--games",
        "1",
        "--nodes",
        "10",
        "--ray",
        "ray://127.0.0.1:1",
        "-o",
        str(tmp_path / "x.npz"),
    )
    assert done.returncode == 2
    assert "cannot connect to the Ray cluster at 'ray://127.0.0.1:1'" in done.stderr
