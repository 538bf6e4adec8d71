"""One source of truth for every rule, limit and mapping, and the rest of the python-chess surface
(issue 14). Every test here failed before the change it guards; where Congo's rules make the API
differ from python-chess's, the test says so (and docs/api.md lists it).
"""

from __future__ import annotations

import ast
import collections
import concurrent.futures
import enum
import importlib
import importlib.util
import pathlib
import pickle
import subprocess
import sys

import pytest

import congo
import congo.engine
from congo import (
    BLACK,
    WHITE,
    Board,
    IllegalMoveError,
    LegalMoveGenerator,
    Move,
    Outcome,
    Piece,
    Position,
    SquareSet,
    Termination,
    _core,
)

ROOT = pathlib.Path(__file__).resolve().parents[1]
MONKEY_FEN = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"
SHUFFLE = ["g1f3", "g7f5", "f3g1", "f5g7"]


# =============================================================================== one source of truth


def _imported_names(module: str) -> set[str]:
    """Every module and name the installed module imports (its file found through its spec, so this
    works against a wheel as well as the source tree)."""
    spec = importlib.util.find_spec(module)
    assert spec is not None, module
    assert spec.origin is not None, module
    names: set[str] = set()
    for node in ast.walk(ast.parse(pathlib.Path(spec.origin).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_game_ends_cross_the_boundary_as_one_typed_value() -> None:
    # Integer codes were mapped by hand in five places; now the core's outcome arrives as an Outcome.
    won = Position("3L3/7/7/7/7/7/7 b 1").outcome()
    assert won == Outcome(Termination.LION_CAPTURED, WHITE)
    assert isinstance(won.termination, enum.Enum)
    assert Position("2l4/7/7/7/7/7/4L2 w 1").outcome() == Outcome(Termination.BARE_LIONS, None)
    result = congo.Engine(hash_mb=1).search("3L3/7/7/7/7/7/7 b 1", congo.Limit(depth=1))
    assert result.outcome == Outcome(Termination.LION_CAPTURED, WHITE)
    board = Board("2l4/7/7/7/7/7/P3L2 w 3")
    for uci in ["e1e2", "c7c6", "e2e1", "c6c7"] * 2:
        board.push_uci(uci)
    assert board.outcome(claim_draw=True) == Outcome(Termination.THREEFOLD_REPETITION, None)
    assert board.outcome(max_plies=8) == Outcome(Termination.MOVE_LIMIT, None)
    # No hand-written code table is left in the Python package: no loaded congo module holds one.
    for name, module in list(sys.modules.items()):
        if name == "congo" or name.startswith("congo."):
            assert not hasattr(module, "_TERMINATIONS"), name


def test_piece_numbers_are_named_constants() -> None:
    # The named piece types are the core's numbers: each finds its own piece in the start position.
    position = Position("gmelecz/ppppppp/7/7/7/SPPPPPP/GMELECZ w 1")
    found = 0
    for piece_type in congo.PIECE_TYPES:
        for color in (WHITE, BLACK):
            squares = SquareSet(position.pieces_mask(piece_type, color))
            found += len(squares)
            for square in squares:
                assert position.piece_at(square) == Piece(piece_type, color)
    assert found == 28
    assert len(SquareSet(position.pieces_mask(congo.SUPERPAWN, WHITE))) == 1


def test_repetition_is_decided_once_and_a_promotion_cuts_the_history() -> None:
    # engine.py counted a change of piece count as irreversible, the search also promotions, and
    # Board.is_repetition scanned the whole stack. A promotion (same piece count) now cuts it for
    # all three: the positions before it cannot come back.
    board = Board("3l3/P6/7/7/7/7/3L3 w 1")
    for uci in ["d1e1", "d7e7", "e1d1", "e7d7"]:
        board.push_uci(uci)
    assert board.is_repetition(2)
    board.push_uci("a6a7")  # promotes: the pawn count changes, the piece count does not
    assert not board.is_repetition(2)
    key = board.transposition_key()
    assert key == Position(board.fen()).transposition_key()
    engine = congo.Engine(hash_mb=1)
    assert engine.search(board, congo.Limit(depth=3)).move is not None


def test_the_engine_sees_repetitions_through_the_boards_history() -> None:
    # The engine replayed the whole game through Rust to learn the history; it now reads the
    # board's own history. A position repeated twice before scores as a draw at the root's reply.
    board = Board("2l4/7/7/7/7/7/4L2 w 1")
    for uci in ["e1e2", "c7c6", "e2e1", "c6c7"] * 2:
        board.push_uci(uci)
    assert board.is_repetition(3)
    engine = congo.Engine(hash_mb=1)
    result = engine.search(board, congo.Limit(depth=4))
    assert result.score.cp == 0


def test_limits_come_from_the_core() -> None:
    assert congo.engine.MAX_DEPTH == _core.MAX_DEPTH
    assert congo.engine.MAX_THREADS == _core.MAX_THREADS
    assert congo.engine.MAX_HASH_MB == _core.MAX_HASH_MB
    assert congo.engine.MAX_NODES == _core.MAX_NODES == 2**64 - 1
    assert congo.engine.MAX_TIME == _core.MAX_TIME
    assert congo.MAX_PIECES_PER_COLOR == 14
    congo.Limit(depth=congo.engine.MAX_DEPTH)
    with pytest.raises(ValueError, match=f"depth must be from 1 to {congo.engine.MAX_DEPTH}"):
        congo.Limit(depth=congo.engine.MAX_DEPTH + 1)
    # No copy of a core limit is written into the Python package: each is the core's own object.
    for name in dir(congo.engine):
        if name.startswith("MAX_"):
            assert getattr(congo.engine, name) is getattr(_core, name), name


def test_one_helper_turns_a_board_position_or_fen_into_a_position() -> None:
    from congo.board import to_position

    board = Board(MONKEY_FEN)
    assert to_position(board) is board.position
    assert to_position(board.position) is board.position
    assert to_position(MONKEY_FEN) == board.position
    with pytest.raises(TypeError, match=r"a congo\.Board, a congo\.Position or a FEN str"):
        to_position(42)  # type: ignore[arg-type]
    for name in ("congo.engine", "congo.bulk", "congo.svg"):
        module = importlib.import_module(name)
        assert module.to_position is to_position, name
        assert not hasattr(module, "_position_and_history"), name
        # A module-private wrapper may only delegate to it.
        wrapper = getattr(module, "_position", None)
        assert wrapper is None or wrapper(board) is board.position, name


def test_lan_comes_from_the_core() -> None:
    board = Board(MONKEY_FEN)
    assert board.lan(Move.from_uci("b1d3f5d7")) == "Mb1xd3xf5xd7#"
    assert board.lan(Move.from_uci("b1b2")) == "Mb1-b2"
    assert Board().lan(Move.from_uci("g1f3")) == "Zg1-f3"
    with pytest.raises(IllegalMoveError):
        Board().lan(Move.from_uci("a1a2"))
    with pytest.raises(TypeError):
        Board().lan("g1f3")  # type: ignore[arg-type]
    for fen in (MONKEY_FEN, congo.STARTING_FEN, "3l3/P6/7/7/7/7/3L3 w 1"):
        board = Board(fen)
        for move in board.legal_moves:
            assert board.lan(move) == board.position.lan(move)


def test_set_piece_at_changes_one_square_in_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board()
    board.set_piece_at(congo.A2, Piece.from_symbol("S"))
    assert board.piece_at(congo.A2) == Piece.from_symbol("S")
    assert board.position == Position("gmelecz/ppppppp/7/7/7/SPPPPPP/GMELECZ w 1")

    # One square changes in the core: the board's whole piece map is neither read nor rewritten.
    def refuse(*args: object) -> None:
        raise AssertionError("set_piece_at went through the piece map")

    monkeypatch.setattr(Board, "piece_map", refuse)
    monkeypatch.setattr(Board, "set_piece_map", refuse)
    board.set_piece_at(congo.A2, Piece.from_symbol("P"))
    assert board.position == Position(congo.STARTING_FEN)


def test_the_command_line_goes_through_the_public_api() -> None:
    assert not {"_core", "congo._core"} & _imported_names("congo.cli.perft")
    done = subprocess.run(
        [sys.executable, "-m", "congo", "perft", "--divide", "2"], capture_output=True, text=True, check=True
    )
    lines = dict(line.split(": ") for line in done.stdout.splitlines() if ": " in line)
    assert {move: int(n) for move, n in lines.items()} == congo.divide(congo.STARTING_FEN, 2)


def test_class_module_names_say_where_to_import_them() -> None:
    for name in ("Move", "Position", "LegalMoveGenerator", "PlayoutStats"):
        cls = getattr(congo, name)
        assert cls.__module__ == "congo", name
        assert getattr(sys.modules[cls.__module__], name) is cls
    for name in ("Engine", "SearchInfo", "History"):
        cls = getattr(_core, name)
        assert cls.__module__ == "congo._core", name
        assert getattr(sys.modules[cls.__module__], name) is cls


def test_error_docs_count_every_error_class() -> None:
    errors = [
        name
        for name in congo.__all__
        if isinstance(getattr(congo, name), type) and issubclass(getattr(congo, name), ValueError)
    ]
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    table = api[api.index("### Errors") :]
    for name in errors:
        assert f"`{name}`" in table, name
    errors_rs = (ROOT / "rust" / "congo-py" / "src" / "errors.rs").read_text(encoding="utf-8")
    assert errors_rs.startswith(
        f"//! The {['zero', 'one', 'two', 'three', 'four', 'five', 'six'][len(errors)]} "
    )


# =============================================================================== missing, wanted


def test_generate_legal_moves_and_captures_with_masks() -> None:
    board = Board(MONKEY_FEN)
    monkey = list(board.generate_legal_moves(congo.BB_SQUARES[congo.B1]))
    assert {m.uci() for m in monkey} == {"b1a1", "b1a2", "b1b2", "b1c1", "b1d3", "b1d3f5", "b1d3f5d7"}
    onto_f5 = list(board.generate_legal_moves(to_mask=SquareSet([congo.F5])))
    assert [m.uci() for m in onto_f5] == ["b1d3f5"]
    captures = [m.uci() for m in board.generate_legal_captures()]
    assert set(captures) == {"b1d3", "b1d3f5", "b1d3f5d7", "d1c2"}
    assert [m.uci() for m in board.generate_legal_captures(to_mask=[congo.D7])] == ["b1d3f5d7"]
    assert list(Board().generate_legal_captures()) == []
    assert len(list(Board().generate_legal_moves())) == 24


def test_find_move() -> None:
    board = Board(MONKEY_FEN)
    assert board.find_move(congo.B1, congo.B2) == Move.from_uci("b1b2")
    assert board.find_move(congo.B1, congo.F5) == Move.from_uci("b1d3f5")
    assert Board().find_move(congo.G1, congo.F3) == Move.from_uci("g1f3")
    with pytest.raises(IllegalMoveError, match="no legal move from g1 to g7"):
        Board().find_move(congo.G1, congo.G7)


def test_attackers_and_attacks() -> None:
    board = Board(MONKEY_FEN)
    # The monkey on b1 attacks the lion on e6 through its chain; the black pawn on c2 attacks d1.
    assert board.attackers(WHITE, congo.E6) == SquareSet([congo.B1])
    assert board.is_attacked_by(WHITE, congo.E6)
    assert board.attackers(BLACK, congo.D1) == SquareSet([congo.C2])
    assert not board.is_attacked_by(BLACK, congo.A7)
    assert board.attackers_mask(WHITE, congo.E4) == 1 << congo.B1
    assert congo.E6 in board.attacks(congo.B1)
    assert congo.C2 in board.attacks(congo.B1)
    assert board.attacks(congo.C2) == SquareSet([congo.B1, congo.C1, congo.D1])
    assert board.attacks(congo.A7) == SquareSet()
    # Steps that never capture do not attack.
    start = Board()
    assert congo.B2 not in start.attacks(congo.A1)  # the giraffe's step
    assert start.attacks(congo.A1) == SquareSet([congo.A3, congo.C3, congo.C1])


def test_empty_clear_and_clear_board() -> None:
    # python-chess's empty board has no pieces; a Congo position needs a lion, so both stay.
    empty = Board.empty()
    assert empty.fen() == "3l3/7/7/7/7/7/3L3 w 1"
    board = Board()
    board.push_uci("g1f3")
    board.clear_board()
    assert board.fen() == "3l3/7/7/7/7/7/3L3 b 1"
    assert board.move_stack == []
    board.clear()
    assert board.fen() == "3l3/7/7/7/7/7/3L3 w 1"

    class Mine(Board):
        pass

    assert type(Mine.empty()) is Mine


def test_transform_and_flip_horizontal() -> None:
    board = Board(MONKEY_FEN)
    flipped = board.transform(congo.flip_horizontal)
    assert flipped.fen() == "7/2l4/7/2c4/7/4p2/3L1M1 w 1"
    assert flipped.transform(congo.flip_horizontal) == board
    assert congo.flip_vertical(congo.BB_RANKS[0]) == congo.BB_RANKS[6]
    assert congo.flip_diagonal(1 << congo.B1) == 1 << congo.A2
    assert congo.flip_anti_diagonal(1 << congo.A1) == 1 << congo.G7
    with pytest.raises(congo.InvalidPositionError, match="outside its castle"):
        Board().transform(congo.flip_vertical)
    board.apply_transform(congo.flip_horizontal)
    assert board == flipped


def test_transposition_key_ignores_the_move_number() -> None:
    a = Board("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1")
    b = Board("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 9")
    c = Board("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 1")
    assert a.transposition_key() == b.transposition_key() != c.transposition_key()
    counts: collections.Counter[bytes] = collections.Counter()
    board = Board()
    for uci in SHUFFLE * 2:
        counts[board.transposition_key()] += 1
        board.push_uci(uci)
    counts[board.transposition_key()] += 1
    assert counts[Board().transposition_key()] == 3
    assert {a.transposition_key(): "x"}[b.transposition_key()] == "x"


def test_square_set_methods() -> None:
    s = SquareSet([congo.A1, congo.D4])
    assert s.union([congo.B1]) == SquareSet([congo.A1, congo.B1, congo.D4])
    assert s.issubset([congo.A1, congo.D4, congo.G7])
    assert not s.issubset([congo.A1])
    assert s.issuperset([congo.D4])
    assert not s.issuperset([congo.E5])
    assert s <= [congo.A1, congo.D4]
    assert s >= {congo.A1}
    t = s.copy()
    t.update([congo.B2], SquareSet([congo.C3]))
    assert t == {congo.A1, congo.B2, congo.C3, congo.D4}
    assert s == [congo.D4, congo.A1]
    assert s == {congo.A1, congo.D4}
    assert s == s.mask
    assert s != "a1"
    assert SquareSet.ray(congo.A1, congo.C3) == SquareSet([0, 8, 16, 24, 32, 40, 48])
    assert SquareSet.ray(congo.A1, congo.B3) == SquareSet()
    assert SquareSet.ray(congo.D1, congo.D3) == congo.BB_FILES[3]
    assert SquareSet.between(congo.A1, congo.D4) == SquareSet([congo.B2, congo.C3])
    assert SquareSet.between(congo.A1, congo.B2) == SquareSet()
    assert SquareSet.from_square(congo.G7) == SquareSet([congo.G7])
    assert sorted(SquareSet([congo.A1, congo.B1]).carry_rippler()) == [0, 1, 2, 3]
    assert s.intersection([congo.A1]) == [congo.A1]
    assert s.difference([congo.A1]) == [congo.D4]
    # Reprs have one width whatever the mask.
    widths = {len(repr(SquareSet(mask))) for mask in (0, 1, 1 << 48, congo.BB_ALL)}
    assert widths == {len("SquareSet(0x0_0000_0000_0000)")}


def test_occupied_co_indexed_by_colour() -> None:
    board = Board()
    assert board.occupied_co[WHITE] == SquareSet(congo.BB_RANKS[0] | congo.BB_RANKS[1])
    assert board.occupied_co[BLACK] == board.occupied_co(BLACK)
    assert int(board.occupied_co[BLACK]) == congo.BB_RANKS[5] | congo.BB_RANKS[6]


def test_unicode_takes_python_chess_keywords() -> None:
    board = Board(MONKEY_FEN)
    text = board.unicode(invert_color=True, borders=True, empty_square=".", orientation=BLACK)
    lines = text.splitlines()
    assert lines[0].startswith("1 ")
    assert lines[-1] == "  g f e d c b a"
    assert "♚" in lines[0]
    assert "♔" in lines[5]
    assert "." in text
    assert board.unicode(empty_square="x").count("x") > 20


# =============================================================================== wrong before


def test_is_legal_raises_type_error_for_a_non_move() -> None:
    with pytest.raises(TypeError, match=r"expected a congo\.Move, got str"):
        Board().is_legal("g1f3")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Board().is_legal(None)  # type: ignore[arg-type]


def _tally(seed: int) -> congo.PlayoutStats:
    return congo.random_playouts(congo.STARTING_FEN, 20, seed=seed)


def test_playout_stats_pickle_hash_and_add() -> None:
    a, b = _tally(1), _tally(2)
    assert pickle.loads(pickle.dumps(a)) == a
    assert len({a, pickle.loads(pickle.dumps(a))}) == 1
    total = a + b
    assert total.games == 40
    assert total.plies == a.plies + b.plies
    assert sum([a, b]) == total
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        assert sum(pool.map(_tally, [1, 2])) == total
    with pytest.raises(ValueError, match="must equal games"):
        congo.PlayoutStats(games=2, white_wins=1)


def test_setting_turn_or_move_number_keeps_the_move_stack() -> None:
    board = Board()
    board.push_uci("g1f3")
    board.turn = board.turn
    board.fullmove_number = board.fullmove_number
    assert board.move_stack == [Move.from_uci("g1f3")]
    board.turn = WHITE
    board.fullmove_number = 5
    assert board.fen().endswith(" w 5")
    assert len(board.move_stack) == 1
    assert board.pop() == Move.from_uci("g1f3")
    assert board.fen() == congo.STARTING_FEN


def test_documented_errors_for_move_numbers_and_ply_limits() -> None:
    board = Board()
    with pytest.raises(ValueError, match="fullmove_number must be from 0 to 4294967295"):
        board.fullmove_number = 2**70
    with pytest.raises(TypeError, match="max_plies must be an int"):
        board.outcome(max_plies="3")  # type: ignore[arg-type]


def test_legal_move_generator_of_a_position() -> None:
    position = Board(MONKEY_FEN).position
    view = LegalMoveGenerator(position)
    assert len(view) == 12
    assert Move.from_uci("b1d3f5d7") in view
    assert bool(view)
    with pytest.raises(TypeError, match="LegalMoveGenerator takes"):
        LegalMoveGenerator(42)


def test_is_repetition_needs_a_positive_count() -> None:
    board = Board()
    assert board.is_repetition(1)
    assert not board.is_repetition(2)
    for bad in (0, -1):
        with pytest.raises(ValueError, match="count must be at least 1"):
            board.is_repetition(bad)


def test_colours_as_ints() -> None:
    board = Board()
    assert board.pieces(congo.PAWN, 1) == board.pieces(congo.PAWN, WHITE)  # type: ignore[arg-type]
    assert board.pieces(congo.LION, 0) == SquareSet([congo.D7])  # type: ignore[arg-type]
    for bad in (2, -1, "white", None):
        with pytest.raises(TypeError, match="a colour is WHITE"):
            board.pieces(congo.PAWN, bad)  # type: ignore[arg-type]


class _Subclass(Board):
    pass


def test_root_and_mirror_keep_a_subclass() -> None:
    board = _Subclass()
    board.push_uci("g1f3")
    assert type(board.root()) is _Subclass
    assert board.root() == Board()
    assert type(board.mirror()) is _Subclass


def test_position_piece_at_returns_a_piece() -> None:
    position = Position()
    assert position.piece_at(congo.D1) == Piece.from_symbol("L") == Board().piece_at(congo.D1)
    assert position.piece_map()[congo.A7] == Piece.from_symbol("g")


def test_search_and_analysis_both_take_no_limit() -> None:
    engine = congo.Engine(hash_mb=1)
    board = Board()
    import threading

    threading.Timer(0.3, engine.stop).start()
    result = engine.search(board)  # until stop(), like analysis()
    assert result.move is not None
