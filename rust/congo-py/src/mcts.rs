//! `congo._core.MctsCore`: the batched tree search of `congo_core::learn::mcts`, driven step by
//! step from Python (`congo.mcts` holds the loop and the numpy views). Selection, expansion and
//! backup run with the GIL released; only the copies into the published bytearrays hold it.

use congo_core::learn::mcts::{Forest, MctsConfig, MctsError, RootSelection, MAX_LEAVES_PER_TREE, MAX_TREES};
use congo_core::learn::{Perspective, NUM_ACTIONS, PLANE_SIZE};
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PySlice};

use crate::convert;
use crate::learn::PyGame;
use crate::tablebase::PyTablebase;

fn mcts_error(e: &MctsError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn finite(value: f64, name: &str) -> PyResult<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(PyValueError::new_err(format!("{name} must be a finite number, got {value}")))
    }
}

/// Many search trees, one per root game, stepped together.
#[pyclass(module = "congo._core", name = "MctsCore")]
pub struct PyMcts {
    inner: Forest,
    /// The bytearrays numpy views: the batch's planes and masks (all rows reserved).
    planes: Py<PyByteArray>,
    masks: Py<PyByteArray>,
    priors: Vec<f32>,
    values: Vec<f32>,
    index_bytes: Vec<u8>,
}

#[pymethods]
impl PyMcts {
    #[new]
    #[pyo3(signature = (
        roots, *, seed, c_puct, side_to_move, gumbel_considered, dirichlet_alpha, dirichlet_fraction,
        leaves_per_tree, virtual_loss, threads, tablebase = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        roots: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        c_puct: f64,
        side_to_move: bool,
        gumbel_considered: Option<&Bound<'_, PyAny>>,
        dirichlet_alpha: Option<f64>,
        dirichlet_fraction: f64,
        leaves_per_tree: &Bound<'_, PyAny>,
        virtual_loss: f64,
        threads: &Bound<'_, PyAny>,
        tablebase: Option<&Bound<'_, PyTablebase>>,
    ) -> PyResult<PyMcts> {
        let root_selection = match gumbel_considered {
            Some(k) => RootSelection::Gumbel {
                considered: convert::ranged_usize(k, "considered_actions", 1, NUM_ACTIONS)?,
            },
            None => RootSelection::Puct,
        };
        let config = MctsConfig {
            c_puct: finite(c_puct, "c_puct")?,
            perspective: if side_to_move { Perspective::SideToMove } else { Perspective::White },
            root_selection,
            dirichlet_alpha: dirichlet_alpha.map(|a| finite(a, "dirichlet_alpha")).transpose()?,
            dirichlet_fraction: finite(dirichlet_fraction, "dirichlet_fraction")?,
            leaves_per_tree: convert::ranged_usize(
                leaves_per_tree,
                "leaves_per_tree",
                1,
                MAX_LEAVES_PER_TREE,
            )?,
            virtual_loss: finite(virtual_loss, "virtual_loss")?,
            threads: convert::ranged_usize(threads, "threads", 1, congo_core::search::MAX_THREADS)?,
            ..MctsConfig::default()
        };
        let mut games = Vec::new();
        for root in roots.try_iter()? {
            games.push(root?.cast::<PyGame>()?.borrow().inner.clone());
            if games.len() > MAX_TREES {
                return Err(PyValueError::new_err(format!("at most {MAX_TREES} roots")));
            }
        }
        let seed = convert::ranged(seed, "seed", 0, u64::MAX)?;
        let tablebase = tablebase.map(|t| std::sync::Arc::clone(&t.get().inner));
        let inner = Forest::new(games, config, tablebase, seed).map_err(|e| mcts_error(&e))?;
        let rows = inner.len() * config.leaves_per_tree;
        let planes = PyByteArray::new_with(py, rows * PLANE_SIZE, |_| Ok(()))?.unbind();
        let masks = PyByteArray::new_with(py, rows * NUM_ACTIONS, |_| Ok(()))?.unbind();
        Ok(PyMcts { inner, planes, masks, priors: Vec::new(), values: Vec::new(), index_bytes: Vec::new() })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// The bytearrays the batch is copied into: planes and masks, `len * leaves_per_tree` rows.
    fn buffers<'py>(&self, py: Python<'py>) -> (Bound<'py, PyByteArray>, Bound<'py, PyByteArray>) {
        (self.planes.bind(py).clone(), self.masks.bind(py).clone())
    }

    /// Starts a run of `simulations` simulations at every root.
    fn begin(&mut self, simulations: &Bound<'_, PyAny>) -> PyResult<()> {
        let simulations =
            convert::ranged(simulations, "simulations", 1, congo_core::learn::mcts::MAX_SIMULATIONS)?;
        self.inner.begin(simulations).map_err(|e| mcts_error(&e))
    }

    /// Collects the next batch (GIL released) and copies it into the buffers; returns its rows,
    /// 0 when the run is complete.
    fn select(&mut self, py: Python<'_>) -> PyResult<usize> {
        let inner = &mut self.inner;
        let rows = py.detach(|| inner.select()).map_err(|e| mcts_error(&e))?;
        if rows > 0 {
            copy_prefix(py, self.planes.bind(py), self.inner.planes())?;
            copy_prefix(py, self.masks.bind(py), self.inner.masks())?;
        }
        Ok(rows)
    }

    /// The flat indices (`row * NUM_ACTIONS + action`) of the priors the batch needs, as native
    /// uint32 bytes: `expand` takes the priors at these indices, in this order.
    fn prior_indices<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        self.index_bytes.clear();
        self.index_bytes.extend(self.inner.prior_indices().iter().flat_map(|i| i.to_ne_bytes()));
        PyBytes::new(py, &self.index_bytes)
    }

    /// The network's answer for the batch: float32 buffers of the priors at `prior_indices` (in
    /// that order) and of `rows` values. `ValueError` (and no change) for a wrong size or value.
    fn expand(
        &mut self,
        py: Python<'_>,
        priors: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let (rows, wanted) = (self.inner.rows(), self.inner.prior_indices().len());
        let (p, v) = (PyBuffer::<f32>::get(priors)?, PyBuffer::<f32>::get(values)?);
        if p.item_count() != wanted || v.item_count() != rows {
            return Err(PyValueError::new_err(format!(
                "expected {wanted} gathered priors and {rows} values for {rows} rows, got {} and {}",
                p.item_count(),
                v.item_count()
            )));
        }
        self.priors.resize(wanted, 0.0);
        self.values.resize(rows, 0.0);
        p.copy_to_slice(py, &mut self.priors)?;
        v.copy_to_slice(py, &mut self.values)?;
        let (inner, priors, values) = (&mut self.inner, &self.priors, &self.values);
        py.detach(|| inner.expand_gathered(priors, values)).map_err(|e| mcts_error(&e))
    }

    /// Gives up the batch waiting for `expand` (its evaluation failed).
    fn abandon(&mut self) {
        self.inner.abandon();
    }

    /// Root `index`'s result: `(visits, policy, value, best_action)`, visits as native uint32
    /// bytes and the policy as float32 bytes (`NUM_ACTIONS` each), `best_action` `-1` for a
    /// finished game.
    #[pyo3(signature = (index, temperature = 0.0))]
    fn result<'py>(
        &mut self,
        py: Python<'py>,
        index: &Bound<'_, PyAny>,
        temperature: f64,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, f64, i64)> {
        let i = self.index(index)?;
        if !(temperature.is_finite() && temperature >= 0.0) {
            return Err(PyValueError::new_err(format!(
                "temperature must be a finite number >= 0, got {temperature}"
            )));
        }
        let r = self.inner.result(i, temperature);
        let visits: Vec<u8> = r.visits.iter().flat_map(|v| v.to_ne_bytes()).collect();
        let policy: Vec<u8> = r.policy.iter().flat_map(|v| v.to_ne_bytes()).collect();
        let best = r.best_action.map_or(-1, |a| a as i64);
        Ok((PyBytes::new(py, &visits), PyBytes::new(py, &policy), r.value, best))
    }

    /// Plays `action` (in the perspective's frame) at root `index`, keeping its subtree.
    fn advance(&mut self, index: &Bound<'_, PyAny>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let i = self.index(index)?;
        let action = convert::ranged_usize(action, "action", 0, NUM_ACTIONS - 1)?;
        self.inner.advance(i, action).map_err(|e| mcts_error(&e))
    }

    /// Replaces root `index` by a new game, its tree started afresh.
    fn set_root(&mut self, index: &Bound<'_, PyAny>, game: &Bound<'_, PyGame>) -> PyResult<()> {
        let i = self.index(index)?;
        self.inner.set_root(i, game.borrow().inner.clone()).map_err(|e| mcts_error(&e))
    }

    /// A copy of root `index`'s game (without the record of the moves before the search began).
    fn game(&self, index: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        Ok(PyGame { inner: self.inner.game(self.index(index)?).clone() })
    }

    fn is_over(&self, index: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.is_over(self.index(index)?))
    }

    /// The visits of root `index` (its own evaluation and every simulation through it).
    fn root_visits(&self, index: &Bound<'_, PyAny>) -> PyResult<u32> {
        Ok(self.inner.root_visits(self.index(index)?))
    }
}

impl PyMcts {
    fn index(&self, index: &Bound<'_, PyAny>) -> PyResult<usize> {
        convert::ranged_usize(index, "index", 0, self.inner.len() - 1)
    }
}

/// Copies `data` into the start of a bytearray, through a memoryview of that prefix.
fn copy_prefix(py: Python<'_>, target: &Bound<'_, PyByteArray>, data: &[u8]) -> PyResult<()> {
    let view = PyMemoryView::from(target.as_any())?;
    let prefix = view.get_item(PySlice::new(py, 0, data.len() as isize, 1))?;
    PyBuffer::<u8>::get(&prefix)?.copy_from_slice(py, data)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMcts>()?;
    m.add("MCTS_MAX_LEAVES_PER_TREE", MAX_LEAVES_PER_TREE)?;
    Ok(())
}
