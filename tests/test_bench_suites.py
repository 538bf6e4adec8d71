"""The benches' position suites: FEN or EPD lines, with an EPD's ``bm``/``am`` checked against the
search (``benches/search.py``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import congo

BENCHES = Path(__file__).resolve().parent.parent / "benches"


def _search_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_search", BENCHES / "search.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclass-like classes look their module up
    spec.loader.exec_module(module)
    return module


def test_the_epd_suite_is_the_fen_suite_with_ids_and_best_moves() -> None:
    bench = _search_bench()
    fens = bench.read_suite(BENCHES / "search_positions.txt")
    epd = bench.read_suite(BENCHES / "search_positions.epd")
    assert [p.fen for p in epd] == [p.fen for p in fens]
    assert all(p.operations == {} for p in fens)
    assert epd[0].name == "start"
    mates = [p for p in epd if "bm" in p.operations]
    assert [(p.name, p.operations["dm"]) for p in mates] == [("mate-in-5", 5), ("mate-in-1-chain", 1)]
    chain = mates[1].operations["bm"]
    assert chain == [congo.Move.from_uci("b1d3f5d7")]


def test_bm_and_am_are_judged_against_the_move(tmp_path: Path) -> None:
    bench = _search_bench()
    suite = tmp_path / "suite.epd"
    suite.write_text(
        "# a comment\n"
        'gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w bm c2c3 d2d3; id "two";\n'
        "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w am c2c3;\n"
        "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1\n",
        encoding="utf-8",
    )
    best, avoid, plain = bench.read_suite(suite)
    assert best.name == "two"
    assert avoid.name == "line 3"
    c3, d3, a3 = (congo.Move.from_uci(m) for m in ("c2c3", "d2d3", "a2a3"))
    assert bench.agrees(best, c3)
    assert bench.agrees(best, d3)
    assert not bench.agrees(best, a3)
    assert not bench.agrees(avoid, c3)
    assert bench.agrees(avoid, a3)
    assert bench.agrees(plain, a3) is None
    suite.write_text("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w bm Zz9;\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"suite\.epd:1"):
        bench.read_suite(suite)


def test_a_search_of_the_epd_suite_finds_the_mate_in_one() -> None:
    bench = _search_bench()
    suite = [p for p in bench.read_suite(BENCHES / "search_positions.epd") if p.name == "mate-in-1-chain"]
    _, _, verdicts = bench.run(suite, 3, 1, 1)
    assert verdicts == [True]
