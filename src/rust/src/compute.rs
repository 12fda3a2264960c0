//! The disclosure measures of every target and synthesis of a plan: the request (per
//! target its exclusions, the plan of syntheses and tau grid) read from R, the core's
//! results returned with every number named.

use crate::encoding::{encoded_vars, var_indices};
use crate::protocol::*;
use crate::r_lists::{Column, ResultList};
use extendr_api::prelude::*;
use results::{EncodedAndCounted, OneWayLevels, TargetCounts, TwoWayPairs};
use std::sync::Arc;
use synthrisk_core::checks::PairCount;
use synthrisk_core::encode::EncodedVar;
use synthrisk_core::engine::{run_plan, run_plan_indexed, CountRequest, SynthesisResult, TargetRequest, TargetResult};
use synthrisk_core::exclusions::{ExclusionSpec, KeyTargetExclusion, TABLE_NAMES};
use synthrisk_core::keys::KeyIndex;
use synthrisk_core::measures::MEASURE_NAMES;
use synthrisk_core::plan::{Plan, SynthesisView, TauGrid};
pub(crate) use wire::{ComputeRequest, EncodeComputeRequest, TargetWire};
use wire::{CountCall, PlanWire};

fn non_negative<T: TryFrom<i64>>(v: i64, what: &str) -> GlueResult<T> {
    T::try_from(v).map_err(|_| internal(format!("`{what}` has {v}, must be >= 0")))
}

fn indices<T: TryFrom<i64>>(v: &[i32], what: &str) -> GlueResult<Vec<T>> {
    v.iter()
        .map(|&x| if x == i32::MIN { Err(internal(format!("`{what}` has NA"))) } else { non_negative(x as i64, what) })
        .collect()
}

/// `denom_lim`: NA for no limit, else a count >= 0 (`Inf` never excludes; a fraction
/// compares as its floor, as a count above it is above the floor).
fn denom_lim_of(x: Option<f64>) -> GlueResult<Option<u64>> {
    match x {
        None => Ok(None),
        Some(v) if v == f64::INFINITY => Ok(Some(u64::MAX)),
        Some(v) if v >= 0.0 && v < u64::MAX as f64 => Ok(Some(v.floor() as u64)),
        Some(v) => Err(internal(format!("`denom_lim` is {v}"))),
    }
}

/// One target's request as R sends it, completed from the encoded target: its excluded
/// levels as flags, its missing code, and whether missing target values are excluded
/// (with `use_target_na` FALSE, only if the plan's `original` has any).
pub fn target_request(
    w: &TargetWire,
    what: &str,
    vars: &[EncodedVar<'_>],
    original: usize,
) -> GlueResult<TargetRequest> {
    let var = usize::try_from(w.var).map_err(|_| internal(format!("`{what}$var` is {}", w.var)))?;
    let v = vars.get(var).ok_or_else(|| internal(format!("`{what}$var` is {var}, beyond the encoded variables")))?;
    let twoway_min_cell =
        w.twoway_min_cell.ok_or_else(|| internal(format!("`{what}$twoway_min_cell` must be one number, not NA")))?;
    let mut excluded_target = vec![false; v.n_levels as usize];
    for level in indices::<usize>(&w.excluded_levels, &format!("{what}$excluded_levels"))? {
        *excluded_target
            .get_mut(level)
            .ok_or_else(|| internal(format!("`{what}$excluded_levels` has {level}, beyond the target's levels")))? =
            true;
    }
    let keys: Vec<usize> = indices(&w.kt_key, what)?;
    let key_levels: Vec<u32> = indices(&w.kt_key_level, what)?;
    let target_levels: Vec<u32> = indices(&w.kt_target_level, what)?;
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
        var,
        spec: ExclusionSpec {
            excluded_target,
            exclude_missing_target: !w.use_target_na && v.has_missing.get(original).copied().unwrap_or(false),
            target_missing_code: v.missing_code,
            key_target,
            denom_lim: denom_lim_of(w.denom_lim)?,
        },
        twoway_min_cell,
    })
}

/// `plan`: NULL (dataset 0 against all others) or a `PlanWire`.
fn plan_of(plan: Option<PlanWire>, n_datasets: usize) -> GlueResult<Plan> {
    let Some(w) = plan else {
        return Ok(Plan::standard(n_datasets));
    };
    let syntheses = w
        .syntheses
        .into_iter()
        .enumerate()
        .map(|(i, view)| {
            let what = format!("plan$syntheses[[{}]]", i + 1);
            Ok(SynthesisView {
                dataset: non_negative(view.dataset as i64, &what)?,
                rows: view.rows.map(|r| r.0),
                repeats: view.repeats.unwrap_or(false),
            })
        })
        .collect::<GlueResult<Vec<_>>>()?;
    let tau = match &w.tau {
        None => TauGrid::default(),
        Some(t) => TauGrid::new(t)?,
    };
    // Counted cells (optional): per dataset NULL or the records each row stands for.
    let weights = match &w.weights {
        None => Vec::new(),
        Some(per_dataset) => per_dataset
            .iter()
            .enumerate()
            .map(|(d, x)| match x {
                None => Ok(None),
                Some(v) => indices::<u32>(v, &format!("plan$weights[[{}]]", d + 1)).map(Some),
            })
            .collect::<GlueResult<_>>()?,
    };
    Ok(Plan { original: non_negative(w.original as i64, "plan$original")?, syntheses, tau, weights })
}

/// The pairs of every synthesis as columns, with the synthesis (1-based) of each.
fn two_way_pairs(synthesis: &[SynthesisResult]) -> TwoWayPairs {
    let pairs = || synthesis.iter().enumerate().flat_map(|(j, s)| s.two_way.iter().map(move |p| (j, p)));
    let column = |f: fn(&PairCount) -> u64| counts(pairs().map(|(_, p)| f(p)));
    TwoWayPairs {
        synthesis: one_based(pairs().map(|(j, _)| j as u32)),
        key: one_based(pairs().map(|(_, p)| p.key as u32)),
        key_level: one_based(pairs().map(|(_, p)| p.key_level)),
        target_level: one_based(pairs().map(|(_, p)| p.target_level)),
        npairs: column(|p| p.npairs),
        key_target_total: column(|p| p.key_target_total),
        key_total: column(|p| p.key_total),
    }
}

/// Per table, for each synthesis in turn, the records each exclusion step removed and
/// then the table's total.
fn exclusions_list(synthesis: &[SynthesisResult]) -> GlueResult<ResultList> {
    let tables: Vec<Column> = (0..TABLE_NAMES.len())
        .map(|k| counts(synthesis.iter().flat_map(|s| s.removed[k].iter().copied().chain([s.total[k]]))).into())
        .collect();
    ResultList::named(TABLE_NAMES.to_vec(), tables)
}

/// Per synthesis: the level with most disclosive records (1-based, NaN for none) and
/// the counts, as columns.
fn one_way_levels(synthesis: &[SynthesisResult]) -> OneWayLevels {
    let column = |f: fn(&SynthesisResult) -> u64| counts(synthesis.iter().map(f));
    OneWayLevels {
        level: synthesis.iter().map(|s| s.one_way.level.map_or(f64::NAN, |l| l as f64 + 1.0)).collect(),
        n_level_dis: column(|s| s.one_way.n_level_dis),
        total_disclosive: column(|s| s.one_way.total_disclosive),
        level_orig: column(|s| s.one_way.level_orig),
        all_orig: column(|s| s.one_way.all_orig),
    }
}

/// One target's results, every part named, each a column over the syntheses: `stats`
/// (per measure, its value in each synthesis), `nexcl` (per table, per synthesis the
/// records each step removed and the table's total), `one_way` (per synthesis, the
/// level with most disclosive records and the counts), `two_way` (the pairs of all
/// syntheses, with the synthesis of each) and the tau curve.
fn target_result_list(tr: &TargetResult) -> GlueResult<ResultList> {
    let per_synthesis: Vec<Vec<(&str, f64)>> = tr.synthesis.iter().map(|s| s.measures.named()).collect();
    let stats: Vec<Column> =
        (0..MEASURE_NAMES.len()).map(|i| per_synthesis.iter().map(|m| m[i].1).collect::<Vec<f64>>().into()).collect();
    Ok(TargetCounts {
        stats: ResultList::named(MEASURE_NAMES.to_vec(), stats)?,
        nexcl: exclusions_list(&tr.synthesis)?,
        one_way: one_way_levels(&tr.synthesis).into(),
        two_way: two_way_pairs(&tr.synthesis).into(),
        tau_syn: tr.synthesis.iter().flat_map(|s| s.tau_syn.iter().copied()).collect(),
        tau_orig: tr.synthesis.iter().flat_map(|s| s.tau_orig.iter().copied()).collect(),
    }
    .into())
}

/// Every target and synthesis of `request`'s plan counted on `encoded` (an encoding's
/// handle). Returns per target its `TargetCounts`.
pub fn compute(encoded: Robj, request: ComputeRequest) -> GlueResult<Robj> {
    let ComputeRequest { keys, use_keys_na, targets, plan, n_threads } = request;
    count(encoded_vars(&encoded)?, CountCall { keys, use_keys_na, targets, plan }, n_threads, None)
}

/// Counts `call` on `vars`, with `index` the index of its keys (the variables
/// `.1`) when made already.
fn count(
    vars: &[EncodedVar<'_>],
    call: CountCall,
    n_threads: i32,
    index: Option<(Arc<KeyIndex>, &[usize])>,
) -> GlueResult<Robj> {
    let keys = var_indices(vars, &call.keys, "keys")?;
    let use_na = &call.use_keys_na;
    let plan = plan_of(call.plan, vars.first().map_or(0, |v| v.codes.len()))?;
    let requests: Vec<TargetRequest> = call
        .targets
        .iter()
        .enumerate()
        .map(|(i, t)| target_request(t, &format!("targets[[{}]]", i + 1), vars, plan.original))
        .collect::<GlueResult<_>>()?;
    // Rows counted: the original and each synthesis of the plan, once per target.
    let dataset_rows = vars.first().map_or_else(Vec::new, |v| v.dataset_rows());
    plan.validate(&dataset_rows)?;
    let view_rows: usize = plan.syntheses.iter().map(|v| v.n_rows(dataset_rows[v.dataset])).sum();
    let work_rows = (dataset_rows[plan.original] + view_rows) * requests.len();
    let workers = workers_for(n_threads, work_rows)?;
    let request = CountRequest { vars, keys: &keys, use_keys_na: use_na, targets: &requests, plan: &plan };
    let results = synthrisk_core::phase!(
        "counted (run_plan)",
        match index {
            Some((index, index_keys)) => run_plan_indexed(&workers, &request, index, index_keys, &user_interrupt)?,
            None => run_plan(&workers, &request, &user_interrupt)?,
        }
    );
    let out: Vec<Column> = synthrisk_core::phase!(
        "results made R's",
        results.iter().map(|r| target_result_list(r).map(Column::from)).collect::<GlueResult<_>>()?
    );
    Ok(ResultList::unnamed(out).into_robj())
}

/// Encodes the variables `vars` (the handle, as `rust_encode_variables` takes them)
/// and, in the same call, counts each of `request.calls` (a `CountCall`) on the new
/// encoding, unless a double variable has levels that R must compare by label
/// (`close_pairs`): then `raw` is NULL and R merges those levels before counting.
pub fn encode_compute(vars: Robj, request: EncodeComputeRequest) -> GlueResult<Robj> {
    // A small call's crossing is a dozen short trips to the pool: its threads stay
    // awake between them.
    workers(request.n_threads)?.with_threads_awake(|| encode_and_count(vars, request))
}

fn encode_and_count(vars: Robj, request: EncodeComputeRequest) -> GlueResult<Robj> {
    let EncodeComputeRequest { n_threads, calls } = request;
    // The keys of the first call are indexed with the encoding; the calls on the same
    // keys (a request's plans share them) count with that index.
    let keys: Option<Vec<usize>> = calls
        .as_ref()
        .and_then(|c| c.first())
        .map(|c| c.keys.iter().map(|&k| usize::try_from(k).map_err(|_| internal(format!("key {k}")))).collect())
        .transpose()?;
    let mut encoding = synthrisk_core::phase!(
        "encoded (R's columns read)",
        crate::encoding::encode_vars(vars, n_threads, keys.as_deref())?
    );
    let calls = match calls {
        Some(calls) if !encoding.look_alike => calls,
        _ => return Ok(EncodedAndCounted { encoding: encoding.into_robj(), raw: Robj::from(()) }.into()),
    };
    let index = encoding.key_index.take().map(Arc::new);
    let vars = encoded_vars(&encoding.ptr)?;
    let raw: Vec<Robj> = calls
        .into_iter()
        .map(|call| {
            let same_keys = keys.as_ref().is_some_and(|k| call.keys.iter().map(|&i| i as usize).eq(k.iter().copied()));
            let given = index.clone().zip(keys.as_deref()).filter(|_| same_keys);
            count(vars, call, n_threads, given)
        })
        .collect::<GlueResult<_>>()?;
    Ok(EncodedAndCounted { encoding: encoding.into_robj(), raw: List::from_values(raw).into() }.into())
}

/// What this topic returns, each a named list of its fields in this order (extendr's
/// `IntoList`); R reads them by name (R/disclosure-result.R, R/run-request.R).
mod results {
    use extendr_api::{IntoList, Robj};

    use crate::r_lists::{result_list, ResultList};

    result_list! {
        /// One target's results (`target_result_list`), built on R's protect stack
        /// (r_lists.rs: a small call's results are hundreds of small vectors): `stats`
        /// and `nexcl` are named by the core's registries (`MEASURE_NAMES`,
        /// `TABLE_NAMES`).
        pub(crate) struct TargetCounts {
            pub(crate) stats: ResultList,
            pub(crate) nexcl: ResultList,
            pub(crate) one_way: ResultList,
            pub(crate) two_way: ResultList,
            pub(crate) tau_syn: Vec<f64>,
            pub(crate) tau_orig: Vec<f64>,
        }
    }

    result_list! {
        /// The 2-way check's pairs of every synthesis, as columns (indices 1-based,
        /// counts as doubles).
        pub(crate) struct TwoWayPairs {
            pub(crate) synthesis: Vec<i32>,
            pub(crate) key: Vec<i32>,
            pub(crate) key_level: Vec<i32>,
            pub(crate) target_level: Vec<i32>,
            pub(crate) npairs: Vec<f64>,
            pub(crate) key_target_total: Vec<f64>,
            pub(crate) key_total: Vec<f64>,
        }
    }

    result_list! {
        /// The 1-way check's inputs per synthesis, as columns.
        pub(crate) struct OneWayLevels {
            pub(crate) level: Vec<f64>,
            pub(crate) n_level_dis: Vec<f64>,
            pub(crate) total_disclosive: Vec<f64>,
            pub(crate) level_orig: Vec<f64>,
            pub(crate) all_orig: Vec<f64>,
        }
    }

    /// The measures' declarations as columns, one element per measure.
    #[derive(IntoList)]
    pub(crate) struct MeasureDeclarations {
        pub(crate) measure: Vec<&'static str>,
        pub(crate) family: Vec<&'static str>,
        pub(crate) unit: Vec<&'static str>,
        pub(crate) data: Vec<&'static str>,
        pub(crate) components: Vec<&'static str>,
        pub(crate) numerator: Vec<&'static str>,
        pub(crate) denominator: Vec<&'static str>,
        pub(crate) definition: Vec<&'static str>,
    }

    /// `encode_compute`'s result: the encoding, and the raw counts of each call (NULL
    /// when R must merge look-alike levels first).
    #[derive(IntoList)]
    pub(crate) struct EncodedAndCounted {
        pub(crate) encoding: Robj,
        pub(crate) raw: Robj,
    }
}

/// The shapes of the requests this topic receives, read by serde (`read_request`).
mod wire {
    use serde::Deserialize;

    /// One target of the request as R sends it (R/target-request.R), made before or
    /// after the encoding alike: `var` (0-based), `excluded_levels` (0-based codes of
    /// the target levels excluded), `use_target_na`, the key/target exclusions
    /// `kt_key`, `kt_key_level`, `kt_target_level` (0-based, same lengths),
    /// `denom_lim` (NA for no limit) and `twoway_min_cell`. `target_request()`
    /// completes it from the encoded target.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct TargetWire {
        pub(crate) var: i32,
        pub(crate) excluded_levels: Vec<i32>,
        pub(crate) use_target_na: bool,
        pub(crate) kt_key: Vec<i32>,
        pub(crate) kt_key_level: Vec<i32>,
        pub(crate) kt_target_level: Vec<i32>,
        pub(crate) denom_lim: Option<f64>,
        pub(crate) twoway_min_cell: Option<f64>,
    }

    /// A plan as R sends it: `original` (0-based dataset), `syntheses` (each a
    /// `ViewWire`), `tau` (NULL or doubles) and, for counted cells, `weights` (per
    /// dataset NULL or the records each row stands for).
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct PlanWire {
        pub(crate) original: i32,
        pub(crate) syntheses: Vec<ViewWire>,
        pub(crate) tau: Option<Vec<f64>>,
        pub(crate) weights: Option<Vec<Option<Vec<i32>>>>,
    }

    /// A synthesis of a plan: `dataset` (0-based), `rows` (NULL, or the 1-based rows of
    /// a subsample or resample) and `repeats` (NULL or FALSE for a subsample, TRUE for a
    /// resample: a bootstrap replicate, rows drawn with replacement).
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct ViewWire {
        pub(crate) dataset: i32,
        pub(crate) rows: Option<ZeroBasedRows>,
        pub(crate) repeats: Option<bool>,
    }

    /// Rows R sends 1-based (a subsample's), read straight into 0-based rows: one pass
    /// over what may be millions of rows (a size curve's subsamples), where a
    /// `Vec<i32>` and a second pass to convert it cost the size curve 1-2 %.
    pub(crate) struct ZeroBasedRows(pub(crate) Vec<u32>);

    impl<'de> Deserialize<'de> for ZeroBasedRows {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct Rows;
            impl<'de> serde::de::Visitor<'de> for Rows {
                type Value = ZeroBasedRows;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("1-based rows")
                }
                fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<ZeroBasedRows, A::Error> {
                    let mut rows = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                    while let Some(r) = seq.next_element::<i32>()? {
                        let row = u32::try_from(r as i64 - 1)
                            .map_err(|_| serde::de::Error::custom(format!("subsample row {r} is not a row")))?;
                        rows.push(row);
                    }
                    Ok(ZeroBasedRows(rows))
                }
            }
            deserializer.deserialize_seq(Rows)
        }
    }

    /// One count of an encoding (`rust_compute`, and each of `rust_encode_compute`'s
    /// calls): the keys (0-based variables), their usekeysNA flags, the targets and the
    /// plan (NULL: the original against every other dataset).
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct CountCall {
        pub(crate) keys: Vec<i32>,
        pub(crate) use_keys_na: Vec<bool>,
        pub(crate) targets: Vec<TargetWire>,
        pub(crate) plan: Option<PlanWire>,
    }

    /// `rust_compute`'s request: one `CountCall`'s fields and the threads.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct ComputeRequest {
        pub(crate) keys: Vec<i32>,
        pub(crate) use_keys_na: Vec<bool>,
        pub(crate) targets: Vec<TargetWire>,
        pub(crate) plan: Option<PlanWire>,
        pub(crate) n_threads: i32,
    }

    /// `rust_encode_compute`'s request: the threads and the `CountCall`s (NULL: none).
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct EncodeComputeRequest {
        pub(crate) n_threads: i32,
        pub(crate) calls: Option<Vec<CountCall>>,
    }
}

/// The measures' declarations (`SynthesisMeasures::DECLARATIONS`) as columns, one
/// element per measure: what R's registry reads (tools/measure-declarations.R writes
/// them into R/measure-declarations.R; test-measures.R checks the two agree).
pub fn measure_declarations(_: Robj, _: NoRequest) -> GlueResult<Robj> {
    use synthrisk_core::measures::{MeasureDeclaration, SynthesisMeasures};
    let column = |f: fn(&MeasureDeclaration) -> &'static str| -> Vec<&'static str> {
        SynthesisMeasures::DECLARATIONS.iter().map(f).collect()
    };
    Ok(results::MeasureDeclarations {
        measure: column(|d| d.name),
        family: column(|d| d.family),
        unit: column(|d| d.unit),
        data: column(|d| d.data),
        components: column(|d| d.components),
        numerator: column(|d| d.numerator),
        denominator: column(|d| d.denominator),
        definition: column(|d| d.definition),
    }
    .into())
}
