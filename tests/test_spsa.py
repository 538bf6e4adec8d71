"""benches/tuning/spsa.py, run for a few iterations at a tiny node budget: its log, its perturbations
(symmetric about the current values, within bounds) and the direction of each step (toward the
engine that won the iteration's games)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPSA = ROOT / "benches" / "tuning" / "spsa.py"


def test_spsa_steps_toward_the_winner_and_logs_every_iteration(tmp_path: Path) -> None:
    log = tmp_path / "spsa.jsonl"
    args = ["--iterations", "4", "--pairs", "1", "--nodes", "60", "--concurrency", "1", "--seed", "3"]
    done = subprocess.run(
        [sys.executable, str(SPSA), *args, "--fixed", "iir=1", "--log", str(log)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    header, *rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert header["iterations"] == 4
    assert header["fixed"] == "iir=1"
    bounds = {t["name"]: (t["low"], t["high"]) for t in header["tunables"]}
    theta = {t["name"]: float(t["start"]) for t in header["tunables"]}
    assert [row["k"] for row in rows] == [1, 2, 3, 4]
    for row in rows:
        wins, draws, losses = row["score"]
        assert wins + draws + losses == 2
        for name, (low, high) in bounds.items():
            plus, minus, after = row["plus"][name], row["minus"][name], row["theta"][name]
            assert low <= min(plus, minus)
            assert max(plus, minus) <= high
            assert low <= after <= high
            # The two engines straddle the current value (up to rounding to whole numbers).
            assert min(plus, minus) - 0.5 <= theta[name] <= max(plus, minus) + 0.5
            step = after - theta[name]
            if wins == losses:
                assert abs(step) < 0.01, (name, row)
            elif plus != minus:  # (rounded to the same number, the direction is not in the log)
                toward = plus if wins > losses else minus
                assert step * (toward - theta[name]) >= 0, (name, row)
            theta[name] = after
    final = json.loads(done.stdout.strip().splitlines()[-1])
    assert final == {name: round(value) for name, value in theta.items()}
