"""Planes, the action space and the mirror (congo.learning), against the pure-Python oracle.

The Rust tests (rust/congo-core/tests/learn.rs) prove the action encoding one-to-one with the core's
legal moves over the perft suite and 5,000+ random positions; here the same correspondence is checked
against the oracle's legal moves, through the Python API.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import congo
import congo.learning as learning
from congo.learning import NUM_ACTIONS, NUM_PLANES, STOP_ACTION, GameState
from tests import oracle
from tests.oracle import load_perft_file

DATA = Path(__file__).parent / "data"
SUITE = [case for path in sorted(DATA.glob("*.perft")) for case in load_perft_file(path)]
SUITE_IDS = [case.id for case in SUITE]


def mirror_fen(fen: str) -> str:
    """The FEN of the left–right mirror, by text: each rank written backwards."""
    placement, *rest = fen.split()
    ranks = []
    for rank in placement.split("/"):
        cells = "".join("." * int(c) if c.isdigit() else c for c in rank)[::-1]
        out, empty = "", 0
        for c in cells:
            if c == ".":
                empty += 1
                continue
            out += (str(empty) if empty else "") + c
            empty = 0
        ranks.append(out + (str(empty) if empty else ""))
    return " ".join(["/".join(ranks), *rest])


def mirror_square(sq: int) -> int:
    return sq - sq % 7 + 6 - sq % 7


def mirror_move(move: str) -> str:
    squares = oracle.parse_move(move)
    return oracle.move_string(tuple(mirror_square(sq) for sq in squares))


def action_tree(game: GameState) -> dict[str, list[int]]:
    """Every complete action sequence from ``game``: {move string played: actions}."""
    found: dict[str, list[int]] = {}

    def walk(state: GameState, prefix: list[int]) -> None:
        for action in state.legal_actions():
            child = state.copy()
            completed = child.apply(action)
            if completed:
                move = child.move_stack()[-1].uci()
                assert move not in found, f"two action sequences play {move}"
                found[move] = [*prefix, action]
            else:
                walk(child, [*prefix, action])

    walk(game, [])
    return found


# -- the standard library is enough for import congo -----------------------------------------


def test_import_congo_needs_no_numpy_and_imports_no_framework() -> None:
    code = """
import sys
for name in ("numpy", "pyarrow", "gymnasium", "pettingzoo", "pyspiel", "ray"):
    sys.modules[name] = None  # any import of them fails
import congo, congo.learning, congo.selfplay
loaded = [m for m in ("numpy", "pyarrow", "gymnasium", "pettingzoo", "pyspiel", "congo.envs.pettingzoo")
          if sys.modules.get(m) is not None]
assert not loaded, loaded
assert len(congo.learning.encode_bytes(congo.Board())) == congo.learning.PLANE_SIZE
try:
    congo.encode(congo.Board())
except ImportError as error:
    assert "congo-chess[numpy]" in str(error), error
else:
    raise AssertionError("congo.encode worked without numpy")
"""
    subprocess.run([sys.executable, "-c", code], check=True)


# -- planes -----------------------------------------------------------------------------------


def test_the_start_position_planes() -> None:
    np = pytest.importorskip("numpy")
    planes = congo.encode(congo.Board())
    assert planes.shape == (NUM_PLANES, 7, 7)
    assert planes.dtype == np.uint8
    assert learning.PLANE_NAMES[0] == "white_pawn"
    assert planes[0, 1].tolist() == [1] * 7  # white pawns on rank 2 (row 1)
    assert planes[15, 6, 3] == 1  # black lion on d7
    assert planes[16].all()  # White to move
    assert planes[17].sum() == 7
    assert planes[17, 3].all()
    assert planes[18].sum() == 18
    assert not planes[19:].any()
    black = congo.encode("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 1")
    assert not black[16].any()


def test_a_batch_equals_one_by_one_and_takes_every_kind_of_input() -> None:
    np = pytest.importorskip("numpy")
    fens = [case.fen for case in SUITE]
    batch = congo.encode(fens)
    assert batch.shape == (len(fens), NUM_PLANES, 7, 7)
    for fen, planes in zip(fens, batch):
        assert np.array_equal(planes, congo.encode(congo.Position(fen)))
    mixed = congo.encode(
        [congo.Board(fens[0]), congo.Position(fens[1]), fens[2], GameState(congo.Position(fens[3]))]
    )
    assert np.array_equal(mixed, batch[:4])
    assert learning.encode_bytes(fens) == batch.tobytes()
    assert congo.encode([]).shape == (0, NUM_PLANES, 7, 7)


def test_planes_match_the_oracle_board() -> None:
    np = pytest.importorskip("numpy")
    letters = "PSMGZECL"
    for case in SUITE:
        planes = congo.encode(case.fen)
        board = oracle.Position.from_fen(case.fen).board
        expected = np.zeros((16, 49), dtype=np.uint8)
        for sq, piece in enumerate(board):
            if piece is not None:
                expected[letters.index(piece.upper()) + (0 if piece.isupper() else 8), sq] = 1
        assert np.array_equal(planes[:16].reshape(16, 49), expected), case.id


def test_repetition_planes_count_earlier_occurrences() -> None:
    board = congo.Board()
    counts = []
    for _ in range(2):
        for uci in ("g1f3", "g7f5", "f3g1", "f5g7"):
            board.push_uci(uci)
        counts.append(bytes(learning.encode_bytes(board)[19 * 49 : 21 * 49 : 49]))
    assert counts == [b"\x01\x00", b"\x01\x01"]
    game = GameState()
    for move in board.move_stack:
        game.push(move)
    assert game.is_over()
    assert game.end == "threefold_repetition"


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="Boards, Positions"):
        learning.encode_bytes([1])  # type: ignore[list-item]
    with pytest.raises(congo.InvalidFenError):
        learning.encode_bytes(["not a fen"])
    with pytest.raises(ValueError, match="threads"):
        learning.encode_bytes(congo.Board(), threads=-1)


# -- the mirror, against the oracle -----------------------------------------------------------


@pytest.mark.parametrize("case", SUITE, ids=SUITE_IDS)
def test_the_mirror_commutes_with_the_oracle_rules(case: oracle.PerftCase) -> None:
    position = oracle.Position.from_fen(case.fen)
    mirrored = oracle.Position.from_fen(mirror_fen(case.fen))
    # The core's mirror is the textual mirror.
    assert learning.mirror_files(congo.Position(case.fen)).fen() == mirrored.fen()
    # The oracle's rules are symmetric: the mirrored position's moves are the mirrored moves, and
    # playing a move then mirroring equals mirroring then playing the mirrored move.
    moves = position.legal_moves()
    assert sorted(mirror_move(m) for m in moves) == mirrored.legal_moves()
    for move in moves:
        after = oracle.Position.from_fen(mirror_fen(position.play(move).fen()))
        assert mirrored.play(mirror_move(move)) == after, move
    shallow = min(case.counts)
    if case.counts[shallow] < 20_000:
        assert oracle.perft(mirrored, shallow) == case.counts[shallow]
    # Planes and masks mirror too.
    planes = learning.encode_bytes(case.fen, mirror=True)
    assert planes == learning.encode_bytes(mirrored.fen())
    mask = {learning.mirror_action(a) for a in GameState(congo.Position(case.fen)).legal_actions()}
    assert mask == set(GameState(congo.Position(mirrored.fen())).legal_actions())


def test_mirror_planes_and_policy_helpers() -> None:
    np = pytest.importorskip("numpy")
    fen = "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35"
    assert np.array_equal(learning.mirror_planes(congo.encode(fen)), congo.encode(fen, mirror=True))
    policy = np.arange(NUM_ACTIONS)
    mirrored = learning.mirror_policy(policy)
    assert mirrored[STOP_ACTION] == STOP_ACTION
    assert np.array_equal(learning.mirror_policy(mirrored), policy)


# -- the action space, against the oracle -----------------------------------------------------


def check_actions_against_oracle(fen: str) -> int:
    game = GameState(congo.Position(fen), 0)
    expected = oracle.Position.from_fen(fen).legal_moves() if not game.is_over() else []
    tree = action_tree(game)
    assert sorted(tree) == expected, fen  # masks → moves: exactly the legal moves, each once
    for move, actions in tree.items():  # moves → masks
        assert game.actions_of(congo.Move.from_uci(move)) == actions
    return len(tree)


@pytest.mark.parametrize("case", SUITE, ids=SUITE_IDS)
def test_action_sequences_are_the_oracle_moves_over_the_suite(case: oracle.PerftCase) -> None:
    check_actions_against_oracle(case.fen)


def random_fens(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    fens: list[str] = []
    starts = [case.fen for case in SUITE]
    while len(fens) < count:
        board = congo.Board(rng.choice(starts))
        for _ in range(rng.randrange(1, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            fens.append(board.fen())
    return fens[:count]


def test_action_sequences_are_the_oracle_moves_in_random_positions() -> None:
    chains = 0
    for fen in random_fens(3000, seed=11):
        check_actions_against_oracle(fen)
        chains += sum(1 for m in congo.Position(fen).legal_moves() if len(m.path) > 2)
    assert chains > 0


def test_a_chain_is_played_jump_by_jump() -> None:
    game = GameState(congo.Position("7/4l2/7/4c2/7/2p4/1M1L3 w 1"))
    actions = game.actions_of(congo.Move.from_uci("b1d3f5"))
    assert [learning.action_name(a) for a in actions] == ["b1d3", "d3f5", "stop"]
    assert game.apply(actions[0]) is False
    assert game.chain == [congo.B1, congo.D3]
    assert game.turn == congo.WHITE
    assert sorted(game.legal_actions()) == sorted([actions[1], STOP_ACTION])
    assert game.apply(actions[1]) is False
    assert game.apply(STOP_ACTION) is True
    assert game.position.fen() == "7/4l2/5M1/7/7/7/3L3 b 1"
    winning = GameState(congo.Position("7/4l2/7/4c2/7/2p4/1M1L3 w 1"))
    for action in winning.actions_of(congo.Move.from_uci("b1d3f5d7")):
        winning.apply(action)
    assert winning.is_over()
    assert winning.winner is True
    assert winning.end == "lion_captured"


def test_illegal_actions_raise_and_change_nothing() -> None:
    game = GameState()
    for action in (STOP_ACTION, 0, NUM_ACTIONS - 2):
        with pytest.raises(congo.IllegalMoveError):
            game.apply(action)
    with pytest.raises(ValueError, match="out of range"):
        game.apply(NUM_ACTIONS)
    with pytest.raises(ValueError, match="out of range"):
        game.apply(-1)
    with pytest.raises(ValueError, match="max_plies"):
        GameState(max_plies=-1)
    with pytest.raises(TypeError):
        game.apply("b1d3")  # type: ignore[arg-type]
    assert game.plies == 0
    assert game.actions() == []
    with pytest.raises(ValueError, match="out of range"):
        learning.action_name(NUM_ACTIONS)


def test_games_pickle_and_copy_mid_chain() -> None:
    game = GameState(congo.Position("7/4l2/7/4c2/7/2p4/1M1L3 w 1"), max_plies=50)
    game.apply(game.actions_of(congo.Move.from_uci("b1d3f5"))[0])
    for copy in (pickle.loads(pickle.dumps(game)), game.copy()):
        assert copy.chain == game.chain
        assert copy.max_plies == 50
        assert copy.observation() == game.observation()
        assert copy.legal_actions() == game.legal_actions()
    mid = learning.encode_bytes(game)
    assert mid[21 * 49 + congo.D3] == 1
    assert mid[22 * 49 + congo.B1] == 1


# A game pickled when the class was called congo.learning.Game (protocol 2, one action applied):
# pickle finds the class by that name, which the deprecated alias still answers.
OLD_NAME_PICKLE = (
    b"\x80\x02ccongo.learning\nGame\nq\x00ccongo\nPosition\nq\x01X\x1b\x00\x00\x00"
    b"7/4l2/7/4c2/7/2p4/1M1L3 w 1q\x02\x85q\x03Rq\x04K(\x86q\x05Rq\x06]q\x07K\x01ab."
)


def test_the_old_name_game_still_works_and_says_it_is_deprecated() -> None:
    # congo.pgn.Game is the game record; the learning one is a GameState, its old name an alias.
    with pytest.warns(DeprecationWarning, match="congo.learning.GameState") as caught:
        old = learning.Game
    assert len(caught) == 1
    assert old is GameState
    assert "Game" not in learning.__all__
    assert repr(GameState()).startswith("<congo.learning.GameState at ")
    with pytest.raises(AttributeError, match="no attribute 'Gme'"):
        learning.Gme  # type: ignore[attr-defined]  # noqa: B018


def test_a_game_pickled_under_the_old_name_loads_as_a_game_state() -> None:
    with pytest.warns(DeprecationWarning, match="congo.learning.GameState"):
        game = pickle.loads(OLD_NAME_PICKLE)
    assert type(game) is GameState
    assert game.actions() == [1]
    assert game.max_plies == 40
    assert game.start == congo.Position("7/4l2/7/4c2/7/2p4/1M1L3 w 1")
    # Pickled again, it names the new class, and loads without a warning.
    again = pickle.dumps(game, protocol=2)
    assert b"GameState" in again
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pickle.loads(again).actions() == [1]


def test_a_random_game_in_actions_agrees_with_the_board() -> None:
    rng = random.Random(5)
    game, board = GameState(), congo.Board()
    while not game.is_over():
        action = rng.choice(game.legal_actions())
        plies = game.plies
        game.apply(action)
        if game.plies > plies:
            board.push(game.move_stack()[-1])
            assert board.position == game.position
    assert game.plies == len(board.move_stack)
    assert 0 < game.plies <= 300


@pytest.mark.parametrize(
    ("module", "needs"),
    [
        ("congo.learning", None),
        ("congo.selfplay", None),
        ("congo.envs.pettingzoo", "pettingzoo"),
        ("congo.envs.gymnasium", "gymnasium"),
        ("congo.envs.openspiel", "pyspiel"),
    ],
)
def test_module_examples_run(module: str, needs: str | None) -> None:
    import doctest
    import importlib

    if needs is not None:
        pytest.importorskip(needs)
    failures, tried = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failures == 0


# -- the side-to-move perspective -------------------------------------------------------------


@pytest.mark.parametrize("case", SUITE, ids=SUITE_IDS)
def test_the_side_to_move_perspective_is_the_colour_mirror(case: oracle.PerftCase) -> None:
    position = congo.Position(case.fen)
    seen = learning.encode_bytes(position, perspective="side_to_move")
    if position.turn:
        assert seen == learning.encode_bytes(position)
        return
    # Black to move: the planes of the colour-mirrored position (White to move), but plane 16.
    expected = bytearray(learning.encode_bytes(position.mirror()))
    expected[16 * 49 : 17 * 49] = bytes(49)
    assert seen == expected
    game, mirrored = GameState(position), GameState(position.mirror())
    mask = game.action_mask(side_to_move=True)
    assert mask == mirrored.action_mask()
    assert {learning.flip_action(a) for a in game.legal_actions()} == set(mirrored.legal_actions())


def test_perspective_is_checked() -> None:
    with pytest.raises(ValueError, match="perspective"):
        learning.encode_bytes(congo.Board(), perspective="black")
    assert learning.flip_action(STOP_ACTION) == STOP_ACTION
    assert learning.action_name(learning.flip_action(learning.leg_action(congo.B1, congo.D3))) == "b7d5"


def test_games_that_are_over_from_the_start() -> None:
    decided = GameState(congo.Position("3L3/7/7/7/7/7/7 b 1"))
    assert decided.is_over()
    assert decided.end == "lion_captured"
    assert decided.winner is True
    assert decided.legal_actions() == []
    assert not any(decided.action_mask())
    with pytest.raises(congo.IllegalMoveError, match="over"):
        decided.apply(0)
    bare = GameState(congo.Position("3l3/7/7/7/7/7/4L2 w 1"))
    assert bare.end == "bare_lions"
    assert bare.winner is None
    limited = GameState(max_plies=1)
    limited.push(congo.Move.from_uci("g1f3"))
    assert limited.end == "move_limit"
    assert limited.winner is None
