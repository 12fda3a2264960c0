//! The disclosure measures of every target and synthesis of a plan: the request (per
//! target its exclusions, the plan of syntheses and tau grid) read from R, the core's
//! results returned with every number named.

use crate::encoding::{encoded_vars, var_indices};
use crate::protocol::*;
use extendr_api::prelude::*;
use synthrisk_core::checks::PairCount;
use synthrisk_core::encode::EncodedVar;
use synthrisk_core::engine::{run_plan, SynthesisResult, TargetRequest, TargetResult};
use synthrisk_core::exclusions::{ExclusionSpec, KeyTargetExclusion, TABLE_NAMES};
use synthrisk_core::measures::MEASURE_NAMES;
use synthrisk_core::plan::{Plan, SynthesisView, TauGrid};

/// `denom_lim`: NA for no limit, else a count >= 0 (`Inf` never excludes; a fraction
/// compares as its floor, as a count above it is above the floor).
fn denom_lim_of(x: &Robj) -> GlueResult<Option<u64>> {
    if let Some(v) = x.as_integer_slice() {
        return match v {
            [v] if *v == i32::MIN => Ok(None),
            [v] => u64::try_from(*v).map(Some).map_err(|_| internal(format!("`denom_lim` is {v}"))),
            _ => Err(internal("`denom_lim` must be one number")),
        };
    }
    match x.as_real_slice() {
        Some([v]) if v.is_nan() => Ok(None),
        Some([v]) if *v == f64::INFINITY => Ok(Some(u64::MAX)),
        Some([v]) if *v >= 0.0 && *v < u64::MAX as f64 => Ok(Some(v.floor() as u64)),
        Some([v]) => Err(internal(format!("`denom_lim` is {v}"))),
        _ => Err(internal("`denom_lim` must be one number")),
    }
}

/// One target of the request: `var` (0-based), `excluded_target` (a flag per level),
/// `exclude_missing_target`, `target_missing_code`, the key/target exclusions
/// `kt_key`, `kt_key_level`, `kt_target_level` (0-based, same lengths), `denom_lim`
/// and `twoway_min_cell`.
///
/// A request made before the encoding (in the same call as it) gives `use_target_na`
/// instead of `exclude_missing_target` and `target_missing_code`, and may give no
/// `excluded_target` (none excluded): they are read off the encoded target by
/// `complete_request()`.
pub fn target_request(x: &Robj, what: &str) -> GlueResult<TargetRequest> {
    let f = Fields::new(x, what)?;
    if let Some(use_na) = f.optional::<bool>("use_target_na")? {
        let mut request = target_request_of(&f, what, false, 0)?;
        // Marked for completion: the missing target is excluded unless it is used.
        request.spec.exclude_missing_target = !use_na;
        request.spec.target_missing_code = u32::MAX;
        return Ok(request);
    }
    target_request_of(&f, what, f.get("exclude_missing_target")?, f.get("target_missing_code")?)
}

/// A request made before the encoding, completed from the encoded target: levels none
/// excluded when `excluded_target` is empty, the missing code, and whether missing
/// target values are excluded (only if the plan's original has any).
fn complete_request(request: &mut TargetRequest, vars: &[EncodedVar<'_>], original: usize) -> GlueResult<()> {
    if request.spec.target_missing_code != u32::MAX {
        return Ok(());
    }
    let v = vars.get(request.var).ok_or_else(|| internal(format!("target variable {}", request.var)))?;
    if request.spec.excluded_target.is_empty() {
        request.spec.excluded_target = vec![false; v.n_levels as usize];
    }
    request.spec.target_missing_code = v.missing_code;
    request.spec.exclude_missing_target &= v.has_missing.get(original).copied().unwrap_or(false);
    Ok(())
}

fn target_request_of(
    f: &Fields,
    what: &str,
    exclude_missing_target: bool,
    target_missing_code: u32,
) -> GlueResult<TargetRequest> {
    let keys = f.get::<Vec<usize>>("kt_key")?;
    let key_levels = f.get::<Vec<u32>>("kt_key_level")?;
    let target_levels = f.get::<Vec<u32>>("kt_target_level")?;
    if keys.len() != key_levels.len() || keys.len() != target_levels.len() {
        return Err(internal(format!("`{what}` has key/target exclusions of different lengths")));
    }
    let key_target = keys
        .into_iter()
        .zip(key_levels)
        .zip(target_levels)
        .map(|((key, key_level), target_level)| KeyTargetExclusion { key, key_level, target_level })
        .collect();
    Ok(TargetRequest {
        var: f.get("var")?,
        spec: ExclusionSpec {
            excluded_target: f.get("excluded_target")?,
            exclude_missing_target,
            target_missing_code,
            key_target,
            denom_lim: denom_lim_of(&f.robj("denom_lim")?)?,
        },
        twoway_min_cell: f.get("twoway_min_cell")?,
    })
}

/// `plan`: NULL (dataset 0 against all others) or a list of `original` (0-based
/// dataset), `syntheses` (a list of `dataset` and `rows`, NULL or 1-based rows of a
/// subsample) and `tau` (NULL or doubles).
fn plan_of(plan: &Robj, n_datasets: usize) -> GlueResult<Plan> {
    if plan.is_null() {
        return Ok(Plan::standard(n_datasets));
    }
    let f = Fields::new(plan, "plan")?;
    let syntheses = f
        .items("syntheses")?
        .iter()
        .map(|v| {
            let view = Fields::new(v, "plan$syntheses[[i]]")?;
            let rows = view.robj("rows")?;
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
            Ok(SynthesisView { dataset: view.get("dataset")?, rows })
        })
        .collect::<GlueResult<Vec<_>>>()?;
    let tau = match f.get::<Option<Vec<f64>>>("tau")? {
        None => TauGrid::default(),
        Some(t) => TauGrid::new(&t)?,
    };
    // Counted cells (optional): per dataset NULL or the records each row stands for.
    let weights = match f.optional::<List>("weights")? {
        None => Vec::new(),
        Some(w) => w
            .values()
            .enumerate()
            .map(|(d, x)| {
                let what = format!("plan$weights[[{}]]", d + 1);
                match Option::<Vec<usize>>::from_robj(&x, &what)? {
                    None => Ok(None),
                    Some(v) => v
                        .into_iter()
                        .map(|n| u32::try_from(n).map_err(|_| internal(format!("`{what}` has {n}"))))
                        .collect::<GlueResult<Vec<u32>>>()
                        .map(Some),
                }
            })
            .collect::<GlueResult<_>>()?,
    };
    Ok(Plan { original: f.get("original")?, syntheses, tau, weights })
}

/// The pairs of every synthesis as columns, with the synthesis (1-based) of each.
fn two_way_robj(synthesis: &[SynthesisResult]) -> GlueResult<Robj> {
    let pairs = || synthesis.iter().enumerate().flat_map(|(j, s)| s.two_way.iter().map(move |p| (j, p)));
    let column = |f: fn(&PairCount) -> u64| counts_robj(pairs().map(|(_, p)| f(p)));
    named_list(
        ["synthesis", "key", "key_level", "target_level", "npairs", "key_target_total", "key_total"],
        [
            one_based_robj(pairs().map(|(j, _)| j as u32)),
            one_based_robj(pairs().map(|(_, p)| p.key as u32)),
            one_based_robj(pairs().map(|(_, p)| p.key_level)),
            one_based_robj(pairs().map(|(_, p)| p.target_level)),
            column(|p| p.npairs),
            column(|p| p.key_target_total),
            column(|p| p.key_total),
        ],
    )
}

/// Per table, for each synthesis in turn, the records each exclusion step removed and
/// then the table's total.
fn exclusions_robj(synthesis: &[SynthesisResult]) -> GlueResult<Robj> {
    let tables: Vec<Robj> = (0..TABLE_NAMES.len())
        .map(|k| counts_robj(synthesis.iter().flat_map(|s| s.removed[k].iter().copied().chain([s.total[k]]))))
        .collect();
    List::from_names_and_values(TABLE_NAMES, tables).map(Robj::from).map_err(internal)
}

/// Per synthesis: the level with most disclosive records (1-based, NaN for none) and
/// the counts, as columns.
fn one_way_robj(synthesis: &[SynthesisResult]) -> GlueResult<Robj> {
    let column = |f: fn(&SynthesisResult) -> u64| counts_robj(synthesis.iter().map(f));
    named_list(
        ["level", "n_level_dis", "total_disclosive", "level_orig", "all_orig"],
        [
            Robj::from(
                synthesis.iter().map(|s| s.one_way.level.map_or(f64::NAN, |l| l as f64 + 1.0)).collect::<Vec<f64>>(),
            ),
            column(|s| s.one_way.n_level_dis),
            column(|s| s.one_way.total_disclosive),
            column(|s| s.one_way.level_orig),
            column(|s| s.one_way.all_orig),
        ],
    )
}

/// One target's results, every part named, each a column over the syntheses: `stats`
/// (per measure, its value in each synthesis), `nexcl` (per table, per synthesis the
/// records each step removed and the table's total), `one_way` (per synthesis, the
/// level with most disclosive records and the counts), `two_way` (the pairs of all
/// syntheses, with the synthesis of each) and the tau curve.
fn target_result_robj(tr: &TargetResult) -> GlueResult<Robj> {
    let per_synthesis: Vec<Vec<(&str, f64)>> = tr.synthesis.iter().map(|s| s.measures.named()).collect();
    let stats: Vec<Robj> = (0..MEASURE_NAMES.len())
        .map(|i| Robj::from(per_synthesis.iter().map(|m| m[i].1).collect::<Vec<f64>>()))
        .collect();
    let stats = List::from_names_and_values(MEASURE_NAMES, stats).map_err(internal)?;
    let tau_syn: Vec<f64> = tr.synthesis.iter().flat_map(|s| s.tau_syn.iter().copied()).collect();
    let tau_orig: Vec<f64> = tr.synthesis.iter().flat_map(|s| s.tau_orig.iter().copied()).collect();
    named_list(
        ["stats", "nexcl", "one_way", "two_way", "tau_syn", "tau_orig"],
        [
            stats.into(),
            exclusions_robj(&tr.synthesis)?,
            one_way_robj(&tr.synthesis)?,
            two_way_robj(&tr.synthesis)?,
            Robj::from(tau_syn),
            Robj::from(tau_orig),
        ],
    )
}

pub fn compute(
    encoded: Robj,
    keys: Robj,
    use_keys_na: Robj,
    targets: Robj,
    n_threads: i32,
    plan: Robj,
) -> GlueResult<Robj> {
    let vars = encoded_vars(&encoded)?;
    let keys = var_indices(vars, &keys, "keys")?;
    let use_na = Vec::<bool>::from_robj(&use_keys_na, "use_keys_na")?;
    let mut requests: Vec<TargetRequest> = List::from_robj(&targets, "targets")?
        .values()
        .enumerate()
        .map(|(i, t)| target_request(&t, &format!("targets[[{}]]", i + 1)))
        .collect::<GlueResult<_>>()?;
    let plan = plan_of(&plan, vars.first().map_or(0, |v| v.codes.len()))?;
    for request in &mut requests {
        complete_request(request, vars, plan.original)?;
    }
    // Rows counted: the original and each synthesis of the plan, once per target.
    let dataset_rows = vars.first().map_or_else(Vec::new, |v| v.dataset_rows());
    plan.validate(&dataset_rows)?;
    let view_rows: usize = plan.syntheses.iter().map(|v| v.n_rows(dataset_rows[v.dataset])).sum();
    let work_rows = (dataset_rows[plan.original] + view_rows) * requests.len();
    let workers = workers_for(n_threads, work_rows)?;
    let results = run_plan(&workers, vars, &keys, &use_na, &requests, &plan, &user_interrupt)?;
    let out: Vec<Robj> = results.iter().map(target_result_robj).collect::<GlueResult<_>>()?;
    Ok(List::from_values(out).into())
}

/// Encodes the variables and, in the same call, runs each of `calls` (a list of
/// `keys`, `use_keys_na`, `targets`, `plan`, as `compute` takes them) on the new
/// encoding, unless a double variable has levels that R must compare by label
/// (`close_pairs`): then `raw` is NULL and R merges those levels before computing.
pub fn encode_compute(vars: Robj, n_threads: i32, calls: Robj) -> GlueResult<Robj> {
    let encoding = crate::encoding::encode(vars, n_threads)?;
    let parts = Fields::new(&encoding, "encoding")?;
    let info = parts.items("info")?;
    let mut alike = false;
    for (i, v) in info.iter().enumerate() {
        let close = Fields::new(v, &format!("info[[{}]]", i + 1))?.robj("close_pairs")?;
        alike |= close.len() > 0;
    }
    if calls.is_null() || alike {
        return named_list(["encoding", "raw"], [encoding, Robj::from(())]);
    }
    let ptr = parts.robj("ptr")?;
    let raw: Vec<Robj> = List::from_robj(&calls, "calls")?
        .values()
        .enumerate()
        .map(|(i, c)| {
            let call = Fields::new(&c, &format!("calls[[{}]]", i + 1))?;
            compute(ptr.clone(), call.robj("keys")?, call.robj("use_keys_na")?, call.robj("targets")?, n_threads,
                    call.robj("plan")?)
        })
        .collect::<GlueResult<_>>()?;
    named_list(["encoding", "raw"], [encoding, List::from_values(raw).into()])
}
