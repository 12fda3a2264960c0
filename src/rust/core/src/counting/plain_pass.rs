//! The pass over q for several targets at once, when nothing can remove a cell: no
//! exclusion, no missing key that usekeysNA drops, no tau curve, one record per row,
//! and every dataset read in row order (one bucket). Most calls are so (synthpop's
//! defaults), and the key sweep's are. Each q's rows and its shape (records on each
//! side) are read once for every target and synthesis instead of once per target, the
//! targets' codes of a row are one read (`TargetRows`), and a q of at most one record
//! on each side, most q of many keys, is added without counting by level, as is a
//! synthesis with a few records in a q (most of small data's, with m > 1).
//!
//! Its tallies equal, bit for bit, those of `sweep_views` on the same q range: every
//! q adds the same values to each tally in the same q order (`sweep.rs`'s
//! `add_plain_sums`, which the engine's pass writes inline). A test holds the two
//! passes together.

use crate::codes::{CodeSource, LevelCodes};
use crate::error::{CoreError, CoreResult};
use crate::rows_by_q::RowsByQ;
use crate::sweep::{add_one_sided_sums, add_plain_pair, add_plain_sums, PlainSums, Tally};
use crate::with_codes;
use std::ops::IndexMut;

/// The codes of several targets, row by row, so that a record's targets are one read:
/// a byte per target when every target has at most 256 levels, else two bytes (at
/// most `PACKED_LEVELS` levels).
pub struct TargetRows {
    codes: PackedCodes,
    width: usize,
}

/// The codes of a `TargetRows`, one byte or two a code.
enum PackedCodes {
    Narrow(Vec<u8>),
    Wide(Vec<u16>),
}

/// Targets of more levels than this are not packed (and the plain pass does not apply):
/// a side's counts take `PACKED_LEVELS` slots per target, so that a code indexes them
/// without a bounds check.
pub const PACKED_LEVELS: u32 = 4096;

/// A packed code: `u8` for targets of at most 256 levels, `u16` for wider ones. The pass
/// is compiled once for each, so that the narrow targets keep the small counts that fit
/// the cache.
trait PackedCode: Copy + PartialEq + Default + Send + Sync + 'static {
    /// The counts' slots per target: every code is below it.
    const LEVELS: usize;
    /// A target's counts, `LEVELS` slots, and its mask of levels present, a bit a slot:
    /// arrays of a fixed length, so that a code (below `LEVELS`) indexes them without a
    /// bounds check.
    type Counts: Copy + Send + Sync + IndexMut<usize, Output = u32> + AsRef<[u32]> + AsMut<[u32]>;
    type Mask: Copy + Send + Sync + IndexMut<usize, Output = u64> + AsRef<[u64]> + AsMut<[u64]>;
    const NO_COUNTS: Self::Counts;
    const NO_MASK: Self::Mask;
    fn from_level(level: u32) -> Self;
    /// The code as an index below `LEVELS` (the mask lets the compiler drop the bounds
    /// check; codes are below their target's levels, so it changes nothing).
    fn index(self) -> usize;
    fn codes(packed: &PackedCodes) -> Option<&[Self]>;
}

impl PackedCode for u8 {
    const LEVELS: usize = 256;
    type Counts = [u32; 256];
    type Mask = [u64; 4];
    const NO_COUNTS: Self::Counts = [0; 256];
    const NO_MASK: Self::Mask = [0; 4];
    #[inline(always)]
    fn from_level(level: u32) -> Self {
        level as u8
    }
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
    fn codes(packed: &PackedCodes) -> Option<&[Self]> {
        match packed {
            PackedCodes::Narrow(c) => Some(c),
            PackedCodes::Wide(_) => None,
        }
    }
}

impl PackedCode for u16 {
    const LEVELS: usize = PACKED_LEVELS as usize;
    type Counts = [u32; PACKED_LEVELS as usize];
    type Mask = [u64; PACKED_LEVELS as usize / 64];
    const NO_COUNTS: Self::Counts = [0; PACKED_LEVELS as usize];
    const NO_MASK: Self::Mask = [0; PACKED_LEVELS as usize / 64];
    #[inline(always)]
    fn from_level(level: u32) -> Self {
        level as u16
    }
    #[inline(always)]
    fn index(self) -> usize {
        self as usize & (Self::LEVELS - 1)
    }
    fn codes(packed: &PackedCodes) -> Option<&[Self]> {
        match packed {
            PackedCodes::Wide(c) => Some(c),
            PackedCodes::Narrow(_) => None,
        }
    }
}

impl TargetRows {
    /// `columns`: one column of codes per target, each of `n_rows` rows, packed a byte
    /// a code when `max_levels` (the targets' most levels) is at most 256, else two.
    pub fn new(columns: &[&LevelCodes<'_>], n_rows: usize, max_levels: u32) -> Self {
        let width = columns.len();
        let codes = if max_levels <= u8::LEVELS as u32 {
            PackedCodes::Narrow(Self::pack(columns, n_rows))
        } else {
            PackedCodes::Wide(Self::pack(columns, n_rows))
        };
        TargetRows { codes, width }
    }

    fn pack<C: PackedCode>(columns: &[&LevelCodes<'_>], n_rows: usize) -> Vec<C> {
        let width = columns.len();
        let mut codes = crate::memory::filled(n_rows * width, C::default());
        for (t, column) in columns.iter().enumerate() {
            let mut rows = codes.chunks_exact_mut(width.max(1));
            with_codes!(*column, |c| {
                c.for_each_in(0..n_rows.min(c.n_rows()), |_, code| {
                    if let Some(out) = rows.next() {
                        out[t] = C::from_level(code);
                    }
                })
            });
        }
        codes
    }

    /// Whether a code takes two bytes.
    fn is_wide(&self) -> bool {
        matches!(self.codes, PackedCodes::Wide(_))
    }

    /// The bytes it holds.
    pub fn bytes_held(&self) -> usize {
        match &self.codes {
            PackedCodes::Narrow(c) => c.len(),
            PackedCodes::Wide(c) => 2 * c.len(),
        }
    }

    /// The bytes `new` takes for `n_rows` rows of `n_targets` targets of at most
    /// `max_levels` levels.
    pub fn bytes(n_rows: usize, n_targets: usize, max_levels: u32) -> usize {
        n_rows * n_targets * if max_levels <= u8::LEVELS as u32 { 1 } else { 2 }
    }

    /// The codes as `C`, or `None` when packed at the other width.
    fn rows<C: PackedCode>(&self) -> Option<Rows<'_, C>> {
        C::codes(&self.codes).map(|codes| Rows { codes, width: self.width })
    }
}

/// The packed codes of one dataset, read at their width.
#[derive(Clone, Copy)]
struct Rows<'a, C> {
    codes: &'a [C],
    width: usize,
}

impl<'a, C: PackedCode> Rows<'a, C> {
    #[inline(always)]
    fn row(&self, r: u32) -> &'a [C] {
        let at = r as usize * self.width;
        &self.codes[at..at + self.width]
    }

    /// The codes of row `r` for the targets `targets` (a range within the width).
    #[inline(always)]
    fn targets_of(&self, r: u32, targets: &std::ops::Range<usize>) -> &'a [C] {
        let at = r as usize * self.width;
        &self.codes[at + targets.start..at + targets.end]
    }
}

/// One synthesis of the pass: its rows grouped by q (dataset row ids) and its targets'
/// codes.
pub struct PlainView<'a> {
    pub rows: &'a RowsByQ,
    pub codes: &'a TargetRows,
}

/// What the pass reads: the original's rows by q and codes, the syntheses, and per
/// target (in `TargetRows` order) its levels and 2-way cell threshold. Every dataset's
/// targets are packed at one width.
pub struct PlainInput<'a> {
    pub rows_orig: &'a RowsByQ,
    pub codes_orig: &'a TargetRows,
    pub views: &'a [PlainView<'a>],
    pub n_levels: &'a [u32],
    pub twoway_min_cell: &'a [f64],
    /// The key-by-target tables of the 2-way totals to make on the way, if any.
    pub joint: Option<KeyJoint<'a>>,
}

/// The original's records by (key level, target level) of every key, for the targets
/// that want them: the tables of the 2-way totals (key_target_counts.rs), added from
/// each q's counts by level, which the pass makes anyway, so that a table costs the
/// original's (q, level) cells rather than a pass over its rows (Adult: 78,325 cells
/// for nine targets against 48,842 rows each).
#[derive(Clone, Copy)]
pub struct KeyJoint<'a> {
    /// Key level codes of each q: `q_keys[q * key_levels.len() + k]` (`KeyIndex`).
    pub q_keys: &'a [u32],
    /// Levels of each key.
    pub key_levels: &'a [u32],
    /// Per packed target: whether its tables are made.
    pub wanted: &'a [bool],
}

/// Per key, the records at `key_level * target_levels + target_level` (the layout of
/// `KeyTargetCounts`).
pub type JointTables = Vec<Vec<u64>>;

/// Adds the key tables `part` (of another run of q) into `sum`, table by table.
pub fn add_joint_tables(sum: &mut JointTables, part: &JointTables) {
    for (s, p) in sum.iter_mut().zip(part) {
        for (x, y) in s.iter_mut().zip(p) {
            *x += y;
        }
    }
}

/// What a piece of the pass returns: one tally per (target, synthesis), target-major,
/// and per target its key tables (of its run of q) when it wanted them.
pub struct PlainPiece {
    pub tallies: Vec<Tally>,
    pub joint: Vec<Option<JointTables>>,
}

/// `PlainInput` with every dataset's codes read at width `C`.
struct PlainCodes<'a, C> {
    rows_orig: &'a RowsByQ,
    codes_orig: Rows<'a, C>,
    view_rows: Vec<&'a RowsByQ>,
    view_codes: Vec<Rows<'a, C>>,
    n_levels: &'a [u32],
    twoway_min_cell: &'a [f64],
    joint: Option<KeyJoint<'a>>,
}

/// Buffers of the pass: each side's counts, per target the original's sum of squared
/// records and number of levels in the current q, and the key tables being made.
struct PlainScratch<C: PackedCode> {
    orig: SideCounts<C>,
    syn: SideCounts<C>,
    orig_sums: Vec<(u64, u32)>,
    joint: Vec<Option<JointTables>>,
}

impl<C> PlainCodes<'_, C> {
    /// The key levels of q, for the key tables (empty when none are made).
    #[inline(always)]
    fn keys_of(&self, q: usize) -> &[u32] {
        match self.joint {
            Some(j) => {
                let n_keys = j.key_levels.len();
                &j.q_keys[q * n_keys..(q + 1) * n_keys]
            }
            None => &[],
        }
    }
}

/// Records by target level of one side of a q, for every target of the pass at once:
/// per target its `C::LEVELS` counts and the levels present as bits. Wide codes also
/// mark which words of a mask are in use, so that reading and clearing the levels of a
/// q cost the levels it has, not the target's. All zero between two q.
struct SideCounts<C: PackedCode> {
    counts: Vec<C::Counts>,
    present: Vec<C::Mask>,
    /// Per target (wide codes only): bit `w` set when word `w` of its mask is not zero.
    words_used: Vec<u64>,
    /// Per target, the words of its mask that its levels use.
    words: Vec<usize>,
}

/// Records of a side of a q from which its masks are made from its counts (narrow
/// codes; wide codes are always counted one by one).
const MANY_ROWS: usize = 64;

impl<C: PackedCode> SideCounts<C> {
    /// The words of a target's mask.
    const MASK_WORDS: usize = C::LEVELS / 64;
    /// Whether the words in use are marked (`words_used`): the masks of wide codes are
    /// too long to read whole at every q.
    const MARKS_WORDS: bool = C::LEVELS > 256;

    /// Counts for targets of `n_levels` levels each.
    fn new(n_levels: &[u32]) -> Self {
        SideCounts {
            counts: vec![C::NO_COUNTS; n_levels.len()],
            present: vec![C::NO_MASK; n_levels.len()],
            words_used: vec![0; n_levels.len()],
            words: n_levels.iter().map(|&l| (l as usize).div_ceil(64).clamp(1, Self::MASK_WORDS)).collect(),
        }
    }

    /// Counts the rows `rows` (one record each) for the targets `targets`. A code
    /// indexes its target's counts and mask without a bounds check.
    #[inline(always)]
    fn count(&mut self, rows: &[u32], codes: Rows<'_, C>, targets: &std::ops::Range<usize>) {
        let n = targets.len();
        let (counts, present, used) = (&mut self.counts[..n], &mut self.present[..n], &mut self.words_used[..n]);
        for &r in rows {
            let row = codes.targets_of(r, targets);
            if Self::MARKS_WORDS {
                let per_target = counts.iter_mut().zip(present.iter_mut()).zip(used.iter_mut());
                for (((counts, present), used), &code) in per_target.zip(row) {
                    let level = code.index();
                    counts[level] += 1;
                    present[level >> 6] |= 1 << (level & 63);
                    *used |= 1 << (level >> 6);
                }
            } else {
                for ((counts, present), &code) in counts.iter_mut().zip(present.iter_mut()).zip(row) {
                    let level = code.index();
                    counts[level] += 1;
                    present[level >> 6] |= 1 << (level & 63);
                }
            }
        }
    }

    /// Counts the rows of a side of a q: for many rows of narrow codes, the counts
    /// first, then the masks from the counts (one store a row and target instead of
    /// two; the masks cost the targets' levels).
    #[inline(always)]
    fn count_side(&mut self, rows: &[u32], codes: Rows<'_, C>, targets: &std::ops::Range<usize>, n_levels: &[u32]) {
        if Self::MARKS_WORDS || rows.len() < MANY_ROWS {
            return self.count(rows, codes, targets);
        }
        let counts = &mut self.counts[..targets.len()];
        for &r in rows {
            for (counts, &code) in counts.iter_mut().zip(codes.targets_of(r, targets)) {
                counts[code.index()] += 1;
            }
        }
        for ((counts, present), &n) in self.counts.iter().zip(self.present.iter_mut()).zip(n_levels) {
            let levels = &counts.as_ref()[..n as usize];
            for (word, levels) in present.as_mut().iter_mut().zip(levels.chunks(64)) {
                *word = levels.iter().enumerate().fold(0u64, |bits, (b, &c)| bits | (((c != 0) as u64) << b));
            }
        }
    }

    #[inline(always)]
    fn at(&self, i: usize, level: usize) -> u64 {
        self.counts[i][level] as u64
    }

    /// Calls `f(level)` for each level of target `i` present, ascending.
    #[inline(always)]
    fn for_each_level(&self, i: usize, mut f: impl FnMut(usize)) {
        let mask = self.present[i].as_ref();
        let mut each_word = |w: usize| {
            let mut rest = mask[w];
            while rest != 0 {
                f(w * 64 + rest.trailing_zeros() as usize);
                rest &= rest - 1;
            }
        };
        if Self::MARKS_WORDS {
            let mut used = self.words_used[i];
            while used != 0 {
                each_word(used.trailing_zeros() as usize);
                used &= used - 1;
            }
        } else {
            (0..self.words[i]).for_each(each_word);
        }
    }

    /// Zeroes target `i`'s counts.
    #[inline(always)]
    fn clear(&mut self, i: usize) {
        let counts = self.counts[i].as_mut();
        let mask = self.present[i].as_mut();
        let mut clear_word = |w: usize| {
            let mut bits = mask[w];
            while bits != 0 {
                counts[w * 64 + bits.trailing_zeros() as usize] = 0;
                bits &= bits - 1;
            }
            mask[w] = 0;
        };
        if Self::MARKS_WORDS {
            let mut used = std::mem::take(&mut self.words_used[i]);
            while used != 0 {
                clear_word(used.trailing_zeros() as usize);
                used &= used - 1;
            }
        } else {
            (0..self.words[i]).for_each(clear_word);
        }
    }
}

/// The pass over `q_lo..q_hi` for the targets `targets` (indices into the packed
/// targets): one tally per (target, synthesis), target-major, and the key tables of
/// the targets that want them.
pub fn sweep_plain(
    input: &PlainInput<'_>,
    targets: std::ops::Range<usize>,
    q_lo: usize,
    q_hi: usize,
) -> CoreResult<PlainPiece> {
    sweep_plain_adding(input, targets, q_lo, q_hi, None)
}

/// `sweep_plain` adding its key tables to `tables` (those of another run of q, for the
/// same targets) when given, rather than to tables of its own: runs of q one after the
/// other on one thread share one set.
pub fn sweep_plain_adding(
    input: &PlainInput<'_>,
    targets: std::ops::Range<usize>,
    q_lo: usize,
    q_hi: usize,
    tables: Option<Vec<Option<JointTables>>>,
) -> CoreResult<PlainPiece> {
    if input.codes_orig.is_wide() {
        sweep_plain_at::<u16>(input, targets, q_lo, q_hi, tables)
    } else {
        sweep_plain_at::<u8>(input, targets, q_lo, q_hi, tables)
    }
}

/// `sweep_plain_adding` with codes of width `C`.
fn sweep_plain_at<C: PackedCode>(
    input: &PlainInput<'_>,
    targets: std::ops::Range<usize>,
    q_lo: usize,
    q_hi: usize,
    tables: Option<Vec<Option<JointTables>>>,
) -> CoreResult<PlainPiece> {
    let n_views = input.views.len();
    // A pass over part of the q makes that part's key tables (passes over the other
    // parts make the rest, and the tables add up).
    if let Some(j) = input.joint {
        if q_hi * j.key_levels.len() > j.q_keys.len() {
            return Err(CoreError::new("internal: a pass over q beyond the keys' index"));
        }
    }
    let mut tallies: Vec<Tally> =
        targets.clone().flat_map(|t| (0..n_views).map(move |_| Tally::new(input.n_levels[t] as usize, 0))).collect();
    // Packed at one width by the engine (the group's widest target); a dataset at the
    // other width is an error rather than codes misread.
    let (Some(codes_orig), Some(view_codes)) =
        (input.codes_orig.rows::<C>(), input.views.iter().map(|v| v.codes.rows::<C>()).collect::<Option<Vec<_>>>())
    else {
        return Err(CoreError::new("internal: the targets of a pass were packed at two widths"));
    };
    let input = PlainCodes {
        rows_orig: input.rows_orig,
        codes_orig,
        view_rows: input.views.iter().map(|v| v.rows).collect(),
        view_codes,
        n_levels: input.n_levels,
        twoway_min_cell: input.twoway_min_cell,
        joint: input.joint,
    };
    // Per target: the key tables' sizes, when it wants them.
    let sizes: Vec<Option<Vec<usize>>> = targets
        .clone()
        .map(|t| {
            let j = input.joint.filter(|j| j.wanted.get(t).copied().unwrap_or(false))?;
            Some(j.key_levels.iter().map(|&kl| kl as usize * input.n_levels[t] as usize).collect())
        })
        .collect();
    let joint: Vec<Option<JointTables>> = match tables {
        None => sizes.iter().map(|s| s.as_ref().map(|s| s.iter().map(|&n| vec![0u64; n]).collect())).collect(),
        Some(tables) => {
            let fits = |t: &Option<JointTables>, s: &Option<Vec<usize>>| match (t, s) {
                (Some(t), Some(s)) => t.len() == s.len() && t.iter().zip(s).all(|(t, &n)| t.len() == n),
                (t, s) => t.is_none() && s.is_none(),
            };
            if tables.len() != sizes.len() || !tables.iter().zip(&sizes).all(|(t, s)| fits(t, s)) {
                return Err(CoreError::new("internal: key tables of other targets given to a pass"));
            }
            tables
        }
    };
    let mut scratch = PlainScratch {
        orig: SideCounts::new(&input.n_levels[targets.clone()]),
        syn: SideCounts::new(&input.n_levels[targets.clone()]),
        orig_sums: Vec::with_capacity(targets.len()),
        joint,
    };
    let mut syn_rows: Vec<&[u32]> = Vec::with_capacity(n_views);
    for q in q_lo..q_hi {
        let orig_rows = input.rows_orig.of(q);
        syn_rows.clear();
        syn_rows.extend(input.view_rows.iter().map(|rows| rows.of(q)));
        if orig_rows.len() <= 1 && syn_rows.iter().all(|r| r.len() <= 1) {
            if let (Some(&o), true) = (orig_rows.first(), input.joint.is_some()) {
                add_joint_record(&input, &targets, &mut scratch.joint, q, o);
            }
            add_tiny_q(&input, &targets, &mut tallies, q, orig_rows, &syn_rows);
        } else {
            add_q_by_level(&input, &targets, &mut tallies, q, orig_rows, &syn_rows, &mut scratch);
        }
    }
    Ok(PlainPiece { tallies, joint: scratch.joint })
}

/// The one original record `row` of q added to the key tables of the targets that want
/// them.
#[inline(always)]
fn add_joint_record<C: PackedCode>(
    input: &PlainCodes<'_, C>,
    targets: &std::ops::Range<usize>,
    joint: &mut [Option<JointTables>],
    q: usize,
    row: u32,
) {
    let keys_q = input.keys_of(q);
    let codes = input.codes_orig.row(row);
    for ((t, tables), n_t) in targets.clone().zip(joint.iter_mut()).zip(&input.n_levels[targets.clone()]) {
        if let Some(tables) = tables {
            let level = codes[t].index();
            for (table, &kl) in tables.iter_mut().zip(keys_q) {
                table[kl as usize * *n_t as usize + level] += 1;
            }
        }
    }
}

/// A q of at most one record on each side, for every target and synthesis: what the
/// engine's pass adds for it, without counts by level. A record alone on its side is a
/// unique whatever its target (one-sided: its table, its certain table, its uniques
/// and 1 to its CAP sum); a record on each side adds by whether their targets agree.
#[inline(always)]
fn add_tiny_q<C: PackedCode>(
    input: &PlainCodes<'_, C>,
    targets: &std::ops::Range<usize>,
    tallies: &mut [Tally],
    q: usize,
    orig_rows: &[u32],
    syn_rows: &[&[u32]],
) {
    let n_views = input.view_rows.len();
    for (v, rows) in syn_rows.iter().enumerate() {
        match (orig_rows.first(), rows.first()) {
            (None, None) => {}
            (Some(_), None) => {
                for i in 0..targets.len() {
                    add_one_sided_sums(&mut tallies[i * n_views + v], true, 1, 1, true);
                }
            }
            (None, Some(_)) => {
                for i in 0..targets.len() {
                    add_one_sided_sums(&mut tallies[i * n_views + v], false, 1, 1, true);
                }
            }
            (Some(&o), Some(&s)) => {
                let (orig, syn) = (input.codes_orig.row(o), input.view_codes[v].row(s));
                for (i, t) in targets.clone().enumerate() {
                    let (to, ts) = (orig[t], syn[t]);
                    add_plain_pair(
                        &mut tallies[i * n_views + v],
                        q,
                        ts.index() as u32,
                        to == ts,
                        input.twoway_min_cell[t],
                    );
                }
            }
        }
    }
}

/// A q with more than one record on a side: each side's records counted by level for
/// every target in one read of each row (the original's once for every synthesis),
/// then each (target, synthesis) added as the engine's pass adds it (one-sided, or both
/// sides with nothing to remove) from its sums over levels.
fn add_q_by_level<C: PackedCode>(
    input: &PlainCodes<'_, C>,
    targets: &std::ops::Range<usize>,
    tallies: &mut [Tally],
    q: usize,
    orig_rows: &[u32],
    syn_rows: &[&[u32]],
    scratch: &mut PlainScratch<C>,
) {
    let n_views = input.view_rows.len();
    let PlainScratch { orig, syn, orig_sums, joint } = scratch;
    let keys_q = input.keys_of(q);
    let d_q = orig_rows.len() as u64;
    let n_levels = &input.n_levels[targets.clone()];
    orig.count_side(orig_rows, input.codes_orig, targets, n_levels);
    // Per target: the original's sum of squares and levels, and its records by level
    // added to its key tables when it wants them.
    orig_sums.clear();
    for (i, tables) in joint.iter_mut().enumerate() {
        let (mut dd, mut levels) = (0u64, 0u32);
        match tables {
            None => orig.for_each_level(i, |l| {
                let d = orig.at(i, l);
                dd += d * d;
                levels += 1;
            }),
            Some(tables) => {
                let n_t = n_levels[i] as usize;
                orig.for_each_level(i, |l| {
                    let d = orig.at(i, l);
                    dd += d * d;
                    levels += 1;
                    for (table, &kl) in tables.iter_mut().zip(keys_q) {
                        table[kl as usize * n_t + l] += d;
                    }
                })
            }
        }
        orig_sums.push((dd, levels));
    }
    for (v, rows) in syn_rows.iter().enumerate() {
        if rows.is_empty() {
            if d_q > 0 {
                for (i, &(dd, levels)) in orig_sums.iter().enumerate() {
                    add_one_sided_sums(&mut tallies[i * n_views + v], true, d_q, dd, levels == 1);
                }
            }
            continue;
        }
        if rows.len() <= FEW_ROWS {
            add_few_synthetic_records(input, targets, tallies, q, v, rows, d_q, orig, orig_sums);
            continue;
        }
        let s_q = rows.len() as u64;
        syn.count_side(rows, input.view_codes[v], targets, n_levels);
        for (i, t) in targets.clone().enumerate() {
            let tally = &mut tallies[i * n_views + v];
            let (dd, orig_levels) = orig_sums[i];
            let mut sums = PlainSums { d_q, s_q, dd, orig_levels, ..PlainSums::default() };
            // Every term but the original's (summed above) needs a synthetic record.
            syn.for_each_level(i, |l| {
                let (dv, sv) = (orig.at(i, l), syn.at(i, l));
                sums.sd += sv * dv;
                sums.ss += sv * sv;
                if sv > 0 {
                    sums.syn_levels += 1;
                    sums.syn_level = l as u32;
                    sums.d_of_syn_level = dv;
                }
            });
            syn.clear(i);
            if d_q == 0 {
                add_one_sided_sums(tally, false, s_q, sums.ss, sums.syn_levels == 1);
            } else {
                add_plain_sums(tally, q, &sums, input.twoway_min_cell[t]);
            }
        }
    }
    for i in 0..targets.len() {
        orig.clear(i);
    }
}

/// Records of a synthesis in a q up to which its levels are told apart in registers
/// (`add_few_synthetic_records`) rather than counted by level: most syntheses of small
/// data have no more in a q.
const FEW_ROWS: usize = 4;

/// A synthesis with one to `FEW_ROWS` records in a q, for every target: its levels and
/// their records told apart among so few, and the sums over levels read off the
/// original's counts at those levels, as counting by level gives them.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn add_few_synthetic_records<C: PackedCode>(
    input: &PlainCodes<'_, C>,
    targets: &std::ops::Range<usize>,
    tallies: &mut [Tally],
    q: usize,
    v: usize,
    rows: &[u32],
    d_q: u64,
    orig: &SideCounts<C>,
    orig_sums: &[(u64, u32)],
) {
    let few = FewRecords { input, targets, q, v, d_q, orig, orig_sums };
    match rows {
        [row] => few.add_one(*row, tallies),
        [a, b] => few.add::<2>([*a, *b], tallies),
        [a, b, c] => few.add::<3>([*a, *b, *c], tallies),
        [a, b, c, d] => few.add::<4>([*a, *b, *c, *d], tallies),
        // The caller passes 1 to FEW_ROWS records (checked below at compile time).
        _ => {}
    }
}

// `add_few_synthetic_records` has an arm for each count of records up to FEW_ROWS.
const _: () = assert!(FEW_ROWS == 4);

/// What `add_few_synthetic_records` reads for a synthesis of 2 to `FEW_ROWS` records
/// in q.
struct FewRecords<'p, 'a, C: PackedCode> {
    input: &'p PlainCodes<'a, C>,
    targets: &'p std::ops::Range<usize>,
    q: usize,
    v: usize,
    d_q: u64,
    orig: &'p SideCounts<C>,
    orig_sums: &'p [(u64, u32)],
}

impl<C: PackedCode> FewRecords<'_, '_, C> {
    /// One synthetic record in q (most of small data's): its level is the only one,
    /// with one record, so the sums over levels are its original count.
    #[inline(always)]
    fn add_one(&self, row: u32, tallies: &mut [Tally]) {
        let FewRecords { input, targets, q, v, d_q, orig, orig_sums } = *self;
        let n_views = input.view_rows.len();
        let codes = input.view_codes[v].row(row);
        for (i, t) in targets.clone().enumerate() {
            let tally = &mut tallies[i * n_views + v];
            if d_q == 0 {
                add_one_sided_sums(tally, false, 1, 1, true);
                continue;
            }
            let level = codes[t].index();
            let d = orig.at(i, level);
            let (dd, orig_levels) = orig_sums[i];
            let sums = PlainSums {
                d_q,
                s_q: 1,
                sd: d,
                dd,
                ss: 1,
                orig_levels,
                syn_levels: 1,
                syn_level: level as u32,
                d_of_syn_level: d,
            };
            add_plain_sums(tally, q, &sums, input.twoway_min_cell[t]);
        }
    }

    /// The `K` records `rows`, for every target. The sums over levels are sums over
    /// the records, compared pairwise without branches: a record's level has as many
    /// records as match it (their sum is the sum of squares), a level is counted at
    /// its first record, and the original's records at each record's level sum to s'd'.
    #[inline(always)]
    fn add<const K: usize>(&self, rows: [u32; K], tallies: &mut [Tally]) {
        let FewRecords { input, targets, q, v, d_q, orig, orig_sums } = *self;
        let n_views = input.view_rows.len();
        let codes: [&[C]; K] = rows.map(|r| input.view_codes[v].row(r));
        for (i, t) in targets.clone().enumerate() {
            let levels: [usize; K] = codes.map(|row| row[t].index());
            let (mut ss, mut n_levels, mut top) = (0u64, 0u32, 0usize);
            for (j, &l) in levels.iter().enumerate() {
                ss += levels.iter().map(|&m| (m == l) as u64).sum::<u64>();
                n_levels += levels[..j].iter().all(|&m| m != l) as u32;
                top = top.max(l);
            }
            let tally = &mut tallies[i * n_views + v];
            if d_q == 0 {
                add_one_sided_sums(tally, false, K as u64, ss, n_levels == 1);
                continue;
            }
            let sd: u64 = levels.iter().map(|&l| orig.at(i, l)).sum();
            let (dd, orig_levels) = orig_sums[i];
            let sums = PlainSums {
                d_q,
                s_q: K as u64,
                sd,
                dd,
                ss,
                orig_levels,
                syn_levels: n_levels,
                // The highest level, as the pass by level leaves it (read only when it
                // is the one).
                syn_level: top as u32,
                d_of_syn_level: orig.at(i, top),
            };
            add_plain_sums(tally, q, &sums, input.twoway_min_cell[t]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exclusions::ExclusionSpec;
    use crate::key_target_counts::KeyTargetCounts;
    use crate::keys::build_key_index;
    use crate::plan::TauGrid;
    use crate::sweep::{sweep_views, Scratch, SweepInput};
    use crate::test_random::XorShift;

    /// Datasets of one pass packed at two widths are an error, not codes misread.
    #[test]
    fn targets_packed_at_two_widths_are_an_error() {
        let narrow_codes = LevelCodes::narrow(vec![0, 1, 2], 300);
        let rows = RowsByQ::new(&[0, 1, 0], 2);
        let narrow = TargetRows::new(&[&narrow_codes], 3, 256);
        let wide = TargetRows::new(&[&narrow_codes], 3, 300);
        for (orig, syn) in [(&narrow, &wide), (&wide, &narrow)] {
            let views = [PlainView { rows: &rows, codes: syn }];
            let input = PlainInput {
                rows_orig: &rows,
                codes_orig: orig,
                views: &views,
                n_levels: &[300],
                twoway_min_cell: &[1.0],
                joint: None,
            };
            assert!(sweep_plain(&input, 0..1, 0, 2).is_err());
        }
        let views = [PlainView { rows: &rows, codes: &wide }];
        let input = PlainInput {
            rows_orig: &rows,
            codes_orig: &wide,
            views: &views,
            n_levels: &[300],
            twoway_min_cell: &[1.0],
            joint: None,
        };
        assert!(sweep_plain(&input, 0..1, 0, 2).is_ok());
        // Key tables from a pass over part of the q, but not beyond the keys' index.
        let q_keys = [0u32];
        let joint = KeyJoint { q_keys: &q_keys, key_levels: &[2], wanted: &[true] };
        let input = PlainInput { joint: Some(joint), ..input };
        assert!(sweep_plain(&input, 0..1, 0, 1).is_ok());
        assert!(sweep_plain(&input, 0..1, 0, 2).is_err());
        // Tables carried from another run are added to only when they are this pass's.
        let carried = sweep_plain(&input, 0..1, 0, 1).unwrap().joint;
        let added = sweep_plain_adding(&input, 0..1, 0, 1, Some(carried.clone())).unwrap().joint;
        let mut twice = carried.clone();
        add_joint_tables(twice[0].as_mut().unwrap(), carried[0].as_ref().unwrap());
        assert!(carried[0].as_ref().unwrap()[0].iter().sum::<u64>() > 0);
        assert_eq!(added, twice);
        let short: Vec<Option<JointTables>> = vec![Some(vec![vec![0; 1]])];
        assert!(sweep_plain_adding(&input, 0..1, 0, 1, Some(short)).is_err());
        assert!(sweep_plain_adding(&input, 0..1, 0, 1, Some(vec![None])).is_err());
        assert!(sweep_plain_adding(&input, 0..1, 0, 1, Some(Vec::new())).is_err());
    }

    /// The plain pass equals the engine's pass, tally for tally and bit for bit, for
    /// targets of few and many levels, one to three syntheses (one a subsample), q of
    /// one record a side and q of many (masks made as counted, or from the counts), and
    /// any split of the targets and of the q; the key tables of the two parts of the q
    /// add up to those counted from the original's rows.
    #[test]
    fn the_plain_pass_equals_the_engines_pass() {
        let mut rng = XorShift::new(0x7A3F_19C2_55E1_0B6Du64);
        let mut next = move |k: u64| rng.below(k);
        for case in 0..80 {
            let n_syn = 1 + case % 3;
            // Some cases large enough for q of `MANY_ROWS` records or more on a side.
            let max_rows = if case % 4 == 0 { 40 * MANY_ROWS as u64 } else { 120 };
            let sizes: Vec<usize> = (0..=n_syn).map(|_| 1 + next(max_rows) as usize).collect();
            // Two keys; few levels in some cases (q of many records), many in others.
            let key_levels = [2 + next(if case % 2 == 0 { 4 } else { 30 }), 1 + next(6)];
            let keys: Vec<Vec<LevelCodes<'static>>> = key_levels
                .iter()
                .map(|&l| {
                    sizes.iter().map(|&n| LevelCodes::narrow((0..n).map(|_| next(l as u64)).collect(), l)).collect()
                })
                .collect();
            let key_refs: Vec<&[LevelCodes<'_>]> = keys.iter().map(|k| k.as_slice()).collect();
            let index = build_key_index(&key_refs, &key_levels).unwrap();
            // Every third case has wide targets too (packed two bytes a code).
            let choices: &[u32] = if case % 3 == 0 { &[2, 5, 130, 257, 407, 4096] } else { &[2, 5, 64, 70, 130, 256] };
            let target_levels: Vec<u32> = choices.iter().copied().filter(|_| next(3) > 0).collect();
            let target_levels = if target_levels.is_empty() { vec![3] } else { target_levels };
            // Targets that follow the first key in part, so that q agree often.
            let targets: Vec<Vec<LevelCodes<'static>>> = target_levels
                .iter()
                .map(|&l| {
                    (0..sizes.len())
                        .map(|d| {
                            let codes = (0..sizes[d])
                                .map(|r| if next(2) == 0 { key_refs[0][d].get(r) % l } else { next(l as u64) })
                                .collect();
                            LevelCodes::narrow(codes, l)
                        })
                        .collect()
                })
                .collect();
            let rows: Vec<RowsByQ> = index.q.iter().map(|q| RowsByQ::new(q, index.n_q)).collect();
            // The last synthesis is a subsample of its rows.
            let sub: Vec<u32> = (0..sizes[n_syn] as u32).filter(|_| next(3) > 0).collect();
            let sub_rows = RowsByQ::subset(&index.q[n_syn], &sub, index.n_q);
            let view_rows: Vec<&RowsByQ> =
                (1..=n_syn).map(|d| if d == n_syn && case % 2 == 1 { &sub_rows } else { &rows[d] }).collect();
            let packed: Vec<TargetRows> = (0..sizes.len())
                .map(|d| {
                    let columns: Vec<&LevelCodes<'_>> = targets.iter().map(|t| &t[d]).collect();
                    TargetRows::new(&columns, sizes[d], target_levels.iter().copied().max().unwrap_or(1))
                })
                .collect();
            let views: Vec<PlainView<'_>> =
                (1..=n_syn).map(|d| PlainView { rows: view_rows[d - 1], codes: &packed[d] }).collect();
            let twoway: Vec<f64> = target_levels.iter().map(|_| next(3) as f64).collect();
            // Key tables for some targets (none in some cases).
            let wanted: Vec<bool> = target_levels.iter().map(|_| case % 5 != 0 && next(3) > 0).collect();
            let input = PlainInput {
                rows_orig: &rows[0],
                codes_orig: &packed[0],
                views: &views,
                n_levels: &target_levels,
                twoway_min_cell: &twoway,
                joint: Some(KeyJoint { q_keys: &index.q_keys, key_levels: &key_levels, wanted: &wanted }),
            };
            let n_t = target_levels.len();
            let split = next(n_t as u64 + 1) as usize;
            let q_split = next(index.n_q as u64 + 1) as usize;
            // Per part of the q, the tallies (target-major); the key tables summed.
            let mut got: Vec<Vec<Tally>> = Vec::new();
            let mut tables: Vec<Option<JointTables>> = vec![None; n_t];
            for (q_lo, q_hi) in [(0, q_split), (q_split, index.n_q)] {
                let first = sweep_plain(&input, 0..split, q_lo, q_hi).unwrap();
                let second = sweep_plain(&input, split..n_t, q_lo, q_hi).unwrap();
                got.push(first.tallies.into_iter().chain(second.tallies).collect());
                for (sum, part) in tables.iter_mut().zip(first.joint.into_iter().chain(second.joint)) {
                    match (sum.as_mut(), part) {
                        (None, part) => *sum = part,
                        (Some(sum), Some(part)) => add_joint_tables(sum, &part),
                        (Some(_), None) => panic!("case {case}: tables made in one part of the q only"),
                    }
                }
            }
            // Each wanted target's tables equal those counted from the original's rows.
            for t in 0..n_t {
                match &tables[t] {
                    None => assert!(!wanted[t], "case {case}, target {t}: no tables"),
                    Some(made) => {
                        assert!(wanted[t], "case {case}, target {t}: tables not asked for");
                        for (k, table) in made.iter().enumerate() {
                            let counted = KeyTargetCounts::count(
                                key_refs[k][0].to_u32().as_slice(),
                                key_levels[k],
                                targets[t][0].to_u32().as_slice(),
                                target_levels[t],
                                None,
                            )
                            .unwrap();
                            let from_pass =
                                KeyTargetCounts::from_joint(table.clone(), key_levels[k], target_levels[t]).unwrap();
                            assert_eq!(from_pass, counted, "case {case}, target {t}, key {k}");
                        }
                    }
                }
            }
            let tau = TauGrid::new(&[]).unwrap();
            let missing_key = vec![false; index.n_q];
            let specs: Vec<ExclusionSpec> =
                target_levels.iter().map(|&l| ExclusionSpec::none(l as usize, l - 1)).collect();
            let mut scratch = Scratch::default();
            for t in 0..n_t {
                let inputs: Vec<SweepInput<'_>> = (1..=n_syn)
                    .map(|d| SweepInput {
                        index: &index,
                        rows_orig: &rows[0],
                        rows_syn: view_rows[d - 1],
                        target_orig: &targets[t][0],
                        target_syn: &targets[t][d],
                        n_target_levels: target_levels[t] as usize,
                        missing_key: &missing_key,
                        spec: &specs[t],
                        twoway_min_cell: twoway[t],
                        tau: &tau,
                        weights_orig: None,
                        weights_syn: None,
                    })
                    .collect();
                for (part, (q_lo, q_hi)) in [(0, q_split), (q_split, index.n_q)].into_iter().enumerate() {
                    let want = sweep_views(&inputs, q_lo, q_hi, &mut scratch);
                    for (v, w) in want.iter().enumerate() {
                        assert_eq!(&got[part][t * n_syn + v], w, "case {case}, target {t}, synthesis {v}, part {part}");
                    }
                }
            }
        }
    }
}
