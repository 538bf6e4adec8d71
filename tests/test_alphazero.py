"""examples/alphazero.py: one tiny iteration of self-play and training, a checkpoint that resumes,
and an exported network that the ``mcts:net=FILE`` player plays with."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

import congo
from congo import learning

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "alphazero.py"
TINY = ["--hidden", "16", "--games", "2", "--moves", "4", "--sims", "4", "--max-plies", "2"]
TINY += ["--batch", "2", "--train-steps", "1", "--buffer", "64", "--seed", "3"]


@pytest.fixture(scope="module")
def alphazero() -> ModuleType:
    spec = importlib.util.spec_from_file_location("alphazero_example", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def log_of(out: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (out / "log.jsonl").read_text(encoding="utf-8").splitlines()]


def test_one_iteration_trains_resumes_and_exports_a_player(alphazero: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert alphazero.main(["--out", str(out), "--iterations", "1", *TINY]) == 0
    [first] = log_of(out)
    assert first["iteration"] == 1
    assert first["train_steps"] == 1
    assert isinstance(first["games"], int)
    assert first["games"] >= 2  # two plies a game: each game ended within its four decisions
    assert isinstance(first["policy_loss"], float)
    assert isinstance(first["value_loss"], float)
    saved = torch.load(out / "checkpoint.pt", weights_only=False)
    assert saved["iteration"] == 1
    assert saved["replay"]["results"].shape[0] > 0

    # The second run resumes: the first iteration's record is kept, the counters go on.
    assert alphazero.main(["--out", str(out), "--iterations", "2", *TINY]) == 0
    log = log_of(out)
    assert [record["iteration"] for record in log] == [1, 2]
    assert log[0] == first
    assert log[1]["train_steps"] == 2
    assert isinstance(log[1]["games"], int)
    assert log[1]["games"] > first["games"]

    # The export is the trained model: the numpy network gives the PyTorch model's priors and values.
    saved = torch.load(out / "checkpoint.pt", weights_only=False)
    model = alphazero.make_model(saved["hidden"])
    model.load_state_dict(saved["model"])
    model.eval()
    network = congo.mcts.MlpNetwork.load(out / "network.npz")
    game = learning.GameState()
    planes = np.frombuffer(game.observation(side_to_move=True), np.uint8).reshape(
        1, learning.NUM_PLANES, *learning.BOARD_SHAPE
    )
    masks = np.frombuffer(game.action_mask(side_to_move=True), np.uint8).astype(bool).reshape(1, -1)
    priors, values = network(planes, masks)
    torch_priors, torch_values = alphazero.evaluator(model)(planes, masks)
    np.testing.assert_allclose(priors, torch_priors, atol=1e-5)
    np.testing.assert_allclose(values, torch_values, atol=1e-5)

    # ... and plays in a match as mcts:net=FILE.
    from congo import match

    spec = f"mcts:net={out / 'network.npz'},sims=8"
    result = match.run_match(match.parse_player(spec), match.parse_player("random"), games=2, max_plies=20)
    assert result.wins + result.draws + result.losses == 2


def test_a_spent_budget_runs_no_iteration(alphazero: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert alphazero.main(["--out", str(out), "--iterations", "1", *TINY]) == 0
    saved = torch.load(out / "checkpoint.pt", weights_only=False)
    hours = saved["elapsed"] / 3600 / 2  # less than already spent
    assert alphazero.main(["--out", str(out), "--hours", str(hours), *TINY]) == 0
    assert [record["iteration"] for record in log_of(out)] == [1]


def test_bad_settings_are_clear_errors(
    alphazero: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        alphazero.main(["--out", str(tmp_path / "run"), "--hidden", "16,x"])
    assert exit_info.value.code == 2
    assert "--hidden must be sizes" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
