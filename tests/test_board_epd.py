"""EPD: ``Board.epd(**operations)`` and ``Board.set_epd(epd)``, python-chess's shape."""

from __future__ import annotations

import typing

import pytest

import congo
from congo.board import EpdOperand

START_EPD = "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w"


def test_epd_without_operations_is_placement_and_side_to_move() -> None:
    assert congo.Board().epd() == START_EPD
    board = congo.Board("3l3/7/7/7/7/7/3L3 b 17")
    assert board.epd() == "3l3/7/7/7/7/7/3L3 b"
    assert board.epd(fmvn=board.fullmove_number) == "3l3/7/7/7/7/7/3L3 b fmvn 17;"


def test_operations_are_written_in_python_chess_form() -> None:
    board = congo.Board()
    zf3 = board.parse_san("Zf3")
    cc3 = board.parse_san("cc3")
    epd = board.epd(bm=zf3, am=[zf3, cc3], id='test "1"', acd=12, ce=-35, c0="a\tb\\c", noop=None)
    assert epd == (
        f'{START_EPD} bm Zf3; am Zf3 cc3; id "test \\"1\\""; acd 12; ce -35; c0 "a\\tb\\\\c"; noop;'
    )
    assert board.epd(pv=[zf3, congo.Move.from_uci("c7c5")]) == f"{START_EPD} pv Zf3 Ec5;"
    assert board.epd(bm=[]) == f"{START_EPD} bm;"
    assert board.epd(x=1.5) == f"{START_EPD} x 1.5;"


@pytest.mark.parametrize(
    "operations",
    [
        {},
        {"id": "plain"},
        {"id": 'quotes " and \\ backslashes', "c9": "tab\there\nnew line"},
        {"acd": 0, "acn": 123456, "ce": -900, "dm": 3},
        {"bm": ["Zf3"], "am": ["cc3", "dc3"]},
        {"pv": ["Zf3", "Ec5", "cc3"], "c1": ""},
        {"noop": None, "x": 2.25},
        {"pv": ["--", "Zf5"]},
    ],
)
def test_operations_round_trip(operations: dict[str, object]) -> None:
    board = congo.Board()

    def moves(sans: list[str], line: bool) -> list[congo.Move]:
        scratch = board.copy()
        out = []
        for san in sans:
            out.append(scratch.parse_san(san))
            if line:
                scratch.push(out[-1])
        return out

    given: dict[str, EpdOperand] = {}
    for key, value in operations.items():
        if isinstance(value, list):
            given[key] = moves(value, key == "pv")
        else:
            given[key] = typing.cast("EpdOperand", value)
    epd = board.epd(**given)
    other = congo.Board("3l3/7/7/7/7/7/3L3 b 9")
    other.push(congo.Move.null())
    found = other.set_epd(epd)
    assert other.fen() == congo.STARTING_FEN
    assert other.move_stack == []
    assert set(found) == set(given)
    for key, value in given.items():
        if key in ("bm", "am"):
            assert sorted(map(str, typing.cast("list[congo.Move]", found[key]))) == sorted(
                map(str, typing.cast("list[congo.Move]", value))
            )
        else:
            assert found[key] == value
    assert other.epd(**typing.cast("dict[str, EpdOperand]", found)) == epd


def test_set_epd_reads_the_move_number_from_fmvn_or_a_third_field() -> None:
    board = congo.Board()
    assert board.set_epd('3l3/7/7/7/7/7/3L3 b fmvn 12; id "x";') == {"fmvn": 12, "id": "x"}
    assert board.fen() == "3l3/7/7/7/7/7/3L3 b 12"
    assert board.set_epd("3l3/7/7/7/7/7/3L3 w 30 bm Ld2;") == {"bm": [congo.Move.from_uci("d1d2")]}
    assert board.fen() == "3l3/7/7/7/7/7/3L3 w 30"
    assert board.set_epd(START_EPD) == {}
    assert board.fen() == congo.STARTING_FEN


def test_set_epd_is_lenient_where_python_chess_is() -> None:
    board = congo.Board()
    # No ';' after the last operation, unquoted strings for id, machine notation for moves.
    assert board.set_epd(f"{START_EPD}   bm g1f3 ;  id start") == {
        "bm": [congo.Move.from_uci("g1f3")],
        "id": "start",
    }
    assert board.set_epd(f'{START_EPD} c0 "semi; colon";') == {"c0": "semi; colon"}


def test_from_epd_makes_a_board() -> None:
    board, operations = congo.Board.from_epd(f"{START_EPD} bm Zf3;")
    assert board == congo.Board()
    assert operations == {"bm": [congo.Move.from_uci("g1f3")]}


@pytest.mark.parametrize(
    ("epd", "error", "message"),
    [
        ("", congo.InvalidFenError, "placement and the side to move"),
        ("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ", congo.InvalidFenError, "placement and the side"),
        ("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ x bm Zf3;", congo.InvalidFenError, "w or b"),
        ("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELEC w", congo.InvalidFenError, "rank"),
        ("3l3/7/7/7/7/7/L6 w", congo.InvalidPositionError, "outside its castle"),
        (f'{START_EPD} id "never closed;', congo.InvalidFenError, "unterminated string"),
        (f"{START_EPD} 9bad x;", congo.InvalidFenError, "bad EPD opcode '9bad'"),
        (f"{START_EPD} ce high;", congo.InvalidFenError, "ce takes an integer"),
        (f'{START_EPD} acd "5";', congo.InvalidFenError, "acd takes an integer"),
        (f"{START_EPD} id a; id b;", congo.InvalidFenError, "appears twice"),
        (f'{START_EPD} bm "Zf3";', congo.InvalidFenError, "takes moves"),
        (f"{START_EPD} fmvn x;", congo.InvalidFenError, "fmvn takes a move number"),
        (f"{START_EPD} bm Zf4;", congo.IllegalMoveError, "EPD operation bm"),
        (f"{START_EPD} pv Zf3 Zf3;", congo.IllegalMoveError, "EPD operation pv"),
        (f"{START_EPD} am Q@;", congo.InvalidMoveError, "EPD operation am"),
        (f'{START_EPD} x "a" b;', congo.InvalidFenError, "quoted string must be the whole operand"),
    ],
)
def test_malformed_epd_raises_and_leaves_the_board_unchanged(
    epd: str, error: type[ValueError], message: str
) -> None:
    board = congo.Board()
    board.push_san("Zf3")
    with pytest.raises(error, match=message):
        board.set_epd(epd)
    assert board.fen() == "gmelecz/ppppppp/7/7/5Z1/PPPPPPP/GMELEC1 b 1"
    assert board.move_stack == [congo.Move.from_uci("g1f3")]


def test_epd_refuses_bad_operations() -> None:
    board = congo.Board()
    with pytest.raises(ValueError, match="opcode"):
        board.epd(**{"9x": 1})
    with pytest.raises(ValueError, match="finite"):
        board.epd(ce=float("nan"))
    with pytest.raises(TypeError, match="bool"):
        board.epd(acd=True)
    with pytest.raises(TypeError, match="expected moves"):
        board.epd(bm=["Zf3"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="dict"):
        board.epd(x=typing.cast("EpdOperand", {}))
    with pytest.raises(congo.IllegalMoveError):
        board.epd(bm=congo.Move.from_uci("d1d2"))
    with pytest.raises(TypeError, match="str"):
        board.set_epd(1)  # type: ignore[arg-type]


def test_epd_numbers_are_ascii_digits() -> None:
    # A str pattern's \d matches other scripts' digits too, and int() reads them: "acd ٣" was 3.
    board = congo.Board()
    placement = board.epd()
    for digits in ("\u0663", "\uff13"):  # ARABIC-INDIC and FULLWIDTH DIGIT THREE
        with pytest.raises(congo.InvalidFenError, match="takes an integer"):
            board.set_epd(f"{placement} acd {digits};")
        # An operation of no fixed type keeps them as the text they are.
        assert board.set_epd(f"{placement} xyz {digits};") == {"xyz": digits}
        assert board.set_epd(f"{placement} xyz 1{digits}.5;") == {"xyz": f"1{digits}.5"}
    assert board.set_epd(f"{placement} acd 3; xyz 1.5;") == {"acd": 3, "xyz": 1.5}
