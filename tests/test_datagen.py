"""Training data (``congo.datagen``, ``congo datagen``): the packed record against the positions it
came from, the same bytes on any number of threads and on Ray, exact tablebase labels, the quiet
filter, and damaged files refused."""

from __future__ import annotations

import os
import random
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

import congo
from congo import Board, Engine, Limit, _core, datagen, tablebase
from congo.cli import main
from congo.datagen import DataFileError, DatagenConfig

ROOT = Path(__file__).resolve().parent.parent
SMALL = DatagenConfig(nodes=300, max_plies=120)
"""Quick games: 300 nodes a search, drawn after 120 moves."""


def _exit_code(args: list[str]) -> int:
    try:
        return main(args)
    except SystemExit as stop:
        return int(stop.code or 0)


def suite_fens() -> list[str]:
    """The perft suites' positions (monkey chains, drowning, promotions) and the worst cases."""
    fens = []
    for name in ("suite.perft", "worst.suite"):
        for line in (ROOT / "tests" / "data" / name).read_text(encoding="utf-8").splitlines():
            if line.startswith("fen "):
                fens.append(line[4:].strip())
    return fens


def sample_boards(count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    boards: list[Board] = []
    board = Board()
    while len(boards) < count:
        moves = list(board.legal_moves)
        if not moves or board.ply() > 150:
            board = Board()
            continue
        board.push(rng.choice(moves))
        boards.append(board.copy())
    return boards


def test_every_field_of_a_packed_record_is_the_one_it_came_from() -> None:
    fens = suite_fens()
    assert len(fens) > 20
    fens += [b.fen() for b in sample_boards(400, seed=3)]
    fens += ["3l3/7/7/MMMMMMM/mmmmmmm/7/3L3 b 65535", "3l3/7/7/7/7/7/3L3 w 0"]
    rng = random.Random(1)
    for i, fen in enumerate(fens):
        position = congo.Position(fen)
        score = rng.randint(-32768, 32767)
        result = i % 3
        exact = rng.random() < 0.5
        ply = rng.randint(0, 65535)
        game = rng.randint(0, 2**40)
        packed = _core.datagen_pack(position, score=score, result=result, exact=exact, ply=ply, game=game)
        assert len(packed) == datagen.RECORD_SIZE
        assert _core.datagen_unpack(packed) == [(fen, score, result, exact, ply, game % 2**24)]
        board = Board(fen)
        boards = _core.datagen_boards(packed)
        for square in range(49):
            piece = board.piece_at(square)
            expected = 0 if piece is None else piece.piece_type * (1 if piece.color else -1)
            assert struct.unpack("b", boards[square : square + 1])[0] == expected, (fen, square)


def test_a_record_outside_the_format_is_refused() -> None:
    start = congo.Position(congo.STARTING_FEN)
    with pytest.raises(ValueError, match="move number 70000"):
        _core.datagen_pack(start.with_fullmove_number(70000), score=0, result=1, exact=False, ply=0, game=0)
    with pytest.raises(ValueError, match="result"):
        _core.datagen_pack(start, score=0, result=3, exact=False, ply=0, game=0)
    with pytest.raises(ValueError, match="score"):
        _core.datagen_pack(start, score=40000, result=1, exact=False, ply=0, game=0)
    good = _core.datagen_pack(start, score=0, result=1, exact=False, ply=0, game=0)
    with pytest.raises(ValueError, match="record 1: invalid flags"):
        _core.datagen_unpack(good + good[:31] + b"\x07")
    with pytest.raises(ValueError, match="whole number"):
        _core.datagen_boards(good[:20])


@pytest.fixture(scope="module")
def small_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("data") / "small.bin"
    datagen.generate(path, 600, SMALL, seed=5, workers=2)
    return path


def test_records_are_quiet_positions_scored_by_a_search(small_file: Path) -> None:
    header = datagen.read_header(small_file)
    records = list(datagen.read(small_file))
    assert header.count == len(records) == 600
    assert header.searched > header.count  # the filter left some out
    assert [r.game for r in records] == sorted(r.game for r in records)
    assert records[-1].game == header.first_game + header.games - 1
    for record in records:
        board = Board(record.fen)
        assert board.is_valid()
        assert record.ply >= SMALL.min_random_plies
        assert board.fullmove_number == record.ply // 2 + 1
        assert not record.exact
        lion = board.lion(board.turn)
        assert lion is not None
        assert not board.is_attacked_by(not board.turn, lion)
    # Each game played again: every kept position is the game's position at that ply, and its
    # score a cleared engine's search of it (the game so far on the board's move stack) at the
    # run's node limit, whose best move leaves the material as it is.
    engine = Engine(threads=1, hash_mb=SMALL.hash_mb)
    for game in sorted({r.game for r in records})[:4]:
        kept: dict[int, datagen.Record | None] = {r.ply: r for r in records if r.game == game}
        board = Board()
        for move in datagen.game_moves(game, SMALL, seed=5):
            kept_here = kept.pop(board.ply(), None)
            if kept_here is not None:
                record = kept_here
                assert board.fen() == record.fen
                engine.clear()
                found = engine.search(board, Limit(nodes=300))
                assert found.move is not None
                assert _stored(found.score) == record.score, record
                after = board.copy()
                after.push(found.move)
                assert len(after.piece_map()) == len(board.piece_map()), record
            board.push(move)
        assert not kept
        # The result: the winner by the rules, else a draw (repetition or the ply limit).
        outcome = board.outcome()
        winner = outcome.winner if outcome is not None else None
        for record in (r for r in records if r.game == game):
            turn = Board(record.fen).turn
            assert record.result == (0.5 if winner is None else float(turn == winner)), record


def _stored(score: congo.Score) -> int:
    mate = score.mate
    if mate is None:
        assert score.cp is not None
        return max(-datagen.MAX_CP, min(datagen.MAX_CP, score.cp))
    return datagen.MATE_SCORE - mate if mate > 0 else -(datagen.MATE_SCORE + mate)


def test_a_game_has_one_result(small_file: Path) -> None:
    by_game: dict[int, set[float]] = {}
    for record in datagen.read(small_file):
        white = Board(record.fen).turn
        by_game.setdefault(record.game, set()).add(record.result if white else 1 - record.result)
    assert all(len(results) == 1 for results in by_game.values())
    assert len(by_game) > 3


def test_the_same_seed_gives_the_same_bytes_on_one_and_two_threads(tmp_path: Path, small_file: Path) -> None:
    one = tmp_path / "one.bin"
    datagen.generate(one, 600, SMALL, seed=5, workers=1)
    assert one.read_bytes() == small_file.read_bytes()
    other = tmp_path / "other.bin"
    datagen.generate(other, 600, SMALL, seed=6, workers=2)
    assert other.read_bytes()[datagen.HEADER_SIZE :] != one.read_bytes()[datagen.HEADER_SIZE :]


def test_a_shard_continues_the_run(tmp_path: Path, small_file: Path) -> None:
    """Two shards, the second --after the first, hold the positions of one long run."""
    first, second, whole = tmp_path / "1.bin", tmp_path / "2.bin", tmp_path / "whole.bin"
    head = datagen.generate(first, 250, SMALL, seed=5, workers=2)
    tail = datagen.generate(second, 200, after=first, workers=1)
    assert (tail.seed, tail.config, tail.first_game) == (5, SMALL, head.first_game + head.games)
    datagen.generate(whole, 2000, SMALL, seed=5, workers=2)
    records = list(datagen.read(whole))
    games = [r for r in records if r.game < tail.first_game]
    assert list(datagen.read(first)) == games[:250]
    assert list(datagen.read(second)) == [r for r in records if r.game >= tail.first_game][:200]
    with pytest.raises(ValueError, match="settings differ"):
        datagen.generate(tmp_path / "3.bin", 10, DatagenConfig(nodes=301), after=first)
    with pytest.raises(ValueError, match="is the input"):
        datagen.generate(first, 10, after=first)


def test_a_shard_after_a_file_made_with_other_tables_or_engine_is_refused(
    tmp_path: Path, tables: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--after A --tablebase DIR` with A made without tables (or the reverse) wrote a shard of
    another run under the name of A's next one: the tables change the games and the labels."""
    plain, with_tables = tmp_path / "plain.bin", tmp_path / "tables.bin"
    datagen.generate(plain, 20, SMALL, seed=5, workers=1)
    datagen.generate(with_tables, 20, SMALL, seed=5, workers=1, tablebase=tables)
    out = tmp_path / "next.bin"
    with pytest.raises(ValueError, match="made with no tables, this shard would use tables of up to 4 men"):
        datagen.generate(out, 10, after=plain, tablebase=tables)
    with pytest.raises(ValueError, match="made with tables of up to 4 men, this shard would use none"):
        datagen.generate(out, 10, after=with_tables)
    assert not out.exists()
    assert datagen.generate(out, 10, after=with_tables, tablebase=tables, workers=1).tablebase_men == 4
    # Another engine version plays other games from the same seed.
    monkeypatch.setattr(_core, "__version__", "0.0.0-another")
    with pytest.raises(ValueError, match=r"written by congo .* this is 0\.0\.0-another"):
        datagen.generate(tmp_path / "other.bin", 10, after=plain)
    assert not (tmp_path / "other.bin").exists()


def test_ctrl_c_keeps_the_finished_games(tmp_path: Path, small_file: Path) -> None:
    path = tmp_path / "cut.bin"
    seen: list[int] = []

    def interrupt(positions: int, games: int, searched: int) -> None:
        seen.append(positions)
        if games == 3:
            raise KeyboardInterrupt

    with pytest.raises(datagen.GenerationInterrupted) as stop:
        datagen.generate(path, 600, SMALL, seed=5, workers=2, progress=interrupt)
    header = stop.value.header
    assert header == datagen.read_header(path)
    assert (header.games, header.count) == (3, seen[-1])
    records = list(datagen.read(path))
    assert records == [r for r in datagen.read(small_file) if r.game < 3]


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every table up to four men (seconds to make), or those of ``$CONGO_TEST_TABLEBASES``."""
    given = os.environ.get("CONGO_TEST_TABLEBASES")
    directory = Path(given) if given else tmp_path_factory.mktemp("tables")
    tablebase.generate(directory, men=4)
    return directory


def test_positions_within_the_tables_have_their_exact_result(tmp_path: Path, tables: Path) -> None:
    path = tmp_path / "tables.bin"
    header = datagen.generate(path, 3000, SMALL, seed=2, workers=2, tablebase=tables)
    assert header.tablebase_men == 4
    tb = tablebase.Tablebase(tables)
    exact = 0
    by_game: dict[int, set[float]] = {}
    for record in datagen.read(path):
        board = Board(record.fen)
        wdl = tb.probe_wdl(board)
        assert record.exact == (wdl is not None), record
        if wdl is not None:
            assert record.result == (wdl + 1) / 2, record
            exact += 1
        else:
            by_game.setdefault(record.game, set()).add(record.result if board.turn else 1 - record.result)
    assert exact > 20
    assert all(len(results) == 1 for results in by_game.values())


def test_a_damaged_or_truncated_file_is_refused(tmp_path: Path, small_file: Path) -> None:
    data = small_file.read_bytes()
    cases = {
        "flipped.bin": data[:1000] + bytes([data[1000] ^ 1]) + data[1001:],
        "truncated.bin": data[:-32],
        "cut.bin": data[:-7],
        "longer.bin": data + bytes(32),
        "header.bin": data[:50],
        "foreign.bin": b"NOTCONGO" + data[8:],
        "version.bin": data[:8] + struct.pack("<H", 99) + data[10:],
    }
    messages = {
        "flipped.bin": "checksum",
        "truncated.bin": "truncated",
        "cut.bin": "truncated",
        "longer.bin": "trailing",
        "header.bin": "shorter than",
        "foreign.bin": "not a congo data file",
        "version.bin": "version 99",
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        with pytest.raises(DataFileError, match=messages[name]):
            list(datagen.read(path))
        with pytest.raises(DataFileError, match=messages[name]):
            datagen.read_header(path)
    # A bad record behind a matching checksum (a writer's bug, not the disk's): named by index.
    with pytest.raises(DataFileError, match="record 7: invalid flags"):
        list(datagen.read(_forged_record_7(small_file, tmp_path)))
    assert issubclass(DataFileError, ValueError)


def _forged_record_7(small_file: Path, tmp_path: Path) -> Path:
    """``small_file`` with invalid flags in record 7 and a checksum that matches them."""
    data = small_file.read_bytes()
    record = bytearray(data[datagen.HEADER_SIZE + 32 * 7 : datagen.HEADER_SIZE + 32 * 8])
    record[31] |= 0x80
    body = (
        data[datagen.HEADER_SIZE : datagen.HEADER_SIZE + 32 * 7]
        + bytes(record)
        + data[datagen.HEADER_SIZE + 256 :]
    )
    head = data[: datagen.HEADER_SIZE - 4]
    forged = tmp_path / "forged.bin"
    forged.write_bytes(head + struct.pack("<I", zlib.crc32(head, zlib.crc32(body))) + body)
    return forged


def test_batches_refuse_a_bad_record_behind_a_matching_checksum(tmp_path: Path, small_file: Path) -> None:
    pytest.importorskip("numpy")
    with pytest.raises(DataFileError, match="record 7: invalid flags"):
        list(datagen.batches(_forged_record_7(small_file, tmp_path), batch_size=5))


def test_batches_stream_the_records_as_arrays(small_file: Path) -> None:
    np = pytest.importorskip("numpy")
    records = list(datagen.read(small_file))
    parts = list(datagen.batches([small_file, small_file], batch_size=256))
    assert [len(p["score"]) for p in parts] == [256, 256, 88, 256, 256, 88]
    joined = {key: np.concatenate([p[key] for p in parts[:3]]) for key in parts[0]}
    assert joined["score"].tolist() == [r.score for r in records]
    assert joined["result"].tolist() == [r.result for r in records]
    assert joined["ply"].tolist() == [r.ply for r in records]
    assert joined["game"].tolist() == [r.game for r in records]
    assert joined["exact"].tolist() == [r.exact for r in records]
    for i in (0, 99, 599):
        board = Board(records[i].fen)
        assert bool(joined["white"][i]) == board.turn
        assert int(joined["fullmove"][i]) == board.fullmove_number
        for square in range(49):
            piece = board.piece_at(square)
            expected = 0 if piece is None else piece.piece_type * (1 if piece.color else -1)
            assert joined["board"][i, square] == expected
    assert joined["board"].dtype == np.int8
    assert joined["board"].shape == (600, 49)


def test_bad_arguments_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="nodes"):
        DatagenConfig(nodes=0)
    with pytest.raises(ValueError, match="exactly one"):
        DatagenConfig(nodes=10, depth=2)
    with pytest.raises(ValueError, match="min_random_plies"):
        DatagenConfig(min_random_plies=9, max_random_plies=8)
    with pytest.raises(ValueError, match="positions"):
        datagen.generate(tmp_path / "x.bin", 0)
    with pytest.raises(ValueError, match="cannot open the tables"):
        datagen.generate(tmp_path / "x.bin", 10, tablebase=tmp_path / "none")
    with pytest.raises(FileNotFoundError):
        datagen.generate(tmp_path / "no" / "x.bin", 10)
    assert not list(tmp_path.iterdir())


def test_the_command_writes_a_file_and_says_how_to_continue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "d.bin"
    args = ["datagen", "-o", str(out), "--positions", "150", "--nodes", "300", "--max-plies", "120"]
    assert _exit_code([*args, "--threads", "2", "--seed", "5"]) == 0
    printed = capsys.readouterr().out
    assert "wrote 150 positions" in printed
    assert f"--after {out}" in printed
    records = list(datagen.read(out))
    assert records == list(datagen.read(_small(tmp_path)))[:150]
    more = tmp_path / "more.bin"
    assert _exit_code(["datagen", "-o", str(more), "--positions", "50", "--after", str(out)]) == 0
    assert datagen.read_header(more).first_game == datagen.read_header(out).games
    capsys.readouterr()
    for bad in (
        ["datagen", "-o", str(tmp_path / "x.bin"), "--positions", "0"],
        ["datagen", "-o", str(tmp_path / "x.bin"), "--positions", "5", "--random-plies", "9-3"],
        ["datagen", "-o", str(tmp_path / "x.bin"), "--positions", "5", "--random-plies", "a"],
        ["datagen", "-o", str(tmp_path / "x.bin"), "--positions", "5", "--after", str(out), "--seed", "1"],
        ["datagen", "-o", str(out), "--positions", "5", "--after", str(out)],
    ):
        assert _exit_code(bad) == 2, bad
        err = capsys.readouterr().err
        assert "Traceback" not in err, bad
        assert err.strip(), bad
    assert not (tmp_path / "x.bin").exists()


def _small(tmp_path: Path) -> Path:
    path = tmp_path / "reference.bin"
    datagen.generate(path, 150, SMALL, seed=5, workers=1)
    return path


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A two-CPU Ray cluster on 127.0.0.1, as tests/test_ray.py makes one."""
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    ray = pytest.importorskip("ray")
    ray.init(
        _node_ip_address="127.0.0.1",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
    )
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def test_ray_gives_the_same_bytes(tmp_path: Path, small_file: Path, cluster: str) -> None:
    path = tmp_path / "ray.bin"
    datagen.generate(path, 600, SMALL, seed=5, ray=cluster)
    assert path.read_bytes() == small_file.read_bytes()


def test_the_module_example_runs() -> None:
    import doctest

    failures, tried = doctest.testmod(datagen, optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failures == 0


def test_every_name_the_docs_give_is_public() -> None:
    # A name the pages tell a reader to use is in __all__, so that the reference documents it.
    import re

    named = {
        name
        for page in (ROOT / "docs").glob("*.md")
        for name in re.findall(r"congo\.datagen\.([A-Za-z_]\w*)", page.read_text(encoding="utf-8"))
    }
    assert {"MATE_SCORE", "MAX_CP", "generate"} <= named
    assert named - set(datagen.__all__) == set()


def test_ctrl_c_before_the_first_game_ends_says_no_game_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stopped before any game ended, the command said "wrote 0 positions of games 0--1"."""
    out = tmp_path / "d.bin"

    def interrupted(*args: object, **kwargs: object) -> datagen.Header:
        raise datagen.GenerationInterrupted(datagen.Header(0, 0, 0, 0, DatagenConfig(), 0, 0, "x"))

    monkeypatch.setattr(datagen, "generate", interrupted)
    assert _exit_code(["datagen", "-o", str(out), "--positions", "5"]) == 130
    printed = capsys.readouterr().out
    assert f"wrote 0 positions of no finished game to {out}" in printed
    assert "0--1" not in printed
    assert "next game: 0" in printed
