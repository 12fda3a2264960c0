//! Inputs of the 1-way and 2-way checks (definitions vignette, section 7). Thresholds on percentages and
//! the wording are applied in R; here are the counts.

use crate::codes::{CodeSource, LevelCodes};
use crate::keys::KeyIndex;
use crate::rows_by_q::RowsByQ;
use crate::with_codes;
use hashbrown::HashMap;

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

/// Counts in the original of every pair of `pairs` (the pairs of all syntheses of one
/// target): records with the key level, and with the key level and the target level.
/// The key levels are read per q (`index`), so that a q whose levels no pair names costs
/// one look, and the records of the others are read in q order (`rows_orig`, which may
/// point into a copy of the codes in bucket order, `target_orig`, and of the counts,
/// `weights_orig`), once for all the keys whose level at q a pair names.
pub fn fill_two_way_totals(
    pairs: &mut [&mut Vec<PairCount>],
    index: &KeyIndex,
    rows_orig: &RowsByQ,
    key_levels: &[u32],
    target_orig: &LevelCodes<'_>,
    target_orig_levels: u32,
    weights_orig: Option<&[u32]>,
) {
    let n_t = target_orig_levels as usize;
    let n_keys = key_levels.len();
    // Per key and key level: the slot of its joint counts, if some pair names it.
    let mut slot_of: Vec<Vec<u32>> = key_levels.iter().map(|&n| vec![NO_SLOT; n as usize]).collect();
    let mut wanted_levels: Vec<Vec<Vec<u32>>> = vec![Vec::new(); n_keys];
    for p in pairs.iter().flat_map(|p| p.iter()) {
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
    for p in pairs.iter_mut().flat_map(|p| p.iter_mut()) {
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

    #[test]
    fn one_way_takes_first_level_on_ties() {
        let w = one_way(&[0, 5, 5, 1], &[10, 20, 30, 40]);
        assert_eq!(w.level, Some(1));
        assert_eq!((w.n_level_dis, w.total_disclosive, w.level_orig, w.all_orig), (5, 11, 20, 100));
        assert_eq!(one_way(&[0, 0], &[1, 1]).level, None);
    }
}
