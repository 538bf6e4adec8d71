//! Where each position of a table is stored: the index of a position and the position of an index.
//!
//! A table of a canonical signature (see [`super::material`]) is an array, indexed by
//!
//! ```text
//! index = offset[side to move][lion pair] + Σ digit(group) × weight[lion pair][group]
//! ```
//!
//! * **Side to move**: White then Black; a colour-symmetric signature stores White to move only
//!   (Black to move is the colour swap of a White-to-move position of the same table).
//! * **Lion pair**: the 81 placements of the two lions in their castles, up to the file mirror
//!   a↔g: the 45 with the White lion on file c, or on file d with the Black lion on file c or d
//!   ([`LION_PAIRS`], in that order). A position with another lion pair is mirrored first.
//! * **Groups**: the pieces besides the lions, grouped by kind (colour and role) in kind order
//!   (White pawn, superpawn, monkey, giraffe, zebra, elephant, crocodile, then Black's). A group of
//!   `k` identical pieces stands on `k` of the `n` squares of its domain (every square, or for a
//!   pawn every square but its far rank) not taken by a lion; its digit is the colex rank of that
//!   `k`-subset, `Σ C(rᵢ, i)` over the pieces' ranks `r₁ < r₂ < …` among those squares, and it
//!   takes `C(n, k)` values. Groups of different kinds may claim the same square: such indices
//!   are no position.
//!
//! With both lions on file d the file mirror maps the lion pair onto itself, so a position and its
//! mirror image both have an index; the smaller one is the *canonical* index (used while
//! generating), and the file stores the same value at both.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::piece::{Color, Piece, Role};
use crate::square::Square;
use crate::tables::castle_of;

use super::material::{kind_color, kind_role, swap_kind, Kind, Material, MAX_PIECES};

/// Number of lion pairs up to the file mirror.
pub const LION_PAIR_COUNT: usize = 45;

/// Lion pairs whose index follows `i` (both lions on file d: their own mirror image).
pub(crate) const FIRST_SYMMETRIC_PAIR: usize = 36;

/// `C(n, k)` for `n ≤ 49`, `k ≤ MAX_PIECES`.
static BINOMIAL: [[u32; MAX_PIECES + 1]; 64] = binomials();

const fn binomials() -> [[u32; MAX_PIECES + 1]; 64] {
    let mut table = [[0u32; MAX_PIECES + 1]; 64];
    let mut n = 0;
    while n < 50 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES {
            table[n][k] = if n == 0 { 0 } else { table[n - 1][k - 1] + table[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    table
}

#[inline]
fn binomial(n: u32, k: usize) -> u32 {
    BINOMIAL[n as usize][k]
}

/// The file mirror a↔g of a square.
#[inline]
pub(crate) const fn mirror_square(sq: Square) -> Square {
    Square::from_index((sq.rank() * 7 + 6 - sq.file()) as u32)
}

/// The colour swap of a square: ranks turned around.
#[inline]
pub(crate) const fn flip_square(sq: Square) -> Square {
    Square::from_index(((6 - sq.rank()) * 7 + sq.file()) as u32)
}

/// The 45 lion pairs `(white, black)` up to the file mirror, in index order.
pub static LION_PAIRS: [(Square, Square); LION_PAIR_COUNT] = lion_pairs();

const fn castle_squares(color: Color) -> [Square; 9] {
    let castle = castle_of(color).0;
    let mut out = [Square::A1; 9];
    let mut n = 0;
    let mut i = 0;
    while i < 49 {
        if castle & (1 << i) != 0 {
            out[n] = Square::from_index(i);
            n += 1;
        }
        i += 1;
    }
    out
}

const fn lion_pairs() -> [(Square, Square); LION_PAIR_COUNT] {
    let white = castle_squares(Color::White);
    let black = castle_squares(Color::Black);
    let mut out = [(Square::A1, Square::A1); LION_PAIR_COUNT];
    let mut n = 0;
    // Asymmetric pairs first (White lion on file c, or on d with the Black lion on c), then the
    // nine pairs with both lions on file d.
    let mut pass = 0;
    while pass < 2 {
        let mut w = 0;
        while w < 9 {
            let mut b = 0;
            while b < 9 {
                let (wf, bf) = (white[w].file(), black[b].file());
                let asymmetric = wf == 2 || (wf == 3 && bf == 2);
                let symmetric = wf == 3 && bf == 3;
                if (pass == 0 && asymmetric) || (pass == 1 && symmetric) {
                    out[n] = (white[w], black[b]);
                    n += 1;
                }
                b += 1;
            }
            w += 1;
        }
        pass += 1;
    }
    out
}

/// `LION_PAIR_BY_SQUARE[white * 49 + black]`: the index of the lion pair with the White lion on
/// square `white` and the Black lion on `black` (both in their castles), plus [`MIRRORED`] if the
/// pair is the mirror image of the stored one.
static LION_PAIR_BY_SQUARE: [u8; 49 * 49] = lion_pair_by_square();

const fn lion_pair_by_square() -> [u8; 49 * 49] {
    let by_slot = lion_pair_lookup();
    let white = castle_squares(Color::White);
    let black = castle_squares(Color::Black);
    let mut table = [0u8; 49 * 49];
    let mut w = 0;
    while w < 9 {
        let mut b = 0;
        while b < 9 {
            table[white[w].index() * 49 + black[b].index()] =
                by_slot[castle_slot(white[w])][castle_slot(black[b])];
            b += 1;
        }
        w += 1;
    }
    table
}

const MIRRORED: u8 = 0x80;

const fn castle_slot(sq: Square) -> usize {
    // Castle squares are files c–e of three consecutive ranks.
    let rank = sq.rank() as usize;
    let rank_in_castle = if rank >= 4 { rank - 4 } else { rank };
    rank_in_castle * 3 + (sq.file() as usize - 2)
}

/// The lion pair lookup by castle square numbers (0..9 in square order).
const fn lion_pair_lookup() -> [[u8; 9]; 9] {
    let pairs = lion_pairs();
    let mut table = [[0u8; 9]; 9];
    let mut i = 0;
    while i < LION_PAIR_COUNT {
        let (w, b) = pairs[i];
        table[castle_slot(w)][castle_slot(b)] = i as u8;
        let (mw, mb) = (mirror_square(w), mirror_square(b));
        if mw.index() != w.index() || mb.index() != b.index() {
            table[castle_slot(mw)][castle_slot(mb)] = i as u8 | MIRRORED;
        }
        i += 1;
    }
    table
}

/// The roles besides the lion in kind order.
const PIECE_ROLES: [Role; 7] =
    [Role::Pawn, Role::Superpawn, Role::Monkey, Role::Giraffe, Role::Zebra, Role::Elephant, Role::Crocodile];

/// A table position in a compact form: the lions, the other pieces as `(kind, square)` sorted by
/// kind then square, and the side to move.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) struct Placement {
    pub white_lion: Square,
    pub black_lion: Square,
    pub pieces: [(Kind, Square); MAX_PIECES],
    pub len: usize,
    pub turn: Color,
}

impl Placement {
    /// The placement of a board with both lions and at most [`MAX_PIECES`] other pieces.
    #[inline]
    pub fn of_board(board: &Board, turn: Color) -> Option<Placement> {
        let lions = board.by_role(Role::Lion);
        let white = board.by_color(Color::White);
        let white_lion = (lions & white).first()?;
        let black_lion = (lions & !white).first()?;
        let others = board.occupied() & !lions;
        if others.count() as usize > MAX_PIECES {
            return None;
        }
        let mut placement =
            Placement { white_lion, black_lion, pieces: [(0, Square::A1); MAX_PIECES], len: 0, turn };
        // Kind order is colour then role: walking the role boards this way lists the pieces sorted.
        let mut kind = 0;
        for color_set in [others & white, others & !white] {
            for role in PIECE_ROLES {
                for sq in board.by_role(role) & color_set {
                    placement.pieces[placement.len] = (kind, sq);
                    placement.len += 1;
                }
                kind += 1;
            }
        }
        Some(placement)
    }

    #[inline]
    pub fn pieces(&self) -> &[(Kind, Square)] {
        &self.pieces[..self.len]
    }

    #[inline]
    pub(crate) fn sort(&mut self) {
        // At most three entries: insertion sort.
        let p = &mut self.pieces[..self.len];
        for i in 1..p.len() {
            let mut j = i;
            while j > 0 && p[j - 1] > p[j] {
                p.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// The material of the pieces besides the lions.
    #[cfg(test)]
    pub fn material(&self) -> Material {
        let kinds: [Kind; MAX_PIECES] = core::array::from_fn(|i| self.pieces[i].0);
        Material::from_kinds(&kinds[..self.len])
    }

    /// The file mirror a↔g.
    #[inline]
    #[must_use]
    pub fn mirrored(&self) -> Placement {
        let mut out = *self;
        out.white_lion = mirror_square(self.white_lion);
        out.black_lion = mirror_square(self.black_lion);
        for p in &mut out.pieces[..out.len] {
            p.1 = mirror_square(p.1);
        }
        out.sort();
        out
    }

    /// The colour swap: ranks turned around, colours and side to move swapped.
    #[inline]
    #[must_use]
    pub fn colour_swapped(&self) -> Placement {
        let mut out = *self;
        out.white_lion = flip_square(self.black_lion);
        out.black_lion = flip_square(self.white_lion);
        for p in &mut out.pieces[..out.len] {
            *p = (swap_kind(p.0), flip_square(p.1));
        }
        out.turn = !self.turn;
        out.sort();
        out
    }

    /// The board of this placement.
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        board.put(self.white_lion, Piece::new(Role::Lion, Color::White));
        board.put(self.black_lion, Piece::new(Role::Lion, Color::Black));
        for &(k, sq) in self.pieces() {
            board.put(sq, Piece::new(kind_role(k), kind_color(k)));
        }
        board
    }
}

/// One group of identical pieces in a table.
#[derive(Copy, Clone, Debug)]
struct Group {
    kind: Kind,
    count: usize,
    /// The squares the kind may stand on (lions aside).
    domain: Bitboard,
}

/// The index layout of one canonical signature.
#[derive(Clone, Debug)]
pub struct Layout {
    material: Material,
    symmetric: bool,
    groups: Vec<Group>,
    /// `offsets[side * 45 + pair]`, then the total length.
    offsets: Vec<u64>,
    /// `weights[pair][group]`: the value of one step of the group's digit.
    weights: Vec<[u64; MAX_PIECES]>,
    /// `radix[pair][group]`: how many digits the group has.
    radix: Vec<[u64; MAX_PIECES]>,
    /// `free[pair][group]`: the squares of the group's domain not taken by a lion, in order.
    free: Vec<[[u8; 49]; MAX_PIECES]>,
    /// Per piece slot of a placement (pieces sorted by kind): its group, its number within the
    /// group counted from 1, and per group the domain as a mask.
    piece_group: [u8; MAX_PIECES],
    piece_rank: [u8; MAX_PIECES],
    domains: [u64; MAX_PIECES],
}

impl Layout {
    /// The layout of a canonical signature's table.
    pub fn new(material: Material) -> Layout {
        debug_assert!(material.is_canonical());
        let mut groups: Vec<Group> = Vec::new();
        for k in material.kinds() {
            match groups.last_mut() {
                Some(g) if g.kind == k => g.count += 1,
                _ => {
                    let color = kind_color(k);
                    let domain = if kind_role(k) == Role::Pawn {
                        !Bitboard::rank(color.far_rank())
                    } else {
                        Bitboard::FULL
                    };
                    groups.push(Group { kind: k, count: 1, domain });
                }
            }
        }
        let symmetric = material.is_symmetric();
        let sides = if symmetric { 1 } else { 2 };
        let mut weights = vec![[0u64; MAX_PIECES]; LION_PAIR_COUNT];
        let mut radix = vec![[1u64; MAX_PIECES]; LION_PAIR_COUNT];
        let mut pair_sizes = [0u64; LION_PAIR_COUNT];
        let mut free = vec![[[0u8; 49]; MAX_PIECES]; LION_PAIR_COUNT];
        for (pair, &(wl, bl)) in LION_PAIRS.iter().enumerate() {
            let lions = Bitboard::from_square(wl).with(bl);
            let mut size = 1u64;
            for (g, group) in groups.iter().enumerate().rev() {
                for (i, sq) in (group.domain & !lions).into_iter().enumerate() {
                    free[pair][g][i] = sq.index() as u8;
                }
                let n = (group.domain & !lions).count();
                weights[pair][g] = size;
                radix[pair][g] = u64::from(binomial(n, group.count));
                size *= radix[pair][g];
            }
            pair_sizes[pair] = size;
        }
        let mut offsets = Vec::with_capacity(sides * LION_PAIR_COUNT + 1);
        let mut total = 0;
        for _ in 0..sides {
            for size in pair_sizes {
                offsets.push(total);
                total += size;
            }
        }
        offsets.push(total);
        let mut piece_group = [0u8; MAX_PIECES];
        let mut piece_rank = [0u8; MAX_PIECES];
        let mut domains = [0u64; MAX_PIECES];
        let mut slot = 0;
        for (g, group) in groups.iter().enumerate() {
            domains[g] = group.domain.0;
            for i in 0..group.count {
                piece_group[slot] = g as u8;
                piece_rank[slot] = i as u8 + 1;
                slot += 1;
            }
        }
        Layout {
            material,
            symmetric,
            groups,
            offsets,
            weights,
            radix,
            free,
            piece_group,
            piece_rank,
            domains,
        }
    }

    pub fn material(&self) -> Material {
        self.material
    }

    /// Whether only White to move is stored (a colour-symmetric signature).
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// Sides to move stored: 1 or 2.
    pub fn sides(&self) -> usize {
        if self.symmetric {
            1
        } else {
            2
        }
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.offsets[self.offsets.len() - 1]
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index range of one side to move and lion pair.
    pub(crate) fn pair_range(&self, side: usize, pair: usize) -> (u64, u64) {
        let i = side * LION_PAIR_COUNT + pair;
        (self.offsets[i], self.offsets[i + 1])
    }

    /// Brings a placement of this signature (in either colour orientation) into the stored
    /// orientation: colours swapped if needed (and for a symmetric signature with Black to move),
    /// files mirrored if the lion pair is not a stored one. Returns it with its lion pair.
    #[inline]
    pub(crate) fn orient(&self, placement: &Placement, swap: bool) -> (Placement, usize) {
        let mut p = if swap || (self.symmetric && placement.turn == Color::Black) {
            placement.colour_swapped()
        } else {
            *placement
        };
        let pair = LION_PAIR_BY_SQUARE[p.white_lion.index() * 49 + p.black_lion.index()];
        if pair & MIRRORED != 0 {
            p = p.mirrored();
        }
        (p, usize::from(pair & !MIRRORED))
    }

    /// The index of an oriented placement with its lion pair, without the mirror canonicalisation
    /// of symmetric lion pairs.
    #[inline]
    fn raw_index(&self, p: &Placement, pair: usize) -> u64 {
        let side = usize::from(p.turn == Color::Black);
        let lions = Bitboard::from_square(p.white_lion).with(p.black_lion).0;
        let mut index = self.offsets[side * LION_PAIR_COUNT + pair];
        let weights = &self.weights[pair];
        // Piece i belongs to group piece_group[i] and is number piece_rank[i] within it.
        for i in 0..p.len.min(MAX_PIECES) {
            let g = usize::from(self.piece_group[i]);
            let free = self.domains[g] & !lions;
            let rank = rank_in(free, p.pieces[i].1);
            let digit = BINOMIAL[rank as usize & 63][usize::from(self.piece_rank[i])];
            index += u64::from(digit) * weights[g];
        }
        index
    }

    /// The canonical index of a placement of this signature (`swap`: its colours are the other way
    /// round), and whether the position is its own mirror image.
    #[inline]
    pub(crate) fn index(&self, placement: &Placement, swap: bool) -> (u64, bool) {
        let (p, pair) = self.orient(placement, swap);
        let index = self.raw_index(&p, pair);
        if pair < FIRST_SYMMETRIC_PAIR {
            return (index, false);
        }
        let mirror = self.raw_index(&p.mirrored(), pair);
        (index.min(mirror), index == mirror)
    }

    /// The index where a placement is stored in the file (its own, which holds the same value as
    /// the canonical one).
    #[inline]
    pub(crate) fn file_index(&self, placement: &Placement, swap: bool) -> u64 {
        let (p, pair) = self.orient(placement, swap);
        self.raw_index(&p, pair)
    }

    /// Calls `f(index, placement)` for every position of one side to move and lion pair, in index
    /// order (indices where two pieces would share a square are skipped).
    pub(crate) fn for_each_in_pair(&self, side: usize, pair: usize, f: &mut impl FnMut(u64, &Placement)) {
        let (white_lion, black_lion) = LION_PAIRS[pair];
        let mut p = Placement {
            white_lion,
            black_lion,
            pieces: [(0, Square::A1); MAX_PIECES],
            len: 0,
            turn: if side == 0 { Color::White } else { Color::Black },
        };
        let (start, _) = self.pair_range(side, pair);
        let taken = Bitboard::from_square(white_lion).with(black_lion);
        self.enumerate(pair, 0, start, taken, &mut p, f);
    }

    fn enumerate(
        &self,
        pair: usize,
        g: usize,
        base: u64,
        taken: Bitboard,
        p: &mut Placement,
        f: &mut impl FnMut(u64, &Placement),
    ) {
        let Some(group) = self.groups.get(g) else {
            f(base, p);
            return;
        };
        let free = &self.free[pair][g];
        let at = p.len;
        'digits: for digit in 0..self.radix[pair][g] {
            let ranks = unrank(digit as u32, group.count);
            let mut now = taken;
            for (i, &rank) in ranks[..group.count].iter().enumerate() {
                let sq = Square::from_index(u32::from(free[usize::from(rank)]));
                if now.contains(sq) {
                    continue 'digits;
                }
                now = now.with(sq);
                p.pieces[at + i] = (group.kind, sq);
            }
            p.len = at + group.count;
            self.enumerate(pair, g + 1, base + digit * self.weights[pair][g], now, p, f);
            p.len = at;
        }
    }

    /// Whether an index of a lion pair with both lions on file d is a mirror image stored under
    /// a smaller index (`Some(that index)`).
    #[inline]
    pub(crate) fn mirror_twin(&self, p: &Placement, pair: usize, index: u64) -> Option<u64> {
        if pair < FIRST_SYMMETRIC_PAIR {
            return None;
        }
        let mirror = self.raw_index(&p.mirrored(), pair);
        (mirror < index).then_some(mirror)
    }

    /// Quick indices for the quiet un-moves of a piece other than a lion from `p` (stored
    /// orientation, lion pair `pair`, at `index`): moving one piece back changes one group's digit
    /// and the side to move, nothing else. `None` where the index has to be computed afresh: a
    /// colour-symmetric signature (its Black-to-move positions are stored colour-swapped) or both
    /// lions on file d (the mirror image may have the smaller index).
    #[inline]
    pub(crate) fn unmove_indexer(&self, p: &Placement, pair: usize, index: u64) -> Option<UnmoveIndexer> {
        if self.symmetric || pair >= FIRST_SYMMETRIC_PAIR {
            return None;
        }
        let side = usize::from(p.turn == Color::Black);
        let shifted = index - self.offsets[side * LION_PAIR_COUNT + pair]
            + self.offsets[(1 - side) * LION_PAIR_COUNT + pair];
        let lions = Bitboard::from_square(p.white_lion).with(p.black_lion);
        let mut out = UnmoveIndexer { pieces: [QuickSlot::default(); MAX_PIECES] };
        let mut first = 0;
        for (g, group) in self.groups.iter().enumerate() {
            let free = (group.domain & !lions).0;
            let weight = self.weights[pair][g];
            let squares = &p.pieces[first..first + group.count];
            let digit: u32 =
                squares.iter().enumerate().map(|(i, &(_, sq))| binomial(rank_in(free, sq), i + 1)).sum();
            for i in 0..group.count {
                out.pieces[first + i] = QuickSlot {
                    base: shifted - u64::from(digit) * weight,
                    weight,
                    free,
                    first: first as u8,
                    count: group.count as u8,
                };
            }
            first += group.count;
        }
        Some(out)
    }

    /// Decodes an index into its placement and lion pair, or `None` if two pieces share a square.
    pub(crate) fn placement_and_pair(&self, index: u64) -> Option<(Placement, usize)> {
        if index >= self.len() {
            return None;
        }
        let i = self.offsets.partition_point(|&o| o <= index) - 1;
        self.decode(index, i).map(|p| (p, i % LION_PAIR_COUNT))
    }

    /// Decodes an index of block `i` (side to move × lion pair).
    #[inline]
    fn decode(&self, index: u64, i: usize) -> Option<Placement> {
        let (side, pair) = (i / LION_PAIR_COUNT, i % LION_PAIR_COUNT);
        let (white_lion, black_lion) = LION_PAIRS[pair];
        let lions = Bitboard::from_square(white_lion).with(black_lion);
        let mut rest = index - self.offsets[i];
        let mut p = Placement {
            white_lion,
            black_lion,
            pieces: [(0, Square::A1); MAX_PIECES],
            len: 0,
            turn: if side == 0 { Color::White } else { Color::Black },
        };
        let mut taken = lions;
        for (g, group) in self.groups.iter().enumerate() {
            let digit = rest / self.weights[pair][g];
            rest %= self.weights[pair][g];
            debug_assert!(digit < self.radix[pair][g]);
            let free = &self.free[pair][g];
            let ranks = unrank(digit as u32, group.count);
            for &rank in &ranks[..group.count] {
                let sq = Square::from_index(u32::from(free[usize::from(rank)]));
                if taken.contains(sq) {
                    return None;
                }
                taken = taken.with(sq);
                p.pieces[p.len] = (group.kind, sq);
                p.len += 1;
            }
        }
        Some(p)
    }
}

/// The rank of a square among the squares of `free` (those below it).
#[inline]
fn rank_in(free: u64, sq: Square) -> u32 {
    (free & ((1u64 << sq.index()) - 1)).count_ones()
}

/// Per piece of a placement: what its un-moves change in the index.
#[derive(Copy, Clone, Default, Debug)]
struct QuickSlot {
    /// The index of the position before the un-move, less the piece's group digit.
    base: u64,
    weight: u64,
    free: u64,
    first: u8,
    count: u8,
}

/// Quick indices of the positions a quiet un-move of a piece other than a lion leads to.
#[derive(Copy, Clone, Debug)]
pub(crate) struct UnmoveIndexer {
    pieces: [QuickSlot; MAX_PIECES],
}

impl UnmoveIndexer {
    /// The canonical index of `p` with the piece at `slot` moved back to `from` and the other
    /// side to move.
    #[inline]
    pub(crate) fn index(&self, p: &Placement, slot: usize, from: Square) -> u64 {
        let q = &self.pieces[slot];
        if q.count == 1 {
            return q.base + u64::from(rank_in(q.free, from)) * q.weight;
        }
        let (first, count) = (usize::from(q.first), usize::from(q.count));
        let mut ranks = [0u32; MAX_PIECES];
        for (i, rank) in ranks.iter_mut().enumerate().take(count) {
            let sq = if first + i == slot { from } else { p.pieces[first + i].1 };
            *rank = rank_in(q.free, sq);
        }
        let ranks = &mut ranks[..count];
        ranks.sort_unstable();
        let digit: u32 = ranks.iter().enumerate().map(|(i, &r)| binomial(r, i + 1)).sum();
        q.base + u64::from(digit) * q.weight
    }
}

/// The `k` ranks `r₁ < … < r_k` whose colex rank `Σ C(rᵢ, i)` is `digit`.
const fn unrank_slow(mut digit: u32, k: usize) -> [u8; MAX_PIECES] {
    let mut ranks = [0u8; MAX_PIECES];
    let mut i = k;
    while i >= 1 {
        // The largest r with C(r, i) <= digit.
        let mut r = i - 1;
        while r < 49 && BINOMIAL_CONST[r + 1][i] <= digit {
            r += 1;
        }
        digit -= BINOMIAL_CONST[r][i];
        ranks[i - 1] = r as u8;
        i -= 1;
    }
    ranks
}

const BINOMIAL_CONST: [[u32; MAX_PIECES + 1]; 64] = binomials();

/// Every digit of a group of three pieces among 49 squares.
const UNRANK_LEN: usize = 18_424;

/// `UNRANK[k - 1][digit]`: the ranks of a `k`-subset from its colex rank (k = 2, 3; k = 1 is the
/// digit itself).
static UNRANK: [[[u8; MAX_PIECES]; UNRANK_LEN]; 2] = unrank_table();

// Evaluated at compile time only: the array never lives on a stack.
#[allow(clippy::large_stack_arrays)]
const fn unrank_table() -> [[[u8; MAX_PIECES]; UNRANK_LEN]; 2] {
    let mut table = [[[0u8; MAX_PIECES]; UNRANK_LEN]; 2];
    let mut k = 2;
    while k <= 3 {
        let mut digit = 0;
        while digit < BINOMIAL_CONST[49][k] as usize {
            table[k - 2][digit] = unrank_slow(digit as u32, k);
            digit += 1;
        }
        k += 1;
    }
    table
}

/// The `k` ranks `r₁ < … < r_k` whose colex rank `Σ C(rᵢ, i)` is `digit`.
#[inline]
fn unrank(digit: u32, k: usize) -> [u8; MAX_PIECES] {
    match k {
        1 => [digit as u8, 0, 0],
        2 | 3 => UNRANK[k - 2][digit as usize],
        _ => [0; MAX_PIECES],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lion_pairs_cover_every_placement_up_to_the_mirror() {
        assert_eq!(LION_PAIRS.len(), 45);
        for w in castle_squares(Color::White) {
            for b in castle_squares(Color::Black) {
                let entry = LION_PAIR_BY_SQUARE[w.index() * 49 + b.index()];
                let (sw, sb) = LION_PAIRS[usize::from(entry & !MIRRORED)];
                if entry & MIRRORED == 0 {
                    assert_eq!((sw, sb), (w, b));
                } else {
                    assert_eq!((sw, sb), (mirror_square(w), mirror_square(b)));
                }
            }
        }
        for (i, &(w, b)) in LION_PAIRS.iter().enumerate() {
            assert_eq!(i >= FIRST_SYMMETRIC_PAIR, w.file() == 3 && b.file() == 3);
        }
    }

    #[test]
    fn unrank_inverts_colex_rank() {
        for a in 0..49u32 {
            for b in a + 1..49 {
                assert_eq!(unrank(binomial(a, 1) + binomial(b, 2), 2), [a as u8, b as u8, 0]);
                for c in b + 1..49 {
                    let digit = binomial(a, 1) + binomial(b, 2) + binomial(c, 3);
                    assert_eq!(unrank(digit, 3), [a as u8, b as u8, c as u8]);
                }
            }
        }
    }

    #[test]
    fn every_index_decodes_to_a_placement_with_that_index() {
        for name in ["LvL", "LZvL", "LPvL", "LZvLZ", "LPvLP", "LZZvL", "LEPvLP", "LSSSvL"] {
            let material = Material::parse(name).unwrap().canonical().0;
            let layout = Layout::new(material);
            let (mut positions, mut twins) = (0, 0);
            let step = 1 + layout.len() / 200_000;
            for side in 0..layout.sides() {
                for pair in 0..LION_PAIR_COUNT {
                    layout.for_each_in_pair(side, pair, &mut |index, p| {
                        if index % step != 0 {
                            return;
                        }
                        assert_eq!(layout.placement_and_pair(index), Some((*p, pair)), "{name} {index}");
                        assert_eq!(layout.file_index(p, false), index);
                        let (canonical, symmetric) = layout.index(p, false);
                        if let Some(twin) = layout.mirror_twin(p, pair, index) {
                            twins += 1;
                            assert_eq!(canonical, twin);
                        } else {
                            positions += 1;
                            assert_eq!(canonical, index);
                        }
                        assert_eq!(symmetric, p.mirrored() == *p);
                        // The colour swap of a position has the same index in the swapped
                        // orientation.
                        let swapped = p.colour_swapped();
                        assert_eq!(layout.index(&swapped, !layout.is_symmetric()).0, canonical);
                        assert_eq!(p.material(), material);
                    });
                }
            }
            assert!(positions > 0, "{name}");
            if material.pieces() > 0 {
                assert!(twins > 0, "{name}");
            }
        }
    }
}
