//! R glue for synthrisk-core: borrow slices on the R thread, run the core on plain data,
//! build R objects after the join. Errors come back as a classed list that the R side
//! turns into a cli error; nothing here panics on bad input or throws.

use extendr_api::prelude::*;
use synthrisk_core::encode::{encode_factor, encode_numeric, EncodedVar, RawColumn};
use synthrisk_core::engine::{run, with_threads, TargetRequest};
use synthrisk_core::error::CoreError;
use synthrisk_core::exclusions::{ExclusionSpec, KeyTargetExclusion, N_STEPS, N_TABLES};
use synthrisk_core::measures::MEASURE_NAMES;

type GlueResult<T> = std::result::Result<T, CoreError>;

/// An error for R: `%` is doubled because extendr 0.9 may format it.
fn error_robj(e: CoreError) -> Robj {
    let msg = e.0.replace('%', "%%");
    let mut out: Robj = List::from_names_and_values(["message"], [Robj::from(msg)]).unwrap_or_default().into();
    let _ = out.set_class(["synthrisk_rust_error"]);
    out
}

fn field(list: &List, name: &str) -> GlueResult<Robj> {
    list.dollar(name).map_err(|_| CoreError::new(format!("internal: field `{name}` missing")))
}

fn as_list(x: Robj, what: &str) -> GlueResult<List> {
    List::try_from(x).map_err(|_| CoreError::new(format!("internal: `{what}` must be a list")))
}

fn int_scalar(x: &Robj, what: &str) -> GlueResult<i32> {
    x.as_integer().ok_or_else(|| CoreError::new(format!("internal: `{what}` must be an integer")))
}

fn int_slice<'a>(x: &'a Robj, what: &str) -> GlueResult<&'a [i32]> {
    x.as_integer_slice().ok_or_else(|| CoreError::new(format!("internal: `{what}` must be an integer vector")))
}

fn logical_vec(x: &Robj, what: &str) -> GlueResult<Vec<bool>> {
    let v = x.as_logical_slice().ok_or_else(|| CoreError::new(format!("internal: `{what}` must be logical")))?;
    Ok(v.iter().map(|b| b.is_true()).collect())
}

/// Borrowed columns of one variable; the `Robj`s stay alive in `keep`.
fn raw_columns<'a>(spec: &List, keep: &'a [Robj], remaps: &'a [Robj]) -> GlueResult<Vec<RawColumn<'a>>> {
    let kind = field(spec, "kind")?;
    let kind = kind.as_str().unwrap_or("");
    keep.iter()
        .enumerate()
        .map(|(i, col)| match kind {
            "factor" => Ok(RawColumn::Factor { codes: int_slice(col, "codes")?, remap: int_slice(&remaps[i], "remap")? }),
            "double" => col
                .as_real_slice()
                .map(RawColumn::Double)
                .ok_or_else(|| CoreError::new("internal: double column expected")),
            "integer" => Ok(RawColumn::Integer(int_slice(col, "integer column")?)),
            _ => Err(CoreError::new(format!("internal: unknown column kind `{kind}`"))),
        })
        .collect()
}

struct Encoded(Vec<EncodedVar>);

fn encode_impl(vars: List, n_threads: i32) -> GlueResult<Robj> {
    let specs: Vec<List> = vars.values().map(|v| as_list(v, "variable")).collect::<GlueResult<_>>()?;
    let columns: Vec<Vec<Robj>> =
        specs.iter().map(|s| Ok(as_list(field(s, "columns")?, "columns")?.values().collect())).collect::<GlueResult<_>>()?;
    let remaps: Vec<Vec<Robj>> = specs
        .iter()
        .map(|s| {
            let r = field(s, "remaps")?;
            Ok(if r.is_null() { Vec::new() } else { as_list(r, "remaps")?.values().collect() })
        })
        .collect::<GlueResult<_>>()?;
    let mut jobs = Vec::with_capacity(specs.len());
    for (i, s) in specs.iter().enumerate() {
        let raw = raw_columns(s, &columns[i], &remaps[i])?;
        let factor_levels = match raw.first() {
            Some(RawColumn::Factor { .. }) => {
                Some((int_scalar(&field(s, "n_levels")?, "n_levels")?, int_scalar(&field(s, "missing_code")?, "missing_code")?))
            }
            _ => None,
        };
        jobs.push((raw, factor_levels));
    }
    let encoded: Vec<EncodedVar> = with_threads(n_threads.max(1) as usize, || {
        jobs.iter()
            .map(|(raw, lv)| match lv {
                Some((n, miss)) if *n > 0 && *miss >= 0 => encode_factor(raw, *n as u32, *miss as u32),
                Some(_) => Err(CoreError::new("internal: bad factor level counts")),
                None => encode_numeric(raw),
            })
            .collect::<GlueResult<Vec<_>>>()
    })??;
    let info: Vec<Robj> = encoded
        .iter()
        .map(|v| {
            let levels: Robj = match &v.numeric_levels {
                Some(x) => Robj::from(x.clone()),
                None => Robj::from(()),
            };
            List::from_names_and_values(
                ["n_levels", "missing_code", "numeric_levels", "has_missing"],
                [Robj::from(v.n_levels as i32), Robj::from(v.missing_code as i32), levels, Robj::from(v.has_missing.clone())],
            )
            .map(Robj::from)
            .map_err(|e| CoreError::new(e.to_string()))
        })
        .collect::<GlueResult<_>>()?;
    let ptr: Robj = ExternalPtr::new(Encoded(encoded)).into();
    List::from_names_and_values(["ptr", "info"], [ptr, List::from_values(info).into()])
        .map(Robj::from)
        .map_err(|e| CoreError::new(e.to_string()))
}

/// Encodes the variables (keys and targets) of the original and every synthesis.
/// @noRd
#[extendr]
fn rust_encode_variables(vars: List, n_threads: i32) -> Robj {
    encode_impl(vars, n_threads).unwrap_or_else(error_robj)
}

fn target_request(spec: List) -> GlueResult<TargetRequest> {
    let denom = field(&spec, "denom_lim")?;
    let denom_lim = denom.as_integer().filter(|&d| d >= 0).map(|d| d as u64);
    let keys = field(&spec, "kt_key")?;
    let keylevs = field(&spec, "kt_key_level")?;
    let targetlevs = field(&spec, "kt_target_level")?;
    let (k, kl, tl) = (int_slice(&keys, "kt_key")?, int_slice(&keylevs, "kt_key_level")?, int_slice(&targetlevs, "kt_target_level")?);
    let key_target = k
        .iter()
        .zip(kl)
        .zip(tl)
        .map(|((&key, &key_level), &target_level)| {
            if key < 0 || key_level < 0 || target_level < 0 {
                Err(CoreError::new("internal: negative exclusion code"))
            } else {
                Ok(KeyTargetExclusion { key: key as usize, key_level: key_level as u32, target_level: target_level as u32 })
            }
        })
        .collect::<GlueResult<_>>()?;
    let var = int_scalar(&field(&spec, "var")?, "var")?;
    let missing = int_scalar(&field(&spec, "target_missing_code")?, "target_missing_code")?;
    let min_cell = field(&spec, "twoway_min_cell")?.as_real().unwrap_or(f64::INFINITY);
    Ok(TargetRequest {
        var: var.max(0) as usize,
        spec: ExclusionSpec {
            excluded_target: logical_vec(&field(&spec, "excluded_target")?, "excluded_target")?,
            exclude_missing_target: field(&spec, "exclude_missing_target")?.as_bool().unwrap_or(false),
            target_missing_code: missing.max(0) as u32,
            key_target,
            denom_lim,
        },
        twoway_min_cell: min_cell,
    })
}

fn compute_impl(encoded: Robj, keys: Robj, use_keys_na: Robj, targets: List, n_threads: i32) -> GlueResult<Robj> {
    let ptr: ExternalPtr<Encoded> =
        ExternalPtr::try_from(encoded).map_err(|_| CoreError::new("internal: not an encoding of synthrisk"))?;
    let vars = &ptr.as_ref().0;
    let keys: Vec<usize> = int_slice(&keys, "keys")?.iter().map(|&k| k.max(0) as usize).collect();
    let use_na = logical_vec(&use_keys_na, "use_keys_na")?;
    let requests: Vec<TargetRequest> =
        targets.values().map(|t| target_request(as_list(t, "target")?)).collect::<GlueResult<_>>()?;
    let results = with_threads(n_threads.max(1) as usize, || run(vars, &keys, &use_na, &requests))??;

    let out: Vec<Robj> = results
        .iter()
        .map(|tr| {
            let m = tr.synthesis.len();
            let stats: Vec<f64> = tr.synthesis.iter().flat_map(|s| s.measures.values).collect();
            let mut nexcl = Vec::with_capacity(m * N_TABLES * (N_STEPS + 1));
            for s in &tr.synthesis {
                for k in 0..N_TABLES {
                    nexcl.extend(s.removed[k].iter().map(|&v| v as f64));
                    nexcl.push(s.total[k] as f64);
                }
            }
            let one_way: Vec<f64> = tr
                .synthesis
                .iter()
                .flat_map(|s| {
                    let w = &s.one_way;
                    [
                        w.level.map_or(f64::NAN, |l| l as f64 + 1.0),
                        w.n_level_dis as f64,
                        w.total_disclosive as f64,
                        w.level_orig as f64,
                        w.all_orig as f64,
                    ]
                })
                .collect();
            let two_way: Vec<Robj> = tr
                .synthesis
                .iter()
                .map(|s| {
                    let p = &s.two_way;
                    List::from_names_and_values(
                        ["key", "key_level", "target_level", "npairs", "key_target_total", "key_total"],
                        [
                            Robj::from(p.iter().map(|x| x.key as i32 + 1).collect::<Vec<i32>>()),
                            Robj::from(p.iter().map(|x| x.key_level as i32 + 1).collect::<Vec<i32>>()),
                            Robj::from(p.iter().map(|x| x.target_level as i32 + 1).collect::<Vec<i32>>()),
                            Robj::from(p.iter().map(|x| x.npairs as f64).collect::<Vec<f64>>()),
                            Robj::from(p.iter().map(|x| x.key_target_total as f64).collect::<Vec<f64>>()),
                            Robj::from(p.iter().map(|x| x.key_total as f64).collect::<Vec<f64>>()),
                        ],
                    )
                    .map(Robj::from)
                    .unwrap_or_default()
                })
                .collect();
            List::from_names_and_values(
                ["stats", "nexcl", "one_way", "two_way"],
                [Robj::from(stats), Robj::from(nexcl), Robj::from(one_way), List::from_values(two_way).into()],
            )
            .map(Robj::from)
            .unwrap_or_default()
        })
        .collect();
    Ok(List::from_values(out).into())
}

/// Computes every measure for all targets and syntheses of an encoding.
/// @noRd
#[extendr]
fn rust_compute(encoded: Robj, keys: Robj, use_keys_na: Robj, targets: List, n_threads: i32) -> Robj {
    compute_impl(encoded, keys, use_keys_na, targets, n_threads).unwrap_or_else(error_robj)
}

/// Names of the measures in the rows returned by `rust_compute`.
/// @noRd
#[extendr]
fn rust_measure_names() -> Vec<String> {
    MEASURE_NAMES.iter().map(|s| s.to_string()).collect()
}

extendr_module! {
    mod synthrisk;
    fn rust_encode_variables;
    fn rust_compute;
    fn rust_measure_names;
}
