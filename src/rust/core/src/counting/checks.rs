//! Inputs of the 1-way and 2-way checks (definitions vignette, section 7). Thresholds on percentages and
//! the wording are applied in R; here are the counts.

use crate::codes::{CodeSource, LevelCodes};
use crate::key_target_counts::{KeyTargetCache, KeyTargetCounts};
use crate::keys::KeyIndex;
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
/// stands for (`None`: one each). Up to `DECODED_ROWS` rows, codes are read from `u32`
/// copies, made when first needed and, for keys, once per call for all targets.
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

/// Rows up to which the 2-way totals read `u32` copies of the codes: faster to count
/// from than factor codes read through their table, and small.
const DECODED_ROWS: usize = 1 << 20;

/// Counts in the original of every pair of `pairs` (the pairs of all syntheses of one
/// target): records with the key level, and with the key level and the target level.
/// Each key's table by the target comes from `cache` (counted once per key and target);
/// a key whose table would be too large counts the pairs named only, in one pass.
pub fn fill_two_way_totals(pairs: &mut [&mut Vec<PairCount>], columns: &TwoWayColumns<'_, '_>, cache: &KeyTargetCache) {
    let n_keys = columns.key_levels.len();
    let mut named = vec![false; n_keys];
    for p in pairs.iter().flat_map(|p| p.iter()) {
        named[p.key] = true;
    }
    let decoded_target: OnceLock<Vec<u32>> = OnceLock::new();
    for k in (0..n_keys).filter(|&k| named[k]) {
        let (key, key_levels) = (columns.key_codes[k], columns.key_levels[k]);
        let table = cache.table(columns.key_vars[k], columns.target_var, || {
            let (target, target_levels, weights) = (columns.target, columns.target_levels, columns.weights);
            if key.len() <= DECODED_ROWS {
                let key = columns.decoded_keys[k].get_or_init(|| key.to_u32());
                let target = decoded_target.get_or_init(|| target.to_u32());
                KeyTargetCounts::count(key.as_slice(), key_levels, target.as_slice(), target_levels, weights)
            } else {
                with_codes!(key, |kc| with_codes!(target, |tc| {
                    KeyTargetCounts::count(kc, key_levels, tc, target_levels, weights)
                }))
            }
        });
        let of_key = pairs.iter_mut().flat_map(|p| p.iter_mut()).filter(|p| p.key == k);
        match table {
            Some(table) => of_key.for_each(|p| {
                p.key_total = table.key_total(p.key_level);
                p.key_target_total = table.joint(p.key_level, p.target_level);
            }),
            None => {
                let mut of_key: Vec<&mut PairCount> = of_key.collect();
                count_named_pairs(&mut of_key, key, key_levels, columns.target, columns.weights);
            }
        }
    }
}

/// The totals of `pairs` (all of one key) in one pass over the original's rows, keeping
/// counts for the key levels and pairs named only.
fn count_named_pairs(
    pairs: &mut [&mut PairCount],
    key: &LevelCodes<'_>,
    key_levels: u32,
    target: &LevelCodes<'_>,
    weights: Option<&[u32]>,
) {
    let mut named_level = vec![false; key_levels as usize];
    let mut joint: HashMap<(u32, u32), u64> = HashMap::new();
    for p in pairs.iter() {
        named_level[p.key_level as usize] = true;
        joint.insert((p.key_level, p.target_level), 0);
    }
    let mut key_totals: HashMap<u32, u64> = HashMap::new();
    with_codes!(key, |k| with_codes!(target, |t| {
        for r in 0..k.n_rows() {
            let kl = k.code(r);
            if !named_level[kl as usize] {
                continue;
            }
            let n = weights.map_or(1, |w| w[r] as u64);
            *key_totals.entry(kl).or_insert(0) += n;
            if let Some(c) = joint.get_mut(&(kl, t.code(r))) {
                *c += n;
            }
        }
    }));
    for p in pairs.iter_mut() {
        p.key_total = key_totals.get(&p.key_level).copied().unwrap_or(0);
        p.key_target_total = joint[&(p.key_level, p.target_level)];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_way_takes_first_level_on_ties() {
        let w = one_way(&[0, 5, 5, 1], &[10, 20, 30, 40]);
        assert_eq!(w.level, Some(1));
        assert_eq!((w.n_level_dis, w.total_disclosive, w.level_orig, w.all_orig), (5, 11, 20, 100));
        assert_eq!(one_way(&[0, 0], &[1, 1]).level, None);
    }
}
