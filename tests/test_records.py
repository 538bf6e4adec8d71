"""Records at scale: the visitor API, headers-only and skipping readers, [%eval]/[%clk], streaming
in bounded memory, the reader's behaviour on hostile input, and fuzzing."""

from __future__ import annotations

import io
import random
import tracemalloc
import typing
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import congo
from congo import Board, Move, Score
from congo.engine import PovScore
from congo.pgn import (
    SKIP,
    BaseVisitor,
    BoardBuilder,
    Game,
    GameBuilder,
    Headers,
    HeadersBuilder,
    PgnError,
    SkipType,
    iter_games,
    read_game,
    read_headers,
    skip_game,
    write_game,
)


def random_record(rng: random.Random, plies: int, *, annotate: bool = False) -> Game:
    board = Board()
    while board.ply() < plies and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    game = Game.from_board(board)
    game.headers["White"] = f"W{rng.randrange(1000)}"
    if annotate:
        for node in game.mainline():
            if rng.random() < 0.3:
                node.comment = rng.choice(["good", "a long\tcomment", "[%clk 0:01:02]"])
            if rng.random() < 0.2:
                node.nags.add(rng.randrange(1, 20))
            if rng.random() < 0.15 and node.parent.board().legal_moves.count() > 1:
                side = [m for m in node.parent.board().legal_moves if m != node.move]
                branch = node.parent.add_variation(
                    rng.choice(side), starting_comment="idea" * rng.randrange(2)
                )
                branch.comment = "side"
    return game


def corpus(count: int, seed: int = 1, *, annotate: bool = True) -> str:
    rng = random.Random(seed)
    out = io.StringIO()
    for _ in range(count):
        write_game(out, random_record(rng, rng.randrange(0, 60), annotate=annotate))
    return out.getvalue()


# -- the reader never raises out of non-strict mode -------------------------------------


def test_a_nag_of_5000_digits_is_an_error_not_an_exception() -> None:
    game = read_game(io.StringIO("1. Zf3 $" + "9" * 5000 + " Ec5 *"))
    assert game is not None
    assert [m.uci() for m in game.mainline_moves()] == ["g1f3", "c7c5"]
    assert any("out of range" in str(e) for e in game.errors)


def test_a_tag_value_with_a_carriage_return_is_an_error_not_an_exception() -> None:
    game = read_game(io.StringIO('[Event "a\rb"]\n[Site "x\\\ry"]\n\n1. Zf3 *'))
    assert game is not None
    assert game.headers["Event"] == "a b"
    assert any("line break" in str(e) for e in game.errors)
    assert game.mainline_moves() == [Move.from_uci("g1f3")]


def test_a_game_with_a_bad_fen_tag_still_writes() -> None:
    game = read_game(io.StringIO('[FEN "7/7/7/7/7/7/7 w 1"]\n\n1. Zf3 *\n'))
    assert game is not None
    assert any("bad FEN tag" in str(e) for e in game.errors)
    text = str(game)
    assert '[FEN "7/7/7/7/7/7/7 w 1"]' in text
    assert text.endswith("*")


def test_lone_surrogates_are_read_not_raised() -> None:
    game = read_game(io.StringIO('[Event "\udcff"]\n\n1. Zf3 {\ud800} *'))
    assert game is not None
    assert game.mainline_moves() == [Move.from_uci("g1f3")]


# -- the visitor API ----------------------------------------------------------------------------


class Recorder(BaseVisitor[list[Any]]):
    """Every call, in order."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    def begin_game(self) -> SkipType | None:
        self.calls.append("begin_game")
        return None

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.calls.append(("header", tagname, tagvalue))

    def end_headers(self) -> SkipType | None:
        self.calls.append("end_headers")
        return None

    def visit_board(self, board: Board) -> None:
        self.calls.append(("board", board.fen()))

    def visit_move(self, board: Board, move: Move) -> None:
        self.calls.append(("move", board.san(move)))

    def visit_comment(self, comment: str) -> None:
        self.calls.append(("comment", comment))

    def visit_nag(self, nag: int) -> None:
        self.calls.append(("nag", nag))

    def begin_variation(self) -> SkipType | None:
        self.calls.append("(")
        return None

    def end_variation(self) -> None:
        self.calls.append(")")

    def visit_result(self, result: str) -> None:
        self.calls.append(("result", result))

    def handle_error(self, error: PgnError) -> None:
        self.calls.append(("error", error.line))

    def end_game(self) -> None:
        self.calls.append("end_game")

    def result(self) -> list[Any]:
        return self.calls


def test_visitor_calls_come_in_reading_order() -> None:
    text = '[White "A"]\n\n1. Zf3 {ok} (1. Ec3 $1 Ec5) 1... Ec5?? 2. Zz9 cc3 1-0\n'
    calls = read_game(io.StringIO(text), Visitor=Recorder)
    start = congo.STARTING_FEN
    final = Board()
    final.push_san("Zf3")
    final.push_san("Ec5")
    assert calls == [
        "begin_game",
        ("header", "White", "A"),
        "end_headers",
        ("board", start),
        ("move", "Zf3"),
        ("comment", "ok"),
        "(",
        ("move", "Ec3"),
        ("nag", 1),
        ("move", "Ec5"),
        ")",
        ("move", "Ec5"),
        ("nag", 4),
        ("error", 3),
        ("board", final.fen()),
        ("result", "1-0"),
        "end_game",
    ]


def test_skip_from_the_visitor() -> None:
    class MainLineOnly(Recorder):
        def begin_variation(self) -> SkipType:
            return SKIP

    calls = read_game(io.StringIO("1. Zf3 (1. Ec3 {x} (1. Ee3)) Ec5 *"), Visitor=MainLineOnly)
    assert calls is not None
    assert [c for c in calls if isinstance(c, tuple) and c[0] == "move"] == [("move", "Zf3"), ("move", "Ec5")]

    class TagsOnly(Recorder):
        def end_headers(self) -> SkipType:
            return SKIP

    handle = io.StringIO('[White "A"]\n\n1. Zf3 *\n\n[White "B"]\n\n1. Ec3 *\n')
    assert read_game(handle, Visitor=TagsOnly) == ["begin_game", ("header", "White", "A"), "end_game"]
    second = read_game(handle)
    assert second is not None
    assert second.headers["White"] == "B"


def test_the_fast_builder_and_the_visitor_path_build_the_same_games() -> None:
    class SlowBuilder(GameBuilder[Game]):
        """A subclass: read_game calls every method instead of the fast path."""

    text = corpus(60, seed=5)
    fast = list(iter_games(io.StringIO(text)))
    handle = io.StringIO(text)
    slow = []
    while (game := read_game(handle, Visitor=SlowBuilder)) is not None:
        slow.append(game)
    assert [str(g) for g in fast] == [str(g) for g in slow]
    assert [g.errors == [] for g in fast] == [True] * 60
    assert sum(len(g.variations) > 0 for g in fast) > 50


def test_board_builder_headers_builder_and_default_errors() -> None:
    text = "1. Zf3 (1. Ec3) Ec5 2. cc3 *"
    board = read_game(io.StringIO(text), Visitor=BoardBuilder)
    assert board is not None
    assert [m.uci() for m in board.move_stack] == ["g1f3", "c7c5", "c2c3"]
    headers = read_game(io.StringIO('[A "1"]\n\n*'), Visitor=HeadersBuilder)
    assert headers == Headers({"A": "1"})

    class Strict(BaseVisitor[None]):
        def result(self) -> None:
            return None

    # BaseVisitor.handle_error raises (as in python-chess); the builders never do.
    with pytest.raises(PgnError, match="Zz9"):
        read_game(io.StringIO("1. Zz9 *"), Visitor=Strict)


def test_read_headers_and_skip_game_and_offsets() -> None:
    text = corpus(20, seed=2)
    handle = io.StringIO(text)
    offsets = []
    names = []
    while True:
        offset = handle.tell()
        headers = read_headers(handle)
        if headers is None:
            break
        offsets.append(offset)
        names.append(headers["White"])
    assert len(offsets) == 20
    # Seek back to any game by its offset, as with python-chess.
    handle.seek(offsets[7])
    game = read_game(io.StringIO(handle.read()))
    assert game is not None
    assert game.headers["White"] == names[7]
    handle = io.StringIO(text)
    assert sum(1 for _ in iter(lambda: skip_game(handle), False)) == 20
    assert read_headers(handle) is None
    assert read_headers(io.StringIO("")) is None
    assert read_headers(io.StringIO('[White "A"]\n[Bad\n\n*')) == Headers({"White": "A"})


# -- [%eval] and [%clk] -------------------------------------------------------------------------


def test_eval_round_trips_from_each_side() -> None:
    game = Game()
    white_move = game.add_variation(Move.from_uci("g1f3"))  # Black to move after it
    black_move = white_move.add_variation(Move.from_uci("c7c5"))
    white_move.set_eval(PovScore(Score(cp=-35), False))  # Black's view: White is 0.35 up
    assert "[%eval 0.35]" in white_move.comment
    assert white_move.eval() == PovScore(Score(cp=-35), False)
    assert white_move.eval().white() == Score(cp=35)  # type: ignore[union-attr]
    black_move.comment = "keep this"
    black_move.set_eval(PovScore(Score(mate=2), True))
    assert black_move.comment == "keep this [%eval #2]"
    black_move.set_eval(PovScore(Score(mate=-3), True))
    assert black_move.comment == "keep this [%eval #-3]"
    assert black_move.eval() == PovScore(Score(mate=-3), True)
    black_move.set_eval(None)
    assert black_move.comment == "keep this"
    assert black_move.eval() is None
    black_move.set_eval(PovScore(Score(mate=0), True))
    assert black_move.eval() == PovScore(Score(mate=0), True)
    with pytest.raises(TypeError):
        black_move.set_eval(Score(cp=1))  # type: ignore[arg-type]
    # Written and read back.
    again = read_game(io.StringIO(str(game)))
    assert again is not None
    assert again.next().eval() == PovScore(Score(cp=-35), False)  # type: ignore[union-attr]


def test_annotations_read_ascii_digits_only() -> None:
    # A str pattern's \d matches other scripts' digits, which int() and float() read: the
    # Arabic-Indic [%clk 0:10:00] was 600 seconds, and [%eval 1.5] 150 centipawns.
    game = Game()
    node = game.add_variation(Move.from_uci("g1f3"))
    for zero, one, five in (("\u0660", "\u0661", "\u0665"), ("\uff10", "\uff11", "\uff15")):
        node.comment = f"[%clk {zero}:{one}{zero}:{zero}{zero}] [%eval {one}.{five}] [%eval #{one}]"
        assert node.clock() is None
        assert node.eval() is None
    node.comment = "[%clk 0:10:00] [%eval 1.5]"
    assert node.clock() == 600
    assert node.eval() == PovScore(Score(cp=-150), False)


def test_clock_round_trips() -> None:
    game = Game()
    node = game.add_variation(Move.from_uci("g1f3"))
    assert node.clock() is None
    node.set_clock(3723)
    assert node.comment == "[%clk 1:02:03]"
    assert node.clock() == 3723
    node.set_clock(5.25)
    assert node.comment == "[%clk 0:00:05.2]"
    assert node.clock() == pytest.approx(5.2)
    node.comment = "[%eval 0.10] [%clk 0:10:00]"
    assert node.clock() == 600
    node.set_clock(None)
    assert node.comment == "[%eval 0.10]"
    with pytest.raises(ValueError, match="finite number"):
        node.set_clock(-1)
    with pytest.raises(TypeError):
        node.set_clock("1")  # type: ignore[arg-type]


# -- streaming ---------------------------------------------------------------------------------


class Repeat:
    """A text handle of one block of records repeated ``times`` times, made line by line."""

    def __init__(self, block: str, times: int) -> None:
        self.lines = block.splitlines(keepends=True)
        self.times = times
        self.index = 0

    def readline(self, size: int | None = -1) -> str:
        if self.index >= self.times * len(self.lines):
            return ""
        line = self.lines[self.index % len(self.lines)]
        self.index += 1
        return line


@pytest.mark.parametrize("games", [pytest.param(100_000, marks=pytest.mark.slow), 5_000])
def test_streaming_runs_in_bounded_memory(games: int) -> None:
    block = corpus(50, seed=9)
    tracemalloc.start()
    try:
        handle = typing.cast(typing.TextIO, Repeat(block, games // 50))
        count = 0
        for game in iter_games(handle):
            count += 1
            assert not game.errors
            if count == 500:
                _, early_peak = tracemalloc.get_traced_memory()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == games
    assert peak < early_peak + 2_000_000  # no growth with the number of games


# -- fuzzing -------------------------------------------------------------------------------------

TOKENS = [
    "1.", "1...", "Zf3", "Ec5", "cc3", "Mxd3xf5", "g1f3", "Zz9", "(", ")", "{", "}", "{c}", ";x\n", "$1",
    "$99999999999999999999", "!?", "??", "*", "1-0", "0-1", "1/2-1/2", "\n", "\n\n", "[", "]",
    '[White "x"]\n', '[FEN "bad"]\n', '[FEN "3l3/7/7/7/7/7/3L3 w 1"]\n', '[Variant "chess"]\n', "%esc\n",
    "\r", "\ufeff", "\t", '"', "\\", "\udcff", "é",
]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS) | st.text(max_size=6), max_size=40).map(" ".join))
def test_fuzz_the_reader_never_raises_and_what_it_writes_reads_back(text: str) -> None:
    handle = io.StringIO(text)
    games = []
    for _ in range(100):  # every call consumes input: a bounded number of games
        game = read_game(handle)
        if game is None:
            break
        games.append(game)
        written = str(game)  # never raises, even for a bad FEN tag
        again = read_game(io.StringIO(written))
        assert again is not None
        if not any("FEN" in str(e) or "Congo" in str(e) for e in game.errors):
            assert again.mainline_moves() == game.mainline_moves()
    else:
        pytest.fail("the reader did not reach the end of the input")
    for reader in (read_headers, skip_game):
        handle = io.StringIO(text)
        for _ in range(100):
            if reader(handle) in (None, False):
                break


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 50))
def test_fuzz_mutated_records(seed: int, cuts: int) -> None:
    rng = random.Random(seed)
    text = list(corpus(2, seed=seed % 1000))
    for _ in range(cuts):  # delete, duplicate or replace characters
        i = rng.randrange(len(text)) if text else 0
        action = rng.randrange(3)
        if action == 0 and text:
            del text[i]
        elif action == 1 and text:
            text.insert(i, text[i])
        else:
            text.insert(i, rng.choice('{}()[]$;%\n 1.*-/?!"\\xZMe'))
    handle = io.StringIO("".join(text))
    while (game := read_game(handle)) is not None:
        str(game)
