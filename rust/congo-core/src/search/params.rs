//! Tunable switches and weights of the search and the evaluation, settable by name.
//!
//! Every search feature can be switched off and every evaluation term scaled, so that self-play
//! matches (`congo match`) can measure what each one is worth; `docs/engine.md` records those
//! matches. The defaults are the values the matches chose.

use core::fmt;

use super::weights;

/// Switches and numbers of the search. The defaults are the engine as shipped: every switch on, the
/// numbers as `benches/tuning/spsa.py` and the matches of `docs/engine.md` chose them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // independent switches, each measured on its own
pub struct SearchParams {
    /// Cut-offs from the transposition table (it is still used for move ordering when off).
    pub tt_cutoffs: bool,
    /// Quiescence search over captures at the horizon (off: the static evaluation is used there).
    pub quiescence: bool,
    /// Search one ply deeper when the side to move's lion is attacked.
    pub lion_extension: bool,
    /// Null-move pruning.
    pub null_move: bool,
    /// Late move reductions.
    pub lmr: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Reverse futility pruning ("static null move") near the horizon.
    pub futility: bool,
    /// Late move pruning of quiet moves near the horizon.
    pub lmp: bool,
    /// Killer moves in move ordering.
    pub killers: bool,
    /// The history heuristic in move ordering.
    pub history: bool,
    /// Captures ordered by most valuable victim (off: captures keep generation order).
    pub mvv_lva: bool,
    /// Reverse futility margin per ply of remaining depth, centipawns.
    pub futility_margin: i32,
    /// Late move reductions grow as `ln(depth) ln(move number) / (lmr_divisor / 100)`.
    pub lmr_divisor: i32,
    /// The null move's base reduction, plies (more with depth and with the margin over beta).
    pub null_reduction: i32,
    /// The first aspiration window's half-width, centipawns.
    pub aspiration_window: i32,
    /// What a draw is worth to the side the engine plays, below zero: a draw scores `-contempt`
    /// for the side to move at the root and `+contempt` for its opponent, so that the engine
    /// avoids repeating in a position it judges about equal or better. Centipawns.
    pub contempt: i32,
    /// With a fixed time a move (`go movetime`, `Limit(time=…)`), the percentage of it after which
    /// no new iteration starts; 100 searches until the time is up (an iteration cut short still
    /// counts where it found a better move).
    pub movetime_soft: i32,
    /// With a game clock, the percentage of the move's optimum after which no new iteration starts.
    pub clock_soft: i32,
    /// Late move reductions less for quiet moves with a good history, more for a bad one: one ply
    /// per this much history score (0: history does not change reductions).
    pub lmr_history: i32,
    /// Internal iterative reduction: a node of depth 4 or more without a move from the
    /// transposition table is searched one ply shallower (its ordering is a guess anyway).
    pub iir: bool,
    /// Futility pruning of quiet moves: at depth 1 to 3, with the static evaluation this far per
    /// ply below alpha, quiet moves after the first are skipped (0: off). Centipawns.
    pub futility_quiet: i32,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            tt_cutoffs: true,
            quiescence: true,
            lion_extension: true,
            null_move: true,
            lmr: true,
            aspiration: true,
            futility: true,
            lmp: true,
            killers: true,
            history: true,
            mvv_lva: true,
            futility_margin: 98,
            lmr_divisor: 206,
            null_reduction: 3,
            aspiration_window: 24,
            contempt: 0,
            movetime_soft: 100,
            clock_soft: 60,
            lmr_history: 0,
            iir: true,
            futility_quiet: 0,
        }
    }
}

/// Weights of the evaluation, in centipawns or percent of the default scale.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Material value of each role, indexed by [`crate::Role::index`] (the lion's is unused).
    pub material: [i32; 8],
    /// Piece-square tables, percent.
    pub pst: i32,
    /// Mobility, percent.
    pub mobility: i32,
    /// Drowning danger, percent.
    pub drowning: i32,
    /// Enemy pieces attacking the squares around a lion, percent.
    pub lion_safety: i32,
    /// A lone piece between the two lions on a file or diagonal (pinned: moving it loses the lion),
    /// centipawns for its owner.
    pub lion_line: i32,
    /// Pawn advancement, percent.
    pub pawn_advance: i32,
    /// A pawn one step from promotion, centipawns.
    pub promotion: i32,
    /// The side to move's bonus, centipawns.
    pub tempo: i32,
    /// Threats against the side to move's pieces, percent (0, off: see the default).
    pub threats: i32,
    /// The learned evaluation (`search/nnue.rs`, a small network) instead of the hand-written one
    /// (on: see the default; [`EvalParams::hand_written`] turns it off).
    pub nnue: bool,
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        EvalParams {
            // The weights file (search/weights.rs), written by the tuner (docs/engine.md, "Tuning").
            material: weights::MATERIAL,
            pst: 100,
            mobility: 100,
            drowning: 100,
            lion_safety: 100,
            lion_line: weights::LION_LINE,
            pawn_advance: 100,
            // 40 cost about 27 Elo over 700 self-play games: the advancement table already pays 38.
            promotion: 0,
            tempo: weights::TEMPO,
            // Fitted with the other weights, but 400 games at 5,000 nodes found no gain (docs/engine.md).
            threats: 0,
            // An SPRT at equal time found it stronger than the hand-written evaluation (+29 +- 17 Elo,
            // H1 accepted, docs/engine.md), the rule item 5 of the tuning work set for the default.
            nnue: true,
        }
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

const fn switch(name: &'static str, help: &'static str) -> ParamInfo {
    ParamInfo { name, help, min: 0, max: 1, hand_written: false }
}

const fn weight(name: &'static str, help: &'static str, max: i32) -> ParamInfo {
    ParamInfo { name, help, min: 0, max, hand_written: false }
}

/// A weight of the hand-written evaluation only (the material values are not: the search's move
/// ordering and quiescence pruning read them whichever evaluation is on).
const fn hand(name: &'static str, help: &'static str, max: i32) -> ParamInfo {
    ParamInfo { name, help, min: 0, max, hand_written: true }
}

const fn number(name: &'static str, help: &'static str, min: i32, max: i32) -> ParamInfo {
    ParamInfo { name, help, min, max, hand_written: false }
}

/// Every parameter, in a stable order.
pub const PARAMS: &[ParamInfo] = &[
    switch("tt_cutoffs", "cut-offs from the transposition table"),
    switch("quiescence", "quiescence search over captures at the horizon"),
    switch("lion_extension", "extend the search when the side to move's lion is attacked"),
    switch("null_move", "null-move pruning"),
    switch("lmr", "late move reductions"),
    switch("aspiration", "aspiration windows"),
    switch("futility", "reverse futility pruning near the horizon"),
    switch("lmp", "late move pruning of quiet moves near the horizon"),
    switch("killers", "killer moves in move ordering"),
    switch("history", "history heuristic in move ordering"),
    switch("mvv_lva", "order captures by most valuable victim"),
    number("futility_margin", "reverse futility margin per ply (cp)", 0, 1000),
    number("lmr_divisor", "late move reductions: ln(depth) ln(move) / (this / 100)", 50, 1000),
    number("null_reduction", "null-move base reduction (plies)", 1, 8),
    number("aspiration_window", "first aspiration window's half-width (cp)", 1, 1000),
    number("contempt", "what a draw costs the engine's side (cp)", 0, 500),
    number("movetime_soft", "fixed time a move: percent after which no iteration starts", 1, 100),
    number("clock_soft", "game clock: percent of the move's optimum after which no iteration starts", 1, 400),
    number("lmr_history", "history score per ply of late move reduction (0: off)", 0, 65536),
    switch("iir", "internal iterative reduction without a table move"),
    number("futility_quiet", "futility pruning of quiet moves, margin per ply (cp, 0: off)", 0, 1000),
    weight("pawn", "material value of a pawn (cp; the search, and the hand-written evaluation)", 2000),
    weight(
        "superpawn",
        "material value of a superpawn (cp; the search, and the hand-written evaluation)",
        2000,
    ),
    weight("monkey", "material value of a monkey (cp; the search, and the hand-written evaluation)", 2000),
    weight("giraffe", "material value of a giraffe (cp; the search, and the hand-written evaluation)", 2000),
    weight("zebra", "material value of a zebra (cp; the search, and the hand-written evaluation)", 2000),
    weight(
        "elephant",
        "material value of an elephant (cp; the search, and the hand-written evaluation)",
        2000,
    ),
    weight(
        "crocodile",
        "material value of a crocodile (cp; the search, and the hand-written evaluation)",
        2000,
    ),
    hand("pst", "piece-square tables (percent; hand-written evaluation, nnue=0)", 1000),
    hand("mobility", "mobility (percent; hand-written evaluation, nnue=0)", 1000),
    hand("drowning", "drowning danger (percent; hand-written evaluation, nnue=0)", 1000),
    hand(
        "lion_safety",
        "attacks on the squares around a lion (percent; hand-written evaluation, nnue=0)",
        1000,
    ),
    hand("lion_line", "a lone piece between the lions, pinned (cp; hand-written evaluation, nnue=0)", 1000),
    hand("pawn_advance", "pawn advancement (percent; hand-written evaluation, nnue=0)", 1000),
    hand("promotion", "a pawn one step from promotion (cp; hand-written evaluation, nnue=0)", 1000),
    hand("tempo", "bonus for the side to move (cp; hand-written evaluation, nnue=0)", 200),
    hand(
        "threats",
        "threats against the side to move's pieces (percent; hand-written evaluation, nnue=0)",
        1000,
    ),
    switch("nnue", "the learned evaluation (a small network, the default) instead of the hand-written one"),
];

impl Params {
    fn slot(&mut self, name: &str) -> Option<Slot<'_>> {
        let s = &mut self.search;
        let e = &mut self.eval;
        Some(match name {
            "tt_cutoffs" => Slot::Switch(&mut s.tt_cutoffs),
            "quiescence" => Slot::Switch(&mut s.quiescence),
            "lion_extension" => Slot::Switch(&mut s.lion_extension),
            "null_move" => Slot::Switch(&mut s.null_move),
            "lmr" => Slot::Switch(&mut s.lmr),
            "aspiration" => Slot::Switch(&mut s.aspiration),
            "futility" => Slot::Switch(&mut s.futility),
            "lmp" => Slot::Switch(&mut s.lmp),
            "killers" => Slot::Switch(&mut s.killers),
            "history" => Slot::Switch(&mut s.history),
            "mvv_lva" => Slot::Switch(&mut s.mvv_lva),
            "futility_margin" => Slot::Weight(&mut s.futility_margin),
            "lmr_divisor" => Slot::Weight(&mut s.lmr_divisor),
            "null_reduction" => Slot::Weight(&mut s.null_reduction),
            "aspiration_window" => Slot::Weight(&mut s.aspiration_window),
            "contempt" => Slot::Weight(&mut s.contempt),
            "movetime_soft" => Slot::Weight(&mut s.movetime_soft),
            "clock_soft" => Slot::Weight(&mut s.clock_soft),
            "lmr_history" => Slot::Weight(&mut s.lmr_history),
            "iir" => Slot::Switch(&mut s.iir),
            "futility_quiet" => Slot::Weight(&mut s.futility_quiet),
            "pawn" => Slot::Weight(&mut e.material[0]),
            "superpawn" => Slot::Weight(&mut e.material[1]),
            "monkey" => Slot::Weight(&mut e.material[2]),
            "giraffe" => Slot::Weight(&mut e.material[3]),
            "zebra" => Slot::Weight(&mut e.material[4]),
            "elephant" => Slot::Weight(&mut e.material[5]),
            "crocodile" => Slot::Weight(&mut e.material[6]),
            "pst" => Slot::Weight(&mut e.pst),
            "mobility" => Slot::Weight(&mut e.mobility),
            "drowning" => Slot::Weight(&mut e.drowning),
            "lion_safety" => Slot::Weight(&mut e.lion_safety),
            "lion_line" => Slot::Weight(&mut e.lion_line),
            "pawn_advance" => Slot::Weight(&mut e.pawn_advance),
            "promotion" => Slot::Weight(&mut e.promotion),
            "tempo" => Slot::Weight(&mut e.tempo),
            "threats" => Slot::Weight(&mut e.threats),
            "nnue" => Slot::Switch(&mut e.nnue),
            _ => return None,
        })
    }

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
        // The flag and the help text agree (`congo options` and `uci` show the help).
        for info in PARAMS {
            assert_eq!(
                info.hand_written,
                info.help.contains("hand-written evaluation, nnue=0"),
                "{}",
                info.name
            );
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
