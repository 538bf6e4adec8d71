"""A batched Monte Carlo tree search that calls *your* network: many trees at once (one per root),
each step handing ``evaluate`` one batch of leaf planes and legal-action masks from every tree and
taking back priors and values, as numpy arrays (any framework can sit behind them).

Selection, expansion and backup run in Rust with the GIL released; only ``evaluate`` runs with it.
The search is AlphaZero's PUCT, optionally with Gumbel root selection (Danihelka et al., 2022);
monkey-chain legs are the same player's consecutive decisions; finished games (and, with a
tablebase, positions in the tables) take their exact values. The conventions are documented in
``docs/learning.md`` ("Tree search").

>>> import congo, congo.mcts as mcts, numpy as np
>>> def uniform(planes, masks):
...     return np.ones(masks.shape, np.float32), np.zeros(len(masks), np.float32)
>>> [result] = mcts.search([congo.Board()], uniform, simulations=64, seed=1)
>>> int(result.visits.sum())
64

Needs numpy (``pip install 'congo-chess[numpy]'``).
"""

from __future__ import annotations

import secrets
import time
import zipfile
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from congo import _core
from congo._core import DEFAULT_MAX_PLIES, Move, Position
from congo.board import Board
from congo.engine import Limit, PlayResult
from congo.files import atomic_output
from congo.learning import (
    BOARD_SHAPE,
    NUM_ACTIONS,
    NUM_PLANES,
    PERSPECTIVES,
    GameState,
    flip_action,
)
from congo.players import Player

try:
    import numpy as np
except ImportError as error:  # pragma: no cover - the extra is missing
    from congo._extras import pip_install

    raise ImportError(f"congo.mcts returns numpy arrays and needs numpy: {pip_install('numpy')}") from error

if TYPE_CHECKING:
    import numpy.typing as npt

    from congo.tablebase import Tablebase

__all__ = [
    "NETWORK_FORMAT",
    "MctsPlayer",
    "MlpNetwork",
    "Search",
    "SearchResult",
    "search",
]

Root = Union[Board, GameState, Position, str]
"""A root: a :class:`~congo.Board` (its move stack gives the repetition history), a
:class:`congo.learning.GameState` (mid-chain too), a :class:`~congo.Position` or a FEN."""

Evaluate = Callable[["npt.NDArray[np.uint8]", "npt.NDArray[np.bool_]"], tuple[Any, Any]]
"""``evaluate(planes, masks) -> (priors, values)``: planes ``uint8 (B, NUM_PLANES, 7, 7)``, masks
``bool (B, NUM_ACTIONS)``; priors ``(B, NUM_ACTIONS)`` and values ``(B,)``, floating point."""


@dataclass(frozen=True)
class SearchResult:
    """What a search found at one root. Actions are in the perspective's frame (that of the masks
    ``evaluate`` saw): with ``perspective="side_to_move"`` and Black to move, ``best_action`` is
    :func:`~congo.learning.flip_action` of the game's action (see :attr:`game_action`)."""

    visits: npt.NDArray[np.uint32]
    """Visits of each root action (``NUM_ACTIONS`` entries); they sum to the simulations run
    (more after :meth:`Search.advance` kept a subtree)."""
    policy: npt.NDArray[np.float32]
    """The search's policy, a training target: the visit distribution (PUCT) or the improved
    policy ``softmax(logits + sigma(completed Q))`` (Gumbel); all zeros for a finished game."""
    value: float
    """The root's mean value for the player to act there, in [-1, 1]."""
    best_action: int
    """The action chosen (``-1`` for a finished game, or a root not searched yet): the most
    visited (PUCT, ``temperature=0``; the first in the game's action order among equals), a
    visit-count sample (``temperature>0``), or sequential halving's winner (Gumbel)."""
    game_action: int
    """:attr:`best_action` in the game's frame (White's), as :meth:`congo.learning.GameState.apply`
    takes it (``-1`` for a finished game)."""

    @property
    def simulations(self) -> int:
        """The visits of the root's actions (the simulations behind this result)."""
        return int(self.visits.sum())


def _game_of(root: object, max_plies: int) -> GameState:
    if isinstance(root, GameState):
        return root.copy()
    if isinstance(root, Board):
        game = GameState(root.root().position, max_plies)
        for move in root.move_stack:
            game.push(move)
        return game
    if isinstance(root, Position):
        return GameState(root, max_plies)
    if isinstance(root, str):
        return GameState(Position(root), max_plies)
    raise TypeError(
        "a root must be a congo.Board, congo.learning.GameState, congo.Position or FEN, "
        f"got {type(root).__name__}"
    )


def _float_array(value: object, name: str, shape: tuple[int, ...]) -> npt.NDArray[Any]:
    """``value`` as a flat floating-point array, checked to have ``shape``."""
    array = np.asarray(value)
    if array.dtype.kind != "f":
        raise ValueError(f"evaluate returned {name} of dtype {array.dtype}: expected floating point")
    if array.shape != shape and not (name == "values" and array.shape == (shape[0], 1)):
        raise ValueError(f"evaluate returned {name} of shape {array.shape}: expected {shape}")
    return array.reshape(-1)


class Search:
    """Search trees for ``roots``, kept between runs: :meth:`run` adds simulations to every tree,
    :meth:`advance` plays an action at each root keeping the subtree below it (tree reuse).

    * ``c_puct``: PUCT's exploration constant, ``argmax Q + c_puct · P · √N(parent) / (1 + N)``.
    * ``gumbel=True``: Gumbel root selection — ``considered_actions`` actions sampled by
      Gumbel-top-k from the priors, sequential halving among them over each run's simulations,
      PUCT below the root; ``best_action`` is the halving's winner and ``policy`` the improved
      policy. Without it, PUCT at the root too.
    * ``dirichlet_alpha``: Dirichlet noise on the root's priors (once per root), mixed in with
      ``dirichlet_fraction``.
    * ``leaves_per_tree``: leaves each tree gives each batch, collected with virtual loss (a waiting
      leaf counts as ``virtual_loss`` lost along its path); a descent that meets a leaf already
      in the batch ends that tree's collection for the step. ``1`` is plain sequential PUCT.
    * ``tablebase``: a directory of tables or an opened :class:`congo.tablebase.Tablebase`: leaves
      in the tables (between moves) take their exact value and are not expanded.
    * ``perspective``: ``"side_to_move"`` (the default) or ``"white"``, the frame of the planes,
      masks, priors and actions (:data:`congo.learning.PERSPECTIVES`).
    * ``max_plies``: the ply limit (a draw) of roots made from boards, positions and FENs, counted
      from the start of a board's move stack (a :class:`~congo.learning.GameState` keeps its own).
    * ``seed``: the Dirichlet and Gumbel noise and temperature samples, per tree (the same seed
      gives the same results on any number of ``threads``).
    * ``threads``: threads sharing the trees of a step.

    Raises ``ValueError`` for a setting out of range or a root whose game is over.
    """

    def __init__(
        self,
        roots: Iterable[Root],
        *,
        c_puct: float = 1.25,
        gumbel: bool = False,
        considered_actions: int = 16,
        dirichlet_alpha: float | None = None,
        dirichlet_fraction: float = 0.25,
        leaves_per_tree: int = 1,
        virtual_loss: float = 1.0,
        tablebase: str | Path | Tablebase | None = None,
        perspective: str = "side_to_move",
        max_plies: int = DEFAULT_MAX_PLIES,
        seed: int | None = None,
        threads: int = 1,
    ) -> None:
        if perspective not in PERSPECTIVES:
            raise ValueError(f"perspective must be one of {PERSPECTIVES}, got {perspective!r}")
        games = [_game_of(root, max_plies) for root in roots]
        core_tablebase = None
        if tablebase is not None:
            from congo.tablebase import Tablebase

            opened = tablebase if isinstance(tablebase, Tablebase) else Tablebase(tablebase)
            core_tablebase = opened._tb
        self.perspective = perspective
        self.seed: int = secrets.randbits(64) if seed is None else seed
        self._core = _core.MctsCore(
            games,
            seed=self.seed,
            c_puct=float(c_puct),
            side_to_move=perspective == "side_to_move",
            gumbel_considered=considered_actions if gumbel else None,
            dirichlet_alpha=None if dirichlet_alpha is None else float(dirichlet_alpha),
            dirichlet_fraction=float(dirichlet_fraction),
            leaves_per_tree=leaves_per_tree,
            virtual_loss=float(virtual_loss),
            threads=threads,
            tablebase=core_tablebase,
        )
        planes, masks = self._core.buffers()
        self._planes = np.frombuffer(planes, dtype=np.uint8).reshape(-1, NUM_PLANES, *BOARD_SHAPE)
        self._masks = np.frombuffer(masks, dtype=np.bool_).reshape(-1, NUM_ACTIONS)
        self._planes.flags.writeable = False
        self._masks.flags.writeable = False
        self.evaluations = 0
        """Rows evaluated so far (leaves and roots)."""
        self.batches = 0
        """Calls of ``evaluate`` so far."""

    def __len__(self) -> int:
        return len(self._core)

    def run(self, evaluate: Evaluate, simulations: int, *, temperature: float = 0.0) -> list[SearchResult]:
        """Runs ``simulations`` more simulations (at least 1) at every root, calling
        ``evaluate(planes, masks)`` once per batch, and returns one :class:`SearchResult` per root.
        The arrays ``evaluate`` receives are read-only views the next batch overwrites.
        ``temperature > 0`` samples the PUCT action from ``visits^(1/temperature)``.

        Raises ``ValueError`` for ``simulations < 1``, and for priors or values of the wrong
        shape or dtype, non-finite, negative priors of legal actions or values outside [-1, 1]
        (the batch is then not applied)."""
        if isinstance(simulations, bool) or not isinstance(simulations, int):
            raise TypeError(f"simulations must be an int, got {type(simulations).__name__}")
        if not (isinstance(temperature, (int, float)) and temperature >= 0):
            raise ValueError(f"temperature must be a number >= 0, got {temperature!r}")
        self._core.begin(simulations)
        while True:
            rows = self._core.select()
            if rows == 0:
                break
            try:
                answer = evaluate(self._planes[:rows], self._masks[:rows])
                if not (isinstance(answer, Sequence) and len(answer) == 2):
                    raise ValueError("evaluate must return a pair (priors, values)")
                priors = _float_array(answer[0], "priors", (rows, NUM_ACTIONS))
                values = _float_array(answer[1], "values", (rows,))
                # Only the legal actions' priors cross into Rust (a few dozen of each row's 1961).
                wanted = np.frombuffer(self._core.prior_indices(), dtype=np.uint32)
                gathered = np.ascontiguousarray(priors[wanted], dtype=np.float32)
                self._core.expand(gathered, np.ascontiguousarray(values, dtype=np.float32))
            except BaseException:
                # The trees stay usable: the batch's leaves are evaluated again by the next run.
                self._core.abandon()
                raise
            self.evaluations += rows
            self.batches += 1
        return self.results(temperature=temperature)

    def results(self, *, temperature: float = 0.0) -> list[SearchResult]:
        """Every root's result as the trees stand (what :meth:`run` returns)."""
        return [self._result(i, float(temperature)) for i in range(len(self))]

    def _result(self, index: int, temperature: float) -> SearchResult:
        visits, policy, value, best = self._core.result(index, temperature)
        game_action = best
        if best >= 0 and self.perspective == "side_to_move" and not self._core.game(index).turn:
            game_action = flip_action(best)
        return SearchResult(
            visits=np.frombuffer(visits, dtype=np.uint32),
            policy=np.frombuffer(policy, dtype=np.float32),
            value=value,
            best_action=best,
            game_action=game_action,
        )

    def advance(self, actions: int | Sequence[int | None]) -> None:
        """Plays an action (in the perspective's frame, as :attr:`SearchResult.best_action`) at
        each root — one per root, ``None`` to leave a root as it is; an int when there is one
        root — keeping the subtree below it for the next :meth:`run`. A game that ends stays
        finished (its result then has ``best_action == -1``) until :meth:`reset`. Raises
        ``ValueError`` for an illegal action (the roots before it have advanced)."""
        if isinstance(actions, int):
            actions = [actions]
        if len(actions) != len(self):
            raise ValueError(f"expected {len(self)} actions, one per root, got {len(actions)}")
        for i, action in enumerate(actions):
            if action is not None:
                self._core.advance(i, int(action))

    def reset(self, index: int, root: Root, *, max_plies: int = DEFAULT_MAX_PLIES) -> None:
        """Replaces root ``index`` by ``root``, its tree started afresh."""
        self._core.set_root(index, _game_of(root, max_plies))

    def game(self, index: int) -> GameState:
        """A copy of root ``index``'s game (without the record of moves before the search)."""
        game: GameState = self._core.game(index)
        return game

    def is_over(self, index: int) -> bool:
        """Whether root ``index``'s game is over."""
        return bool(self._core.is_over(index))


def search(
    roots: Iterable[Root],
    evaluate: Evaluate,
    *,
    simulations: int,
    c_puct: float = 1.25,
    dirichlet_alpha: float | None = None,
    seed: int | None = None,
    temperature: float = 0.0,
    gumbel: bool = False,
    considered_actions: int = 16,
    dirichlet_fraction: float = 0.25,
    leaves_per_tree: int = 1,
    virtual_loss: float = 1.0,
    tablebase: str | Path | Tablebase | None = None,
    perspective: str = "side_to_move",
    max_plies: int = DEFAULT_MAX_PLIES,
    threads: int = 1,
) -> list[SearchResult]:
    """Searches every root at once: ``simulations`` simulations each, ``evaluate`` called with
    batches of leaves from all trees. One :class:`SearchResult` per root. The settings are
    :class:`Search`'s; ``temperature`` is :meth:`Search.run`'s."""
    tree = Search(
        roots,
        c_puct=c_puct,
        gumbel=gumbel,
        considered_actions=considered_actions,
        dirichlet_alpha=dirichlet_alpha,
        dirichlet_fraction=dirichlet_fraction,
        leaves_per_tree=leaves_per_tree,
        virtual_loss=virtual_loss,
        tablebase=tablebase,
        perspective=perspective,
        max_plies=max_plies,
        seed=seed,
        threads=threads,
    )
    return tree.run(evaluate, simulations, temperature=temperature)


NETWORK_FORMAT = "congo-mlp"
"""The ``format`` entry of a network file."""


class MlpNetwork:
    """A small multilayer perceptron evaluated with numpy: what :class:`MctsPlayer` plays with, so
    that a trained agent needs no deep-learning framework at play time.

    A network file is a numpy ``.npz`` archive (no pickled objects) with the arrays
    ``format`` (``"congo-mlp"``), ``version`` (1), ``perspective`` (``"side_to_move"`` or
    ``"white"``: the frame of its planes and actions), ``hidden_weight_K`` ``(inputs, units)`` and
    ``hidden_bias_K`` ``(units,)`` for K = 0, 1, … (ReLU layers; the first takes the planes
    flattened, ``NUM_PLANES * 49`` inputs), ``policy_weight`` ``(units, NUM_ACTIONS)``,
    ``policy_bias``, ``value_weight`` ``(units,)`` and ``value_bias`` ``()``. Priors are the
    softmax of the policy logits over the legal actions, the value ``tanh`` of the value head.
    A PyTorch ``nn.Linear`` layer's ``weight`` is the transpose of ``hidden_weight_K``.
    """

    def __init__(
        self,
        hidden: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
        policy: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]],
        value: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]],
        *,
        perspective: str = "side_to_move",
    ) -> None:
        if perspective not in PERSPECTIVES:
            raise ValueError(f"perspective must be one of {PERSPECTIVES}, got {perspective!r}")
        self.perspective = perspective
        self.hidden = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in hidden]
        self.policy = (np.asarray(policy[0], np.float32), np.asarray(policy[1], np.float32))
        self.value = (
            np.asarray(value[0], np.float32).reshape(-1),
            np.asarray(value[1], np.float32).reshape(()),
        )
        inputs = NUM_PLANES * BOARD_SHAPE[0] * BOARD_SHAPE[1]
        for k, (w, b) in enumerate(self.hidden):
            if w.ndim != 2 or w.shape[0] != inputs or b.shape != (w.shape[1],):
                raise ValueError(
                    f"hidden layer {k}: weight {w.shape} and bias {b.shape} do not fit {inputs} inputs"
                )
            inputs = w.shape[1]
        if self.policy[0].shape != (inputs, NUM_ACTIONS) or self.policy[1].shape != (NUM_ACTIONS,):
            raise ValueError(f"the policy head must be ({inputs}, {NUM_ACTIONS}) and ({NUM_ACTIONS},)")
        if self.value[0].shape != (inputs,):
            raise ValueError(f"the value head must have {inputs} weights, got {self.value[0].shape}")

    @classmethod
    def random(cls, hidden: Sequence[int] = (64,), *, seed: int = 0, scale: float = 0.1) -> MlpNetwork:
        """A network of random weights (normal, standard deviation ``scale``): for tests and as
        the start of training."""
        rng = np.random.default_rng(seed)
        sizes = [NUM_PLANES * BOARD_SHAPE[0] * BOARD_SHAPE[1], *hidden]
        layers = [
            (rng.normal(0, scale, (a, b)).astype(np.float32), np.zeros(b, np.float32))
            for a, b in zip(sizes, sizes[1:])
        ]
        units = sizes[-1]
        policy = (
            rng.normal(0, scale, (units, NUM_ACTIONS)).astype(np.float32),
            np.zeros(NUM_ACTIONS, np.float32),
        )
        value = (rng.normal(0, scale, units).astype(np.float32), np.zeros((), np.float32))
        return cls(layers, policy, value)

    @classmethod
    def load(cls, path: str | Path) -> MlpNetwork:
        """Reads a network file. Raises ``ValueError`` for a file that is not one (and
        ``OSError`` when it cannot be read)."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        # A file cut short or changed fails in zipfile (BadZipFile, or zlib's error for a member).
        except (ValueError, EOFError, zipfile.BadZipFile, zlib.error) as error:
            raise ValueError(f"{path}: not a congo network file ({error})") from None
        version = arrays.get("version")
        if (
            str(arrays.get("format", "")) != NETWORK_FORMAT
            or version is None
            or np.ndim(version) != 0
            or version.item() != 1
        ):
            raise ValueError(f"{path}: not a congo network file (format {NETWORK_FORMAT!r} version 1)")
        try:
            hidden: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]] = []
            while f"hidden_weight_{len(hidden)}" in arrays:
                k = len(hidden)
                hidden.append((arrays[f"hidden_weight_{k}"], arrays[f"hidden_bias_{k}"]))
            return cls(
                hidden,
                (arrays["policy_weight"], arrays["policy_bias"]),
                (arrays["value_weight"], arrays["value_bias"]),
                perspective=str(arrays["perspective"]),
            )
        except KeyError as error:
            raise ValueError(f"{path}: the network file lacks {error}") from None

    def save(self, path: str | Path) -> None:
        """Writes the network file (see the class), whole or not at all: a temporary file beside
        ``path`` renamed into place (:func:`congo.files.atomic_output`), so an interrupted save
        leaves what was there. Raises ``OSError`` naming the path when it cannot be written."""
        arrays: dict[str, npt.NDArray[Any]] = {
            "format": np.array(NETWORK_FORMAT),
            "version": np.array(1),
            "perspective": np.array(self.perspective),
            "policy_weight": self.policy[0],
            "policy_bias": self.policy[1],
            "value_weight": self.value[0],
            "value_bias": self.value[1],
        }
        for k, (w, b) in enumerate(self.hidden):
            arrays[f"hidden_weight_{k}"] = w
            arrays[f"hidden_bias_{k}"] = b
        with atomic_output(path, "wb") as file:
            np.savez(file, **arrays)  # type: ignore[arg-type]  # numpy's stub types the keywords poorly

    def __call__(
        self, planes: npt.NDArray[np.uint8], masks: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Priors and values for a batch: an ``evaluate`` for :func:`search`."""
        x = planes.reshape(len(planes), -1).astype(np.float32)
        for w, b in self.hidden:
            x = np.maximum(x @ w + b, 0)
        logits = x @ self.policy[0] + self.policy[1]
        logits = np.where(masks, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        priors = np.exp(logits)
        priors /= priors.sum(axis=1, keepdims=True)
        values = np.tanh(x @ self.value[0] + self.value[1])
        return priors.astype(np.float32), values.astype(np.float32)


class MctsPlayer(Player):
    """A player for :mod:`congo.match` (``mcts:net=FILE,sims=N``): the batched search with a
    :class:`MlpNetwork`, ``sims`` simulations for each decision (each leg of a monkey chain is one),
    the most visited action (or Gumbel's choice with ``gumbel=True``)."""

    def __init__(
        self,
        network: MlpNetwork,
        *,
        sims: int = 800,
        c_puct: float = 1.25,
        gumbel: bool = False,
        seed: int = 0,
        name: str = "mcts",
    ) -> None:
        if isinstance(sims, bool) or not isinstance(sims, int) or sims < 1:
            raise ValueError(f"sims must be an int >= 1, got {sims!r}")
        self.network = network
        self.sims = sims
        self.c_puct = c_puct
        self.gumbel = gumbel
        self.seed = seed
        self.name = name
        self._moves = 0

    def choose(self, board: Board) -> Move:
        """The move for ``board`` (the game is not over): ``sims`` simulations a decision."""
        return self._choose(board, None)

    def play(self, board: Board, limit: Limit | None) -> PlayResult:
        """:meth:`choose`'s move, but on a clock (``limit``, in timed games) the search of the
        move stops early once it has spent its share of the side to move's time
        (its ``time``, or its time left over the moves to the next control, 30 in sudden death,
        plus most of its increment; at most 40 % of what is left), after 8 simulations a decision
        at least. Without a clock, the same as :meth:`choose`."""
        budget = None if limit is None else _move_budget(limit, board.turn)
        return PlayResult(self._choose(board, None if budget is None else time.monotonic() + budget))

    def _choose(self, board: Board, deadline: float | None) -> Move:
        game = _game_of(board, 0)
        tree = Search(
            [game],
            c_puct=self.c_puct,
            gumbel=self.gumbel,
            perspective=self.network.perspective,
            seed=(self.seed * 1_000_003 + self._moves) % 2**64,
        )
        self._moves += 1
        while True:
            if deadline is None:
                [result] = tree.run(self.network, self.sims)
            else:
                result = self._run_until(tree, deadline)
            if game.apply(result.game_action):
                return game.move_stack()[-1]
            tree.advance(result.best_action)

    def _run_until(self, tree: Search, deadline: float) -> SearchResult:
        """One decision's search on a clock: ``sims`` simulations or fewer, in slices between
        which the clock is looked at. A Gumbel search runs its first :data:`_CLOCK_FIRST` to
        measure its speed and then the rest as one sequential halving sized to the time left (a
        halving is over one run's simulations: slices would make each a halving of its own)."""
        started = time.monotonic()
        done = 0
        while True:
            if not done:
                step = _CLOCK_FIRST
            elif self.gumbel:
                rate = done / max(time.monotonic() - started, 1e-6)
                step = int(rate * (deadline - time.monotonic()))
            else:
                step = _CLOCK_SLICE
            step = max(1, min(step, self.sims - done))
            [result] = tree.run(self.network, step)
            done += step
            if done >= self.sims or time.monotonic() >= deadline:
                return result


_CLOCK_FIRST = 8
"""Simulations of a decision before :class:`MctsPlayer` looks at its clock: a move, however short
of time, is chosen by a search."""

_CLOCK_SLICE = 32
"""Simulations between two looks at the clock."""

_MOVES_TO_GO = 30
"""How many moves a sudden-death clock is shared over (:func:`_move_budget`)."""


def _move_budget(limit: Limit, turn: bool) -> float | None:
    """Seconds the side to move (``turn``, ``True`` for White) may spend on this move under
    ``limit``: its ``time`` if given, and on a clock its time left over the moves to the next
    control (or 30 in sudden death) plus most of its increment, never more than 40 % of what is
    left, less 30 ms for what lies outside the search. ``None`` without either."""
    budgets = [] if limit.time is None else [float(limit.time)]
    clock = limit.white_clock if turn else limit.black_clock
    if clock is not None:
        left = max(0.0, float(clock))
        increment = float((limit.white_inc if turn else limit.black_inc) or 0.0)
        moves = limit.remaining_moves or _MOVES_TO_GO
        budgets.append(max(0.0, min(left / moves + 0.8 * increment, 0.4 * left) - 0.03))
    return min(budgets) if budgets else None
