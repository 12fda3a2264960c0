//! The inference attack (definitions vignette 13): each target's attacker guesses the
//! secret of a synthetic record drawn at random from the target's nearest set on the
//! auxiliary columns; the success of a target is the share of its nearest set whose
//! secret matches the target's, and the baseline the share of every synthetic record.
//! Targets with the same auxiliary values share one search.

use crate::attacks::tie_sets::{Distinct, IndexedSynthesis, TieSearch};
use crate::distance::{Metric, Table, FINITE};
use crate::error::{CoreError, CoreResult};
use crate::workers::{ShouldStop, Workers};
use rayon::prelude::*;
use std::cmp::Ordering;

const TARGETS_PER_CHUNK: usize = 1 << 12;

/// A secret variable in one dataset: codes (a label, or `FINITE` with a value).
#[derive(Clone, Copy)]
pub struct SecretColumn<'a> {
    pub codes: &'a [i32],
    /// Per record for a numeric secret; empty for a categorical one.
    pub values: &'a [f64],
}

/// How guesses match: categorical (labels), numeric exactly, or within a tolerance
/// relative to the target's value (`|g - y| <= tolerance * |y|`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Matching {
    Labels,
    Exact,
    Within(f64),
}

/// The synthetic secrets grouped (per group, sorted by code and value).
struct SecretIndex {
    offsets: Vec<usize>,
    codes: Vec<i32>,
    values: Vec<f64>,
}

impl SecretIndex {
    fn new(secret: SecretColumn<'_>, numeric: bool, group_of: &[u32], n_groups: usize) -> Self {
        let value = |i: usize| if numeric && secret.codes[i] == FINITE { secret.values[i] } else { 0.0 };
        let mut order: Vec<u32> = (0..group_of.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| {
            let (a, b) = (a as usize, b as usize);
            group_of[a]
                .cmp(&group_of[b])
                .then(secret.codes[a].cmp(&secret.codes[b]))
                .then(value(a).partial_cmp(&value(b)).unwrap_or(Ordering::Equal))
        });
        let mut offsets = vec![0usize; n_groups + 1];
        for &g in group_of {
            offsets[g as usize + 1] += 1;
        }
        for g in 0..n_groups {
            offsets[g + 1] += offsets[g];
        }
        let codes = order.iter().map(|&i| secret.codes[i as usize]).collect();
        let values = order.iter().map(|&i| value(i as usize)).collect();
        SecretIndex { offsets, codes, values }
    }

    /// Records of group `g` whose secret matches (code `c`, value `y`).
    fn matches(&self, g: usize, c: i32, y: f64, matching: Matching) -> u64 {
        let (lo, hi) = (self.offsets[g], self.offsets[g + 1]);
        let codes = &self.codes[lo..hi];
        let a = codes.partition_point(|&x| x < c);
        let b = codes.partition_point(|&x| x <= c);
        if c != FINITE || matching == Matching::Labels {
            return (b - a) as u64;
        }
        let values = &self.values[lo + a..lo + b];
        match matching {
            Matching::Within(tol) => {
                // |g - y| is monotone on each side of y, so the matches are one run.
                let t = tol * y.abs();
                let within = |g: f64| (g - y).abs() <= t;
                let left = values.partition_point(|&g| g < y && !within(g));
                let right = values.partition_point(|&g| g <= y || within(g));
                (right - left) as u64
            }
            _ => (values.partition_point(|&g| g <= y) - values.partition_point(|&g| g < y)) as u64,
        }
    }
}

/// Per target: the success (share of its nearest set matching), the size of its nearest
/// set, its nearest distance, and the baseline (share of every synthetic record).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InferenceResult {
    pub success: Vec<f64>,
    pub set_size: Vec<u64>,
    pub distance: Vec<f64>,
    pub baseline: Vec<f64>,
}

/// One secret: its column in the synthesis and in the targets, and how guesses match.
#[derive(Clone, Copy)]
pub struct Secret<'a> {
    pub synthetic: SecretColumn<'a>,
    pub targets: SecretColumn<'a>,
    pub matching: Matching,
}

/// The attack on the targets `rows` (0-based) of `targets` (a table on the auxiliary
/// columns) against `synthetic` (indexed once per call on the same columns), for every
/// secret of `secrets` with one search of the nearest sets (the secrets share the
/// auxiliary columns); one result per secret.
pub fn infer(
    workers: &Workers,
    metric: &Metric,
    synthetic: &IndexedSynthesis,
    targets: &Table<'_>,
    rows: &[u32],
    secrets: &[Secret<'_>],
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<InferenceResult>> {
    let (groups, index) = (&synthetic.groups, &synthetic.index);
    let n_records = synthetic.n_records();
    if secrets.iter().any(|s| s.synthetic.codes.len() != n_records) {
        return Err(CoreError::new("internal: a secret differs from the synthesis in records"));
    }
    let n_syn = n_records as f64;
    // One search per distinct target pattern.
    let patterns = workers.run(|| Distinct::of(metric, targets, Some(rows)));
    let pattern_table = patterns.table(metric)?;
    let n_patterns = patterns.n_groups();
    let mut sets = Vec::with_capacity(n_patterns);
    let mut start = 0;
    while start < n_patterns {
        let end = (start + TARGETS_PER_CHUNK).min(n_patterns);
        let chunk: Vec<_> = workers.chunk(should_stop, || {
            (start..end)
                .into_par_iter()
                .map_init(|| TieSearch::new(metric, index, &groups.counts, 1), |s, j| s.find(&pattern_table, j))
                .collect()
        })?;
        sets.extend(chunk);
        start = end;
    }
    let everyone = vec![0; n_records];
    let mut out = Vec::with_capacity(secrets.len());
    for secret in secrets {
        let matching = secret.matching;
        let numeric = matching != Matching::Labels;
        let by_group = SecretIndex::new(secret.synthetic, numeric, &groups.group_of, groups.n_groups());
        let all = SecretIndex::new(secret.synthetic, numeric, &everyone, 1);
        let target = secret.targets;
        let value = |i: usize| if numeric && target.codes[i] == FINITE { target.values[i] } else { 0.0 };
        let per_target: Vec<(f64, u64, f64, f64)> = workers.run(|| {
            rows.par_iter()
                .enumerate()
                .map(|(t, &row)| {
                    let set = &sets[patterns.group_of[t] as usize];
                    let (c, y) = (target.codes[row as usize], value(row as usize));
                    let mut size = 0u64;
                    let mut hit = 0u64;
                    for &g in &set.at_kth {
                        size += groups.counts[g as usize] as u64;
                        hit += by_group.matches(g as usize, c, y, matching);
                    }
                    let base = all.matches(0, c, y, matching) as f64 / n_syn;
                    (hit as f64 / size as f64, size, set.kth, base)
                })
                .collect()
        });
        let mut result = InferenceResult::default();
        for (s, n, d, b) in per_target {
            result.success.push(s);
            result.set_size.push(n);
            result.distance.push(d);
            result.baseline.push(b);
        }
        out.push(result);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::tie_sets::tests::{metric_for, random_owned};
    use crate::test_random::XorShift;
    use crate::workers::never_stop;

    fn brute_matches(sc: i32, sv: f64, c: i32, y: f64, matching: Matching) -> bool {
        if sc != c {
            return false;
        }
        match matching {
            Matching::Labels => true,
            _ if c != FINITE => true,
            Matching::Exact => sv == y,
            Matching::Within(t) => (sv - y).abs() <= t * y.abs(),
        }
    }

    #[test]
    fn inference_equals_brute_force() {
        let mut rng = XorShift::new(0x1f3e_2e11);
        for case in 0..200 {
            let p = 1 + rng.below(3) as usize;
            let numeric: Vec<bool> = (0..p).map(|_| rng.below(2) == 0).collect();
            let spread = 1 + rng.below(5) as u64;
            let metric = metric_for(&numeric, spread);
            let (ns, nt) = (1 + rng.below(80) as usize, 1 + rng.below(40) as usize);
            let syn = random_owned(&mut rng, &numeric, ns, spread);
            let tgt = random_owned(&mut rng, &numeric, nt, spread + 1);
            let secret_numeric = rng.below(2) == 0;
            let mk = |rng: &mut XorShift, n: usize| -> (Vec<i32>, Vec<f64>) {
                let mut c = Vec::new();
                let mut v = Vec::new();
                for _ in 0..n {
                    if secret_numeric {
                        if rng.below(6) == 0 {
                            c.push(1);
                            v.push(0.0)
                        } else {
                            c.push(FINITE);
                            v.push(1.0 + rng.below(6) as f64 * 0.25)
                        }
                    } else {
                        c.push(rng.below(3) as i32);
                        v.push(0.0);
                    }
                }
                (c, v)
            };
            let (sc, sv) = mk(&mut rng, ns);
            let (tc, tv) = mk(&mut rng, nt);
            let matching = if !secret_numeric {
                Matching::Labels
            } else if rng.below(2) == 0 {
                Matching::Exact
            } else {
                Matching::Within(0.2)
            };
            let rows: Vec<u32> = (0..nt as u32).filter(|_| rng.below(4) != 0).collect();
            let (st, tt) = (syn.table(&metric), tgt.table(&metric));
            let secret = Secret {
                synthetic: SecretColumn { codes: &sc, values: &sv },
                targets: SecretColumn { codes: &tc, values: &tv },
                matching,
            };
            let workers = Workers::new(2).unwrap();
            let indexed = IndexedSynthesis::build(&workers, &metric, &st).unwrap();
            let got = infer(&workers, &metric, &indexed, &tt, &rows, &[secret, secret], &never_stop).unwrap();
            assert_eq!(got[0], got[1]);
            let got = &got[0];
            for (t, &row) in rows.iter().enumerate() {
                let row = row as usize;
                let (_, at) = crate::attacks::tie_sets::nearest_set_brute_force(&metric, &st, &tt, row, 1);
                let hits = at
                    .iter()
                    .filter(|&&j| brute_matches(sc[j as usize], sv[j as usize], tc[row], tv[row], matching))
                    .count();
                assert_eq!(got.set_size[t], at.len() as u64, "case {case}");
                assert_eq!(got.success[t], hits as f64 / at.len() as f64, "case {case}");
                let all = (0..ns).filter(|&j| brute_matches(sc[j], sv[j], tc[row], tv[row], matching)).count();
                assert_eq!(got.baseline[t], all as f64 / ns as f64, "case {case}");
            }
        }
    }
}
