//! Distances to the closest record (definitions vignette 11), on the one encoding: R
//! sends the encoding handle (original, syntheses, control), which of its variables the
//! distance compares, their `cont.na` codes and weights, and the searches to run; the
//! core builds the search tables from the encoded variables, each table searched is
//! indexed once, the searches run in the core, and the results go back after the join.

use crate::encoding::{encoded_vars, var_indices};
use crate::protocol::*;
use wire::SearchWire;
use extendr_api::prelude::*;
use synthrisk_core::distance::Metric;
use synthrisk_core::distance_tables::{DistanceTables, DistanceVariable};
use synthrisk_core::nearest::{nearest, Index};

/// `encoded`: an encoding whose variables `vars` (0-based, in the column order of
/// `data`) are compared; `label_codes`: per variable the `cont.na` codes (doubles);
/// `names`: the variables' names (for errors); `weights` per variable; `searches`:
/// list(index, queries, second) of 0-based datasets of the encoding. Returns
/// list(searches = per search list(distance, row (1-based), second or NULL), numeric,
/// ranges).
pub fn dcr(
    encoded: Robj,
    vars: Robj,
    label_codes: Robj,
    names: Robj,
    weights: Robj,
    searches: Robj,
    n_threads: i32,
) -> GlueResult<Robj> {
    let encoded = encoded_vars(&encoded)?;
    let vars = var_indices(encoded, &vars, "vars")?;
    let label_codes: Vec<Robj> = List::from_robj(&label_codes, "label_codes")?.values().collect();
    let label_codes = label_codes.iter().map(|c| real_slice(c, "label_codes[[i]]")).collect::<GlueResult<Vec<_>>>()?;
    let names = Vec::<String>::from_robj(&names, "names")?;
    let weights = Vec::<f64>::from_robj(&weights, "weights")?;
    if label_codes.len() != vars.len() || names.len() != vars.len() {
        return Err(internal("one set of codes and one name per variable"));
    }
    let variables: Vec<DistanceVariable<'_, '_>> = vars
        .iter()
        .zip(&label_codes)
        .zip(&names)
        .map(|((&k, codes), name)| DistanceVariable { var: &encoded[k], label_codes: codes, name })
        .collect();
    let workers = workers(n_threads)?;
    let tables = workers.run(|| DistanceTables::build(&variables))?;
    let metric = Metric::new(tables.numeric.clone(), weights, tables.ranges.clone())?;
    let n_tables = tables.n_datasets();
    let searches: Vec<(usize, usize, bool)> = List::from_robj(&searches, "searches")?
        .values()
        .map(|r| {
            let SearchWire { index, queries, second } = SearchWire::try_from(&r).map_err(wire_error("searches[[i]]"))?;
            let ok = |k: i32| usize::try_from(k).ok().filter(|&k| k < n_tables);
            match (ok(index), ok(queries)) {
                (Some(i), Some(q)) => Ok((i, q, second)),
                _ => Err(internal(format!("search of datasets {index} and {queries}"))),
            }
        })
        .collect::<GlueResult<_>>()?;
    let total: usize = searches.iter().map(|&(_, q, _)| encoded[vars[0]].codes[q].len()).sum();
    let workers = workers_for(n_threads, total.max(1) * 64)?;
    let mut indexes: Vec<Option<Index>> = (0..n_tables).map(|_| None).collect();
    // An index is dropped after the last search of its table (memory O(N)).
    let mut last_use = vec![usize::MAX; n_tables];
    for (k, &(i, _, _)) in searches.iter().enumerate() {
        last_use[i] = k;
    }
    let mut out = Vec::with_capacity(searches.len());
    for (k, &(i, q, second)) in searches.iter().enumerate() {
        if indexes[i].is_none() {
            let table = tables.table(&metric, i)?;
            indexes[i] = Some(workers.run(|| Index::build(&metric, &table))?);
        }
        let index = indexes[i].as_ref().ok_or_else(|| internal("index"))?;
        let queries = tables.table(&metric, q)?;
        let found = nearest(&workers, &metric, index, &queries, second, &user_interrupt)?;
        if last_use[i] == k {
            indexes[i] = None;
        }
        let second_robj = if second { Robj::from(found.second) } else { Robj::from(()) };
        out.push(named_list(
            ["distance", "row", "second"],
            [Robj::from(found.distance), one_based_robj(found.row), second_robj],
        )?);
    }
    named_list(
        ["searches", "numeric", "ranges"],
        [
            List::from_values(out).into(),
            Robj::from(tables.numeric.iter().map(|&b| Rbool::from(b)).collect::<Vec<Rbool>>()),
            Robj::from(tables.ranges.clone()),
        ],
    )
}

/// The shapes of the lists this topic receives (see `crate::wire`).
mod wire {
    pub(crate) use crate::wire::FieldByName;
    use extendr_api::TryFromList;

    /// One search: the 0-based dataset indexed, the 0-based dataset whose records are the
    /// queries, and whether the second nearest is wanted.
    #[derive(TryFromList)]
    pub(crate) struct SearchWire {
        pub(crate) index: i32,
        pub(crate) queries: i32,
        pub(crate) second: bool,
    }
}
