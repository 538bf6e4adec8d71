"""Openings of a match: FEN, EPD and PGN files, their order and first opening, and the errors a bad
file gives (which line, which format was expected)."""

from __future__ import annotations

from pathlib import Path

import pytest

import congo
from congo import match, pgn
from congo.__main__ import main


def _fens(count: int) -> list[str]:
    fens = []
    for line in match.make_openings(count, 3, seed=11):
        board = congo.Board()
        for move in line:
            board.push(move)
        fens.append(board.fen())
    return fens


def _record(moves: int, seed: int) -> tuple[str, list[str]]:
    """A PGN record of ``moves`` random plies and the FEN after each ply."""
    line = match.make_openings(1, moves, seed=seed)[0]
    board = congo.Board()
    fens = []
    for move in line:
        board.push(move)
        fens.append(board.fen())
    game = pgn.Game.from_board(board)
    game.headers["Result"] = "*"
    return str(game), fens


def test_epd_lines_and_fens_mixed() -> None:
    one, two, three = _fens(3)
    board = congo.Board(two)
    epd = board.epd(fmvn=board.fullmove_number, id="two")
    assert epd != two
    text = f"{one}\n{epd}\n{three} ; id three\n"
    assert match.parse_openings(text) == [one, two, three]
    assert match.parse_openings(text, format="epd") == [one, two, three]


def test_pgn_openings_are_final_positions_or_the_first_plies(tmp_path: Path) -> None:
    first, first_fens = _record(6, 1)
    second, second_fens = _record(4, 2)
    path = tmp_path / "games.pgn"
    path.write_text(f"{first}\n\n{second}\n")
    assert match.read_openings(str(path)) == [first_fens[-1], second_fens[-1]]
    assert match.read_openings(str(path), plies=2) == [first_fens[1], second_fens[1]]
    assert match.read_openings(str(path), plies=5) == [first_fens[4], second_fens[-1]]  # shorter: its end
    # Found from the text too (a first line of tags), whatever the file is called, with a BOM.
    other = tmp_path / "games.txt"
    other.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert match.read_openings(str(other)) == [first_fens[-1], second_fens[-1]]
    with pytest.raises(ValueError, match="plies apply to PGN openings"):
        match.parse_openings(_fens(1)[0], plies=2)


def test_bad_openings_say_which_line_and_what_was_expected(tmp_path: Path) -> None:
    good = _fens(1)[0]
    with pytest.raises(
        ValueError, match=r"suite\.epd, line 3: expected a FEN \(e\.g\. '.*'\), .* or an EPD line"
    ):
        match.parse_openings(f"# a suite\n{good}\nnot a position at all\n", source="suite.epd")
    first, _ = _record(4, 3)
    path = tmp_path / "bad.pgn"
    path.write_text(first + '\n\n[Event "x"]\n\n1. zz9 *\n')
    with pytest.raises(ValueError, match=r"bad\.pgn, game 2 \(line \d+\): expected a PGN record"):
        match.read_openings(str(path))
    path.write_text("")
    with pytest.raises(ValueError, match="no openings in it"):
        match.read_openings(str(path))
    with pytest.raises(ValueError, match="format must be one of fen, epd, pgn"):
        match.parse_openings(good, format="csv")


def test_order_and_start() -> None:
    fens = _fens(6)
    assert match.arrange_openings(fens) == fens
    assert match.arrange_openings(fens, start=3) == fens[2:] + fens[:2]
    shuffled = match.arrange_openings(fens, order="random", seed=4)
    assert sorted(shuffled) == sorted(fens)
    assert shuffled != fens
    assert match.arrange_openings(fens, order="random", seed=4) == shuffled  # reproducible
    assert match.arrange_openings(fens, order="random", seed=5) != shuffled
    assert match.arrange_openings(fens, order="random", seed=4, start=2) == shuffled[1:] + shuffled[:1]
    for bad in ({"order": "backwards"}, {"start": 7}, {"start": 0}):
        with pytest.raises(ValueError, match=r"order|start"):
            match.arrange_openings(fens, **bad)


def test_cli_openings_from_pgn_in_random_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, finals = [], []
    for seed in range(4):
        text, fens = _record(4, seed + 10)
        records.append(text)
        finals.append(fens[1])
    path = tmp_path / "book.pgn"
    path.write_text("\n\n".join(records) + "\n")
    save = tmp_path / "games.pgn"
    argv = ["match", "random", "random", "--games", "8", "--openings", str(path), "--pgn-plies", "2"]
    argv += ["--openings-order", "random", "--seed", "3", "--openings-start", "2", "--save", str(save)]
    assert main([*argv, "--max-plies", "10"]) == 0
    capsys.readouterr()
    played = [game.headers["FEN"] for game in pgn.iter_games(save.open())][::2]
    assert played == match.arrange_openings(finals, order="random", seed=3, start=2)
    for bad, message in [
        (["--openings", str(path), "--openings-start", "5"], "start must be from 1 to 4"),
        (["--pgn-plies", "2"], "--pgn-plies applies to PGN --openings"),
        (["--openings-order", "shuffle"], "invalid choice"),
    ]:
        with pytest.raises(SystemExit) if "invalid" in message else _no_error():
            assert main(["match", "random", "random", *bad]) == 2
        assert message in capsys.readouterr().err


class _no_error:
    def __enter__(self) -> None:
        pass

    def __exit__(self, *args: object) -> None:
        pass
