//! R glue for synthrisk-core, one module per topic: `protocol` reads R's values into
//! typed requests and writes named results, `wire` the lookup by name that each
//! topic's `mod wire` (the shapes of the lists it receives) reads fields with;
//! the topics (`encoding`, `compute`, `key_subsets`, `identification`, `records`, `dcr`, `attacks`)
//! borrow slices on the R thread, run the core on plain data and build R objects after
//! the join. Nothing here panics on bad input or throws: an error returns
//! through extendr's `result_condition` feature as an `extendr_error` condition, whose
//! `value` the R side raises (rust_result()).

mod attacks;
mod compute;
mod dcr;
mod encoding;
mod identification;
mod key_subsets;
mod protocol;
mod records;
mod search;
mod wire;

use extendr_api::prelude::*;
use protocol::{respond, Response};

/// Encodes the variables (keys and targets) of the original and every synthesis.
/// @noRd
#[extendr]
fn rust_encode_variables(vars: Robj, n_threads: i32) -> Response {
    respond(encoding::encode(vars, n_threads))
}

/// Merges numeric levels that R labels alike, for every variable of `merges` (each
/// `var`, 0-based; `first_of[i]`, 0-based, the first level with level i's label;
/// `integer_kind`). Returns the variables' new info.
/// @noRd
#[extendr]
fn rust_merge_numeric_levels(encoded: Robj, merges: Robj, n_threads: i32) -> Response {
    respond(encoding::merge(encoded, merges, n_threads))
}

/// Records at each level of variable `var` (0-based), per dataset.
/// @noRd
#[extendr]
fn rust_level_counts(encoded: Robj, var: i32, weights: Robj) -> Response {
    respond(encoding::level_counts(encoded, var, weights))
}

/// Computes every measure for all targets and the syntheses of a plan on an encoding.
/// @noRd
#[extendr]
fn rust_compute(encoded: Robj, keys: Robj, use_keys_na: Robj, targets: Robj, n_threads: i32, plan: Robj) -> Response {
    respond(compute::compute(encoded, keys, use_keys_na, targets, n_threads, plan))
}

/// The measures of many subsets of keys on an encoding (see key_subsets::key_subsets).
/// @noRd
#[extendr]
fn rust_key_subsets(
    encoded: Robj,
    keys: Robj,
    use_keys_na: Robj,
    targets: Robj,
    weights: Robj,
    n_threads: i32,
) -> Response {
    respond(key_subsets::key_subsets(encoded, keys, use_keys_na, targets, weights, n_threads))
}

/// Every measure's declaration (name, family, unit, data, components, numerator,
/// denominator, definition), as columns.
/// @noRd
#[extendr]
fn rust_measure_declarations() -> Response {
    respond(compute::measure_declarations())
}

/// Encodes the variables and computes the measures of `calls` on them in one call
/// (see compute::encode_compute).
/// @noRd
#[extendr]
fn rust_encode_compute(vars: Robj, n_threads: i32, calls: Robj) -> Response {
    respond(compute::encode_compute(vars, n_threads, calls))
}

/// Matches of each original record among the synthetic records, per synthesis.
/// @noRd
#[extendr]
fn rust_identification(
    encoded: Robj,
    exact: Robj,
    within: Robj,
    radius: Robj,
    relative: Robj,
    n_threads: i32,
) -> Response {
    respond(identification::identify(encoded, exact, within, radius, relative, n_threads))
}

/// Each record's q (1-based) per dataset, and per dataset the rows of each q.
/// @noRd
#[extendr]
fn rust_record_keys(encoded: Robj, keys: Robj, n_threads: i32) -> Response {
    respond(records::keys_of_records(encoded, keys, n_threads))
}

/// Record-level counts and flags of one target, per synthesis.
/// @noRd
#[extendr]
fn rust_records(encoded: Robj, keys: Robj, use_keys_na: Robj, target: Robj, n_threads: i32) -> Response {
    respond(records::record_level(encoded, keys, use_keys_na, target, n_threads))
}

/// Nearest records under the Gower distance (definitions vignette 11) on an encoding,
/// per search.
/// @noRd
#[extendr]
fn rust_dcr(encoded: Robj, columns: Robj, variable_weights: Robj, searches: Robj, n_threads: i32) -> Response {
    respond(dcr::dcr(encoded, columns, variable_weights, searches, n_threads))
}

/// The inference attack (definitions vignette 13), per group of secrets sharing their
/// auxiliary columns and per search of `searches`.
/// @noRd
#[extendr]
fn rust_inference(encoded: Robj, groups: Robj, tolerance: f64, searches: Robj, n_threads: i32) -> Response {
    respond(attacks::inference(encoded, groups, tolerance, searches, n_threads))
}

/// The linkability attack (definitions vignette 13), per search of its `request`.
/// @noRd
#[extendr]
fn rust_linkability(encoded: Robj, request: Robj) -> Response {
    respond(attacks::linkability(encoded, request))
}

/// The datasets of singling out, distinct on its columns, behind a pointer.
/// @noRd
#[extendr]
fn rust_singling_out_data(encoded: Robj, vars: Robj, missing_levels: Robj, n_threads: i32) -> Response {
    respond(attacks::singling_out_data(encoded, vars, missing_levels, n_threads))
}

/// The univariate queries that single out in dataset `k`.
/// @noRd
#[extendr]
fn rust_singling_out_univariate(ptr: Robj, k: i32) -> Response {
    respond(attacks::singling_out_univariate(ptr, k))
}

/// Multivariate queries from attempts drawn from a chunk of R's uniforms.
/// @noRd
#[extendr]
fn rust_singling_out_generate(ptr: Robj, request: Robj) -> Response {
    respond(attacks::singling_out_generate(ptr, request))
}

/// The rows that queries single out, per target dataset.
/// @noRd
#[extendr]
fn rust_singling_out_evaluate(ptr: Robj, queries: Robj, datasets: Robj, n_threads: i32) -> Response {
    respond(attacks::singling_out_evaluate(ptr, queries, datasets, n_threads))
}

extendr_module! {
    mod synthrisk;
    fn rust_encode_variables;
    fn rust_merge_numeric_levels;
    fn rust_level_counts;
    fn rust_compute;
    fn rust_encode_compute;
    fn rust_key_subsets;
    fn rust_measure_declarations;
    fn rust_identification;
    fn rust_record_keys;
    fn rust_records;
    fn rust_dcr;
    fn rust_inference;
    fn rust_linkability;
    fn rust_singling_out_data;
    fn rust_singling_out_univariate;
    fn rust_singling_out_generate;
    fn rust_singling_out_evaluate;
}
