//! A batched Monte Carlo tree search for networks that run outside the core: many trees at once
//! (one per root), each step collecting leaves from every tree into one batch of planes and
//! legal-action masks, and taking back the network's priors and values for all of them.
//!
//! The search is `AlphaZero`'s PUCT (Silver et al., 2018), optionally with Gumbel root selection
//! (Danihelka et al., 2022: Gumbel-top-k sampling and sequential halving at the root, PUCT below
//! it). The driver is the caller's loop:
//!
//! ```
//! use congo_core::learn::mcts::{Forest, MctsConfig};
//! use congo_core::learn::{Game, NUM_ACTIONS};
//! use congo_core::Position;
//!
//! let roots = vec![Game::new(Position::start(), 300); 2];
//! let mut forest = Forest::new(roots, MctsConfig::default(), None, 7).unwrap();
//! forest.begin(50).unwrap();
//! loop {
//!     let rows = forest.select().unwrap();
//!     if rows == 0 {
//!         break;
//!     }
//!     // A trivial network: uniform priors, value 0.
//!     let priors = vec![1.0; rows * NUM_ACTIONS];
//!     let values = vec![0.0; rows];
//!     forest.expand(&priors, &values).unwrap();
//! }
//! let result = forest.result(0, 0.0);
//! assert_eq!(result.visits.iter().sum::<u32>(), 50);
//! assert!(result.best_action.is_some());
//! ```
//!
//! Conventions, which `docs/learning.md` states for the Python API too:
//!
//! * Each node's visit count `N` counts the evaluation that expanded it and every simulation that
//!   passed through it; the root's first evaluation is not a simulation, so after `n` simulations
//!   the root's children hold `n` visits.
//! * Values are stored from the view of the player who chose the edge into a node (the player to
//!   act at its parent), and a leaf's value is added with its sign only when that player differs
//!   from the player to act at the leaf: between the legs of a monkey chain the same player acts
//!   again and nothing is negated.
//! * PUCT picks `argmax Q(s,a) + c_puct · P(s,a) · √N(s) / (1 + N(s,a))`, `Q = 0` for an unvisited
//!   child, the first action (in the game's action order) among equals.
//! * Virtual loss: a leaf waiting for its evaluation counts, along its path, as one more visit
//!   that lost `virtual_loss` for the player choosing; a descent that meets a waiting leaf ends the
//!   tree's collection for that step.
//! * Terminal positions (by the rules, a threefold repetition, the ply limit) and, with a
//!   tablebase, positions in the tables (between moves) take their exact value and are never
//!   expanded; the root is always expanded.

use core::fmt;
use std::sync::Arc;

use super::actions::{flip_action, NUM_ACTIONS};
use super::game::Game;
use super::planes::{Perspective, PLANE_SIZE};
use crate::piece::Color;
use crate::rng::SplitMix64;
use crate::tablebase::{Tablebase, Wdl};

/// How the root picks the action of each simulation.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum RootSelection {
    /// PUCT, as at every other node.
    Puct,
    /// Gumbel-top-k sampling of `considered` actions and sequential halving among them.
    Gumbel {
        /// The most actions considered at the root (`m` of the paper).
        considered: usize,
    },
}

/// The search's settings.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The exploration constant of PUCT.
    pub c_puct: f64,
    /// The frame of the planes, masks and actions the network and the caller see.
    pub perspective: Perspective,
    pub root_selection: RootSelection,
    /// Dirichlet noise on the root's priors (`Some(alpha)`), mixed in with `dirichlet_fraction`.
    pub dirichlet_alpha: Option<f64>,
    pub dirichlet_fraction: f64,
    /// Leaves collected per tree and step (with virtual loss when above one).
    pub leaves_per_tree: usize,
    /// The value a waiting leaf counts as lost, per waiting visit.
    pub virtual_loss: f64,
    /// Threads sharing the trees of a step (each tree stays on one thread).
    pub threads: usize,
    /// The Gumbel scale of the completed Q-values: `σ(q) = (c_visit + max N) · c_scale · q`.
    pub gumbel_c_visit: f64,
    pub gumbel_c_scale: f64,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            c_puct: 1.25,
            perspective: Perspective::SideToMove,
            root_selection: RootSelection::Puct,
            dirichlet_alpha: None,
            dirichlet_fraction: 0.25,
            leaves_per_tree: 1,
            virtual_loss: 1.0,
            threads: 1,
            gumbel_c_visit: 50.0,
            gumbel_c_scale: 0.1,
        }
    }
}

/// The most leaves a tree gives to one step.
pub const MAX_LEAVES_PER_TREE: usize = 1024;

/// The fewest trees a thread of a step is given: starting a thread costs about as much as a few
/// dozen simulations.
pub const MIN_TREES_PER_THREAD: usize = 16;

/// The most trees of a forest.
pub const MAX_TREES: usize = 1 << 20;

/// The most simulations of one run (a node's edge and visit counts stay well inside `u32`).
pub const MAX_SIMULATIONS: u32 = 1 << 24;

impl MctsConfig {
    /// Checks every setting's range.
    pub fn check(&self) -> Result<(), MctsError> {
        let bad = |what: String| Err(MctsError(what));
        if !(self.c_puct.is_finite() && self.c_puct >= 0.0) {
            return bad(format!("c_puct must be a finite number >= 0, got {}", self.c_puct));
        }
        if let Some(alpha) = self.dirichlet_alpha {
            if !(alpha.is_finite() && alpha > 0.0) {
                return bad(format!("dirichlet_alpha must be a finite number > 0, got {alpha}"));
            }
        }
        if !(0.0..=1.0).contains(&self.dirichlet_fraction) {
            return bad(format!("dirichlet_fraction must lie in [0, 1], got {}", self.dirichlet_fraction));
        }
        if !(1..=MAX_LEAVES_PER_TREE).contains(&self.leaves_per_tree) {
            return bad(format!(
                "leaves_per_tree must lie in 1..={MAX_LEAVES_PER_TREE}, got {}",
                self.leaves_per_tree
            ));
        }
        if !(self.virtual_loss.is_finite() && self.virtual_loss >= 0.0) {
            return bad(format!("virtual_loss must be a finite number >= 0, got {}", self.virtual_loss));
        }
        if self.threads == 0 {
            return bad("threads must be at least 1".to_owned());
        }
        if let RootSelection::Gumbel { considered } = self.root_selection {
            if considered == 0 || considered > NUM_ACTIONS {
                return bad(format!("considered_actions must lie in 1..={NUM_ACTIONS}, got {considered}"));
            }
        }
        for (name, v) in [("gumbel_c_visit", self.gumbel_c_visit), ("gumbel_c_scale", self.gumbel_c_scale)] {
            if !(v.is_finite() && v >= 0.0) {
                return bad(format!("{name} must be a finite number >= 0, got {v}"));
            }
        }
        Ok(())
    }
}

/// A bad argument or a call out of order, in words for the caller.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct MctsError(pub String);

impl fmt::Display for MctsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MctsError {}

const NONE: u32 = u32::MAX;

#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Kind {
    /// The root before its first evaluation.
    Unevaluated,
    /// Waiting for the network (in the current batch).
    Waiting,
    /// Evaluated, with its edges' priors.
    Expanded,
    /// A value known exactly (a finished game, a tablebase position): never expanded.
    Exact,
}

#[derive(Copy, Clone, Debug)]
struct Node {
    /// The sum of the values backed up here, from the view of `chooser`.
    value_sum: f64,
    parent: u32,
    first_edge: u32,
    visits: u32,
    /// Visits in flight (virtual loss).
    waiting: u32,
    num_edges: u32,
    kind: Kind,
    /// The player to act here.
    turn: Color,
    /// The player who chose the edge into this node (the root: its own player).
    chooser: Color,
    /// The network's value (or the exact value) for `turn`.
    value: f32,
}

#[derive(Copy, Clone, Debug)]
struct Edge {
    prior: f64,
    child: u32,
    /// In the game's frame (White's), whatever the perspective.
    action: u16,
}

/// One root and its tree.
#[derive(Clone, Debug)]
struct Tree {
    /// The root's game (its record forgotten: only what decides the future).
    game: Game,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    rng: SplitMix64,
    /// Whether the root's priors have their Dirichlet noise.
    noised: bool,
    /// Simulations asked for in this run, and started so far.
    target: u32,
    started: u32,
    /// Whether the root's per-run data (noise, Gumbel) is ready for this run.
    prepared: bool,
    /// Per root edge: simulations of this run through it, waiting ones included (Gumbel).
    run_visits: Vec<u32>,
    /// Per root edge: the Gumbel sample of this run.
    gumbel: Vec<f64>,
    /// The considered-visit sequence of sequential halving for this run.
    sequence: Vec<u32>,
    /// The nodes waiting in this step's batch, in row order.
    leaves: Vec<u32>,
    scratch: Game,
    legal: Vec<u16>,
    /// Scratch for the Gumbel scores of root selections.
    q_scratch: Vec<f64>,
    scores: Vec<f64>,
}

fn leaf_node(parent: u32, turn: Color, chooser: Color, kind: Kind, value: f32) -> Node {
    Node {
        value_sum: 0.0,
        parent,
        first_edge: 0,
        visits: 0,
        waiting: 0,
        num_edges: 0,
        kind,
        turn,
        chooser,
        value,
    }
}

/// The exact value of a game's position for the player to act, if it is known: a finished game's
/// result, or a tablebase's verdict between moves.
fn exact_value(game: &Game, tablebase: Option<&Tablebase>) -> Option<f32> {
    if game.is_over() {
        return Some(match game.winner() {
            Some(w) if w == game.turn() => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        });
    }
    if game.chain().is_some() {
        return None;
    }
    let wdl = tablebase?.probe_wdl(game.position())?;
    Some(match wdl {
        Wdl::Win => 1.0,
        Wdl::Draw => 0.0,
        Wdl::Loss => -1.0,
    })
}

/// A uniform number in (0, 1).
fn uniform(rng: &mut SplitMix64) -> f64 {
    // 52 random bits as the mantissa of a number in [1, 2), moved into (0, 1).
    f64::from_bits(0x3FF0_0000_0000_0000 | (rng.next_u64() >> 12)) - 1.0 + f64::EPSILON / 4.0
}

fn normal(rng: &mut SplitMix64) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (core::f64::consts::TAU * v).cos()
}

/// A Gamma(`alpha`, 1) sample (Marsaglia and Tsang, 2000; boosted below 1).
fn gamma(rng: &mut SplitMix64, alpha: f64) -> f64 {
    if alpha < 1.0 {
        return gamma(rng, alpha + 1.0) * uniform(rng).powf(1.0 / alpha);
    }
    let shift = alpha - 1.0 / 3.0;
    let spread = 1.0 / (9.0 * shift).sqrt();
    loop {
        let x = normal(rng);
        let cube = (1.0 + spread * x).powi(3);
        if cube <= 0.0 {
            continue;
        }
        if uniform(rng).ln() < 0.5 * x * x + shift - shift * cube + shift * cube.ln() {
            return shift * cube;
        }
    }
}

/// The visit count each simulation of sequential halving asks of the action it picks (mctx's
/// `get_sequence_of_considered_visits`): `considered` actions visited once each, then the better
/// half of them again, and so on, over `simulations` simulations.
pub fn considered_visits(considered: usize, simulations: usize) -> Vec<u32> {
    if considered <= 1 {
        return (0..simulations as u32).collect();
    }
    let log2max = considered.next_power_of_two().trailing_zeros() as usize;
    let mut sequence = Vec::with_capacity(simulations);
    let mut visits = vec![0u32; considered];
    let mut num_considered = considered;
    while sequence.len() < simulations {
        let extra = (simulations / (log2max * num_considered)).max(1);
        for _ in 0..extra {
            sequence.extend_from_slice(&visits[..num_considered]);
            for v in &mut visits[..num_considered] {
                *v += 1;
            }
        }
        num_considered = (num_considered / 2).max(2);
    }
    sequence.truncate(simulations);
    sequence
}

/// What a run found at one root, in the perspective's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeResult {
    /// Visits of each action at the root ([`NUM_ACTIONS`] entries).
    pub visits: Vec<u32>,
    /// The search's policy: the visit distribution (PUCT) or the improved policy
    /// `softmax(logits + σ(completed Q))` (Gumbel); all zeros for a finished game.
    pub policy: Vec<f32>,
    /// The root's value for the player to act there.
    pub value: f64,
    /// The action chosen, `None` for a finished game.
    pub best_action: Option<usize>,
}

impl Tree {
    fn new(game: Game, seed: u64) -> Tree {
        let mut game = game;
        game.forget_record();
        let turn = game.turn();
        let mut tree = Tree {
            scratch: game.clone(),
            game,
            nodes: Vec::new(),
            edges: Vec::new(),
            rng: SplitMix64::new(seed),
            noised: false,
            target: 0,
            started: 0,
            prepared: false,
            run_visits: Vec::new(),
            gumbel: Vec::new(),
            sequence: Vec::new(),
            leaves: Vec::new(),
            legal: Vec::new(),
            q_scratch: Vec::new(),
            scores: Vec::new(),
        };
        tree.nodes.push(leaf_node(NONE, turn, turn, Kind::Unevaluated, 0.0));
        tree
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The frame's action for a game action at a node where `turn` acts.
    fn frame(perspective: Perspective, turn: Color, action: usize) -> usize {
        if perspective.flips(turn) {
            flip_action(action)
        } else {
            action
        }
    }

    /// Writes the scratch game's planes and mask into the rows and gives `node` its edges (priors
    /// to come), in the game's action order.
    fn write_leaf(&mut self, node: u32, perspective: Perspective, planes: &mut [u8], mask: &mut [u8]) {
        self.scratch.encode(perspective, planes);
        self.scratch.action_mask_listed(perspective, mask, &mut self.legal);
        let flips = perspective.flips(self.scratch.turn());
        for a in &mut self.legal {
            if flips {
                *a = flip_action(usize::from(*a)) as u16;
            }
        }
        self.legal.sort_unstable();
        let n = &mut self.nodes[node as usize];
        n.first_edge = self.edges.len() as u32;
        n.num_edges = self.legal.len() as u32;
        n.kind = Kind::Waiting;
        self.edges.extend(self.legal.iter().map(|&action| Edge { prior: 0.0, child: NONE, action }));
    }

    /// Collects this step's leaves into the rows (`leaves_per_tree` rows at most); returns how
    /// many it wrote.
    fn select(
        &mut self,
        config: &MctsConfig,
        tablebase: Option<&Tablebase>,
        planes: &mut [u8],
        masks: &mut [u8],
    ) -> Result<usize, MctsError> {
        self.leaves.clear();
        if self.is_over() {
            return Ok(0);
        }
        if self.nodes[0].kind == Kind::Unevaluated {
            self.scratch.copy_from(&self.game);
            self.write_leaf(0, config.perspective, &mut planes[..PLANE_SIZE], &mut masks[..NUM_ACTIONS]);
            self.nodes[0].waiting += 1;
            self.leaves.push(0);
            return Ok(1);
        }
        while self.leaves.len() < config.leaves_per_tree && self.started < self.target {
            self.scratch.copy_from(&self.game);
            let mut node = 0u32;
            let mut root_edge = usize::MAX;
            let fresh = loop {
                match self.nodes[node as usize].kind {
                    Kind::Expanded => {}
                    Kind::Exact => break false,
                    // A leaf whose batch was abandoned: evaluated again.
                    Kind::Unevaluated => break true,
                    // A leaf already in this batch: more descents would meet it again.
                    Kind::Waiting => return Ok(self.leaves.len()),
                }
                let e = self.select_edge(node, config);
                if node == 0 {
                    root_edge = e;
                }
                let edge = self.edges[self.nodes[node as usize].first_edge as usize + e];
                let chooser = self.nodes[node as usize].turn;
                self.scratch
                    .apply(usize::from(edge.action))
                    .map_err(|err| MctsError(format!("internal error: a tree's edge is illegal: {err}")))?;
                if edge.child != NONE {
                    node = edge.child;
                    continue;
                }
                let child = self.nodes.len() as u32;
                let turn = self.scratch.turn();
                let exact = exact_value(&self.scratch, tablebase);
                let kind = if exact.is_some() { Kind::Exact } else { Kind::Waiting };
                self.nodes.push(leaf_node(node, turn, chooser, kind, exact.unwrap_or(0.0)));
                self.edges[self.nodes[node as usize].first_edge as usize + e].child = child;
                node = child;
                break exact.is_none();
            };
            self.started += 1;
            if root_edge != usize::MAX && !self.run_visits.is_empty() {
                self.run_visits[root_edge] += 1;
            }
            if fresh {
                let row = self.leaves.len();
                let (p, m) = (&mut planes[row * PLANE_SIZE..], &mut masks[row * NUM_ACTIONS..]);
                self.write_leaf(node, config.perspective, &mut p[..PLANE_SIZE], &mut m[..NUM_ACTIONS]);
                let mut n = node;
                while n != NONE {
                    self.nodes[n as usize].waiting += 1;
                    n = self.nodes[n as usize].parent;
                }
                self.leaves.push(node);
            } else {
                let leaf = self.nodes[node as usize];
                self.backup(node, f64::from(leaf.value), leaf.turn, false);
            }
        }
        Ok(self.leaves.len())
    }

    /// Gives up this step's leaves (their evaluation failed): their waiting visits are taken
    /// back, and they are evaluated again when a descent next reaches them.
    fn abandon(&mut self) {
        for &leaf in &self.leaves {
            let mut n = leaf;
            while n != NONE {
                let node = &mut self.nodes[n as usize];
                node.waiting -= 1;
                n = node.parent;
            }
            self.nodes[leaf as usize].kind = Kind::Unevaluated;
        }
        self.leaves.clear();
    }

    /// Adds a value (for `turn`) to every node from `node` to the root.
    fn backup(&mut self, node: u32, value: f64, turn: Color, waiting: bool) {
        let mut n = node;
        while n != NONE {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            if waiting {
                node.waiting -= 1;
            }
            node.value_sum += if node.chooser == turn { value } else { -value };
            n = node.parent;
        }
    }

    /// The edge (its index among the node's) that a descent takes at `node`.
    fn select_edge(&mut self, node: u32, config: &MctsConfig) -> usize {
        if node == 0 && !self.sequence.is_empty() {
            return self.gumbel_edge(config);
        }
        let parent = &self.nodes[node as usize];
        let sqrt_n = f64::from(parent.visits + parent.waiting).sqrt();
        let edges = &self.edges[parent.first_edge as usize..][..parent.num_edges as usize];
        let (mut best, mut pick) = (f64::NEG_INFINITY, 0);
        for (i, edge) in edges.iter().enumerate() {
            let (n, q) = if edge.child == NONE {
                (0.0, 0.0)
            } else {
                let c = &self.nodes[edge.child as usize];
                let n = f64::from(c.visits + c.waiting);
                let q = if n == 0.0 {
                    0.0
                } else {
                    (c.value_sum - config.virtual_loss * f64::from(c.waiting)) / n
                };
                (n, q)
            };
            let score = q + config.c_puct * edge.prior * sqrt_n / (1.0 + n);
            if score > best {
                best = score;
                pick = i;
            }
        }
        pick
    }

    fn root_edges(&self) -> &[Edge] {
        let root = &self.nodes[0];
        &self.edges[root.first_edge as usize..][..root.num_edges as usize]
    }

    /// `logit + σ(completed Q)` of each root edge (Gumbel), from the root player's view.
    /// [`Tree::gumbel_scores_into`] into a new vector.
    fn gumbel_scores(&self, config: &MctsConfig) -> Vec<f64> {
        let (mut q, mut scores) = (Vec::new(), Vec::new());
        self.gumbel_scores_into(config, &mut q, &mut scores);
        scores
    }

    /// `logit + σ(completed Q)` of each root edge into `scores`, with `q` as scratch.
    fn gumbel_scores_into(&self, config: &MctsConfig, q: &mut Vec<f64>, scores: &mut Vec<f64>) {
        let root = &self.nodes[0];
        let edges = self.root_edges();
        let (mut visits_sum, mut max_visits, mut prior_sum, mut weighted) = (0.0, 0u32, 0.0, 0.0);
        q.clear();
        q.resize(edges.len(), f64::NAN);
        for (i, edge) in edges.iter().enumerate() {
            if edge.child == NONE {
                continue;
            }
            let c = &self.nodes[edge.child as usize];
            if c.visits == 0 {
                continue;
            }
            q[i] = c.value_sum / f64::from(c.visits);
            visits_sum += f64::from(c.visits);
            max_visits = max_visits.max(c.visits);
            prior_sum += edge.prior.max(f64::MIN_POSITIVE);
            weighted += edge.prior.max(f64::MIN_POSITIVE) * q[i];
        }
        let mixed = if prior_sum > 0.0 {
            (f64::from(root.value) + visits_sum * weighted / prior_sum) / (visits_sum + 1.0)
        } else {
            f64::from(root.value)
        };
        for v in q.iter_mut() {
            if v.is_nan() {
                *v = mixed;
            }
        }
        let (lo, hi) =
            q.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let scale = (config.gumbel_c_visit + f64::from(max_visits)) * config.gumbel_c_scale;
        scores.clear();
        scores.extend(edges.iter().zip(q.iter()).map(|(edge, &v)| {
            let rescaled = (v - lo) / (hi - lo).max(1e-8);
            edge.prior.max(f64::MIN_POSITIVE).ln() + scale * rescaled
        }));
    }

    /// The root edge of the next simulation by sequential halving: among the actions whose visits
    /// in this run equal what the schedule asks, the best `gumbel + logit + σ(q)`.
    fn gumbel_edge(&mut self, config: &MctsConfig) -> usize {
        let wanted = self.sequence[(self.started as usize).min(self.sequence.len() - 1)];
        let (mut q, mut scores) = (std::mem::take(&mut self.q_scratch), std::mem::take(&mut self.scores));
        self.gumbel_scores_into(config, &mut q, &mut scores);
        let mut pick = Self::best_gumbel(&scores, &self.gumbel, |i| self.run_visits[i] == wanted);
        if pick == usize::MAX {
            // Every action visited more than planned (a run longer than its schedule): the best.
            pick = Self::best_gumbel(&scores, &self.gumbel, |_| true);
        }
        (self.q_scratch, self.scores) = (q, scores);
        pick
    }

    /// The index of the best `gumbel + score` among the indices `allowed` (`usize::MAX`: none).
    fn best_gumbel(scores: &[f64], gumbel: &[f64], allowed: impl Fn(usize) -> bool) -> usize {
        let (mut best, mut pick) = (f64::NEG_INFINITY, usize::MAX);
        for (i, (&s, &g)) in scores.iter().zip(gumbel).enumerate() {
            if allowed(i) && g + s > best {
                best = g + s;
                pick = i;
            }
        }
        pick
    }

    /// Readies the expanded root for a run: its Dirichlet noise (once per root) and the run's
    /// Gumbel samples and schedule.
    fn prepare_root(&mut self, config: &MctsConfig) {
        self.prepared = true;
        let root = self.nodes[0];
        let edges = root.first_edge as usize..(root.first_edge + root.num_edges) as usize;
        if let (Some(alpha), false) = (config.dirichlet_alpha, self.noised) {
            self.noised = true;
            let noise: Vec<f64> = edges.clone().map(|_| gamma(&mut self.rng, alpha)).collect();
            let total: f64 = noise.iter().sum();
            if total > 0.0 {
                let eps = config.dirichlet_fraction;
                for (edge, eta) in self.edges[edges.clone()].iter_mut().zip(&noise) {
                    edge.prior = (1.0 - eps) * edge.prior + eps * eta / total;
                }
            }
        }
        self.run_visits.clear();
        self.gumbel.clear();
        self.sequence.clear();
        if let RootSelection::Gumbel { considered } = config.root_selection {
            let n = root.num_edges as usize;
            self.run_visits.resize(n, 0);
            for _ in 0..n {
                let u = uniform(&mut self.rng);
                self.gumbel.push(-(-u.ln()).ln());
            }
            self.sequence = considered_visits(considered.min(n), self.target as usize);
        }
    }

    /// The priors this step's leaves need, as flat indices into the batch's priors (rows from
    /// `first_row`), edge by edge in order: what [`Tree::expand`] takes, gathered.
    fn prior_indices(&self, perspective: Perspective, first_row: usize, out: &mut Vec<u32>) {
        for (k, &node) in self.leaves.iter().enumerate() {
            let n = &self.nodes[node as usize];
            let base = (first_row + k) * NUM_ACTIONS;
            for edge in &self.edges[n.first_edge as usize..][..n.num_edges as usize] {
                out.push((base + Self::frame(perspective, n.turn, usize::from(edge.action))) as u32);
            }
        }
    }

    /// Takes the network's answer for this step's leaves (the priors of their edges, gathered in
    /// order, and one value a leaf; checked) and backs the values up.
    fn expand(&mut self, config: &MctsConfig, priors: &[f32], values: &[f32]) {
        let leaves = std::mem::take(&mut self.leaves);
        let mut next = 0;
        for (&node, &value) in leaves.iter().zip(values) {
            let n = self.nodes[node as usize];
            let edges = &mut self.edges[n.first_edge as usize..][..n.num_edges as usize];
            let mut total = 0.0;
            for (edge, &p) in edges.iter_mut().zip(&priors[next..]) {
                edge.prior = f64::from(p);
                total += edge.prior;
            }
            next += edges.len();
            let count = f64::from(n.num_edges);
            for edge in edges.iter_mut() {
                edge.prior = if total > 0.0 { edge.prior / total } else { 1.0 / count };
            }
            let node_ref = &mut self.nodes[node as usize];
            node_ref.kind = Kind::Expanded;
            node_ref.value = value;
            self.backup(node, f64::from(value), n.turn, true);
        }
        self.leaves = leaves;
        self.leaves.clear();
        if self.nodes[0].kind == Kind::Expanded && !self.prepared {
            self.prepare_root(config);
        }
    }

    /// What the run found (`temperature` 0: the most visited action; above: a sample).
    fn result(&mut self, config: &MctsConfig, temperature: f64) -> TreeResult {
        let mut visits = vec![0u32; NUM_ACTIONS];
        let mut policy = vec![0f32; NUM_ACTIONS];
        let root = self.nodes[0];
        let value = if root.visits > 0 { root.value_sum / f64::from(root.visits) } else { 0.0 };
        if self.is_over() || root.kind != Kind::Expanded {
            let value = exact_value(&self.game, None).map_or(value, f64::from);
            return TreeResult { visits, policy, value, best_action: None };
        }
        let edges = self.root_edges().to_vec();
        let counts: Vec<u32> = edges
            .iter()
            .map(|e| if e.child == NONE { 0 } else { self.nodes[e.child as usize].visits })
            .collect();
        let frame = |a: u16| Self::frame(config.perspective, root.turn, usize::from(a));
        for (edge, &n) in edges.iter().zip(&counts) {
            visits[frame(edge.action)] = n;
        }
        let best = if self.gumbel.is_empty() {
            let total: u32 = counts.iter().sum();
            for (edge, &n) in edges.iter().zip(&counts) {
                policy[frame(edge.action)] =
                    if total > 0 { (f64::from(n) / f64::from(total)) as f32 } else { 0.0 };
            }
            self.visit_choice(&counts, temperature)
        } else {
            let scores = self.gumbel_scores(config);
            let most = self.run_visits.iter().copied().max().unwrap_or(0);
            let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let weights: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
            let sum: f64 = weights.iter().sum();
            for (edge, w) in edges.iter().zip(&weights) {
                policy[frame(edge.action)] = (w / sum) as f32;
            }
            Self::best_gumbel(&scores, &self.gumbel, |i| self.run_visits[i] == most)
        };
        TreeResult { visits, policy, value, best_action: Some(frame(edges[best].action)) }
    }

    /// The index of the edge played after a PUCT run: the most visited (the first among equals),
    /// or one drawn with probability proportional to `visits^(1/temperature)`.
    fn visit_choice(&mut self, counts: &[u32], temperature: f64) -> usize {
        let most = counts.iter().copied().max().unwrap_or(0);
        let first_most = counts.iter().position(|&n| n == most).unwrap_or(0);
        if temperature <= 0.0 || most == 0 {
            return first_most;
        }
        let weights: Vec<f64> =
            counts.iter().map(|&n| (f64::from(n) / f64::from(most)).powf(1.0 / temperature)).collect();
        let total: f64 = weights.iter().sum();
        let mut x = uniform(&mut self.rng) * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        first_most
    }

    /// Plays `action` (game frame) at the root, keeping the subtree below it.
    fn advance(&mut self, action: usize) -> Result<(), MctsError> {
        self.game.apply(action).map_err(|e| MctsError(format!("cannot advance: {e}")))?;
        self.game.forget_record();
        let root = self.nodes[0];
        let child = if root.kind == Kind::Expanded {
            self.root_edges().iter().find(|e| usize::from(e.action) == action).map_or(NONE, |e| e.child)
        } else {
            NONE
        };
        let (mut nodes, mut edges) = (Vec::new(), Vec::new());
        let turn = self.game.turn();
        if child != NONE && self.nodes[child as usize].kind == Kind::Expanded {
            // Copy the subtree breadth first, renumbering its nodes.
            let mut old = self.nodes[child as usize];
            if old.chooser != turn {
                old.value_sum = -old.value_sum;
            }
            old.chooser = turn;
            old.parent = NONE;
            let mut queue = vec![child];
            nodes.push(old);
            let mut head = 0;
            while head < queue.len() {
                let from = self.nodes[queue[head] as usize];
                let first = edges.len() as u32;
                for edge in &self.edges[from.first_edge as usize..][..from.num_edges as usize] {
                    let mut edge = *edge;
                    if edge.child != NONE {
                        let mut c = self.nodes[edge.child as usize];
                        c.parent = head as u32;
                        queue.push(edge.child);
                        edge.child = nodes.len() as u32;
                        nodes.push(c);
                    }
                    edges.push(edge);
                }
                nodes[head].first_edge = first;
                head += 1;
            }
        } else {
            nodes.push(leaf_node(NONE, turn, turn, Kind::Unevaluated, 0.0));
        }
        self.nodes = nodes;
        self.edges = edges;
        self.noised = false;
        self.prepared = false;
        self.run_visits.clear();
        self.gumbel.clear();
        self.sequence.clear();
        Ok(())
    }
}

/// Many trees searched together, one per root, each step giving the caller one batch of leaves.
#[derive(Clone, Debug)]
pub struct Forest {
    trees: Vec<Tree>,
    config: MctsConfig,
    tablebase: Option<Arc<Tablebase>>,
    /// The batch: `leaves_per_tree` rows reserved per tree, packed after each selection.
    planes: Vec<u8>,
    masks: Vec<u8>,
    /// The first row of each tree's leaves in the packed batch, and the rows in all.
    row_start: Vec<usize>,
    rows: usize,
    /// The flat indices of the priors the batch needs, and where each tree's begin among them.
    indices: Vec<u32>,
    gather_start: Vec<usize>,
    /// Whether a batch waits for [`Forest::expand`].
    waiting: bool,
}

impl Forest {
    /// One tree per root game (each must be going on), seeded from `seed` (each tree its own
    /// stream, so that results do not depend on the threads).
    pub fn new(
        roots: Vec<Game>,
        config: MctsConfig,
        tablebase: Option<Arc<Tablebase>>,
        seed: u64,
    ) -> Result<Forest, MctsError> {
        config.check()?;
        if roots.is_empty() {
            return Err(MctsError("a search needs at least one root".to_owned()));
        }
        if roots.len() > MAX_TREES {
            return Err(MctsError(format!("at most {MAX_TREES} roots, got {}", roots.len())));
        }
        if roots.len() * config.leaves_per_tree * NUM_ACTIONS > u32::MAX as usize {
            return Err(MctsError(format!(
                "{} roots with {} leaves each make too large a batch",
                roots.len(),
                config.leaves_per_tree
            )));
        }
        for (i, game) in roots.iter().enumerate() {
            check_root(i, game)?;
        }
        let trees =
            roots.into_iter().enumerate().map(|(i, game)| Tree::new(game, tree_seed(seed, i))).collect();
        Ok(Forest {
            trees,
            config,
            tablebase,
            planes: Vec::new(),
            masks: Vec::new(),
            row_start: Vec::new(),
            rows: 0,
            indices: Vec::new(),
            gather_start: Vec::new(),
            waiting: false,
        })
    }

    pub fn len(&self) -> usize {
        self.trees.len()
    }

    pub fn is_empty(&self) -> bool {
        self.trees.is_empty()
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// The game at root `i` (with its record forgotten).
    pub fn game(&self, i: usize) -> &Game {
        &self.trees[i].game
    }

    /// Whether the game at root `i` is over (its tree then searches nothing).
    pub fn is_over(&self, i: usize) -> bool {
        self.trees[i].is_over()
    }

    /// The visits of root `i`'s tree so far (its root's count).
    pub fn root_visits(&self, i: usize) -> u32 {
        self.trees[i].nodes[0].visits
    }

    /// Starts a run of `simulations` simulations at every root (at least one).
    pub fn begin(&mut self, simulations: u32) -> Result<(), MctsError> {
        if !(1..=MAX_SIMULATIONS).contains(&simulations) {
            return Err(MctsError(format!(
                "simulations must lie in 1..={MAX_SIMULATIONS}, got {simulations}"
            )));
        }
        self.check_idle()?;
        let config = self.config;
        for tree in &mut self.trees {
            tree.target = simulations;
            tree.started = 0;
            tree.prepared = false;
            tree.run_visits.clear();
            tree.gumbel.clear();
            tree.sequence.clear();
            if tree.nodes[0].kind == Kind::Expanded {
                tree.prepare_root(&config);
            }
        }
        Ok(())
    }

    /// The threads a step uses: a thread is worth starting for [`MIN_TREES_PER_THREAD`] trees.
    fn threads(&self) -> usize {
        self.config.threads.min(self.trees.len() / MIN_TREES_PER_THREAD).max(1)
    }

    fn check_idle(&self) -> Result<(), MctsError> {
        if self.waiting {
            return Err(MctsError("a batch waits for its evaluation (call expand first)".to_owned()));
        }
        Ok(())
    }

    /// Collects the next batch of leaves from every tree (GIL-free work: no allocation once the
    /// buffers have grown); returns its rows, 0 when the run is complete. Read the batch with
    /// [`Forest::planes`] and [`Forest::masks`] and answer it with [`Forest::expand`].
    pub fn select(&mut self) -> Result<usize, MctsError> {
        self.check_idle()?;
        let per_tree = self.config.leaves_per_tree;
        let n = self.trees.len();
        self.planes.resize(n * per_tree * PLANE_SIZE, 0);
        self.masks.resize(n * per_tree * NUM_ACTIONS, 0);
        let threads = self.threads();
        let (config, tablebase) = (self.config, self.tablebase.as_deref());
        // Each share of trees writes its leaves packed from the start of its region.
        let run = |trees: &mut [Tree], planes: &mut [u8], masks: &mut [u8]| -> Result<usize, MctsError> {
            let mut rows = 0;
            for tree in trees.iter_mut() {
                let p = &mut planes[rows * PLANE_SIZE..(rows + per_tree) * PLANE_SIZE];
                let m = &mut masks[rows * NUM_ACTIONS..(rows + per_tree) * NUM_ACTIONS];
                rows += tree.select(&config, tablebase, p, m)?;
            }
            Ok(rows)
        };
        let chunk = n.div_ceil(threads);
        let counts: Vec<usize> = if threads == 1 {
            vec![run(&mut self.trees, &mut self.planes, &mut self.masks)?]
        } else {
            let results: Vec<Result<usize, MctsError>> = std::thread::scope(|scope| {
                let handles: Vec<_> = self
                    .trees
                    .chunks_mut(chunk)
                    .zip(self.planes.chunks_mut(chunk * per_tree * PLANE_SIZE))
                    .zip(self.masks.chunks_mut(chunk * per_tree * NUM_ACTIONS))
                    .map(|((trees, planes), masks)| {
                        let run = &run;
                        scope.spawn(move || run(trees, planes, masks))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join().unwrap_or_else(|_| Err(MctsError("a search thread panicked".to_owned())))
                    })
                    .collect()
            });
            results.into_iter().collect::<Result<Vec<usize>, MctsError>>()?
        };
        // Pack the shares' rows one after another.
        let mut rows = 0;
        for (c, &count) in counts.iter().enumerate() {
            let from = c * chunk * per_tree;
            if from != rows && count > 0 {
                self.planes.copy_within(from * PLANE_SIZE..(from + count) * PLANE_SIZE, rows * PLANE_SIZE);
                self.masks.copy_within(from * NUM_ACTIONS..(from + count) * NUM_ACTIONS, rows * NUM_ACTIONS);
            }
            rows += count;
        }
        self.row_start.clear();
        self.gather_start.clear();
        self.indices.clear();
        let mut row = 0;
        for tree in &self.trees {
            self.row_start.push(row);
            self.gather_start.push(self.indices.len());
            tree.prior_indices(config.perspective, row, &mut self.indices);
            row += tree.leaves.len();
        }
        self.gather_start.push(self.indices.len());
        self.rows = rows;
        self.waiting = rows > 0;
        Ok(rows)
    }

    /// The batch's planes: [`PLANE_SIZE`] bytes a row.
    pub fn planes(&self) -> &[u8] {
        &self.planes[..self.rows * PLANE_SIZE]
    }

    /// The batch's legal-action masks: [`NUM_ACTIONS`] bytes a row, in the perspective's frame.
    pub fn masks(&self) -> &[u8] {
        &self.masks[..self.rows * NUM_ACTIONS]
    }

    /// The rows of the batch waiting for [`Forest::expand`] (0 when none waits).
    pub fn rows(&self) -> usize {
        if self.waiting {
            self.rows
        } else {
            0
        }
    }

    /// The flat indices (`row * NUM_ACTIONS + action`, in the perspective's frame) of the priors
    /// the batch needs: the legal actions of each leaf, in order. [`Forest::expand_gathered`]
    /// takes the priors at these indices, in this order.
    pub fn prior_indices(&self) -> &[u32] {
        if self.waiting {
            &self.indices
        } else {
            &[]
        }
    }

    /// The network's answer for the batch: priors ([`NUM_ACTIONS`] a row, in the perspective's
    /// frame; those of illegal actions ignored, the legal ones renormalised, uniform when they sum
    /// to zero) and values (one a row, in [-1, 1], for the player to act at the leaf). Checked
    /// whole first: an error changes nothing, and the batch still waits.
    pub fn expand(&mut self, priors: &[f32], values: &[f32]) -> Result<(), MctsError> {
        self.check_waiting()?;
        let rows = self.rows;
        if priors.len() != rows * NUM_ACTIONS {
            return Err(MctsError(format!(
                "expected {} priors for {rows} rows, got {}",
                rows * NUM_ACTIONS,
                priors.len()
            )));
        }
        let gathered: Vec<f32> = self.indices.iter().map(|&i| priors[i as usize]).collect();
        self.expand_gathered(&gathered, values)
    }

    /// [`Forest::expand`] with the priors at [`Forest::prior_indices`] only, in that order.
    pub fn expand_gathered(&mut self, priors: &[f32], values: &[f32]) -> Result<(), MctsError> {
        self.check_waiting()?;
        let rows = self.rows;
        if priors.len() != self.indices.len() || values.len() != rows {
            return Err(MctsError(format!(
                "expected {} gathered priors and {rows} values for {rows} rows, got {} and {}",
                self.indices.len(),
                priors.len(),
                values.len()
            )));
        }
        if let Some(row) = values.iter().position(|v| !(v.is_finite() && (-1.0..=1.0).contains(v))) {
            return Err(MctsError(format!(
                "row {row} of the evaluation: a value must lie in [-1, 1], got {}",
                values[row]
            )));
        }
        if let Some(k) = priors.iter().position(|p| !(p.is_finite() && *p >= 0.0)) {
            let (row, action) =
                (self.indices[k] as usize / NUM_ACTIONS, self.indices[k] as usize % NUM_ACTIONS);
            return Err(MctsError(format!(
                "row {row} of the evaluation: the prior of legal action {action} must be a finite \
                 number >= 0, got {}",
                priors[k]
            )));
        }
        let config = self.config;
        let threads = self.threads();
        let (row_start, gather_start) = (&self.row_start, &self.gather_start);
        let run = |first: usize, trees: &mut [Tree]| {
            for (k, tree) in trees.iter_mut().enumerate() {
                let (t, count) = (first + k, tree.leaves.len());
                if count > 0 {
                    let p = &priors[gather_start[t]..gather_start[t + 1]];
                    tree.expand(&config, p, &values[row_start[t]..row_start[t] + count]);
                }
            }
        };
        if threads == 1 {
            run(0, &mut self.trees);
        } else {
            let chunk = self.trees.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (c, trees) in self.trees.chunks_mut(chunk).enumerate() {
                    let run = &run;
                    scope.spawn(move || run(c * chunk, trees));
                }
            });
        }
        self.waiting = false;
        Ok(())
    }

    fn check_waiting(&self) -> Result<(), MctsError> {
        if self.waiting {
            Ok(())
        } else {
            Err(MctsError("no batch waits for an evaluation (call select first)".to_owned()))
        }
    }

    /// Gives up the batch waiting for [`Forest::expand`] (its evaluation failed): the trees are
    /// as they were before it, but for the simulations of the run already counted.
    pub fn abandon(&mut self) {
        for tree in &mut self.trees {
            tree.abandon();
        }
        self.waiting = false;
    }

    /// Runs `simulations` simulations at every root, calling `evaluate(planes, masks, rows, priors,
    /// values)` for each batch (it fills `priors` and `values`).
    pub fn run<E: From<MctsError>>(
        &mut self,
        simulations: u32,
        mut evaluate: impl FnMut(&[u8], &[u8], usize, &mut [f32], &mut [f32]) -> Result<(), E>,
    ) -> Result<(), E> {
        self.begin(simulations)?;
        let (mut priors, mut values) = (Vec::new(), Vec::new());
        loop {
            let rows = self.select()?;
            if rows == 0 {
                return Ok(());
            }
            priors.resize(rows * NUM_ACTIONS, 0.0);
            values.resize(rows, 0.0);
            evaluate(self.planes(), self.masks(), rows, &mut priors, &mut values)?;
            self.expand(&priors, &values)?;
        }
    }

    /// What the last run found at root `i`; `temperature` above 0 samples the PUCT action from the
    /// visits (`visits^(1/temperature)`; Gumbel's action is a sample already and ignores it).
    pub fn result(&mut self, i: usize, temperature: f64) -> TreeResult {
        let config = self.config;
        self.trees[i].result(&config, temperature)
    }

    /// Plays `action` (in the perspective's frame) at root `i`, keeping the subtree below it for
    /// the next run. An error (and no change) when it is not legal there.
    pub fn advance(&mut self, i: usize, action: usize) -> Result<(), MctsError> {
        self.check_idle()?;
        let tree = &mut self.trees[i];
        if tree.is_over() {
            return Err(MctsError(format!("the game at root {i} is over")));
        }
        if action >= NUM_ACTIONS {
            return Err(MctsError(format!("action {action} is out of range (actions are 0..{NUM_ACTIONS})")));
        }
        let game_action = Tree::frame(self.config.perspective, tree.game.turn(), action);
        tree.game.resolve(game_action).map_err(|e| MctsError(format!("root {i}: {e}")))?;
        tree.advance(game_action)
    }

    /// Replaces root `i` by a new game (its tree starts afresh; the generator goes on).
    pub fn set_root(&mut self, i: usize, game: Game) -> Result<(), MctsError> {
        self.check_idle()?;
        check_root(i, &game)?;
        let rng = self.trees[i].rng.clone();
        self.trees[i] = Tree::new(game, 0);
        self.trees[i].rng = rng;
        Ok(())
    }
}

fn check_root(i: usize, game: &Game) -> Result<(), MctsError> {
    match game.end() {
        None => Ok(()),
        Some(end) => Err(MctsError(format!(
            "root {i} is a finished game ({}): there is nothing to search",
            super::vector::end_name(end)
        ))),
    }
}

/// Tree `i`'s seed: its own stream of the forest's seed.
fn tree_seed(seed: u64, i: usize) -> u64 {
    let mut mix = SplitMix64::new(seed ^ (i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    mix.next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// A trivial network: uniform priors, value 0 (an evaluation cannot fail here, but the
    /// callback's signature may).
    #[allow(clippy::unnecessary_wraps)]
    fn uniform(
        _: &[u8],
        _: &[u8],
        _: usize,
        priors: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), MctsError> {
        priors.fill(1.0);
        values.fill(0.0);
        Ok(())
    }

    #[test]
    fn sequential_halving_halves() {
        assert_eq!(considered_visits(4, 8), vec![0, 0, 0, 0, 1, 1, 2, 2]);
        assert_eq!(considered_visits(1, 3), vec![0, 1, 2]);
        assert_eq!(considered_visits(2, 5), vec![0, 0, 1, 1, 2]);
    }

    #[test]
    fn a_run_spends_its_simulations_and_finds_the_chain() {
        let game = Game::new(Position::from_fen("7/4l2/7/4c2/7/2p4/1M1L3 w 1").unwrap(), 300);
        for leaves_per_tree in [1, 8] {
            let config = MctsConfig { leaves_per_tree, ..MctsConfig::default() };
            let mut forest = Forest::new(vec![game.clone(); 3], config, None, 1).unwrap();
            forest.run(300, uniform).unwrap();
            for i in 0..3 {
                let r = forest.result(i, 0.0);
                assert_eq!(r.visits.iter().sum::<u32>(), 300);
                // b1d3, the chain's first jump (kind 25: two squares north-east, from b1).
                assert_eq!(r.best_action, Some(25 * 49 + 1));
                assert!(r.value > 0.5);
            }
        }
    }

    #[test]
    fn calls_out_of_order_are_errors() {
        let mut forest =
            Forest::new(vec![Game::new(Position::start(), 300)], MctsConfig::default(), None, 1).unwrap();
        assert!(forest.expand(&[], &[]).is_err());
        assert!(forest.begin(0).is_err());
        forest.begin(5).unwrap();
        assert_eq!(forest.select().unwrap(), 1);
        assert!(forest.select().is_err());
        assert!(forest.expand(&[1.0; 3], &[0.0]).is_err());
        assert!(forest.expand(&vec![1.0; NUM_ACTIONS], &[2.0]).is_err());
        forest.abandon();
        assert_eq!(forest.select().unwrap(), 1);
    }
}
