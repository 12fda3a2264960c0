//! Inputs of the 1-way and 2-way checks (SPEC section 7). Thresholds on percentages and
//! the wording are applied in R; here are the counts.

use crate::keys::KeyIndex;
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

/// Pairs from the DiSCO cells above the threshold, in order of key, target level, key level.
pub fn two_way(
    cells: &[(u32, u32, u64)],
    index: &KeyIndex,
    key_codes_orig: &[&[u32]],
    key_levels: &[u32],
    target_orig: &[u32],
) -> Vec<PairCount> {
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
    for k in 0..index.n_keys {
        let of_key: Vec<usize> = (0..pairs.len()).filter(|&i| pairs[i].key == k).collect();
        if of_key.is_empty() {
            continue;
        }
        let codes = key_codes_orig[k];
        let mut margin = vec![0u64; key_levels[k] as usize];
        for &c in codes {
            margin[c as usize] += 1;
        }
        let mut wanted = vec![false; key_levels[k] as usize];
        let mut joint: HashMap<(u32, u32), u64> = HashMap::new();
        for &i in &of_key {
            wanted[pairs[i].key_level as usize] = true;
            joint.insert((pairs[i].key_level, pairs[i].target_level), 0);
        }
        for (row, &c) in codes.iter().enumerate() {
            if wanted[c as usize] {
                if let Some(n) = joint.get_mut(&(c, target_orig[row])) {
                    *n += 1;
                }
            }
        }
        for &i in &of_key {
            let p = &mut pairs[i];
            p.key_total = margin[p.key_level as usize];
            p.key_target_total = joint[&(p.key_level, p.target_level)];
        }
    }
    pairs
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
