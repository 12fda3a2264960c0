//! The layout of the 2-way check's tables (SPEC section 7), as synthpop 1.9-3 lays them
//! out: per synthesis, the pairs whose share of the key level is above the threshold,
//! most pairs first, ties key by key and pair label by label; each row named by its
//! place among all the synthesis's pairs (key by key, labels sorted), and a factor whose
//! levels are all those pairs' labels in that order. The labels themselves, and their
//! order in the locale, are the caller's: a pair here is a label id and that label's
//! rank.

use crate::error::{CoreError, CoreResult};

/// One target's pairs, one element per pair in any order: the synthesis (0-based) whose
/// DiSCO cells made it, its key (0-based), its label (an id, the same for equal
/// labels), the disclosive records in it, and whether its share passes the threshold.
pub struct TargetPairs<'a> {
    pub synthesis: &'a [usize],
    pub key: &'a [usize],
    pub label: &'a [u32],
    pub npairs: &'a [f64],
    pub shown: &'a [bool],
    /// Per label id, its rank among the target's labels (equal ranks for labels the
    /// locale takes as equal).
    pub label_rank: &'a [u32],
}

/// One synthesis's table: its rows (pair indices, in the table's order), each row's
/// place among all the synthesis's pairs (1-based, its row name), the factor's codes
/// (1-based) and its levels (label ids).
#[derive(Debug, PartialEq)]
pub struct TwoWayTable {
    pub synthesis: usize,
    pub rows: Vec<usize>,
    pub places: Vec<i32>,
    pub codes: Vec<i32>,
    pub levels: Vec<u32>,
}

/// The tables of one target's syntheses that show a pair, in synthesis order.
pub fn two_way_tables(p: &TargetPairs<'_>) -> CoreResult<Vec<TwoWayTable>> {
    let n = p.synthesis.len();
    if [p.key.len(), p.label.len(), p.npairs.len(), p.shown.len()].iter().any(|&len| len != n) {
        return Err(CoreError::new("internal: a target's 2-way pairs are columns of different lengths"));
    }
    if let Some(&l) = p.label.iter().find(|&&l| l as usize >= p.label_rank.len()) {
        return Err(CoreError::new(format!("internal: 2-way label {l} has no rank")));
    }
    let ranks: Vec<u32> = p.label.iter().map(|&l| p.label_rank[l as usize]).collect();
    // Every pair by synthesis, key by key, labels in order: each synthesis's run gives its
    // factor levels and each pair's place.
    // (The index last makes every key distinct: an unstable sort then gives the stable
    // order, faster.)
    let mut by_key: Vec<usize> = (0..n).collect();
    by_key.sort_unstable_by_key(|&i| (p.synthesis[i], p.key[i], ranks[i], i));
    let mut place = vec![0i32; n];
    let mut out = Vec::new();
    // Per label id, the last run that listed it among its levels (runs numbered from 1).
    let n_labels = p.label.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
    let mut listed_in = vec![0usize; n_labels];
    let mut run_number = 0;
    let mut start = 0;
    while start < n {
        let synthesis = p.synthesis[by_key[start]];
        let end = start + by_key[start..].iter().take_while(|&&i| p.synthesis[i] == synthesis).count();
        let run = &by_key[start..end];
        for (k, &i) in run.iter().enumerate() {
            place[i] = k as i32 + 1;
        }
        let mut rows: Vec<usize> = run.iter().copied().filter(|&i| p.shown[i]).collect();
        if !rows.is_empty() {
            // Most pairs first; ties keep the run's order, key by key, labels sorted (the
            // index last, as above).
            rows.sort_unstable_by(|&a, &b| {
                p.npairs[b]
                    .total_cmp(&p.npairs[a])
                    .then(p.key[a].cmp(&p.key[b]))
                    .then(ranks[a].cmp(&ranks[b]))
                    .then(a.cmp(&b))
            });
            let run_labels: Vec<u32> = run.iter().map(|&i| p.label[i]).collect();
            let places: Vec<i32> = rows.iter().map(|&i| place[i]).collect();
            // Two keys may share a label: the levels are then the distinct labels, and a
            // row's code is its label's place among them.
            run_number += 1;
            let mut levels: Vec<u32> = Vec::with_capacity(run_labels.len());
            for &l in &run_labels {
                if listed_in[l as usize] != run_number {
                    listed_in[l as usize] = run_number;
                    levels.push(l);
                }
            }
            let codes = if levels.len() == run_labels.len() {
                places.clone()
            } else {
                rows.iter().map(|&i| levels.iter().position(|&l| l == p.label[i]).map_or(0, |k| k as i32 + 1)).collect()
            };
            out.push(TwoWayTable { synthesis, rows, places, codes, levels });
        }
        start = end;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_random::XorShift;

    /// The layout written plainly: per synthesis, all pairs sorted by (key, rank) give
    /// places and levels; the shown rows sorted by (-npairs, key, rank).
    fn plain(p: &TargetPairs<'_>) -> Vec<TwoWayTable> {
        let n = p.synthesis.len();
        let rank = |i: usize| p.label_rank[p.label[i] as usize];
        let mut syntheses: Vec<usize> = p.synthesis.to_vec();
        syntheses.sort();
        syntheses.dedup();
        let mut out = Vec::new();
        for s in syntheses {
            let mut all: Vec<usize> = (0..n).filter(|&i| p.synthesis[i] == s).collect();
            all.sort_by_key(|&i| (p.key[i], rank(i)));
            let mut shown: Vec<usize> = all.iter().copied().filter(|&i| p.shown[i]).collect();
            if shown.is_empty() {
                continue;
            }
            shown.sort_by(|&a, &b| {
                p.npairs[b].partial_cmp(&p.npairs[a]).unwrap().then((p.key[a], rank(a)).cmp(&(p.key[b], rank(b))))
            });
            let place_of = |i: usize| all.iter().position(|&j| j == i).unwrap() as i32 + 1;
            let mut levels: Vec<u32> = Vec::new();
            for &i in &all {
                if !levels.contains(&p.label[i]) {
                    levels.push(p.label[i]);
                }
            }
            let places: Vec<i32> = shown.iter().map(|&i| place_of(i)).collect();
            let codes: Vec<i32> =
                shown.iter().map(|&i| levels.iter().position(|&l| l == p.label[i]).unwrap() as i32 + 1).collect();
            out.push(TwoWayTable { synthesis: s, rows: shown, places, codes, levels });
        }
        out
    }

    #[test]
    fn tables_are_laid_out_as_the_plain_sort_gives_them() {
        let mut rng = XorShift::new(38);
        for case in 0..300 {
            let n = rng.below(40) as usize;
            let n_labels = 1 + rng.below(12) as usize;
            let n_keys = 1 + rng.below(3) as usize;
            // Distinct (key, label) per synthesis, as the core makes pairs; a label may
            // repeat under another key (two keys sharing a label).
            let mut seen = std::collections::HashSet::new();
            let (mut synthesis, mut key, mut label, mut npairs, mut shown) = (vec![], vec![], vec![], vec![], vec![]);
            for _ in 0..n {
                let (s, k, l) = (rng.below(3) as usize, rng.below(n_keys as u64) as usize, rng.below(n_labels as u64));
                if !seen.insert((s, k, l)) {
                    continue;
                }
                synthesis.push(s);
                key.push(k);
                label.push(l);
                npairs.push((1 + rng.below(4)) as f64);
                shown.push(rng.below(3) > 0);
            }
            // Ranks: a permutation of the labels, some tied.
            let label_rank: Vec<u32> = (0..n_labels).map(|_| rng.below(n_labels as u64)).collect();
            // Equal ranks for one key's distinct labels would leave the order to the
            // input's: the caller's ranks tie only equal labels, so keep them distinct.
            let label_rank: Vec<u32> = {
                let mut order: Vec<usize> = (0..n_labels).collect();
                order.sort_by_key(|&l| (label_rank[l], l));
                let mut r = vec![0; n_labels];
                for (k, &l) in order.iter().enumerate() {
                    r[l] = k as u32;
                }
                r
            };
            let p = TargetPairs {
                synthesis: &synthesis,
                key: &key,
                label: &label,
                npairs: &npairs,
                shown: &shown,
                label_rank: &label_rank,
            };
            assert_eq!(two_way_tables(&p).unwrap(), plain(&p), "case {case}");
        }
    }

    #[test]
    fn repeated_labels_give_distinct_levels_and_their_codes() {
        // Two keys share label 0: the levels are [0, 1], the codes the labels' places.
        let p = TargetPairs {
            synthesis: &[0, 0, 0],
            key: &[1, 0, 0],
            label: &[0, 1, 0],
            npairs: &[5.0, 9.0, 2.0],
            shown: &[true, true, false],
            label_rank: &[0, 1],
        };
        let t = two_way_tables(&p).unwrap();
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].rows, vec![1, 0]);
        // All pairs key by key: (key 0, label 0) = pair 2, (key 0, label 1) = pair 1, (key 1, label 0) = pair 0.
        assert_eq!(t[0].places, vec![2, 3]);
        assert_eq!(t[0].levels, vec![0, 1]);
        assert_eq!(t[0].codes, vec![2, 1]);
    }

    #[test]
    fn unequal_columns_and_unranked_labels_are_errors() {
        let short = TargetPairs {
            synthesis: &[0, 0],
            key: &[0],
            label: &[0, 1],
            npairs: &[1.0, 1.0],
            shown: &[true, true],
            label_rank: &[0, 1],
        };
        assert!(two_way_tables(&short).is_err());
        let unranked =
            TargetPairs { synthesis: &[0], key: &[0], label: &[3], npairs: &[1.0], shown: &[true], label_rank: &[0] };
        assert!(two_way_tables(&unranked).is_err());
    }
}
