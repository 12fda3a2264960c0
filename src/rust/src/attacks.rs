//! The attacks of definitions vignette 13 on the one encoding: R sends the encoding
//! handle (original, syntheses, control), the variables each attack reads, and the
//! attacks to run (a synthesis, a dataset of targets and its target rows); the core
//! builds the distance tables from the encoded variables, runs the attacks on the
//! worker pool, and the results go back after the join. Singling out keeps its
//! distinct datasets behind a pointer between R's crossings: the multivariate attempts
//! are drawn from R's uniforms, handed over in chunks.

use crate::encoding::{encoded_vars, var_indices};
use crate::protocol::*;
use extendr_api::prelude::*;
use synthrisk_core::distance::{Metric, Table};
use synthrisk_core::distance_tables::{DistanceTables, DistanceVariable};
use synthrisk_core::encode::{is_r_na, EncodedVar, RawColumn, NA_INTEGER};
use synthrisk_core::inference::{infer, Matching, Secret, SecretColumn};
use synthrisk_core::linkability::{baseline, link, Overlap, Side};
use synthrisk_core::singling_out::{evaluate, multivariate_drawn, univariate, Dataset, Op, Predicate, Queries};
use wire::AttackWire;

/// The distance tables and metric of `vars` (0-based) with their cont.na codes: R's
/// values read here, the tables built on the pool.
fn distance_tables(
    workers: &synthrisk_core::workers::Workers,
    encoded: &[EncodedVar<'static>],
    vars: &Robj,
    label_codes: &Robj,
    names: &Robj,
    what: &str,
) -> GlueResult<(DistanceTables, Metric)> {
    let vars = var_indices(encoded, vars, what)?;
    let label_codes: Vec<Robj> = List::from_robj(label_codes, "label_codes")?.values().collect();
    let label_codes: Vec<Vec<f64>> =
        label_codes.iter().map(|c| real_slice(c, "label_codes[[i]]").map(|s| s.to_vec())).collect::<GlueResult<_>>()?;
    let names = Vec::<String>::from_robj(names, "names")?;
    if label_codes.len() != vars.len() || names.len() != vars.len() || vars.is_empty() {
        return Err(internal(format!("one set of codes and one name per variable of `{what}`")));
    }
    let variables: Vec<DistanceVariable<'_, '_>> = vars
        .iter()
        .zip(&label_codes)
        .zip(&names)
        .map(|((&k, codes), name)| DistanceVariable { var: &encoded[k], label_codes: codes, name })
        .collect();
    let tables = workers.run(|| DistanceTables::build(&variables))?;
    let metric = Metric::new(tables.numeric.clone(), vec![1.0; vars.len()], tables.ranges.clone())?;
    Ok((tables, metric))
}

/// The attacks R asks for: (synthesis, targets, rows), datasets 0-based.
fn attacks(x: &Robj, n_datasets: usize) -> GlueResult<Vec<(usize, usize, Vec<u32>)>> {
    List::from_robj(x, "attacks")?
        .values()
        .map(|r| {
            let AttackWire { synthesis, targets, rows } = AttackWire::try_from(&r).map_err(wire_error("attacks[[i]]"))?;
            let ok = |k: i32| usize::try_from(k).ok().filter(|&k| k < n_datasets);
            let rows = Vec::<u32>::from_robj(&rows, "attacks[[i]]$rows")?;
            match (ok(synthesis), ok(targets)) {
                (Some(s), Some(t)) => Ok((s, t, rows)),
                _ => Err(internal(format!("attack of datasets {synthesis} and {targets}"))),
            }
        })
        .collect()
}

fn check_rows(rows: &[u32], table: &Table<'_>) -> GlueResult<()> {
    match rows.iter().find(|&&r| r as usize >= table.n_rows) {
        Some(r) => Err(internal(format!("target row {r} beyond the {} records", table.n_rows))),
        None => Ok(()),
    }
}

/// Inference, per group of secrets sharing their auxiliary columns (one search per
/// group): `groups` list(aux, aux_codes, aux_names, secrets, secret_codes,
/// secret_names), variables 0-based; `tolerance` (NaN: exact match). Returns per group
/// list(attacks = per run, per secret list(success, set_size, distance, baseline),
/// secret_numeric).
pub fn inference(encoded: Robj, groups: Robj, tolerance: f64, runs: Robj, n_threads: i32) -> GlueResult<Robj> {
    let encoded = encoded_vars(&encoded)?;
    let workers = workers(n_threads)?;
    let mut out = Vec::new();
    for group in List::from_robj(&groups, "groups")?.values() {
        let g = List::from_robj(&group, "groups[[i]]")?;
        let field = |name: &str| -> GlueResult<Robj> {
            g.iter().find(|(n, _)| *n == name).map(|(_, v)| v).ok_or_else(|| internal(format!("groups[[i]]${name}")))
        };
        let (tables, metric) =
            distance_tables(&workers, encoded, &field("aux")?, &field("aux_codes")?, &field("aux_names")?, "aux")?;
        let (secret_tables, secret_metric) = distance_tables(
            &workers,
            encoded,
            &field("secrets")?,
            &field("secret_codes")?,
            &field("secret_names")?,
            "secrets",
        )?;
        let matching: Vec<Matching> = secret_tables
            .numeric
            .iter()
            .map(|&numeric| {
                if !numeric {
                    Matching::Labels
                } else if tolerance.is_nan() {
                    Matching::Exact
                } else {
                    Matching::Within(tolerance)
                }
            })
            .collect();
        let mut per_run = Vec::new();
        for (s, t, rows) in attacks(&runs, tables.n_datasets())? {
            let syn = tables.table(&metric, s)?;
            let targets = tables.table(&metric, t)?;
            check_rows(&rows, &targets)?;
            let (ss, ts) = (secret_tables.table(&secret_metric, s)?, secret_tables.table(&secret_metric, t)?);
            let secrets: Vec<Secret<'_>> = (0..matching.len())
                .map(|k| Secret {
                    synthetic: SecretColumn { codes: ss.codes[k], values: ss.values[k] },
                    targets: SecretColumn { codes: ts.codes[k], values: ts.values[k] },
                    matching: matching[k],
                })
                .collect();
            let found = infer(&workers, &metric, &syn, &targets, &rows, &secrets, &user_interrupt)?;
            let each = found
                .into_iter()
                .map(|f| {
                    named_list(
                        ["success", "set_size", "distance", "baseline"],
                        [Robj::from(f.success), counts_robj(f.set_size), Robj::from(f.distance), Robj::from(f.baseline)],
                    )
                })
                .collect::<GlueResult<Vec<Robj>>>()?;
            per_run.push(Robj::from(List::from_values(each)));
        }
        out.push(named_list(
            ["attacks", "secret_numeric"],
            [
                List::from_values(per_run).into(),
                Robj::from(secret_tables.numeric.iter().map(|&b| Rbool::from(b)).collect::<Vec<Rbool>>()),
            ],
        )?);
    }
    Ok(List::from_values(out).into())
}

/// Linkability on `aux_a` and `aux_b` with `k` neighbours. Returns per attack
/// list(success, any, a, alpha, b, beta) and the baseline per attack.
#[allow(clippy::too_many_arguments)]
pub fn linkability(
    encoded: Robj,
    aux_a: Robj,
    codes_a: Robj,
    names_a: Robj,
    aux_b: Robj,
    codes_b: Robj,
    names_b: Robj,
    k: i32,
    runs: Robj,
    n_threads: i32,
) -> GlueResult<Robj> {
    let encoded = encoded_vars(&encoded)?;
    let workers = workers(n_threads)?;
    let (tables_a, metric_a) = distance_tables(&workers, encoded, &aux_a, &codes_a, &names_a, "aux_a")?;
    let (tables_b, metric_b) = distance_tables(&workers, encoded, &aux_b, &codes_b, &names_b, "aux_b")?;
    let k = u64::try_from(k).map_err(|_| internal("k"))?;
    let mut out = Vec::new();
    for (s, t, rows) in attacks(&runs, tables_a.n_datasets())? {
        let (sa, sb) = (tables_a.table(&metric_a, s)?, tables_b.table(&metric_b, s)?);
        let (ta, tb) = (tables_a.table(&metric_a, t)?, tables_b.table(&metric_b, t)?);
        check_rows(&rows, &ta)?;
        let side_a = Side { metric: &metric_a, synthetic: &sa, targets: &ta };
        let side_b = Side { metric: &metric_b, synthetic: &sb, targets: &tb };
        let found = link(&workers, &side_a, &side_b, &rows, k, &user_interrupt)?;
        let part = |f: fn(&Overlap) -> u64| counts_robj(found.overlap.iter().map(f));
        out.push(named_list(
            ["success", "any", "a", "alpha", "b", "beta", "baseline"],
            [
                Robj::from(found.success.clone()),
                Robj::from(found.any.iter().map(|&b| Rbool::from(b)).collect::<Vec<Rbool>>()),
                part(|o| o.a),
                part(|o| o.alpha),
                part(|o| o.b),
                part(|o| o.beta),
                Robj::from(baseline(sa.n_rows as u64, k)),
            ],
        )?);
    }
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

/// The distinct datasets of `vars` (0-based); `missing_levels` per variable: NULL for a
/// numeric one, per level code whether it is missing. Returns list(ptr, numeric, rows
/// (per dataset, the 1-based rows kept), distinct (per dataset, per variable, its values
/// in order of first appearance)).
pub fn singling_out_data(encoded: Robj, vars: Robj, missing_levels: Robj, n_threads: i32) -> GlueResult<Robj> {
    let encoded = encoded_vars(&encoded)?;
    let vars = var_indices(encoded, &vars, "vars")?;
    let workers = workers(n_threads)?;
    let missing: Vec<Robj> = List::from_robj(&missing_levels, "missing_levels")?.values().collect();
    let missing = missing.iter().map(|m| Option::<Vec<bool>>::from_robj(m, "missing_levels[[i]]")).collect::<GlueResult<Vec<_>>>()?;
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
    let distinct: Vec<Robj> = datasets
        .iter()
        .map(|d| List::from_values(d.distinct_values().into_iter().map(Robj::from)).into())
        .collect();
    let numeric_robj = Robj::from(numeric.iter().map(|&b| Rbool::from(b)).collect::<Vec<Rbool>>());
    let ptr: Robj = ExternalPtr::new(SinglingOut { datasets, numeric }).into();
    named_list(
        ["ptr", "numeric", "rows", "distinct"],
        [ptr, numeric_robj, List::from_values(rows).into(), List::from_values(distinct).into()],
    )
}

fn singling_out(ptr: &Robj) -> GlueResult<&SinglingOut> {
    let p = <&ExternalPtr<SinglingOut>>::try_from(ptr).map_err(|_| internal("not singling-out data of synthrisk"))?;
    p.try_addr().map_err(|_| internal("the singling-out data was released"))
}

fn dataset(so: &SinglingOut, k: i32) -> GlueResult<&Dataset> {
    usize::try_from(k).ok().and_then(|k| so.datasets.get(k)).ok_or_else(|| internal(format!("dataset {k}")))
}

/// Queries from R: list(query (1-based ids, nondecreasing), column (0-based), op (code),
/// value).
fn queries_from(x: &Robj, n_cols: usize) -> GlueResult<Queries> {
    let l = List::from_robj(x, "queries")?;
    let get = |name: &str| l.iter().find(|(n, _)| *n == name).map(|(_, v)| v).ok_or_else(|| internal(format!("queries${name}")));
    let (id, col, op, value) = (get("query")?, get("column")?, get("op")?, get("value")?);
    let (id, col, op, value) =
        (int_slice(&id, "query")?, int_slice(&col, "column")?, int_slice(&op, "op")?, real_slice(&value, "value")?);
    if col.len() != id.len() || op.len() != id.len() || value.len() != id.len() {
        return Err(internal("the columns of queries differ in length"));
    }
    let mut out = Queries::new();
    let mut current: Vec<Predicate> = Vec::new();
    for i in 0..id.len() {
        let c = u32::try_from(col[i]).ok().filter(|&c| (c as usize) < n_cols).ok_or_else(|| internal("query column"))?;
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
    named_list(
        ["query", "column", "op", "value"],
        [Robj::from(id), Robj::from(col), Robj::from(op), Robj::from(value)],
    )
}

/// The univariate queries of dataset `k` that single out in it.
pub fn singling_out_univariate(ptr: Robj, k: i32) -> GlueResult<Robj> {
    let so = singling_out(&ptr)?;
    queries_robj(&univariate(dataset(so, k)?, &so.numeric))
}

/// Multivariate queries on dataset `k` from attempts drawn as R's `sample.int()` draws
/// them from `uniforms` (R's `runif()`; `rounding` for R's "Rounding" sample kind),
/// `n_cols` columns each, after the queries `kept`, until `wanted` are kept or
/// `attempts_left` attempts are spent. Returns list(kept (all kept so far), attempts,
/// consumed (uniforms read, to the end of the last whole batch), done).
#[allow(clippy::too_many_arguments)]
pub fn singling_out_generate(
    ptr: Robj,
    k: i32,
    uniforms: Robj,
    rounding: bool,
    n_cols: i32,
    medians: Robj,
    kept: Robj,
    wanted: i32,
    attempts_left: f64,
    n_threads: i32,
) -> GlueResult<Robj> {
    let so = singling_out(&ptr)?;
    let syn = dataset(so, k)?;
    let workers = workers(n_threads)?;
    let uniforms = real_slice(&uniforms, "uniforms")?;
    let medians = real_slice(&medians, "medians")?;
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
        medians,
        uniforms,
        rounding,
        n_cols,
        &mut kept,
        wanted,
        attempts_left as usize,
    )?;
    named_list(
        ["kept", "attempts", "consumed", "done"],
        [queries_robj(&kept)?, Robj::from(g.attempts as f64), Robj::from(g.consumed as f64), Robj::from(g.done)],
    )
}

/// Per target dataset (list(dataset, positions: NULL for all, or 0-based positions of
/// its distinct records)), the 1-based row each query singles out, NA where none.
pub fn singling_out_evaluate(ptr: Robj, queries: Robj, targets: Robj, n_threads: i32) -> GlueResult<Robj> {
    let so = singling_out(&ptr)?;
    let workers = workers(n_threads)?;
    let n_cols = so.numeric.len();
    let queries = queries_from(&queries, n_cols)?;
    let mut out = Vec::new();
    for t in List::from_robj(&targets, "targets")?.values() {
        let t = List::from_robj(&t, "targets[[i]]")?;
        let k = i32::from_robj(&t.elt(0).map_err(internal)?, "targets[[i]]$dataset")?;
        let positions = Option::<Vec<u32>>::from_robj(&t.elt(1).map_err(internal)?, "targets[[i]]$positions")?;
        let full = dataset(so, k)?;
        let found = match positions {
            None => evaluate(&workers, full, &queries),
            Some(p) => evaluate(&workers, &full.subset(&workers, &p)?, &queries),
        };
        out.push(Robj::from(found.into_iter().map(|r| r.map(|x| x as i32 + 1)).collect::<Vec<Option<i32>>>()));
    }
    Ok(List::from_values(out).into())
}

/// The shapes of the lists this topic receives (see `crate::wire`).
mod wire {
    pub(crate) use crate::wire::FieldByName;
    use extendr_api::{Robj, TryFromList};

    /// One attack: the synthesis searched, the dataset of targets, its target rows
    /// (0-based), all datasets 0-based.
    #[derive(TryFromList)]
    pub(crate) struct AttackWire {
        pub(crate) synthesis: i32,
        pub(crate) targets: i32,
        pub(crate) rows: Robj,
    }
}
