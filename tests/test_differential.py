"""Differential tests: the Rust core (``congo``) against the pure-Python oracle (``tests.oracle``).

* random games (hypothesis) from the start position, from the perft-suite positions and from
  generated positions, comparing every position: FEN, legal moves (and every move's parsing and
  captures), outcome, Zobrist hash against a from-scratch hash;
* a ``RuleBasedStateMachine`` on ``congo.Board``: push a random legal move, pop, set a random
  valid FEN, with the same comparison as an invariant after every step;
* the perft suites (tests/data/*.perft): ``congo.perft`` against the oracle's counts (depth <= 3 by
  default, every depth under ``-m slow``);
* the soak command (``python -m tests.differential``) and the shrinker, briefly.

A failing example shrinks (every random decision is a hypothesis draw) and is reported as a FEN and
a move list, with the shortest failing suffix and fewest pieces found by
:func:`tests.differential_support.minimize`. Example counts scale with the hypothesis profile
(``tests/conftest.py``).
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, currently_in_test_context, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import congo
import tests.differential_support as support
from tests import differential
from tests.differential_support import (
    Disagreement,
    check_position,
    compare_game,
    follow,
    minimize,
    oracle_captures,
    oracle_game,
    random_position,
)
from tests.oracle import STARTING_FEN, PerftCase, Position, load_perft_file, parse_move
from tests.oracle.fen import parse_fen, validate_board

DATA = Path(__file__).parent / "data"
SUITE: list[tuple[str, PerftCase]] = [
    (path.stem, case) for path in sorted(DATA.glob("*.perft")) for case in load_perft_file(path)
]
SUITE_FENS = [case.fen for _, case in SUITE]
FAST_PERFT_DEPTH = 3


def scaled(percent: int) -> settings:
    """Settings with ``percent`` % of the profile's example count (at least 5)."""
    return settings(
        max_examples=max(5, settings().max_examples * percent // 100),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# =============================================================================== strategies


class DataChooser:
    """A :class:`~tests.differential_support.Chooser` backed by hypothesis draws, so that a failing
    example shrinks: integers toward ``low``, chances toward False."""

    def __init__(self, draw: Callable[[st.SearchStrategy[int]], int]) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def chance(self, probability: float) -> bool:
        threshold = 100 - round(probability * 100)
        return self.draw(st.integers(0, 99)) >= threshold


@st.composite
def positions(draw: st.DrawFn) -> str:
    """A random valid position (FEN) from :func:`~tests.differential_support.random_position`."""
    return random_position(DataChooser(draw))


@st.composite
def games(draw: st.DrawFn, starts: st.SearchStrategy[str], max_plies: int) -> tuple[str, list[str]]:
    """``(start FEN, moves)``: a random game played by the oracle, shrinking toward fewer moves."""
    fen = draw(starts)
    chooser = DataChooser(draw)
    length = chooser.integer(0, max_plies)
    capture_bias = (0.0, 0.3, 0.7)[chooser.integer(0, 2)]
    return fen, oracle_game(chooser, fen, length, capture_bias=capture_bias)


def _final_example() -> bool:
    """Whether hypothesis is replaying the final (shrunk) failing example."""
    if not currently_in_test_context():
        return True
    try:
        from hypothesis.control import current_build_context

        return bool(current_build_context().is_final)
    except Exception:  # hypothesis' internals changed: minimize every time
        return True


def check_game(fen: str, moves: list[str]) -> int:
    """Replay a game on core and oracle with every check on; on a disagreement, fail with the
    reproduction (minimized when hypothesis reports its final example)."""
    try:
        return compare_game(fen, follow(moves), thorough=True)
    except Disagreement as found:
        if not _final_example():
            raise
        smaller = minimize(found)
        raise AssertionError(f"{found.report()}\n\nminimal reproduction:\n{smaller.report()}") from None


# =============================================================================== random games


@scaled(100)
@given(game=games(st.just(STARTING_FEN), max_plies=120))
def test_random_games_from_the_start(game: tuple[str, list[str]]) -> None:
    check_game(*game)


@scaled(300)
@given(game=games(positions(), max_plies=40))
def test_random_games_from_generated_positions(game: tuple[str, list[str]]) -> None:
    check_game(*game)


@scaled(50)
@given(game=games(st.sampled_from(SUITE_FENS), max_plies=40))
def test_random_games_from_suite_positions(game: tuple[str, list[str]]) -> None:
    check_game(*game)


@scaled(300)
@given(fen=positions())
def test_generated_positions(fen: str) -> None:
    """Every generated position is valid for both sides and they agree on it."""
    check_game(fen, [])


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        (STARTING_FEN, ["c1c3", "e7e5", "g1f3"]),
        ("3l3/7/7/2M4/2pp3/7/4L2 w 10", ["c4c2e4"]),  # Decision A1: out and back drowns
        ("3l3/7/7/2M4/2pp3/7/4L2 w 10", ["c4c2"]),
        ("1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35", ["f5f7"]),  # §10 drowning anchor
        ("1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35", ["g4e4"]),
        ("7/4l2/7/4c2/7/2p4/1M1L3 w 1", ["b1d3f5d7"]),  # §10 monkey anchor: jumps the lion
        ("3l3/7/7/7/7/7/3L3 w 1", ["d1d7"]),  # facing capture on the file
        ("3l3/7/7/7/7/7/2L4 w 0", ["c1c2", "d7d6", "c2c3"]),  # bare lions; move number 0 (docs/rules.md §9)
        # at the piece limit (docs/rules.md §9, A21): monkey chains through a crowd
        ("2Ml2M/Mpp1e1M/2p1pM1/MMpeeeM/4p2/Mpp1eMM/2ML1M1 w 1", ["f1d3b1b3d5b5b7d5d3", "d7e7"]),
        ("3L3/7/7/7/7/7/7 b 3", []),  # Black's lion already captured
    ],
)
def test_fixed_games(fen: str, moves: list[str]) -> None:
    check_game(fen, moves)


# =============================================================================== FEN input

#: Replacement characters for the placement field: pieces, digits, separators, junk.
FEN_CHARACTERS = "LlPpSsMmCcEeZzGg12345670/ xK"
#: Move-number fields ("\uff11" is a full-width digit one).
MOVE_NUMBERS = ["1", "0", "007", "4294967295", "-1", "+1", "1.0", "x", "", "\uff11"]
SIDES = ["w", "b", "W", "B", "x", "", "wb"]


@st.composite
def fen_inputs(draw: st.DrawFn) -> str:
    """A valid FEN with a few mutations: characters of the placement replaced, inserted or deleted,
    another side-to-move or move-number field (or none), extra whitespace."""
    placement, side, number = draw(positions()).split()
    chars = list(placement)
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(chars)))
        action = draw(st.sampled_from(["replace", "insert", "delete"]))
        if action == "insert" or i == len(chars):
            chars.insert(i, draw(st.sampled_from(FEN_CHARACTERS)))
        elif action == "replace":
            chars[i] = draw(st.sampled_from(FEN_CHARACTERS))
        else:
            del chars[i]
    if draw(st.booleans()):
        side = draw(st.sampled_from(SIDES))
    if draw(st.booleans()):
        number = draw(st.sampled_from(MOVE_NUMBERS))
    fields = ["".join(chars), side, number]
    separator = draw(st.sampled_from([" ", "  ", "\t"]))
    return separator.join(field for field in fields if field)


def _fen_verdict(fen: str) -> str:
    """The oracle's verdict on a FEN: its canonical form, "syntax" or "position" (the error kind)."""
    try:
        board, _, _ = parse_fen(fen)
    except ValueError:
        return "syntax"
    try:
        validate_board(board)
    except ValueError:
        return "position"
    return Position.from_fen(fen).fen()


def _core_verdict(fen: str) -> str:
    try:
        return congo.Board(fen).fen()
    except congo.InvalidFenError:
        return "syntax"
    except congo.InvalidPositionError:
        return "position"


@scaled(300)
@given(fen=fen_inputs())
def test_fen_input(fen: str) -> None:
    """Core and oracle accept the same FENs (docs/rules.md §9), write them back alike, and reject the others
    for the same reason (malformed: ``InvalidFenError``; invalid position: ``InvalidPositionError``)."""
    assert _core_verdict(fen) == _fen_verdict(fen)


@pytest.mark.parametrize(
    "fen",
    [
        pytest.param("3l12/7/7/7/7/7/3L3 w 1", id="two-digits-in-a-row"),
        pytest.param("3l3/7/7/7/7/7/3L3", id="placement-only"),
        pytest.param("3l3/7/7/7/7/7/3L3 w 4294967295", id="largest-move-number"),
        pytest.param("3l3/7/7/7/7/7/3L3 w 4294967296", id="move-number-above-u32"),
    ],
)
def test_fen_input_where_the_rules_are_silent(fen: str) -> None:
    """docs/rules.md §9 is silent on these; the project's decisions (docs/rules.md) hold on both sides:
    digits add up, a placement alone is White to move at move 1, the move number is 32 bits."""
    assert _core_verdict(fen) == _fen_verdict(fen)


def test_move_number_saturates_at_its_largest_value() -> None:
    check_game("3l3/7/7/7/7/7/3L3 b 4294967295", ["d7d6"])


# =============================================================================== state machine


class BoardMachine(RuleBasedStateMachine):
    """``congo.Board`` driven by push / pop / set_fen, checked against an oracle stack after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.board = congo.Board()
        self.root = STARTING_FEN
        self.oracles = [Position.from_fen(STARTING_FEN)]
        self.moves: list[str] = []

    def _reset(self, fen: str) -> None:
        self.root = fen
        self.oracles = [Position.from_fen(fen)]
        self.moves = []

    @initialize(fen=st.one_of(st.just(STARTING_FEN), positions()))
    def start(self, fen: str) -> None:
        self.board = congo.Board(fen)
        self._reset(fen)

    def _push(self, move: str) -> None:
        self.moves.append(move)
        try:
            self.board.push(congo.Move.from_uci(move))
        except ValueError as error:
            raise Disagreement("push", [f"the core rejects {move}: {error}"], self.root, self.moves) from None
        self.oracles.append(self.oracles[-1].play(move))

    @rule(index=st.integers(0, 1 << 16))
    def push(self, index: int) -> None:
        """Push the ``index % n``-th legal move (the oracle's sorted list); nothing if there is none."""
        legal = self.oracles[-1].legal_moves()
        if legal:
            self._push(legal[index % len(legal)])

    @rule(index=st.integers(0, 1 << 16))
    def push_capture(self, index: int) -> None:
        """Like :meth:`push`, but among the capturing moves when there are any (toward endgames)."""
        oracle = self.oracles[-1]
        legal = oracle.legal_moves()
        choices = [move for move in legal if oracle_captures(oracle.board, parse_move(move))] or legal
        if choices:
            self._push(choices[index % len(choices)])

    @rule()
    def pop(self) -> None:
        """Take back the last move; on an empty stack ``pop()`` raises IndexError."""
        if not self.moves:
            with pytest.raises(IndexError):
                self.board.pop()
            return
        popped = self.board.pop()
        expected = self.moves.pop()
        self.oracles.pop()
        assert popped.uci() == expected, f"pop() returned {popped.uci()}, expected {expected}"

    @rule(fen=st.one_of(positions(), st.sampled_from(SUITE_FENS)))
    def set_fen(self, fen: str) -> None:
        self.board.set_fen(fen)
        self._reset(fen)

    @invariant()
    def agrees_with_the_oracle(self) -> None:
        try:
            check_position(self.board, self.oracles[-1], thorough=True)
        except Disagreement as found:
            raise found.with_context(self.root, self.moves) from None
        stack = [move.uci() for move in self.board.move_stack]
        assert stack == self.moves, f"move_stack {stack} != {self.moves} from {self.root}"
        scratch = congo.Position(self.board.fen()).zobrist_hash()
        assert self.board.zobrist_hash() == scratch == self.board.position.zobrist_hash()


BoardMachine.TestCase.settings = settings(
    max_examples=max(5, settings().max_examples * 40 // 100),
    stateful_step_count=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestBoardMachine = BoardMachine.TestCase


# =============================================================================== perft suites


def _perft_params(slow: bool) -> list[object]:
    params: list[object] = []
    for stem, case in SUITE:
        depths = sorted(d for d in case.counts if (d > FAST_PERFT_DEPTH) == slow)
        if depths:
            marks = [pytest.mark.slow] if slow else []
            params.append(pytest.param(case, depths, id=f"{stem}:{case.id}", marks=marks))
    return params


@pytest.mark.parametrize(("case", "depths"), _perft_params(slow=False))
def test_perft_suite(case: PerftCase, depths: list[int]) -> None:
    """``congo.perft`` equals the oracle's counts of the suite file at depths <= 3, bulk or not,
    and ``congo.divide`` sums to them."""
    for depth in depths:
        assert congo.perft(case.fen, depth) == case.counts[depth], (case.id, depth)
        assert congo.perft(case.fen, depth, bulk=False) == case.counts[depth], (case.id, depth)
        if depth >= 1:
            assert sum(congo.divide(case.fen, depth).values()) == case.counts[depth], (case.id, depth)


@pytest.mark.parametrize(("case", "depths"), _perft_params(slow=True))
def test_perft_suite_deep(case: PerftCase, depths: list[int]) -> None:
    """``congo.perft`` equals the oracle's counts of the suite file at every depth above 3."""
    for depth in depths:
        assert congo.perft(case.fen, depth) == case.counts[depth], (case.id, depth)


def test_perft_suites_reach_depth_3() -> None:
    assert len(SUITE) >= 40
    for _, case in SUITE:
        assert case.max_depth >= 3 or case.counts[case.max_depth] == 0, case.id


@pytest.mark.parametrize("fen", SUITE_FENS, ids=[case.id for _, case in SUITE])
def test_suite_positions_divide(fen: str) -> None:
    """``congo.divide(fen, 1)`` lists exactly the oracle's legal moves, each once."""
    assert congo.divide(fen, 1) == dict.fromkeys(Position.from_fen(fen).legal_moves(), 1)


# =============================================================================== the tooling


def test_soak_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert differential.main(["--games", "12", "--seed", "7", "--thorough-every", "4"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].startswith("agreed on ")
    assert out[-1].endswith(" in 12 games (0 disagreements)")


def test_soak_is_reproducible_across_jobs() -> None:
    one = differential.run_soak(6, 3, positions_only=True, jobs=1)
    two = differential.run_soak(6, 3, positions_only=True, jobs=2)
    assert one == two
    assert one[0] > 6


def test_replay_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert differential.main(["--replay", "3l3/7/7/2M4/2pp3/7/4L2 w 10", "c4c2e4"]) == 0
    assert capsys.readouterr().out.strip() == "agreed on 2 positions"


def test_disagreement_pickles() -> None:
    found = Disagreement("outcome", ["details"], STARTING_FEN, ["c1c3"])
    again = pickle.loads(pickle.dumps(found))
    assert (again.kind, again.details) == ("outcome", ["details"])
    assert (again.fen, again.moves) == (STARTING_FEN, ["c1c3"])
    assert "c1c3" in str(again)


def test_minimize_shrinks_a_planted_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake core bug (a White crocodile in the river) found after three moves from the start is
    reduced to the FEN where it shows, with only the lions and that crocodile, and move number 1."""
    real_check = support.check_position

    def buggy_check(board: congo.Board, oracle: Position, *, thorough: bool = True) -> list[tuple[int, ...]]:
        paths = real_check(board, oracle, thorough=False)
        if "C" in board.fen().split("/")[3]:
            raise Disagreement("planted", ["a White crocodile is in the river"])
        return paths

    monkeypatch.setattr(support, "check_position", buggy_check)
    moves = ["f2g3", "a6a5", "f1f4"]  # the crocodile slides from f1 into the river
    with pytest.raises(Disagreement) as caught:
        compare_game(STARTING_FEN, follow(moves))
    assert caught.value.moves == moves
    smaller = minimize(caught.value)
    assert smaller.kind == "planted"
    assert smaller.moves == []
    assert smaller.fen == "3l3/7/7/5C1/7/7/3L3 b 1"
