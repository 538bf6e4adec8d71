"""congo.svg: structure of the SVG, options and bad input. (tests/test_browser.py renders it.)"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import congo
import congo.svg
from congo import BLACK, Board, Move, Piece, Position
from congo.svg import Arrow, SvgWrapper

NS = {"svg": "http://www.w3.org/2000/svg"}
MONKEY_FEN = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def square_rect(root: ET.Element, name: str) -> ET.Element:
    for rect in root.iterfind(".//svg:rect", NS):
        if name in rect.get("class", "").split() and "square" in rect.get("class", ""):
            return rect
    raise AssertionError(f"no square {name}")


def test_returns_a_displayable_str() -> None:
    image = congo.svg.board(Board())
    assert isinstance(image, SvgWrapper)
    assert isinstance(image, str)
    assert image._repr_svg_() == image
    assert image._repr_html_() == image
    root = parse(image)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox") == "0 0 355 355"
    assert root.get("width") == "355"


def test_river_and_castles_are_drawn() -> None:
    root = parse(congo.svg.board(Board()))
    classes = [rect.get("class", "") for rect in root.iterfind(".//svg:rect", NS)]
    assert sum("river" in c for c in classes) == 7
    assert sum(c.startswith("square castle") for c in classes) == 18
    assert sum(c.startswith("castle ") for c in classes) == 2  # the two outlines
    assert root.find(".//svg:g[@class='river']/svg:path", NS) is not None
    river = square_rect(root, "d4")
    assert river.get("fill") == congo.svg.DEFAULT_COLORS["river dark"]  # d4 is a dark square, like a1


def test_every_piece_has_its_own_glyph() -> None:
    board = Board("1z5/gPp1lPs/2m3p/4P1e/4L1p/2p2pP/1C2EMS b 35")
    root = parse(congo.svg.board(board))
    ids = {g.get("id") for g in root.iterfind(".//svg:defs/svg:g", NS)}
    assert ids == {f"congo-{color}-{name}" for color, name in [
        ("white", "pawn"), ("white", "superpawn"), ("white", "crocodile"), ("white", "lion"),
        ("white", "elephant"), ("white", "monkey"), ("black", "zebra"), ("black", "giraffe"),
        ("black", "pawn"), ("black", "lion"), ("black", "superpawn"), ("black", "monkey"),
        ("black", "elephant"),
    ]}  # fmt: skip
    uses = root.findall(".//svg:use", NS)
    assert len(uses) == len(board.piece_map())
    # The emblems differ between piece types.
    emblems = {
        t: re.sub(r'id="[^"]*"|class="[^"]*"', "", congo.svg.piece(Piece(t, True))) for t in range(1, 9)
    }
    assert len(set(emblems.values())) == 8


def test_both_colours_differ() -> None:
    white = congo.svg.piece(Piece.from_symbol("Z"))
    black = congo.svg.piece(Piece.from_symbol("z"))
    assert congo.svg.DEFAULT_COLORS["white piece"] in white
    assert congo.svg.DEFAULT_COLORS["black piece"] in black
    assert parse(white).get("width") == "45"
    assert parse(congo.svg.piece(Piece.from_symbol("L"), size=90)).get("height") == "90"


def test_coordinates() -> None:
    with_coords = parse(congo.svg.board(Board()))
    texts = [t.text or "" for t in with_coords.iterfind(".//svg:text", NS)]
    assert sorted(set(texts)) == sorted([*"abcdefg", *"1234567"])
    without = parse(congo.svg.board(Board(), coordinates=False))
    assert without.findall(".//svg:text", NS) == []
    assert without.get("viewBox") == "0 0 315 315"


def test_orientation() -> None:
    white = parse(congo.svg.board(Board(), coordinates=False))
    black = parse(congo.svg.board(Board(), coordinates=False, orientation=BLACK))
    assert (square_rect(white, "a1").get("x"), square_rect(white, "a1").get("y")) == ("0", "270")
    assert (square_rect(black, "a1").get("x"), square_rect(black, "a1").get("y")) == ("270", "0")
    assert (square_rect(black, "g7").get("x"), square_rect(black, "g7").get("y")) == ("0", "270")


def test_size() -> None:
    root = parse(congo.svg.board(Board(), size=200))
    assert (root.get("width"), root.get("height")) == ("200", "200")
    assert root.get("viewBox") == "0 0 355 355"


def test_lastmove_highlights_every_square_of_a_chain_and_draws_every_leg() -> None:
    board = Board(MONKEY_FEN)
    move = board.push_uci("b1d3f5")
    root = parse(congo.svg.board(board, lastmove=move, coordinates=False))
    highlighted = root.findall(".//svg:rect[@class='lastmove']", NS)
    assert {(r.get("x"), r.get("y")) for r in highlighted} == {("45", "270"), ("135", "180"), ("225", "90")}
    chain = root.find(".//svg:g[@class='chain']/svg:polyline", NS)
    assert chain is not None
    points = [tuple(float(v) for v in p.split(",")) for p in chain.get("points", "").split()]
    assert points[0] == (67.5, 292.5)  # b1
    assert points[1] == (157.5, 202.5)  # d3: the line bends on the landing square
    assert len(root.findall(".//svg:circle[@class='chain-landing']", NS)) == 1


def test_simple_lastmove_has_no_chain_line() -> None:
    board = Board()
    move = board.push_san("Zf3")
    root = parse(congo.svg.board(board, lastmove=move))
    assert len(root.findall(".//svg:rect[@class='lastmove']", NS)) == 2
    assert root.find(".//svg:g[@class='chain']", NS) is None


def test_board_repr_svg_shows_the_last_move() -> None:
    board = Board()
    assert "lastmove" not in board._repr_svg_()
    board.push_san("Zf3")
    assert board._repr_svg_() == congo.svg.board(board, lastmove=Move.from_uci("g1f3"))


def test_arrows() -> None:
    image = congo.svg.board(
        Board(),
        arrows=[Arrow(congo.G1, congo.F3, color="#123456"), (congo.C1, congo.C3), Move.from_uci("b1d3f5")],
    )
    root = parse(image)
    arrows = root.findall(".//svg:g[@class='arrow']", NS)
    assert len(arrows) == 3
    assert "#123456" in image
    chain_points = arrows[2].find("svg:polyline", NS)
    assert chain_points is not None
    assert len(chain_points.get("points", "").split()) == 3
    # An arrow from a square to itself is a circle.
    root = parse(congo.svg.board(Board(), arrows=[(congo.D4, congo.D4)]))
    assert root.find(".//svg:circle[@class='arrow']", NS) is not None


def test_squares_and_fill() -> None:
    root = parse(
        congo.svg.board(Board(), squares=congo.SquareSet([congo.A4, congo.B4]), fill={congo.D4: "red"})
    )
    assert len(root.findall(".//svg:path[@class='mark']", NS)) == 2
    assert square_rect(root, "d4").get("fill") == "red"


def test_position_and_empty_board() -> None:
    assert congo.svg.board(Position()) == congo.svg.board(Board())
    root = parse(congo.svg.board(None))
    assert root.findall(".//svg:use", NS) == []
    assert parse(congo.svg.board()).findall(".//svg:use", NS) == []


def test_colors_override_and_escaping() -> None:
    image = congo.svg.board(Board(), colors={"river light": "#00f"}, fill={congo.A1: '"><script>'})
    assert "#00f" in image
    assert "<script>" not in image
    parse(image)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"size": 0}, ValueError),
        ({"size": -5}, ValueError),
        ({"size": "big"}, TypeError),
        ({"size": True}, TypeError),
        ({"lastmove": "g1f3"}, TypeError),
        ({"arrows": [(1, 2, 3)]}, TypeError),
        ({"arrows": [(1, 99)]}, ValueError),
        ({"arrows": ["g1f3"]}, TypeError),
        ({"orientation": 1}, TypeError),
        ({"squares": [49]}, ValueError),
        ({"fill": {50: "red"}}, ValueError),
        ({"fill": {1: 3}}, TypeError),
        ({"fill": [1]}, TypeError),
        ({"colors": {"sky": "#fff"}}, ValueError),
        ({"colors": {"river light": 3}}, TypeError),
        ({"colors": ["river light"]}, TypeError),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        congo.svg.board(Board(), **kwargs)  # type: ignore[arg-type]


def test_bad_board_and_piece() -> None:
    with pytest.raises(TypeError, match="Board"):
        congo.svg.board(congo.STARTING_FEN)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Piece"):
        congo.svg.piece("L")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="off the board"):
        Arrow(0, 49)
    with pytest.raises(TypeError):
        Arrow(0, 1, color=None)  # type: ignore[arg-type]


def test_rendering_does_not_change_the_board() -> None:
    board = Board()
    board.push_san("Zf3")
    before = (board.fen(), board.move_stack)
    congo.svg.board(board, lastmove=board.peek())
    board._repr_svg_()
    assert (board.fen(), board.move_stack) == before
