//! One pass over the q of a range for one target and one synthesis: the sparse cells
//! (t, q) with their counts d and s, the eight tables, the exclusions, and every sum
//! the measures need. Nothing dense in T x Q: per q, a scratch tally indexed by t is
//! filled and reset through the list of levels it touched.

use crate::codes::{CodeSource, LevelCodes};
use crate::exclusions::*;
use crate::keys::KeyIndex;
use crate::plan::TauGrid;
use crate::rows_by_q::RowsByQ;

/// What one synthesis of one target needs from the shared data.
pub struct SweepInput<'a> {
    pub index: &'a KeyIndex,
    pub rows_orig: &'a RowsByQ,
    pub rows_syn: &'a RowsByQ,
    pub target_orig: &'a LevelCodes<'a>,
    pub target_syn: &'a LevelCodes<'a>,
    pub n_target_levels: usize,
    pub missing_key: &'a [bool],
    pub spec: &'a ExclusionSpec,
    /// DiSCO cells above this value are kept for the 2-way check.
    pub twoway_min_cell: f64,
    /// The tau curve's grid (empty: no curve).
    pub tau: &'a TauGrid,
    /// Counted cells: the records each row of the original / the synthesis stands for
    /// (`None`: one each).
    pub weights_orig: Option<&'a [u32]>,
    pub weights_syn: Option<&'a [u32]>,
}

/// Partial sums over a range of q; ranges merge in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Tally {
    pub total: [u64; N_TABLES],
    pub removed: [[u64; N_STEPS]; N_TABLES],
    pub n_uio: u64,
    pub n_uis: u64,
    pub n_uioi_s: u64,
    pub n_repu: u64,
    /// Sum over q of sum_t s'd' / s'[.,q].
    pub dcap_num: f64,
    /// Sum over q of sum_t d'^2 / d'[.,q].
    pub capd_num: f64,
    /// Sum over q of sum_t s'^2 / s'[.,q].
    pub caps_num: f64,
    /// Synthetic records (after exclusions) whose q occurs in the excluded original.
    pub n_b: u64,
    /// Original records (after exclusions) whose q occurs in the excluded synthetic data.
    pub n_orig_in_syn: u64,
    pub disco_max: u64,
    pub disco_cells: u64,
    /// Excluded DiSCO records per target level (`by_level()` gives them whole).
    disco: LevelSums,
    /// Original records removed by the exclusions, as (target level, records) per cell:
    /// the kept ones per level are the original's level counts less these.
    pub orig_removed_by_level: Vec<(u32, u64)>,
    /// Excluded DiSCO cells (q, t, value) above the 2-way cell threshold.
    pub twoway_cells: Vec<(u32, u32, u64)>,
    /// Tau curve (definitions vignette 10.1): sums of ps*d (synthetic) and pd*d (original) over the cells
    /// the DiSCO table's exclusions keep, by bucket of the tau grid (empty: no curve).
    pub tau_syn: Vec<f64>,
    pub tau_orig: Vec<f64>,
    /// Taub's TCAP (definitions vignette 10.5), after exclusions: over the q whose kept synthetic records
    /// have one target level u and whose kept original records exist, the sum of
    /// s'[.,q] * pd'[u,q], and of s'[.,q].
    pub taub_num: f64,
    pub taub_den: u64,
}

impl Tally {
    /// `n_tau`: the number of tau values (0 for no curve).
    pub fn new(n_target_levels: usize, n_tau: usize) -> Self {
        let buckets = if n_tau == 0 { 0 } else { n_tau + 1 };
        Tally {
            total: [0; N_TABLES],
            removed: [[0; N_STEPS]; N_TABLES],
            n_uio: 0,
            n_uis: 0,
            n_uioi_s: 0,
            n_repu: 0,
            dcap_num: 0.0,
            capd_num: 0.0,
            caps_num: 0.0,
            n_b: 0,
            n_orig_in_syn: 0,
            disco_max: 0,
            disco_cells: 0,
            disco: LevelSums::new(n_target_levels),
            orig_removed_by_level: Vec::new(),
            twoway_cells: Vec::new(),
            tau_syn: vec![0.0; buckets],
            tau_orig: vec![0.0; buckets],
            taub_num: 0.0,
            taub_den: 0,
        }
    }

    /// Excluded DiSCO records per target level.
    pub fn disco_by_level(&self) -> Vec<u64> {
        self.disco.by_level()
    }

    /// Kept (after exclusions) total of a table.
    pub fn kept(&self, table: usize) -> u64 {
        self.total[table] - self.removed[table].iter().sum::<u64>()
    }

    /// Adds the tally of the next range of q.
    pub fn merge(&mut self, next: Tally) {
        for k in 0..N_TABLES {
            self.total[k] += next.total[k];
            for s in 0..N_STEPS {
                self.removed[k][s] += next.removed[k][s];
            }
        }
        self.n_uio += next.n_uio;
        self.n_uis += next.n_uis;
        self.n_uioi_s += next.n_uioi_s;
        self.n_repu += next.n_repu;
        self.dcap_num += next.dcap_num;
        self.capd_num += next.capd_num;
        self.caps_num += next.caps_num;
        self.n_b += next.n_b;
        self.n_orig_in_syn += next.n_orig_in_syn;
        self.disco_max = self.disco_max.max(next.disco_max);
        self.disco_cells += next.disco_cells;
        self.disco.merge(next.disco);
        self.orig_removed_by_level.extend(next.orig_removed_by_level);
        self.twoway_cells.extend(next.twoway_cells);
        for (a, b) in self.tau_syn.iter_mut().zip(next.tau_syn) {
            *a += b;
        }
        for (a, b) in self.tau_orig.iter_mut().zip(next.tau_orig) {
            *a += b;
        }
        self.taub_num += next.taub_num;
        self.taub_den += next.taub_den;
    }
}

/// Sums per target level: dense for few levels; for many, the (level, value) pairs
/// added, so that a range of q does not cost a zeroed array of every level.
#[derive(Debug, Clone, PartialEq)]
enum LevelSums {
    Dense(Vec<u64>),
    Sparse { n_levels: usize, added: Vec<(u32, u64)> },
}

/// Above this many levels, `LevelSums` keeps the pairs added.
const DENSE_LEVEL_SUMS: usize = 1 << 12;

impl LevelSums {
    fn new(n_levels: usize) -> Self {
        if n_levels <= DENSE_LEVEL_SUMS {
            LevelSums::Dense(vec![0; n_levels])
        } else {
            LevelSums::Sparse { n_levels, added: Vec::new() }
        }
    }

    #[inline]
    fn add(&mut self, level: u32, value: u64) {
        match self {
            LevelSums::Dense(sums) => sums[level as usize] += value,
            LevelSums::Sparse { added, .. } => added.push((level, value)),
        }
    }

    fn merge(&mut self, next: LevelSums) {
        match (self, next) {
            (LevelSums::Dense(a), LevelSums::Dense(b)) => a.iter_mut().zip(b).for_each(|(x, y)| *x += y),
            (LevelSums::Sparse { added: a, .. }, LevelSums::Sparse { added: b, .. }) => a.extend(b),
            // Both sides come from `new` with the same number of levels.
            (this, next) => {
                let mut sums = this.by_level();
                for (x, y) in sums.iter_mut().zip(next.by_level()) {
                    *x += y;
                }
                *this = LevelSums::Dense(sums);
            }
        }
    }

    fn by_level(&self) -> Vec<u64> {
        match self {
            LevelSums::Dense(sums) => sums.clone(),
            LevelSums::Sparse { n_levels, added } => {
                let mut sums = vec![0; *n_levels];
                for &(level, value) in added {
                    sums[level as usize] += value;
                }
                sums
            }
        }
    }
}

/// Buffers one worker reuses from pass to pass, so that large data do not ask the
/// system for fresh (zeroed) memory at every range.
#[derive(Default)]
pub struct Scratch {
    codes_orig: Vec<u32>,
    /// Per synthesis of the pass.
    codes_syn: Vec<Vec<u32>>,
    weights_orig: Vec<u32>,
    weights_syn: Vec<Vec<u32>>,
    /// Per target level, its original and synthetic records in the current q; all
    /// zero between two q.
    counts: Vec<[u32; 2]>,
    /// Per target level, the original's records in the current q (shared by the
    /// syntheses of the pass); all zero between two q.
    orig_counts: Vec<u32>,
}

/// Runs the pass over `q_lo..q_hi`.
pub fn sweep(input: &SweepInput<'_>, q_lo: usize, q_hi: usize, scratch: &mut Scratch) -> Tally {
    let mut tallies = sweep_views(std::slice::from_ref(input), q_lo, q_hi, scratch);
    tallies.pop().unwrap_or_else(|| Tally::new(input.n_target_levels, input.tau.len()))
}

/// The pass over `q_lo..q_hi` for several syntheses of one target at once (`inputs`
/// differ in their synthesis only: `rows_syn`, `target_syn`, `weights_syn`): each q's
/// original records are read and counted once for all of them. One tally per input,
/// each equal, bit for bit, to its own `sweep`.
pub fn sweep_views(inputs: &[SweepInput<'_>], q_lo: usize, q_hi: usize, scratch: &mut Scratch) -> Vec<Tally> {
    let Some(first) = inputs.first() else { return Vec::new() };
    // The syntheses' codes in the original's storage, when they all share it (as
    // encoding makes them); else every column read through `LevelCodes` itself.
    macro_rules! typed {
        ($variant:ident) => {
            if let LevelCodes::$variant(o) = first.target_orig {
                let syn: Option<Vec<_>> = inputs
                    .iter()
                    .map(|i| if let LevelCodes::$variant(x) = i.target_syn { Some(x) } else { None })
                    .collect();
                if let Some(syn) = syn {
                    return sweep_codes(inputs, o, &syn, q_lo, q_hi, scratch);
                }
            }
        };
    }
    macro_rules! typed_slice {
        ($variant:ident, $t:ty) => {
            if let LevelCodes::$variant(o) = first.target_orig {
                let syn: Option<Vec<&[$t]>> = inputs
                    .iter()
                    .map(|i| if let LevelCodes::$variant(x) = i.target_syn { Some(x.as_slice()) } else { None })
                    .collect();
                if let Some(syn) = syn {
                    return sweep_codes(inputs, o.as_slice(), &syn, q_lo, q_hi, scratch);
                }
            }
        };
    }
    typed_slice!(U8, u8);
    typed_slice!(U16, u16);
    typed_slice!(U32, u32);
    typed!(Factor);
    let syn: Vec<&LevelCodes<'_>> = inputs.iter().map(|i| i.target_syn).collect();
    sweep_codes(inputs, first.target_orig, &syn, q_lo, q_hi, scratch)
}

/// Calls `add(level, records)` for each row of `codes` (one record each, or `weights`)
/// and returns the records.
#[inline(always)]
fn for_each_record(codes: &[u32], weights: Option<&[u32]>, mut add: impl FnMut(u32, u32)) -> u64 {
    match weights {
        None => {
            codes.iter().for_each(|&t| add(t, 1));
            codes.len() as u64
        }
        Some(w) => {
            codes.iter().zip(w).for_each(|(&t, &n)| add(t, n));
            w.iter().map(|&n| n as u64).sum()
        }
    }
}

/// Adds the records of one q's rows (`codes`, with their counts, or one each) into
/// side `side` (0: original, 1: synthetic) of `counts`, noting in `touched` each level
/// that had no count on either side yet (every count is >= 1, so a level is touched at
/// its first row). Returns the records. Both sides of a level share a cache line.
#[inline(always)]
pub(crate) fn count_rows(
    codes: &[u32],
    weights: Option<&[u32]>,
    counts: &mut [[u32; 2]],
    side: usize,
    touched: &mut Vec<u32>,
) -> u64 {
    for_each_record(codes, weights, |t, n| {
        let cell = &mut counts[t as usize];
        if *cell == [0, 0] {
            touched.push(t);
        }
        cell[side] += n;
    })
}

/// A set of target levels as the bits of one word.
pub(crate) trait LevelMask: Copy {
    const EMPTY: Self;
    /// `self` with level `t` (less than the width) added.
    fn with(self, t: u32) -> Self;
    /// The levels, ascending, into `touched`.
    fn levels_into(self, touched: &mut Vec<u32>);
}

macro_rules! level_mask {
    ($t:ty) => {
        impl LevelMask for $t {
            const EMPTY: Self = 0;
            #[inline(always)]
            fn with(self, t: u32) -> Self {
                self | (1 << t)
            }
            #[inline]
            fn levels_into(mut self, touched: &mut Vec<u32>) {
                touched.clear();
                while self != 0 {
                    touched.push(self.trailing_zeros());
                    self &= self - 1;
                }
            }
        }
    };
}
level_mask!(u64);
level_mask!(u128);

/// `count_rows` for targets of few levels (at most the mask's width): the levels
/// touched are noted as bits, without a test per row.
#[inline(always)]
fn count_rows_masked<M: LevelMask>(
    codes: &[u32],
    weights: Option<&[u32]>,
    counts: &mut [[u32; 2]],
    side: usize,
    mask: &mut M,
) -> u64 {
    match weights {
        None => {
            for &t in codes {
                counts[t as usize][side] += 1;
                *mask = mask.with(t);
            }
            codes.len() as u64
        }
        Some(w) => {
            for (&t, &n) in codes.iter().zip(w) {
                counts[t as usize][side] += n;
                *mask = mask.with(t);
            }
            w.iter().map(|&n| n as u64).sum()
        }
    }
}

/// Both sides of a q into `counts` and the levels touched, ascending, into `touched`:
/// (original records, synthetic records).
#[inline(always)]
fn count_q_masked<M: LevelMask>(
    orig: (&[u32], Option<&[u32]>),
    syn: (&[u32], Option<&[u32]>),
    counts: &mut [[u32; 2]],
    touched: &mut Vec<u32>,
) -> (u64, u64) {
    let mut mask = M::EMPTY;
    let d_q = count_rows_masked(orig.0, orig.1, counts, 0, &mut mask);
    let s_q = count_rows_masked(syn.0, syn.1, counts, 1, &mut mask);
    mask.levels_into(touched);
    (d_q, s_q)
}

/// The number of records of a q's rows (`codes`, one record each, at least one) and the
/// sum over its target levels of the squared records, with whether it has one level.
#[inline]
pub(crate) fn records_and_squares(codes: &[u32], counts: &mut [[u32; 2]], touched: &mut Vec<u32>) -> (u64, u64, bool) {
    let n = codes.len() as u64;
    let first = codes[0];
    if codes[1..].iter().all(|&t| t == first) {
        return (n, n * n, true);
    }
    touched.clear();
    count_rows(codes, None, counts, 0, touched);
    let mut squares = 0u64;
    for &t in touched.iter() {
        let v = counts[t as usize][0] as u64;
        counts[t as usize] = [0, 0];
        squares += v * v;
    }
    (n, squares, false)
}

/// A q with records on one side only (`original`, else the synthesis) and nothing to
/// exclude, as the full pass would add it: that side's own tables (original and Dorig,
/// or synthetic and Dsyn), its uniques (UiO or UiS) and its CAP sum (CAPd or CAPs; the
/// DCAP term is zero). Every other table needs records on both sides of q.
#[inline(always)]
fn add_one_sided(tally: &mut Tally, original: bool, codes: &[u32], counts: &mut [[u32; 2]], touched: &mut Vec<u32>) {
    let (n, squares, one_level) = records_and_squares(codes, counts, touched);
    add_one_sided_sums(tally, original, n, squares, one_level);
}

/// `add_one_sided` from the side's records `n`, the sum of its squared records per
/// target level and whether it has one level.
#[inline(always)]
pub(crate) fn add_one_sided_sums(tally: &mut Tally, original: bool, n: u64, squares: u64, one_level: bool) {
    let (table, certain_table) = if original { (ORIG, DORIG) } else { (SYN, DSYN) };
    tally.total[table] += n;
    if one_level {
        tally.total[certain_table] += n;
    }
    let (uniques, cap_sum) =
        if original { (&mut tally.n_uio, &mut tally.capd_num) } else { (&mut tally.n_uis, &mut tally.caps_num) };
    // A unique adds 1 to the CAP sum: spared a division (x / 1 is x exactly).
    if n == 1 {
        *uniques += 1;
        *cap_sum += 1.0;
    } else {
        *cap_sum += count_f64(squares) / count_f64(n);
    }
}

/// The original's records of one q by target level into `orig_counts`, its levels into
/// `orig_touched` (ascending with a level mask, `mask_width` 64 or 128; else in order of
/// first appearance, as the pass without a mask keeps them): its records.
#[inline(always)]
pub(crate) fn count_original(
    codes: &[u32],
    weights: Option<&[u32]>,
    orig_counts: &mut [u32],
    orig_touched: &mut Vec<u32>,
    mask_width: u32,
) -> u64 {
    orig_touched.clear();
    if codes.is_empty() {
        return 0;
    }
    // Most q of small data have one level (often one record): no tally per row.
    if weights.is_none() && codes[1..].iter().all(|&t| t == codes[0]) {
        let n = codes.len() as u64;
        orig_counts[codes[0] as usize] = codes.len() as u32;
        orig_touched.push(codes[0]);
        return n;
    }
    match mask_width {
        64 => count_original_masked::<u64>(codes, weights, orig_counts, orig_touched),
        128 => count_original_masked::<u128>(codes, weights, orig_counts, orig_touched),
        _ => for_each_record(codes, weights, |t, n| {
            let cell = &mut orig_counts[t as usize];
            if *cell == 0 {
                orig_touched.push(t);
            }
            *cell += n;
        }),
    }
}

/// `count_original` with the levels kept as bits (no test per row).
#[inline(always)]
fn count_original_masked<M: LevelMask>(
    codes: &[u32],
    weights: Option<&[u32]>,
    orig_counts: &mut [u32],
    orig_touched: &mut Vec<u32>,
) -> u64 {
    let mut mask = M::EMPTY;
    let records = match weights {
        None => {
            for &t in codes {
                orig_counts[t as usize] += 1;
                mask = mask.with(t);
            }
            codes.len() as u64
        }
        Some(w) => {
            for (&t, &n) in codes.iter().zip(w) {
                orig_counts[t as usize] += n;
                mask = mask.with(t);
            }
            w.iter().map(|&n| n as u64).sum()
        }
    };
    mask.levels_into(orig_touched);
    records
}

/// The codes of the rows of `q_lo..q_hi`, in q order, into `out`.
fn gather<S: CodeSource + ?Sized>(codes: &S, rows: &RowsByQ, q_lo: usize, q_hi: usize, out: &mut Vec<u32>) {
    out.clear();
    out.extend(rows.rows[rows.offsets[q_lo]..rows.offsets[q_hi]].iter().map(|&r| codes.code(r as usize)));
}

/// The pass, compiled once per storage of the target's codes, for the syntheses of
/// `inputs` (their codes `targets_syn`, in the storage of `target_orig`).
fn sweep_codes<S: CodeSource + ?Sized>(
    inputs: &[SweepInput<'_>],
    target_orig: &S,
    targets_syn: &[&S],
    q_lo: usize,
    q_hi: usize,
    scratch: &mut Scratch,
) -> Vec<Tally> {
    let input = &inputs[0];
    let n_t = input.n_target_levels;
    let spec = input.spec;
    let mut tallies: Vec<Tally> = inputs.iter().map(|_| Tally::new(n_t, input.tau.len())).collect();
    let with_tau = !input.tau.is_empty();
    if scratch.counts.len() < n_t {
        scratch.counts.resize(n_t, [0, 0]);
    }
    if scratch.orig_counts.len() < n_t {
        scratch.orig_counts.resize(n_t, 0);
    }
    scratch.codes_syn.resize_with(inputs.len().max(scratch.codes_syn.len()), Vec::new);
    scratch.weights_syn.resize_with(inputs.len().max(scratch.weights_syn.len()), Vec::new);
    let Scratch { codes_orig, codes_syn, weights_orig: w_orig, weights_syn: w_syn, counts, orig_counts } = scratch;
    // Whether some step but the denominator limit may remove a cell: when not, no cell
    // of q needs `cell_step`.
    let any_target_excluded = spec.excluded_target.iter().any(|&x| x) || spec.exclude_missing_target;
    let mut touched: Vec<u32> = Vec::new();
    let mut orig_touched: Vec<u32> = Vec::new();
    let mut key_target_levels: Vec<u32> = Vec::new();
    // The range's target codes in q order, read first in a loop that does nothing else:
    // the random reads overlap there, and the counting below reads in sequence.
    gather(target_orig, input.rows_orig, q_lo, q_hi, codes_orig);
    for ((view, codes), out) in inputs.iter().zip(targets_syn).zip(codes_syn.iter_mut()) {
        gather(*codes, view.rows_syn, q_lo, q_hi, out);
    }
    let gathered_orig = &codes_orig[..];
    let base_orig = input.rows_orig.offsets[q_lo];
    let base_syn: Vec<usize> = inputs.iter().map(|v| v.rows_syn.offsets[q_lo]).collect();
    let weights_orig = input.weights_orig.map(|w| {
        gather(w, input.rows_orig, q_lo, q_hi, w_orig);
        &w_orig[..]
    });
    for (view, out) in inputs.iter().zip(w_syn.iter_mut()) {
        if let Some(w) = view.weights_syn {
            gather(w, view.rows_syn, q_lo, q_hi, out);
        }
    }

    // Whether a q with records on one side only can take the short path: no step can
    // remove a cell of it (bar a missing key, asked per q), no curve, one record per row.
    let plain = !any_target_excluded
        && spec.key_target.is_empty()
        && spec.denom_lim.is_none()
        && !with_tau
        && weights_orig.is_none()
        && inputs.iter().all(|v| v.weights_syn.is_none());
    // Few target levels: the levels a q touches are kept as bits, which spares a test
    // per row. They come out in ascending order rather than in order of appearance,
    // which changes no sum but the tau curve's floating-point ones: not with a curve.
    // One synthesis: its original's records are counted in place, as there is no
    // other synthesis to share them with.
    let single = inputs.len() == 1;
    let mask_width: u32 = match n_t {
        _ if with_tau => 0,
        0..=64 => 64,
        65..=128 => 128,
        _ => 0,
    };
    for q in q_lo..q_hi {
        let of_q = |rows: &RowsByQ, base: usize| rows.offsets[q] - base..rows.offsets[q + 1] - base;
        let at_orig = of_q(input.rows_orig, base_orig);
        let orig_codes = &gathered_orig[at_orig.clone()];
        let orig_weights = weights_orig.map(|w| &w[at_orig.clone()]);
        // The original's records of q by level, counted when a synthesis first needs
        // them.
        let mut orig_records: Option<u64> = None;
        for (vi, view) in inputs.iter().enumerate() {
            let tally = &mut tallies[vi];
            let at_syn = of_q(view.rows_syn, base_syn[vi]);
            if at_orig.is_empty() && at_syn.is_empty() {
                // A q of other datasets only (other syntheses, or rows outside a subsample).
                continue;
            }
            let syn_codes = &codes_syn[vi][at_syn.clone()];
            let syn_weights = view.weights_syn.map(|_| &w_syn[vi][at_syn.clone()]);
            if plain && (at_orig.is_empty() || at_syn.is_empty()) && !input.missing_key[q] {
                if at_syn.is_empty() && single {
                    add_one_sided(tally, true, orig_codes, counts, &mut touched);
                } else if at_syn.is_empty() {
                    let n = *orig_records.get_or_insert_with(|| {
                        count_original(orig_codes, None, orig_counts, &mut orig_touched, mask_width)
                    });
                    let squares = if orig_touched.len() == 1 {
                        n * n
                    } else {
                        orig_touched.iter().map(|&t| (orig_counts[t as usize] as u64).pow(2)).sum()
                    };
                    add_one_sided_sums(tally, true, n, squares, orig_touched.len() == 1);
                } else {
                    add_one_sided(tally, false, syn_codes, counts, &mut touched);
                }
                continue;
            }
            touched.clear();
            // The original's records of q, then the synthesis's: one per row, or the rows'
            // counts (counted cells; every count >= 1, so a level is touched at its first
            // row either way). With several syntheses the original's levels are counted
            // once and set in, in their order of appearance.
            let (d_q, s_q) = if single {
                match mask_width {
                    64 => count_q_masked::<u64>(
                        (orig_codes, orig_weights),
                        (syn_codes, syn_weights),
                        counts,
                        &mut touched,
                    ),
                    128 => count_q_masked::<u128>(
                        (orig_codes, orig_weights),
                        (syn_codes, syn_weights),
                        counts,
                        &mut touched,
                    ),
                    _ => {
                        let d_q = count_rows(orig_codes, orig_weights, counts, 0, &mut touched);
                        (d_q, count_rows(syn_codes, syn_weights, counts, 1, &mut touched))
                    }
                }
            } else {
                let d_q = *orig_records.get_or_insert_with(|| {
                    count_original(orig_codes, orig_weights, orig_counts, &mut orig_touched, mask_width)
                });
                (
                    d_q,
                    match mask_width {
                        64 => seed_and_count_masked::<u64>(
                            &orig_touched,
                            orig_counts,
                            (syn_codes, syn_weights),
                            counts,
                            &mut touched,
                        ),
                        128 => seed_and_count_masked::<u128>(
                            &orig_touched,
                            orig_counts,
                            (syn_codes, syn_weights),
                            counts,
                            &mut touched,
                        ),
                        _ => {
                            for &t in &orig_touched {
                                counts[t as usize][0] = orig_counts[t as usize];
                                touched.push(t);
                            }
                            count_rows(syn_codes, syn_weights, counts, 1, &mut touched)
                        }
                    },
                )
            };
            let missing_key = input.missing_key[q];
            spec.key_target_levels_for(input.index, q, &mut key_target_levels);
            let q_may_exclude = any_target_excluded || missing_key || !key_target_levels.is_empty();
            if !q_may_exclude && spec.denom_lim.is_none() && !with_tau {
                // Nothing removes a cell of q (most q): each table's total is a sum over q,
                // and only the CAP sums and the one DiSCO cell need the cells.
                let (mut sd, mut dd, mut ss) = (0u64, 0u64, 0u64);
                let (mut orig_levels, mut syn_levels, mut syn_level, mut d_of_syn_level) = (0u32, 0u32, 0u32, 0u64);
                for &t in &touched {
                    let [dv, sv] = counts[t as usize].map(|n| n as u64);
                    counts[t as usize] = [0, 0];
                    sd += sv * dv;
                    dd += dv * dv;
                    ss += sv * sv;
                    orig_levels += (dv > 0) as u32;
                    if sv > 0 {
                        syn_levels += 1;
                        syn_level = t;
                        d_of_syn_level = dv;
                    }
                }
                let syn_certain = syn_levels == 1;
                tally.total[ORIG] += d_q;
                tally.total[SYN] += s_q;
                if orig_levels == 1 {
                    tally.total[DORIG] += d_q;
                }
                if s_q > 0 {
                    tally.total[IS] += d_q;
                }
                if syn_certain {
                    tally.total[DSYN] += s_q;
                    tally.total[DIS] += d_q;
                    tally.total[DISCO] += d_of_syn_level;
                    if d_q > 0 && d_of_syn_level == d_q {
                        tally.total[DISDIO] += d_q;
                    }
                    if d_of_syn_level > 0 {
                        add_disco_cell(tally, q, syn_level, d_of_syn_level, input.twoway_min_cell);
                    }
                }
                finish_q(
                    tally,
                    QSums {
                        d_kept: d_q,
                        s_kept: s_q,
                        s_q,
                        sd,
                        dd,
                        ss,
                        syn_kept_levels: syn_levels,
                        d_kept_of_syn_level: d_of_syn_level,
                    },
                );
                continue;
            }
            // q has a target level u with ps[u,q] == 1 exactly when one level occurs in it.
            let syn_levels = touched.iter().filter(|&&t| counts[t as usize][1] > 0).count();

            let (mut d_kept_q, mut s_kept_q) = (0u64, 0u64);
            let (mut sd, mut dd, mut ss) = (0u64, 0u64, 0u64);
            // Kept synthetic levels of q, and the kept original count of the last one.
            let (mut syn_kept_levels, mut d_kept_of_syn_level) = (0u32, 0u64);
            for &t in &touched {
                let [dv, sv] = counts[t as usize].map(|n| n as u64);
                counts[t as usize] = [0, 0];
                let syn_certain = s_q > 0 && sv == s_q;
                let orig_certain = d_q > 0 && dv == d_q;
                let values: [u64; N_TABLES] = [
                    dv,
                    sv,
                    if orig_certain { dv } else { 0 },
                    if syn_certain { sv } else { 0 },
                    if s_q > 0 { dv } else { 0 },
                    if syn_levels == 1 { dv } else { 0 },
                    if syn_certain { dv } else { 0 },
                    if syn_certain && orig_certain { dv } else { 0 },
                ];
                let step = if q_may_exclude { spec.cell_step(t, missing_key, &key_target_levels) } else { None };
                let kept = if step.is_none() && spec.denom_lim.is_none() {
                    // Most cells: nothing removes them.
                    for k in 0..N_TABLES {
                        tally.total[k] += values[k];
                    }
                    values
                } else {
                    let mut kept = [0u64; N_TABLES];
                    for k in 0..N_TABLES {
                        let v = values[k];
                        if v == 0 {
                            continue;
                        }
                        tally.total[k] += v;
                        let removed_by = step.or(match spec.denom_lim {
                            Some(lim) if v > lim => Some(STEP_DENOM_LIM),
                            _ => None,
                        });
                        match removed_by {
                            Some(st) => {
                                tally.removed[k][st] += v;
                                if k == ORIG {
                                    tally.orig_removed_by_level.push((t, v));
                                }
                            }
                            None => kept[k] = v,
                        }
                    }
                    kept
                };
                // The tau curve's cells: proportions before exclusions, then the DiSCO
                // table's exclusions with the cell's value d (definitions vignette 10.1).
                if with_tau && dv > 0 && step.is_none() && !matches!(spec.denom_lim, Some(lim) if dv > lim) {
                    let ps = if s_q > 0 { sv as f64 / s_q as f64 } else { 0.0 };
                    let pd = dv as f64 / d_q as f64;
                    tally.tau_syn[input.tau.bucket(ps)] += ps * dv as f64;
                    tally.tau_orig[input.tau.bucket(pd)] += pd * dv as f64;
                }
                let (dk, sk) = (kept[ORIG], kept[SYN]);
                d_kept_q += dk;
                s_kept_q += sk;
                if sk > 0 {
                    syn_kept_levels += 1;
                    d_kept_of_syn_level = dk;
                }
                sd += sk * dk;
                dd += dk * dk;
                ss += sk * sk;
                let disco = kept[DISCO];
                if disco > 0 {
                    add_disco_cell(tally, q, t, disco, input.twoway_min_cell);
                }
            }
            finish_q(
                tally,
                QSums { d_kept: d_kept_q, s_kept: s_kept_q, s_q, sd, dd, ss, syn_kept_levels, d_kept_of_syn_level },
            );
        }
        if orig_records.is_some() {
            for &t in &orig_touched {
                orig_counts[t as usize] = 0;
            }
        }
    }
    tallies
}

/// What a q adds when nothing removes a cell of it, from its cells: its original
/// (`d_q`) and synthetic (`s_q`) records, the sums over its target levels of s*d, d^2
/// and s^2, its levels on each side, and the last synthetic level with the original's
/// records there (the one level when the synthesis has one).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PlainSums {
    pub d_q: u64,
    pub s_q: u64,
    pub sd: u64,
    pub dd: u64,
    pub ss: u64,
    pub orig_levels: u32,
    pub syn_levels: u32,
    pub syn_level: u32,
    pub d_of_syn_level: u64,
}

/// What a q with records on both sides adds when nothing removes a cell of it, from
/// its sums (`plain_pass.rs`). The engine's pass (`sweep_codes`) adds the same inline,
/// from its cells: as a call it measured 3 % slower on 1e7 rows. The two are held
/// together bit for bit by `the_plain_pass_equals_the_engines_pass`.
#[inline(always)]
pub(crate) fn add_plain_sums(tally: &mut Tally, q: usize, sums: &PlainSums, twoway_min_cell: f64) {
    let PlainSums { d_q, s_q, sd, dd, ss, orig_levels, syn_levels, syn_level, d_of_syn_level } = *sums;
    let syn_certain = syn_levels == 1;
    tally.total[ORIG] += d_q;
    tally.total[SYN] += s_q;
    if orig_levels == 1 {
        tally.total[DORIG] += d_q;
    }
    if s_q > 0 {
        tally.total[IS] += d_q;
    }
    if syn_certain {
        tally.total[DSYN] += s_q;
        tally.total[DIS] += d_q;
        tally.total[DISCO] += d_of_syn_level;
        if d_q > 0 && d_of_syn_level == d_q {
            tally.total[DISDIO] += d_q;
        }
        if d_of_syn_level > 0 {
            add_disco_cell(tally, q, syn_level, d_of_syn_level, twoway_min_cell);
        }
    }
    finish_q(
        tally,
        QSums {
            d_kept: d_q,
            s_kept: s_q,
            s_q,
            sd,
            dd,
            ss,
            syn_kept_levels: syn_levels,
            d_kept_of_syn_level: d_of_syn_level,
        },
    );
}

/// `add_plain_sums` for a q of one original and one synthetic record, the synthetic one at
/// level `syn_level`, `agree` when the original's is the same.
#[inline(always)]
pub(crate) fn add_plain_pair(tally: &mut Tally, q: usize, syn_level: u32, agree: bool, twoway_min_cell: f64) {
    let a = agree as u64;
    let sums =
        PlainSums { d_q: 1, s_q: 1, sd: a, dd: 1, ss: 1, orig_levels: 1, syn_levels: 1, syn_level, d_of_syn_level: a };
    add_plain_sums(tally, q, &sums, twoway_min_cell);
}

/// The original's levels of q (`orig_touched`, counts in `orig_counts`) set into side 0
/// of `counts`, then the synthesis's rows counted into side 1; the levels touched,
/// ascending, into `touched`. Returns the synthetic records.
#[inline(always)]
pub(crate) fn seed_and_count_masked<M: LevelMask>(
    orig_touched: &[u32],
    orig_counts: &[u32],
    syn: (&[u32], Option<&[u32]>),
    counts: &mut [[u32; 2]],
    touched: &mut Vec<u32>,
) -> u64 {
    let mut mask = M::EMPTY;
    for &t in orig_touched {
        counts[t as usize][0] = orig_counts[t as usize];
        mask = mask.with(t);
    }
    let s_q = count_rows_masked(syn.0, syn.1, counts, 1, &mut mask);
    mask.levels_into(touched);
    s_q
}

/// A kept DiSCO cell (q, t) of `disco` records.
#[inline(always)]
fn add_disco_cell(tally: &mut Tally, q: usize, t: u32, disco: u64, twoway_min_cell: f64) {
    tally.disco_cells += 1;
    tally.disco_max = tally.disco_max.max(disco);
    tally.disco.add(t, disco);
    if count_f64(disco) > twoway_min_cell {
        tally.twoway_cells.push((q as u32, t, disco));
    }
}

/// What one q adds beyond the tables, from its kept records: original (`d_kept`) and
/// synthetic (`s_kept`), the synthetic records before exclusions (`s_q`), the sums over
/// its kept cells of s'd', d'^2 and s'^2, its kept synthetic levels and the kept
/// original records of the last of them.
struct QSums {
    d_kept: u64,
    s_kept: u64,
    s_q: u64,
    sd: u64,
    dd: u64,
    ss: u64,
    syn_kept_levels: u32,
    d_kept_of_syn_level: u64,
}

/// A count as a double, through `i64`: one conversion instruction where `u64`'s takes
/// several on x86-64 (no unsigned one before AVX-512). Counts stay far below 2^63,
/// where both give the same double.
#[inline(always)]
fn count_f64(n: u64) -> f64 {
    debug_assert!(n <= i64::MAX as u64);
    n as i64 as f64
}

#[inline(always)]
fn finish_q(tally: &mut Tally, q: QSums) {
    if q.d_kept == 1 {
        tally.n_uio += 1;
        if q.s_q > 0 {
            tally.n_uioi_s += 1;
        }
        if q.s_kept == 1 {
            tally.n_repu += 1;
        }
    }
    if q.s_kept == 1 {
        tally.n_uis += 1;
    }
    // Divisions by 1 (unique q, most of them) are skipped: x / 1 is x exactly.
    let per = |sum: u64, n: u64| if n == 1 { count_f64(sum) } else { count_f64(sum) / count_f64(n) };
    if q.s_kept > 0 {
        tally.dcap_num += per(q.sd, q.s_kept);
        tally.caps_num += per(q.ss, q.s_kept);
        tally.n_orig_in_syn += q.d_kept;
    }
    if q.d_kept > 0 {
        tally.capd_num += per(q.dd, q.d_kept);
        tally.n_b += q.s_kept;
        if q.syn_kept_levels == 1 {
            tally.taub_num += count_f64(q.s_kept) * (count_f64(q.d_kept_of_syn_level) / count_f64(q.d_kept));
            tally.taub_den += q.s_kept;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_sums_agree_dense_or_sparse() {
        let adds = [(3u32, 5u64), (0, 1), (3, 2), (4999, 7)];
        let mut dense = LevelSums::Dense(vec![0; 5000]);
        let mut sparse = LevelSums::new(5000);
        assert!(matches!(sparse, LevelSums::Sparse { .. }));
        for (i, &(t, v)) in adds.iter().enumerate() {
            // Half the pairs arrive through a merge.
            if i % 2 == 0 {
                dense.add(t, v);
                sparse.add(t, v);
            } else {
                let mut d = LevelSums::Dense(vec![0; 5000]);
                d.add(t, v);
                dense.merge(d);
                let mut s = LevelSums::new(5000);
                s.add(t, v);
                sparse.merge(s);
            }
        }
        let want = dense.by_level();
        assert_eq!((want[0], want[3], want[4999], want.iter().sum::<u64>()), (1, 7, 7, 15));
        assert_eq!(sparse.by_level(), want);
        // A dense and a sparse side merge to the same sums.
        let mut mixed = LevelSums::Dense(vec![0; 5000]);
        mixed.merge(sparse.clone());
        assert_eq!(mixed.by_level(), want);
    }
}
