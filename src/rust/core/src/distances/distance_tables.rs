//! The tables the nearest-record search reads (definitions vignette 11), built from the
//! one encoding that the key counting uses: a categorical variable's code is its level
//! on the union of cleaned labels; a numeric variable's code says whether its value is
//! a magnitude (`FINITE`) or a label (NA, NaN, ±Inf, a `cont.na` code), and its value
//! is the magnitude as it arrived (kept beside the level codes, never the merged
//! level), so distances are exact doubles.

use crate::codes::NA_INTEGER;
use crate::distance::{Metric, Table, FINITE};
use crate::encode::{is_r_na, EncodedVar, RawColumn};
use crate::error::{CoreError, CoreResult};

/// Codes of the special values of a numeric variable; `cont.na` codes follow.
const NA_LABEL: i32 = 1;
const NAN_LABEL: i32 = 2;
const INF_LABEL: i32 = 3;
const NEG_INF_LABEL: i32 = 4;
const FIRST_CODE_LABEL: i32 = 5;

/// One variable of the distance: an encoded variable, the `cont.na` codes that are
/// labels rather than magnitudes (numeric variables only), and its name for errors.
pub struct DistanceVariable<'e, 'a> {
    pub var: &'e EncodedVar<'a>,
    pub label_codes: &'e [f64],
    pub name: &'e str,
}

/// Per dataset of the encoding (original, syntheses, control), per variable: codes,
/// and values for numeric variables; with what the metric needs of each variable.
pub struct DistanceTables {
    /// Per variable: compared by magnitude (numeric on every side) or by label.
    pub numeric: Vec<bool>,
    /// Per variable: R_v for numeric variables (max - min of the original's finite
    /// non-code values, 0 when it has none), 0 for categorical ones.
    pub ranges: Vec<f64>,
    codes: Vec<Vec<Vec<i32>>>,
    values: Vec<Vec<Vec<f64>>>,
}

impl DistanceTables {
    pub fn build(vars: &[DistanceVariable<'_, '_>]) -> CoreResult<Self> {
        use rayon::prelude::*;
        if vars.is_empty() {
            return Err(CoreError::new("internal: the distance needs at least one variable"));
        }
        let n_datasets = vars[0].var.codes.len();
        if vars.iter().any(|v| v.var.codes.len() != n_datasets) {
            return Err(CoreError::new("internal: the variables of the distance differ in datasets"));
        }
        let columns: Vec<VariableColumns> = vars.par_iter().map(variable_columns).collect::<CoreResult<_>>()?;
        let numeric = columns.iter().map(|c| c.numeric).collect();
        let ranges = columns.iter().map(|c| c.range).collect();
        let mut codes: Vec<Vec<Vec<i32>>> = (0..n_datasets).map(|_| Vec::with_capacity(vars.len())).collect();
        let mut values: Vec<Vec<Vec<f64>>> = (0..n_datasets).map(|_| Vec::with_capacity(vars.len())).collect();
        for column in columns {
            for (k, (c, v)) in column.codes.into_iter().zip(column.values).enumerate() {
                codes[k].push(c);
                values[k].push(v);
            }
        }
        Ok(DistanceTables { numeric, ranges, codes, values })
    }

    pub fn n_datasets(&self) -> usize {
        self.codes.len()
    }

    /// The records of dataset `k`.
    pub fn n_records(&self, k: usize) -> usize {
        self.codes[k].first().map_or(0, |c| c.len())
    }

    /// Dataset `k` as a table checked against `metric`.
    pub fn table(&self, metric: &Metric, k: usize) -> CoreResult<Table<'_>> {
        let codes = self.codes[k].iter().map(|c| c.as_slice()).collect();
        let values = self.values[k].iter().map(|v| v.as_slice()).collect();
        Table::new(metric, codes, values, &format!("table {}", k + 1))
    }
}

/// One variable's columns in every dataset.
struct VariableColumns {
    numeric: bool,
    range: f64,
    codes: Vec<Vec<i32>>,
    values: Vec<Vec<f64>>,
}

fn variable_columns(v: &DistanceVariable<'_, '_>) -> CoreResult<VariableColumns> {
    let Some(magnitudes) = &v.var.magnitudes else {
        // Categorical: the level on the union of labels is the label.
        let codes = v.var.codes.iter().map(|c| (0..c.len()).map(|i| c.get(i) as i32).collect()).collect();
        let values = v.var.codes.iter().map(|_| Vec::new()).collect();
        return Ok(VariableColumns { numeric: false, range: 0.0, codes, values });
    };
    let finite_codes: Vec<f64> = v.label_codes.iter().copied().filter(|c| c.is_finite()).collect();
    let mut codes = Vec::with_capacity(magnitudes.len());
    let mut values = Vec::with_capacity(magnitudes.len());
    for column in magnitudes {
        let (c, x) = numeric_codes(column, &finite_codes)?;
        codes.push(c);
        values.push(x);
    }
    let range = original_range(&codes[0], &values[0], v.name)?;
    Ok(VariableColumns { numeric: true, range, codes, values })
}

/// A numeric column's codes (`FINITE` or a label) and values (0 where a label stands).
fn numeric_codes(column: &RawColumn<'_>, finite_codes: &[f64]) -> CoreResult<(Vec<i32>, Vec<f64>)> {
    let label_of = |x: f64| -> i32 {
        if is_r_na(x) {
            NA_LABEL
        } else if x.is_nan() {
            NAN_LABEL
        } else if x == f64::INFINITY {
            INF_LABEL
        } else if x == f64::NEG_INFINITY {
            NEG_INF_LABEL
        } else {
            match finite_codes.iter().position(|&c| c == x) {
                Some(k) => FIRST_CODE_LABEL + k as i32,
                None => FINITE,
            }
        }
    };
    let n = column.len();
    let mut codes = Vec::with_capacity(n);
    let mut values = Vec::with_capacity(n);
    let mut push = |x: f64, code: i32| {
        codes.push(code);
        values.push(if code == FINITE { x } else { 0.0 });
    };
    match *column {
        RawColumn::Double(xs) => xs.iter().for_each(|&x| push(x, label_of(x))),
        RawColumn::Integer(xs) => xs.iter().for_each(|&i| {
            if i == NA_INTEGER {
                push(0.0, NA_LABEL)
            } else {
                let x = i as f64;
                push(x, label_of(x))
            }
        }),
        RawColumn::Factor { .. } => return Err(CoreError::new("internal: a factor column was kept as magnitudes")),
    }
    Ok((codes, values))
}

/// R_v: max - min of the finite non-code values of the original, refused when it
/// overflows (the distance would be 0 for every pair).
fn original_range(codes: &[i32], values: &[f64], name: &str) -> CoreResult<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (&c, &x) in codes.iter().zip(values) {
        if c == FINITE {
            lo = lo.min(x);
            hi = hi.max(x);
        }
    }
    if lo > hi {
        return Ok(0.0);
    }
    let range = hi - lo;
    if !range.is_finite() {
        return Err(CoreError::new(format!(
            "Variable \"{name}\" of `data` spans more than the largest double ({lo:e} to {hi:e}); rescale it before computing distances."
        )));
    }
    Ok(range)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{encode_factor, encode_numeric};

    #[test]
    fn numeric_specials_are_labels_and_magnitudes_stay_exact() {
        let na = f64::from_bits(0x7FF0_0000_0000_07A2);
        assert!(is_r_na(na));
        let orig = [0.1 + 0.2, -8.0, na, f64::NAN, f64::INFINITY, 2.0];
        let syn = [0.3, f64::NEG_INFINITY, -8.0];
        let var = encode_numeric(&[RawColumn::Double(&orig), RawColumn::Double(&syn)]).unwrap();
        let tables = DistanceTables::build(&[DistanceVariable { var: &var, label_codes: &[-8.0], name: "x" }]).unwrap();
        assert_eq!(tables.numeric, vec![true]);
        // The range of the finite non-code values 0.1 + 0.2 and 2.
        assert_eq!(tables.ranges, vec![2.0 - (0.1 + 0.2)]);
        assert_eq!(tables.codes[0][0], vec![FINITE, FIRST_CODE_LABEL, NA_LABEL, NAN_LABEL, INF_LABEL, FINITE]);
        assert_eq!(tables.codes[1][0], vec![FINITE, NEG_INF_LABEL, FIRST_CODE_LABEL]);
        // Magnitudes as they arrived, not the level that prints alike.
        assert_eq!(tables.values[0][0][0], 0.1 + 0.2);
        assert_eq!(tables.values[1][0][0], 0.3);
    }

    #[test]
    fn integers_and_factors_and_overflow() {
        let a = [NA_INTEGER, 3, -1];
        let var = encode_numeric(&[RawColumn::Integer(&a)]).unwrap();
        let t = DistanceTables::build(&[DistanceVariable { var: &var, label_codes: &[], name: "i" }]).unwrap();
        assert_eq!(t.codes[0][0], vec![NA_LABEL, FINITE, FINITE]);
        assert_eq!(t.ranges, vec![4.0]);
        let codes = [1, 2, NA_INTEGER];
        let remap = [1, 0];
        let f = encode_factor(&[RawColumn::Factor { codes: &codes, remap: &remap }], 3, 2).unwrap();
        let t = DistanceTables::build(&[DistanceVariable { var: &f, label_codes: &[], name: "f" }]).unwrap();
        assert_eq!(t.numeric, vec![false]);
        assert_eq!(t.codes[0][0], vec![1, 0, 2]);
        let big = [-1e308, 1e308];
        let var = encode_numeric(&[RawColumn::Double(&big)]).unwrap();
        let err = DistanceTables::build(&[DistanceVariable { var: &var, label_codes: &[], name: "big" }]);
        assert!(err.err().unwrap().to_string().contains("largest double"));
    }
}
