//! Distances to the closest record (definitions vignette 11), on the one encoding: R
//! sends the encoding handle (original, syntheses, control), which of its variables the
//! distance compares, their `cont.na` codes and weights, and the searches to run; the
//! core builds the search tables from the encoded variables, each table searched is
//! indexed once (`search.rs`), the searches run in the core, and the results go back
//! after the join. The shapes of its lists are those of `search.rs`.

use crate::encoding::encoded_vars;
use crate::protocol::*;
use crate::search::{distance_tables, run_searches, searches};
use extendr_api::prelude::*;
use synthrisk_core::nearest::{nearest, Index};
pub(crate) use wire::DcrRequest;

/// `encoded`: an encoding whose variables `request.columns` (list(vars, label_codes,
/// names): variables 0-based in the column order of `data`, their `cont.na` codes,
/// their names for errors) are compared with `variable_weights` (Gower's w_v) per
/// variable; `searches`: list(indexed, queries, second) of 0-based datasets of the
/// encoding. Returns list(searches = per search list(distance, row (1-based), second
/// or NULL), numeric, ranges).
pub fn dcr(encoded: Robj, request: DcrRequest) -> GlueResult<Robj> {
    let DcrRequest { columns, variable_weights, searches: search_wires, n_threads } = request;
    let encoded = encoded_vars(&encoded)?;
    let workers = workers(n_threads)?;
    let (tables, metric) = distance_tables(&workers, encoded, &columns, Some(variable_weights), "vars")?;
    let n_tables = tables.n_datasets();
    let searches = searches(search_wires, n_tables)?;
    let total: usize = searches.iter().map(|s| tables.n_records(s.queries)).sum();
    let workers = workers_for(n_threads, total.max(1) * 64)?;
    // Each dataset searched is indexed once, and the index dropped after its last search
    // (memory O(N)).
    let found = run_searches(
        &searches,
        n_tables,
        |search| {
            let table = tables.table(&metric, search.indexed)?;
            workers.run(|| Index::build(&metric, &table))
        },
        |search, index| {
            let queries = tables.table(&metric, search.queries)?;
            nearest(&workers, &metric, index, &queries, search.second, &user_interrupt)
        },
    )?;
    // R's objects after the searches, their indexes dropped.
    let out = found.into_iter().zip(&searches).map(|(found, search)| {
        let second = if search.second { Robj::from(found.second) } else { Robj::from(()) };
        Robj::from(Nearest { distance: found.distance, row: one_based(found.row), second })
    });
    Ok(Searched {
        searches: List::from_values(out).into(),
        numeric: tables.numeric.iter().map(|&b| Rbool::from(b)).collect(),
        ranges: tables.ranges.clone(),
    }
    .into())
}

/// One search's nearest records: the distance and 1-based row of each query's nearest,
/// and the second nearest distances (NULL unless asked). A named list of its fields
/// (extendr's `IntoList`).
#[derive(IntoList)]
struct Nearest {
    distance: Vec<f64>,
    row: Vec<i32>,
    second: Robj,
}

/// What `dcr` returns: each search's `Nearest`, and per column whether it is numeric
/// and its range.
#[derive(IntoList)]
struct Searched {
    searches: Robj,
    numeric: Vec<Rbool>,
    ranges: Vec<f64>,
}

/// The shape of `rust_dcr`'s request, read by serde (`read_request`; its sets of
/// columns and searches are `search.rs`'s).
mod wire {
    use crate::search::{ColumnsWire, SearchWire};
    use serde::Deserialize;

    /// The set of columns compared, Gower's weight of each, the searches and the
    /// threads.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct DcrRequest {
        pub(crate) columns: ColumnsWire,
        pub(crate) variable_weights: Vec<f64>,
        pub(crate) searches: Vec<SearchWire>,
        pub(crate) n_threads: i32,
    }
}
