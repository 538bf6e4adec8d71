"""Self-play data: reproducible games, consistent rows, the files of ``congo selfplay``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import congo
from congo import selfplay
from congo.__main__ import main
from congo.learning import GameState, encode_bytes

CONFIG = selfplay.SelfPlayConfig(nodes=150, opening_plies=4, max_plies=40, hash_mb=1)


def test_a_game_is_a_pure_function_of_index_seed_and_config() -> None:
    first = selfplay.play_game(3, 7, CONFIG)
    assert first == selfplay.play_game(3, 7, CONFIG)
    assert first != selfplay.play_game(4, 7, CONFIG)
    assert set(first) == set(selfplay.COLUMNS)
    assert len({len(column) for column in first.values()}) == 1


def test_rows_are_consistent_with_the_rules() -> None:
    rows = selfplay.merge(selfplay.play_games(4, CONFIG, seed=1, workers=2))
    assert len(rows["fen"]) > 20
    assert rows["game"] == sorted(rows["game"])
    for i, fen in enumerate(rows["fen"]):
        position = congo.Position(fen)
        move = position.parse_uci(rows["best_move"][i])  # legal, or IllegalMoveError
        assert rows["best_actions"][i] == GameState(position).actions_of(move)
        assert rows["best_action"][i] == rows["best_actions"][i][0]
        assert rows["planes"][i][: 16 * 49] == encode_bytes(position)[: 16 * 49]
        assert rows["turn"][i] == position.turn
        assert rows["value"][i] in (-1, 0, 1)
        winner = {"1-0": True, "0-1": False}.get(rows["result"][i])
        assert rows["value"][i] == (0 if winner is None else (1 if winner == position.turn else -1))
        assert rows["score_cp"][i] == 0 or rows["score_mate"][i] == 0


def test_bad_configurations_are_refused() -> None:
    with pytest.raises(ValueError, match="nodes"):
        selfplay.SelfPlayConfig(nodes=0)
    with pytest.raises(TypeError, match="max_plies"):
        selfplay.SelfPlayConfig(max_plies=1.5)  # type: ignore[arg-type]
    with pytest.raises(congo.InvalidFenError):
        selfplay.SelfPlayConfig(fen="nonsense")
    with pytest.raises(ValueError, match="games"):
        list(selfplay.play_games(-1, CONFIG))


def test_the_command_writes_npz(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    np = pytest.importorskip("numpy")
    out = tmp_path / "games.npz"
    assert main(["selfplay", "--games", "3", "--nodes", "100", "--max-plies", "30", "-o", str(out)]) == 0
    assert "positions/s" in capsys.readouterr().out
    data = np.load(out)
    count = len(data["fen"])
    assert count > 0
    assert data["planes"].shape == (count, 23, 7, 7)
    assert np.array_equal(data["planes"][0], congo.encode(str(data["fen"][0])))
    assert data["best_actions"][np.arange(count), 0].tolist() == data["best_action"].tolist()
    # Every column is one docs/learning.md names in its self-play section.
    docs = (Path(__file__).parent.parent / "docs" / "learning.md").read_text(encoding="utf-8")
    section = docs[docs.index("## Self-play data") :]
    section = section[: section.index("\n## ", 1)]
    assert [name for name in data.files if f"`{name}`" not in section] == []
    lengths = data["best_actions_len"]
    assert all((data["best_actions"][i] != -1).sum() == lengths[i] for i in range(count))


def test_the_command_writes_parquet(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "games.parquet"
    assert main(["selfplay", "--games", "2", "--nodes", "100", "--max-plies", "30", "-o", str(out)]) == 0
    table = pq.read_table(out)
    assert table.column_names == list(selfplay.COLUMNS)
    planes = table.column("planes").to_pylist()
    assert planes[0] == bytes(encode_bytes(table.column("fen")[0].as_py()))


def test_the_command_refuses_an_unknown_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "1", "--nodes", "10", "-o", str(tmp_path / "x.csv")]) == 2
    assert "parquet or .npz" in capsys.readouterr().err


def test_ctrl_c_writes_the_finished_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    np = pytest.importorskip("numpy")
    finished = selfplay.play_game(0, 0, CONFIG)

    def interrupted(*args: object, **kwargs: object) -> Iterator[selfplay.Rows]:
        yield finished
        raise KeyboardInterrupt

    monkeypatch.setattr(selfplay, "play_games", interrupted)
    out = tmp_path / "part.npz"
    assert main(["selfplay", "--games", "5", "--nodes", "100", "-o", str(out)]) == 130
    assert "wrote the 1 finished games" in capsys.readouterr().err
    assert np.load(out)["fen"].tolist() == finished["fen"]


def test_a_stop_flag_abandons_a_running_game_from_another_thread() -> None:
    import threading

    stop = selfplay.StopFlag()
    stop.set()
    with pytest.raises(selfplay.GameAbandoned, match="game 2"):
        selfplay.play_game(2, 0, CONFIG, stop=stop)
    # A game of 300 searches of 200,000 nodes takes minutes; set from another thread, the flag ends
    # it within one search (the GIL is released while it plays).
    slow = selfplay.SelfPlayConfig(nodes=200_000, max_plies=300, hash_mb=1)
    stop = selfplay.StopFlag()
    threading.Timer(0.3, stop.set).start()
    with pytest.raises(selfplay.GameAbandoned):  # a finished game would have returned its rows
        selfplay.play_game(0, 0, slow, stop=stop)
    assert stop.is_set()
    stop.clear()
    assert selfplay.play_game(1, 0, CONFIG, stop=stop)["game"][0] == 1
