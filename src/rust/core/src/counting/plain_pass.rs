//! The pass over q for several targets at once, when nothing can remove a cell: no
//! exclusion, no missing key that usekeysNA drops, no tau curve, one record per row,
//! and every dataset read in row order (one bucket). Most calls are so (synthpop's
//! defaults), and the key sweep's are. Each q's rows and its shape (records on each
//! side) are read once for every target and synthesis instead of once per target, the
//! targets' codes of a row are one read (`TargetRows`), and a q of at most one record
//! on each side, most q of many keys, is added without counting by level.
//!
//! Its tallies equal, bit for bit, those of `sweep_views` on the same q range: every
//! q adds the same values to each tally in the same q order (`sweep.rs`'s
//! `add_plain_sums`, which the engine's pass writes inline). A test holds the two
//! passes together.

use crate::codes::{CodeSource, LevelCodes};
use crate::rows_by_q::RowsByQ;
use crate::sweep::{add_one_sided_sums, add_plain_pair, add_plain_sums, PlainSums, Tally};
use crate::with_codes;

/// The codes of several targets, row by row: one byte per target (at most 256 levels
/// each), so that a record's targets are one read.
pub struct TargetRows {
    codes: Vec<u8>,
    width: usize,
}

/// Targets of more levels than this are not packed (and the plain pass does not apply).
pub const PACKED_LEVELS: u32 = 256;

impl TargetRows {
    /// `columns`: one column of codes (all below `PACKED_LEVELS`) per target, each of
    /// `n_rows` rows.
    pub fn new(columns: &[&LevelCodes<'_>], n_rows: usize) -> Self {
        let width = columns.len();
        let mut codes = crate::memory::filled(n_rows * width, 0u8);
        for (t, column) in columns.iter().enumerate() {
            with_codes!(*column, |c| {
                for (row, out) in codes.chunks_exact_mut(width.max(1)).enumerate().take(n_rows) {
                    out[t] = c.code(row) as u8;
                }
            });
        }
        TargetRows { codes, width }
    }

    /// The bytes it holds.
    pub fn bytes_held(&self) -> usize {
        self.codes.len()
    }

    /// The bytes `new` takes for `n_rows` rows of `n_targets` targets.
    pub fn bytes(n_rows: usize, n_targets: usize) -> usize {
        n_rows * n_targets
    }

    #[inline(always)]
    fn row(&self, r: u32) -> &[u8] {
        let at = r as usize * self.width;
        &self.codes[at..at + self.width]
    }
}

/// One synthesis of the pass: its rows grouped by q (dataset row ids) and its targets'
/// codes.
pub struct PlainView<'a> {
    pub rows: &'a RowsByQ,
    pub codes: &'a TargetRows,
}

/// What the pass reads: the original's rows by q and codes, the syntheses, and per
/// target (in `TargetRows` order) its levels and 2-way cell threshold.
pub struct PlainInput<'a> {
    pub rows_orig: &'a RowsByQ,
    pub codes_orig: &'a TargetRows,
    pub views: &'a [PlainView<'a>],
    pub n_levels: &'a [u32],
    pub twoway_min_cell: &'a [f64],
}

/// Buffers of the pass: each side's counts, and per target the original's sum of
/// squared records and number of levels in the current q.
struct PlainScratch {
    orig: SideCounts,
    syn: SideCounts,
    orig_sums: Vec<(u64, u32)>,
}

/// Records by target level of one side of a q, for every target of the pass at once:
/// `counts[i * PACKED_LEVELS + level]` for the pass's `i`th target, and the levels
/// present as bits. All zero between two q.
struct SideCounts {
    counts: Vec<[u32; LEVELS]>,
    present: Vec<[u64; MASK_WORDS]>,
    /// Per target, the words of its mask that its levels use.
    words: Vec<usize>,
}

const LEVELS: usize = PACKED_LEVELS as usize;
const MASK_WORDS: usize = LEVELS / 64;

/// Records of a side of a q from which its masks are made from its counts.
const MANY_ROWS: usize = 64;

impl SideCounts {
    /// Counts for targets of `n_levels` levels each.
    fn new(n_levels: &[u32]) -> Self {
        SideCounts {
            counts: vec![[0; LEVELS]; n_levels.len()],
            present: vec![[0; MASK_WORDS]; n_levels.len()],
            words: n_levels.iter().map(|&l| (l as usize).div_ceil(64).clamp(1, MASK_WORDS)).collect(),
        }
    }

    /// Target `i`'s levels present, as the mask words its levels use.
    #[inline(always)]
    fn levels(&self, i: usize) -> &[u64] {
        &self.present[i][..self.words[i]]
    }

    /// Counts the rows `rows` (one record each) for the targets `targets`. A level is
    /// a byte: it indexes its target's counts and mask without a bounds check.
    #[inline(always)]
    fn count(&mut self, rows: &[u32], codes: &TargetRows, targets: &std::ops::Range<usize>) {
        for &r in rows {
            let row = &codes.row(r)[targets.clone()];
            for ((counts, present), &level) in self.counts.iter_mut().zip(self.present.iter_mut()).zip(row) {
                counts[level as usize] += 1;
                present[(level >> 6) as usize] |= 1 << (level & 63);
            }
        }
    }

    /// `count` for many rows: the counts first, then the masks from the counts (one
    /// store a row and target instead of two; the masks cost the targets' levels).
    #[inline(always)]
    fn count_many(&mut self, rows: &[u32], codes: &TargetRows, targets: &std::ops::Range<usize>, n_levels: &[u32]) {
        for &r in rows {
            let row = &codes.row(r)[targets.clone()];
            for (counts, &level) in self.counts.iter_mut().zip(row) {
                counts[level as usize] += 1;
            }
        }
        for ((counts, present), &n) in self.counts.iter().zip(self.present.iter_mut()).zip(n_levels) {
            for (word, levels) in present.iter_mut().zip(counts[..n as usize].chunks(64)) {
                *word = levels.iter().enumerate().fold(0u64, |bits, (b, &c)| bits | (((c != 0) as u64) << b));
            }
        }
    }

    #[inline(always)]
    fn at(&self, i: usize, level: usize) -> u64 {
        self.counts[i][level] as u64
    }

    /// Zeroes target `i`'s counts.
    #[inline(always)]
    fn clear(&mut self, i: usize) {
        let counts = &mut self.counts[i];
        for (w, word) in self.present[i][..self.words[i]].iter_mut().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                counts[w * 64 + bits.trailing_zeros() as usize] = 0;
                bits &= bits - 1;
            }
            *word = 0;
        }
    }
}

/// Calls `f(level)` for each level set in `bits`, ascending.
#[inline(always)]
fn for_each_level(bits: &[u64], mut f: impl FnMut(usize)) {
    for (w, &word) in bits.iter().enumerate() {
        let mut rest = word;
        while rest != 0 {
            f(w * 64 + rest.trailing_zeros() as usize);
            rest &= rest - 1;
        }
    }
}

/// The pass over `q_lo..q_hi` for the targets `targets` (indices into the packed
/// targets): one tally per (target, synthesis), target-major.
pub fn sweep_plain(input: &PlainInput<'_>, targets: std::ops::Range<usize>, q_lo: usize, q_hi: usize) -> Vec<Tally> {
    let n_views = input.views.len();
    let mut tallies: Vec<Tally> =
        targets.clone().flat_map(|t| (0..n_views).map(move |_| Tally::new(input.n_levels[t] as usize, 0))).collect();
    let mut scratch = PlainScratch {
        orig: SideCounts::new(&input.n_levels[targets.clone()]),
        syn: SideCounts::new(&input.n_levels[targets.clone()]),
        orig_sums: Vec::with_capacity(targets.len()),
    };
    let mut syn_rows: Vec<&[u32]> = Vec::with_capacity(n_views);
    for q in q_lo..q_hi {
        let orig_rows = input.rows_orig.of(q);
        syn_rows.clear();
        syn_rows.extend(input.views.iter().map(|v| v.rows.of(q)));
        if orig_rows.len() <= 1 && syn_rows.iter().all(|r| r.len() <= 1) {
            add_tiny_q(input, &targets, &mut tallies, q, orig_rows, &syn_rows);
        } else {
            add_q_by_level(input, &targets, &mut tallies, q, orig_rows, &syn_rows, &mut scratch);
        }
    }
    tallies
}

/// A q of at most one record on each side, for every target and synthesis: what the
/// engine's pass adds for it, without counts by level. A record alone on its side is a
/// unique whatever its target (one-sided: its table, its certain table, its uniques
/// and 1 to its CAP sum); a record on each side adds by whether their targets agree.
#[inline(always)]
fn add_tiny_q(
    input: &PlainInput<'_>,
    targets: &std::ops::Range<usize>,
    tallies: &mut [Tally],
    q: usize,
    orig_rows: &[u32],
    syn_rows: &[&[u32]],
) {
    let n_views = input.views.len();
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
                let (orig, syn) = (input.codes_orig.row(o), input.views[v].codes.row(s));
                for (i, t) in targets.clone().enumerate() {
                    let (to, ts) = (orig[t], syn[t]);
                    add_plain_pair(&mut tallies[i * n_views + v], q, ts as u32, to == ts, input.twoway_min_cell[t]);
                }
            }
        }
    }
}

/// A q with more than one record on a side: each side's records counted by level for
/// every target in one read of each row (the original's once for every synthesis),
/// then each (target, synthesis) added as the engine's pass adds it (one-sided, or both
/// sides with nothing to remove) from its sums over levels.
fn add_q_by_level(
    input: &PlainInput<'_>,
    targets: &std::ops::Range<usize>,
    tallies: &mut [Tally],
    q: usize,
    orig_rows: &[u32],
    syn_rows: &[&[u32]],
    scratch: &mut PlainScratch,
) {
    let n_views = input.views.len();
    let PlainScratch { orig, syn, orig_sums } = scratch;
    let d_q = orig_rows.len() as u64;
    let n_levels = &input.n_levels[targets.clone()];
    if orig_rows.len() >= MANY_ROWS {
        orig.count_many(orig_rows, input.codes_orig, targets, n_levels);
    } else {
        orig.count(orig_rows, input.codes_orig, targets);
    }
    // Per target: the original's sum of squares and levels.
    orig_sums.clear();
    for i in 0..targets.len() {
        let (mut dd, mut levels) = (0u64, 0u32);
        for_each_level(orig.levels(i), |l| {
            let d = orig.at(i, l);
            dd += d * d;
            levels += 1;
        });
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
        let s_q = rows.len() as u64;
        if rows.len() >= MANY_ROWS {
            syn.count_many(rows, input.views[v].codes, targets, n_levels);
        } else {
            syn.count(rows, input.views[v].codes, targets);
        }
        for (i, t) in targets.clone().enumerate() {
            let tally = &mut tallies[i * n_views + v];
            let (dd, orig_levels) = orig_sums[i];
            let mut sums = PlainSums { d_q, s_q, dd, orig_levels, ..PlainSums::default() };
            // Every term but the original's (summed above) needs a synthetic record.
            for_each_level(syn.levels(i), |l| {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exclusions::ExclusionSpec;
    use crate::keys::build_key_index;
    use crate::plan::TauGrid;
    use crate::sweep::{sweep_views, Scratch, SweepInput};
    use crate::test_random::XorShift;

    /// The plain pass equals the engine's pass, tally for tally and bit for bit, for
    /// targets of few and many levels, one to three syntheses (one a subsample), q of
    /// one record a side and q of many (masks made as counted, or from the counts), and
    /// any split of the targets.
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
            let target_levels: Vec<u32> = [2u32, 5, 64, 70, 130, 256].iter().copied().filter(|_| next(3) > 0).collect();
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
                .map(|d| TargetRows::new(&targets.iter().map(|t| &t[d]).collect::<Vec<_>>(), sizes[d]))
                .collect();
            let views: Vec<PlainView<'_>> =
                (1..=n_syn).map(|d| PlainView { rows: view_rows[d - 1], codes: &packed[d] }).collect();
            let twoway: Vec<f64> = target_levels.iter().map(|_| next(3) as f64).collect();
            let input = PlainInput {
                rows_orig: &rows[0],
                codes_orig: &packed[0],
                views: &views,
                n_levels: &target_levels,
                twoway_min_cell: &twoway,
            };
            let n_t = target_levels.len();
            let split = next(n_t as u64 + 1) as usize;
            let mut got = sweep_plain(&input, 0..split, 0, index.n_q);
            got.extend(sweep_plain(&input, split..n_t, 0, index.n_q));
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
                let want = sweep_views(&inputs, 0, index.n_q, &mut scratch);
                for (v, w) in want.iter().enumerate() {
                    assert_eq!(&got[t * n_syn + v], w, "case {case}, target {t}, synthesis {v}");
                }
            }
        }
    }
}
