//! The options the engine announces after `uci` and accepts in `setoption`.
//!
//! The protocol's usual ones (`Threads`, `Hash`, `MultiPV`, `Ponder`, `Move Overhead`, `Clear Hash`)
//! and every switch and weight of the search and evaluation ([`crate::search::PARAMS`]), under their
//! own names. Names are matched without regard to case, as the protocol asks.

use core::fmt;

use crate::search::{Params, MAX_HASH_MB, MAX_MOVE_OVERHEAD, MAX_MULTIPV, MAX_THREADS, PARAMS};

/// The table size of a fresh engine, in MiB: the core's size for engines of which several play at once
/// (a match runs two per game), small, so that an engine starts in milliseconds (a
/// controller that wants more says so with `setoption name Hash`).
pub const DEFAULT_HASH_MB: usize = crate::search::GAME_POOL_HASH_MB;

/// The type, default and range of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    /// Free text (a path); empty by default.
    Text,
}

/// One option as announced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    pub name: &'static str,
    pub kind: OptionKind,
}

impl fmt::Display for UciOption {
    /// The `option name … type …` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => write!(f, "spin default {default} min {min} max {max}"),
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Button => f.write_str("button"),
            OptionKind::Text => f.write_str("string default <empty>"),
        }
    }
}

/// The engine-level options, in the order announced (the search parameters follow them).
pub const THREADS: &str = "Threads";
pub const HASH: &str = "Hash";
pub const MULTIPV: &str = "MultiPV";
pub const PONDER: &str = "Ponder";
/// Adds `wdl W D L` (the win/draw/loss model, per mille) to every `info` with a score.
pub const UCI_SHOW_WDL: &str = "UCI_ShowWDL";
pub const MOVE_OVERHEAD: &str = "Move Overhead";
pub const CLEAR_HASH: &str = "Clear Hash";
/// A directory of endgame tables (`congo tablebase generate`); empty for none.
pub const TABLEBASE_PATH: &str = "TablebasePath";
/// A network file for the learned evaluation (`docs/engine.md`, "Network files"); empty for the
/// compiled-in network.
pub const EVAL_FILE: &str = "EvalFile";
/// Answer `go` with a move of the opening book (`BookFile`) while the position is in it.
pub const OWN_BOOK: &str = "OwnBook";
/// An opening book file (`congo book make`, `docs/book.md`); empty for none.
pub const BOOK_FILE: &str = "BookFile";

/// Every option with its default.
pub fn all() -> Vec<UciOption> {
    let spin = |name, default: usize, min: usize, max: usize| UciOption {
        name,
        kind: OptionKind::Spin { default: default as i64, min: min as i64, max: max as i64 },
    };
    let mut options = vec![
        spin(THREADS, 1, 1, MAX_THREADS),
        spin(HASH, DEFAULT_HASH_MB, 1, MAX_HASH_MB),
        spin(MULTIPV, 1, 1, MAX_MULTIPV),
        UciOption { name: PONDER, kind: OptionKind::Check { default: false } },
        UciOption { name: UCI_SHOW_WDL, kind: OptionKind::Check { default: false } },
        spin(
            MOVE_OVERHEAD,
            crate::search::DEFAULT_MOVE_OVERHEAD.as_millis() as usize,
            0,
            MAX_MOVE_OVERHEAD.as_millis() as usize,
        ),
        UciOption { name: CLEAR_HASH, kind: OptionKind::Button },
        UciOption { name: TABLEBASE_PATH, kind: OptionKind::Text },
        UciOption { name: EVAL_FILE, kind: OptionKind::Text },
        UciOption { name: OWN_BOOK, kind: OptionKind::Check { default: false } },
        UciOption { name: BOOK_FILE, kind: OptionKind::Text },
    ];
    let defaults = Params::default();
    // Switches range over 0 and 1 (no weight does): they are announced as checks.
    for param in PARAMS {
        let default = defaults.get(param.name).unwrap_or_default();
        let kind = if param.min == 0 && param.max == 1 {
            OptionKind::Check { default: default != 0 }
        } else {
            OptionKind::Spin { default, min: i64::from(param.min), max: i64::from(param.max) }
        };
        options.push(UciOption { name: param.name, kind });
    }
    options
}

/// The option of this name (any case).
pub fn find(name: &str) -> Option<UciOption> {
    all().into_iter().find(|o| o.name.eq_ignore_ascii_case(name.trim()))
}

/// A value for an option of this kind, from the text after `value`: a spin's integer within its
/// range, a check's `true` or `false`. Buttons take no value.
pub fn parse_value(option: &UciOption, value: Option<&str>) -> Result<i64, String> {
    let name = option.name;
    match (&option.kind, value.map(str::trim)) {
        // A button takes no value; a text option's text (any, or none) is read by the server.
        (OptionKind::Button, None | Some("")) | (OptionKind::Text, _) => Ok(0),
        (OptionKind::Button, Some(_)) => Err(format!("option {name} is a button: it takes no value")),
        (_, None | Some("")) => Err(format!("option {name} needs a value")),
        (OptionKind::Check { .. }, Some(text)) => match text.to_ascii_lowercase().as_str() {
            "true" => Ok(1),
            "false" => Ok(0),
            _ => Err(format!("option {name} takes true or false, got {:?}", super::command::truncate(text))),
        },
        (OptionKind::Spin { min, max, .. }, Some(text)) => match text.parse::<i64>() {
            Ok(v) if (*min..=*max).contains(&v) => Ok(v),
            _ => Err(format!(
                "option {name} takes an integer from {min} to {max}, got {:?}",
                super::command::truncate(text)
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usual_options_and_every_parameter_are_announced() {
        let options = all();
        for name in [
            THREADS,
            HASH,
            MULTIPV,
            PONDER,
            MOVE_OVERHEAD,
            CLEAR_HASH,
            TABLEBASE_PATH,
            EVAL_FILE,
            OWN_BOOK,
            BOOK_FILE,
        ] {
            assert!(options.iter().any(|o| o.name == name), "{name}");
        }
        for param in PARAMS {
            assert!(options.iter().any(|o| o.name == param.name), "{}", param.name);
        }
        assert_eq!(find("null_move").unwrap().kind, OptionKind::Check { default: true });
        // The pawn's value is announced as the evaluation's default (the tuned weight).
        let pawn = crate::search::EvalParams::default().material[crate::Role::Pawn.index()];
        assert!(
            matches!(find("pawn").unwrap().kind, OptionKind::Spin { default, .. } if default == i64::from(pawn))
        );
        assert_eq!(find("move overhead").unwrap().name, MOVE_OVERHEAD);
        assert!(find("nonsense").is_none());
    }

    #[test]
    fn option_lines() {
        assert_eq!(
            find(THREADS).unwrap().to_string(),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}")
        );
        assert_eq!(find(CLEAR_HASH).unwrap().to_string(), "option name Clear Hash type button");
        assert_eq!(find(PONDER).unwrap().to_string(), "option name Ponder type check default false");
        assert_eq!(
            find("uci_showwdl").unwrap().to_string(),
            "option name UCI_ShowWDL type check default false"
        );
        assert_eq!(find("evalfile").unwrap().to_string(), "option name EvalFile type string default <empty>");
    }

    #[test]
    fn values_are_checked() {
        let threads = find(THREADS).unwrap();
        assert_eq!(parse_value(&threads, Some("2")), Ok(2));
        assert!(parse_value(&threads, Some("0")).is_err());
        assert!(parse_value(&threads, Some("two")).is_err());
        assert!(parse_value(&threads, None).is_err());
        let ponder = find(PONDER).unwrap();
        assert_eq!(parse_value(&ponder, Some("TRUE")), Ok(1));
        assert!(parse_value(&ponder, Some("1")).is_err());
        let clear = find(CLEAR_HASH).unwrap();
        assert_eq!(parse_value(&clear, None), Ok(0));
        assert!(parse_value(&clear, Some("now")).is_err());
    }
}
