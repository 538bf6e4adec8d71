"""Every limit the Python layer mentions is the core's, and every bounded integer argument is
converted once, at the binding layer: ``ValueError`` (naming the bound) for an int out of range,
``TypeError`` for anything but an int, never ``OverflowError``."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any, Callable

import pytest

import congo
from congo import _core, learning, selfplay, squares, tablebase
from congo.analysis import DEFAULT_HASH_MB as ANALYSIS_HASH_MB
from congo.engine import MAX_HASH_MB, MAX_THREADS
from congo.pgn import Game as PgnGame

Call = Callable[[Any], object]


def _two_men_tables(directory: Path) -> tablebase.Tablebase:
    """A directory of tables to open (a directory without tables is an error of its own)."""
    if not directory.exists():
        tablebase.generate(directory, men=2)
    return tablebase.Tablebase(directory)


def _entry_points(tmp_path: Path) -> dict[str, Call]:
    position = congo.Position()
    return {
        "GameState(max_plies)": lambda v: learning.GameState(max_plies=v),
        "GameState.apply": lambda v: learning.GameState().apply(v),
        "action_leg": lambda v: learning.action_leg(v),
        "mirror_action": lambda v: learning.mirror_action(v),
        "flip_action": lambda v: learning.flip_action(v),
        "Tablebase.best_line(max_plies)": lambda v: _two_men_tables(tmp_path / "t").best_line(
            position, max_plies=v
        ),
        "tablebase.generate(threads)": lambda v: tablebase.generate(tmp_path / "g", men=2, threads=v),
        "tablebase.generate(men)": lambda v: tablebase.generate(tmp_path / "g", men=v),
        "tablebase.verify(threads)": lambda v: tablebase.verify(tmp_path, men=2, threads=v),
        "tablebase.stats(men)": lambda v: tablebase.stats(tmp_path, men=v),
        "encode(threads)": lambda v: learning.encode_bytes(congo.Board(), threads=v),
        "SelfPlayConfig(hash_mb)": lambda v: selfplay.SelfPlayConfig(hash_mb=v),
        "SelfPlayConfig(nodes)": lambda v: selfplay.SelfPlayConfig(nodes=v),
        "selfplay_game(seed)": lambda v: _core.selfplay_game(
            position, v, nodes=1, opening_plies=0, max_plies=1, hash_mb=1
        ),
        "PlayoutStats(plies)": lambda v: congo.PlayoutStats(plies=v),
    }


ENTRY_POINTS = sorted(_entry_points(Path("unused")))


@pytest.mark.parametrize("value", [10**30, -(10**30), -1])
@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_an_int_out_of_range_is_a_value_error_naming_the_bound(tmp_path: Path, name: str, value: int) -> None:
    call = _entry_points(tmp_path)[name]
    with pytest.raises(ValueError, match=r"must be from|out of range") as caught:
        call(value)
    assert not isinstance(caught.value, OverflowError)


@pytest.mark.parametrize("value", [1.5, True, "3", None])
@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_anything_but_an_int_is_a_type_error(tmp_path: Path, name: str, value: object) -> None:
    call = _entry_points(tmp_path)[name]
    if value is None and name.startswith(
        ("tablebase.generate(threads", "tablebase.verify(threads", "encode(")
    ):
        return  # None means "the default" there
    if value is None and name in ("GameState(max_plies)", "PlayoutStats(plies)", "tablebase.stats(men)"):
        return
    with pytest.raises(TypeError):
        call(value)


def test_each_bound_the_python_layer_mentions_is_the_cores(tmp_path: Path) -> None:
    # The bound itself is accepted, one beyond it is not.
    assert congo.Engine(hash_mb=1, threads=MAX_THREADS).threads == MAX_THREADS
    with pytest.raises(ValueError, match=f"threads must be from 1 to {MAX_THREADS}"):
        congo.Engine(hash_mb=1, threads=MAX_THREADS + 1)
    with pytest.raises(ValueError, match=str(MAX_HASH_MB)):
        congo.Engine(hash_mb=MAX_HASH_MB + 1)
    # Self-play takes the core's table bound, not one of its own.
    assert selfplay.SelfPlayConfig(hash_mb=MAX_HASH_MB).hash_mb == MAX_HASH_MB
    with pytest.raises(ValueError, match=f"hash_mb must be from 1 to {MAX_HASH_MB}"):
        selfplay.SelfPlayConfig(hash_mb=MAX_HASH_MB + 1)
    # Tables: the most men is the core's.
    assert tablebase.MAX_MEN == _core.MAX_TABLEBASE_MEN
    with pytest.raises(ValueError, match=f"men must be from 2 to {tablebase.MAX_MEN}"):
        tablebase.generate(tmp_path, men=tablebase.MAX_MEN + 1)
    # Actions: the last one is accepted, the next is not; the kinds are the core's.
    assert learning.action_leg(learning.NUM_ACTIONS - 1) is None  # STOP
    with pytest.raises(ValueError, match="out of range"):
        learning.action_leg(learning.NUM_ACTIONS)
    assert learning.NUM_MOVE_KINDS * 49 == learning.STOP_ACTION
    assert learning.NUM_MOVE_KINDS == _core.NUM_MOVE_KINDS
    assert learning.GameState().max_plies == _core.DEFAULT_MAX_PLIES == selfplay.SelfPlayConfig().max_plies


def test_default_table_sizes_come_from_the_core() -> None:
    assert congo.Engine().hash_mb == _core.DEFAULT_HASH_MB
    assert selfplay.SelfPlayConfig().hash_mb == _core.GAME_POOL_HASH_MB
    assert ANALYSIS_HASH_MB == _core.BATCH_HASH_MB
    assert _core.BATCH_HASH_MB <= _core.GAME_POOL_HASH_MB <= _core.DEFAULT_HASH_MB <= MAX_HASH_MB


def test_river_and_castle_masks_are_the_cores() -> None:
    assert squares.BB_RIVER == _core.BB_RIVER == squares.BB_RANKS[3]
    assert squares.BB_CASTLES == _core.BB_CASTLES
    white = sum(1 << squares.square(f, r) for f in (2, 3, 4) for r in (0, 1, 2))
    black = sum(1 << squares.square(f, r) for f in (2, 3, 4) for r in (4, 5, 6))
    assert squares.BB_CASTLES[congo.WHITE] == white
    assert squares.BB_CASTLES[congo.BLACK] == black
    # The position rules agree: a white lion stands exactly on the castle squares.
    for sq in squares.SQUARES:
        rows = [["1"] * 7 for _ in range(7)]
        rows[0][3] = "l"  # Black's lion on d7
        if sq == squares.square(3, 6):
            continue
        rows[6 - squares.square_rank(sq)][squares.square_file(sq)] = "L"
        fen = "/".join("".join(row) for row in rows) + " w 1"
        if (1 << sq) & white:
            congo.Position(fen)
        else:
            with pytest.raises(congo.InvalidPositionError):
                congo.Position(fen)


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("Event", True),
        ("_x", True),
        ("a+#=:-", True),
        ("", False),
        ("+a", False),
        ("a b", False),
        ("é", False),
    ],
)
def test_tag_names_follow_the_cores_rule(name: str, ok: bool) -> None:
    assert _core.is_tag_name(name) is ok
    game = PgnGame()
    if ok:
        game.headers[name] = "x"
        assert game.headers[name] == "x"
    else:
        with pytest.raises(ValueError, match="tag name"):
            game.headers[name] = "x"


def test_records_cross_the_boundary_typed(tmp_path: Path) -> None:
    result = congo.Engine(hash_mb=1).search(congo.Board(), congo.Limit(depth=2))
    assert isinstance(result, congo.SearchResult)
    assert result.move == result.pv[0]
    assert isinstance(result.score, congo.Score)
    assert pickle.loads(pickle.dumps(result)) == result
    assert result.lines[0].score == result.score
    assert result.lines[0].multipv == 1
    assert repr(result).startswith("SearchResult(move=Move.from_uci(")
    infos: list[congo.SearchInfo] = []
    congo.Engine(hash_mb=1).search(congo.Board(), congo.Limit(depth=2), callback=infos.append)
    assert [i.depth for i in infos] == [1, 2]
    assert infos[-1].move == infos[-1].pv[0]
    assert infos[-1].bound == "exact"
    reports = tablebase.generate(tmp_path, men=2)
    assert all(isinstance(r, tablebase.TableReport) for r in reports)
    report = reports[0]
    assert report == tablebase.TableReport(*pickle.loads(pickle.dumps(report)).__reduce__()[1])
    assert hash(report) == hash(pickle.loads(pickle.dumps(report)))
    assert repr(report).startswith("TableReport(material='LvL'")
    verified = tablebase.verify(tmp_path, men=2)
    assert all(v.ok for v in verified)
    assert isinstance(verified[0], tablebase.VerifyReport)
    stats = tablebase.stats(tmp_path, men=2)
    assert isinstance(stats[0].white_to_move, tablebase.SideStats)
    assert stats[0].white_to_move.positions > 0
