"""The layers hold together: one source of truth for every rule, limit and
mapping, the core's values and objects used everywhere else, and the import graph between modules.
Every check runs on behaviour or on the installed package's modules, so it holds against a wheel too.
"""

from __future__ import annotations

import ast
import enum
import importlib
import importlib.util
import pathlib
import pickle
import re
import subprocess
import sys

import pytest

import congo
import congo.engine
import congo.learning
import congo.players
from congo import (
    BLACK,
    WHITE,
    Board,
    IllegalMoveError,
    Move,
    Outcome,
    Piece,
    Position,
    SquareSet,
    Termination,
    _core,
)

MONKEY_FEN = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"


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


def test_the_bindings_know_a_board_by_its_type_not_by_an_attribute() -> None:
    # The bindings read and wrote Board._position by name, and took any object with such an
    # attribute for a board. A board's position and move stack are now its Rust base's.
    board = Board()
    board.push_uci("g1f3")
    assert isinstance(board, _core.BoardState)
    assert vars(board) == {}  # nothing of a board's state lives in its instance dictionary
    view = congo.LegalMoveGenerator(board)
    assert len(view) == len(list(board.legal_moves)) == Board(board.fen()).legal_moves.count()

    class Lookalike:
        _position = Position()

    with pytest.raises(TypeError, match=r"LegalMoveGenerator takes a congo\.Board or a congo\.Position"):
        congo.LegalMoveGenerator(Lookalike())


def test_the_bindings_look_up_no_private_python_name() -> None:
    # They read and wrote Board._position, and called congo.pieces._piece and
    # congo.learning._restore_game, by name.
    bindings = pathlib.Path(__file__).resolve().parent.parent / "rust" / "congo-py" / "src"
    if not bindings.is_dir():
        pytest.skip("no binding sources here")
    lookup = re.compile(r'\b(?:getattr|setattr|hasattr|intern!)\([^)]*"_[A-Za-z]')
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(bindings.glob("*.rs"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if lookup.search(line)
    ]
    assert found == []


def test_no_player_or_board_is_probed_for_what_its_class_defines() -> None:
    # A Player answers new_game/play/abort/close and has limit/command (no-ops and None on the base
    # class), and a Board has every method of its class: asking getattr/hasattr whether one of them
    # exists hides a misspelt name and a second code path behind a check that is always true.
    package = pathlib.Path(congo.__file__).resolve().parent
    defined = {name for name in vars(congo.players.Player) if not name.startswith("_")}
    defined |= {name for name in dir(congo.Board) if not name.startswith("_")}
    probe = re.compile(r'\b(?:getattr|hasattr)\(\s*([\w.]+)\s*,\s*"(\w+)"')
    # Not a player or a board: the pool's results, a generator or a plain iterator.
    elsewhere = {("datagen.py", "results")}
    found = [
        f"{path.relative_to(package)}:{number}: {line.strip()}"
        for path in sorted(package.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in probe.finditer(line)
        if match.group(2) in defined and (path.name, match.group(1)) not in elsewhere
    ]
    assert found == []


def test_one_class_is_called_game() -> None:
    # congo.pgn.Game is python-chess's name for a game record; the browser's game is a
    # BoardSession and the learning one a GameState, so that a Game is always a record.
    package = pathlib.Path(congo.__file__).resolve().parent
    defining = [
        str(path.relative_to(package))
        for path in sorted(package.rglob("*.py"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.match(r"\s*class Game\b", line)
    ]
    assert defining == ["pgn.py"]
    assert not hasattr(_core, "Game")
    assert congo.learning.GameState.__name__ == "GameState"


def test_a_learning_game_pickles_through_its_own_class() -> None:
    game = congo.learning.GameState(Position(MONKEY_FEN), 40)
    game.apply(game.legal_actions()[0])
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is congo.learning.GameState
    assert again.actions() == game.actions()
    assert again.position == game.position
    # A tampered pickle: an action that is not legal where it stands is refused, not played.
    cls, args, actions = game.__reduce__()
    assert actions == game.actions()
    fresh = cls(*args)
    with pytest.raises(IllegalMoveError):
        fresh.__setstate__([congo.learning.STOP_ACTION])


def test_a_limit_crosses_as_one_value_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A Limit was checked by up to three calls, and its fields travelled to the search unpacked.
    seen: list[object] = []
    check = _core.check_limit

    def counted(limit: congo.Limit) -> None:
        seen.append(limit)
        check(limit)

    monkeypatch.setattr(_core, "check_limit", counted)
    limit = congo.Limit(depth=2, white_clock=5, black_clock=4, white_inc=1, black_inc=1, remaining_moves=3)
    assert seen == [limit]
    assert not hasattr(_core, "check_limits")
    with pytest.raises(ValueError, match="needs the time left on the clock"):
        congo.Limit(black_inc=1)
    result = congo.Engine(hash_mb=1).search(Board(), limit)
    assert result.depth == 2
    assert result.move is not None


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


def test_the_benches_use_public_names_only() -> None:
    # The benchmarks are scripts outside the package, as a user's would be: they imported
    # congo._files and read congo._core.__file__.
    benches = pathlib.Path(__file__).resolve().parent.parent / "benches"
    if not benches.is_dir():
        pytest.skip("no benches/ here (the sdist)")
    private = []
    for path in sorted(benches.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                names = [f"{node.value.id}.{node.attr}"]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[0] == "congo" and any(p.startswith("_") and not p.endswith("__") for p in parts):
                    private.append(f"{path.relative_to(benches)}:{node.lineno}: {name}")
    assert private == []


def test_class_module_names_say_where_to_import_them() -> None:
    for name in ("Move", "Position", "LegalMoveGenerator", "PlayoutStats"):
        cls = getattr(congo, name)
        assert cls.__module__ == "congo", name
        assert getattr(sys.modules[cls.__module__], name) is cls
    for name in ("Engine", "SearchInfo", "History", "RecordError", "RootMove"):
        cls = getattr(_core, name)
        assert cls.__module__ == "congo._core", name
        assert getattr(sys.modules[cls.__module__], name) is cls


def test_the_search_and_the_rules_agree_on_lion_captures() -> None:
    # The search's threats and tactical moves come from rules/ (no second copy under search/, which
    # a source grep used to check): on positions from random games, a one-ply search takes the lion
    # exactly when the rules' legal moves include a lion capture, and plays a legal move otherwise.
    import random

    engine = congo.Engine(hash_mb=1)
    rng = random.Random(22)
    seen = 0
    for _ in range(12):
        board = Board()
        while board.outcome() is None and board.ply() < 120:
            winning = set()
            for move in board.legal_moves:
                board.push(move)
                outcome = board.outcome()
                if outcome is not None and outcome.termination is Termination.LION_CAPTURED:
                    winning.add(move)
                board.pop()
            best = engine.search(board, congo.Limit(depth=1)).move
            assert best in board.legal_moves, board.fen()
            assert (best in winning) == bool(winning), board.fen()
            seen += bool(winning)
            board.push(rng.choice(list(board.legal_moves)))
    assert seen > 0
