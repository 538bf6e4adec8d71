"""Opening books: the file format and its checks, the reader's python-chess surface, the maker,
``congo book make/merge/dump``, and the engine's ``OwnBook``/``BookFile`` options."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import congo
from congo import book
from congo._files import SameFileError
from congo.cli import main

CONGO = [sys.executable, "-m", "congo"]

# Four games: White wins with c2c3 d6d5, a draw with the same moves, Black wins after d2d3 c6c5,
# and a game without a result (skipped by the maker).
RECORDS = (
    '[Result "1-0"]\n\n1. c2c3 d6d5 1-0\n\n'
    '[Result "1/2-1/2"]\n\n1. c2c3 d6d5 1/2-1/2\n\n'
    '[Result "0-1"]\n\n1. d2d3 c6c5 0-1\n\n'
    '[Result "*"]\n\n1. d2d3 *\n'
)


def _board(*moves: str) -> congo.Board:
    board = congo.Board()
    for move in moves:
        board.push_uci(move)
    return board


def _records(tmp_path: Path) -> Path:
    path = tmp_path / "games.pgn"
    path.write_text(RECORDS, encoding="utf-8")
    return path


def _entries(reader: book.Reader, board: congo.Board) -> list[tuple[str, int]]:
    return [(e.move.uci(), e.weight) for e in reader.find_all(board, minimum_weight=0)]


def _write(tmp_path: Path, entries: list[book.Entry], name: str = "b.cbk") -> Path:
    path = tmp_path / name
    book.write(path, entries)
    return path


def _sample(tmp_path: Path) -> Path:
    start = congo.Board()
    key = start.zobrist_hash()
    return _write(
        tmp_path,
        [
            book.Entry(key, congo.Move.from_uci("c2c3"), 3),
            book.Entry(key, congo.Move.from_uci("d2d3"), 5),
            book.Entry(key, congo.Move.from_uci("a2a3"), 5),
            book.Entry(key, congo.Move.from_uci("b2b3"), 0),
            # Black's move stored under White's position (as a key collision would): never legal.
            book.Entry(key, congo.Move.from_uci("d6d5"), 9),
        ],
    )


# ============================================================================ making and dumping


def test_make_weights_moves_by_results_for_the_side_that_played_them(tmp_path: Path) -> None:
    entries, counts = book.make([_records(tmp_path)])
    assert counts == {"games": 4, "used": 3, "entries": 4, "positions": 3}
    reader = book.open_reader(_write(tmp_path, entries))
    # c2c3: a win (2) and a draw (1); d2d3: one loss (0); the game without a result is not counted.
    assert _entries(reader, _board()) == [("c2c3", 3), ("d2d3", 0)]
    # d6d5 for Black: a loss (0) and a draw (1); c6c5: a win.
    assert _entries(reader, _board("c2c3")) == [("d6d5", 1)]
    assert _entries(reader, _board("d2d3")) == [("c6c5", 2)]


def test_make_keeps_moves_played_by_min_games_up_to_max_ply(tmp_path: Path) -> None:
    records = _records(tmp_path)
    entries, _ = book.make([records], min_games=2)
    assert sorted((e.move.uci(), e.weight) for e in entries) == [("c2c3", 3), ("d6d5", 1)]
    entries, counts = book.make([records], max_ply=1)
    assert sorted(e.move.uci() for e in entries) == ["c2c3", "d2d3"]
    assert counts["positions"] == 1
    with pytest.raises(ValueError, match="min_games"):
        book.make([records], min_games=0)


def test_make_then_dump_round_trips_through_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "made.cbk"
    assert main(["book", "make", str(_records(tmp_path)), "-o", str(out), "--max-ply", "2"]) == 0
    assert "4 entries, 3 positions from 3 games with a result (4 read)" in capsys.readouterr().err
    assert main(["book", "dump", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    start, after_c3, after_d3 = congo.Board().fen(), _board("c2c3").fen(), _board("d2d3").fen()
    assert lines == [
        f"{start}  c2c3  3  0",
        f"{start}  d2d3  0  0",
        f"{after_c3}  d6d5  1  0",
        f"{after_d3}  c6c5  2  0",
    ]


def test_dump_names_positions_off_the_start_by_key(tmp_path: Path) -> None:
    board = congo.Board("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 1")  # Black to move at the start
    path = _write(tmp_path, [book.Entry(board.zobrist_hash(), congo.Move.from_uci("d6d5"), 4)])
    with book.open_reader(path) as reader:
        assert list(book.dump(reader)) == [f"{board.zobrist_hash():016x}  d6d5  4  0"]
    # A move stored under a key the walk reaches but not legal there is shown by key, not lost.
    with book.open_reader(_sample(tmp_path)) as reader:
        lines = list(book.dump(reader))
    key = congo.Board().zobrist_hash()
    assert len(lines) == 5
    assert lines[-1] == f"{key:016x}  d6d5  9  0"


def test_merge_sums_the_weights_of_equal_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = congo.Board().zobrist_hash()
    c3, d3 = congo.Move.from_uci("c2c3"), congo.Move.from_uci("d2d3")
    a = _write(tmp_path, [book.Entry(key, c3, 2), book.Entry(key, d3, 1, 7)], "a.cbk")
    b = _write(tmp_path, [book.Entry(key, c3, 5)], "b.cbk")
    out = tmp_path / "c.cbk"
    assert main(["book", "merge", str(a), str(b), "-o", str(out)]) == 0
    with book.open_reader(out) as merged:
        assert [(e.move.uci(), e.weight, e.learn) for e in merged.find_all(key)] == [
            ("c2c3", 7, 0),
            ("d2d3", 1, 7),
        ]
    # Weights saturate rather than wrap.
    big = book.merge([book.Entry(key, c3, 2**32 - 1)], [book.Entry(key, c3, 5)])
    assert [e.weight for e in big] == [2**32 - 1]


def test_an_output_that_is_an_input_is_refused_and_left_alone(tmp_path: Path) -> None:
    records = _records(tmp_path)
    with pytest.raises(SameFileError):
        book.write(records, [], inputs=[records])
    assert main(["book", "make", str(records), "-o", str(records)]) == 2
    assert records.read_text(encoding="utf-8") == RECORDS
    a = _sample(tmp_path)
    before = a.read_bytes()
    link = tmp_path / "link.cbk"
    link.symlink_to(a)
    assert main(["book", "merge", str(a), "-o", str(link)]) == 2  # the input, through a link
    assert a.read_bytes() == before
    assert link.is_symlink()
    assert main(["book", "make", str(records), "-o", "-"]) == 2
    assert main(["book", "make", str(tmp_path / "missing.pgn"), "-o", str(tmp_path / "x.cbk")]) == 2
    assert not (tmp_path / "x.cbk").exists()


# ================================================================================= the reader


def test_find_takes_the_heaviest_legal_move_and_find_all_orders_by_weight(tmp_path: Path) -> None:
    with book.open_reader(_sample(tmp_path)) as reader:
        start = congo.Board()
        assert len(reader) == 5
        assert list(reader) == reader.entries()
        assert reader.positions == 1
        assert start in reader
        # Equal weights keep one fixed order; d6d5 is not legal here; weight 0 needs minimum_weight=0.
        assert [(e.move.uci(), e.weight) for e in reader.find_all(start)] == [
            ("a2a3", 5),
            ("d2d3", 5),
            ("c2c3", 3),
        ]
        assert reader.find(start).move.uci() == "a2a3"
        assert reader.find(start._position).move.uci() == "a2a3"
        # A key alone cannot check legality: every entry of the key.
        assert reader.find_all(start.zobrist_hash())[0].move.uci() == "d6d5"
        assert [e.move.uci() for e in reader.find_all(start, minimum_weight=0)][-1] == "b2b3"


def test_minimum_weight_and_exclude_moves(tmp_path: Path) -> None:
    with book.open_reader(_sample(tmp_path)) as reader:
        start = congo.Board()
        assert [e.move.uci() for e in reader.find_all(start, minimum_weight=4)] == ["a2a3", "d2d3"]
        excluded = [congo.Move.from_uci("a2a3"), congo.Move.from_uci("d2d3")]
        assert reader.find(start, exclude_moves=excluded).move.uci() == "c2c3"
        with pytest.raises(IndexError):
            reader.find(start, minimum_weight=6)
        assert reader.get(start, minimum_weight=6) is None
        assert reader.get(start, "none", minimum_weight=6) == "none"
        assert reader.get(_board("c2c3")) is None
        with pytest.raises(TypeError, match=r"congo\.Move"):
            reader.find(start, exclude_moves=["a2a3"])  # type: ignore[list-item]
        with pytest.raises(TypeError, match="probed with"):
            reader.find("not a board")


def test_weighted_choice_is_deterministic_for_a_seeded_random(tmp_path: Path) -> None:
    with book.open_reader(_sample(tmp_path)) as reader:
        start = congo.Board()
        picks = [reader.weighted_choice(start, random=random.Random(5)).move.uci() for _ in range(3)]
        assert len(set(picks)) == 1
        generator = random.Random(11)
        many = [reader.weighted_choice(start, random=generator).move.uci() for _ in range(1300)]
        # Weights 5, 5, 3 (the weight-0 and illegal moves never): about 500, 500, 300.
        assert set(many) == {"a2a3", "d2d3", "c2c3"}
        assert 200 < many.count("c2c3") < 400

        # python-chess's walk: randint(0, total - 1) over the entries heaviest first.
        class Fixed:
            def __init__(self, value: int, total: int = 13) -> None:
                self.value, self.total = value, total

            def randint(self, low: int, high: int) -> int:
                assert (low, high) == (0, self.total - 1)
                return self.value

        assert [reader.weighted_choice(start, random=Fixed(v)).move.uci() for v in (0, 4, 5, 9, 10, 12)] == [
            "a2a3", "a2a3", "d2d3", "d2d3", "c2c3", "c2c3",
        ]  # fmt: skip
        only = reader.weighted_choice(start, exclude_moves=[congo.Move.from_uci("a2a3")], random=Fixed(0, 8))
        assert only.move.uci() == "d2d3"
        with pytest.raises(IndexError):
            reader.weighted_choice(_board("c2c3"))
        assert reader.choice(start, random=random.Random(1)).move.uci() in {"a2a3", "d2d3", "c2c3"}


def test_entries_are_frozen_hashable_picklable_values() -> None:
    key = congo.Board().zobrist_hash()
    entry = book.Entry(key, congo.Move.from_uci("c2c3"), 3)
    assert entry == book.Entry(key, congo.Move.from_uci("c2c3"), 3, 0)
    assert entry != book.Entry(key, congo.Move.from_uci("c2c3"), 4)
    assert len({entry, pickle.loads(pickle.dumps(entry))}) == 1
    assert repr(entry) == f"Entry(key=0x{key:016x}, move=Move.from_uci('c2c3'), weight=3, learn=0)"
    with pytest.raises(AttributeError):
        entry.weight = 5  # type: ignore[misc]
    with pytest.raises(book.BookError, match="null move"):
        book.Entry(key, congo.Move.null(), 1)
    with pytest.raises(book.BookError, match="repeats"):
        book.write(Path(os.devnull), [entry, book.Entry(key, congo.Move.from_uci("c2c3"), 1)])


def test_out_of_range_numbers_are_value_errors_naming_the_argument(tmp_path: Path) -> None:
    # Keys, weights and learn values are unsigned: a negative or too large int is a ValueError
    # naming the argument and its range (never OverflowError), a bool or a float a TypeError.
    move = congo.Move.from_uci("c2c3")
    for (key, weight, learn), name in [
        ((-1, 1, 0), "key"),
        ((2**64, 1, 0), "key"),
        ((1, -1, 0), "weight"),
        ((1, 2**32, 0), "weight"),
        ((1, 1, -1), "learn"),
    ]:
        with pytest.raises(ValueError, match=name):
            book.Entry(key, move, weight, learn)
    with pytest.raises(TypeError, match="weight must be an int"):
        book.Entry(1, move, True)
    with book.open_reader(_sample(tmp_path)) as reader:
        start = congo.Board()
        for probe in (reader.find, reader.get, reader.find_all, reader.choice):
            with pytest.raises(ValueError, match="minimum_weight"):
                probe(start, minimum_weight=-1)
            with pytest.raises(ValueError, match="minimum_weight"):
                probe(start, minimum_weight=2**32)
        assert reader.find_all(start, minimum_weight=2**32 - 1) == []
        assert [e.move.uci() for e in reader.find_all(start)] == [
            e.move.uci() for e in reader.find_all(start, minimum_weight=1)
        ]


def test_a_monkey_chain_is_a_book_move(tmp_path: Path) -> None:
    board = congo.Board("7/3l3/1p5/7/2p4/3M3/3L3 w 1")
    chains = [m for m in board.legal_moves if len(m.path) > 2]
    assert chains
    path = _write(tmp_path, [book.Entry(board.zobrist_hash(), m, 1) for m in chains])
    with book.open_reader(path) as reader:
        assert {e.move for e in reader.find_all(board)} == set(chains)


def test_damaged_truncated_and_foreign_files_are_refused(tmp_path: Path) -> None:
    good = _sample(tmp_path).read_bytes()
    cases = {
        "foreign.cbk": b"\x00" * 64,
        "text.cbk": b'[Event "a game record"]\n\n1. c2c3 *\n',
        "empty.cbk": b"",
        "truncated.cbk": good[:-5],
        "header-only.cbk": good[:32],
        "flipped.cbk": good[:40] + bytes([good[40] ^ 1]) + good[41:],
        "version.cbk": good[:8] + b"\x09" + good[9:],
    }
    messages = {
        "foreign.cbk": "not a congo opening book",
        "text.cbk": "not a congo opening book",
        "empty.cbk": "not a congo opening book",
        "truncated.cbk": "truncated",
        "header-only.cbk": "truncated",
        "flipped.cbk": "checksum",
        "version.cbk": "version 9",
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(book.BookError, match=messages[name]):
            book.open_reader(path)
        assert issubclass(book.BookError, ValueError)
    with pytest.raises(FileNotFoundError):
        book.open_reader(tmp_path / "missing.cbk")


def test_the_command_refuses_a_damaged_book_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.cbk"
    path.write_bytes(b"CONGOBK\x00" + b"\x01" * 30)
    done = subprocess.run([*CONGO, "book", "dump", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert "congo book: error:" in done.stderr


def test_a_closed_reader_refuses_probes(tmp_path: Path) -> None:
    reader = book.open_reader(_sample(tmp_path))
    reader.close()
    with pytest.raises(ValueError, match="closed"):
        reader.find(congo.Board())


def test_the_bundled_book_opens_and_answers_the_start_position() -> None:
    with book.open_reader(book.default_book()) as reader:
        assert os.path.getsize(book.default_book()) < 1 << 20
        start = congo.Board()
        assert reader.find(start).move in start.legal_moves
        lines = book.openings(reader, 4, seed=3)
        assert len(lines) == 4
        for fen in lines:
            congo.Board(fen)  # a valid position


# ============================================================================ the engine's book


def _uci(commands: list[str]) -> list[str]:
    """The output of ``congo uci`` for the commands, each ``go`` waited for to its ``bestmove`` (an
    option cannot change during a search)."""
    engine = subprocess.Popen(
        [*CONGO, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert engine.stdin is not None
    assert engine.stdout is not None
    lines: list[str] = []
    try:
        for command in commands:
            engine.stdin.write(command + "\n")
            engine.stdin.flush()
            if command.startswith("go"):
                start = len(lines)
                while len(lines) == start or not lines[-1].startswith("bestmove"):
                    line = engine.stdout.readline()
                    assert line, "the engine ended before its bestmove"
                    lines.append(line.rstrip("\n"))
        engine.stdin.write("quit\n")
        engine.stdin.flush()
        lines += [line.rstrip("\n") for line in engine.stdout]
        assert engine.wait(timeout=60) == 0
    finally:
        if engine.poll() is None:
            engine.kill()
            engine.wait()
    return lines


def test_own_book_answers_book_moves_through_the_protocol(tmp_path: Path) -> None:
    path = _sample(tmp_path)
    bad = tmp_path / "bad.cbk"
    bad.write_bytes(b"not a book")
    lines = _uci(
        [
            "uci",
            "position startpos",
            "go depth 1",  # OwnBook is off by default: a search
            f"setoption name BookFile value {path}",
            "setoption name OwnBook value true",
            *["position startpos", "go depth 20"] * 6,
            "go depth 20 searchmoves c2c3 b2b3",  # only c2c3 is in the book among them
            f"setoption name BookFile value {bad}",  # refused: the book stays
            "position startpos moves c2c3",  # not in the book: a search
            "go depth 1",
            "position startpos",
            "go depth 20",
            "setoption name OwnBook value false",
            "go depth 1",
        ]
    )
    assert "option name OwnBook type check default false" in lines
    assert "option name BookFile type string default <empty>" in lines
    best = [line.split()[1] for line in lines if line.startswith("bestmove")]
    assert len(best) == 11
    # With OwnBook on: weighted choices among the legal book moves, never the weight-0 or illegal ones.
    assert set(best[1:7]) <= {"a2a3", "d2d3", "c2c3"}
    assert best[7] == "c2c3"
    assert best[9] in {"a2a3", "d2d3", "c2c3"}
    assert any(line == f"info string BookFile: {path}: 5 entries, 1 positions" for line in lines)
    assert any(line.startswith("info string error: BookFile:") and "keeps its book" in line for line in lines)
    books = [line for line in lines if line.startswith("info string book move")]
    assert len(books) == 8
    assert books[0].endswith("of 22")  # the weights of the key's entries
    # The searches (before OwnBook, out of the book, after OwnBook off) print their info lines.
    searched = [i for i, line in enumerate(lines) if line.startswith("bestmove")]
    for index in (0, 8, 10):
        assert lines[searched[index] - 1].startswith("info depth")


def test_the_built_in_engine_plays_from_its_book(tmp_path: Path) -> None:
    path = _sample(tmp_path)
    engine = congo.Engine(options={"OwnBook": True, "BookFile": str(path)})
    start = congo.Board()
    moves = {engine.play(start, congo.Limit(depth=30)).move.uci() for _ in range(30)}  # type: ignore[union-attr]
    assert moves == {"a2a3", "d2d3", "c2c3"}  # at once: depth 30 would take far longer
    # Out of the book, or with the book off, a search.
    out = engine.play(_board("c2c3"), congo.Limit(depth=2))
    assert out.info["depth"] == 2
    off = congo.Engine(options={"OwnBook": False, "BookFile": str(path)})
    assert off.play(start, congo.Limit(depth=2)).info["depth"] == 2
    with pytest.raises(book.BookError):
        congo.Engine(options={"OwnBook": True, "BookFile": str(_records(tmp_path))})


def test_match_book_gives_both_players_their_first_moves_from_the_book(tmp_path: Path) -> None:
    from congo import pgn

    path = _sample(tmp_path)
    saved = tmp_path / "games.pgn"
    args = ["match", "random", "random", "--games", "4", "--book", str(path), "--save", str(saved)]
    assert main(args) == 0
    with saved.open(encoding="utf-8") as handle:
        starts = {game.headers["FEN"] for game in pgn.iter_games(handle)}
    # The sample book has moves for the start position only: each game begins after one of them.
    assert starts <= {_board(move).fen() for move in ("a2a3", "d2d3", "c2c3")}
    assert starts
    before = path.read_bytes()
    assert main(["match", "random", "random", "--games", "2", "--book", str(path), "--save", str(path)]) == 2
    assert path.read_bytes() == before


def test_the_module_docstring_examples_run() -> None:
    import doctest

    failures, tried = doctest.testmod(book, optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failures == 0


def _exit_code(args: list[str]) -> int:
    try:
        return main(args)
    except SystemExit as stop:
        return int(stop.code or 0)


def test_book_make_names_what_it_cannot_read_and_says_what_it_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`congo book make` on a data file raised a bare UnicodeDecodeError text naming no file; a
    record with a bad move silently lost the rest of its line; a FIFO was "no such file"."""
    data = tmp_path / "data.bin"
    data.write_bytes(b"CONGODAT\x01\x00\x00\x00\x00\x00\x00\x00\x80\xff" + bytes(40))
    out = tmp_path / "book.cbk"
    assert _exit_code(["book", "make", str(data), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{data}: not game records (not UTF-8 text: byte 16 is 0x80)" in err
    assert not out.exists()
    bad = tmp_path / "bad.pgn"
    good = '[Event "g"]\n[Result "1-0"]\n\n1. aa3 1-0\n\n'
    bad.write_text(good + '[Event "b"]\n[Result "1-0"]\n\n1. zz9 1-0\n', encoding="utf-8")
    assert _exit_code(["book", "make", str(bad), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"warning: 1 record with problems, their moves from there skipped: {bad}, game 2: line 9" in err
    assert "zz9" in err
    assert out.exists()
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo)
        for command in (["make", str(fifo), "-o", str(out)], ["dump", str(fifo)]):
            assert _exit_code(["book", *command]) == 2
            assert f"{fifo}: not a regular file" in capsys.readouterr().err


def test_the_docs_figures_of_the_bundled_book_are_the_books() -> None:
    """docs/book.md's counts of the bundled book (and benches/results/book.txt's, which
    benches/make_book.py writes) are read off the file, so a remade book cannot leave them stale."""
    import re

    root = Path(__file__).resolve().parent.parent
    docs = (root / "docs" / "book.md").read_text(encoding="utf-8")
    results = (root / "benches" / "results" / "book.txt").read_text(encoding="utf-8")
    path = book.default_book()
    entries = book.read_entries(path)
    positions = len({entry.key for entry in entries})
    size = os.path.getsize(path)
    found = re.search(r"(\d+) entries for (\d+) positions, (\d+) KB", docs)
    assert found is not None
    assert (int(found[1]), int(found[2]), int(found[3])) == (len(entries), positions, round(size / 1000))
    assert f"{len(entries)} entries, {positions} positions, {size} bytes." in results
    with book.open_reader(path) as reader:
        start = reader.find_all(congo.Board())
        assert "Start position: " + ", ".join(f"{e.move.uci()} {e.weight}" for e in start) in results
        heaviest = ", ".join(f"`{e.move.uci()}`" for e in start[:-1]) + f" and `{start[-1].move.uci()}`"
        assert f"weights\n{heaviest} about equally" in docs
        assert max(e.weight for e in start) < 1.2 * min(e.weight for e in start)  # "about equally"
        lines = re.search(r"(\d+) lines drawn from it by `congo match --book`\nend in (\d+) different", docs)
        assert lines is not None
        drawn = book.openings(reader, int(lines[1]), seed=1)  # congo match's default --seed
        assert len(set(drawn)) == int(lines[2])
