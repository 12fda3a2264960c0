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
    if let Some(weights) = weights {
        plan.weights = weights;
    }
    if use_keys_na.len() != keys.len() || targets.len() != keys.len() {
        return Err(internal("`keys`, `use_keys_na` and `targets` must have one element per subset"));
    }
    let subsets: Vec<KeySubset> = keys
        .iter()
        .zip(use_keys_na)
        .zip(&targets)
        .enumerate()
        .map(|(i, ((k, u), t))| {
            let requests: Vec<TargetRequest> = t
                .iter()
                .enumerate()
                .map(|(j, x)| target_request(x, &format!("targets[[{}]][[{}]]", i + 1, j + 1), vars, plan.original))
                .collect::<GlueResult<_>>()?;
            Ok(KeySubset {
                keys: var_indices(vars, k, &format!("keys[[{}]]", i + 1))?,
                use_keys_na: u,
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

/// The shape of `rust_key_subsets`'s request, read by serde (`read_request`).
mod wire {
    use crate::compute::TargetWire;
    use serde::Deserialize;

    /// Per subset its keys (0-based variables), their usekeysNA flags and its targets;
    /// the weights (NULL, or per dataset NULL or the records each row stands for, whole
    /// numbers >= 0) and the threads.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct KeySubsetsRequest {
        pub(crate) keys: Vec<Vec<i32>>,
        pub(crate) use_keys_na: Vec<Vec<bool>>,
        pub(crate) targets: Vec<Vec<TargetWire>>,
        pub(crate) weights: Option<Vec<Option<Vec<u32>>>>,
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
