//! The attacks of definitions vignette 13 on the one encoding: R sends the encoding
//! handle (original, syntheses, control), the variables each attack reads, and the
//! searches to run (a synthesis indexed, a dataset of targets and its target rows;
//! `search.rs`); the core builds the distance tables from the encoded variables and
//! each synthesis's index once per call, runs the attacks on the worker pool, and the
//! results go back after the join. Singling out keeps its
//! distinct datasets behind a pointer between R's crossings: the multivariate attempts
//! are drawn from R's uniforms, handed over in chunks.

use crate::encoding::{encoded_vars, var_indices};
use crate::protocol::*;
use crate::search::{distance_tables, run_searches, searches, Search};
use extendr_api::prelude::*;
use synthrisk_core::distance::Table;
use synthrisk_core::encode::{is_r_na, EncodedVar, RawColumn, NA_INTEGER};
use synthrisk_core::inference::{infer, Matching, Secret, SecretColumn};
use synthrisk_core::linkability::{baseline, link, LinkedSynthesis, Overlap, Side};
use synthrisk_core::singling_out::{evaluate, multivariate_drawn, univariate, Dataset, Op, Predicate, Queries};
use synthrisk_core::tie_sets::IndexedSynthesis;
pub(crate) use wire::{
    EvaluateRequest, GenerateRequest, InferenceRequest, LinkabilityRequest, SinglingOutDataRequest, UnivariateRequest,
};
use wire::{EvaluatedWire, InferenceGroupWire, QueriesWire};

/// The target rows of an attack's search (an attack always names them).
fn target_rows<'s>(search: &'s Search, table: &Table<'_>) -> GlueResult<&'s [u32]> {
    let rows = search.rows.as_deref().ok_or_else(|| internal("an attack's search without target rows"))?;
    match rows.iter().find(|&&r| r as usize >= table.n_rows) {
        Some(r) => Err(internal(format!("target row {r} beyond the {} records", table.n_rows))),
        None => Ok(rows),
    }
}

/// Inference, per group of secrets sharing their auxiliary columns (one search per
/// group): `request.groups` list(aux, secrets), each a set of columns (`search.rs`);
/// `tolerance` (NaN: exact match). Each synthesis is indexed once per group, for its
/// main and control searches. Returns per group list(searches = per search, per secret
/// list(success, set_size, distance, baseline), secret_numeric).
pub fn inference(encoded: Robj, request: InferenceRequest) -> GlueResult<Robj> {
    let InferenceRequest { groups, tolerance, searches: search_wires, n_threads } = request;
    let encoded = encoded_vars(&encoded)?;
    let workers = workers(n_threads)?;
    let searches = searches(search_wires, encoded.first().map_or(0, |v| v.codes.len()))?;
    let mut out: Vec<Robj> = Vec::new();
    for InferenceGroupWire { aux, secrets: secret_columns } in &groups {
        let (tables, metric) = distance_tables(&workers, encoded, aux, None, "aux")?;
        let (secret_tables, secret_metric) = distance_tables(&workers, encoded, secret_columns, None, "secrets")?;
        let matching: Vec<Matching> = secret_tables
            .numeric
            .iter()
            .map(|&numeric| match (numeric, tolerance) {
                (false, _) => Matching::Labels,
                (true, None) => Matching::Exact,
                (true, Some(t)) => Matching::Within(t),
            })
            .collect();
        let per_search = run_searches(
            &searches,
            tables.n_datasets(),
            |search| IndexedSynthesis::build(&workers, &metric, &tables.table(&metric, search.indexed)?),
            |search, synthesis| {
                let (s, t) = (search.indexed, search.queries);
                let targets = tables.table(&metric, t)?;
                let rows = target_rows(search, &targets)?;
                let (ss, ts) = (secret_tables.table(&secret_metric, s)?, secret_tables.table(&secret_metric, t)?);
                let secrets: Vec<Secret<'_>> = (0..matching.len())
                    .map(|k| Secret {
                        synthetic: SecretColumn { codes: ss.codes[k], values: ss.values[k] },
                        targets: SecretColumn { codes: ts.codes[k], values: ts.values[k] },
                        matching: matching[k],
                    })
                    .collect();
                let found = infer(&workers, &metric, synthesis, &targets, rows, &secrets, &user_interrupt)?;
                let each = found.into_iter().map(|f| -> Robj {
                    results::Inferred {
                        success: f.success,
                        set_size: counts(f.set_size),
                        distance: f.distance,
                        baseline: f.baseline,
                    }
                    .into()
                });
                Ok(Robj::from(List::from_values(each)))
            },
        )?;
        out.push(
            results::InferenceGroup {
                searches: List::from_values(per_search).into(),
                secret_numeric: secret_tables.numeric.iter().map(|&b| Rbool::from(b)).collect(),
            }
            .into(),
        );
    }
    Ok(List::from_values(out).into())
}

/// Linkability: `request`'s sides (sets of columns, `search.rs`), neighbours,
/// searches and threads. Each synthesis is indexed on both sides once, for
/// its main and control searches. Returns per search list(success, any, a, alpha, b,
/// beta, baseline).
pub fn linkability(encoded: Robj, request: LinkabilityRequest) -> GlueResult<Robj> {
    let LinkabilityRequest { side_a, side_b, n_neighbors, searches: search_wires, n_threads } = request;
    let encoded = encoded_vars(&encoded)?;
    let workers = workers(n_threads)?;
    let (tables_a, metric_a) = distance_tables(&workers, encoded, &side_a, None, "aux_a")?;
    let (tables_b, metric_b) = distance_tables(&workers, encoded, &side_b, None, "aux_b")?;
    let k = u64::try_from(n_neighbors).map_err(|_| internal("n_neighbors"))?;
    let searches = searches(search_wires, tables_a.n_datasets())?;
    let out = run_searches(
        &searches,
        tables_a.n_datasets(),
        |search| {
            let s = search.indexed;
            let (sa, sb) = (tables_a.table(&metric_a, s)?, tables_b.table(&metric_b, s)?);
            LinkedSynthesis::build(&workers, &metric_a, &sa, &metric_b, &sb)
        },
        |search, synthesis| {
            let t = search.queries;
            let (ta, tb) = (tables_a.table(&metric_a, t)?, tables_b.table(&metric_b, t)?);
            let rows = target_rows(search, &ta)?;
            let side_a = Side { metric: &metric_a, targets: &ta };
            let side_b = Side { metric: &metric_b, targets: &tb };
            let found = link(&workers, synthesis, &side_a, &side_b, rows, k, &user_interrupt)?;
            let n_synthetic = synthesis.n_records() as u64;
            let part = |f: fn(&Overlap) -> u64| counts(found.overlap.iter().map(f));
            Ok(Robj::from(results::Linked {
                success: found.success.clone(),
                any: found.any.iter().map(|&b| Rbool::from(b)).collect(),
                a: part(|o| o.a),
                alpha: part(|o| o.alpha),
                b: part(|o| o.b),
                beta: part(|o| o.beta),
                baseline: Robj::from(baseline(n_synthetic, k)),
            }))
        },
    )?;
    Ok(List::from_values(out).into())
}

/// The datasets of singling out, distinct on the attack's columns.
pub struct SinglingOut {
    datasets: Vec<Dataset>,
    numeric: Vec<bool>,
}

/// One variable of the encoding in one dataset as singling out reads it: numbers, or
/// level codes, NaN where missing.
fn so_column(var: &EncodedVar<'_>, k: usize, missing_levels: &[bool]) -> GlueResult<Vec<f64>> {
    if let Some(magnitudes) = &var.magnitudes {
        return Ok(match magnitudes[k] {
            RawColumn::Double(x) => x.iter().map(|&v| if v.is_nan() || is_r_na(v) { f64::NAN } else { v }).collect(),
            RawColumn::Integer(x) => x.iter().map(|&v| if v == NA_INTEGER { f64::NAN } else { v as f64 }).collect(),
            RawColumn::Factor { .. } => return Err(internal("a factor column kept as magnitudes")),
        });
    }
    let codes = &var.codes[k];
    Ok((0..codes.len())
        .map(|i| {
            let c = codes.get(i);
            if missing_levels.get(c as usize).copied().unwrap_or(false) {
                f64::NAN
            } else {
                c as f64
            }
        })
        .collect())
}

/// The distinct datasets of `request.vars` (0-based); `missing_levels` per variable:
/// NULL for a numeric one, per level code whether it is missing. Returns list(ptr, numeric, rows
/// (per dataset, the 1-based rows kept), distinct (per dataset, per variable, its values
/// in order of first appearance)).
pub fn singling_out_data(encoded: Robj, request: SinglingOutDataRequest) -> GlueResult<Robj> {
    let SinglingOutDataRequest { vars, missing_levels, n_threads } = request;
    let encoded = encoded_vars(&encoded)?;
    let vars = var_indices(encoded, &vars, "vars")?;
    let workers = workers(n_threads)?;
    let missing = missing_levels;
    if missing.len() != vars.len() {
        return Err(internal("one set of missing levels per variable"));
    }
    let numeric: Vec<bool> = vars.iter().map(|&v| encoded[v].magnitudes.is_some()).collect();
    let n_datasets = encoded[vars[0]].codes.len();
    let mut datasets = Vec::with_capacity(n_datasets);
    for k in 0..n_datasets {
        let columns = vars
            .iter()
            .zip(&missing)
            .map(|(&v, m)| so_column(&encoded[v], k, m.as_deref().unwrap_or(&[])))
            .collect::<GlueResult<Vec<_>>>()?;
        let refs: Vec<&[f64]> = columns.iter().map(|c| c.as_slice()).collect();
        datasets.push(Dataset::distinct(&workers, &refs)?);
    }
    let rows: Vec<Robj> = datasets.iter().map(|d| one_based_robj(d.rows.iter().copied())).collect();
    let distinct: Vec<Robj> =
        datasets.iter().map(|d| List::from_values(d.distinct_values().into_iter().map(Robj::from)).into()).collect();
    let numeric_robj = Robj::from(numeric.iter().map(|&b| Rbool::from(b)).collect::<Vec<Rbool>>());
    let ptr: Robj = ExternalPtr::new(SinglingOut { datasets, numeric }).into();
    Ok(results::SinglingOutData {
        ptr,
        numeric: numeric_robj,
        rows: List::from_values(rows).into(),
        distinct: List::from_values(distinct).into(),
    }
    .into())
}

fn singling_out(ptr: &Robj) -> GlueResult<&SinglingOut> {
    let p = <&ExternalPtr<SinglingOut>>::try_from(ptr).map_err(|_| internal("not singling-out data of synthrisk"))?;
    p.try_addr().map_err(|_| internal("the singling-out data was released"))
}

fn dataset(so: &SinglingOut, k: i32) -> GlueResult<&Dataset> {
    usize::try_from(k).ok().and_then(|k| so.datasets.get(k)).ok_or_else(|| internal(format!("dataset {k}")))
}

/// Queries from R (a `QueriesWire`: query (1-based ids, nondecreasing), column
/// (0-based), op (code), value), checked.
fn queries_from(x: &QueriesWire, n_cols: usize) -> GlueResult<Queries> {
    let QueriesWire { query: id, column: col, op, value } = x;
    if col.len() != id.len() || op.len() != id.len() || value.len() != id.len() {
        return Err(internal("the columns of queries differ in length"));
    }
    let mut out = Queries::new();
    let mut current: Vec<Predicate> = Vec::new();
    for i in 0..id.len() {
        let c =
            u32::try_from(col[i]).ok().filter(|&c| (c as usize) < n_cols).ok_or_else(|| internal("query column"))?;
        let o = Op::from_code(op[i]).ok_or_else(|| internal(format!("operator {}", op[i])))?;
        if i > 0 && id[i] != id[i - 1] {
            out.push(&current);
            current.clear();
        }
        current.push(Predicate { col: c, op: o, value: if value[i].is_nan() { f64::NAN } else { value[i] } });
    }
    if !id.is_empty() {
        out.push(&current);
    }
    Ok(out)
}

fn queries_robj(q: &Queries) -> GlueResult<Robj> {
    let mut id = Vec::new();
    let (mut col, mut op, mut value) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..q.len() {
        for p in q.get(k) {
            id.push(k as i32 + 1);
            col.push(p.col as i32);
            op.push(p.op.code());
            value.push(p.value);
        }
    }
    Ok(results::QueryColumns { query: id, column: col, op, value }.into())
}

/// The univariate queries of dataset `request.dataset` that single out in it.
pub fn singling_out_univariate(ptr: Robj, request: UnivariateRequest) -> GlueResult<Robj> {
    let so = singling_out(&ptr)?;
    queries_robj(&univariate(dataset(so, request.dataset)?, &so.numeric))
}

/// Multivariate queries on a dataset from attempts drawn as R's `sample.int()` draws
/// them from R's uniforms (`request`: see `GenerateRequest`). Returns list(kept (all kept so
/// far), attempts, consumed (uniforms read, to the end of the last whole batch), done).
pub fn singling_out_generate(ptr: Robj, request: GenerateRequest) -> GlueResult<Robj> {
    let GenerateRequest { dataset: k, uniforms, rounding, n_cols, medians, kept, wanted, attempts_left, n_threads } =
        request;
    let so = singling_out(&ptr)?;
    let syn = dataset(so, k)?;
    let workers = workers(n_threads)?;
    if medians.len() != syn.n_columns() {
        return Err(internal("one median per column"));
    }
    let mut kept = queries_from(&kept, syn.n_columns())?;
    let n_cols = usize::try_from(n_cols).map_err(|_| internal("n_cols"))?;
    let wanted = usize::try_from(wanted).map_err(|_| internal("wanted"))?;
    if attempts_left.is_nan() || attempts_left < 0.0 {
        return Err(internal("attempts_left"));
    }
    let g = multivariate_drawn(
        &workers,
        syn,
        &so.numeric,
        &medians,
        &uniforms,
        rounding,
        n_cols,
        &mut kept,
        wanted,
        attempts_left as usize,
    )?;
    Ok(results::Generated {
        kept: queries_robj(&kept)?,
        attempts: Robj::from(g.attempts as f64),
        consumed: Robj::from(g.consumed as f64),
        done: Robj::from(g.done),
    }
    .into())
}

/// Per dataset of `request.datasets` (each an `EvaluatedWire`), the 1-based row each
/// of `request.queries` singles out, NA where none.
pub fn singling_out_evaluate(ptr: Robj, request: EvaluateRequest) -> GlueResult<Robj> {
    let EvaluateRequest { queries, datasets, n_threads } = request;
    let so = singling_out(&ptr)?;
    let workers = workers(n_threads)?;
    let n_cols = so.numeric.len();
    let queries = queries_from(&queries, n_cols)?;
    let mut out = Vec::new();
    for EvaluatedWire { dataset: k, positions } in datasets {
        let full = dataset(so, k)?;
        let found = match positions {
            None => evaluate(&workers, full, &queries),
            Some(p) => evaluate(&workers, &full.subset(&workers, &p)?, &queries),
        };
        out.push(Robj::from(found.into_iter().map(|r| r.map(|x| x as i32 + 1)).collect::<Vec<Option<i32>>>()));
    }
    Ok(List::from_values(out).into())
}

/// What this topic returns, each a named list of its fields in this order (extendr's
/// `IntoList`; scalars and values of several types as `Robj`). R reads them by name
/// (R/inference-risk.R, R/linkability-risk.R, R/singling-out-risk.R).
mod results {
    use extendr_api::scalar::Rbool;
    use extendr_api::{IntoList, Robj};

    /// One inference search: per target row, success, the size of its nearest set, the
    /// distance to it and the baseline.
    #[derive(IntoList)]
    pub(crate) struct Inferred {
        pub(crate) success: Vec<f64>,
        pub(crate) set_size: Vec<f64>,
        pub(crate) distance: Vec<f64>,
        pub(crate) baseline: Vec<f64>,
    }

    /// One group of secrets: its searches' `Inferred`, and per secret column whether it
    /// is numeric.
    #[derive(IntoList)]
    pub(crate) struct InferenceGroup {
        pub(crate) searches: Robj,
        pub(crate) secret_numeric: Vec<Rbool>,
    }

    /// One linkability search: per target row, success, whether any neighbour links,
    /// the overlaps' counts and the baseline.
    #[derive(IntoList)]
    pub(crate) struct Linked {
        pub(crate) success: Vec<f64>,
        pub(crate) any: Vec<Rbool>,
        pub(crate) a: Vec<f64>,
        pub(crate) alpha: Vec<f64>,
        pub(crate) b: Vec<f64>,
        pub(crate) beta: Vec<f64>,
        pub(crate) baseline: Robj,
    }

    /// The singling-out datasets' handle, per column whether it is numeric, and per
    /// dataset its distinct records' rows and values.
    #[derive(IntoList)]
    pub(crate) struct SinglingOutData {
        pub(crate) ptr: Robj,
        pub(crate) numeric: Robj,
        pub(crate) rows: Robj,
        pub(crate) distinct: Robj,
    }

    /// Queries as columns: the query (1-based), and per predicate its column, operator
    /// and value.
    #[derive(IntoList)]
    pub(crate) struct QueryColumns {
        pub(crate) query: Vec<i32>,
        pub(crate) column: Vec<i32>,
        pub(crate) op: Vec<i32>,
        pub(crate) value: Vec<f64>,
    }

    /// What a round of multivariate attempts left: the queries kept, the attempts, the
    /// uniforms consumed, and whether it is done.
    #[derive(IntoList)]
    pub(crate) struct Generated {
        pub(crate) kept: Robj,
        pub(crate) attempts: Robj,
        pub(crate) consumed: Robj,
        pub(crate) done: Robj,
    }
}

/// The shapes of the requests this topic receives, read by serde (`read_request`; the
/// sets of columns and the searches are `search.rs`'s).
mod wire {
    use crate::search::{ColumnsWire, SearchWire};
    use serde::Deserialize;

    /// `rust_inference`'s request: the groups of secrets, the tolerance (NULL: exact),
    /// the searches and the threads.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct InferenceRequest {
        pub(crate) groups: Vec<InferenceGroupWire>,
        pub(crate) tolerance: Option<f64>,
        pub(crate) searches: Vec<SearchWire>,
        pub(crate) n_threads: i32,
    }

    /// A group of inference's secrets sharing their auxiliary columns: `aux` and
    /// `secrets`, two sets of columns.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct InferenceGroupWire {
        pub(crate) aux: ColumnsWire,
        pub(crate) secrets: ColumnsWire,
    }

    /// `rust_linkability`'s request: each owner's set of columns, the neighbours listed
    /// on each side, the searches (synthesis, target dataset, target rows) and the
    /// threads.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct LinkabilityRequest {
        pub(crate) side_a: ColumnsWire,
        pub(crate) side_b: ColumnsWire,
        pub(crate) n_neighbors: i32,
        pub(crate) searches: Vec<SearchWire>,
        pub(crate) n_threads: i32,
    }

    /// `rust_singling_out_data`'s request: the variables (0-based), per variable its
    /// missing levels (NULL for a numeric one) and the threads.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct SinglingOutDataRequest {
        pub(crate) vars: Vec<i32>,
        pub(crate) missing_levels: Vec<Option<Vec<bool>>>,
        pub(crate) n_threads: i32,
    }

    /// `rust_singling_out_univariate`'s request: the dataset (0-based).
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct UnivariateRequest {
        pub(crate) dataset: i32,
    }

    /// Queries as columns: per predicate its query (1-based, nondecreasing), column
    /// (0-based), operator (code) and value.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct QueriesWire {
        pub(crate) query: Vec<i32>,
        pub(crate) column: Vec<i32>,
        pub(crate) op: Vec<i32>,
        pub(crate) value: Vec<f64>,
    }

    /// A batch of singling out's multivariate attempts: on `dataset` (0-based), drawn
    /// from R's `uniforms` (`runif()`; `rounding` for R's "Rounding" sample kind),
    /// `n_cols` columns each with the synthesis's `medians`, after the queries `kept`,
    /// until `wanted` are kept or `attempts_left` attempts are spent.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct GenerateRequest {
        pub(crate) dataset: i32,
        pub(crate) uniforms: Vec<f64>,
        pub(crate) rounding: bool,
        pub(crate) n_cols: i32,
        pub(crate) medians: Vec<f64>,
        pub(crate) kept: QueriesWire,
        pub(crate) wanted: i32,
        pub(crate) attempts_left: f64,
        pub(crate) n_threads: i32,
    }

    /// `rust_singling_out_evaluate`'s request: the queries, the datasets they are
    /// evaluated on and the threads.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct EvaluateRequest {
        pub(crate) queries: QueriesWire,
        pub(crate) datasets: Vec<EvaluatedWire>,
        pub(crate) n_threads: i32,
    }

    /// A dataset queries are evaluated on: `dataset` (0-based) and `positions` (NULL:
    /// all its distinct records; or their 0-based positions).
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct EvaluatedWire {
        pub(crate) dataset: i32,
        pub(crate) positions: Option<Vec<u32>>,
    }
}
