//! Tunable switches and weights of the search and the evaluation, settable by name.
//!
//! Every search feature can be switched off and every evaluation term scaled, so that self-play
//! matches (`congo match`) can measure what each one is worth; `docs/engine.md` records those
//! matches. The defaults are the values the matches chose.

use core::fmt;

use super::weights;

/// The engine's parameters, each declared once: [`params!`] makes of this table the structs
/// [`SearchParams`] and [`EvalParams`] with their `Default`s, [`PARAMS`] (the table's order, which
/// the UCI `option` lines and `congo options` follow) and [`Params`]'s lookup by name.
macro_rules! params {
    // The state while reading: `@rows [structs read] [parameters read] (struct header) place [its
    // fields read] { its rows left } more structs`.
    (@structs [$($done:tt)*] [$($params:tt)*]) => {
        params!(@emit [$($done)*] [$($params)*]);
    };
    (@structs [$($done:tt)*] [$($params:tt)*]
        $(#[$meta:meta])* pub struct $name:ident in $place:ident { $($rows:tt)* } $($more:tt)*
    ) => {
        params!(@rows [$($done)*] [$($params)*] ($(#[$meta])* $name) $place [] { $($rows)* } $($more)*);
    };
    (@rows [$($done:tt)*] [$($params:tt)*] $header:tt $place:ident [$($fields:tt)*] { } $($more:tt)*) => {
        params!(@structs [$($done)* { $header [$($fields)*] }] [$($params)*] $($more)*);
    };
    // A switch: `field: bool = default, "help";` (set with 0 or 1).
    (@rows [$($done:tt)*] [$($params:tt)*] $header:tt $place:ident [$($fields:tt)*]
        { $(#[$doc:meta])* $field:ident: bool = $default:expr, $help:literal; $($rows:tt)* } $($more:tt)*
    ) => {
        params!(@rows [$($done)*] [$($params)* ($field, $help, 0, 1, false, Switch, [$place.$field])]
            $header $place [$($fields)* ($(#[$doc])* $field: bool = $default)] { $($rows)* } $($more)*);
    };
    // A weight of the hand-written evaluation alone: `field: i32 = default, min..=max,
    // hand_written("what", "unit");`, whose help is "what (unit; hand-written evaluation, nnue=0)".
    (@rows [$($done:tt)*] [$($params:tt)*] $header:tt $place:ident [$($fields:tt)*]
        { $(#[$doc:meta])* $field:ident: i32 = $default:expr, $min:literal..=$max:literal,
          hand_written($what:literal, $unit:literal); $($rows:tt)* } $($more:tt)*
    ) => {
        params!(@rows [$($done)*]
            [$($params)* ($field, concat!($what, " (", $unit, "; hand-written evaluation, nnue=0)"),
                $min, $max, true, Weight, [$place.$field])]
            $header $place [$($fields)* ($(#[$doc])* $field: i32 = $default)] { $($rows)* } $($more)*);
    };
    // A number: `field: i32 = default, min..=max, "help";`.
    (@rows [$($done:tt)*] [$($params:tt)*] $header:tt $place:ident [$($fields:tt)*]
        { $(#[$doc:meta])* $field:ident: i32 = $default:expr, $min:literal..=$max:literal, $help:literal;
          $($rows:tt)* } $($more:tt)*
    ) => {
        params!(@rows [$($done)*] [$($params)* ($field, $help, $min, $max, false, Weight, [$place.$field])]
            $header $place [$($fields)* ($(#[$doc])* $field: i32 = $default)] { $($rows)* } $($more)*);
    };
    // An array of numbers, a parameter for each element named: `field: [i32; n] = default => {
    // name[index], min..=max, "help"; ... };`.
    (@rows [$($done:tt)*] [$($params:tt)*] $header:tt $place:ident [$($fields:tt)*]
        { $(#[$doc:meta])* $field:ident: [i32; $len:literal] = $default:expr => {
            $($element:ident[$index:literal], $min:literal..=$max:literal, $help:literal;)*
          }; $($rows:tt)* } $($more:tt)*
    ) => {
        params!(@rows [$($done)*]
            [$($params)* $(($element, $help, $min, $max, false, Weight, [$place.$field[$index]]))*]
            $header $place [$($fields)* ($(#[$doc])* $field: [i32; $len] = $default)]
            { $($rows)* } $($more)*);
    };
    (@emit
        [$( { ($(#[$meta:meta])* $name:ident)
              [$( ($(#[$doc:meta])* $field:ident: $ty:ty = $default:expr) )*] } )*]
        [$( ($param:ident, $help:expr, $min:literal, $max:literal, $hand:literal, $slot:ident,
             [$($path:tt)*]) )*]
    ) => {
        $(
            $(#[$meta])*
            #[derive(Copy, Clone, Debug, PartialEq, Eq)]
            pub struct $name {
                $( $(#[$doc])* pub $field: $ty, )*
            }

            impl Default for $name {
                fn default() -> $name {
                    $name { $( $field: $default, )* }
                }
            }
        )*

        /// Every parameter, in a stable order.
        pub const PARAMS: &[ParamInfo] = &[
            $(
                ParamInfo {
                    name: stringify!($param), help: $help, min: $min, max: $max, hand_written: $hand,
                },
            )*
        ];

        impl Params {
            /// The place of a parameter (see [`PARAMS`]), or `None` for an unknown name.
            fn slot(&mut self, name: &str) -> Option<Slot<'_>> {
                Some(match name {
                    $( stringify!($param) => Slot::$slot(&mut self.$($path)*), )*
                    _ => return None,
                })
            }
        }
    };
    ($($structs:tt)*) => {
        params!(@structs [] [] $($structs)*);
    };
}

params! {
    /// Switches and numbers of the search. The defaults are the engine as shipped: every switch on, the
    /// numbers as `benches/tuning/spsa.py` and the matches of `docs/engine.md` chose them.
    #[allow(clippy::struct_excessive_bools)] // independent switches, each measured on its own
    pub struct SearchParams in search {
        /// Cut-offs from the transposition table (it is still used for move ordering when off).
        tt_cutoffs: bool = true, "cut-offs from the transposition table";
        /// Quiescence search over captures at the horizon (off: the static evaluation is used there).
        quiescence: bool = true, "quiescence search over captures at the horizon";
        /// Search one ply deeper when the side to move's lion is attacked.
        lion_extension: bool = true, "extend the search when the side to move's lion is attacked";
        /// Null-move pruning.
        null_move: bool = true, "null-move pruning";
        /// Late move reductions.
        lmr: bool = true, "late move reductions";
        /// Aspiration windows around the previous iteration's score.
        aspiration: bool = true, "aspiration windows";
        /// Reverse futility pruning ("static null move") near the horizon.
        futility: bool = true, "reverse futility pruning near the horizon";
        /// Late move pruning of quiet moves near the horizon.
        lmp: bool = true, "late move pruning of quiet moves near the horizon";
        /// Killer moves in move ordering.
        killers: bool = true, "killer moves in move ordering";
        /// The history heuristic in move ordering.
        history: bool = true, "history heuristic in move ordering";
        /// Captures ordered by most valuable victim (off: captures keep generation order).
        mvv_lva: bool = true, "order captures by most valuable victim";
        /// Reverse futility margin per ply of remaining depth, centipawns.
        futility_margin: i32 = 98, 0..=1000, "reverse futility margin per ply (cp)";
        /// Late move reductions grow as `ln(depth) ln(move number) / (lmr_divisor / 100)`.
        lmr_divisor: i32 = 206, 50..=1000, "late move reductions: ln(depth) ln(move) / (this / 100)";
        /// The null move's base reduction, plies (more with depth and with the margin over beta).
        null_reduction: i32 = 3, 1..=8, "null-move base reduction (plies)";
        /// The first aspiration window's half-width, centipawns.
        aspiration_window: i32 = 24, 1..=1000, "first aspiration window's half-width (cp)";
        /// What a draw is worth to the side the engine plays, below zero: a draw scores `-contempt`
        /// for the side to move at the root and `+contempt` for its opponent, so that the engine
        /// avoids repeating in a position it judges about equal or better. Centipawns.
        contempt: i32 = 0, 0..=500, "what a draw costs the engine's side (cp)";
        /// With a fixed time a move (`go movetime`, `Limit(time=…)`), the percentage of it after which
        /// no new iteration starts; 100 searches until the time is up (an iteration cut short still
        /// counts where it found a better move).
        movetime_soft: i32 = 100, 1..=100, "fixed time a move: percent after which no iteration starts";
        /// With a game clock, the percentage of the move's optimum after which no new iteration starts.
        clock_soft: i32 = 60, 1..=400,
            "game clock: percent of the move's optimum after which no iteration starts";
        /// Late move reductions less for quiet moves with a good history, more for a bad one: one ply
        /// per this much history score (0: history does not change reductions).
        lmr_history: i32 = 0, 0..=65536, "history score per ply of late move reduction (0: off)";
        /// Internal iterative reduction: a node of depth 4 or more without a move from the
        /// transposition table is searched one ply shallower (its ordering is a guess anyway).
        iir: bool = true, "internal iterative reduction without a table move";
        /// Futility pruning of quiet moves: at depth 1 to 3, with the static evaluation this far per
        /// ply below alpha, quiet moves after the first are skipped (0: off). Centipawns.
        futility_quiet: i32 = 0, 0..=1000, "futility pruning of quiet moves, margin per ply (cp, 0: off)";
    }

    /// Weights of the evaluation, in centipawns or percent of the default scale.
    pub struct EvalParams in eval {
        /// Material value of each role, indexed by [`crate::Role::index`] (the lion's is unused). Not
        /// `hand_written`: the search's move ordering and quiescence pruning read them whichever
        /// evaluation is on.
        // The weights file (search/weights.rs), written by the tuner (docs/engine.md, "Tuning").
        material: [i32; 8] = weights::MATERIAL => {
            pawn[0], 0..=2000,
                "material value of a pawn (cp; the search, and the hand-written evaluation)";
            superpawn[1], 0..=2000,
                "material value of a superpawn (cp; the search, and the hand-written evaluation)";
            monkey[2], 0..=2000,
                "material value of a monkey (cp; the search, and the hand-written evaluation)";
            giraffe[3], 0..=2000,
                "material value of a giraffe (cp; the search, and the hand-written evaluation)";
            zebra[4], 0..=2000,
                "material value of a zebra (cp; the search, and the hand-written evaluation)";
            elephant[5], 0..=2000,
                "material value of an elephant (cp; the search, and the hand-written evaluation)";
            crocodile[6], 0..=2000,
                "material value of a crocodile (cp; the search, and the hand-written evaluation)";
        };
        /// Piece-square tables, percent.
        pst: i32 = 100, 0..=1000, hand_written("piece-square tables", "percent");
        /// Mobility, percent.
        mobility: i32 = 100, 0..=1000, hand_written("mobility", "percent");
        /// Drowning danger, percent.
        drowning: i32 = 100, 0..=1000, hand_written("drowning danger", "percent");
        /// Enemy pieces attacking the squares around a lion, percent.
        lion_safety: i32 = 100, 0..=1000, hand_written("attacks on the squares around a lion", "percent");
        /// A lone piece between the two lions on a file or diagonal (pinned: moving it loses the lion),
        /// centipawns for its owner.
        lion_line: i32 = weights::LION_LINE, 0..=1000,
            hand_written("a lone piece between the lions, pinned", "cp");
        /// Pawn advancement, percent.
        pawn_advance: i32 = 100, 0..=1000, hand_written("pawn advancement", "percent");
        /// A pawn one step from promotion, centipawns.
        // 40 cost about 27 Elo over 700 self-play games: the advancement table already pays 38.
        promotion: i32 = 0, 0..=1000, hand_written("a pawn one step from promotion", "cp");
        /// The side to move's bonus, centipawns.
        tempo: i32 = weights::TEMPO, 0..=200, hand_written("bonus for the side to move", "cp");
        /// Threats against the side to move's pieces, percent (0, off: see the default).
        // Fitted with the other weights, but 400 games at 5,000 nodes found no gain (docs/engine.md).
        threats: i32 = 0, 0..=1000, hand_written("threats against the side to move's pieces", "percent");
        /// The learned evaluation (`search/nnue.rs`, a small network) instead of the hand-written one
        /// (on: see the default; [`EvalParams::hand_written`] turns it off).
        // An SPRT at equal time found it stronger than the hand-written evaluation (+29 +- 17 Elo,
        // H1 accepted, docs/engine.md), the rule item 5 of the tuning work set for the default.
        nnue: bool = true,
            "the learned evaluation (a small network, the default) instead of the hand-written one";
    }
}

impl EvalParams {
    /// The default weights with the learned evaluation off: the hand-written evaluation, the one whose
    /// weights the Texel tuner fits and whose value is the dot product of `Evaluator::features` and
    /// `Evaluator::weights`.
    pub fn hand_written() -> EvalParams {
        EvalParams { nnue: false, ..EvalParams::default() }
    }
}

/// Every switch and weight of the engine.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    pub search: SearchParams,
    pub eval: EvalParams,
}

/// A parameter name that does not exist, or a value out of its range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    Unknown(String),
    OutOfRange { name: &'static str, value: i128, min: i32, max: i32 },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Unknown(name) => {
                write!(f, "unknown engine option {name:?}; the options are: ")?;
                let names: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
                f.write_str(&names.join(", "))
            }
            ParamError::OutOfRange { name, value, min, max } => {
                write!(
                    f,
                    "engine option {name:?} must be from {min} to {max}, got {}",
                    crate::bounds::Shown(*value)
                )
            }
        }
    }
}

impl std::error::Error for ParamError {}

/// The description of one parameter.
#[derive(Copy, Clone, Debug)]
pub struct ParamInfo {
    pub name: &'static str,
    pub help: &'static str,
    pub min: i32,
    pub max: i32,
    /// Read by the hand-written evaluation alone (`nnue=0`): with the network on, setting it changes
    /// nothing ([`Params::inert`]).
    pub hand_written: bool,
}

impl Params {
    /// Sets a parameter by name (see [`PARAMS`]); switches take 0 or 1.
    pub fn set(&mut self, name: &str, value: impl Into<i128>) -> Result<(), ParamError> {
        let value: i128 = value.into();
        let info =
            PARAMS.iter().find(|p| p.name == name).ok_or_else(|| ParamError::Unknown(name.to_owned()))?;
        if value < i128::from(info.min) || value > i128::from(info.max) {
            return Err(ParamError::OutOfRange { name: info.name, value, min: info.min, max: info.max });
        }
        match self.slot(name) {
            Some(Slot::Switch(b)) => *b = value != 0,
            Some(Slot::Weight(w)) => *w = value as i32,
            None => return Err(ParamError::Unknown(name.to_owned())),
        }
        Ok(())
    }

    /// The current value of a parameter (switches as 0 or 1).
    pub fn get(&self, name: &str) -> Option<i64> {
        let mut copy = *self;
        match copy.slot(name)? {
            Slot::Switch(b) => Some(i64::from(*b)),
            Slot::Weight(w) => Some(i64::from(*w)),
        }
    }

    /// The parameters set away from their defaults that change nothing: the hand-written
    /// evaluation's ([`ParamInfo::hand_written`]) while the learned one is on. Callers warn about them, so
    /// that `tempo=0` with the network is not a silent no-op.
    pub fn inert(&self) -> Vec<&'static str> {
        if !self.eval.nnue {
            return Vec::new();
        }
        let default = Params::default();
        PARAMS
            .iter()
            .filter(|p| p.hand_written && self.get(p.name) != default.get(p.name))
            .map(|p| p.name)
            .collect()
    }
}

/// What to tell a user whose options [`Params::inert`] lists (the UCI server's warning, the Python
/// `Engine`'s `UserWarning`): one wording for both.
pub fn inert_message(inert: &[&str]) -> String {
    format!(
        "no effect while nnue is on: {} (weights of the hand-written evaluation; set nnue to 0 to use it)",
        inert.join(", ")
    )
}

enum Slot<'a> {
    Switch(&'a mut bool),
    Weight(&'a mut i32),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_parameter_can_be_read_and_set() {
        let mut params = Params::default();
        for info in PARAMS {
            let value = params.get(info.name).unwrap_or_else(|| panic!("{} has no slot", info.name));
            assert!(
                (i64::from(info.min)..=i64::from(info.max)).contains(&value),
                "{} default out of range",
                info.name
            );
            params.set(info.name, i64::from(info.min)).unwrap();
            assert_eq!(params.get(info.name), Some(i64::from(info.min)));
        }
    }

    #[test]
    fn the_hand_written_evaluations_weights_are_inert_with_the_network() {
        let mut params = Params::default();
        assert!(params.eval.nnue);
        assert!(params.inert().is_empty());
        params.set("pawn", 120).unwrap(); // the search's ordering and pruning read it too
        params.set("null_move", 0).unwrap();
        assert!(params.inert().is_empty());
        params.set("tempo", 0).unwrap();
        params.set("pst", 50).unwrap();
        assert_eq!(params.inert(), ["pst", "tempo"]);
        params.set("nnue", 0).unwrap();
        assert!(params.inert().is_empty());
    }

    #[test]
    fn each_name_is_one_parameter_of_its_own() {
        // The table gives every name its own place: setting one moves no other (two elements of an
        // array row with the same index would share one), and no name is listed twice.
        let default = Params::default();
        for (i, info) in PARAMS.iter().enumerate() {
            assert!(PARAMS[..i].iter().all(|p| p.name != info.name), "{} listed twice", info.name);
            let mut params = default;
            let value = if default.get(info.name) == Some(i64::from(info.max)) { info.min } else { info.max };
            params.set(info.name, value).unwrap();
            assert_ne!(params, default, "{} changed nothing", info.name);
            for other in PARAMS.iter().filter(|p| p.name != info.name) {
                assert_eq!(
                    params.get(other.name),
                    default.get(other.name),
                    "{} moved {}",
                    info.name,
                    other.name
                );
            }
        }
    }

    #[test]
    fn bad_names_and_values_are_errors() {
        let mut params = Params::default();
        assert!(matches!(params.set("nullmove", 0), Err(ParamError::Unknown(_))));
        assert!(params.set("nullmove", 0).unwrap_err().to_string().contains("null_move"));
        assert!(matches!(params.set("null_move", 2), Err(ParamError::OutOfRange { .. })));
        assert!(matches!(params.set("pawn", -1), Err(ParamError::OutOfRange { .. })));
        params.set("null_move", 0).unwrap();
        assert!(!params.search.null_move);
        params.set("pawn", 90).unwrap();
        assert_eq!(params.eval.material[0], 90);
    }
}
