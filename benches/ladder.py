"""The Elo ladder of ``docs/engine.md``: simple players and the engine at several limits, each rung
rated from paired matches against its neighbours, anchored at ``random`` = 0.

    python benches/ladder.py                    # play every match not yet recorded, then report
    python benches/ladder.py --only ab4-ab2     # play (again) some matches, then report
    python benches/ladder.py --report           # no games: refit and rewrite the outputs
    python benches/ladder.py --list             # the rungs and the matches

Each match goes through :func:`congo.match.run_match` (paired games from the bundled balanced
suite). Its raw result (W/D/L, the pentanomial counts, Elo ± interval, games, wall time, the machine's
load before and after) is kept, one JSON line a match and rewritten after every game (so a match cut
short keeps its finished games), in ``benches/results/ladder-matches.txt``. The report,
``benches/results/ladder.txt``, lists those matches and the fitted ladder, and the table between the
``ladder:begin``/``ladder:end`` markers of ``docs/engine.md`` is rewritten from it.

The fit (:func:`fit_ladder`), weighted least squares over every played pair with a defined interval:
a pair ``(a, b)`` gives the measured difference ``d`` (logistic Elo, from the pentanomial mean score)
and its standard error ``sigma``, half the 95 % interval that ``congo match`` prints (the ends of
``s ± 1.96 sd/√N`` turned into Elo) over 1.96 (so a lopsided match, whose interval is wide on the
strong side, counts for little); the ratings ``r`` minimise ``Σ ((r_a - r_b - d) /
sigma)²`` with ``r_random = 0``, and a rung's 95 % interval is ``± 1.96 √C_ii`` with ``C = (AᵀWA)⁻¹``, the
covariance of the fit. Along a chain of neighbour matches this is the sum of the differences, the
variances added; with cross-matches it weights each path by its precision. A match won 100 % (or
whose interval reaches a score of 0 or 1) has no defined Elo: it is left out of the fit and gives a
one-sided 95 % lower bound instead (:func:`lower_bound`); a rung connected to the anchor only
through such a match is reported as "at least" the bound.

Run it under ``nice -n 19`` on a shared machine; the time-limited rungs depend on the machine's load.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import pathlib
import random
import re
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence

from congo import Move, match, stats
from congo.board import Board
from congo.files import atomic_output, check_outputs

HERE = pathlib.Path(__file__).resolve().parent
RAW = HERE / "results" / "ladder-matches.txt"
REPORT = HERE / "results" / "ladder.txt"
DOCS = HERE.parent / "docs" / "engine.md"
BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"
ANCHOR = "random"
MAX_PLIES = 200

# key -> player description (congo.match.parse_player) or a mixed player (MIXES), weakest first.
RUNGS: dict[str, str] = {
    "random": "random",
    "mix10": "greedy 10 %, else random",
    "greedy": "greedy",
    "ab2g50": "alphabeta:depth=2 50 %, else greedy",
    "ab2": "alphabeta:depth=2",
    "ab4": "alphabeta:depth=4",
    "n100": "engine:nodes=100",
    "n1k": "engine:nodes=1000",
    "t0.01": "engine:time=0.01",
    "n10k": "engine:nodes=10000",
    "n30k": "engine:nodes=30000",
    "n100k": "engine:nodes=100000",
    "t0.1": "engine:time=0.1",
    "t1": "engine:time=1",
}


# Intermediate rungs where two neighbours are too far apart for a defined Elo: each move is the first
# player's with the probability, else the second's (see MixedPlayer).
MIXES: dict[str, tuple[float, str, str]] = {
    "mix10": (0.1, "greedy", "random"),
    "ab2g50": (0.5, "alphabeta:depth=2", "greedy"),
}


@dataclasses.dataclass(frozen=True)
class Pairing:
    """A match of the ladder: ``first`` (expected stronger) against ``second``."""

    first: str
    second: str
    games: int
    concurrency: int = 1

    @property
    def key(self) -> str:
        return f"{self.first}-{self.second}"


# Neighbours, plus cross-matches where a rung's place is unsure (t0.01) or a gap is too wide.
PAIRINGS: list[Pairing] = [
    Pairing("mix10", "random", 200),
    Pairing("greedy", "mix10", 200),
    Pairing("greedy", "random", 200),
    Pairing("ab2", "greedy", 60),
    Pairing("ab2g50", "greedy", 100),
    Pairing("ab2", "ab2g50", 100),
    Pairing("ab4", "ab2", 16),
    Pairing("n1k", "ab4", 16, concurrency=2),
    Pairing("n100", "ab4", 12, concurrency=2),
    Pairing("n1k", "n100", 100, concurrency=2),
    Pairing("t0.01", "n1k", 100),
    Pairing("n10k", "t0.01", 100),
    Pairing("n10k", "n1k", 100, concurrency=2),
    Pairing("n100k", "n10k", 40, concurrency=2),
    Pairing("n30k", "n10k", 30, concurrency=2),
    Pairing("n100k", "n30k", 30, concurrency=2),
    Pairing("t0.1", "n100k", 24),
    Pairing("t1", "t0.1", 20, concurrency=2),  # two games at once, one core each, on an idle machine
]


class MixedPlayer(match.Player):
    """An intermediate rung between two players: each move is ``strong``'s with probability ``p``,
    else ``weak``'s (``mix:0.1:greedy:random``: greedy's move one time in ten, else a random one)."""

    def __init__(self, p: float, strong: match.Player, weak: match.Player, seed: int) -> None:
        self.name = f"mix:{p:g}"
        self._p = p
        self._random = random.Random(seed)
        self._strong = strong
        self._weak = weak

    def choose(self, board: Board) -> Move:
        player = self._strong if self._random.random() < self._p else self._weak
        return player.choose(board)

    def new_game(self) -> None:
        self._strong.new_game()
        self._weak.new_game()


def player(key: str) -> tuple[str, match.PlayerFactory]:
    """The rung's display name and player factory (for :func:`congo.match.run_match`)."""
    if key in MIXES:
        p, strong_spec, weak_spec = MIXES[key]
        strong, weak = match.parse_player(strong_spec)[1], match.parse_player(weak_spec)[1]
        return RUNGS[key], lambda seed: MixedPlayer(p, strong(seed + 1), weak(seed + 2), seed)
    return match.parse_player(RUNGS[key])


# --- the computation (pure; tests/test_ladder.py) -------------------------------------------------


# The fit lives in congo.stats (congo tournament rates its players with it); the names stay here.
Measured = stats.Measured
Rating = stats.Rating
measure = stats.measure_match


def lower_bound(pentanomial: Sequence[int]) -> float:
    """A one-sided 95 % lower bound on the Elo of the first player over the second
    (:func:`congo.stats.elo_lower_bound`, which ``congo match`` prints too)."""
    return stats.elo_lower_bound(list(pentanomial))


def fit_ladder(rungs: Sequence[str], matches: Sequence[Measured], anchor: str = ANCHOR) -> list[Rating]:
    """The ladder: each rung's Elo relative to ``anchor`` (:func:`congo.stats.fit_ratings`, see the
    module docs)."""
    return stats.fit_ratings(rungs, matches, anchor)


# --- playing and reporting ------------------------------------------------------------------------


def _load() -> str:
    text = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout
    found = re.search(r"load average: (.*)", text)
    return found.group(1).strip() if found else text.strip()


def read_raw(path: pathlib.Path = RAW) -> dict[str, dict[str, object]]:
    records: dict[str, dict[str, object]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                record = json.loads(line)
                records[str(record["key"])] = record
    return records


def write_raw(records: Mapping[str, Mapping[str, object]], path: pathlib.Path = RAW) -> None:
    order = {p.key: i for i, p in enumerate(PAIRINGS)}
    lines = ["# benches/ladder.py: one JSON line a match (raw results; see the script's docs)"]
    for key in sorted(records, key=lambda k: order.get(k, len(order))):
        lines.append(json.dumps(records[key], sort_keys=True))
    with atomic_output(path) as out:  # rewritten after every game: a cut-off write must not lose the file
        out.write("\n".join(lines) + "\n")


def play(pairing: Pairing, records: dict[str, dict[str, object]], commit: str) -> None:
    first, second = player(pairing.first), player(pairing.second)
    started = time.monotonic()
    record: dict[str, object] = {
        "key": pairing.key,
        "first": pairing.first,
        "second": pairing.second,
        "first_spec": first[0],
        "second_spec": second[0],
        "games_planned": pairing.games,
        "concurrency": pairing.concurrency,
        "max_plies": MAX_PLIES,
        "commit": commit,
        "load_before": _load(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        "complete": False,
    }

    def update(result: match.MatchResult, game: match.GameRecord | None) -> None:
        estimate = result.estimate()
        endings: dict[str, int] = {}
        for g in result.games:
            name = g.outcome.termination.name.lower()
            endings[name] = endings.get(name, 0) + 1
        record.update(
            games=result.played,
            wins=result.wins,
            draws=result.draws,
            losses=result.losses,
            pentanomial=list(result.pentanomial),
            elo=str(estimate),
            plies=sum(len(g.board.move_stack) for g in result.games),
            endings=endings,
            wall_s=round(time.monotonic() - started, 1),
            load_after=_load(),
        )
        records[pairing.key] = record
        write_raw(records)
        if game is not None:
            print(f"  {pairing.key}: {result.standing(game)}", flush=True)

    result = match.run_match(
        first,
        second,
        games=pairing.games,
        max_plies=MAX_PLIES,
        concurrency=pairing.concurrency,
        on_game=update,
    )
    record["complete"] = True
    update(result, None)
    print(result.summary(), flush=True)


def _fmt(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}" if round(value) != 0 else "0"


def report(records: Mapping[str, Mapping[str, object]]) -> tuple[str, list[Rating]]:
    """The text of ``benches/results/ladder.txt`` and the fitted ladder."""
    measured = []
    lines = [
        "Elo ladder (benches/ladder.py), anchored at random = 0",
        "",
        "Matches (first vs second, the first's result; Elo from the pentanomial, 95 %):",
    ]
    for pairing in PAIRINGS:
        record = records.get(pairing.key)
        if record is None:
            lines.append(f"  {pairing.key}: not played")
            continue
        counts = [int(c) for c in record["pentanomial"]]  # type: ignore[attr-defined]
        m = measure(pairing.first, pairing.second, counts)
        if sum(counts):
            measured.append(m)
        note = (
            ""
            if record.get("complete")
            else f" (cut short: {record['games']} of {record['games_planned']} games)"
        )
        bound = ""
        if m.bound is not None and math.isfinite(m.bound):
            bound = f", lower bound {_fmt(m.bound)} (one-sided 95 %)"
        lines.append(
            f"  {RUNGS[pairing.first]} vs {RUNGS[pairing.second]}: +{record['wins']} ={record['draws']} "
            f"-{record['losses']} ({record['games']} games), Ptnml(0-2) {counts}, "
            f"{record['elo']}{bound}{note}"
        )
        lines.append(
            f"      wall {record['wall_s']} s, load {record['load_before']} -> {record['load_after']}, "
            f"concurrency {record['concurrency']}, max plies {record['max_plies']}, "
            f"endings {record['endings']}, "
            f"commit {str(record['commit'])[:12]}"
        )
    ratings = fit_ladder(list(RUNGS), measured)
    lines += ["", "Ladder (weighted least squares over the matches with an interval; 95 %):"]
    for rating in ratings:
        lines.append(f"  {RUNGS[rating.key]:<22} {_rung_text(rating)}")
    return "\n".join(lines) + "\n", ratings


def _rung_text(rating: Rating) -> str:
    if rating.error is None:
        return "0 (anchor)"
    if rating.at_least:
        return f"≥ {_fmt(rating.elo)}" + (f" (± {rating.error:.0f} above that)" if rating.error else "")
    if rating.at_most:
        return f"≤ {_fmt(rating.elo)}" + (f" (± {rating.error:.0f} below that)" if rating.error else "")
    return f"{_fmt(rating.elo)} ± {rating.error:.0f}"


def docs_table(records: Mapping[str, Mapping[str, object]], ratings: Sequence[Rating]) -> str:
    """The markdown between the markers of ``docs/engine.md``: the ladder, then the matches."""
    lines = ["| rung | Elo (random = 0), 95 % |", "|---|---|"]
    for rating in ratings:
        lines.append(f"| `{RUNGS[rating.key]}` | {_rung_text(rating)} |")
    lines += [
        "",
        "| match (first vs second) | games | first's +W =D -L | Ptnml(0-2) | Elo, 95 % | wall "
        "| load (1-min avg) before → after |",
        "|---|---|---|---|---|---|---|",
    ]
    for pairing in PAIRINGS:
        record = records.get(pairing.key)
        if record is None:
            continue
        counts = [int(c) for c in record["pentanomial"]]  # type: ignore[attr-defined]
        m = measure(pairing.first, pairing.second, counts)
        elo = str(record["elo"]).replace("Elo ", "")
        if m.bound is not None and math.isfinite(m.bound):
            elo += f"; ≥ {_fmt(m.bound)} (one-sided 95 %)"
        games = f"{record['games']}"
        if not record.get("complete"):
            games += f" of {record['games_planned']} (cut short)"
        load = f"{str(record['load_before']).split(',')[0]} → {str(record['load_after']).split(',')[0]}"
        lines.append(
            f"| `{RUNGS[pairing.first]}` vs `{RUNGS[pairing.second]}` | {games} | +{record['wins']} "
            f"={record['draws']} -{record['losses']} | {counts} | {elo} "
            f"| {float(str(record['wall_s'])):.0f} s | {load} |"
        )
    return "\n".join(lines) + "\n"


def write_docs(table: str, path: pathlib.Path = DOCS) -> None:
    """Replaces the text between the ladder markers of ``path`` by ``table``."""
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{path} has no {BEGIN} … {END} markers")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with atomic_output(path) as out:
        out.write(f"{head}{BEGIN}\n{table}{END}{tail}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated match keys to play (again), e.g. ab4-ab2")
    parser.add_argument("--report", action="store_true", help="play nothing; refit and rewrite the outputs")
    parser.add_argument("--list", action="store_true", help="list the rungs and the matches")
    args = parser.parse_args(argv)
    if args.list:
        for key, spec in RUNGS.items():
            print(f"rung {key}: {spec}")
        for p in PAIRINGS:
            print(f"match {p.key}: {p.games} games, concurrency {p.concurrency}")
        return 0
    try:  # before the games: the record of the matches, the report and the page are all written
        check_outputs([RAW, REPORT, DOCS])
    except (OSError, ValueError) as error:
        parser.error(str(error))
    records = read_raw()
    if not args.report:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True, text=True, check=False
        ).stdout.strip()
        wanted = None if args.only is None else set(args.only.split(","))
        known = {p.key for p in PAIRINGS}
        if wanted is not None and not wanted <= known:
            parser.error(f"unknown match {sorted(wanted - known)}; see --list")
        by_key = {p.key: p for p in PAIRINGS}
        order = [p.key for p in PAIRINGS if p.key not in records] if wanted is None else args.only.split(",")
        for key in order:
            play(by_key[key], records, commit)
    text, ratings = report(records)
    with atomic_output(REPORT) as out:
        out.write(text)
    write_docs(docs_table(records, ratings))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
