"""Arrows and marked squares in records (``[%cal Gc1c3]``, ``[%csl Rd4]``) and in ``congo.svg``."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

import congo
import congo.pgn
import congo.svg
from congo import BLACK, Board
from congo.svg import Arrow

NS = {"svg": "http://www.w3.org/2000/svg"}
RECORD = '[Event "arrows"]\n\n1. Zf3 {[%csl Rd4,Yg7][%cal Gc1c3,Bb2b4] a plan} Ec5 {[%cal Rc7c5]} 2. cc3 *\n'


def read(text: str = RECORD) -> congo.pgn.Game:
    game = congo.pgn.read_game(io.StringIO(text))
    assert game is not None
    assert game.errors == []
    return game


def test_arrow_is_a_small_frozen_hashable_value() -> None:
    arrow = Arrow(congo.C1, congo.C3, "green")
    assert arrow == Arrow.from_pgn("Gc1c3")
    assert hash(arrow) == hash(Arrow.from_pgn("Gc1c3"))
    assert len({arrow, Arrow.from_pgn("Gc1c3"), Arrow.from_pgn("Rc1c3")}) == 2
    with pytest.raises(AttributeError):
        arrow.tail = congo.D4  # type: ignore[misc]
    assert Arrow.from_pgn("Rd4") == Arrow(congo.D4, congo.D4, "red")
    assert Arrow.from_pgn("a1g7") == Arrow(congo.A1, congo.G7, "green")
    assert [Arrow.from_pgn(t).pgn() for t in ("Gc1c3", "Rd4", "Ya1g7", "Bb2")] == [
        "Gc1c3",
        "Rd4",
        "Ya1g7",
        "Bb2",
    ]
    # Any other colour is written green, as python-chess does.
    assert Arrow(congo.A1, congo.B2, "#123456").pgn() == "Ga1b2"


@pytest.mark.parametrize("text", ["", "Gh1h3", "Gc8", "Xc1c3", "Gc1c3c5", "gc1c3", " Gc1c3"])
def test_arrow_from_pgn_refuses_anything_else(text: str) -> None:
    with pytest.raises(ValueError, match="not an arrow annotation"):
        Arrow.from_pgn(text)


def test_arrows_are_read_from_every_annotation_in_order() -> None:
    game = read()
    first, second, third = game.mainline()
    assert first.arrows() == [
        Arrow(congo.D4, congo.D4, "red"),
        Arrow(congo.G7, congo.G7, "yellow"),
        Arrow(congo.C1, congo.C3, "green"),
        Arrow(congo.B2, congo.B4, "blue"),
    ]
    assert second.arrows() == [Arrow(congo.C7, congo.C5, "red")]
    assert third.arrows() == []
    assert game.arrows() == []


def test_a_record_with_arrows_is_written_back_unchanged() -> None:
    game = read()
    assert " ".join(str(game).split()).endswith(
        "1. Zf3 {[%csl Rd4,Yg7][%cal Gc1c3,Bb2b4] a plan} 1... Ec5 {[%cal Rc7c5]} 2. cc3 *"
    )
    again = read(str(game))
    assert str(again) == str(game)
    for node in again.mainline():
        before = node.comment
        node.set_arrows(node.arrows())
        assert node.comment == before


def test_set_arrows_replaces_all_annotations_where_the_first_stood() -> None:
    game = read()
    node = game.next()
    assert node is not None
    node.set_arrows([Arrow(congo.E3, congo.E3, "blue"), (congo.A2, congo.A3)])
    assert node.comment == "[%csl Be3][%cal Ga2a3] a plan"
    node.set_arrows([])
    assert node.comment == "a plan"
    node.set_arrows([Arrow.from_pgn("Rd2d4")])
    assert node.comment == "a plan [%cal Rd2d4]"
    node.comment = "{eval} [%eval 0.35] [%csl Ga1] mid [%cal Gb1b2] end"
    node.set_arrows([Arrow.from_pgn("Yc3")])
    assert node.comment == "{eval} [%eval 0.35] [%csl Yc3] mid  end"
    assert node.eval() is not None


def test_set_arrows_refuses_bad_items_and_leaves_the_comment() -> None:
    game = read()
    node = game.next()
    assert node is not None
    before = node.comment
    with pytest.raises(TypeError, match="arrow"):
        node.set_arrows(["Gc1c3"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="square"):
        node.set_arrows([Arrow.from_pgn("Gc1c3"), (congo.A1, 49)])
    assert node.comment == before


def test_arrows_that_do_not_parse_are_left_in_the_comment() -> None:
    game = read("1. Zf3 {[%cal Gh1h3] [%csl Rd4]} *")
    node = game.next()
    assert node is not None
    assert node.arrows() == [Arrow(congo.D4, congo.D4, "red")]
    node.set_arrows([])
    assert node.comment == "[%cal Gh1h3]"


def test_svg_draws_a_records_arrows_and_marked_squares() -> None:
    node = read().next()
    assert node is not None
    root = ET.fromstring(congo.svg.board(node.board(), arrows=node.arrows()))
    arrows = root.findall(".//svg:g[@class='arrow']", NS)
    rings = root.findall(".//svg:circle[@class='arrow']", NS)
    assert len(arrows) == 2
    assert len(rings) == 2
    colors = congo.svg.DEFAULT_COLORS
    assert [ring.get("stroke") for ring in rings] == [colors["arrow red"], colors["arrow yellow"]]
    assert [g.find("svg:polygon", NS).get("fill") for g in arrows] == [  # type: ignore[union-attr]
        colors["arrow green"],
        colors["arrow blue"],
    ]


def centre_of_ring(svg: str) -> tuple[str | None, str | None]:
    ring = ET.fromstring(svg).find(".//svg:circle[@class='arrow']", NS)
    assert ring is not None
    return ring.get("cx"), ring.get("cy")


def test_flipped_turns_the_board_around() -> None:
    mark = [Arrow(congo.A1, congo.A1)]
    plain = congo.svg.board(Board(), coordinates=False, arrows=mark)
    flipped = congo.svg.board(Board(), coordinates=False, arrows=mark, flipped=True)
    black = congo.svg.board(Board(), coordinates=False, arrows=mark, orientation=BLACK)
    both = congo.svg.board(Board(), coordinates=False, arrows=mark, orientation=BLACK, flipped=True)
    assert centre_of_ring(plain) == ("22.5", "292.5")
    assert centre_of_ring(flipped) == centre_of_ring(black) == ("292.5", "22.5")
    assert centre_of_ring(both) == centre_of_ring(plain)
    with pytest.raises(TypeError, match="flipped"):
        congo.svg.board(Board(), flipped=1)  # type: ignore[arg-type]


def test_svg_refuses_the_null_move_as_an_arrow_but_takes_it_as_last_move() -> None:
    with pytest.raises(ValueError, match="null move"):
        congo.svg.board(Board(), arrows=[congo.Move.null()])
    board = Board()
    board.push(congo.Move.null())
    assert "lastmove" not in board._repr_svg_()
