//! Distances to the closest record (definitions vignette 11): R sends every table
//! (original, syntheses, control) as code and value columns, and the searches to run;
//! each table searched is indexed once, the searches run in the core, and the results
//! go back after the join.

use crate::protocol::*;
use crate::wire::{MetricWire, RequestWire, TableWire};
use extendr_api::prelude::*;
use synthrisk_core::distance::{Metric, Table};
use synthrisk_core::nearest::{nearest, Index};

fn not_wire(what: &str) -> impl Fn(extendr_api::Error) -> synthrisk_core::error::CoreError + '_ {
    move |e| internal(format!("`{what}` is not as the protocol says: {e}"))
}

/// `metric`: list(numeric, weights, ranges) per variable in column order; `tables`:
/// per table list(codes = list of integer vectors, values = list of double vectors,
/// empty for categorical variables); `requests`: list(index, queries) of 0-based tables
/// and `second`. Returns per request list(distance, row (1-based), second or NULL).
pub fn dcr(metric: Robj, tables: Robj, requests: Robj, n_threads: i32) -> GlueResult<Robj> {
    let m = MetricWire::try_from(&metric).map_err(not_wire("metric"))?;
    if m.numeric.iter().any(|b| b.is_na()) {
        return Err(internal("`metric$numeric` has NA"));
    }
    let metric = Metric::new(m.numeric.iter().map(|b| b.is_true()).collect(), m.weights, m.ranges)?;
    let table_robjs: Vec<(Vec<Robj>, Vec<Robj>)> = List::from_robj(&tables, "tables")?
        .values()
        .map(|t| {
            let t = TableWire::try_from(&t).map_err(not_wire("tables[[i]]"))?;
            Ok((t.codes.values().collect(), t.values.values().collect()))
        })
        .collect::<GlueResult<_>>()?;
    let tables: Vec<Table<'_>> = table_robjs
        .iter()
        .enumerate()
        .map(|(k, (codes, values))| {
            let codes = codes.iter().map(|c| int_slice(c, "codes")).collect::<GlueResult<Vec<_>>>()?;
            let values = values.iter().map(|c| real_slice(c, "values")).collect::<GlueResult<Vec<_>>>()?;
            Table::new(&metric, codes, values, &format!("table {}", k + 1))
        })
        .collect::<GlueResult<_>>()?;
    let requests: Vec<(usize, usize, bool)> = List::from_robj(&requests, "requests")?
        .values()
        .map(|r| {
            let RequestWire { index, queries, second } =
                RequestWire::try_from(&r).map_err(not_wire("requests[[i]]"))?;
            let ok = |k: i32| usize::try_from(k).ok().filter(|&k| k < tables.len());
            match (ok(index), ok(queries)) {
                (Some(i), Some(q)) => Ok((i, q, second)),
                _ => Err(internal(format!("request for tables {index} and {queries}"))),
            }
        })
        .collect::<GlueResult<_>>()?;
    let total: usize = requests.iter().map(|&(_, q, _)| tables[q].n_rows).sum();
    let workers = workers_for(n_threads, total.max(1) * 64)?;
    let mut indexes: Vec<Option<Index>> = (0..tables.len()).map(|_| None).collect();
    // An index is dropped after the last request that searches it (memory O(N)).
    let mut last_use = vec![usize::MAX; tables.len()];
    for (k, &(i, _, _)) in requests.iter().enumerate() {
        last_use[i] = k;
    }
    let mut out = Vec::with_capacity(requests.len());
    for (k, &(i, q, second)) in requests.iter().enumerate() {
        if indexes[i].is_none() {
            indexes[i] = Some(workers.run(|| Index::build(&metric, &tables[i]))?);
        }
        let index = indexes[i].as_ref().ok_or_else(|| internal("index"))?;
        let found = nearest(&workers, &metric, index, &tables[q], second, &user_interrupt)?;
        if last_use[i] == k {
            indexes[i] = None;
        }
        let second_robj = if second { Robj::from(found.second) } else { Robj::from(()) };
        out.push(named_list(
            ["distance", "row", "second"],
            [Robj::from(found.distance), one_based_robj(found.row), second_robj],
        )?);
    }
    Ok(List::from_values(out).into())
}
