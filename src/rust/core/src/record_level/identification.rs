//! Identification risk for partially synthetic data (definitions vignette 10.4, after Hu): for original
//! record i, `c_i` = synthetic records matching it on every variable (categorical
//! variables equal; numeric variables with a radius within it), and `T_i` = whether the
//! synthetic record of the same row is among them.
//!
//! Never all pairs: records are grouped by their categorical tuple (plus, per numeric
//! variable, whether its value is finite, +Inf, -Inf or missing), each group's synthetic
//! records sorted by the first numeric variable, and a record's candidates found by two
//! binary searches; further numeric variables filter those candidates.

use crate::codes::LevelCodes;
use crate::encode::is_r_na;
use crate::error::{CoreError, CoreResult};
use crate::keys::build_key_index;
use crate::rows_by_q::RowsByQ;
use crate::workers::{ShouldStop, Workers};
use rayon::prelude::*;

/// A numeric variable matched within a radius: its values per dataset (original first).
pub struct RadiusVar<'a> {
    pub values: Vec<&'a [f64]>,
    pub radius: f64,
    /// `|x_syn - x_i| <= radius * |x_i|` instead of `<= radius`.
    pub relative: bool,
}

impl RadiusVar<'_> {
    /// The largest distance that matches `x`.
    #[inline]
    fn reach(&self, x: f64) -> f64 {
        if self.relative {
            self.radius * x.abs()
        } else {
            self.radius
        }
    }
}

/// Finite values are matched within the radius; the others only by kind (+Inf, -Inf,
/// R's NA, NaN: NaN is a value of its own, definitions vignette 2.2), which is part of the group key.
const CLASS_FINITE: u32 = 0;
const N_CLASSES: u32 = 5;

fn value_class(x: f64) -> u32 {
    if x.is_finite() {
        CLASS_FINITE
    } else if x == f64::INFINITY {
        1
    } else if x == f64::NEG_INFINITY {
        2
    } else if is_r_na(x) {
        3
    } else {
        4
    }
}

/// Per original record: the number of matching synthetic records and whether the
/// synthetic record of the same row matches.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordMatches {
    pub c: Vec<u32>,
    pub t: Vec<bool>,
}

/// Rows a chunk of work covers between two interrupt checks.
const CHUNK_ROWS: usize = 1 << 20;

/// `exact[k][dataset]`: codes of the categorical variables, `levels[k]` levels each;
/// `radius_vars`: numeric variables matched within a radius. Datasets: the original
/// first, then the syntheses, each with as many rows as the original. Returns one
/// `RecordMatches` per synthesis.
pub fn identification(
    workers: &Workers,
    exact: &[&[LevelCodes<'_>]],
    levels: &[u32],
    radius_vars: &[RadiusVar<'_>],
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<RecordMatches>> {
    if exact.len() != levels.len() {
        return Err(CoreError::new("internal: one level count per categorical variable"));
    }
    if exact.is_empty() && radius_vars.is_empty() {
        return Err(CoreError::new("internal: no variable to match on"));
    }
    let n_datasets =
        exact.first().map(|e| e.len()).or_else(|| radius_vars.first().map(|r| r.values.len())).unwrap_or(0);
    if n_datasets < 2 {
        return Err(CoreError::new("internal: need the original and at least one synthesis"));
    }
    let n = exact.first().map(|e| e[0].len()).or_else(|| radius_vars.first().map(|r| r.values[0].len())).unwrap_or(0);
    let lengths_ok = exact.iter().all(|e| e.len() == n_datasets && e.iter().all(|c| c.len() == n))
        && radius_vars.iter().all(|r| r.values.len() == n_datasets && r.values.iter().all(|v| v.len() == n));
    if !lengths_ok {
        return Err(CoreError::new("internal: every dataset must have the original's rows for every variable"));
    }
    if let Some(r) = radius_vars.iter().find(|r| !(r.radius >= 0.0 && r.radius.is_finite())) {
        return Err(CoreError::new(format!("internal: radius {} is not a finite number >= 0", r.radius)));
    }

    // Group key: the categorical codes and the class of each numeric value.
    let classes: Vec<Vec<LevelCodes<'_>>> = workers.chunk(should_stop, || {
        radius_vars
            .par_iter()
            .map(|r| {
                r.values
                    .iter()
                    .map(|v| LevelCodes::narrow(v.iter().map(|&x| value_class(x)).collect(), N_CLASSES))
                    .collect()
            })
            .collect()
    })?;
    let mut key_codes: Vec<&[LevelCodes<'_>]> = exact.to_vec();
    key_codes.extend(classes.iter().map(|c| c.as_slice()));
    let mut key_levels: Vec<u32> = levels.to_vec();
    key_levels.extend(std::iter::repeat_n(N_CLASSES, radius_vars.len()));
    let index = workers.chunk(should_stop, || build_key_index(&key_codes, &key_levels))??;
    let q_orig = &index.q[0];
    let n_exact = exact.len();

    let mut out = Vec::with_capacity(n_datasets - 1);
    for j in 1..n_datasets {
        let q_syn = &index.q[j];
        // Synthetic rows by group, each group sorted by the first numeric variable.
        let mut by_q = workers.chunk(should_stop, || RowsByQ::new(q_syn, index.n_q))?;
        if let Some(first) = radius_vars.first() {
            let x = first.values[j];
            let offsets = by_q.offsets.clone();
            workers.chunk(should_stop, || {
                let mut rest: &mut [u32] = &mut by_q.rows;
                let mut groups: Vec<&mut [u32]> = Vec::with_capacity(index.n_q);
                for q in 0..index.n_q {
                    let (g, tail) = rest.split_at_mut(offsets[q + 1] - offsets[q]);
                    groups.push(g);
                    rest = tail;
                }
                groups.into_par_iter().for_each(|g| g.sort_by(|&a, &b| x[a as usize].total_cmp(&x[b as usize])));
            })?;
        }
        let by_q = &by_q;
        let first_finite = |q: usize| -> bool { radius_vars.is_empty() || index.key_code(q, n_exact) == CLASS_FINITE };
        let within = |r: &RadiusVar<'_>, xi: f64, xs: f64| -> bool { (xs - xi).abs() <= r.reach(xi) };
        // Whether synthetic row `s` matches original row `i` on numeric variables `from..`
        // (same group, so non-finite values already agree).
        let rest_match = |i: usize, s: usize, from: usize| -> bool {
            radius_vars[from..].iter().all(|r| {
                let (xi, xs) = (r.values[0][i], r.values[j][s]);
                !xi.is_finite() || within(r, xi, xs)
            })
        };
        let count_one = |i: usize| -> (u32, bool) {
            let q = q_orig[i] as usize;
            let group = by_q.of(q);
            let c = if radius_vars.is_empty() {
                group.len()
            } else if first_finite(q) {
                let first = &radius_vars[0];
                let xi = first.values[0][i];
                let reach = first.reach(xi);
                let xs = first.values[j];
                // fl(x - xi) is non-decreasing in x, so both bounds are partition points
                // of the sorted group, and |x - xi| <= reach exactly between them.
                let lo = group.partition_point(|&s| xs[s as usize] - xi < -reach);
                let hi = group.partition_point(|&s| xs[s as usize] - xi <= reach);
                if radius_vars.len() == 1 {
                    hi - lo
                } else {
                    group[lo..hi].iter().filter(|&&s| rest_match(i, s as usize, 1)).count()
                }
            } else {
                group.iter().filter(|&&s| rest_match(i, s as usize, 1)).count()
            };
            let t = q_syn[i] == q_orig[i] && rest_match(i, i, 0);
            (c as u32, t)
        };
        let mut c = Vec::with_capacity(n);
        let mut t = Vec::with_capacity(n);
        let mut start = 0;
        while start < n {
            let end = (start + CHUNK_ROWS).min(n);
            let part: Vec<(u32, bool)> =
                workers.chunk(should_stop, || (start..end).into_par_iter().map(count_one).collect())?;
            for (ci, ti) in part {
                c.push(ci);
                t.push(ti);
            }
            start = end;
        }
        out.push(RecordMatches { c, t });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::never_stop;

    /// R's `NA_real_`.
    const NA_REAL: f64 = f64::from_bits(0x7FF0_0000_0000_07A2);

    fn all_pairs(exact: &[Vec<Vec<u32>>], radius_vars: &[RadiusVar<'_>]) -> Vec<RecordMatches> {
        let n_datasets = exact.first().map(|e| e.len()).unwrap_or_else(|| radius_vars[0].values.len());
        let n = exact.first().map(|e| e[0].len()).unwrap_or_else(|| radius_vars[0].values[0].len());
        let matches = |j: usize, i: usize, s: usize| {
            exact.iter().all(|e| e[0][i] == e[j][s])
                && radius_vars.iter().all(|r| {
                    let (xi, xs) = (r.values[0][i], r.values[j][s]);
                    if xi.is_finite() {
                        xs.is_finite() && (xs - xi).abs() <= r.reach(xi)
                    } else {
                        value_class(xi) == value_class(xs)
                    }
                })
        };
        (1..n_datasets)
            .map(|j| RecordMatches {
                c: (0..n).map(|i| (0..n).filter(|&s| matches(j, i, s)).count() as u32).collect(),
                t: (0..n).map(|i| matches(j, i, i)).collect(),
            })
            .collect()
    }

    #[test]
    fn radius_edges_zero_negative_boundary_and_missing() {
        let w = Workers::new(2).unwrap();
        let orig = [0.0, -2.0, 1.0, NA_REAL, 10.0, f64::INFINITY];
        let syn = [0.0, -2.5, 1.5, NA_REAL, 0.0, f64::INFINITY];
        let cat = vec![vec![0u32; 6], vec![0u32; 6]];
        let cat_codes: Vec<LevelCodes<'_>> = cat.iter().map(|c| LevelCodes::narrow(c.clone(), 1)).collect();
        // Absolute radius 0.5: distances of exactly 0.5 (-2 vs -2.5, 1 vs 1.5) match.
        let abs = [RadiusVar { values: vec![&orig, &syn], radius: 0.5, relative: false }];
        let got = identification(&w, &[&cat_codes], &[1], &abs, &never_stop).unwrap();
        assert_eq!(got, all_pairs(std::slice::from_ref(&cat), &abs));
        assert_eq!(got[0].c, vec![2, 1, 1, 1, 0, 1]);
        assert_eq!(got[0].t, vec![true, true, true, true, false, true]);
        // Relative radius 0.25: zero matches only zero; -2 reaches 0.5, 1 only 0.25.
        let rel = [RadiusVar { values: vec![&orig, &syn], radius: 0.25, relative: true }];
        let got = identification(&w, &[&cat_codes], &[1], &rel, &never_stop).unwrap();
        assert_eq!(got, all_pairs(&[cat], &rel));
        assert_eq!(got[0].c, vec![2, 1, 0, 1, 0, 1]);
        assert_eq!(got[0].t, vec![true, true, false, true, false, true]);
    }

    #[test]
    fn random_cases_match_all_pairs() {
        let w = Workers::new(2).unwrap();
        let mut rng = crate::test_random::XorShift::new(12345);
        let mut next = move || rng.next();
        for case in 0..200 {
            let n = 1 + (next() % 40) as usize;
            let m = 1 + (next() % 3) as usize;
            let n_cat = (next() % 3) as usize;
            let n_num = if n_cat == 0 { 1 + (next() % 3) as usize } else { (next() % 3) as usize };
            let pool = [0.0, -1.0, 1.0, 0.5, -0.5, 2.0, 1e-9, f64::NAN, NA_REAL, f64::INFINITY, f64::NEG_INFINITY, 3.0];
            let cats: Vec<Vec<Vec<u32>>> =
                (0..n_cat).map(|_| (0..=m).map(|_| (0..n).map(|_| (next() % 3) as u32).collect()).collect()).collect();
            let nums: Vec<Vec<Vec<f64>>> = (0..n_num)
                .map(|_| {
                    (0..=m).map(|_| (0..n).map(|_| pool[(next() % pool.len() as u64) as usize]).collect()).collect()
                })
                .collect();
            let radius_vars: Vec<RadiusVar<'_>> = nums
                .iter()
                .map(|v| RadiusVar {
                    values: v.iter().map(|d| d.as_slice()).collect(),
                    radius: [0.0, 0.5, 1.0, 1.5][(next() % 4) as usize],
                    relative: next() % 2 == 0,
                })
                .collect();
            let cat_codes: Vec<Vec<LevelCodes<'_>>> =
                cats.iter().map(|c| c.iter().map(|d| LevelCodes::narrow(d.clone(), 3)).collect()).collect();
            let exact: Vec<&[LevelCodes<'_>]> = cat_codes.iter().map(|c| c.as_slice()).collect();
            let levels = vec![3u32; n_cat];
            let got = identification(&w, &exact, &levels, &radius_vars, &never_stop).unwrap();
            assert_eq!(got, all_pairs(&cats, &radius_vars), "case {case}");
        }
    }
}
