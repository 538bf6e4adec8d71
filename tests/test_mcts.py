"""congo.mcts: the batched tree search agrees with a plain-Python PUCT written here, finds forced
wins (by the rules and by the tables), treats a monkey chain's legs as one player's decisions,
never expands an illegal action, repeats itself for a seed, and turns bad input into ValueErrors."""

from __future__ import annotations

import math
import random
import zlib
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import congo  # noqa: E402
from congo import learning, mcts, tablebase  # noqa: E402
from congo.learning import NUM_ACTIONS, GameState, flip_action  # noqa: E402

from .tablebase_support import random_fen  # noqa: E402

# White's monkey on b1 captures Black's lion by the chain b1-d3-f5-d7 (three jumps); nothing else
# wins at once.
CHAIN_WIN = "7/4l2/7/4c2/7/2p4/1M1L3 w 1"
POSITIONS = [
    congo.STARTING_FEN,
    CHAIN_WIN,
    "gmelecz/ppppppp/7/7/2E4/PPPPPPP/GM1LECZ b 1",
    "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35",
]


def fake_network(planes: Any, masks: Any) -> tuple[Any, Any]:
    """A deterministic stand-in for a network: priors and a value drawn from a hash of each row's
    planes, with weight piled on illegal actions (which the search must ignore)."""
    priors = np.empty(masks.shape, np.float32)
    values = np.empty(len(masks), np.float32)
    for i, row in enumerate(planes):
        rng = np.random.default_rng(zlib.crc32(row.tobytes()))
        priors[i] = rng.random(NUM_ACTIONS, dtype=np.float32)
        priors[i][~masks[i]] = 1000.0
        values[i] = rng.uniform(-1, 1)
    return priors, values


def uniform_network(planes: Any, masks: Any) -> tuple[Any, Any]:
    return np.ones(masks.shape, np.float32), np.zeros(len(masks), np.float32)


class Node:
    """A node of the plain-Python search."""

    def __init__(self, game: GameState, chooser: bool) -> None:
        self.game = game
        self.turn = game.turn
        self.chooser = chooser  # the player who chose the edge into this node
        self.visits = 0
        self.value_sum = 0.0
        self.priors: dict[int, float] | None = None  # game-frame action -> prior, once expanded
        self.children: dict[int, Node] = {}


def reference_puct(
    game: GameState, network: Any, simulations: int, *, c_puct: float = 1.25, side_to_move: bool = True
) -> tuple[list[int], float]:
    """AlphaZero's PUCT as docs/learning.md states it, one leaf at a time: root visits (in the
    perspective's frame) and the root's value."""

    def frame(turn: bool, action: int) -> int:
        return flip_action(action) if side_to_move and not turn else action

    def expand(node: Node) -> float:
        planes = np.frombuffer(node.game.observation(side_to_move=side_to_move), np.uint8)
        mask = np.frombuffer(node.game.action_mask(side_to_move=side_to_move), np.uint8).astype(bool)
        priors, values = network(planes.reshape(1, 23, 7, 7), mask.reshape(1, -1))
        legal = node.game.legal_actions()
        raw = [float(priors[0][frame(node.turn, a)]) for a in legal]
        total = 0.0
        for p in raw:
            total += p
        node.priors = {a: (p / total if total > 0 else 1.0 / len(legal)) for a, p in zip(legal, raw)}
        return float(values[0])

    def select(node: Node) -> int:
        assert node.priors is not None
        sqrt_n = math.sqrt(node.visits)
        best, pick = -math.inf, -1
        for action in sorted(node.priors):
            child = node.children.get(action)
            n = child.visits if child else 0
            q = child.value_sum / n if child and n else 0.0
            score = q + c_puct * node.priors[action] * sqrt_n / (1 + n)
            if score > best:
                best, pick = score, action
        return pick

    def backup(path: list[Node], value: float, turn: bool) -> None:
        for node in path:
            node.visits += 1
            node.value_sum += value if node.chooser == turn else -value

    root = Node(game.copy(), game.turn)
    backup([root], expand(root), root.turn)
    for _ in range(simulations):
        node, path = root, [root]
        while node.priors is not None:
            action = select(node)
            if action not in node.children:
                child_game = node.game.copy()
                child_game.apply(action)
                node.children[action] = Node(child_game, node.turn)
            node = node.children[action]
            path.append(node)
        if node.game.is_over():
            winner = node.game.winner
            value = 0.0 if winner is None else (1.0 if winner == node.turn else -1.0)
        else:
            value = expand(node)
        backup(path, value, node.turn)
    visits = [0] * NUM_ACTIONS
    for action, child in root.children.items():
        visits[frame(root.turn, action)] = child.visits
    return visits, root.value_sum / root.visits


@pytest.mark.parametrize("fen", POSITIONS)
@pytest.mark.parametrize("perspective", ["side_to_move", "white"])
def test_visits_equal_a_plain_python_puct(fen: str, perspective: str) -> None:
    game = GameState(congo.Position(fen))
    side_to_move = perspective == "side_to_move"
    expected, value = reference_puct(game, fake_network, 150, side_to_move=side_to_move)
    [result] = mcts.search([game], fake_network, simulations=150, perspective=perspective, seed=0)
    assert result.visits.tolist() == expected
    assert result.value == value
    assert result.simulations == 150


def test_visits_equal_the_reference_with_another_c_puct_and_many_roots() -> None:
    games = [GameState(congo.Position(fen)) for fen in POSITIONS]
    results = mcts.search(games, fake_network, simulations=60, c_puct=3.0, seed=5)
    for game, result in zip(games, results):
        expected, value = reference_puct(game, fake_network, 60, c_puct=3.0)
        assert result.visits.tolist() == expected
        assert result.value == value


def test_masks_never_expand_an_illegal_action() -> None:
    """Every mask the network sees is the position's own, and visits land on legal actions only."""
    seen: list[tuple[Any, Any]] = []

    def recording(planes: Any, masks: Any) -> tuple[Any, Any]:
        seen.extend(zip(planes.copy(), masks.copy()))
        return fake_network(planes, masks)

    game = GameState(congo.Position(CHAIN_WIN))
    [result] = mcts.search([game], recording, simulations=100, perspective="white", seed=0)
    root_mask = np.frombuffer(game.action_mask(), np.uint8).astype(bool)
    assert (result.visits[~root_mask] == 0).all()
    assert result.visits[root_mask].sum() == 100
    assert all(mask.any() for _, mask in seen)
    assert (seen[0][1] == root_mask).all()
    # NaN and infinity on illegal actions change nothing: they are not read.

    def poisoned(planes: Any, masks: Any) -> tuple[Any, Any]:
        priors, values = fake_network(planes, masks)
        priors[~masks] = np.nan
        return priors, values

    [again] = mcts.search([game], poisoned, simulations=100, perspective="white", seed=0)
    assert again.visits.tolist() == result.visits.tolist()


def test_a_forced_win_through_a_monkey_chain_is_found_and_kept_positive() -> None:
    """The chain's legs are White's three decisions in a row: White's value stays positive at each
    and the search plays the chain to the lion, never stopping early."""
    game = GameState(congo.Position(CHAIN_WIN))
    tree = mcts.Search([game], seed=1)
    played: list[str] = []
    while not tree.is_over(0):
        [result] = tree.run(uniform_network, 200)
        assert tree.game(0).turn  # White acts at every leg
        assert result.value > 0.5, played
        played.append(learning.action_name(result.game_action))
        tree.advance(result.best_action)
    assert played == ["b1d3", "d3f5", "f5d7"]
    final = tree.game(0)
    assert final.winner is True
    assert final.end == "lion_captured"
    [over] = tree.results()
    assert over.best_action == -1
    assert over.visits.sum() == 0


def test_the_threatened_side_saves_its_lion() -> None:
    """Black to move against the chain: the search (from Black's side) moves the lion out of it."""
    fen = "7/4l2/7/4c2/7/2p4/1M1L3 b 1"
    [result] = mcts.search([fen], uniform_network, simulations=400, seed=2)
    game = GameState(congo.Position(fen))
    assert game.apply(result.game_action)  # a whole move: Black has no monkey
    after = congo.Board(game.position.fen())
    for move in after.legal_moves:
        probe = after.copy()
        probe.push(move)
        outcome = probe.outcome()
        assert outcome is None or outcome.winner is not congo.WHITE, move.uci()


def test_gumbel_finds_the_forced_win() -> None:
    game = GameState(congo.Position(CHAIN_WIN))
    [result] = mcts.search(
        [game], uniform_network, simulations=64, gumbel=True, considered_actions=16, seed=3
    )
    assert learning.action_name(result.game_action) == "b1d3"
    assert result.policy.sum() == pytest.approx(1.0, abs=1e-5)
    assert result.policy.argmax() == result.best_action
    assert result.simulations == 64


def test_sequential_halving_spends_the_budget_on_the_considered_actions() -> None:
    [result] = mcts.search(
        [congo.Board()], fake_network, simulations=100, gumbel=True, considered_actions=4, seed=4
    )
    visited = np.flatnonzero(result.visits)
    assert len(visited) == 4  # Gumbel-top-4 of 24 legal moves
    assert result.visits[result.best_action] == result.visits.max()
    assert result.simulations == 100


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("mcts-tables")
    tablebase.generate(directory, men=3)
    return directory


def test_tablebase_values_are_exact(tables: Path) -> None:
    """In three-man positions the tables decide: the search plays a winning move in won positions
    and reports the win, with a network that knows nothing."""
    tb = tablebase.open_tablebase(tables)
    rng = random.Random(7)
    won = 0
    while won < 5:
        board = congo.Board(random_fen(rng, rng.choice(["LZvL", "LEvL", "LCvL", "LGvL"])))
        if board.is_game_over() or tb.probe_wdl(board) != 1:
            continue
        won += 1
        [result] = mcts.search([board], uniform_network, simulations=300, tablebase=tables, seed=won)
        game = GameState(board.position)
        game.apply(result.game_action)
        assert game.chain is None
        after = congo.Board(game.position.fen())
        assert after.is_game_over() or tb.probe_wdl(after) == -1, board.fen()
        assert result.value > 0.9


def test_tree_reuse_keeps_the_subtree() -> None:
    tree = mcts.Search([congo.Board()], seed=0)
    [first] = tree.run(fake_network, 300)
    kept = int(first.visits[first.best_action])
    tree.advance(first.best_action)
    [reused] = tree.results()
    assert reused.simulations == kept - 1  # the child's own evaluation is not a child's visit
    [second] = tree.run(fake_network, 50)
    assert second.simulations == kept - 1 + 50
    # The same search from scratch at the new root differs only by the kept visits.
    fresh = mcts.Search([tree.game(0)], seed=0)
    [alone] = fresh.run(fake_network, 50)
    assert alone.simulations == 50


def test_virtual_loss_batches_leaves() -> None:
    roots = [congo.Board()] * 3
    tree = mcts.Search(roots, leaves_per_tree=8, seed=0)
    results = tree.run(fake_network, 200)
    assert all(r.simulations == 200 for r in results)
    assert tree.batches < 200 / 4  # leaves were collected several at a time
    assert tree.evaluations <= 3 * 201
    single = mcts.Search(roots, leaves_per_tree=1, seed=0)
    single.run(fake_network, 200)
    assert single.batches == 201  # the roots, then one leaf per tree and batch


def test_the_same_seed_gives_the_same_result_on_any_threads() -> None:
    def run(seed: int, threads: int, gumbel: bool) -> list[list[int]]:
        results = mcts.search(
            [congo.Board(fen) for fen in POSITIONS] * 8,  # two threads get 16 trees each
            fake_network,
            simulations=80,
            dirichlet_alpha=0.3,
            leaves_per_tree=4,
            gumbel=gumbel,
            temperature=0.0 if gumbel else 1.0,
            seed=seed,
            threads=threads,
        )
        return [[*r.visits.tolist(), r.best_action] for r in results]

    for gumbel in (False, True):
        once = run(11, 1, gumbel)
        assert run(11, 1, gumbel) == once
        assert run(11, 2, gumbel) == once
        assert run(12, 1, gumbel) != once


def test_dirichlet_noise_changes_the_root_only() -> None:
    [plain] = mcts.search([congo.Board()], fake_network, simulations=100, seed=0)
    [noisy] = mcts.search([congo.Board()], fake_network, simulations=100, dirichlet_alpha=0.3, seed=0)
    assert plain.visits.tolist() != noisy.visits.tolist()
    assert noisy.simulations == 100


def test_temperature_samples_in_proportion_to_visits() -> None:
    tree = mcts.Search([congo.Board()], seed=0)
    [result] = tree.run(uniform_network, 100)
    picks = {tree.results(temperature=1.0)[0].best_action for _ in range(50)}
    assert len(picks) > 1
    assert all(result.visits[a] > 0 for a in picks)
    assert tree.results()[0].best_action == result.best_action


class Wrong:
    """Networks that answer wrongly, each in its own way."""

    @staticmethod
    def shape(planes: Any, masks: Any) -> Any:
        return np.ones((len(masks), 10), np.float32), np.zeros(len(masks), np.float32)

    @staticmethod
    def dtype(planes: Any, masks: Any) -> Any:
        return np.ones(masks.shape, np.int64), np.zeros(len(masks), np.float32)

    @staticmethod
    def values(planes: Any, masks: Any) -> Any:
        return np.ones(masks.shape, np.float32), np.zeros(len(masks) + 1, np.float32)

    @staticmethod
    def nan(planes: Any, masks: Any) -> Any:
        return np.full(masks.shape, np.nan, np.float32), np.zeros(len(masks), np.float32)

    @staticmethod
    def negative(planes: Any, masks: Any) -> Any:
        return -np.ones(masks.shape, np.float32), np.zeros(len(masks), np.float32)

    @staticmethod
    def big_value(planes: Any, masks: Any) -> Any:
        return np.ones(masks.shape, np.float32), np.full(len(masks), 2.0, np.float32)

    @staticmethod
    def not_a_pair(planes: Any, masks: Any) -> Any:
        return np.ones(masks.shape, np.float32)


@pytest.mark.parametrize(
    "network", ["shape", "dtype", "values", "nan", "negative", "big_value", "not_a_pair"]
)
def test_a_wrong_answer_is_a_value_error_and_the_search_goes_on(network: str) -> None:
    tree = mcts.Search([congo.Board()], seed=0)
    tree.run(fake_network, 10)
    with pytest.raises(ValueError, match=r"evaluate|prior|value"):
        tree.run(getattr(Wrong, network), 10)
    [result] = tree.run(fake_network, 10)
    assert result.simulations >= 20


def test_an_exception_in_evaluate_leaves_the_search_usable() -> None:
    calls = 0

    def flaky(planes: Any, masks: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise RuntimeError("the network broke")
        return fake_network(planes, masks)

    tree = mcts.Search([congo.Board()], leaves_per_tree=4, seed=0)
    with pytest.raises(RuntimeError):
        tree.run(flaky, 100)
    [result] = tree.run(flaky, 30)
    assert result.simulations >= 30


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"simulations": 0}, "simulations"),
        ({"simulations": 10, "c_puct": -1.0}, "c_puct"),
        ({"simulations": 10, "c_puct": math.nan}, "c_puct"),
        ({"simulations": 10, "leaves_per_tree": 0}, "leaves_per_tree"),
        ({"simulations": 10, "dirichlet_alpha": 0.0}, "dirichlet_alpha"),
        ({"simulations": 10, "dirichlet_fraction": 1.5}, "dirichlet_fraction"),
        ({"simulations": 10, "virtual_loss": -1.0}, "virtual_loss"),
        ({"simulations": 10, "gumbel": True, "considered_actions": 0}, "considered_actions"),
        ({"simulations": 10, "perspective": "black"}, "perspective"),
        ({"simulations": 10, "threads": 0}, "threads"),
        ({"simulations": 10, "temperature": -1.0}, "temperature"),
    ],
)
def test_bad_settings_are_value_errors(options: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        mcts.search([congo.Board()], uniform_network, **options)


def test_bad_roots_and_actions_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="at least one root"):
        mcts.search([], uniform_network, simulations=1)
    with pytest.raises(ValueError, match="finished game"):
        mcts.search(["7/7/7/3l3/7/7/7 w 1"], uniform_network, simulations=1)  # White's lion is gone
    with pytest.raises(TypeError, match="root"):
        mcts.search([42], uniform_network, simulations=1)  # type: ignore[list-item]
    tree = mcts.Search([congo.Board()], seed=0)
    tree.run(uniform_network, 5)
    with pytest.raises(ValueError, match="not legal"):
        tree.advance(0)  # a1 north: the pawn on a2
    with pytest.raises(ValueError, match=r"out of range|action"):
        tree.advance(NUM_ACTIONS)
    with pytest.raises(ValueError, match="one per root"):
        tree.advance([1, 2])


def test_a_board_root_keeps_its_repetition_history() -> None:
    """A board's move stack counts: two more repetitions of the knight shuffle draw the game, and
    the search sees the draw as the rules decide it (a threefold repetition)."""
    board = congo.Board()
    for uci in ["g1f3", "g7f5", "f3g1", "f5g7"] * 1 + ["g1f3", "g7f5", "f3g1"]:
        board.push_uci(uci)
    game = mcts._game_of(board, 300)
    assert game.repetitions == 1
    drawing = game.copy()
    drawing.push(congo.Move.from_uci("f5g7"))
    assert drawing.end == "threefold_repetition"


def network_file(path: Path, seed: int = 0) -> Path:
    mcts.MlpNetwork.random(hidden=(16,), seed=seed).save(path)
    return path


def test_a_network_file_round_trips_and_plays(tmp_path: Path) -> None:
    network = mcts.MlpNetwork.random(hidden=(8, 8), seed=1)
    network.save(tmp_path / "net.npz")
    loaded = mcts.MlpNetwork.load(tmp_path / "net.npz")
    planes = learning.encode([congo.Board()] * 2, perspective="side_to_move")
    masks = np.ones((2, NUM_ACTIONS), bool)
    for got, want in zip(loaded(planes, masks), network(planes, masks)):
        assert np.array_equal(got, want)
    priors, values = loaded(planes, masks)
    assert priors.shape == (2, NUM_ACTIONS)
    assert values.shape == (2,)
    assert np.allclose(priors.sum(axis=1), 1.0)
    (tmp_path / "bad.npz").write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not a congo network"):
        mcts.MlpNetwork.load(tmp_path / "bad.npz")
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(ValueError, match="not a congo network"):
        mcts.MlpNetwork.load(tmp_path / "other.npz")


def test_a_save_that_fails_leaves_the_file_that_was_there(tmp_path: Path, monkeypatch: Any) -> None:
    path = tmp_path / "net.npz"
    mcts.MlpNetwork.random(hidden=(8,), seed=1).save(path)
    before = path.read_bytes()

    def savez_then_fail(file: Any, **arrays: Any) -> None:
        file.write(b"half a network")
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez", savez_then_fail)
    with pytest.raises(OSError, match="disk full"):
        mcts.MlpNetwork.random(hidden=(8,), seed=2).save(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net.npz"]


def test_a_damaged_network_file_is_a_value_error(tmp_path: Path) -> None:
    # A file cut short, a member whose bytes changed, or a header field of the wrong shape is a
    # ValueError naming the file, as load documents, not zipfile's or numpy's own exception.
    path = tmp_path / "net.npz"
    mcts.MlpNetwork.random(hidden=(8,), seed=1).save(path)
    data = path.read_bytes()
    (tmp_path / "short.npz").write_bytes(data[: len(data) // 2])
    changed = bytearray(data)
    at = data.index(b"policy_weight") + 200  # inside that member's stored bytes
    changed[at] ^= 0xFF
    (tmp_path / "changed.npz").write_bytes(bytes(changed))
    np.savez(tmp_path / "shape.npz", format=np.array(mcts.NETWORK_FORMAT), version=np.array([1, 1]))
    for name in ("short.npz", "changed.npz", "shape.npz"):
        with pytest.raises(ValueError, match=name):
            mcts.MlpNetwork.load(tmp_path / name)


def test_an_mcts_player_plays_a_match(tmp_path: Path) -> None:
    from congo import match

    net = network_file(tmp_path / "tiny.npz")
    spec = f"mcts:net={net},sims=16"
    name, factory = match.parse_player(spec)
    assert name == spec
    result = match.run_match((name, factory), match.parse_player("random"), games=2, max_plies=30)
    assert result.wins + result.draws + result.losses == 2
    player = factory(3)
    board = congo.Board(CHAIN_WIN)
    move = player.choose(board)
    assert move in board.legal_moves


class _Counting:
    """A network that counts the leaves it is asked about (one a simulation)."""

    def __init__(self, network: Any) -> None:
        self.network = network
        self.perspective = network.perspective
        self.leaves = 0

    def __call__(self, planes: Any, masks: Any) -> Any:
        self.leaves += len(planes)
        return self.network(planes, masks)


@pytest.mark.parametrize("gumbel", [False, True], ids=["puct", "gumbel"])
def test_the_mcts_player_keeps_to_its_clock(gumbel: bool) -> None:
    from congo.engine import Limit

    network = _Counting(mcts.MlpNetwork.random(hidden=(16,), seed=0))
    player = mcts.MctsPlayer(network, sims=1_000_000, gumbel=gumbel, seed=1)  # type: ignore[arg-type]
    board = congo.Board()
    # Half a second in sudden death: less than the 30 ms kept back once shared over 30 moves, so
    # the search stops after its first slice, where a million simulations would take minutes.
    for limit in (Limit(white_clock=0.5, black_clock=0.5), Limit(white_clock=0.5, white_inc=0.0)):
        network.leaves = 0
        assert player.play(board, limit).move in board.legal_moves
        assert 1 <= network.leaves <= 1 + 8  # the root, then a leaf a simulation at most
    # Without a clock it searches all of its simulations.
    network.leaves = 0
    slow = mcts.MctsPlayer(network, sims=300, gumbel=gumbel, seed=1)  # type: ignore[arg-type]
    assert slow.play(board, None).move in board.legal_moves
    assert 250 <= network.leaves <= 1 + 300


def test_the_mcts_players_share_of_a_clock() -> None:
    from congo.engine import Limit
    from congo.mcts import _move_budget

    assert _move_budget(Limit(), True) is None
    assert _move_budget(Limit(time=0.25), False) == 0.25
    # A thirtieth of the time left, most of the increment, 30 ms back; at most 40 % of the clock.
    assert _move_budget(Limit(white_clock=60, white_inc=1), True) == pytest.approx(2 + 0.8 - 0.03)
    assert _move_budget(Limit(black_clock=10, remaining_moves=5), False) == pytest.approx(2 - 0.03)
    assert _move_budget(Limit(black_clock=1, black_inc=5), False) == pytest.approx(0.4 - 0.03)
    assert _move_budget(Limit(white_clock=-3), True) == 0.0  # a fallen flag
    assert _move_budget(Limit(white_clock=60, time=0.5), True) == 0.5
    assert _move_budget(Limit(black_clock=60), True) is None  # only the side to move's clock


def test_the_committed_alphazero_network_beats_alphabeta_depth_1() -> None:
    # benches/results/alphazero-network.npz: the two-hour run of examples/alphazero.py
    # (benches/results/alphazero.txt), which beat alphabeta:depth=1 100-0 at 200 simulations a
    # move, where an untrained network scores about one game in ten.
    from congo import match

    net = Path(__file__).resolve().parent.parent / "benches" / "results" / "alphazero-network.npz"
    network = mcts.MlpNetwork.load(net)
    assert [w.shape for w, _ in network.hidden] == [(1127, 256), (256, 256)]
    result = match.run_match(
        match.parse_player(f"mcts:net={net},sims=200"),
        match.parse_player("alphabeta:depth=1"),
        games=2,
        seed=1,
    )
    assert result.wins == 2


@pytest.mark.parametrize(
    ("spec", "match_text"),
    [
        ("mcts:sims=10", "net=FILE"),
        ("mcts:net={net},sims=0", "sims"),
        ("mcts:net={net},sims=ten", "sims"),
        ("mcts:net={net},depth=3", "takes no settings"),
        ("mcts:net={missing}", "No such file|missing"),
    ],
)
def test_bad_mcts_players_are_clear_errors(tmp_path: Path, spec: str, match_text: str) -> None:
    from congo import match

    net = network_file(tmp_path / "tiny.npz")
    text = spec.format(net=net, missing=tmp_path / "missing.npz")
    with pytest.raises((ValueError, OSError), match=match_text):
        match.parse_player(text)


def test_selection_and_expansion_release_the_gil() -> None:
    from .gil import assert_releases_the_gil

    tree = mcts.Search([congo.Board()] * 256, leaves_per_tree=32, seed=0)
    core = tree._core
    core.begin(100_000)

    def step() -> None:
        rows = core.select()
        wanted = np.frombuffer(core.prior_indices(), np.uint32)
        core.expand(np.ones(len(wanted), np.float32), np.zeros(rows, np.float32))

    step()  # the roots
    assert_releases_the_gil(step)


def test_the_player_plays_a_whole_chain_as_one_move(tmp_path: Path) -> None:
    network = mcts.MlpNetwork.load(network_file(tmp_path / "tiny.npz"))
    player = mcts.MctsPlayer(network, sims=300, seed=1)
    board = congo.Board(CHAIN_WIN)
    move = player.choose(board)
    assert move.uci() == "b1d3f5d7"
    board.push(move)
    assert board.outcome() is not None


def test_reset_starts_a_root_afresh_and_an_opened_tablebase_serves(tables: Path) -> None:
    tree = mcts.Search([congo.Board(), CHAIN_WIN], tablebase=tablebase.open_tablebase(tables), seed=0)
    tree.run(uniform_network, 20)
    tree.reset(0, CHAIN_WIN)
    [fresh, kept] = tree.results()
    assert fresh.simulations == 0
    assert fresh.best_action == -1  # not searched yet
    assert kept.simulations == 20
    [again, _] = tree.run(uniform_network, 200)
    assert learning.action_name(again.game_action) == "b1d3"
    with pytest.raises(ValueError, match="finished game"):
        tree.reset(1, "7/7/7/3l3/7/7/7 w 1")
