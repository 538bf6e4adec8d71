//! The commands of the protocol, parsed from one line of text each.
//!
//! Parsing never fails on content that could be repaired and never panics: a line is a known command
//! with well-formed arguments, or an error message saying what is wrong with it.

use core::fmt;
use std::time::Duration;

use crate::search::{MAX_DEPTH, MAX_MATE, MAX_TIME_SECONDS};

/// One command from the controller (the GUI, the match runner, the Python client).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    /// `fen: None` is the start position. Moves are kept as text: whether they are legal depends on
    /// the position.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    /// `d`: show the current position (a debugging aid, as in several chess engines).
    Display,
    /// `bench [DEPTH]`: the fixed search suite of [`crate::bench`], as Stockfish's `bench`.
    Bench(Option<u32>),
}

/// The parameters of a `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `searchmoves`: the root moves to search, as text.
    pub search_moves: Option<Vec<String>>,
    pub ponder: bool,
    /// `wtime` / `btime` (negative values, as some programs send after a flag fall, count as 0).
    pub white_time: Option<Duration>,
    pub black_time: Option<Duration>,
    pub white_increment: Option<Duration>,
    pub black_increment: Option<Duration>,
    pub moves_to_go: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub move_time: Option<Duration>,
    pub infinite: bool,
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError(pub String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn error<T>(message: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError(message.into()))
}

/// The keywords that start a parameter of `go` (and end a `searchmoves` list).
const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// The longest time a `go` parameter may give, in milliseconds.
const MAX_MILLIS: i64 = MAX_TIME_SECONDS as i64 * 1000;

/// Parses one line. `Ok(None)` for a blank line (ignored, as the protocol asks).
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let mut tokens = line.split_ascii_whitespace();
    let Some(head) = tokens.next() else { return Ok(None) };
    let rest: Vec<&str> = tokens.collect();
    let no_arguments = |command: Command| {
        if rest.is_empty() {
            Ok(Some(command))
        } else {
            error(format!("{head} takes no arguments, got {:?}", rest.join(" ")))
        }
    };
    match head {
        "uci" => no_arguments(Command::Uci),
        "isready" => no_arguments(Command::IsReady),
        "ucinewgame" => no_arguments(Command::UciNewGame),
        "stop" => no_arguments(Command::Stop),
        "ponderhit" => no_arguments(Command::PonderHit),
        "quit" => no_arguments(Command::Quit),
        "d" => no_arguments(Command::Display),
        "bench" => match rest.as_slice() {
            [] => Ok(Some(Command::Bench(None))),
            [depth] => match depth.parse::<u32>().ok().filter(|d| (1..=MAX_DEPTH).contains(d)) {
                Some(depth) => Ok(Some(Command::Bench(Some(depth)))),
                None => {
                    error(format!("bench: expected a depth from 1 to {MAX_DEPTH}, got {:?}", truncate(depth)))
                }
            },
            _ => error("bench takes at most a depth"),
        },
        "register" => Ok(Some(Command::Register)),
        "debug" => match rest.as_slice() {
            ["on"] => Ok(Some(Command::Debug(true))),
            ["off"] => Ok(Some(Command::Debug(false))),
            _ => error("debug takes on or off"),
        },
        "setoption" => parse_setoption(&rest).map(Some),
        "position" => parse_position(&rest).map(Some),
        "go" => parse_go(&rest).map(|go| Some(Command::Go(go))),
        _ => error(format!("unknown command {:?}", truncate(head))),
    }
}

/// A token shortened for an error message (a line may be garbage of any length).
pub(crate) fn truncate(text: &str) -> String {
    const LONGEST: usize = 40;
    match text.char_indices().nth(LONGEST) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_owned(),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    let ["name", rest @ ..] = rest else { return error("expected setoption name <name> [value <value>]") };
    let split = rest.iter().position(|&t| t == "value");
    let (name, value) = match split {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return error("setoption: the option name is missing");
    }
    Ok(Command::SetOption { name: name.join(" "), value })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let moves_at = rest.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&rest[..i], rest[i + 1..].iter().map(|&m| m.to_owned()).collect()),
        None => (rest, Vec::new()),
    };
    let fen = match setup {
        ["startpos"] => None,
        ["fen", fields @ ..] if !fields.is_empty() => Some(fields.join(" ")),
        ["fen"] => return error("position fen: the FEN is missing"),
        _ => return error("expected position startpos|fen <fen> [moves <move> ...]"),
    };
    Ok(Command::Position { fen, moves })
}

fn parse_go(rest: &[&str]) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut tokens = rest.iter().copied().peekable();
    while let Some(token) = tokens.next() {
        let mut value = |name: &str| match tokens.next() {
            Some(text) => Ok(text),
            None => error(format!("go {name}: the value is missing")),
        };
        match token {
            "searchmoves" => {
                let mut moves = Vec::new();
                while let Some(&next) = tokens.peek() {
                    if GO_KEYWORDS.contains(&next) {
                        break;
                    }
                    moves.push(next.to_owned());
                    tokens.next();
                }
                go.search_moves = Some(moves);
            }
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "wtime" => go.white_time = Some(clock_millis("wtime", value("wtime")?, true)?),
            "btime" => go.black_time = Some(clock_millis("btime", value("btime")?, true)?),
            "winc" => go.white_increment = Some(clock_millis("winc", value("winc")?, false)?),
            "binc" => go.black_increment = Some(clock_millis("binc", value("binc")?, false)?),
            "movetime" => go.move_time = Some(clock_millis("movetime", value("movetime")?, false)?),
            "movestogo" => {
                go.moves_to_go = Some(integer("movestogo", value("movestogo")?, 1, u64::from(u32::MAX))?);
            }
            "depth" => go.depth = Some(integer("depth", value("depth")?, 1, u64::from(MAX_DEPTH))?),
            "mate" => go.mate = Some(integer("mate", value("mate")?, 1, u64::from(MAX_MATE))?),
            "nodes" => go.nodes = Some(integer("nodes", value("nodes")?, 1, u64::MAX)?),
            _ => return error(format!("go: unknown parameter {:?}", truncate(token))),
        }
    }
    Ok(go)
}

/// An integer parameter within `min..=max`.
fn integer<T: TryFrom<u64>>(name: &str, text: &str, min: u64, max: u64) -> Result<T, CommandError> {
    let parsed =
        text.parse::<u64>().ok().filter(|v| (min..=max).contains(v)).and_then(|v| T::try_from(v).ok());
    match parsed {
        Some(value) => Ok(value),
        None => {
            error(format!("go {name}: expected an integer from {min} to {max}, got {:?}", truncate(text)))
        }
    }
}

/// A time in milliseconds; `negative_ok`: a negative value counts as 0 (a fallen flag).
fn clock_millis(name: &str, text: &str, negative_ok: bool) -> Result<Duration, CommandError> {
    match text.parse::<i64>() {
        Ok(ms) if ms < 0 && negative_ok => Ok(Duration::ZERO),
        Ok(ms) if (0..=MAX_MILLIS).contains(&ms) => Ok(Duration::from_millis(ms as u64)),
        _ => error(format!(
            "go {name}: expected a number of milliseconds from 0 to {MAX_MILLIS:e}, got {:?}",
            truncate(text)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    fn go(line: &str) -> Go {
        match ok(line) {
            Command::Go(go) => go,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse("   \t ").unwrap(), None);
        assert_eq!(ok("uci"), Command::Uci);
        assert_eq!(ok("  isready  "), Command::IsReady);
        assert_eq!(ok("debug on"), Command::Debug(true));
        assert_eq!(ok("quit"), Command::Quit);
        assert!(parse("isready now").is_err());
        assert!(parse("debug maybe").is_err());
        assert!(parse("Uci").is_err());
    }

    #[test]
    fn bench_takes_an_optional_depth() {
        assert_eq!(ok("bench"), Command::Bench(None));
        assert_eq!(ok("bench 5"), Command::Bench(Some(5)));
        assert_eq!(ok(&format!("bench {MAX_DEPTH}")), Command::Bench(Some(MAX_DEPTH)));
        for bad in ["bench 0", "bench -1", "bench x", "bench 5 6", &format!("bench {}", MAX_DEPTH + 1)] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            ok("setoption name Move Overhead value 50"),
            Command::SetOption { name: "Move Overhead".into(), value: Some("50".into()) }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption { name: "Clear Hash".into(), value: None }
        );
        assert!(parse("setoption").is_err());
        assert!(parse("setoption name").is_err());
        assert!(parse("setoption value 3").is_err());
    }

    #[test]
    fn positions() {
        assert_eq!(ok("position startpos"), Command::Position { fen: None, moves: vec![] });
        assert_eq!(
            ok("position fen 7/4l2/7/4c2/7/2p4/1M1L3 w 1 moves b1d3f5d7"),
            Command::Position {
                fen: Some("7/4l2/7/4c2/7/2p4/1M1L3 w 1".into()),
                moves: vec!["b1d3f5d7".into()]
            }
        );
        assert_eq!(ok("position startpos moves"), Command::Position { fen: None, moves: vec![] });
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position fen moves a2a3").is_err());
        assert!(parse("position startpos a2a3").is_err());
    }

    #[test]
    fn go_parameters() {
        let g = go("go wtime 1000 btime -5 winc 20 binc 30 movestogo 7");
        assert_eq!(g.white_time, Some(Duration::from_secs(1)));
        assert_eq!(g.black_time, Some(Duration::ZERO));
        assert_eq!(g.white_increment, Some(Duration::from_millis(20)));
        assert_eq!(g.black_increment, Some(Duration::from_millis(30)));
        assert_eq!(g.moves_to_go, Some(7));
        let g = go("go searchmoves a2a3 b1d3f5 depth 5 ponder");
        assert_eq!(g.search_moves, Some(vec!["a2a3".to_owned(), "b1d3f5".to_owned()]));
        assert_eq!(g.depth, Some(5));
        assert!(g.ponder);
        assert_eq!(go("go infinite"), Go { infinite: true, ..Go::default() });
        assert_eq!(go("go nodes 1").nodes, Some(1));
        assert_eq!(go("go mate 3").mate, Some(3));
        assert_eq!(go("go movetime 250").move_time, Some(Duration::from_millis(250)));
        assert_eq!(go("go"), Go::default());
        for bad in [
            "go depth",
            "go depth 0",
            "go depth -1",
            "go depth 1000",
            "go depth x",
            "go nodes 0",
            "go mate 0",
            "go winc -1",
            "go movetime -1",
            "go wtime 99999999999999999999",
            "go movestogo 0",
            "go sideways",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn messages_quote_garbage_briefly() {
        let long = "x".repeat(10_000);
        let message = parse(&long).unwrap_err().0;
        assert!(message.len() < 100, "{message}");
        assert!(parse("\u{0}\u{7f}é€").is_err());
    }
}
