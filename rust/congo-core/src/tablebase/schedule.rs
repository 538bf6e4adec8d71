//! Running one job per table on several threads, each job after the jobs it depends on, with
//! progress reports and cancellation.
//!
//! Tables are independent once the tables their moves lead into are done, and there are many of
//! them (344 up to five men), so the work is spread table by table: each thread solves whole
//! tables with plain arrays and no synchronisation in its inner loops. The biggest ready table
//! goes first, so that the last ones to finish are small.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::format::TablebaseError;
use super::layout::Layout;
use super::material::{Material, MAX_MEN};
use super::probe::Tablebase;

/// How far a long job has come.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Tables finished (including the ones found done already).
    pub tables_done: usize,
    pub tables_total: usize,
    /// Units of work done and to do (positions visited; a table counts its positions twice, once
    /// for the first pass over it and once when it is finished).
    pub work_done: u64,
    pub work_total: u64,
    /// Tables being worked on now.
    pub running: Vec<Material>,
    /// Time since the job started.
    pub elapsed: Duration,
}

impl Progress {
    /// The fraction done, 0 to 1.
    pub fn fraction(&self) -> f64 {
        if self.work_total == 0 {
            1.0
        } else {
            #[allow(clippy::cast_precision_loss)]
            let f = self.work_done as f64 / self.work_total as f64;
            f.min(1.0)
        }
    }
}

/// What a job may look at while it runs: the stop flag and the shared work counter.
pub(crate) struct Ticker<'a> {
    stop: &'a AtomicBool,
    work: &'a AtomicU64,
}

impl Ticker<'_> {
    /// Adds done work; returns `Err(Cancelled)` once a stop was requested.
    #[inline]
    pub fn tick(&self, units: u64) -> Result<(), TablebaseError> {
        self.work.fetch_add(units, Ordering::Relaxed);
        if self.stop.load(Ordering::Relaxed) {
            Err(TablebaseError::Cancelled)
        } else {
            Ok(())
        }
    }
}

#[derive(Copy, Clone, Eq, PartialEq)]
enum State {
    Waiting,
    Running,
    Done,
}

struct Board {
    state: Vec<State>,
    error: Option<TablebaseError>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One table's job: its signature, its size (for ordering and progress) and the indices of the
/// jobs it waits for.
pub(crate) struct Job {
    pub material: Material,
    pub size: u64,
    pub after: Vec<usize>,
}

/// Runs `work(job index, ticker)` for every job on `threads` threads, each after the jobs it waits
/// for, calling `progress` on this thread about ten times a second and once at the end. When
/// `progress` returns `false` the jobs are told to stop and the run ends with `Cancelled`. The
/// first error stops the run and is returned.
pub(crate) fn run<T: Send>(
    jobs: &[Job],
    threads: usize,
    work: &(dyn Fn(usize, &Ticker<'_>) -> Result<T, TablebaseError> + Sync),
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Vec<T>, TablebaseError> {
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let done_work = AtomicU64::new(0);
    let total_work: u64 = jobs.iter().map(|j| 2 * j.size).sum();
    let board = Mutex::new(Board { state: vec![State::Waiting; jobs.len()], error: None });
    let changed = Condvar::new();
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());

    let worker = || loop {
        let next = {
            let mut b = lock(&board);
            loop {
                if b.error.is_some() || b.state.iter().all(|&s| s == State::Done) {
                    break None;
                }
                let ready = (0..jobs.len())
                    .filter(|&i| b.state[i] == State::Waiting)
                    .filter(|&i| jobs[i].after.iter().all(|&d| b.state[d] == State::Done))
                    .max_by_key(|&i| jobs[i].size);
                if let Some(i) = ready {
                    b.state[i] = State::Running;
                    break Some(i);
                }
                if !b.state.contains(&State::Running) {
                    // Nothing running and nothing ready: a dependency cycle, which the signature
                    // order rules out.
                    b.error = Some(TablebaseError::Internal("no table is ready to run".into()));
                    break None;
                }
                b = changed.wait(b).unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        };
        let Some(i) = next else {
            changed.notify_all();
            return;
        };
        let ticker = Ticker { stop: &stop, work: &done_work };
        let outcome = work(i, &ticker);
        let mut b = lock(&board);
        match outcome {
            Ok(value) => {
                results.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(value);
                b.state[i] = State::Done;
            }
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                if b.error.is_none() {
                    b.error = Some(e);
                }
                b.state[i] = State::Waiting;
            }
        }
        drop(b);
        changed.notify_all();
    };

    let report = |b: &Board| Progress {
        tables_done: b.state.iter().filter(|&&s| s == State::Done).count(),
        tables_total: jobs.len(),
        work_done: done_work.load(Ordering::Relaxed).min(total_work),
        work_total: total_work,
        running: (0..jobs.len())
            .filter(|&i| b.state[i] == State::Running)
            .map(|i| jobs[i].material)
            .collect(),
        elapsed: start.elapsed(),
    };

    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1)).map(|_| scope.spawn(worker)).collect();
        loop {
            let b = lock(&board);
            let finished = handles.iter().all(std::thread::ScopedJoinHandle::is_finished);
            let snapshot = report(&b);
            drop(b);
            if !progress(&snapshot) {
                stop.store(true, Ordering::Relaxed);
                let mut b = lock(&board);
                if b.error.is_none() {
                    b.error = Some(TablebaseError::Cancelled);
                }
                drop(b);
                changed.notify_all();
            }
            if finished {
                break;
            }
            let b = lock(&board);
            let _ = changed.wait_timeout(b, Duration::from_millis(100));
        }
    });

    let mut b = lock(&board);
    if let Some(error) = b.error.take() {
        return Err(error);
    }
    drop(b);
    let results = results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    results
        .into_iter()
        .map(|r| r.ok_or_else(|| TablebaseError::Internal("a table job did not run".into())))
        .collect()
}

/// The canonical signatures a run covers: every one with up to `men` men, or the given `tables`
/// (with `successors`, also every table they lead into, which a generator makes first), fewest men
/// first. Checks `men`.
pub(crate) fn select(
    men: usize,
    tables: &[Material],
    successors: bool,
) -> Result<Vec<Material>, TablebaseError> {
    if !(2..=MAX_MEN).contains(&men) {
        return Err(TablebaseError::Men(men));
    }
    if tables.is_empty() {
        return Ok(Material::all_canonical(men));
    }
    if successors {
        return Ok(with_successors(tables));
    }
    let mut selected: Vec<Material> = Vec::new();
    for m in tables.iter().map(|m| m.canonical().0) {
        if !selected.contains(&m) {
            selected.push(m);
        }
    }
    Ok(selected)
}

/// The canonical forms of some signatures with every signature they lead to, fewest men first.
pub(crate) fn with_successors(tables: &[Material]) -> Vec<Material> {
    let mut all: Vec<Material> = Vec::new();
    let mut todo: Vec<Material> = tables.iter().map(|m| m.canonical().0).collect();
    while let Some(m) = todo.pop() {
        if !all.contains(&m) {
            all.push(m);
            todo.extend(m.successors());
        }
    }
    all.sort_by_key(|m| (m.men(), m.pawns(), *m));
    all
}

/// Checks that every one of the tables is present.
pub(crate) fn require(tb: &Tablebase, materials: &[Material]) -> Result<(), TablebaseError> {
    match materials.iter().find(|&&m| !tb.has(m)) {
        Some(&material) => Err(TablebaseError::Missing { material }),
        None => Ok(()),
    }
}

/// A job per table, each after the tables its moves lead into (those among `materials`).
pub(crate) fn ordered_jobs(materials: &[Material]) -> Vec<Job> {
    materials
        .iter()
        .map(|m| Job {
            material: *m,
            size: Layout::new(*m).len(),
            after: m.successors().iter().filter_map(|s| materials.iter().position(|x| x == s)).collect(),
        })
        .collect()
}

/// A job per table, in any order (for work that only reads tables).
pub(crate) fn unordered_jobs(materials: &[Material]) -> Vec<Job> {
    materials.iter().map(|&m| Job { material: m, size: Layout::new(m).len(), after: Vec::new() }).collect()
}
