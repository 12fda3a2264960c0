//! Gower distance between two records (definitions vignette 11), with exact double
//! semantics: the contributions are added in the column order of `data`, left to
//! right, then divided by the sum of the weights (the number of variables without
//! weights, every weight being 1).
//!
//! Each variable comes as a code and, for numeric variables, a value. A categorical
//! code is its label; a numeric code is 0 for a finite value that is no `cont.na` code
//! (then the value counts) and the label of a special value otherwise (NA, NaN, ±Inf,
//! each `cont.na` code). Two records differ by 1 on a variable whose codes differ.

use crate::error::{CoreError, CoreResult};

/// The code of a finite, non-special numeric value.
pub const FINITE: i32 = 0;

/// What the distance needs to know of the variables, in the column order of `data`.
#[derive(Debug, Clone)]
pub struct Metric {
    /// Per variable: numeric (codes with values) or categorical (codes only).
    pub numeric: Vec<bool>,
    /// Per variable: w_v (1 without weights), the variable's weight in the distance.
    pub variable_weights: Vec<f64>,
    /// Per numeric variable: R_v, max - min of its finite non-code values in `data`
    /// (ignored for categorical variables).
    pub ranges: Vec<f64>,
    /// Σ w_v added in column order.
    pub total_weight: f64,
}

impl Metric {
    /// A metric, refused (never clamped) when weights or ranges cannot be used.
    pub fn new(numeric: Vec<bool>, variable_weights: Vec<f64>, ranges: Vec<f64>) -> CoreResult<Self> {
        let p = numeric.len();
        if p == 0 {
            return Err(CoreError::new("internal: the distance needs at least one variable"));
        }
        if variable_weights.len() != p || ranges.len() != p {
            return Err(CoreError::new("internal: one weight and one range per variable"));
        }
        if variable_weights.iter().any(|w| !w.is_finite() || *w < 0.0) {
            return Err(CoreError::new("internal: weights must be finite and >= 0"));
        }
        if numeric.iter().zip(&ranges).any(|(&num, r)| num && (!r.is_finite() || *r < 0.0)) {
            return Err(CoreError::new("internal: the ranges of numeric variables must be finite and >= 0"));
        }
        let total_weight = variable_weights.iter().fold(0.0, |s, w| s + w);
        if total_weight.is_nan() || total_weight <= 0.0 || total_weight.is_infinite() {
            return Err(CoreError::new("internal: the weights must add up to a finite number above 0"));
        }
        Ok(Metric { numeric, variable_weights, ranges, total_weight })
    }

    pub fn n_vars(&self) -> usize {
        self.numeric.len()
    }

    /// δ_v for two finite non-code values of numeric variable `v`.
    #[inline]
    pub fn numeric_contribution(&self, v: usize, x: f64, y: f64) -> f64 {
        let r = self.ranges[v];
        if r == 0.0 {
            if x == y {
                0.0
            } else {
                1.0
            }
        } else {
            let t = (x - y).abs() / r;
            if t < 1.0 {
                t
            } else {
                1.0
            }
        }
    }

    /// S: Σ w_v·δ_v over the variables in column order (no division).
    #[inline]
    pub fn weighted_sum(&self, a_codes: &[i32], a_values: &[f64], b_codes: &[i32], b_values: &[f64]) -> f64 {
        let mut s = 0.0;
        for v in 0..self.numeric.len() {
            let delta = if a_codes[v] != b_codes[v] {
                1.0
            } else if self.numeric[v] && a_codes[v] == FINITE {
                self.numeric_contribution(v, a_values[v], b_values[v])
            } else {
                0.0
            };
            s += self.variable_weights[v] * delta;
        }
        s
    }

    /// d(a, b) = S / Σ w_v.
    #[inline]
    pub fn distance(&self, a_codes: &[i32], a_values: &[f64], b_codes: &[i32], b_values: &[f64]) -> f64 {
        self.weighted_sum(a_codes, a_values, b_codes, b_values) / self.total_weight
    }

    /// A factor (just below 1) by which a lower bound of S, added in another order
    /// than the distance's own sum, is shrunk so that it stays below the computed
    /// distance despite rounding: each of the two sums of at most p + 2 non-negative
    /// terms is within (p + 2)·ε of its exact value.
    pub fn bound_slack(&self) -> f64 {
        let p = self.numeric.len() as f64;
        1.0 - ((4.0 * p + 16.0) * f64::EPSILON).max(1e-12)
    }
}

/// One dataset's variables, borrowed column by column (the column order of `data`).
#[derive(Debug, Clone)]
pub struct Table<'a> {
    /// Per variable, one code per record.
    pub codes: Vec<&'a [i32]>,
    /// Per variable, one value per record for numeric variables; empty for categorical.
    pub values: Vec<&'a [f64]>,
    pub n_rows: usize,
}

impl<'a> Table<'a> {
    /// A table checked against `metric`: every column of the same length, a value for
    /// each numeric record, and finite values where the code says finite.
    pub fn new(metric: &Metric, codes: Vec<&'a [i32]>, values: Vec<&'a [f64]>, what: &str) -> CoreResult<Self> {
        let p = metric.n_vars();
        if codes.len() != p || values.len() != p {
            return Err(CoreError::new(format!(
                "internal: {what} needs one code column and one value column per variable"
            )));
        }
        let n_rows = codes[0].len();
        crate::error::check_row_count(n_rows, 0)
            .map_err(|_| CoreError::new(format!("{what} has more than 2^31 - 1 rows")))?;
        for v in 0..p {
            if codes[v].len() != n_rows {
                return Err(CoreError::new(format!("internal: the columns of {what} differ in length")));
            }
            if metric.numeric[v] {
                if values[v].len() != n_rows {
                    return Err(CoreError::new(format!("internal: the values of {what} differ in length")));
                }
                if let Some(i) = (0..n_rows).find(|&i| codes[v][i] == FINITE && !values[v][i].is_finite()) {
                    return Err(CoreError::new(format!(
                        "internal: record {} of {what} is coded finite but holds {}",
                        i + 1,
                        values[v][i]
                    )));
                }
            }
        }
        Ok(Table { codes, values, n_rows })
    }

    /// Record `i`'s codes and values (0.0 where no value counts) into the buffers.
    #[inline]
    pub fn record_into(&self, metric: &Metric, i: usize, codes: &mut [i32], values: &mut [f64]) {
        for v in 0..codes.len() {
            codes[v] = self.codes[v][i];
            values[v] = if metric.numeric[v] && codes[v] == FINITE { self.values[v][i] } else { 0.0 };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contributions_follow_the_definition() {
        let m = Metric::new(vec![false, true, true], vec![1.0, 1.0, 1.0], vec![0.0, 10.0, 0.0]).unwrap();
        // categorical differs (1), numeric 3/10, constant numeric equal (0)
        let d = m.distance(&[1, 0, 0], &[0.0, 2.0, 5.0], &[2, 0, 0], &[0.0, 5.0, 5.0]);
        assert_eq!(d, (1.0 + 0.3) / 3.0);
        // beyond the range: capped at 1; R_v = 0 and unequal: 1
        let d = m.distance(&[1, 0, 0], &[0.0, -20.0, 5.0], &[1, 0, 0], &[0.0, 5.0, 6.0]);
        assert_eq!(d, 2.0 / 3.0);
        // a special label against a finite value: 1; the same label: 0
        let d = m.distance(&[1, 3, 4], &[0.0, 0.0, 0.0], &[1, 0, 4], &[0.0, 1.0, 0.0]);
        assert_eq!(d, 1.0 / 3.0);
    }

    #[test]
    fn bad_weights_and_ranges_are_refused() {
        assert!(Metric::new(vec![true], vec![-1.0], vec![1.0]).is_err());
        assert!(Metric::new(vec![true], vec![0.0], vec![1.0]).is_err());
        assert!(Metric::new(vec![true], vec![1.0], vec![f64::INFINITY]).is_err());
        assert!(Metric::new(vec![], vec![], vec![]).is_err());
        assert!(Metric::new(vec![false], vec![1.0], vec![f64::NAN]).is_ok());
    }
}
