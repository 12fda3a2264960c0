//! What the searches of `dcr.rs` and `attacks.rs` share: the columns R names (a set of
//! variables of the one encoding with their cont.na codes and names) read into the
//! core's distance tables, the searches R asks for (a dataset indexed and searched, a
//! dataset whose records are looked up in it, and for the attacks the rows of those),
//! and the one path that runs them (`run_searches`): the index of each searched
//! dataset built on its first search and dropped after its last, so that a call builds
//! it once.

use crate::encoding::var_indices;
use crate::protocol::*;
use extendr_api::prelude::*;
use synthrisk_core::distance::Metric;
use synthrisk_core::distance_tables::{DistanceTables, DistanceVariable};
use synthrisk_core::encode::EncodedVar;
use synthrisk_core::search_order::run_each_indexed_once;
use synthrisk_core::workers::Workers;
pub(crate) use wire::{ColumnsWire, SearchWire};

/// The distance tables of a set of columns (`list(vars, label_codes, names)`, variables
/// 0-based) and their metric with `variable_weights` (1 each when `None`): R's values read here,
/// the tables built on the pool. `what` names the set in errors.
pub(crate) fn distance_tables(
    workers: &Workers,
    encoded: &[EncodedVar<'static>],
    columns: &ColumnsWire,
    variable_weights: Option<Vec<f64>>,
    what: &str,
) -> GlueResult<(DistanceTables, Metric)> {
    let ColumnsWire { vars, label_codes, names } = columns;
    let vars = var_indices(encoded, vars, what)?;
    if label_codes.len() != vars.len() || names.len() != vars.len() || vars.is_empty() {
        return Err(internal(format!("one set of codes and one name per variable of `{what}`")));
    }
    let variables: Vec<DistanceVariable<'_, '_>> = vars
        .iter()
        .zip(label_codes)
        .zip(names)
        .map(|((&k, codes), name)| DistanceVariable { var: &encoded[k], label_codes: codes, name })
        .collect();
    let tables = workers.run(|| DistanceTables::build(&variables))?;
    let variable_weights = variable_weights.unwrap_or_else(|| vec![1.0; vars.len()]);
    let metric = Metric::new(tables.numeric.clone(), variable_weights, tables.ranges.clone())?;
    Ok((tables, metric))
}

/// One search: the records of dataset `queries` (all, or its 0-based `rows`) looked up
/// in dataset `indexed`; `second`: the second nearest is wanted too (dcr).
pub(crate) struct Search {
    pub(crate) indexed: usize,
    pub(crate) queries: usize,
    pub(crate) rows: Option<Vec<u32>>,
    pub(crate) second: bool,
}

/// The searches R sends (each a `SearchWire`), datasets 0-based and below
/// `n_datasets`.
pub(crate) fn searches(wires: Vec<SearchWire>, n_datasets: usize) -> GlueResult<Vec<Search>> {
    wires
        .into_iter()
        .map(|SearchWire { indexed, queries, rows, second }| {
            let ok = |k: i32| usize::try_from(k).ok().filter(|&k| k < n_datasets);
            match (ok(indexed), ok(queries)) {
                (Some(indexed), Some(queries)) => {
                    Ok(Search { indexed, queries, rows, second: second.unwrap_or(false) })
                }
                _ => Err(internal(format!("search of datasets {indexed} and {queries}"))),
            }
        })
        .collect()
}

/// Runs `searches` in order, the one path of every search of a call (`dcr.rs`,
/// `attacks.rs`): each search's indexed dataset gets what `build` makes of it (an
/// index, a synthesis's distinct records) once, on its first search, dropped after its
/// last (the core's `run_each_indexed_once`); `each` runs the search with it. Returns
/// what `each` returned, per search.
pub(crate) fn run_searches<T, R>(
    searches: &[Search],
    n_datasets: usize,
    build: impl FnMut(&Search) -> GlueResult<T>,
    each: impl FnMut(&Search, &T) -> GlueResult<R>,
) -> GlueResult<Vec<R>> {
    run_each_indexed_once(searches, n_datasets, |s| s.indexed, build, each)
}

/// The shapes of the lists this file reads, parts of the requests of `dcr.rs` and
/// `attacks.rs` (read by serde, `read_request`).
mod wire {
    use serde::Deserialize;

    /// A set of columns: `vars` (0-based variables of the encoding), `label_codes` (per
    /// variable its cont.na codes, doubles) and `names` (for errors; a list of strings,
    /// see `read_request`).
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct ColumnsWire {
        pub(crate) vars: Vec<i32>,
        pub(crate) label_codes: Vec<Vec<f64>>,
        pub(crate) names: Vec<String>,
    }

    /// One search: `indexed` (the 0-based dataset searched), `queries` (the 0-based
    /// dataset whose records are looked up), `rows` (NULL: every record; or its 0-based
    /// rows) and `second` (NULL or FALSE; TRUE: the second nearest too).
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct SearchWire {
        pub(crate) indexed: i32,
        pub(crate) queries: i32,
        pub(crate) rows: Option<Vec<u32>>,
        pub(crate) second: Option<bool>,
    }
}
