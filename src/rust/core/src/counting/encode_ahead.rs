//! The encoding of a call's variables with its keys' index made alongside: the keys
//! are encoded and indexed while the other variables (the targets) are encoded, so
//! that on two threads the index (a pass over every dataset's key columns) no longer
//! waits for the last target's encoding. The encodings and the index are those that
//! `encode_all` and `build_key_index` make one after the other (a test holds them
//! together); only when they are made differs.

use crate::encode::{encode_all, encode_factor, encode_numeric, EncodedVar, VarInput};
use crate::error::{CoreError, CoreResult};
use crate::keys::{build_key_index, KeyIndex};
use crate::workers::{ShouldStop, Workers};
use rayon::prelude::*;

/// Rows (over every variable and dataset) up to which the encoding runs in one trip to
/// the pool, and the keys are indexed in it; larger data are encoded in groups by
/// `encode_all`, which asks between them whether to stop, and indexed by the counting.
pub const AHEAD_ROWS: usize = 1 << 23;

/// The encoding of `vars` and, when `keys` (indices into `vars`, each once) are given
/// and the data are small (`AHEAD_ROWS`), the index of those keys, made in one trip to
/// the pool: `None` for the index otherwise.
pub fn encode_with_key_index<'a>(
    workers: &Workers,
    vars: &[VarInput<'a>],
    keys: Option<&[usize]>,
    should_stop: ShouldStop<'_>,
) -> CoreResult<(Vec<EncodedVar<'a>>, Option<KeyIndex>)> {
    let rows: usize = vars.iter().map(|v| input_columns(v).iter().map(|c| c.len()).sum::<usize>()).sum();
    let keys = match keys {
        Some(keys) if rows <= AHEAD_ROWS && !keys.is_empty() => keys,
        _ => return Ok((encode_all(workers, vars, should_stop)?, None)),
    };
    let mut is_key = vec![false; vars.len()];
    for &k in keys {
        match is_key.get_mut(k) {
            Some(seen @ false) => *seen = true,
            _ => return Err(CoreError::new(format!("internal: key {k} repeated or beyond the variables"))),
        }
    }
    let others: Vec<usize> = (0..vars.len()).filter(|&v| !is_key[v]).collect();
    let encode = |v: &usize| match &vars[*v] {
        VarInput::Factor { columns, n_levels, missing_code } => encode_factor(columns, *n_levels, *missing_code),
        VarInput::Numeric { columns } => encode_numeric(columns),
    };
    let (keyed, other) = workers.chunk(should_stop, || {
        rayon::join(
            || -> CoreResult<(Vec<EncodedVar<'a>>, KeyIndex)> {
                crate::phase!("keys encoded and indexed (alongside)", {
                    let encoded: Vec<EncodedVar<'a>> = keys.par_iter().map(encode).collect::<CoreResult<_>>()?;
                    let codes: Vec<&[crate::codes::LevelCodes<'_>]> =
                        encoded.iter().map(|v| v.codes.as_slice()).collect();
                    let levels: Vec<u32> = encoded.iter().map(|v| v.n_levels).collect();
                    let index = build_key_index(&codes, &levels)?;
                    Ok((encoded, index))
                })
            },
            || {
                crate::phase!(
                    "other variables encoded (alongside)",
                    others.par_iter().map(encode).collect::<CoreResult<Vec<EncodedVar<'a>>>>()
                )
            },
        )
    })?;
    let (keyed, index) = keyed?;
    // Back in the variables' order.
    let mut slots: Vec<Option<EncodedVar<'a>>> = (0..vars.len()).map(|_| None).collect();
    for (&k, v) in keys.iter().zip(keyed) {
        slots[k] = Some(v);
    }
    for (&o, v) in others.iter().zip(other?) {
        slots[o] = Some(v);
    }
    let encoded = slots.into_iter().map(|v| v.ok_or_else(|| CoreError::new("internal: a variable was not encoded")));
    Ok((encoded.collect::<CoreResult<_>>()?, Some(index)))
}

fn input_columns<'v, 'a>(v: &'v VarInput<'a>) -> &'v [crate::encode::RawColumn<'a>] {
    match v {
        VarInput::Factor { columns, .. } | VarInput::Numeric { columns } => columns,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::RawColumn;
    use crate::test_random::XorShift;
    use crate::workers::never_stop;

    fn random_factor(rng: &mut XorShift, n: usize, levels: u32) -> Vec<i32> {
        (0..n).map(|_| if rng.below(20) == 0 { i32::MIN } else { 1 + rng.below(levels as u64) as i32 }).collect()
    }

    /// The encodings and the index equal those of `encode_all` then `build_key_index`,
    /// for keys in any order among the variables, on one thread and two.
    #[test]
    fn encodings_and_index_equal_those_made_one_after_the_other() {
        let mut rng = XorShift::new(7);
        for case in 0..20 {
            let n_datasets = 1 + rng.below(4) as usize;
            let rows: Vec<usize> = (0..n_datasets).map(|_| 1 + rng.below(300) as usize).collect();
            let n_vars = 2 + rng.below(5) as usize;
            let mut factors: Vec<(Vec<Vec<i32>>, Vec<i32>, u32)> = Vec::new();
            let mut numbers: Vec<Vec<Vec<f64>>> = Vec::new();
            let mut kinds = Vec::new();
            for _ in 0..n_vars {
                if rng.below(2) == 0 {
                    let levels = 1 + rng.below(6);
                    let cols = rows.iter().map(|&n| random_factor(&mut rng, n, levels)).collect();
                    let remap: Vec<i32> = (0..levels as i32).collect();
                    factors.push((cols, remap, levels));
                    kinds.push((true, factors.len() - 1));
                } else {
                    let cols = rows.iter().map(|&n| (0..n).map(|_| rng.below(9) as f64 * 0.5).collect()).collect();
                    numbers.push(cols);
                    kinds.push((false, numbers.len() - 1));
                }
            }
            let inputs: Vec<VarInput<'_>> = kinds
                .iter()
                .map(|&(factor, i)| {
                    if factor {
                        let (cols, remap, levels) = &factors[i];
                        VarInput::Factor {
                            columns: cols.iter().map(|c| RawColumn::Factor { codes: c, remap }).collect(),
                            n_levels: levels + 1,
                            missing_code: *levels,
                        }
                    } else {
                        VarInput::Numeric { columns: numbers[i].iter().map(|c| RawColumn::Double(c)).collect() }
                    }
                })
                .collect();
            let mut keys: Vec<usize> = (0..n_vars).filter(|_| rng.below(2) == 0).collect();
            if keys.is_empty() {
                keys.push(rng.below(n_vars as u64) as usize);
            }
            if case % 2 == 0 {
                keys.reverse();
            }
            let one = Workers::new(1).unwrap();
            let alone = encode_all(&one, &inputs, &never_stop).unwrap();
            let codes: Vec<&[crate::codes::LevelCodes<'_>]> = keys.iter().map(|&k| alone[k].codes.as_slice()).collect();
            let levels: Vec<u32> = keys.iter().map(|&k| alone[k].n_levels).collect();
            let index = build_key_index(&codes, &levels).unwrap();
            for threads in [1, 2] {
                let w = Workers::new(threads).unwrap();
                let (encoded, ahead) = encode_with_key_index(&w, &inputs, Some(&keys), &never_stop).unwrap();
                assert_eq!(ahead.as_ref(), Some(&index), "case {case}, {threads} threads");
                assert_eq!(encoded.len(), alone.len());
                for (a, b) in encoded.iter().zip(&alone) {
                    assert_eq!(a.n_levels, b.n_levels, "case {case}");
                    assert_eq!(a.missing_code, b.missing_code);
                    assert_eq!(a.numeric_levels, b.numeric_levels);
                    for (ca, cb) in a.codes.iter().zip(&b.codes) {
                        assert_eq!(ca.to_u32(), cb.to_u32(), "case {case}");
                    }
                }
            }
        }
    }

    #[test]
    fn repeated_or_unknown_keys_are_an_error_and_no_keys_no_index() {
        let codes = [1, 2, 1];
        let remap = [0i32, 1];
        let input = || VarInput::Factor {
            columns: vec![RawColumn::Factor { codes: &codes, remap: &remap }],
            n_levels: 3,
            missing_code: 2,
        };
        let vars = [input(), input()];
        let w = Workers::new(1).unwrap();
        assert!(encode_with_key_index(&w, &vars, Some(&[0, 0]), &never_stop).is_err());
        assert!(encode_with_key_index(&w, &vars, Some(&[2]), &never_stop).is_err());
        assert!(encode_with_key_index(&w, &vars, None, &never_stop).unwrap().1.is_none());
        assert!(encode_with_key_index(&w, &vars, Some(&[1]), &never_stop).unwrap().1.is_some());
    }
}
