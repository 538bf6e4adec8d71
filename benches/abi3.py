"""The stable ABI (abi3) against a version-specific extension, measured on the same machine in one run.

    python benches/abi3.py                      # builds both wheels, then 15 interleaved rounds
    python benches/abi3.py --rounds 3 --quick
    python benches/abi3.py --wheels NATIVE.whl ABI3.whl   # measure wheels built elsewhere
    python benches/abi3.py --instructions       # also count instructions per call (valgrind)

Builds the release wheel twice with maturin (as shipped: the release profile with fat LTO), once as
it is configured and once with ``--features pyo3/abi3-py39``, installs each into its own fresh
virtual environment, and runs ``benches/run.py --api-only`` in the two environments alternately,
so that both builds see the same load on a shared machine. Prints the median of the rounds for every
figure and abi3's time relative to the version-specific build's (above 1: abi3 is slower).

Wall time on a busy shared machine varies by tens of percent between runs, so ``--instructions`` also
counts the instructions one call of each Python-facing figure executes, under
``valgrind --tool=cachegrind`` (the loop run N times minus the same script run zero times, divided
by the calls): that count is the same whatever else the machine is doing. docs/performance.md
records the figures and the decision they support.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = {"version-specific": [], "abi3": ["--features", "pyo3/abi3-py39"]}


def build_wheel(features: list[str], out: Path) -> Path:
    """One release wheel of the project, built by maturin into ``out``."""
    command = [sys.executable, "-m", "maturin", "build", "--release", "--out", str(out), *features]
    print("building:", " ".join(command[2:]), file=sys.stderr)
    subprocess.run(command, cwd=ROOT, check=True)
    (wheel,) = out.glob("congo_chess-*.whl")
    return wheel


def environment_with(wheel: Path, where: Path) -> Path:
    """The Python of a fresh virtual environment in ``where`` with ``wheel`` installed."""
    venv.create(where, with_pip=True)
    python = where / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", str(wheel)], check=True)
    return python


def measure(python: Path, quick: bool, out: Path) -> dict[tuple[str, str], tuple[float, str]]:
    """One run of ``benches/run.py --api-only`` in the environment of ``python``."""
    command = [str(python), str(ROOT / "benches" / "run.py"), "--api-only", "--json", str(out)]
    command += ["--quick"] if quick else []
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    figures = json.loads(out.read_text(encoding="utf-8"))
    return {(f["suite"], f["name"]): (f["value"], f["unit"]) for f in figures}


# The README's Python-facing figures as loops for the instruction counts: (name, loop, calls per round).
WORKLOADS = [
    ("len(board.legal_moves)", "for x in boards: len(x.legal_moves)", "len(boards)"),
    ("list(board.legal_moves)", "for x in boards: list(x.legal_moves)", "len(boards)"),
    ("board.push(m); board.pop()", "for b, m in pairs: b.push(m); b.pop()", "len(pairs)"),
]
INSTRUCTION_SCRIPT = """
import sys, congo
boards = [congo.Board(fen) for fen in {fens!r}]
pairs = [(b, m) for b in boards for m in list(b.legal_moves)]
rounds = -(-20_000 // ({calls}))  # about 20 000 calls, whatever the suite's size
for _ in range(rounds if sys.argv[1] == "run" else 0):
    {loop}
print(rounds * ({calls}))
"""


CACHEGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]


def instructions(python: Path, script: str, mode: str) -> tuple[int, int]:
    """(instructions executed, calls made) by ``script`` under cachegrind, in mode ``run`` or ``idle``."""
    done = subprocess.run(
        [*CACHEGRIND, str(python), "-c", script, mode],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"},
    )
    refs = next(line for line in done.stderr.splitlines() if "I   refs:" in line)
    return int(refs.split(":")[1].replace(",", "")), int(done.stdout)


def count_instructions(pythons: dict[str, Path]) -> None:
    """Prints the instructions per call of each Python-facing figure, for every build."""
    positions = [line.split(" ", 1) for line in (ROOT / "benches" / "positions.txt").read_text().splitlines()]
    fens = [fen for name, fen in positions if name and not name.startswith("#")]
    suites = {"start": fens[:1], "middlegame": fens[1:]}
    print("\ninstructions per call (cachegrind; the same on a loaded machine)")
    print(f"  {'suite':<11} {'figure':<30} {'version-specific':>17} {'abi3':>12}  abi3 / version-specific")
    for suite, suite_fens in suites.items():
        for name, loop, calls in WORKLOADS:
            script = INSTRUCTION_SCRIPT.format(fens=suite_fens, calls=calls, loop=loop)
            per_call = {}
            for variant, python in pythons.items():
                print(f"cachegrind: {variant} {suite} {name}", file=sys.stderr)
                busy, made = instructions(python, script, "run")
                idle, _ = instructions(python, script, "idle")
                per_call[variant] = (busy - idle) / made
            native, abi3 = per_call["version-specific"], per_call["abi3"]
            print(f"  {suite:<11} {name:<30} {native:>17,.0f} {abi3:>12,.0f}  {abi3 / native:.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=15, help="interleaved runs of each build (default 15)")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions inside each run")
    parser.add_argument(
        "--wheels", nargs=2, type=Path, metavar=("NATIVE", "ABI3"), help="measure these wheels instead"
    )
    parser.add_argument(
        "--instructions", action="store_true", help="also count instructions per call (needs valgrind)"
    )
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (Debian: apt-get install valgrind)")

    with tempfile.TemporaryDirectory(prefix="congo-abi3-") as scratch:
        work = Path(scratch)
        pythons = {}
        for index, (variant, features) in enumerate(VARIANTS.items()):
            wheel = args.wheels[index] if args.wheels else build_wheel(features, work / f"{variant}-wheel")
            print(f"{variant}: {wheel.name}")
            pythons[variant] = environment_with(wheel, work / f"{variant}-env")

        runs: dict[str, list[dict[tuple[str, str], tuple[float, str]]]] = {v: [] for v in VARIANTS}
        for round_ in range(args.rounds):
            # Alternate which build goes first, so neither always runs on a warmer or quieter machine.
            order = list(VARIANTS) if round_ % 2 == 0 else list(reversed(VARIANTS))
            for variant in order:
                print(f"round {round_ + 1}/{args.rounds}: {variant}", file=sys.stderr)
                runs[variant].append(measure(pythons[variant], args.quick, work / "figures.json"))

        print(f"\nwall time, medians of {args.rounds} interleaved rounds")
        print(
            f"  {'suite':<11} {'figure':<30} {'version-specific':>20} {'abi3':>12}  abi3 / version-specific"
        )
        for key, (_, unit) in runs["version-specific"][0].items():
            suite, name = key
            native, abi3 = (statistics.median(run[key][0] for run in runs[v]) for v in VARIANTS)
            # Times (ns) grow when slower, rates (games/s) shrink; counts (moves) are not compared.
            cost = abi3 / native if unit == "ns" else native / abi3 if unit.endswith("/s") else None
            shown = "" if cost is None else f"{cost:.2f}x"
            print(f"  {suite:<11} {name:<30} {native:>12,.1f} {unit:<7} {abi3:>12,.1f}  {shown}")
        if args.instructions:
            count_instructions(pythons)
    return 0


if __name__ == "__main__":
    sys.exit(main())
