//! Turning one variable, seen in the original and in every synthesis, into level codes
//! that mean the same label on every side.
//!
//! Factors arrive as R's 1-based codes plus a per-dataset `remap` (raw code -> union
//! code, worked out in R from the level labels). Numeric columns arrive as values; their
//! levels are the distinct values of all datasets together, sorted. Missing values get a
//! level of their own (`missing_code`).

use crate::error::{CoreError, CoreResult};
use hashbrown::HashMap;

/// R's NA for integers (and factor codes).
pub const NA_INTEGER: i32 = i32::MIN;

/// One dataset's column, borrowed from R.
#[derive(Clone, Copy)]
pub enum RawColumn<'a> {
    /// Factor codes (1-based, NA = `NA_INTEGER`) and the map raw code -> union code (0-based).
    Factor { codes: &'a [i32], remap: &'a [i32] },
    Double(&'a [f64]),
    Integer(&'a [i32]),
}

impl RawColumn<'_> {
    pub fn len(&self) -> usize {
        match self {
            RawColumn::Factor { codes, .. } => codes.len(),
            RawColumn::Double(x) => x.len(),
            RawColumn::Integer(x) => x.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A variable coded on the union of its levels, one code vector per dataset
/// (dataset 0 is the original, 1..=m the syntheses).
#[derive(Debug, Clone)]
pub struct EncodedVar {
    pub codes: Vec<Vec<u32>>,
    /// Number of levels including the missing level.
    pub n_levels: u32,
    pub missing_code: u32,
    /// For numeric variables, the value of each non-missing level, ascending.
    pub numeric_levels: Option<Vec<f64>>,
    /// Whether each dataset has missing values.
    pub has_missing: Vec<bool>,
}

/// Codes of one factor column, validated against its remap.
pub fn encode_factor_column(
    codes: &[i32],
    remap: &[i32],
    n_levels: u32,
    missing_code: u32,
) -> CoreResult<(Vec<u32>, bool)> {
    if missing_code >= n_levels {
        return Err(CoreError::new("missing level code out of range"));
    }
    let mut table = Vec::with_capacity(remap.len());
    for &r in remap {
        if r < 0 || r as u32 >= n_levels {
            return Err(CoreError::new(format!("factor level map has code {r} outside 0..{n_levels}")));
        }
        table.push(r as u32);
    }
    let mut out = Vec::with_capacity(codes.len());
    let mut has_missing = false;
    for &c in codes {
        if c == NA_INTEGER {
            has_missing = true;
            out.push(missing_code);
        } else if c >= 1 && (c as usize) <= table.len() {
            out.push(table[c as usize - 1]);
        } else {
            return Err(CoreError::new(format!("factor code {c} has no level")));
        }
    }
    Ok((out, has_missing))
}

/// Bits that identify a numeric value: -0 and 0 are one value.
fn value_key(x: f64) -> u64 {
    if x == 0.0 {
        0.0f64.to_bits()
    } else {
        x.to_bits()
    }
}

/// First pass over one numeric column: local ids in order of first appearance
/// (`u32::MAX` for missing) and the value of each local id.
fn local_numeric_codes(col: RawColumn<'_>) -> CoreResult<(Vec<u32>, Vec<f64>)> {
    let mut ids: HashMap<u64, u32> = HashMap::new();
    let mut values: Vec<f64> = Vec::new();
    let mut out = Vec::with_capacity(col.len());
    let mut push_value = |x: f64, out: &mut Vec<u32>| {
        if x.is_nan() {
            out.push(u32::MAX);
            return;
        }
        let next = values.len() as u32;
        let id = *ids.entry(value_key(x)).or_insert_with(|| {
            values.push(if x == 0.0 { 0.0 } else { x });
            next
        });
        out.push(id);
    };
    match col {
        RawColumn::Double(x) => {
            for &v in x {
                push_value(v, &mut out);
            }
        }
        RawColumn::Integer(x) => {
            for &v in x {
                if v == NA_INTEGER {
                    out.push(u32::MAX);
                } else {
                    push_value(v as f64, &mut out);
                }
            }
        }
        RawColumn::Factor { .. } => {
            return Err(CoreError::new("a factor column was given as numeric"));
        }
    }
    Ok((out, values))
}

/// Encodes a numeric variable over all its datasets: levels are the sorted distinct
/// values of all datasets, then the missing level.
pub fn encode_numeric(columns: &[RawColumn<'_>]) -> CoreResult<EncodedVar> {
    use rayon::prelude::*;
    let locals: Vec<(Vec<u32>, Vec<f64>)> = columns
        .par_iter()
        .map(|c| local_numeric_codes(*c))
        .collect::<CoreResult<_>>()?;
    let mut all: Vec<f64> = locals.iter().flat_map(|(_, v)| v.iter().copied()).collect();
    all.sort_by(|a, b| a.total_cmp(b));
    all.dedup_by(|a, b| value_key(*a) == value_key(*b));
    let global: HashMap<u64, u32> = all.iter().enumerate().map(|(i, v)| (value_key(*v), i as u32)).collect();
    let missing_code = all.len() as u32;
    let (codes, has_missing): (Vec<Vec<u32>>, Vec<bool>) = locals
        .into_par_iter()
        .map(|(mut codes, values)| {
            let to_global: Vec<u32> = values.iter().map(|v| global[&value_key(*v)]).collect();
            let mut has_missing = false;
            for c in codes.iter_mut() {
                if *c == u32::MAX {
                    has_missing = true;
                    *c = missing_code;
                } else {
                    *c = to_global[*c as usize];
                }
            }
            (codes, has_missing)
        })
        .unzip();
    Ok(EncodedVar { codes, n_levels: missing_code + 1, missing_code, numeric_levels: Some(all), has_missing })
}

/// Encodes a factor variable over all its datasets.
pub fn encode_factor(columns: &[RawColumn<'_>], n_levels: u32, missing_code: u32) -> CoreResult<EncodedVar> {
    use rayon::prelude::*;
    let parts: Vec<(Vec<u32>, bool)> = columns
        .par_iter()
        .map(|c| match c {
            RawColumn::Factor { codes, remap } => encode_factor_column(codes, remap, n_levels, missing_code),
            _ => Err(CoreError::new("a numeric column was given as a factor")),
        })
        .collect::<CoreResult<_>>()?;
    let (codes, has_missing) = parts.into_iter().unzip();
    Ok(EncodedVar { codes, n_levels, missing_code, numeric_levels: None, has_missing })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factor_codes_follow_the_remap_and_na_is_missing() {
        let (codes, na) = encode_factor_column(&[1, 2, NA_INTEGER, 2], &[2, 0], 4, 3).unwrap();
        assert_eq!(codes, vec![2, 0, 3, 0]);
        assert!(na);
    }

    #[test]
    fn factor_code_without_level_is_an_error() {
        assert!(encode_factor_column(&[3], &[0, 1], 3, 2).is_err());
        assert!(encode_factor_column(&[1], &[5], 3, 2).is_err());
    }

    #[test]
    fn numeric_levels_are_sorted_union_of_all_datasets() {
        let a = [3.0, f64::NAN, 1.0, -0.0];
        let b = [0.0, 7.5, 3.0];
        let c = [2, NA_INTEGER];
        let enc = encode_numeric(&[RawColumn::Double(&a), RawColumn::Double(&b), RawColumn::Integer(&c)]).unwrap();
        assert_eq!(enc.numeric_levels.as_deref(), Some(&[0.0, 1.0, 2.0, 3.0, 7.5][..]));
        assert_eq!(enc.missing_code, 5);
        assert_eq!(enc.codes[0], vec![3, 5, 1, 0]);
        assert_eq!(enc.codes[1], vec![0, 4, 3]);
        assert_eq!(enc.codes[2], vec![2, 5]);
        assert_eq!(enc.has_missing, vec![true, false, true]);
    }
}
