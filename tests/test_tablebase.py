"""The endgame tables: generated up to four men, probed, checked against the oracle's exhaustive
search and against the second generator, and played by the engine."""

from __future__ import annotations

import filecmp
import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import congo
import congo.tablebase as tablebase
from congo.__main__ import main
from tests import oracle
from tests.tablebase_support import random_fen


@pytest.fixture(scope="session")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every table up to four men, generated once for the session (seconds), or taken from
    ``$CONGO_TEST_TABLEBASES`` (where CI generates and verifies them with the command line first;
    missing tables are generated, the others checked and kept)."""
    given = os.environ.get("CONGO_TEST_TABLEBASES")
    directory = Path(given) if given else tmp_path_factory.mktemp("tables")
    reports = tablebase.generate(directory, men=4)
    assert len(reports) == 64
    return directory


@pytest.fixture(scope="session")
def tb(tables: Path) -> tablebase.Tablebase:
    return tablebase.open_tablebase(tables)


def random_board(rng: random.Random, material: str) -> congo.Board:
    """A random valid position of a signature such as ``"LZvLP"`` (in its written colours)."""
    return congo.Board(random_fen(rng, material))


def mirror_files(fen: str) -> str:
    """The position with files a and g swapped (each rank read backwards)."""
    placement, rest = fen.split(" ", 1)
    ranks = []
    for rank in placement.split("/"):
        squares = "".join("." * int(c) if c.isdigit() else c for c in rank)[::-1]
        ranks.append(squares)
    board = "/".join(ranks)
    for n in range(7, 0, -1):
        board = board.replace("." * n, str(n))
    return f"{board} {rest}"


SIGNATURES = ["LZvL", "LPvL", "LvLC", "LZvLP", "LEvLM", "LGPvL", "LPvLP", "LSSvL", "LCvLC", "LMvLG"]


# -- generation and the file format ----------------------------------------------------------------


def test_generation_reports_every_table(tables: Path) -> None:
    names = sorted(p.name for p in tables.glob("*.ctb"))
    assert len(names) >= 64
    assert "LvL.ctb" in names
    assert "LZvLP.ctb" in names
    assert "LPvLZ.ctb" not in names
    # A second run keeps what is there.
    reports = tablebase.generate(tables, men=3)
    assert all(r.reused for r in reports)
    bare = next(r for r in reports if r.material == "LvL")
    assert (bare.positions, bare.wins, bare.losses) == (45, 19, 0)


def test_bad_arguments_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="men must be from 2 to 5"):
        tablebase.generate(tmp_path, men=6)
    with pytest.raises(TypeError):
        tablebase.generate(tmp_path, men="4")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="invalid material"):
        tablebase.generate(tmp_path, men=3, tables=["LXvL"])
    with pytest.raises(FileNotFoundError):
        tablebase.open_tablebase(tmp_path / "missing")
    (tmp_path / "LZvL.ctb").write_bytes(b"not a table")
    with pytest.raises(tablebase.TablebaseError, match="not a valid table"):
        tablebase.open_tablebase(tmp_path)


def test_a_wrong_entry_is_found_by_the_verifier(tables: Path, tmp_path: Path) -> None:
    for path in tables.glob("L?vL.ctb"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "LvL.ctb").write_bytes((tables / "LvL.ctb").read_bytes())
    assert all(r.ok for r in tablebase.verify(tmp_path, men=3))
    data = bytearray((tmp_path / "LZvL.ctb").read_bytes())
    data[64 + 500] ^= 1  # one entry changed: the checksum no longer matches
    (tmp_path / "LZvL.ctb").write_bytes(bytes(data))
    with pytest.raises(tablebase.TablebaseError, match="checksum"):
        tablebase.verify(tmp_path, men=3)


def test_the_verifier_passes_the_three_man_tables(tables: Path) -> None:
    reports = tablebase.verify(tables, men=3, threads=2)
    assert len(reports) == 8
    assert all(r.ok for r in reports), reports


@pytest.mark.parametrize(
    "names", [["LZvLZ"], pytest.param(["LPvLP", "LCPvL"], marks=pytest.mark.slow)], ids=["symmetric", "pawns"]
)
def test_the_simple_generator_writes_the_same_bytes(tables: Path, tmp_path: Path, names: list[str]) -> None:
    reports = tablebase.generate(tmp_path, men=4, tables=names, simple=True)
    assert {r.material for r in reports} >= set(names)
    for report in reports:
        name = f"{report.material}.ctb"
        assert filecmp.cmp(tables / name, tmp_path / name, shallow=False), name


@pytest.mark.slow
def test_the_simple_generator_writes_the_same_bytes_for_every_table_up_to_four_men(
    tables: Path, tmp_path: Path
) -> None:
    tablebase.generate(tmp_path, men=4, simple=True)
    for path in tables.glob("*.ctb"):
        assert filecmp.cmp(path, tmp_path / path.name, shallow=False), path.name


@pytest.mark.slow
def test_the_verifier_passes_every_table_up_to_four_men(tables: Path) -> None:
    reports = tablebase.verify(tables, men=4)
    assert len(reports) == 64
    assert all(r.ok for r in reports), [r for r in reports if not r.ok]


def test_progress_is_reported_and_a_raising_callback_stops(tmp_path: Path) -> None:
    seen: list[tablebase.Progress] = []
    tablebase.generate(tmp_path, men=3, progress=seen.append)
    assert seen
    assert seen[-1].tables_done == seen[-1].tables_total == 8
    assert seen[-1].fraction == 1.0

    class Stop(Exception):
        pass

    def stop(progress: tablebase.Progress) -> None:
        raise Stop

    with pytest.raises(Stop):
        tablebase.generate(tmp_path, men=4, force=True, progress=stop)


# -- probing ------------------------------------------------------------------------------------------


def test_known_values(tb: tablebase.Tablebase) -> None:
    # Bare lions facing each other on the open d-file: the side to move captures.
    assert tb.probe_dtm("3l3/7/7/7/7/7/3L3 w 1") == 1
    assert tb.probe_wdl("3l3/7/7/7/7/7/3L3 b 1") == 1
    # Bare lions not facing: a draw by rule (docs/rules.md §8), whoever moves.
    assert tb.probe_dtm("2l4/7/7/7/7/7/3L3 w 1") == 0
    assert tb.probe_wdl("2l4/7/7/7/7/7/3L3 w 1") == 0
    # The zebra takes the lion at once; with the other side to move the lion cannot win.
    assert tb.probe_dtm(congo.Board("7/7/3l3/7/2Z4/7/4L2 w 1")) == 1
    assert (tb.probe_wdl("7/7/3l3/7/2Z4/7/4L2 b 1") or 0) <= 0
    assert tb.probe_dtm(congo.Position("7/7/2l4/7/Z6/3L3/7 w 1")) == 7


def test_positions_outside_the_tables(tb: tablebase.Tablebase) -> None:
    assert tb.probe_dtm(congo.Board()) is None
    assert tb.probe_wdl(congo.STARTING_FEN) is None
    assert tb.root_moves(congo.Board()) is None
    assert tb.best_move(congo.Board()) is None
    assert tb.best_line(congo.Board()) == []
    six = "3l3/2p4/7/7/2ZEC2/7/3L3 w 1"
    assert tb.probe_dtm(six) is None
    assert tb.max_men <= 5
    with pytest.raises(TypeError):
        tb.probe_dtm(42)  # type: ignore[arg-type]


def test_root_moves_are_ranked_and_consistent(tb: tablebase.Tablebase) -> None:
    rng = random.Random(3)
    for board in (random_board(rng, rng.choice(SIGNATURES)) for _ in range(300)):
        dtm = tb.probe_dtm(board)
        moves = tb.root_moves(board)
        assert dtm is not None
        assert moves is not None
        assert {m for m, _ in moves} == set(board.legal_moves)
        best = moves[0][1] if moves else None
        if not moves:
            assert dtm == 0
            assert tb.probe_wdl(board) == -1
        elif best is not None and best > 0:
            assert dtm == best
        elif best == 0:
            assert dtm == 0
            assert tb.probe_wdl(board) == 0
        else:
            assert best is not None
            assert dtm == best
        # Each move's value is the opponent's value one ply later, seen from the mover.
        for move, value in moves[:4]:
            child = board.copy()
            child.push(move)
            outcome = child.outcome()
            if outcome is not None and outcome.winner == board.turn:
                assert value == 1  # the lion captured, or the opponent left without a move
                continue
            assert value == before_move(tb, child)


def before_move(tb: tablebase.Tablebase, child: congo.Board) -> int:
    """The value of the move leading to ``child`` for the side that made it."""
    dtm, wdl = tb.probe_dtm(child), tb.probe_wdl(child)
    assert dtm is not None
    assert wdl is not None
    if wdl == 0:
        return 0
    return -dtm - 1 if dtm > 0 else -dtm + 1


def test_values_are_unchanged_under_both_symmetries(tb: tablebase.Tablebase) -> None:
    rng = random.Random(7)
    for _ in range(1000):
        board = random_board(rng, rng.choice(SIGNATURES))
        value = tb.probe_dtm(board)
        assert value is not None
        mirrored = congo.Board(mirror_files(board.fen()))
        assert tb.probe_dtm(mirrored) == value, (board.fen(), mirrored.fen())
        swapped = board.mirror()  # colours swapped, ranks reversed, the other side to move
        assert tb.probe_dtm(swapped) == value, (board.fen(), swapped.fen())


# -- the oracle's exhaustive search -----------------------------------------------------------------


def oracle_wins_within(position: oracle.Position, plies: int) -> bool:
    """Whether the side to move wins within ``plies`` plies, by exhaustive search in the oracle."""
    if plies < 1:
        return False
    for path in position.legal_paths():
        child = position.play_path(path)
        outcome = child.outcome()
        if outcome is not None and outcome[1] == position.turn:
            return True  # the lion captured, or the opponent left without a move
        if outcome is None and plies >= 3 and oracle_loses_within(child, plies - 1):
            return True
    return False


def oracle_loses_within(position: oracle.Position, plies: int) -> bool:
    """Whether the side to move loses within ``plies`` plies whatever it does."""
    outcome = position.outcome()
    if outcome is not None:
        return outcome[1] == (not position.turn)
    if plies < 2:
        return False
    return all(oracle_wins_within(position.play_path(path), plies - 1) for path in position.legal_paths())


def short_results(tb: tablebase.Tablebase, seed: int, wanted: dict[int, int]) -> Iterator[tuple[str, int]]:
    """Random positions whose distance to mate is a key of ``wanted``, as many as its value."""
    rng = random.Random(seed)
    left = dict(wanted)
    for _ in range(200_000):
        if not any(left.values()):
            return
        board = random_board(rng, rng.choice(SIGNATURES))
        dtm = tb.probe_dtm(board)
        if dtm is not None and left.get(dtm, 0) > 0 and not (dtm == 0 and tb.probe_wdl(board) == 0):
            left[dtm] -= 1
            yield board.fen(), dtm
    raise AssertionError(f"not enough positions found: {left}")


@pytest.mark.parametrize(("dtm", "count"), [(1, 12), (-2, 8), (3, 6), (-4, 2)])
def test_short_wins_and_losses_agree_with_the_oracle(tb: tablebase.Tablebase, dtm: int, count: int) -> None:
    for fen, value in short_results(tb, 100 + dtm, {dtm: count}):
        position = oracle.Position.from_fen(fen)
        if value > 0:
            assert oracle_wins_within(position, value), fen
            assert not oracle_wins_within(position, value - 2), fen
        else:
            assert oracle_loses_within(position, -value), fen
            assert not oracle_loses_within(position, -value - 2), fen


@pytest.mark.slow
def test_wins_in_five_agree_with_the_oracle(tb: tablebase.Tablebase) -> None:
    for fen, _ in short_results(tb, 5, {5: 3}):
        position = oracle.Position.from_fen(fen)
        assert oracle_wins_within(position, 5), fen
        assert not oracle_wins_within(position, 3), fen


# -- the engine -----------------------------------------------------------------------------------------


def test_the_engine_plays_the_distance_best_line_to_the_win(tables: Path, tb: tablebase.Tablebase) -> None:
    """From won positions the engine (on both sides, with the tables) wins after exactly the stored
    number of plies."""
    engine = congo.Engine(hash_mb=8, tablebase_path=tables)
    assert engine.tablebase is not None
    assert engine.tablebase.max_men >= 4
    rng = random.Random(11)
    checked = 0
    while checked < 25:
        board = random_board(rng, rng.choice(SIGNATURES))
        dtm = tb.probe_dtm(board)
        if dtm is None or dtm < 3:
            continue
        winner = board.turn
        for ply in range(dtm):
            assert tb.probe_dtm(board) == (dtm - ply if ply % 2 == 0 else -(dtm - ply)), board.fen()
            result = engine.search(board, congo.Limit(depth=4))
            assert result.move is not None
            if ply == 0:
                assert result.score.mate == (dtm + 1) // 2
                assert len(result.pv) == dtm
            board.push(result.move)
        outcome = board.outcome()
        assert outcome is not None, board.fen()
        assert outcome.winner == winner, board.fen()
        checked += 1


def test_the_engine_without_tables_is_unchanged_and_tables_can_be_set_later(tables: Path) -> None:
    engine = congo.Engine(hash_mb=8)
    assert engine.tablebase is None
    engine.set_tablebase(tables)
    assert engine.tablebase is not None
    result = engine.search("7/7/2l4/7/Z6/3L3/7 w 1", congo.Limit(depth=2))
    assert result.score.mate == 4
    assert result.depth == 1
    engine.set_tablebase(None)
    assert engine.tablebase is None
    with pytest.raises(FileNotFoundError):
        congo.Engine(tablebase_path=tables / "missing")


def test_the_protocol_option_gives_congo_uci_the_tables(tables: Path, tb: tablebase.Tablebase) -> None:
    from congo.engine import Limit, SimpleEngine

    board = congo.Board("7/7/2l4/7/Z6/3L3/7 w 1")
    values = dict(tb.root_moves(board) or [])
    with SimpleEngine.popen_uci([sys.executable, "-m", "congo", "uci"]) as uci:
        assert uci.options["TablebasePath"].type == "string"
        uci.configure({"TablebasePath": str(tables)})
        result = uci.play(board, Limit(depth=1))
        assert result.move is not None
        assert values[result.move] == 7
        score = result.info["score"].relative
        assert score.mate == 4


# -- the command line -------------------------------------------------------------------------------------


def test_cli_probe_and_analyse(tables: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tablebase", "probe", "--dir", str(tables), "7/7/2l4/7/Z6/3L3/7 w 1"]) == 0
    out = capsys.readouterr().out
    assert "White to move, win in 7 plies" in out
    assert "best line: 1. Zc2" in out
    assert main(["tablebase", "probe", "--dir", str(tables), congo.STARTING_FEN]) == 3
    assert "not in the tables" in capsys.readouterr().out
    fen = "7/7/2l4/7/Z6/3L3/7 w 1"
    assert main(["analyse", "--fen", fen, "--depth", "3", "--tablebase", str(tables)]) == 0
    assert "score #4" in capsys.readouterr().out


def test_cli_generate_verify_stats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tablebase", "generate", "--men", "3", "--dir", str(tmp_path)]) == 0
    assert "8 tables" in capsys.readouterr().out
    assert main(["tablebase", "verify", "--dir", str(tmp_path)]) == 0
    assert "all correct" in capsys.readouterr().out
    assert main(["tablebase", "stats", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "### A piece and its lion against a bare lion" in out
    assert "| zebra |" in out
    with pytest.raises(SystemExit):
        main(["tablebase", "generate", "--men", "9", "--dir", str(tmp_path)])
    assert "must be from 2 to 5" in capsys.readouterr().err


def test_stats_count_every_position(tables: Path) -> None:
    (bare,) = tablebase.stats(tables, tables=["LvL"])
    # 81 lion placements, each side to move: only the facing ones are won.
    assert bare.white_to_move.positions == bare.black_to_move.positions == 81
    assert bare.white_to_move.wins == bare.black_to_move.wins
    assert bare.full_zugzwangs == bare.half_zugzwangs == 0
    (zebra,) = tablebase.stats(tables, tables=["LZvL"])
    white, black = zebra.white_to_move, zebra.black_to_move
    assert white.wins + white.draws + white.losses == white.positions
    assert (white.longest_win, black.longest_loss) == (17, 18)
    assert white.longest_win_fen is not None
    assert black.longest_loss_fen is not None
    probe = tablebase.Tablebase(tables)
    assert probe.probe_dtm(white.longest_win_fen) == 17
    assert probe.probe_dtm(black.longest_loss_fen) == -18


# -- annotation -------------------------------------------------------------------------------------------

PAWN_WIN = "7/7/3l3/7/7/6P/2L4 w 1"
"""White wins in 21 plies (the longest win of LPvL), far beyond a search of a few hundred nodes."""


def _eval_from_tables(tb: tablebase.Tablebase, board: congo.Board) -> str:
    """The ``[%eval]`` text the tables give a position: ``#n`` / ``#-n`` from White's side, or a
    draw."""
    dtm = tb.probe_dtm(board)
    assert dtm is not None, board.fen()
    if dtm == 0:
        return "0.00"
    mate = (dtm + 1) // 2 if dtm > 0 else dtm // 2
    return f"#{mate if board.turn == congo.WHITE else -mate}"


def test_annotate_gives_the_exact_values_of_the_tables(
    tables: Path, tb: tablebase.Tablebase, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``congo annotate --tablebase``: every move of a game from a tablebase position gets its
    mate distance from the tables, and a move that throws the win away is a blunder."""
    import io

    import congo.pgn

    board = congo.Board(PAWN_WIN)
    line = tb.best_line(board)
    assert len(line) == 21
    perfect = congo.Board(PAWN_WIN)
    for move in line[:6]:
        perfect.push(move)
    blunder = congo.Board(PAWN_WIN)
    for move in line[:4]:
        blunder.push(move)
    ranked = tb.root_moves(blunder) or []
    throw_away = next(move for move, dtm in ranked if dtm == 0)  # the pawn is lost: a draw
    blunder.push(throw_away)
    source = tmp_path / "games.pgn"
    with open(source, "w", encoding="utf-8") as out:
        for played in (perfect, blunder):
            congo.pgn.write_game(out, congo.pgn.Game.from_board(played))

    def annotate(*extra: str) -> list[congo.pgn.Game]:
        target = tmp_path / "out.pgn"
        assert main(["annotate", str(source), "--nodes", "300", "-o", str(target), *extra]) == 0
        capsys.readouterr()
        return list(congo.pgn.iter_games(io.StringIO(target.read_text(encoding="utf-8"))))

    with_tables = annotate("--tablebase", str(tables), "--workers", "2")
    for game, played in zip(with_tables, (perfect, blunder)):
        assert "tables up to 4 men" in game.headers["Annotator"]
        replay = game.board()
        for node in game.mainline():
            replay.push(node.move)
            assert f"[%eval {_eval_from_tables(tb, replay)}]" in node.comment, node.comment
        assert replay.fen() == played.fen()
    first = next(iter(with_tables[0].mainline()))
    assert "[%eval #10]" in first.comment  # White wins with its 11th move from the start
    assert with_tables[0].headers["WhiteBlunders"] == "0"
    mistake = list(with_tables[1].mainline())[-1]
    assert congo.pgn.NAG_BLUNDER in mistake.nags
    assert "(#9 → 0.00) Blunder" in mistake.comment  # the win became a draw
    assert with_tables[1].headers["WhiteBlunders"] == "1"
    # Without the tables a search of 300 nodes sees no mate there.
    without = annotate("--workers", "1")
    assert "#" not in next(iter(without[0].mainline())).comment
    # A directory that is not there is a one-line error.
    assert main(["annotate", str(source), "--tablebase", str(tmp_path / "none")]) == 2
    assert "cannot open the tables" in capsys.readouterr().err


# -- the documentation ----------------------------------------------------------------------------------


def test_the_documented_facts_are_those_of_the_tables(tables: Path) -> None:
    """docs/tablebase.md's facts are written by benches/tablebase_facts.py from the tables up to
    five men: every row that the tables up to four men decide is there as they give it."""
    from congo.cli.tablebase import facts_markdown

    page = (Path(__file__).resolve().parent.parent / "docs" / "tablebase.md").read_text(encoding="utf-8")
    facts = page.split("<!-- facts: begin -->")[1].split("<!-- facts: end -->")[0].splitlines()
    checked = 0
    for section in facts_markdown(tablebase.stats(tables, men=4), top=30).split("### ")[1:]:
        title, _, body = section.partition("\n")
        if title.startswith("The longest wins"):  # a ranking over every table, five men included
            continue
        assert f"### {title}" in facts
        for line in body.splitlines():
            if title == "Mutual zugzwangs" and line.startswith("| L"):  # a ranking too
                continue
            if line.startswith(("|", "* ")):
                assert line in facts, line
                checked += 1
    assert checked > 80  # 64 tables, 7 pieces, the 7 × 7 duels, the classes and zugzwangs


# -- damaged and foreign files ------------------------------------------------------------------------

LZVL_WIN = "7/7/3l3/7/2Z4/7/4L2 w 1"


@pytest.fixture
def damaged(tables: Path, tmp_path: Path) -> Path:
    """A copy of the tables up to three men with ``LZvL.ctb`` damaged: 0x04 XORed into every 7th
    entry after the header, the header (and its checksum) intact."""
    directory = tmp_path / "damaged"
    directory.mkdir()
    good = tablebase.open_tablebase(tables)
    for name in good.materials():
        if len(name) - 1 <= 3:
            (directory / f"{name}.ctb").write_bytes((tables / f"{name}.ctb").read_bytes())
    path = directory / "LZvL.ctb"
    data = bytearray(path.read_bytes())
    for at in range(64, len(data), 7):
        data[at] ^= 0x04
    path.write_bytes(bytes(data))
    return directory


def test_a_damaged_table_is_refused_with_its_name(damaged: Path, tb: tablebase.Tablebase) -> None:
    assert tb.probe_dtm(LZVL_WIN) is not None
    tables = tablebase.open_tablebase(damaged)
    for probe in (tables.probe_dtm, tables.probe_wdl, tables.root_moves, tables.best_line, tables.best_move):
        with pytest.raises(tablebase.TablebaseError, match=r"LZvL\.ctb.*checksum"):
            probe(LZVL_WIN)
    assert issubclass(tablebase.TablebaseError, ValueError)
    # Once load_all has failed, the object still never serves the damaged table.
    tables = tablebase.open_tablebase(damaged)
    with pytest.raises(tablebase.TablebaseError, match=r"LZvL\.ctb"):
        tables.load_all()
    with pytest.raises(tablebase.TablebaseError, match=r"LZvL\.ctb"):
        tables.probe_dtm(LZVL_WIN)
    with pytest.raises(tablebase.TablebaseError):
        tables.load_all()
    # The other tables answer.
    assert tables.probe_dtm("7/7/3l3/7/7/7/4L2 w 1") == 0


def test_the_engine_and_the_commands_refuse_a_damaged_table(
    damaged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = congo.Engine(hash_mb=8, tablebase_path=damaged)
    with pytest.raises(tablebase.TablebaseError, match=r"LZvL\.ctb"):
        engine.search(LZVL_WIN, congo.Limit(depth=3))
    capsys.readouterr()
    assert main(["analyse", "--fen", LZVL_WIN, "--depth", "3", "--tablebase", str(damaged)]) != 0
    captured = capsys.readouterr()
    assert "LZvL.ctb" in captured.err, captured
    assert main(["tablebase", "probe", "--dir", str(damaged), LZVL_WIN]) != 0
    assert "LZvL.ctb" in capsys.readouterr().err


def test_annotate_refuses_a_damaged_table(
    damaged: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import congo.pgn

    board = congo.Board(LZVL_WIN)
    board.push(next(iter(board.legal_moves)))
    source = tmp_path / "game.pgn"
    with open(source, "w", encoding="utf-8") as out:
        congo.pgn.write_game(out, congo.pgn.Game.from_board(board))
    target = tmp_path / "out.pgn"
    code = main(["annotate", str(source), "--nodes", "200", "--tablebase", str(damaged), "-o", str(target)])
    assert code != 0
    assert "LZvL.ctb" in capsys.readouterr().err


def test_the_protocol_reports_a_damaged_table(damaged: Path) -> None:
    from tests.test_uci_server import Pipe

    engine = Pipe()
    try:
        engine.send(f"setoption name TablebasePath value {damaged}")
        assert engine.exchange("isready", "readyok")[0].startswith("info string tablebases: ")
        engine.send(f"position fen {LZVL_WIN}")
        lines = engine.exchange("go depth 3", "bestmove")
        errors = [line for line in lines if line.startswith("info string error: ")]
        assert errors, lines
        assert "LZvL.ctb" in errors[0], errors
        assert "checksum" in errors[0], errors
        assert not any(" score mate 2 " in line for line in lines), lines
        assert engine.close() == 0
    finally:
        if engine.process.poll() is None:
            engine.process.kill()


def test_generation_does_not_build_on_a_damaged_table(damaged: Path) -> None:
    before = sorted(p.name for p in damaged.iterdir())
    with pytest.raises(tablebase.TablebaseError, match=r"LZvL\.ctb.*--force"):
        tablebase.generate(damaged, men=4)
    assert sorted(p.name for p in damaged.iterdir()) == before  # nothing built on it
    assert main(["tablebase", "generate", "--men", "4", "--dir", str(damaged)]) != 0


def test_only_a_directory_of_regular_table_files_is_a_tablebase(tables: Path, tmp_path: Path) -> None:
    import threading

    empty = tmp_path / "empty"
    empty.mkdir()
    for directory in (empty, Path("/proc")):
        with pytest.raises(tablebase.TablebaseError, match="holds no tables"):
            tablebase.open_tablebase(directory)
        with pytest.raises(tablebase.TablebaseError, match="holds no tables"):
            congo.Engine(tablebase_path=directory)
    with pytest.raises(FileNotFoundError, match=r"congo tablebase generate --men 4 --dir"):
        tablebase.open_tablebase(tmp_path / "missing")
    # A FIFO named like a table never blocks: it is refused at once.
    fifo_dir = tmp_path / "fifo"
    fifo_dir.mkdir()
    (fifo_dir / "LZvL.ctb").write_bytes((tables / "LZvL.ctb").read_bytes())
    os.mkfifo(fifo_dir / "X.ctb")
    outcome: list[BaseException | None] = []

    def open_it() -> None:
        try:
            tablebase.open_tablebase(fifo_dir)
            outcome.append(None)
        except BaseException as error:
            outcome.append(error)

    worker = threading.Thread(target=open_it, daemon=True)
    worker.start()
    worker.join(30)
    assert outcome, "opening a directory with a FIFO blocked"
    assert isinstance(outcome[0], tablebase.TablebaseError), outcome
    assert "not a regular file" in str(outcome[0])


def test_probe_names_the_missing_table(
    tables: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    partial = tmp_path / "partial"
    partial.mkdir()
    (partial / "LvL.ctb").write_bytes((tables / "LvL.ctb").read_bytes())
    assert tablebase.open_tablebase(partial).table_of(LZVL_WIN) == ("LZvL", False)
    assert main(["tablebase", "probe", "--dir", str(partial), LZVL_WIN]) == 3
    out = capsys.readouterr().out
    assert "the table LZvL is missing" in out, out
    assert "hold up to" not in out
