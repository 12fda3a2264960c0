//! key_sweep()'s subsets of candidate keys counted in one call on an encoding: per
//! subset its keys, their usekeysNA flags and its targets' requests (as `compute` reads
//! them), read on the R thread; the core counts every subset on the pool
//! (`key_subsets::count_key_subsets`) and returns only the measures, which go back to
//! R as one double vector.

use crate::compute::target_request;
use crate::encoding::{encoded_vars, var_indices};
use crate::protocol::*;
use extendr_api::prelude::*;
use synthrisk_core::engine::TargetRequest;
use synthrisk_core::key_subsets::{count_key_subsets, KeySubset, SUBSET_CHUNK_ROWS};
use synthrisk_core::measures::MEASURE_NAMES;
use synthrisk_core::plan::Plan;
pub(crate) use wire::KeySubsetsRequest;

/// `request`'s `keys`, `use_keys_na`, `targets`: lists with one element per subset
/// (0-based variables of the encoding; logical flags; a list of target requests as
/// `target_request()` of R/target-request.R makes them). `weights`: NULL, or per
/// dataset NULL or the records each row stands for (counted cells). Returns
/// list(values = per subset, target and synthesis the measures in the order of
/// `measures`, measures = their names).
pub fn key_subsets(encoded: Robj, request: KeySubsetsRequest) -> GlueResult<Robj> {
    let KeySubsetsRequest { keys, use_keys_na, targets, weights, n_threads } = request;
    let vars = encoded_vars(&encoded)?;
    let dataset_rows = vars.first().map_or_else(Vec::new, |v| v.dataset_rows());
    let mut plan = Plan::standard(dataset_rows.len());
    if !weights.is_null() {
        plan.weights = List::from_robj(&weights, "weights")?
            .values()
            .enumerate()
            .map(|(d, w)| {
                if w.is_null() {
                    Ok(None)
                } else {
                    Vec::<u32>::from_robj(&w, &format!("weights[[{}]]", d + 1)).map(Some)
                }
            })
            .collect::<GlueResult<_>>()?;
    }
    let keys = List::from_robj(&keys, "keys")?;
    let use_keys_na = List::from_robj(&use_keys_na, "use_keys_na")?;
    let targets = List::from_robj(&targets, "targets")?;
    if use_keys_na.len() != keys.len() || targets.len() != keys.len() {
        return Err(internal("`keys`, `use_keys_na` and `targets` must have one element per subset"));
    }
    let subsets: Vec<KeySubset> = keys
        .values()
        .zip(use_keys_na.values())
        .zip(targets.values())
        .enumerate()
        .map(|(i, ((k, u), t))| {
            let requests: Vec<TargetRequest> = List::from_robj(&t, &format!("targets[[{}]]", i + 1))?
                .values()
                .enumerate()
                .map(|(j, x)| target_request(&x, &format!("targets[[{}]][[{}]]", i + 1, j + 1), vars, plan.original))
                .collect::<GlueResult<_>>()?;
            Ok(KeySubset {
                keys: var_indices(vars, &k, &format!("keys[[{}]]", i + 1))?,
                use_keys_na: Vec::<bool>::from_robj(&u, &format!("use_keys_na[[{}]]", i + 1))?,
                targets: requests,
            })
        })
        .collect::<GlueResult<_>>()?;
    let rows: usize = dataset_rows.iter().sum();
    let work_rows = subsets.iter().map(|s| rows.saturating_mul(s.targets.len())).fold(0usize, usize::saturating_add);
    let workers = workers_for(n_threads, work_rows)?;
    let values = count_key_subsets(&workers, vars, &subsets, &plan, SUBSET_CHUNK_ROWS, &user_interrupt)?;
    Ok(SubsetMeasures { values, measures: MEASURE_NAMES.to_vec() }.into())
}

/// The shape of `rust_key_subsets`'s request (see `crate::wire`).
mod wire {
    pub(crate) use crate::wire::FieldByName;
    use extendr_api::{Robj, TryFromList};

    /// Per subset its keys, flags and targets, the weights and the threads (see
    /// `key_subsets`).
    #[derive(TryFromList)]
    pub(crate) struct KeySubsetsRequest {
        pub(crate) keys: Robj,
        pub(crate) use_keys_na: Robj,
        pub(crate) targets: Robj,
        pub(crate) weights: Robj,
        pub(crate) n_threads: i32,
    }
}

/// What `key_subsets` returns: every subset's measures, and the measures' names
/// (`MEASURE_NAMES`), a named list of its fields (extendr's `IntoList`).
#[derive(IntoList)]
struct SubsetMeasures {
    values: Vec<f64>,
    measures: Vec<&'static str>,
}
