//! Inputs of the 1-way and 2-way checks (definitions vignette, section 7). Thresholds on percentages and
//! the wording are applied in R; here are the counts.

use crate::codes::{CodeSource, LevelCodes};
use crate::key_target_counts::{KeyTargetCache, KeyTargetCounts};
use crate::keys::KeyIndex;
use crate::plain_pass::JointTables;
use crate::rows_by_q::RowsByQ;
use crate::with_codes;
use hashbrown::HashMap;
use std::sync::OnceLock;

/// The target level with most disclosive records (first in level order on ties).
#[derive(Debug, Clone, PartialEq)]
pub struct OneWay {
    /// `None` when no record is disclosive.
    pub level: Option<u32>,
    pub n_level_dis: u64,
    pub total_disclosive: u64,
    /// Excluded original records with that level, and in all.
    pub level_orig: u64,
    pub all_orig: u64,
}

pub fn one_way(disco_by_level: &[u64], orig_by_level: &[u64]) -> OneWay {
    let total_disclosive: u64 = disco_by_level.iter().sum();
    let all_orig: u64 = orig_by_level.iter().sum();
    let mut best: Option<u32> = None;
    for (t, &n) in disco_by_level.iter().enumerate() {
        if n > 0 && best.is_none_or(|b| n > disco_by_level[b as usize]) {
            best = Some(t as u32);
        }
    }
    OneWay {
        level: best,
        n_level_dis: best.map_or(0, |b| disco_by_level[b as usize]),
        total_disclosive,
        level_orig: best.map_or(0, |b| orig_by_level[b as usize]),
        all_orig,
    }
}

/// A (target level, level of one key) pair of the 2-way check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairCount {
    pub key: usize,
    pub key_level: u32,
    pub target_level: u32,
    /// Disclosive records in cells above the cell threshold with this pair.
    pub npairs: u64,
    /// Original records with the key level and the target level, and with the key level.
    pub key_target_total: u64,
    pub key_total: u64,
}

/// Pairs from the DiSCO cells above the threshold, in order of key, target level, key
/// level; their totals are filled by `fill_two_way_totals`, once per target.
pub fn two_way_pairs(cells: &[(u32, u32, u64)], index: &KeyIndex) -> Vec<PairCount> {
    let mut sums: HashMap<(usize, u32, u32), u64> = HashMap::new();
    for &(q, t, v) in cells {
        for k in 0..index.n_keys {
            *sums.entry((k, t, index.key_code(q as usize, k))).or_insert(0) += v;
        }
    }
    let mut pairs: Vec<PairCount> = sums
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|((key, target_level, key_level), npairs)| PairCount {
            key,
            key_level,
            target_level,
            npairs,
            key_target_total: 0,
            key_total: 0,
        })
        .collect();
    pairs.sort_by_key(|p| (p.key, p.target_level, p.key_level));
    pairs
}

/// The original's columns the 2-way totals of one target read, in row order: each
/// key's encoded variable, codes and levels, the target's, and the records each row
/// stands for (`None`: one each). Codes are read from `u32` copies (faster to count from
/// than factor codes read through their table), made when first needed and, for keys,
/// once per call for all targets.
pub struct TwoWayColumns<'c, 'a> {
    pub key_vars: &'c [usize],
    pub key_codes: &'c [&'c LevelCodes<'a>],
    pub decoded_keys: &'c [OnceLock<Vec<u32>>],
    pub key_levels: &'c [u32],
    pub target_var: usize,
    pub target: &'c LevelCodes<'a>,
    pub target_levels: u32,
    pub weights: Option<&'c [u32]>,
}

/// Rows up to which the 2-way totals come from key-by-target tables: beyond, the copies
/// of the codes would take memory (and at 1e7 rows the tables' scattered increments
/// were slower than the counts by q).
pub const DECODED_ROWS: usize = 1 << 17;

/// The original in q order, as the counting passes read it: the key index, its rows by
/// q, the target's codes and the rows' counts (`None`: one record each) that `rows_orig`
/// points into.
#[derive(Clone, Copy)]
pub struct PairsByQ<'c, 'a> {
    pub index: &'c KeyIndex,
    pub rows_orig: &'c RowsByQ,
    pub target: &'c LevelCodes<'a>,
    pub weights: Option<&'c [u32]>,
}

/// Counts in the original of every pair of `pairs` (the pairs of all syntheses of one
/// target): records with the key level, and with the key level and the target level.
/// Up to `DECODED_ROWS` rows, each key's table by the target comes from `cache`
/// (counted once per key and target: `made` by the plain pass from each q's counts
/// when given, per key, else from the rows in row order); beyond, or where a table
/// would be too large, the pairs are counted by q (`count_pairs_by_q`).
pub fn fill_two_way_totals(
    pairs: &mut [&mut Vec<PairCount>],
    columns: &TwoWayColumns<'_, '_>,
    by_q: &PairsByQ<'_, '_>,
    cache: &KeyTargetCache,
    mut made: Option<JointTables>,
) {
    let n_keys = columns.key_levels.len();
    let mut named = vec![false; n_keys];
    for p in pairs.iter().flat_map(|p| p.iter()) {
        named[p.key] = true;
    }
    let small = columns.target.len() <= DECODED_ROWS;
    let decoded_target: OnceLock<Vec<u32>> = OnceLock::new();
    let mut by_q_keys = vec![false; n_keys];
    for k in (0..n_keys).filter(|&k| named[k]) {
        let (key, key_levels) = (columns.key_codes[k], columns.key_levels[k]);
        let table = if small {
            cache.table(columns.key_vars[k], columns.target_var, || {
                if let Some(joint) = made.as_mut().and_then(|m| m.get_mut(k)) {
                    return KeyTargetCounts::from_joint(std::mem::take(joint), key_levels, columns.target_levels);
                }
                KeyTargetCounts::count(
                    columns.decoded_keys[k].get_or_init(|| key.to_u32()).as_slice(),
                    key_levels,
                    decoded_target.get_or_init(|| columns.target.to_u32()).as_slice(),
                    columns.target_levels,
                    columns.weights,
                )
            })
        } else {
            None
        };
        match table {
            Some(table) => pairs.iter_mut().flat_map(|p| p.iter_mut()).filter(|p| p.key == k).for_each(|p| {
                p.key_total = table.key_total(p.key_level);
                p.key_target_total = table.joint(p.key_level, p.target_level);
            }),
            None => by_q_keys[k] = true,
        }
    }
    if by_q_keys.iter().any(|&k| k) {
        count_pairs_by_q(pairs, &by_q_keys, by_q, columns.key_levels, columns.target_levels);
    }
    // Tables the pass made for keys no pair named are kept too, so that a key sweep's
    // later subsets with those keys find them (and their pass need not make them).
    if let Some(made) = made {
        for (k, joint) in made.into_iter().enumerate().filter(|(k, j)| !named[*k] && !j.is_empty()) {
            cache.table(columns.key_vars[k], columns.target_var, || {
                KeyTargetCounts::from_joint(joint, columns.key_levels[k], columns.target_levels)
            });
        }
    }
}

/// The totals of the pairs of `pairs` whose key is one of `keys`, by q: the key levels
/// are read per q (`index`), so that a q whose levels no pair names costs one look, and
/// the records of the others are read in q order (`rows_orig`, which may point into a
/// copy of the codes in bucket order, `target`, and of the counts, `weights`), once for
/// all the keys whose level at q a pair names. For large data, where a q's rows, being
/// of one key level, add into one small row of counts that stays in cache.
fn count_pairs_by_q(
    pairs: &mut [&mut Vec<PairCount>],
    keys: &[bool],
    by_q: &PairsByQ<'_, '_>,
    key_levels: &[u32],
    target_orig_levels: u32,
) {
    let PairsByQ { index, rows_orig, target: target_orig, weights: weights_orig } = *by_q;
    let n_t = target_orig_levels as usize;
    let n_keys = key_levels.len();
    // Per key and key level: the slot of its joint counts, if some pair names it.
    let mut slot_of: Vec<Vec<u32>> = key_levels.iter().map(|&n| vec![NO_SLOT; n as usize]).collect();
    let mut wanted_levels: Vec<Vec<Vec<u32>>> = vec![Vec::new(); n_keys];
    for p in pairs.iter().flat_map(|p| p.iter()).filter(|p| keys[p.key]) {
        let slot = &mut slot_of[p.key][p.key_level as usize];
        if *slot == NO_SLOT {
            *slot = wanted_levels[p.key].len() as u32;
            wanted_levels[p.key].push(Vec::new());
        }
        wanted_levels[p.key][*slot as usize].push(p.target_level);
    }
    if wanted_levels.iter().all(|w| w.is_empty()) {
        return;
    }
    // Per key, joint counts per wanted key level: a dense row of counts when they fit,
    // else the wanted target levels only.
    let mut joint: Vec<Vec<Joint>> = wanted_levels
        .iter()
        .map(|levels| {
            let dense = (levels.len() as u64) * (n_t as u64) <= DENSE_JOINT_LIMIT;
            levels
                .iter()
                .map(|w| {
                    if dense {
                        Joint::Dense(vec![0; n_t * LANES])
                    } else {
                        Joint::Sparse(w.iter().map(|&t| (t, 0)).collect())
                    }
                })
                .collect()
        })
        .collect();
    let keys_wanted: Vec<usize> = (0..n_keys).filter(|&k| !wanted_levels[k].is_empty()).collect();
    let mut margin: Vec<Vec<u64>> = key_levels.iter().map(|&n| vec![0; n as usize]).collect();
    // The target codes (and counts) of one q's rows, read once for all its keys.
    let mut codes_q: Vec<u32> = Vec::new();
    let mut weights_q: Vec<u64> = Vec::new();
    with_codes!(target_orig, |tc| {
        for q in 0..index.n_q {
            let rows = rows_orig.of(q);
            if rows.is_empty() {
                continue;
            }
            let records: u64 = match weights_orig {
                None => rows.len() as u64,
                Some(w) => rows.iter().map(|&r| w[r as usize] as u64).sum(),
            };
            let mut read = false;
            for &k in &keys_wanted {
                let kl = index.key_code(q, k) as usize;
                margin[k][kl] += records;
                let slot = slot_of[k][kl];
                if slot == NO_SLOT {
                    continue;
                }
                if !read {
                    codes_q.clear();
                    codes_q.extend(rows.iter().map(|&r| tc.code(r as usize)));
                    weights_q.clear();
                    if let Some(w) = weights_orig {
                        weights_q.extend(rows.iter().map(|&r| w[r as usize] as u64));
                    }
                    read = true;
                }
                let weight = |i: usize| if weights_q.is_empty() { 1 } else { weights_q[i] };
                match &mut joint[k][slot as usize] {
                    Joint::Dense(counts) => {
                        // Four lanes, so that consecutive rows of one level do not wait
                        // on each other's increment.
                        for (i, &t) in codes_q.iter().enumerate() {
                            counts[(t as usize) * LANES + (i & (LANES - 1))] += weight(i);
                        }
                    }
                    Joint::Sparse(counts) => {
                        for (i, &t) in codes_q.iter().enumerate() {
                            if let Some(n) = counts.get_mut(&t) {
                                *n += weight(i);
                            }
                        }
                    }
                }
            }
        }
    });
    for p in pairs.iter_mut().flat_map(|p| p.iter_mut()).filter(|p| keys[p.key]) {
        p.key_total = margin[p.key][p.key_level as usize];
        // Every pair was given a slot above.
        p.key_target_total = match &joint[p.key][slot_of[p.key][p.key_level as usize] as usize] {
            Joint::Dense(counts) => counts[p.target_level as usize * LANES..][..LANES].iter().sum(),
            Joint::Sparse(counts) => counts.get(&p.target_level).copied().unwrap_or(0),
        };
    }
}

const LANES: usize = 4;

/// A key level no pair names.
const NO_SLOT: u32 = u32::MAX;

/// Above this many counts per key, the joint counts keep the wanted pairs only.
const DENSE_JOINT_LIMIT: u64 = 1 << 20;

/// One key level's original records by target level, as `fill_two_way_totals` keeps them.
enum Joint {
    Dense(Vec<u64>),
    Sparse(HashMap<u32, u64>),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables (small data) and the counts by q (large data) give every pair the
    /// same totals, with and without counted cells.
    #[test]
    fn tables_and_counts_by_q_agree() {
        use crate::keys::build_key_index;
        use crate::test_random::XorShift;
        let mut rng = XorShift::new(0x2A7E_51C3_90B4_11D7u64);
        let n = 600usize;
        let key_levels = [4u32, 7];
        let keys: Vec<Vec<LevelCodes<'static>>> = key_levels
            .iter()
            .map(|&l| vec![LevelCodes::narrow((0..n).map(|_| rng.below(l as u64)).collect(), l)])
            .collect();
        let target = LevelCodes::narrow((0..n).map(|_| rng.below(5)).collect(), 5);
        let weights: Vec<u32> = (0..n).map(|_| 1 + rng.below(3)).collect();
        let key_refs: Vec<&[LevelCodes<'_>]> = keys.iter().map(|k| k.as_slice()).collect();
        let index = build_key_index(&key_refs, &key_levels).unwrap();
        let rows = RowsByQ::new(&index.q[0], index.n_q);
        // Every (key, key level, target level) that occurs, as pairs.
        let mut all: Vec<PairCount> = Vec::new();
        for (key, &levels) in key_levels.iter().enumerate() {
            for key_level in 0..levels {
                for target_level in 0..5 {
                    all.push(PairCount { key, key_level, target_level, npairs: 1, key_target_total: 0, key_total: 0 });
                }
            }
        }
        for w in [None, Some(weights.as_slice())] {
            let key_codes: Vec<&LevelCodes<'_>> = keys.iter().map(|k| &k[0]).collect();
            let decoded_keys: Vec<OnceLock<Vec<u32>>> = (0..2).map(|_| OnceLock::new()).collect();
            let columns = TwoWayColumns {
                key_vars: &[0, 1],
                key_codes: &key_codes,
                decoded_keys: &decoded_keys,
                key_levels: &key_levels,
                target_var: 2,
                target: &target,
                target_levels: 5,
                weights: w,
            };
            let by_q = PairsByQ { index: &index, rows_orig: &rows, target: &target, weights: w };
            let mut from_tables = all.clone();
            fill_two_way_totals(&mut [&mut from_tables], &columns, &by_q, &KeyTargetCache::new(3), None);
            let mut from_q = all.clone();
            count_pairs_by_q(&mut [&mut from_q], &[true, true], &by_q, &key_levels, 5);
            assert_eq!(from_tables, from_q);
            if w.is_none() {
                // Tables made elsewhere (the plain pass's, counted here by row), with the
                // cache already holding the first key's: the same totals, and every
                // key's table kept, named or not.
                let made: JointTables = key_levels
                    .iter()
                    .enumerate()
                    .map(|(k, &l)| {
                        let mut joint = vec![0u64; l as usize * 5];
                        for r in 0..n {
                            joint[keys[k][0].get(r) as usize * 5 + target.get(r) as usize] += 1;
                        }
                        joint
                    })
                    .collect();
                let cache = KeyTargetCache::new(3);
                let first_key = KeyTargetCounts::from_joint(made[0].clone(), key_levels[0], 5);
                cache.table(0, 2, || first_key);
                assert!(!cache.holds_tables(&[0, 1], 2));
                let mut from_made = all.clone();
                fill_two_way_totals(&mut [&mut from_made], &columns, &by_q, &cache, Some(made.clone()));
                assert_eq!(from_made, from_q);
                assert!(cache.holds_tables(&[0, 1], 2));
                // A target no pair names keeps the tables too.
                let other = KeyTargetCache::new(3);
                fill_two_way_totals(&mut [&mut Vec::new()], &columns, &by_q, &other, Some(made));
                assert!(other.holds_tables(&[0, 1], 2));
                let mut from_kept = all.clone();
                fill_two_way_totals(&mut [&mut from_kept], &columns, &by_q, &other, None);
                assert_eq!(from_kept, from_q);
            }
            // Against a plain count.
            for p in &from_q {
                let (mut kt, mut k) = (0u64, 0u64);
                for r in 0..n {
                    if keys[p.key][0].get(r) == p.key_level {
                        let records = w.map_or(1, |w| w[r] as u64);
                        k += records;
                        if target.get(r) == p.target_level {
                            kt += records;
                        }
                    }
                }
                assert_eq!((p.key_total, p.key_target_total), (k, kt));
            }
        }
    }

    #[test]
    fn one_way_takes_first_level_on_ties() {
        let w = one_way(&[0, 5, 5, 1], &[10, 20, 30, 40]);
        assert_eq!(w.level, Some(1));
        assert_eq!((w.n_level_dis, w.total_disclosive, w.level_orig, w.all_orig), (5, 11, 20, 100));
        assert_eq!(one_way(&[0, 0], &[1, 1]).level, None);
    }
}
