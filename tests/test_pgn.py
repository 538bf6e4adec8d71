"""Game records (congo.pgn): writing, reading, round trips, malformed input."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import congo
from congo import Board, IllegalMoveError, Move
from congo.pgn import (
    NAG_GOOD_MOVE,
    NAG_MISTAKE,
    Game,
    GameNode,
    Headers,
    PgnError,
    iter_games,
    read_game,
    write_game,
)


def random_board(seed: int, plies: int = 200, fen: str = congo.STARTING_FEN) -> Board:
    rng = random.Random(seed)
    board = Board(fen)
    while not board.is_game_over(max_plies=plies):
        board.push(rng.choice(list(board.legal_moves)))
    return board


def read(text: str) -> Game:
    game = read_game(io.StringIO(text))
    assert game is not None
    return game


# -- writing ---------------------------------------------------------------------------------------


def test_new_game_has_the_tag_roster_and_variant() -> None:
    text = str(Game())
    assert text.splitlines() == [
        '[Event "?"]',
        '[Site "?"]',
        '[Date "????.??.??"]',
        '[Round "?"]',
        '[White "?"]',
        '[Black "?"]',
        '[Result "*"]',
        '[Variant "Congo"]',
        "",
        "*",
    ]


def test_from_board_writes_numbered_san_and_result() -> None:
    board = Board()
    for san in ["Zf3", "Ec5", "cc3"]:
        board.push_san(san)
    game = Game.from_board(board)
    assert game.export(headers=False) == "1. Zf3 Ec5 2. cc3 *"
    assert game.mainline_moves() == board.move_stack
    assert game.end().board() == board
    assert "FEN" not in game.headers
    assert "SetUp" not in game.headers


def test_from_board_with_a_set_up_position() -> None:
    fen = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"
    board = Board(fen)
    board.push_san("Mxd3xf5xd7")
    game = Game.from_board(board)
    assert game.headers["SetUp"] == "1"
    assert game.headers["FEN"] == fen
    assert game.headers["Result"] == "1-0"
    assert game.export(headers=False) == "1. Mxd3xf5xd7# 1-0"
    again = read(str(game))
    assert again.errors == []
    assert again.board().fen() == fen
    assert again.end().board() == board


def test_from_board_starts_at_the_root_of_the_stack() -> None:
    board = Board()
    board.push_san("Zf3")
    board.push_san("Ec5")
    game = Game.from_board(board.copy(stack=1))
    assert game.headers["FEN"] == "gmelecz/ppppppp/7/7/5Z1/PPPPPPP/GMELEC1 b 1"
    assert game.export(headers=False) == "1... Ec5 *"


def test_comments_nags_and_variations_are_written() -> None:
    game = Game.without_tag_roster()
    game.comment = "A short game."
    first = game.add_variation(Move.from_uci("g1f3"), comment="the zebra first", nags=[NAG_GOOD_MOVE])
    alternative = game.add_variation(Move.from_uci("c1c3"), starting_comment="or")
    alternative.add_line([Move.from_uci("c7c5"), Move.from_uci("d2d3")])
    reply = first.add_variation(Move.from_uci("c7c5"))
    reply.add_variation(Move.from_uci("c2c3"), nags=[NAG_MISTAKE])
    assert game.export(columns=None) == (
        "\n{A short game.} 1. Zf3 $1 {the zebra first} ({or} 1. Ec3 Ec5 2. dd3) 1... Ec5 2. cc3 $2 *"
    )
    assert game.export(comments=False, variations=False, headers=False) == "1. Zf3 $1 Ec5 2. cc3 $2 *"


def test_long_lines_are_wrapped() -> None:
    game = Game.from_board(random_board(1, plies=120))
    lines = str(game).split("\n\n", 1)[1].splitlines()
    assert len(lines) > 3
    assert all(len(line) <= 80 for line in lines)
    assert not any(line.endswith(".") for line in lines)  # a move number stays with its move
    assert len(game.export(columns=None).split("\n\n", 1)[1].splitlines()) == 1


def test_tag_values_are_escaped() -> None:
    game = Game()
    game.headers["Event"] = 'The "Big" \\ Cup'
    text = str(game)
    assert '[Event "The \\"Big\\" \\\\ Cup"]' in text
    assert read(text).headers["Event"] == 'The "Big" \\ Cup'


def test_comment_braces_are_dropped() -> None:
    game = Game.without_tag_roster()
    game.add_variation(Move.from_uci("g1f3"), comment="a } b")
    assert game.export(headers=False) == "1. Zf3 {a b} *"


def test_write_game_and_iter_games(tmp_path: Path) -> None:
    boards = [random_board(seed, plies=60) for seed in range(5)]
    path = tmp_path / "games.pgn"
    with path.open("w", encoding="utf-8") as handle:
        for i, board in enumerate(boards):
            game = Game.from_board(board)
            game.headers["Round"] = str(i + 1)
            write_game(handle, game)
    with path.open(encoding="utf-8") as handle:
        games = list(iter_games(handle))
        assert read_game(handle) is None
    assert [g.headers["Round"] for g in games] == ["1", "2", "3", "4", "5"]
    for game, board in zip(games, boards):
        assert game.errors == []
        assert game.mainline_moves() == board.move_stack
        assert game.end().board() == board


# -- round trips -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_random_games_round_trip(seed: int) -> None:
    board = random_board(seed)
    game = Game.from_board(board)
    game.headers["White"] = "Random"
    text = str(game)
    again = read(text)
    assert again.errors == []
    assert str(again) == text
    assert again.mainline_moves() == board.move_stack
    assert again.headers == game.headers


def test_round_trip_from_a_set_up_position() -> None:
    fen = "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35"
    board = random_board(4, plies=40, fen=fen)
    game = Game.from_board(board)
    text = str(game)
    assert text.split("\n\n", 1)[1].startswith("35... ")
    again = read(text)
    assert again.errors == []
    assert str(again) == text


def test_variations_round_trip() -> None:
    text = (
        '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n[Black "?"]\n'
        '[Result "*"]\n[Variant "Congo"]\n\n'
        "{Start.} 1. Zf3 {main} ({alt} 1. Ec3 Ec5 (1... Ee5 2. Eee3) 2. dd3) 1... Ec5 $1 2. cc3 *"
    )
    game = read(text)
    assert game.errors == []
    assert game.export(columns=None) == text
    assert game.comment == "Start."
    assert game.variations[0].comment == "main"
    side = game.variations[1]
    assert side.starting_comment == "alt"
    assert side.variations[0].variations[0].nags == set()
    assert [n.san() for n in side.mainline()] == ["Ec5", "dd3"]
    assert side.variations[1].move == Move.from_uci("e7e5")


# -- reading ---------------------------------------------------------------------------------------


def test_read_game_returns_none_at_the_end() -> None:
    assert read_game(io.StringIO("")) is None
    assert read_game(io.StringIO("\n\n  \n")) is None
    handle = io.StringIO("1. Zf3 *\n\n")
    assert read_game(handle) is not None
    assert read_game(handle) is None


def test_movetext_without_tags_and_machine_notation() -> None:
    game = read("1. g1f3 c7c5 2. c2-c3 *")
    assert game.errors == []
    assert [m.uci() for m in game.mainline_moves()] == ["g1f3", "c7c5", "c2c3"]
    assert game.headers["Variant"] == "Congo"


def test_suffix_annotations_and_semicolon_comments() -> None:
    game = read("1. Zf3! Ec5?? ; a blunder\n2. cc3 $14 !? *")
    assert game.errors == []
    nodes = list(game.mainline())
    assert nodes[0].nags == {1}
    assert nodes[1].nags == {4}
    assert nodes[1].comment == "a blunder"
    assert nodes[2].nags == {14, 5}


def test_multi_line_comment() -> None:
    game = read("1. Zf3 {a comment\nover two lines} Ec5 *")
    assert game.errors == []
    assert game.variations[0].comment == "a comment over two lines"


def test_games_without_blank_lines_or_results_are_split() -> None:
    text = '[White "A"]\n1. Zf3 Ec5\n[White "B"]\n1. Ec3 *\n[White "C"]\n'
    handle = io.StringIO(text)
    games = list(iter_games(handle))
    assert [g.headers["White"] for g in games] == ["A", "B", "C"]
    assert [len(g.mainline_moves()) for g in games] == [2, 1, 0]
    assert all(g.errors == [] for g in games)


def test_an_illegal_move_is_reported_and_the_line_kept_up_to_it() -> None:
    text = '[Event "x"]\n\n1. Zf3 Ec5\n2. Zf4 cc3 3. dd3 *\n'
    game = read(text)
    assert [m.uci() for m in game.mainline_moves()] == ["g1f3", "c7c5"]
    assert len(game.errors) == 1
    error = game.errors[0]
    assert isinstance(error, PgnError)
    assert isinstance(error, ValueError)
    assert error.line == 4
    assert "line 4" in str(error)
    assert "2. Zf4" in str(error)
    assert "no legal move matches" in str(error)
    with pytest.raises(PgnError, match="Zf4"):
        read_game(io.StringIO(text), strict=True)


def test_a_variation_after_an_illegal_move_is_skipped() -> None:
    game = read("1. Zf3 Ez5 (1... Ec5) 2. cc3 *")
    assert len(game.errors) == 1
    assert [m.uci() for m in game.mainline_moves()] == ["g1f3"]


def test_strict_reading_leaves_the_handle_at_the_next_game() -> None:
    handle = io.StringIO("1. Zf3 Zz9 *\n\n1. Ec3 *\n")
    with pytest.raises(PgnError):
        read_game(handle, strict=True)
    game = read_game(handle, strict=True)
    assert game is not None
    assert game.mainline_moves() == [Move.from_uci("c1c3")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Event "x"\n\n1. Zf3 *', "malformed tag"),
        ('[Variant "chess"]\n\n1. e4 e5 *', "not Congo"),
        ('[FEN "7/7/7/7/7/7/7 w 1"]\n\n*', "bad FEN tag"),
        ("1. Zf3 {never closed", "not closed"),
        ('[Result "1-0"]\n\n1. Zf3 0-1', "the result tag says '1-0'"),
        ("1. Zf3 ) Ec5 *", "')' without a variation"),
        ("( 1. Zf3 ) *", "before any move"),
        ("1. Zf3 & Ec5 *", "unexpected character '&'"),
        ("$3 1. Zf3 *", "before any move"),
        ("1. Zf3 (1... Ec5 *", "inside a variation"),
    ],
)
def test_malformed_records_are_reported(text: str, message: str) -> None:
    game = read(text)
    assert any(message in str(error) for error in game.errors), game.errors
    with pytest.raises(PgnError):
        read_game(io.StringIO(text), strict=True)


def test_a_good_game_after_a_bad_one_is_read() -> None:
    handle = io.StringIO('[Variant "chess"]\n\n1. e4 e5 1-0\n\n[White "ok"]\n\n1. Zf3 *\n')
    bad, good = list(iter_games(handle))
    assert bad.errors
    assert bad.mainline_moves() == []
    assert good.errors == []
    assert good.headers["White"] == "ok"


def test_byte_order_mark_and_escape_lines() -> None:
    game = read('\ufeff% a comment line\n[White "A"]\n\n1. Zf3 *')
    assert game.errors == []
    assert game.headers["White"] == "A"


def test_read_game_type_errors() -> None:
    with pytest.raises(TypeError, match="text handle"):
        read_game("1. Zf3 *")  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="text handle"):
        read_game(io.BytesIO(b"1. Zf3 *"))  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        write_game(io.StringIO(), "game")  # type: ignore[arg-type]


def test_long_game_is_not_recursive() -> None:
    board = Board("2l4/7/7/7/7/7/4L2 w 1")
    # The lions shuffle (bare lions is an adjudication: the moves stay legal).
    for i in range(600):
        board.push_uci(["e1e2", "c7c6", "e2e1", "c6c7"][i % 4])
    game = Game.from_board(board)
    again = read(str(game))
    assert len(again.mainline_moves()) == 600
    assert again.end().ply() == 600


# -- the tree --------------------------------------------------------------------------------------


def test_add_variation_checks_legality_and_types() -> None:
    game = Game()
    with pytest.raises(IllegalMoveError):
        game.add_variation(Move.from_uci("g1g2"))
    with pytest.raises(TypeError):
        game.add_variation("g1f3")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError):
        game.add_line([Move.from_uci("g1f3"), Move.from_uci("g1f3")])
    assert game.variations == []


def test_navigation_and_editing() -> None:
    game = Game()
    main = game.add_variation(Move.from_uci("g1f3"))
    side = game.add_variation(Move.from_uci("c1c3"))
    assert game.next() is main
    assert main.is_mainline()
    assert not side.is_mainline()
    assert game.variation(1) is side
    assert game.variation(Move.from_uci("c1c3")) is side
    assert game.has_variation(Move.from_uci("g1f3"))
    with pytest.raises(KeyError):
        game.variation(5)
    game.promote_to_main(Move.from_uci("c1c3"))
    assert game.next() is side
    new_main = game.add_main_variation(Move.from_uci("c2c3"))
    assert game.variations == [new_main, side, main]
    game.remove_variation(Move.from_uci("g1f3"))
    assert game.variations == [new_main, side]
    assert side.game() is game
    assert side.ply() == 1
    assert side.uci() == "c1c3"
    assert side.san() == "Ec3"
    assert side.parent is game
    assert side.is_end()
    assert game.end() is new_main
    assert isinstance(side, GameNode)
    assert "c1c3" in repr(side)
    assert "Game at" in repr(game)


def test_setup() -> None:
    game = Game()
    game.setup("3l3/7/7/7/7/7/3L3 w 1")
    assert game.headers["FEN"] == "3l3/7/7/7/7/7/3L3 w 1"
    assert game.board().fen() == "3l3/7/7/7/7/7/3L3 w 1"
    game.setup(Board())
    assert "FEN" not in game.headers
    with pytest.raises(congo.InvalidFenError):
        game.setup("nonsense")
    with pytest.raises(TypeError):
        game.setup(42)  # type: ignore[arg-type]


def test_headers() -> None:
    headers = Headers()
    headers["Annotator"] = "me"
    headers["Event"] = "Cup"
    assert list(headers)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert list(headers)[-1] == "Annotator"
    assert headers.copy() == headers
    with pytest.raises(ValueError, match="tag name"):
        headers["bad name"] = "x"
    with pytest.raises(ValueError, match="line break"):
        headers["Event"] = "a\nb"
    with pytest.raises(TypeError):
        headers["Event"] = 3  # type: ignore[assignment]
    assert "Annotator='me'" in repr(headers)
    assert len(Headers({})) == 0
