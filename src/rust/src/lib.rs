//! R glue for synthrisk-core: borrow slices on the R thread, run the core on plain data,
//! build R objects after the join. Errors come back as a classed list that the R side
//! turns into a cli error (or, for an interrupt, an R interrupt); nothing here panics on
//! bad input or throws. A value R should never send is an "internal: ..." error.

use extendr_api::prelude::*;
use std::os::raw::c_int;
use synthrisk_core::encode::{close_numeric_pairs, encode_all, merge_numeric_levels, EncodedVar, RawColumn, VarInput};
use synthrisk_core::engine::{run_plan, TargetRequest};
use synthrisk_core::plan::{Plan, SynthesisView, TauGrid};
use synthrisk_core::error::CoreError;
use synthrisk_core::identification::{identification, RadiusVar};
use synthrisk_core::record_keys::record_keys;
use synthrisk_core::records::records;
use synthrisk_core::exclusions::{ExclusionSpec, KeyTargetExclusion, N_TABLES, TABLE_NAMES};
use synthrisk_core::measures::MEASURE_NAMES;
use synthrisk_core::workers::Workers;

type GlueResult<T> = std::result::Result<T, CoreError>;

extern "C" {
    /// 1 when the user asked to interrupt (src/entrypoint.c: `R_CheckUserInterrupt`
    /// inside `R_ToplevelExec`, so R's longjmp never crosses a Rust frame).
    fn synthrisk_user_interrupt() -> c_int;
}

/// The "should stop" callback of the core; called on the R thread between chunks.
fn user_interrupt() -> bool {
    // SAFETY: called only on R's main thread, outside any rayon closure; the C side
    // catches the interrupt's longjmp itself.
    unsafe { synthrisk_user_interrupt() != 0 }
}

/// An error (or interrupt) for R, as data: the message is passed verbatim.
fn error_robj(e: CoreError) -> Robj {
    let interrupted = e.is_interrupt();
    let list = List::from_names_and_values(["message", "interrupted"], [Robj::from(e.to_string()), Robj::from(interrupted)]);
    let mut out: Robj = match list {
        Ok(l) => l.into(),
        Err(_) => Robj::from(e.to_string()),
    };
    let classes: &[&str] =
        if interrupted { &["synthrisk_rust_interrupt", "synthrisk_rust_error"] } else { &["synthrisk_rust_error"] };
    // A failed set_class leaves a plain list, which the R side also reports as an error.
    let _ = out.set_class(classes);
    out
}

fn internal(msg: impl std::fmt::Display) -> CoreError {
    CoreError::new(format!("internal: {msg}"))
}

fn field(list: &List, name: &str) -> GlueResult<Robj> {
    list.dollar(name).map_err(|_| internal(format!("field `{name}` missing")))
}

fn as_list(x: Robj, what: &str) -> GlueResult<List> {
    List::try_from(x).map_err(|_| internal(format!("`{what}` must be a list")))
}

fn int_scalar(x: &Robj, what: &str) -> GlueResult<i32> {
    x.as_integer().ok_or_else(|| internal(format!("`{what}` must be one integer, not NA")))
}

/// A non-negative integer scalar as an index or code.
fn index_scalar(x: &Robj, what: &str) -> GlueResult<usize> {
    let v = int_scalar(x, what)?;
    usize::try_from(v).map_err(|_| internal(format!("`{what}` is {v}, must be >= 0")))
}

fn int_slice<'a>(x: &'a Robj, what: &str) -> GlueResult<&'a [i32]> {
    x.as_integer_slice().ok_or_else(|| internal(format!("`{what}` must be an integer vector")))
}

fn index_vec(x: &Robj, what: &str) -> GlueResult<Vec<usize>> {
    int_slice(x, what)?
        .iter()
        .map(|&v| usize::try_from(v).map_err(|_| internal(format!("`{what}` has {v}, must be >= 0"))))
        .collect()
}

fn logical_vec(x: &Robj, what: &str) -> GlueResult<Vec<bool>> {
    let v = x.as_logical_slice().ok_or_else(|| internal(format!("`{what}` must be logical")))?;
    v.iter().map(|b| if b.is_na() { Err(internal(format!("`{what}` has NA"))) } else { Ok(b.is_true()) }).collect()
}

fn bool_scalar(x: &Robj, what: &str) -> GlueResult<bool> {
    x.as_bool().ok_or_else(|| internal(format!("`{what}` must be TRUE or FALSE")))
}

fn n_threads_of(n: i32) -> GlueResult<Workers> {
    let n = usize::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| internal(format!("n_threads is {n}")))?;
    Workers::shared(n)
}

fn named_list<const N: usize>(names: [&str; N], values: [Robj; N]) -> GlueResult<Robj> {
    List::from_names_and_values(names, values).map(Robj::from).map_err(internal)
}

/// Borrowed columns of one variable; the `Robj`s stay alive in `keep`.
fn raw_columns<'a>(kind: &str, keep: &'a [Robj], remaps: &'a [Robj]) -> GlueResult<Vec<RawColumn<'a>>> {
    if kind == "factor" && remaps.len() != keep.len() {
        return Err(internal("one remap per factor column expected"));
    }
    keep.iter()
        .enumerate()
        .map(|(i, col)| match kind {
            "factor" => Ok(RawColumn::Factor { codes: int_slice(col, "codes")?, remap: int_slice(&remaps[i], "remap")? }),
            "double" => col.as_real_slice().map(RawColumn::Double).ok_or_else(|| internal("double column expected")),
            "integer" => Ok(RawColumn::Integer(int_slice(col, "integer column")?)),
            _ => Err(internal(format!("unknown column kind `{kind}`"))),
        })
        .collect()
}

struct Encoded(Vec<EncodedVar>);

/// What R learns about one encoded variable. Levels of integer columns come back as
/// integers, so that R labels them as it labels integers; `close_pairs` (1-based) are
/// the adjacent double levels R must compare by label.
fn info_robj(v: &EncodedVar, integer_kind: bool) -> GlueResult<Robj> {
    let (levels, close): (Robj, Robj) = match &v.numeric_levels {
        Some(x) if integer_kind => (Robj::from(x.iter().map(|&l| l as i32).collect::<Vec<i32>>()), Robj::from(())),
        Some(x) => {
            let close: Vec<f64> = close_numeric_pairs(x).into_iter().map(|i| i as f64 + 1.0).collect();
            (Robj::from(x.clone()), Robj::from(close))
        }
        None => (Robj::from(()), Robj::from(())),
    };
    named_list(
        ["n_levels", "missing_code", "numeric_levels", "has_missing", "one_sided", "close_pairs"],
        [
            Robj::from(v.n_levels as i32),
            Robj::from(v.missing_code as i32),
            levels,
            Robj::from(v.has_missing.clone()),
            Robj::from(v.one_sided),
            close,
        ],
    )
}

fn encode_impl(vars: List, n_threads: i32) -> GlueResult<Robj> {
    let workers = n_threads_of(n_threads)?;
    let specs: Vec<List> = vars.values().map(|v| as_list(v, "variable")).collect::<GlueResult<_>>()?;
    let kinds: Vec<String> = specs
        .iter()
        .map(|s| field(s, "kind")?.as_str().map(str::to_string).ok_or_else(|| internal("`kind` must be a string")))
        .collect::<GlueResult<_>>()?;
    let columns: Vec<Vec<Robj>> =
        specs.iter().map(|s| Ok(as_list(field(s, "columns")?, "columns")?.values().collect())).collect::<GlueResult<_>>()?;
    let remaps: Vec<Vec<Robj>> = specs
        .iter()
        .map(|s| {
            let r = field(s, "remaps")?;
            Ok(if r.is_null() { Vec::new() } else { as_list(r, "remaps")?.values().collect() })
        })
        .collect::<GlueResult<_>>()?;
    let mut inputs = Vec::with_capacity(specs.len());
    for (i, s) in specs.iter().enumerate() {
        let columns = raw_columns(&kinds[i], &columns[i], &remaps[i])?;
        inputs.push(if kinds[i] == "factor" {
            let n_levels = index_scalar(&field(s, "n_levels")?, "n_levels")?;
            let missing_code = index_scalar(&field(s, "missing_code")?, "missing_code")?;
            VarInput::Factor { columns, n_levels: n_levels as u32, missing_code: missing_code as u32 }
        } else {
            VarInput::Numeric { columns }
        });
    }
    let encoded = encode_all(&workers, &inputs, &user_interrupt)?;
    let info: Vec<Robj> =
        encoded.iter().zip(&kinds).map(|(v, k)| info_robj(v, k == "integer")).collect::<GlueResult<_>>()?;
    let ptr: Robj = ExternalPtr::new(Encoded(encoded)).into();
    named_list(["ptr", "info"], [ptr, List::from_values(info).into()])
}

/// Encodes the variables (keys and targets) of the original and every synthesis.
/// @noRd
#[extendr]
fn rust_encode_variables(vars: List, n_threads: i32) -> Robj {
    encode_impl(vars, n_threads).unwrap_or_else(error_robj)
}

fn merge_impl(mut encoded: Robj, var: i32, first_of: Robj, integer_kind: bool, n_threads: i32) -> GlueResult<Robj> {
    let workers = n_threads_of(n_threads)?;
    let ptr: &mut ExternalPtr<Encoded> =
        (&mut encoded).try_into().map_err(|_| internal("not an encoding of synthrisk"))?;
    let vars = &mut ptr.try_addr_mut().map_err(|_| internal("the encoding was released"))?.0;
    let var = usize::try_from(var).ok().filter(|&v| v < vars.len()).ok_or_else(|| internal(format!("variable {var}")))?;
    let first_of: Vec<u32> = index_vec(&first_of, "first_of")?.into_iter().map(|v| v as u32).collect();
    merge_numeric_levels(&workers, &mut vars[var], &first_of)?;
    info_robj(&vars[var], integer_kind)
}

/// Merges numeric levels of variable `var` (0-based) that R labels alike:
/// `first_of[i]` (0-based) is the first level with level i's label. Returns the
/// variable's new info.
/// @noRd
#[extendr]
fn rust_merge_numeric_levels(encoded: Robj, var: i32, first_of: Robj, integer_kind: bool, n_threads: i32) -> Robj {
    merge_impl(encoded, var, first_of, integer_kind, n_threads).unwrap_or_else(error_robj)
}

/// `denom_lim`: NULL or NA for no limit, else a number >= 0 (a whole count compares
/// with `floor`, `Inf` never excludes).
fn denom_lim_of(x: &Robj) -> GlueResult<Option<u64>> {
    if x.is_null() {
        return Ok(None);
    }
    if let Some(v) = x.as_integer_slice() {
        return match v {
            [v] if *v == i32::MIN => Ok(None),
            [v] => u64::try_from(*v).map(Some).map_err(|_| internal(format!("denom_lim is {v}"))),
            _ => Err(internal("denom_lim must be one number")),
        };
    }
    match x.as_real_slice() {
        Some([v]) if v.is_nan() => Ok(None),
        Some([v]) if *v == f64::INFINITY => Ok(Some(u64::MAX)),
        Some([v]) if *v >= 0.0 && *v < u64::MAX as f64 => Ok(Some(v.floor() as u64)),
        Some([v]) => Err(internal(format!("denom_lim is {v}"))),
        _ => Err(internal("denom_lim must be one number")),
    }
}

fn target_request(spec: List) -> GlueResult<TargetRequest> {
    let keys = field(&spec, "kt_key")?;
    let keylevs = field(&spec, "kt_key_level")?;
    let targetlevs = field(&spec, "kt_target_level")?;
    let (k, kl, tl) =
        (index_vec(&keys, "kt_key")?, index_vec(&keylevs, "kt_key_level")?, index_vec(&targetlevs, "kt_target_level")?);
    if k.len() != kl.len() || k.len() != tl.len() {
        return Err(internal("key/target exclusions of different lengths"));
    }
    let key_target = k
        .iter()
        .zip(&kl)
        .zip(&tl)
        .map(|((&key, &key_level), &target_level)| KeyTargetExclusion {
            key,
            key_level: key_level as u32,
            target_level: target_level as u32,
        })
        .collect();
    let min_cell = match field(&spec, "twoway_min_cell")?.as_real_slice() {
        Some([v]) if !v.is_nan() => *v,
        _ => return Err(internal("`twoway_min_cell` must be one number, not NA")),
    };
    Ok(TargetRequest {
        var: index_scalar(&field(&spec, "var")?, "var")?,
        spec: ExclusionSpec {
            excluded_target: logical_vec(&field(&spec, "excluded_target")?, "excluded_target")?,
            exclude_missing_target: bool_scalar(&field(&spec, "exclude_missing_target")?, "exclude_missing_target")?,
            target_missing_code: index_scalar(&field(&spec, "target_missing_code")?, "target_missing_code")? as u32,
            key_target,
            denom_lim: denom_lim_of(&field(&spec, "denom_lim")?)?,
        },
        twoway_min_cell: min_cell,
    })
}

/// One target's results, every part named: `stats` (per measure, its value in each
/// synthesis), `nexcl` (per synthesis, per table: the records each step removed and
/// the table's total), `one_way` (per synthesis: the level with most disclosive
/// records and the counts), `two_way` (per synthesis, the pairs) and the tau curve.
fn target_result_robj(tr: &synthrisk_core::engine::TargetResult) -> GlueResult<Robj> {
    let per_synthesis: Vec<Vec<(&str, f64)>> = tr.synthesis.iter().map(|s| s.measures.named()).collect();
    let stats: Vec<Robj> = (0..MEASURE_NAMES.len())
        .map(|i| Robj::from(per_synthesis.iter().map(|m| m[i].1).collect::<Vec<f64>>()))
        .collect();
    let stats = List::from_names_and_values(MEASURE_NAMES, stats).map_err(internal)?;
    let nexcl: Vec<Robj> = tr
        .synthesis
        .iter()
        .map(|s| {
            let tables: Vec<Robj> = (0..N_TABLES)
                .map(|k| {
                    let mut v: Vec<f64> = s.removed[k].iter().map(|&x| x as f64).collect();
                    v.push(s.total[k] as f64);
                    Robj::from(v)
                })
                .collect();
            List::from_names_and_values(TABLE_NAMES, tables).map(Robj::from).map_err(internal)
        })
        .collect::<GlueResult<_>>()?;
    let one_way: Vec<Robj> = tr
        .synthesis
        .iter()
        .map(|s| {
            let w = &s.one_way;
            named_list(
                ["level", "n_level_dis", "total_disclosive", "level_orig", "all_orig"],
                [
                    Robj::from(w.level.map_or(f64::NAN, |l| l as f64 + 1.0)),
                    Robj::from(w.n_level_dis as f64),
                    Robj::from(w.total_disclosive as f64),
                    Robj::from(w.level_orig as f64),
                    Robj::from(w.all_orig as f64),
                ],
            )
        })
        .collect::<GlueResult<_>>()?;
    let two_way: Vec<Robj> = tr.synthesis.iter().map(|s| two_way_robj(&s.two_way)).collect::<GlueResult<_>>()?;
    let tau_syn: Vec<f64> = tr.synthesis.iter().flat_map(|s| s.tau_syn.iter().copied()).collect();
    let tau_orig: Vec<f64> = tr.synthesis.iter().flat_map(|s| s.tau_orig.iter().copied()).collect();
    named_list(
        ["stats", "nexcl", "one_way", "two_way", "tau_syn", "tau_orig"],
        [
            stats.into(),
            List::from_values(nexcl).into(),
            List::from_values(one_way).into(),
            List::from_values(two_way).into(),
            Robj::from(tau_syn),
            Robj::from(tau_orig),
        ],
    )
}

/// `plan`: NULL (dataset 0 against all others) or a list of `original` (0-based
/// dataset), `syntheses` (a list of `dataset` and `rows`, NULL or 1-based rows of a
/// subsample) and `tau` (a double vector, possibly empty).
fn plan_of(plan: &Robj, n_datasets: usize) -> GlueResult<Plan> {
    if plan.is_null() {
        return Ok(Plan::standard(n_datasets));
    }
    let plan = as_list(plan.clone(), "plan")?;
    let syntheses = as_list(field(&plan, "syntheses")?, "plan$syntheses")?
        .values()
        .map(|v| {
            let v = as_list(v, "plan$syntheses[[i]]")?;
            let rows = field(&v, "rows")?;
            let rows = if rows.is_null() {
                None
            } else {
                Some(
                    int_slice(&rows, "rows")?
                        .iter()
                        .map(|&r| {
                            u32::try_from(r as i64 - 1).map_err(|_| internal(format!("subsample row {r} is not a row")))
                        })
                        .collect::<GlueResult<Vec<u32>>>()?,
                )
            };
            Ok(SynthesisView { dataset: index_scalar(&field(&v, "dataset")?, "dataset")?, rows })
        })
        .collect::<GlueResult<Vec<_>>>()?;
    let tau = field(&plan, "tau")?;
    let tau = if tau.is_null() {
        TauGrid::default()
    } else {
        TauGrid::new(tau.as_real_slice().ok_or_else(|| internal("`tau` must be a double vector"))?)?
    };
    Ok(Plan { original: index_scalar(&field(&plan, "original")?, "original")?, syntheses, tau })
}

fn two_way_robj(p: &[synthrisk_core::checks::PairCount]) -> GlueResult<Robj> {
    named_list(
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
}

fn compute_impl(encoded: Robj, keys: Robj, use_keys_na: Robj, targets: List, n_threads: i32, plan: Robj) -> GlueResult<Robj> {
    let workers = n_threads_of(n_threads)?;
    let ptr: ExternalPtr<Encoded> = ExternalPtr::try_from(encoded).map_err(|_| internal("not an encoding of synthrisk"))?;
    let vars = &ptr.try_addr().map_err(|_| internal("the encoding was released"))?.0;
    let keys = index_vec(&keys, "keys")?;
    let use_na = logical_vec(&use_keys_na, "use_keys_na")?;
    let requests: Vec<TargetRequest> =
        targets.values().map(|t| target_request(as_list(t, "target")?)).collect::<GlueResult<_>>()?;
    let plan = plan_of(&plan, vars.first().map_or(0, |v| v.codes.len()))?;
    let results = run_plan(&workers, vars, &keys, &use_na, &requests, &plan, &user_interrupt)?;

    let out: Vec<Robj> = results.iter().map(target_result_robj).collect::<GlueResult<_>>()?;
    Ok(List::from_values(out).into())
}

/// Computes every measure for all targets and the syntheses of a plan on an encoding.
/// @noRd
#[extendr]
fn rust_compute(encoded: Robj, keys: Robj, use_keys_na: Robj, targets: List, n_threads: i32, plan: Robj) -> Robj {
    compute_impl(encoded, keys, use_keys_na, targets, n_threads, plan).unwrap_or_else(error_robj)
}

/// `encoded`: NULL or an encoding whose variables `exact` (0-based) are matched
/// exactly; `radius_values`: per numeric variable matched within a radius, a list of
/// double vectors (original first), with `radius` and `relative` per variable.
fn identification_impl(
    encoded: Robj,
    exact: Robj,
    radius_values: List,
    radius: Robj,
    relative: Robj,
    n_threads: i32,
) -> GlueResult<Robj> {
    let workers = n_threads_of(n_threads)?;
    let exact = index_vec(&exact, "exact")?;
    let ptr: Option<ExternalPtr<Encoded>> = if encoded.is_null() {
        None
    } else {
        Some(ExternalPtr::try_from(encoded).map_err(|_| internal("not an encoding of synthrisk"))?)
    };
    let empty: Vec<EncodedVar> = Vec::new();
    let vars = match &ptr {
        Some(p) => &p.try_addr().map_err(|_| internal("the encoding was released"))?.0,
        None => &empty,
    };
    if exact.iter().any(|&k| k >= vars.len()) {
        return Err(internal("exact variable out of range"));
    }
    let exact_codes: Vec<&[Vec<u32>]> = exact.iter().map(|&k| vars[k].codes.as_slice()).collect();
    let levels: Vec<u32> = exact.iter().map(|&k| vars[k].n_levels).collect();
    let radius = radius.as_real_slice().ok_or_else(|| internal("`radius` must be doubles"))?;
    let relative = logical_vec(&relative, "relative")?;
    let columns: Vec<Vec<Robj>> =
        radius_values.values().map(|v| Ok(as_list(v, "radius_values[[i]]")?.values().collect())).collect::<GlueResult<_>>()?;
    if columns.len() != radius.len() || columns.len() != relative.len() {
        return Err(internal("one radius and one relative flag per numeric variable"));
    }
    let radius_vars: Vec<RadiusVar<'_>> = columns
        .iter()
        .zip(radius)
        .zip(&relative)
        .map(|((cols, &r), &rel)| {
            let values = cols
                .iter()
                .map(|c| c.as_real_slice().ok_or_else(|| internal("numeric columns must be doubles")))
                .collect::<GlueResult<Vec<&[f64]>>>()?;
            Ok(RadiusVar { values, radius: r, relative: rel })
        })
        .collect::<GlueResult<_>>()?;
    let results = identification(&workers, &exact_codes, &levels, &radius_vars, &user_interrupt)?;
    let out: Vec<Robj> = results
        .iter()
        .map(|r| {
            named_list(
                ["c", "t"],
                [
                    Robj::from(r.c.iter().map(|&c| c as i32).collect::<Vec<i32>>()),
                    Robj::from(r.t.iter().map(|&t| Rbool::from(t)).collect::<Vec<Rbool>>()),
                ],
            )
        })
        .collect::<GlueResult<_>>()?;
    Ok(List::from_values(out).into())
}

/// Matches of each original record among the synthetic records, per synthesis.
/// @noRd
#[extendr]
fn rust_identification(encoded: Robj, exact: Robj, radius_values: List, radius: Robj, relative: Robj, n_threads: i32) -> Robj {
    identification_impl(encoded, exact, radius_values, radius, relative, n_threads).unwrap_or_else(error_robj)
}

fn record_keys_impl(encoded: Robj, keys: Robj, n_threads: i32) -> GlueResult<Robj> {
    let workers = n_threads_of(n_threads)?;
    let ptr: ExternalPtr<Encoded> = ExternalPtr::try_from(encoded).map_err(|_| internal("not an encoding of synthrisk"))?;
    let vars = &ptr.try_addr().map_err(|_| internal("the encoding was released"))?.0;
    let keys = index_vec(&keys, "keys")?;
    if keys.iter().any(|&k| k >= vars.len()) {
        return Err(internal("key index out of range"));
    }
    let codes: Vec<&[Vec<u32>]> = keys.iter().map(|&k| vars[k].codes.as_slice()).collect();
    let levels: Vec<u32> = keys.iter().map(|&k| vars[k].n_levels).collect();
    let r = record_keys(&workers, &codes, &levels, &user_interrupt)?;
    let to_r = |v: &Vec<u32>, plus: i32| Robj::from(v.iter().map(|&x| x as i32 + plus).collect::<Vec<i32>>());
    named_list(
        ["q", "counts"],
        [
            List::from_values(r.q.iter().map(|q| to_r(q, 1))).into(),
            List::from_values(r.counts.iter().map(|c| to_r(c, 0))).into(),
        ],
    )
}

/// Each record's q (1-based) per dataset, and per dataset the rows of each q.
/// @noRd
#[extendr]
fn rust_record_keys(encoded: Robj, keys: Robj, n_threads: i32) -> Robj {
    record_keys_impl(encoded, keys, n_threads).unwrap_or_else(error_robj)
}

fn records_impl(encoded: Robj, keys: Robj, use_keys_na: Robj, target: List, n_threads: i32) -> GlueResult<Robj> {
    let workers = n_threads_of(n_threads)?;
    let ptr: ExternalPtr<Encoded> = ExternalPtr::try_from(encoded).map_err(|_| internal("not an encoding of synthrisk"))?;
    let vars = &ptr.try_addr().map_err(|_| internal("the encoding was released"))?.0;
    let keys = index_vec(&keys, "keys")?;
    let use_na = logical_vec(&use_keys_na, "use_keys_na")?;
    let request = target_request(target)?;
    let per_synthesis = records(&workers, vars, &keys, &use_na, request.var, &request.spec, &user_interrupt)?;
    let ints = |v: &[u32]| Robj::from(v.iter().map(|&x| x as i32).collect::<Vec<i32>>());
    let bools = |v: &[bool]| Robj::from(v.iter().map(|&x| Rbool::from(x)).collect::<Vec<Rbool>>());
    let steps = |v: &[u8]| Robj::from(v.iter().map(|&x| x as i32).collect::<Vec<i32>>());
    let out: Vec<Robj> = per_synthesis
        .iter()
        .map(|(o, s)| {
            let original = named_list(
                ["d_q", "s_q", "q_in_syn", "excluded", "pd_one", "ps_one", "cap"],
                [ints(&o.d_q), ints(&o.s_q), bools(&o.q_in_syn), steps(&o.excluded), bools(&o.pd_one), bools(&o.ps_one),
                 Robj::from(o.cap.clone())],
            )?;
            let synthetic = named_list(
                ["s_q", "d_q", "excluded", "weap", "tcap"],
                [ints(&s.s_q), ints(&s.d_q), steps(&s.excluded), Robj::from(s.weap.clone()), Robj::from(s.tcap.clone())],
            )?;
            named_list(["original", "synthetic"], [original, synthetic])
        })
        .collect::<GlueResult<_>>()?;
    Ok(List::from_values(out).into())
}

/// Record-level counts and flags of one target, per synthesis.
/// @noRd
#[extendr]
fn rust_records(encoded: Robj, keys: Robj, use_keys_na: Robj, target: List, n_threads: i32) -> Robj {
    records_impl(encoded, keys, use_keys_na, target, n_threads).unwrap_or_else(error_robj)
}


extendr_module! {
    mod synthrisk;
    fn rust_encode_variables;
    fn rust_merge_numeric_levels;
    fn rust_compute;
    fn rust_identification;
    fn rust_record_keys;
    fn rust_records;
}
