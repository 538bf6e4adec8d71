//! The engine over a text protocol: a dialect of the Universal Chess Interface (UCI) for Congo,
//! specified in `docs/protocol.md`.
//!
//! ```text
//! > uci
//! < id name congo 0.1.0
//! < option name Threads type spin default 1 min 1 max 256
//! < ...
//! < uciok
//! > position startpos moves c2c3
//! > go movetime 100
//! < info depth 1 seldepth 2 multipv 1 score cp 29 nodes 27 nps 90000 hashfull 0 time 0 pv d6d5
//! < ...
//! < bestmove a6a5 ponder c3c4
//! ```
//!
//! Positions are in the project's FEN, moves in its move strings (a monkey chain is its squares
//! concatenated, `b1d3f5d7`). A reader thread delivers the input line by line ([`spawn_reader`]),
//! the [`Server`] answers each command at once, and every search runs on its own thread, so that
//! `isready`, `stop` and `quit` are answered within a millisecond even while searching. Nothing a
//! controller sends can make it panic: a line that is not a well-formed command is answered with
//! `info string error: …` and changes nothing; a rejected `position` (a bad FEN, an illegal move, a
//! line too long) leaves the server with no position, so that the next `go` is answered with an
//! error and `bestmove (none)` rather than a search of the previous position. The reader hands
//! lines over through a channel of [`INPUT_LINES`] lines, so unread input never piles up.
//!
//! ```
//! use congo_core::uci;
//!
//! let input = "uci\nposition startpos moves c2c3\ngo depth 3\nisready\n";
//! let output = uci::SharedBuffer::default();
//! uci::run(input.as_bytes(), output.clone()).unwrap();
//! let text = output.text();
//! assert!(text.contains("uciok\n"));
//! assert!(text.lines().any(|line| line.starts_with("bestmove ")));
//! ```

mod command;
mod options;

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

pub use command::{parse, Command, CommandError, Go};
pub use options::{OptionKind, UciOption, DEFAULT_HASH_MB};

use crate::book::Book;
use crate::moves::{Move, Path};
use crate::notation::parse_move;
use crate::piece::Color;
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::search::{
    Bound, Engine, GameClock, Limits, Score, SearchInfo, SearchOptions, SearchResult, StopHandle,
};

/// The longest line read; anything longer is answered with an error and skipped. A position with
/// a hundred thousand moves fits.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The most lines read ahead of the server: the reader waits while this many are unhandled.
pub const INPUT_LINES: usize = 8;

/// One item of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line without its end-of-line characters (invalid UTF-8 replaced by U+FFFD).
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], skipped (never held whole): its length in bytes and
    /// its first word (the command it would have been).
    TooLong { bytes: usize, command: String },
    /// The end of the input (or an error reading it): the controller is gone.
    Eof,
}

/// Reads `input` line by line on a thread of its own and delivers the lines in order, then
/// [`Input::Eof`]. At most [`INPUT_LINES`] lines wait in the channel: the reader stops reading
/// while the server is behind, so unread input stays in the pipe, not in memory.
pub fn spawn_reader(input: impl Read + Send + 'static) -> Receiver<Input> {
    let (sender, receiver) = mpsc::sync_channel(INPUT_LINES);
    std::thread::Builder::new()
        .name("congo-uci-reader".into())
        .spawn(move || {
            let mut reader = BufReader::new(input);
            let mut line = Vec::new();
            loop {
                let item = match read_line(&mut reader, &mut line) {
                    Ok(Some(item)) => item,
                    Ok(None) | Err(_) => Input::Eof,
                };
                let eof = item == Input::Eof;
                if sender.send(item).is_err() || eof {
                    break;
                }
            }
        })
        .map_or_else(
            |_| {
                // No thread to read with: there is no input.
                let (sender, receiver) = mpsc::sync_channel(1);
                let _ = sender.send(Input::Eof);
                receiver
            },
            |_| receiver,
        )
}

/// One line of at most [`MAX_LINE_BYTES`] (longer ones are skipped to their end), or `None` at the
/// end of the input.
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<Input>> {
    line.clear();
    let mut length = 0usize;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            // The last line may lack its newline.
            return Ok((length > 0).then(|| finish_line(line, length)));
        }
        let (chunk, found) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        length = length.saturating_add(chunk.len());
        if length <= MAX_LINE_BYTES {
            line.extend_from_slice(chunk);
        }
        let used = chunk.len() + usize::from(found);
        reader.consume(used);
        if found {
            return Ok(Some(finish_line(line, length)));
        }
    }
}

fn finish_line(line: &[u8], length: usize) -> Input {
    if length > MAX_LINE_BYTES {
        let start = &line[..line.len().min(64)];
        let command = String::from_utf8_lossy(start).split_ascii_whitespace().next().unwrap_or("").to_owned();
        return Input::TooLong { bytes: length, command };
    }
    let text = String::from_utf8_lossy(line);
    Input::Line(text.trim_end_matches('\r').to_owned())
}

/// Runs the protocol until `quit` or the end of the input. Returns an error only if the engine
/// could not be created (its first transposition table could not be allocated).
///
/// `quit` stops a running search at once. At the end of the input a search with a depth, node or
/// time limit is allowed to finish (so that `echo "go depth 12" | congo uci` shows the whole
/// search); any other one (`go`, `go infinite`, `go mate 50`, `go searchmoves …`, pondering) is
/// stopped, and so is every search once the output is closed.
pub fn run(input: impl Read + Send + 'static, output: impl Write + Send + 'static) -> io::Result<()> {
    let mut server = Server::new(output)?;
    let lines = spawn_reader(input);
    loop {
        let item = lines.recv().unwrap_or(Input::Eof);
        let eof = item == Input::Eof;
        if server.handle_input(item) == Flow::Quit {
            if eof {
                server.end_of_input();
            }
            break;
        }
    }
    server.shutdown();
    Ok(())
}

/// Whether the server goes on after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// `quit`, the end of the input, or an output that can no longer be written.
    Quit,
}

/// A writer shared by the server and its search thread; each line is written and flushed whole.
#[derive(Clone)]
struct Output {
    inner: Arc<Mutex<OutputState>>,
}

struct OutputState {
    writer: Box<dyn Write + Send>,
    broken: bool,
}

impl Output {
    fn lock(&self) -> MutexGuard<'_, OutputState> {
        // A thread that panicked while writing leaves nothing half-done that matters.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes one line; a failed write marks the output broken (the controller is gone).
    fn line(&self, text: &str) {
        let mut state = self.lock();
        if state.broken {
            return;
        }
        let written = state.writer.write_all(text.as_bytes()).and_then(|()| state.writer.write_all(b"\n"));
        if written.and_then(|()| state.writer.flush()).is_err() {
            state.broken = true;
        }
    }

    fn error(&self, message: &str) {
        self.line(&format!("info string error: {message}"));
    }

    fn is_broken(&self) -> bool {
        self.lock().broken
    }
}

/// What a waiting search is released by: `stop`, or `ponderhit` for a ponder search.
#[derive(Default)]
struct Release {
    state: Mutex<(bool, bool)>,
    signal: Condvar,
}

impl Release {
    fn set(&self, stop: bool) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if stop {
            state.0 = true;
        } else {
            state.1 = true;
        }
        self.signal.notify_all();
    }

    /// Waits, after a search ended on its own, until the controller may have the answer: an
    /// infinite search only after `stop`, a ponder search after `stop` or `ponderhit`.
    fn wait(&self, infinite: bool, ponder: bool) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            let (stopped, hit) = *state;
            let still_pondering = ponder && !hit;
            if stopped || (!infinite && !still_pondering) {
                return;
            }
            state = self.signal.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// A search running (or just ended) on its own thread; the thread gives the engine back.
struct Running {
    thread: JoinHandle<Engine>,
    stop: StopHandle,
    release: Arc<Release>,
    /// Cleared just before `bestmove` is written: from then on a new `go` is welcome.
    searching: Arc<AtomicBool>,
    /// An infinite or ponder search: it ends only when the controller says so.
    waits_for_controller: bool,
    /// A search without a depth, node or time limit: it may never end on its own.
    unbounded: bool,
}

/// The protocol's state: the engine, its settings, the current position and the running search.
pub struct Server {
    out: Output,
    /// `None` while a search thread has it.
    engine: Option<Engine>,
    running: Option<Running>,
    /// `None` after a rejected `position` command: no `go` until the next valid one.
    position: Option<Position>,
    /// Hashes of the positions before the current one since the last capture (for repetitions).
    history: Vec<u64>,
    threads: usize,
    hash_mb: usize,
    multipv: usize,
    /// `UCI_ShowWDL`: every `info … score` also carries the model's `wdl W D L`.
    show_wdl: bool,
    /// `OwnBook`: a `go` in a position of the book is answered with a book move.
    own_book: bool,
    /// The book of `BookFile`, if one is loaded.
    book: Option<Arc<Book>>,
    /// Picks the book moves: seeded from the clock, so that games from one book differ.
    book_rng: SplitMix64,
    debug: bool,
    /// The inert options ([`crate::search::Params::inert`]) last warned about: a `go` warns when
    /// they change (options may come in any order, so `setoption` itself cannot tell).
    warned_inert: Vec<&'static str>,
}

impl Server {
    /// A server writing to `output`, with a fresh engine (one thread, [`DEFAULT_HASH_MB`] MiB) and
    /// the start position.
    pub fn new(output: impl Write + Send + 'static) -> io::Result<Server> {
        let engine = Engine::new(1, DEFAULT_HASH_MB)
            .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e.to_string()))?;
        Ok(Server {
            out: Output {
                inner: Arc::new(Mutex::new(OutputState { writer: Box::new(output), broken: false })),
            },
            engine: Some(engine),
            running: None,
            position: Some(Position::start()),
            history: Vec::new(),
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
            multipv: 1,
            show_wdl: false,
            own_book: false,
            book: None,
            book_rng: SplitMix64::new(clock_seed()),
            debug: false,
            warned_inert: Vec::new(),
        })
    }

    /// Handles one item from [`spawn_reader`].
    pub fn handle_input(&mut self, input: Input) -> Flow {
        match input {
            Input::Line(line) => self.handle_line(&line),
            Input::TooLong { bytes, command } => {
                if command == "position" {
                    self.position = None;
                    self.history.clear();
                    self.out.error(&format!(
                        "position line of {bytes} bytes rejected: lines are at most {MAX_LINE_BYTES} \
                         bytes; no position until the next position command"
                    ));
                } else {
                    self.out.error(&format!(
                        "line of {bytes} bytes ignored: lines are at most {MAX_LINE_BYTES} bytes"
                    ));
                }
                if command == "go" && !self.is_searching() {
                    self.out.line("bestmove (none)");
                }
                self.flow()
            }
            Input::Eof => Flow::Quit,
        }
    }

    /// Handles one line of input.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        match command::parse(line) {
            Ok(Some(command)) => self.handle(command),
            Ok(None) => self.flow(),
            Err(error) => {
                self.out.error(&error.0);
                // Every go gets its bestmove, even a malformed one, so that no controller waits for
                // one forever (unless a search is running: that one's bestmove will come).
                if line.split_ascii_whitespace().next() == Some("go") && !self.is_searching() {
                    self.out.line("bestmove (none)");
                }
                self.flow()
            }
        }
    }

    fn flow(&self) -> Flow {
        if self.out.is_broken() {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    /// Handles one command.
    pub fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.identify(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register => {}
            Command::UciNewGame => {
                self.finish_search();
                if let Some(engine) = self.engine.as_mut() {
                    engine.clear();
                }
            }
            Command::Position { fen, moves } => self.set_position(fen.as_deref(), &moves),
            Command::Go(go) => self.go(&go),
            Command::Stop => {
                if let Some(running) = &self.running {
                    running.stop.stop();
                    running.release.set(true);
                }
            }
            Command::PonderHit => {
                if let Some(running) = &self.running {
                    running.stop.ponderhit();
                    running.release.set(false);
                }
            }
            Command::Quit => return Flow::Quit,
            Command::Display => self.display(),
            Command::Bench(depth) => self.bench(depth),
        }
        self.flow()
    }

    /// Ends the running search (its `bestmove` is still written) and waits for its thread.
    pub fn shutdown(&mut self) {
        self.finish_search();
    }

    /// The controller is gone: a search with a depth, node or time limit may finish; an infinite
    /// or pondering one (which would wait for a `stop` that cannot come), one without such a limit
    /// and any search whose output is closed are stopped.
    pub fn end_of_input(&mut self) {
        if let Some(running) = &self.running {
            if running.waits_for_controller || running.unbounded || self.out.is_broken() {
                running.stop.stop();
                running.release.set(true);
            }
        }
        self.reclaim_engine();
    }

    fn identify(&mut self) {
        self.out.line(&format!("id name congo {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the congo developers");
        for option in options::all() {
            self.out.line(&option.to_string());
        }
        self.out.line("uciok");
    }

    fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.searching.load(Ordering::Acquire))
    }

    /// Stops the running search, if any, and takes the engine back.
    fn finish_search(&mut self) {
        if let Some(running) = &self.running {
            running.stop.stop();
            running.release.set(true);
        }
        self.reclaim_engine();
    }

    /// Takes the engine back from a search thread that has ended (or is about to: it has written
    /// its `bestmove`).
    fn reclaim_engine(&mut self) {
        let Some(running) = self.running.take() else { return };
        if let Ok(engine) = running.thread.join() {
            self.engine = Some(engine);
        } else {
            // The search thread died (a bug): start again with a fresh engine of the same size.
            self.out.error("the search failed; the engine was reset");
            self.engine = Engine::new(self.threads, self.hash_mb).or_else(|_| Engine::new(1, 1)).ok();
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(option) = options::find(name) else {
            self.out.error(&format!(
                "unknown option {:?}; the options are listed after uci",
                command::truncate(name)
            ));
            return;
        };
        if self.is_searching() {
            self.out.error(&format!("option {} cannot be changed during a search", option.name));
            return;
        }
        if option.name == options::TABLEBASE_PATH {
            return self.set_tablebase(value.unwrap_or(""));
        }
        if option.name == options::EVAL_FILE {
            return self.set_eval_file(value.unwrap_or(""));
        }
        if option.name == options::BOOK_FILE {
            return self.set_book_file(value.unwrap_or(""));
        }
        let value = match options::parse_value(&option, value) {
            Ok(value) => value,
            Err(message) => return self.out.error(&message),
        };
        self.reclaim_engine();
        let Some(engine) = self.engine.as_mut() else { return };
        match option.name {
            options::THREADS | options::HASH => {
                let (threads, hash_mb) = if option.name == options::THREADS {
                    (value as usize, self.hash_mb)
                } else {
                    (self.threads, value as usize)
                };
                if (threads, hash_mb) == (self.threads, self.hash_mb) {
                    return;
                }
                match Engine::with_params(threads, hash_mb, *engine.params()) {
                    Ok(mut fresh) => {
                        fresh.set_move_overhead(engine.move_overhead());
                        fresh.set_tablebase(engine.tablebase().cloned());
                        fresh.set_network(engine.network().cloned());
                        *engine = fresh;
                        (self.threads, self.hash_mb) = (threads, hash_mb);
                    }
                    Err(e) => self.out.error(&format!("{e}; the engine keeps its settings")),
                }
            }
            options::MULTIPV => self.multipv = value as usize,
            options::UCI_SHOW_WDL => self.show_wdl = value != 0,
            options::OWN_BOOK => self.own_book = value != 0,
            options::PONDER => {} // the controller's business: it says `go ponder` when it wants to
            options::MOVE_OVERHEAD => engine.set_move_overhead(Duration::from_millis(value as u64)),
            options::CLEAR_HASH => engine.clear(),
            param => {
                if let Err(e) = engine.set_param(param, value) {
                    self.out.error(&e.to_string());
                }
            }
        }
    }

    /// Opens the endgame tables of a directory for the engine (`<empty>` or nothing: none). A
    /// directory that cannot be opened is an error and changes nothing.
    fn set_tablebase(&mut self, path: &str) {
        let path = path.trim();
        self.reclaim_engine();
        let Some(engine) = self.engine.as_mut() else { return };
        if path.is_empty() || path == "<empty>" {
            engine.set_tablebase(None);
            return;
        }
        match crate::tablebase::Tablebase::open(path) {
            Ok(tables) => {
                let (count, men) = (tables.materials().len(), tables.max_men());
                engine.set_tablebase(Some(Arc::new(tables)));
                self.out.line(&format!("info string tablebases: {count} tables, up to {men} men"));
            }
            Err(e) => {
                self.out.error(&format!("{}: {e}; the engine keeps its tables", options::TABLEBASE_PATH));
            }
        }
    }

    /// Loads the network of a file for the learned evaluation (`<empty>` or nothing: the
    /// compiled-in one). A file that is unreadable, damaged or of another architecture is an error
    /// naming it, and the engine keeps the network it had.
    fn set_eval_file(&mut self, path: &str) {
        let path = path.trim();
        self.reclaim_engine();
        let Some(engine) = self.engine.as_mut() else { return };
        if path.is_empty() || path == "<empty>" {
            engine.set_network(None);
            return;
        }
        match crate::search::Network::load(path) {
            Ok(network) => {
                engine.set_network(Some(Arc::new(network)));
                self.out.line(&format!("info string {}: {path}", options::EVAL_FILE));
            }
            Err(e) => self.out.error(&format!("{}: {e}; the engine keeps its network", options::EVAL_FILE)),
        }
    }

    /// Reads the opening book of a file (`<empty>` or nothing: none). A file that cannot be read
    /// or is not a valid book is an error naming it, and the engine keeps the book it had.
    fn set_book_file(&mut self, path: &str) {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            self.book = None;
            return;
        }
        match Book::open(path) {
            Ok(book) => {
                self.out.line(&format!(
                    "info string {}: {path}: {} entries, {} positions",
                    options::BOOK_FILE,
                    book.len(),
                    book.positions()
                ));
                self.book = Some(Arc::new(book));
            }
            Err(e) => {
                self.out.error(&format!("{}: {path}: {e}; the engine keeps its book", options::BOOK_FILE));
            }
        }
    }

    /// With `OwnBook` on, a book move for a `go` (not an infinite or ponder one, which must wait
    /// for the controller), among `searchmoves` if given: written at once with its `bestmove`.
    fn book_move(&mut self, position: &Position, go: &Go, root_moves: Option<&[Path]>) -> bool {
        if !self.own_book || go.infinite || go.ponder {
            return false;
        }
        let Some(book) = &self.book else { return false };
        let Some((chosen, entry)) = book.choose(position, root_moves, &mut self.book_rng) else {
            return false;
        };
        let total: u64 = book.entries(position.zobrist_hash()).iter().map(|e| u64::from(e.weight)).sum();
        self.out.line(&format!("info string book move {} weight {} of {total}", chosen.uci(), entry.weight));
        self.out.line(&format!("bestmove {}", chosen.uci()));
        true
    }

    /// Sets up a position and plays its moves; after an invalid FEN or move there is no position
    /// (a `go` is refused) until the next valid `position`.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        const NONE_NOW: &str = "no position until the next position command";
        self.position = None;
        self.history.clear();
        let start = match fen {
            None => Position::start(),
            Some(fen) => match Position::from_fen(fen) {
                Ok(position) => position,
                Err(e) => return self.out.error(&format!("position rejected: {e}; {NONE_NOW}")),
            },
        };
        let mut position = start;
        let mut history = Vec::with_capacity(moves.len());
        for (number, text) in moves.iter().enumerate() {
            // `0000`, the null move, passes (as other engines read it, and as a python-chess-style
            // client sends a board that holds one): `Position::play_null`, drowning included.
            let played = if text == "0000" {
                Ok(position.play_null())
            } else {
                parse_move(text)
                    .map_err(|e| e.to_string())
                    .and_then(|path| position.play(&path).map_err(|e| e.to_string()))
            };
            match played {
                Ok(next) => {
                    history.push(position.zobrist_hash());
                    // A capture (or a drowning) makes every earlier position unreachable.
                    if next.board().occupied().count() < position.board().occupied().count() {
                        history.clear();
                    }
                    position = next;
                }
                Err(e) => {
                    return self.out.error(&format!(
                        "position rejected: move {} ({:?}): {e}; {NONE_NOW}",
                        number + 1,
                        command::truncate(text)
                    ))
                }
            }
        }
        self.position = Some(position);
        self.history = history;
    }

    fn display(&self) {
        let Some(position) = &self.position else {
            self.out.line("info string no position (the last position command was rejected)");
            return;
        };
        self.out.line(&format!("info string fen {}", position.fen()));
        self.out.line(&format!(
            "info string {} legal moves, {} earlier positions that can repeat",
            position.legal_moves().len(),
            self.history.len()
        ));
    }

    /// `bench [DEPTH]`: the core's bench suite on an engine of its own, with the signature's table
    /// and one thread whatever the options say (so that the count is the signature), answered
    /// before the next command is read, as Stockfish's `bench`. A running search is ended first.
    fn bench(&mut self, depth: Option<u32>) {
        use crate::bench::{bench, positions, BenchConfig};

        self.finish_search();
        let config =
            BenchConfig { depth: depth.unwrap_or(crate::bench::DEFAULT_DEPTH), ..BenchConfig::default() };
        let count = positions().len();
        let out = &self.out;
        let report = bench(config, &mut |entry| {
            out.line(&format!(
                "info string bench position {}/{count} {} depth {} nodes {} time {}",
                entry.index + 1,
                entry.name,
                entry.depth,
                entry.nodes,
                entry.time.as_millis()
            ));
        });
        match report {
            Ok(report) => {
                self.out.line(&format!("Nodes searched: {}", report.nodes));
                self.out.line(&format!("Nodes/second: {}", report.nps()));
            }
            Err(error) => self.out.line(&format!("info string error: bench: {error}")),
        }
    }

    /// The limits of a `go` for the side to move.
    fn limits(position: &Position, go: &Go) -> Limits {
        let (time, increment) = match position.turn() {
            Color::White => (go.white_time, go.white_increment),
            Color::Black => (go.black_time, go.black_increment),
        };
        Limits {
            depth: go.depth,
            nodes: go.nodes,
            time: go.move_time.map(|t| t.max(Duration::from_millis(1))),
            mate: go.mate,
            clock: time.map(|remaining| GameClock {
                remaining,
                increment: increment.unwrap_or_default(),
                moves_to_go: go.moves_to_go,
            }),
        }
    }

    /// The root moves of `searchmoves`, every one a legal move here.
    fn root_moves(position: &Position, texts: &[String]) -> Result<Vec<Path>, String> {
        let mut paths = Vec::with_capacity(texts.len());
        for text in texts {
            let path =
                parse_move(text).map_err(|e| format!("searchmoves {:?}: {e}", command::truncate(text)))?;
            position.find_move(&path).map_err(|e| format!("searchmoves: {e}"))?;
            paths.push(path);
        }
        if paths.is_empty() {
            return Err("searchmoves: no move given".to_owned());
        }
        Ok(paths)
    }

    fn go(&mut self, go: &Go) {
        if self.is_searching() {
            self.out.error("already searching: go ignored (send stop first)");
            return;
        }
        let Some(position) = self.position else {
            self.out.error("no position (the last position command was rejected); no search");
            self.out.line("bestmove (none)");
            return;
        };
        let root_moves =
            match go.search_moves.as_deref().map(|texts| Self::root_moves(&position, texts)).transpose() {
                Ok(moves) => moves,
                Err(message) => {
                    // Every go gets its bestmove, so that no controller waits for one forever.
                    self.out.error(&format!("{message}; no search"));
                    self.out.line("bestmove (none)");
                    return;
                }
            };
        if self.book_move(&position, go, root_moves.as_deref()) {
            return;
        }
        self.reclaim_engine();
        let Some(engine) = self.engine.take() else {
            self.out.error("no engine (the last one could not be recreated); no search");
            self.out.line("bestmove (none)");
            return;
        };
        // Options set but without effect (the hand-written evaluation's weights while the network
        // evaluates): said once, at the first search they would have changed, not ignored in silence.
        let inert = engine.params().inert();
        if inert != self.warned_inert {
            if !inert.is_empty() {
                self.out.line(&format!("info string warning: {}", crate::search::inert_message(&inert)));
            }
            self.warned_inert = inert;
        }
        let limits = Self::limits(&position, go);
        let unbounded = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.time.is_none()
            && limits.clock.is_none();
        let options = SearchOptions { multipv: self.multipv, root_moves, ponder: go.ponder };
        let stop = engine.stop_handle();
        stop.prepare(go.ponder);
        let release = Arc::new(Release::default());
        let searching = Arc::new(AtomicBool::new(true));
        let job = SearchJob {
            position,
            history: self.history.clone(),
            limits,
            options,
            infinite: go.infinite,
            // The model's phase: plies played since the start, as the position's move number says.
            wdl_ply: self.show_wdl.then(|| wdl_ply(&position)),
            out: self.out.clone(),
            release: Arc::clone(&release),
            searching: Arc::clone(&searching),
        };
        let spawned =
            std::thread::Builder::new().name("congo-uci-search".into()).spawn(move || job.run(engine));
        match spawned {
            Ok(thread) => {
                let waits_for_controller = go.infinite || go.ponder;
                self.running =
                    Some(Running { thread, stop, release, searching, waits_for_controller, unbounded });
            }
            Err(e) => {
                // The engine went with the closure; make a fresh one.
                self.engine = Engine::new(self.threads, self.hash_mb).ok();
                self.out.error(&format!("could not start the search thread: {e}"));
                self.out.line("bestmove (none)");
            }
        }
    }
}

/// Everything a search thread needs.
struct SearchJob {
    position: Position,
    history: Vec<u64>,
    limits: Limits,
    options: SearchOptions,
    infinite: bool,
    /// The ply for `wdl` in `info` lines, or `None` without `UCI_ShowWDL`.
    wdl_ply: Option<u32>,
    out: Output,
    release: Arc<Release>,
    searching: Arc<AtomicBool>,
}

impl SearchJob {
    fn run(self, mut engine: Engine) -> Engine {
        let out = &self.out;
        let tables = engine.tablebase().cloned();
        let failures_before = tables.as_ref().map_or(0, |t| t.failures());
        let mut last_best: Option<Path> = None;
        let mut hashfull = 0;
        let result =
            engine.search_prepared(&self.position, &self.history, &self.limits, &self.options, &mut |info| {
                if info.multipv == 1 && info.bound == Bound::Exact {
                    last_best = info.pv.first().map(|m| m.path);
                }
                hashfull = info.hashfull;
                out.line(&info_line_with(info, self.wdl_ply));
            });
        match result.best_move {
            // An iteration cut short found a better move than the last one reported: say so, so
            // that the last info agrees with the bestmove.
            Some(best) if last_best != Some(best.path) => {
                for (index, line) in result.lines.iter().enumerate() {
                    // The same line as every other `info` (the table's use as last reported).
                    out.line(&info_line_with(
                        &SearchInfo {
                            multipv: u32::try_from(index + 1).unwrap_or(u32::MAX),
                            bound: Bound::Exact,
                            depth: result.depth,
                            seldepth: result.seldepth,
                            score: line.score,
                            pv: line.pv.clone(),
                            nodes: result.nodes,
                            time: result.time,
                            hashfull,
                        },
                        self.wdl_ply,
                    ));
                }
            }
            Some(_) => {}
            None => out.line(&format!(
                "info depth 0 score {}{}",
                score_text(result.score),
                wdl_text(result.score, self.wdl_ply)
            )),
        }
        if let Some(tables) = tables.filter(|t| t.failures() != failures_before) {
            if let Some(failure) = tables.failure() {
                out.error(&format!("tablebase: {failure}; the table is not used"));
            }
        }
        self.release.wait(self.infinite, self.options.ponder);
        self.searching.store(false, Ordering::Release);
        out.line(&bestmove_line(&result));
        engine
    }
}

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

fn pv_text(pv: &[Move]) -> String {
    let mut text = String::with_capacity(pv.len() * 5);
    for (i, m) in pv.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        let _ = m.path.write_uci(&mut text);
    }
    text
}

/// A seed that differs from run to run: the clock's nanoseconds and the process id.
fn clock_seed() -> u64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// Plies played since the start of a game reaching `position`: the win/draw/loss model's phase.
fn wdl_ply(position: &Position) -> u32 {
    position.fullmove().saturating_sub(1).saturating_mul(2)
        + u32::from(position.turn() == crate::Color::Black)
}

/// ` wdl W D L` (per mille, the side to move's view) for a score at `ply`; nothing for `None`.
fn wdl_text(score: Score, ply: Option<u32>) -> String {
    ply.map_or_else(String::new, |ply| {
        let w = crate::search::wdl::wdl(score, ply);
        format!(" wdl {} {} {}", w.wins, w.draws, w.losses)
    })
}

/// `info depth … pv …` for one line of a search.
pub fn info_line(info: &SearchInfo) -> String {
    info_line_with(info, None)
}

/// [`info_line`], with `wdl W D L` after the score for the position's `wdl_ply` when given.
pub fn info_line_with(info: &SearchInfo, wdl_ply: Option<u32>) -> String {
    let bound = match info.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound}{} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score),
        wdl_text(info.score, wdl_ply),
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time.as_millis(),
        pv_text(&info.pv)
    )
}

/// `bestmove <move> [ponder <move>]`, or `bestmove (none)` when there is no move.
pub fn bestmove_line(result: &SearchResult) -> String {
    match (result.best_move, result.ponder) {
        (Some(best), Some(ponder)) => format!("bestmove {} ponder {}", best.uci(), ponder.uci()),
        (Some(best), None) => format!("bestmove {}", best.uci()),
        (None, _) => "bestmove (none)".to_owned(),
    }
}

/// A `Write` into a shared byte buffer, for running the protocol in memory (tests, examples).
#[derive(Clone, Debug, Default)]
pub struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(PoisonError::into_inner)).into_owned()
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
