"""Networks as files: the ``EvalFile`` option of ``congo.Engine`` and of ``congo uci``.

The shipped network read from a file evaluates and searches exactly as the compiled-in one; a file
of other weights is the evaluation its numpy reading says; a damaged or foreign file is refused
with an error naming it, and the engine keeps the network it had."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

import congo  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benches" / "tuning"))

import nnue  # noqa: E402

FENS = [
    congo.STARTING_FEN,
    "7/4l2/7/4c2/7/2p4/1M1L3 w 1",
    "2l4/5C1/1P5/2G4/7/7/4L2 b 1",
]


def shipped(tmp_path: Path) -> Path:
    path = tmp_path / "shipped.nnue"
    path.write_bytes(nnue.NNUE_BIN.read_bytes())
    return path


def other_network(tmp_path: Path) -> Path:
    """The shipped weights with another output bias: a valid file evaluating differently."""
    w1, b1, w2, b2, scale = nnue.read_network(nnue.NNUE_BIN)
    path = tmp_path / "other.nnue"
    path.write_bytes(nnue.pack_network(w1, b1, w2, b2 + 5000, scale))
    return path


def damaged_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Files of each kind of damage, with what the error must say."""
    data = nnue.NNUE_BIN.read_bytes()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x01
    magic = b"NOTANET!" + data[8:]
    wider = bytearray(data)
    struct.pack_into("<I", wider, 24, 256)
    cases = {
        "truncated": (data[:-10], "ends early"),
        "flipped": (bytes(flipped), "checksum mismatch"),
        "magic": (magic, "not a network file"),
        "architecture": (bytes(wider), "architecture"),
        "text": (b"this is not a network\n", "not a network file"),
    }
    files = {}
    for name, (content, problem) in cases.items():
        path = tmp_path / f"{name}.nnue"
        path.write_bytes(content)
        files[name] = (path, problem)
    return files


def test_the_shipped_network_from_a_file_is_the_built_in_one(tmp_path: Path) -> None:
    built_in = congo.Engine()
    from_file = congo.Engine(options={"EvalFile": str(shipped(tmp_path))})
    assert [from_file.evaluate(fen) for fen in FENS] == [built_in.evaluate(fen) for fen in FENS]
    for fen in FENS[:2]:
        a = built_in.search(congo.Board(fen), congo.Limit(depth=6))
        b = from_file.search(congo.Board(fen), congo.Limit(depth=6))
        assert (a.move, a.nodes, a.score) == (b.move, b.nodes, b.score)
        built_in.clear()
        from_file.clear()


def test_another_network_evaluates_as_its_file_says(tmp_path: Path) -> None:
    other = other_network(tmp_path)
    engine = congo.Engine(options={"EvalFile": other})  # a Path is taken too
    assert [engine.evaluate(fen) for fen in FENS] == nnue.centipawns(other, FENS)
    assert engine.evaluate(FENS[0]) != congo.Engine().evaluate(FENS[0])
    assert "EvalFile=" in repr(engine)
    for empty in (None, "", "<empty>"):
        engine.set_eval_file(other)
        engine.set_eval_file(empty)
        assert engine.evaluate(FENS[0]) == congo.Engine().evaluate(FENS[0])


def test_a_damaged_file_is_refused_and_the_engine_keeps_its_network(tmp_path: Path) -> None:
    other = other_network(tmp_path)
    engine = congo.Engine(options={"EvalFile": str(other)})
    before = [engine.evaluate(fen) for fen in FENS]
    files = damaged_files(tmp_path)
    for path, problem in files.values():
        with pytest.raises(ValueError, match="EvalFile") as caught:
            engine.set_eval_file(path)
        assert str(path) in str(caught.value), caught.value
        assert problem in str(caught.value), caught.value
        assert [engine.evaluate(fen) for fen in FENS] == before
    missing = tmp_path / "missing.nnue"
    with pytest.raises(ValueError, match=r"missing\.nnue: cannot be read"):
        congo.Engine(options={"EvalFile": str(missing)})
    with pytest.raises(TypeError, match="EvalFile must be a path"):
        congo.Engine(options={"EvalFile": 3})
    result = engine.search(congo.Board(), congo.Limit(depth=4))
    assert result.move in congo.Board().legal_moves


def test_the_trainer_writes_the_format_the_engine_reads(tmp_path: Path) -> None:
    w1, b1, w2, b2, scale = nnue.read_network(nnue.NNUE_BIN)
    again = tmp_path / "again.nnue"
    again.write_bytes(nnue.pack_network(w1, b1, w2, b2, scale))
    assert again.read_bytes() == nnue.NNUE_BIN.read_bytes()
    assert nnue.fnv1a64(b"") == 0xCBF29CE484222325
    assert nnue.fnv1a64(b"a") == 0xAF63DC4C8601EC8C  # the published FNV-1a 64 test vector
    damaged = bytearray(again.read_bytes())
    damaged[-1] ^= 0xFF
    again.write_bytes(bytes(damaged))
    with pytest.raises(ValueError, match="checksum"):
        nnue.read_network(again)


def test_the_protocol_loads_a_network_and_refuses_a_damaged_one(tmp_path: Path) -> None:
    from tests.test_uci_server import Pipe

    def searched(engine: Pipe) -> list[str]:
        engine.send("position startpos")
        lines = engine.exchange("go depth 5", "bestmove")
        return [line for line in lines if line.startswith(("info depth 5 ", "bestmove"))]

    reference = Pipe()
    loaded = Pipe()
    try:
        options = reference.exchange("uci", "uciok")
        assert "option name EvalFile type string default <empty>" in options
        expected = [line.split(" nps ")[0] for line in searched(reference)]
        path = shipped(tmp_path)
        loaded.send(f"setoption name EvalFile value {path}")
        assert loaded.exchange("isready", "readyok") == [f"info string EvalFile: {path}", "readyok"]
        assert [line.split(" nps ")[0] for line in searched(loaded)] == expected
        for damaged, problem in damaged_files(tmp_path).values():
            loaded.send(f"setoption name EvalFile value {damaged}")
            error, ready = loaded.exchange("isready", "readyok")
            assert error.startswith(f"info string error: EvalFile: {damaged}: "), error
            assert problem in error, error
            assert error.endswith("; the engine keeps its network"), error
            assert ready == "readyok"
        # the network of the last good file: from a new game on, the same search as before
        loaded.send("ucinewgame")
        assert [line.split(" nps ")[0] for line in searched(loaded)] == expected
        loaded.send("setoption name EvalFile value <empty>")
        assert loaded.exchange("isready", "readyok") == ["readyok"]
        assert reference.close() == 0
        assert loaded.close() == 0
    finally:
        for engine in (reference, loaded):
            if engine.process.poll() is None:
                engine.process.kill()


def test_a_match_player_takes_an_eval_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from congo.__main__ import main
    from congo.players import parse_player

    board = congo.Board()
    other = other_network(tmp_path)
    name, factory = parse_player(f"engine:depth=3,EvalFile={other}")
    assert name == f"engine:depth=3,EvalFile={other}"
    player = factory(0)
    assert (
        player.choose(board)
        == congo.Engine(options={"EvalFile": other}).search(board, congo.Limit(depth=3)).move
    )
    player.close()
    flipped, problem = damaged_files(tmp_path)["flipped"]
    with pytest.raises(ValueError, match="checksum mismatch") as caught:
        parse_player(f"engine:depth=3,EvalFile={flipped}")
    assert str(flipped) in str(caught.value)
    argv = ["match", f"engine:depth=1,EvalFile={flipped}", "random", "--games", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert str(flipped) in err, err
    assert problem in err, err
    assert "Traceback" not in err
    assert main(["match", f"engine:depth=1,EvalFile={other}", "random", "--games", "2"]) == 0


# -- format version 2: the lion-bucketed network ---------------------------------------------------

import nnue2  # noqa: E402

# Positions whose lions stand on many of their castle squares, so that many buckets are read.
MORE_FENS = [
    *FENS,
    "gmelecz/ppppppp/7/7/7/PPPPPPP/GMEL1CZ w 1",
    "gme1ecz/pppplpp/7/7/7/PPLPPPP/GMEE1CZ b 3",
    "3l3/7/7/7/7/3L3/7 w 12",
    "7/2l4/7/7/2P4/7/4L2 b 20",
]


def random_v2(tmp_path: Path, seed: int = 1) -> Path:
    """A version-2 file of random weights within the ranges the engine accepts."""
    rng = np.random.default_rng(seed)
    q = nnue2.Quantised(
        rng.integers(-400, 401, (nnue2.FEATURES, nnue2.L1)).astype(np.int16),
        rng.integers(-1500, 1501, nnue2.L1).astype(np.int16),
        rng.integers(-127, 128, (nnue2.L2, 2 * nnue2.L1)).astype(np.int8),
        rng.integers(-20_000, 20_001, nnue2.L2).astype(np.int32),
        rng.integers(-2000, 2001, nnue2.L2).astype(np.int16),
        1234,
        40_000,
    )
    q.check_ranges()
    path = tmp_path / f"v2-{seed}.nnue"
    path.write_bytes(nnue2.pack_network(q))
    return path


def test_a_version_2_network_evaluates_as_its_file_says(tmp_path: Path) -> None:
    path = random_v2(tmp_path)
    engine = congo.Engine(options={"EvalFile": path})
    expected = nnue2.centipawns(path, MORE_FENS)
    assert [engine.evaluate(fen) for fen in MORE_FENS] == expected
    assert len(set(expected)) == len(expected)
    assert nnue2.read_network(path).b3 == 1234
    result = engine.search(congo.Board(), congo.Limit(depth=5))
    assert result.move in congo.Board().legal_moves
    # back to the compiled-in network
    engine.set_eval_file(None)
    assert engine.evaluate(FENS[0]) == congo.Engine().evaluate(FENS[0])


def test_damaged_and_foreign_version_2_files_are_refused(tmp_path: Path) -> None:
    data = random_v2(tmp_path).read_bytes()

    def patched(at: int, fmt: str, value: int, reseal: bool = False) -> bytes:
        out = bytearray(data)
        struct.pack_into(fmt, out, at, value)
        if reseal:
            struct.pack_into("<Q", out, 56, nnue2.fnv1a64(bytes(out[:56] + out[64:])))
        return bytes(out)

    flipped = bytearray(data)
    flipped[len(data) // 3] ^= 0x20
    overflowing = bytearray(data)
    for feature in (0, 1):
        struct.pack_into("<h", overflowing, 64 + 2 * nnue2.L1 * feature, 30_000)
    struct.pack_into("<Q", overflowing, 56, nnue2.fnv1a64(bytes(overflowing[:56] + overflowing[64:])))
    cases = {
        "truncated": (data[:-1], "ends early"),
        "padded": (data + b"\0", "1 bytes after the network"),
        "flipped": (bytes(flipped), "checksum mismatch"),
        "version": (patched(8, "<I", 3), "format version 3; this build reads versions 1 and 2"),
        "architecture": (patched(16, "<I", 2), "architecture 2 of format version 2"),
        "wider": (
            patched(28, "<I", 512),
            "layers 512x32x1; this build evaluates 9 buckets x 784 inputs, layers 256x32x1",
        ),
        "scales": (patched(36, "<i", 255), "activation and weight scales 255 and 64"),
        "range": (bytes(overflowing), "beyond an i16 accumulator"),
        "output scale": (patched(44, "<i", 2**31 - 1, reseal=True), "beyond an i32 evaluation"),
    }
    engine = congo.Engine(options={"EvalFile": random_v2(tmp_path, 2)})
    before = [engine.evaluate(fen) for fen in FENS]
    for name, (content, problem) in cases.items():
        path = tmp_path / f"{name}.nnue"
        path.write_bytes(content)
        with pytest.raises(ValueError, match="EvalFile") as caught:
            engine.set_eval_file(path)
        assert str(path) in str(caught.value), (name, caught.value)
        assert problem in str(caught.value), (name, caught.value)
        assert [engine.evaluate(fen) for fen in FENS] == before
        with pytest.raises(ValueError, match=r"checksum|not a version-2|bytes|beyond"):
            nnue2.read_network(path)


def test_the_protocol_plays_with_a_version_2_network(tmp_path: Path) -> None:
    from tests.test_uci_server import Pipe

    path = random_v2(tmp_path, 3)
    engine = Pipe()
    try:
        engine.exchange("uci", "uciok")
        engine.send(f"setoption name EvalFile value {path}")
        assert engine.exchange("isready", "readyok") == [f"info string EvalFile: {path}", "readyok"]
        board = congo.Board()
        moves: list[str] = []
        while not board.is_game_over() and len(moves) < 16:
            engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            best = engine.exchange("go depth 3", "bestmove")[-1].split()[1]
            move = congo.Move.from_uci(best)
            assert move in board.legal_moves, (board.fen(), best)
            board.push(move)
            moves.append(best)
        assert engine.close() == 0
    finally:
        if engine.process.poll() is None:
            engine.process.kill()
