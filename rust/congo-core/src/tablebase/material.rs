//! Material signatures: which pieces besides the two lions are on the board.
//!
//! A table holds every position of one signature. Its name lists White's pieces, then `v`, then
//! Black's, each side starting with its lion and the other pieces in the order `C E Z G M S P`
//! (crocodile first, pawn last): `LZvLP` is White's lion and zebra against Black's lion and pawn.
//!
//! The colour swap (turn the board around, swap the colours and the side to move) maps a signature
//! onto its mirror image, `LZvLP` onto `LPvLZ`, with the same values; only one of the two is stored.
//! The stored one is the *canonical* orientation: White has more pieces, or as many and the greater
//! ones (comparing the pieces in name order). A signature that is its own colour swap, like `LZvLZ`,
//! is *symmetric*: its table stores White to move only.

use core::fmt;

use crate::board::Board;
use crate::piece::{Color, Role};

/// The most men (pieces, both lions included) a table can hold.
pub const MAX_MEN: usize = 5;

/// The most pieces besides the lions.
pub const MAX_PIECES: usize = MAX_MEN - 2;

/// Number of piece kinds besides the lions: seven roles of each colour.
pub(crate) const KINDS: usize = 14;

/// The roles other than the lion in name order (strongest first by convention).
pub(crate) const NAME_ORDER: [Role; 7] =
    [Role::Crocodile, Role::Elephant, Role::Zebra, Role::Giraffe, Role::Monkey, Role::Superpawn, Role::Pawn];

/// A piece kind besides the lions: `side * 7 + role.index()` with side 0 = White, 1 = Black
/// (`role.index()` is 0 for the pawn … 6 for the crocodile).
pub(crate) type Kind = u8;

#[inline]
pub(crate) const fn kind(color: Color, role: Role) -> Kind {
    (if color.is_white() { 0 } else { 7 }) + role.index() as u8
}

#[inline]
pub(crate) const fn kind_color(kind: Kind) -> Color {
    if kind < 7 {
        Color::White
    } else {
        Color::Black
    }
}

#[inline]
pub(crate) const fn kind_role(kind: Kind) -> Role {
    Role::ALL[(kind % 7) as usize]
}

/// The same piece with the other colour.
#[inline]
pub(crate) const fn swap_kind(kind: Kind) -> Kind {
    if kind < 7 {
        kind + 7
    } else {
        kind - 7
    }
}

/// The pieces besides the two lions, counted by colour and role.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Default)]
pub struct Material {
    /// `counts[side][role.index()]`, side 0 = White.
    counts: [[u8; 7]; 2],
}

/// Why a string is not a material signature.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct MaterialError(pub String);

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MaterialError {}

impl Material {
    /// The material of a board's pieces other than the lions.
    pub fn of_board(board: &Board) -> Material {
        let mut material = Material::default();
        for (side, color) in [(0, Color::White), (1, Color::Black)] {
            for role in NAME_ORDER {
                let n = (board.by_role(role) & board.by_color(color)).count();
                material.counts[side][role.index()] = n.min(u32::from(u8::MAX)) as u8;
            }
        }
        material
    }

    /// Material from piece kinds.
    pub(crate) fn from_kinds(kinds: &[Kind]) -> Material {
        let mut material = Material::default();
        for &k in kinds {
            material.counts[usize::from(k / 7)][usize::from(k % 7)] += 1;
        }
        material
    }

    /// The piece kinds in ascending kind order (each repeated by its count).
    pub(crate) fn kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        (0..KINDS as u8).flat_map(move |k| {
            core::iter::repeat_n(k, usize::from(self.counts[usize::from(k / 7)][usize::from(k % 7)]))
        })
    }

    /// How many pieces of `color` and `role` (0 for the lion, which is not counted).
    pub fn count(&self, color: Color, role: Role) -> u32 {
        if role == Role::Lion {
            return 0;
        }
        u32::from(self.counts[usize::from(!color.is_white())][role.index()])
    }

    /// Pieces besides the lions.
    pub fn pieces(&self) -> usize {
        self.counts.iter().flatten().map(|&n| usize::from(n)).sum()
    }

    /// Men on the board, both lions included.
    pub fn men(&self) -> usize {
        self.pieces() + 2
    }

    /// Pawns of both colours.
    pub fn pawns(&self) -> usize {
        usize::from(self.counts[0][Role::Pawn.index()]) + usize::from(self.counts[1][Role::Pawn.index()])
    }

    /// The material with the colours swapped.
    #[must_use]
    pub fn swapped(&self) -> Material {
        Material { counts: [self.counts[1], self.counts[0]] }
    }

    /// A side's pieces as a comparison key: how many, then the counts in name order.
    fn side_key(&self, side: usize) -> (u8, [u8; 7]) {
        let counts = &self.counts[side];
        (counts.iter().sum(), NAME_ORDER.map(|role| counts[role.index()]))
    }

    /// Whether this is the stored orientation of its signature (see the module docs).
    pub fn is_canonical(&self) -> bool {
        self.side_key(0) >= self.side_key(1)
    }

    /// Whether the signature is its own colour swap.
    pub fn is_symmetric(&self) -> bool {
        self.counts[0] == self.counts[1]
    }

    /// The stored orientation, and whether the colours had to be swapped to get it.
    pub fn canonical(&self) -> (Material, bool) {
        if self.is_canonical() {
            (*self, false)
        } else {
            (self.swapped(), true)
        }
    }

    /// The name, e.g. `LZvLP`.
    pub fn name(&self) -> String {
        let mut name = String::with_capacity(2 * MAX_MEN + 1);
        for side in 0..2 {
            if side == 1 {
                name.push('v');
            }
            name.push('L');
            for role in NAME_ORDER {
                for _ in 0..self.counts[side][role.index()] {
                    name.push(role.upper_char());
                }
            }
        }
        name
    }

    /// Parses a name like `LZvLP` (letters of either case).
    pub fn parse(name: &str) -> Result<Material, MaterialError> {
        let err = |why: &str| MaterialError(format!("invalid material {name:?}: {why}"));
        let upper = name.trim().to_ascii_uppercase();
        let Some((white, black)) = upper.split_once('V') else {
            return Err(err("expected two sides separated by 'v', e.g. LZvLP"));
        };
        let mut material = Material::default();
        for (side, text) in [white, black].into_iter().enumerate() {
            let Some(rest) = text.strip_prefix('L') else {
                return Err(err("each side starts with its lion 'L'"));
            };
            for c in rest.chars() {
                match Role::from_char(c) {
                    Some(Role::Lion) => return Err(err("a side has one lion")),
                    Some(role) => material.counts[side][role.index()] += 1,
                    None => return Err(err(&format!("unknown piece letter {c:?}"))),
                }
            }
        }
        if material.men() > MAX_MEN {
            return Err(err(&format!("tables hold at most {MAX_MEN} men")));
        }
        Ok(material)
    }

    /// Every canonical signature with at most `men` men (2 ≤ men ≤ [`MAX_MEN`]), fewest men first.
    pub fn all_canonical(men: usize) -> Vec<Material> {
        let mut all = Vec::new();
        let mut kinds = Vec::new();
        for pieces in 0..=men.saturating_sub(2).min(MAX_PIECES) {
            combinations(pieces, 0, &mut kinds, &mut |kinds| {
                let material = Material::from_kinds(kinds);
                if material.is_canonical() {
                    all.push(material);
                }
            });
        }
        all
    }

    /// The canonical signatures one move can lead to from a position of this one: pieces removed
    /// (captured or drowned, several at once for a monkey chain or a drowning) and at most one pawn
    /// promoted. A table is generated after all of these.
    pub fn successors(&self) -> Vec<Material> {
        let kinds: Vec<Kind> = self.kinds().collect();
        let mut out = Vec::new();
        for keep in 0u32..(1 << kinds.len()) {
            let kept: Vec<Kind> =
                kinds.iter().enumerate().filter(|(i, _)| keep & (1 << i) != 0).map(|(_, &k)| k).collect();
            let mut push = |m: Material| {
                let (c, _) = m.canonical();
                if c != self.canonical().0 && !out.contains(&c) {
                    out.push(c);
                }
            };
            push(Material::from_kinds(&kept));
            for (i, &k) in kept.iter().enumerate() {
                if kind_role(k) == Role::Pawn {
                    let mut promoted = kept.clone();
                    promoted[i] = kind(kind_color(k), Role::Superpawn);
                    push(Material::from_kinds(&promoted));
                }
            }
        }
        out.sort();
        out
    }
}

/// Calls `f` with every multiset of `n` piece kinds, each kind at least `from`.
fn combinations(n: usize, from: Kind, kinds: &mut Vec<Kind>, f: &mut impl FnMut(&[Kind])) {
    if n == 0 {
        f(kinds);
        return;
    }
    for k in from..KINDS as u8 {
        kinds.push(k);
        combinations(n - 1, k, kinds, f);
        kinds.pop();
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in ["LvL", "LZvL", "LZvLP", "LCEvLp", "LSPvLM", "LvLPPP"] {
            let m = Material::parse(name).unwrap();
            assert_eq!(m.name(), name.to_ascii_uppercase().replace('V', "v"));
        }
        assert!(Material::parse("LZL").is_err());
        assert!(Material::parse("ZvL").is_err());
        assert!(Material::parse("LXvL").is_err());
        assert!(Material::parse("LZZZZvL").is_err());
    }

    #[test]
    fn canonical_orientation() {
        let m = Material::parse("LvLZ").unwrap();
        assert!(!m.is_canonical());
        assert_eq!(m.canonical(), (Material::parse("LZvL").unwrap(), true));
        assert!(Material::parse("LZvLZ").unwrap().is_symmetric());
        assert!(Material::parse("LCvLP").unwrap().is_canonical());
        assert!(!Material::parse("LPvLC").unwrap().is_canonical());
    }

    #[test]
    fn signature_counts() {
        // 1 + 7 + 56 + 280: with n pieces besides the lions, multisets of 14 kinds up to colour swap.
        assert_eq!(Material::all_canonical(2).len(), 1);
        assert_eq!(Material::all_canonical(3).len(), 8);
        assert_eq!(Material::all_canonical(4).len(), 64);
        assert_eq!(Material::all_canonical(5).len(), 344);
    }

    #[test]
    fn successors_lose_material_or_promote() {
        let m = Material::parse("LPvLZ").unwrap();
        let names: Vec<String> = m.successors().iter().map(Material::name).collect();
        assert_eq!(names.len(), 5, "{names:?}");
        for name in ["LvL", "LPvL", "LZvL", "LSvL", "LZvLS"] {
            assert!(names.contains(&name.to_owned()), "{name} missing from {names:?}");
        }
    }
}
