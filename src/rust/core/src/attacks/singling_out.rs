//! Singling out (definitions vignette 13): queries (conjunctions of predicates on
//! distinct columns) and whether exactly one record of a dataset satisfies each. A
//! column is one double per record: a number, or the level code of a label; missing
//! (NA, NaN, an NA level, "Missing") is NaN, which satisfies only `is NA`. Records that
//! repeat another on every column are dropped first (the first is kept). A query is
//! counted from its most selective predicate's run of each column's sorted order,
//! stopping at the second record found.

use crate::attacks::r_sampling::Uniforms;
use crate::error::{CoreError, CoreResult};
use crate::workers::Workers;
use hashbrown::HashSet;
use rayon::prelude::*;
use std::cmp::Ordering;

/// The operators of a predicate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    IsNa,
    NotNa,
}

impl Op {
    /// From the codes R sends (1-based, in the order of the enum).
    pub fn from_code(code: i32) -> Option<Op> {
        Some(match code {
            1 => Op::Eq,
            2 => Op::Ne,
            3 => Op::Lt,
            4 => Op::Gt,
            5 => Op::Le,
            6 => Op::Ge,
            7 => Op::IsNa,
            8 => Op::NotNa,
            _ => return None,
        })
    }

    pub fn code(self) -> i32 {
        match self {
            Op::Eq => 1,
            Op::Ne => 2,
            Op::Lt => 3,
            Op::Gt => 4,
            Op::Le => 5,
            Op::Ge => 6,
            Op::IsNa => 7,
            Op::NotNa => 8,
        }
    }

    #[inline]
    fn holds(self, x: f64, v: f64) -> bool {
        if x.is_nan() {
            return self == Op::IsNa;
        }
        match self {
            Op::Eq => x == v,
            Op::Ne => !v.is_nan() && x != v,
            Op::Lt => x < v,
            Op::Gt => x > v,
            Op::Le => x <= v,
            Op::Ge => x >= v,
            Op::IsNa => false,
            Op::NotNa => true,
        }
    }
}

/// One predicate: column (0-based), operator, value (NaN for `is NA`/`is not NA`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Predicate {
    pub col: u32,
    pub op: Op,
    pub value: f64,
}

/// A query's identity for "already kept": its predicates, -0 read as 0.
fn query_key(q: &[Predicate]) -> Vec<(u32, i32, u64)> {
    q.iter()
        .map(|p| {
            let v = if p.value == 0.0 { 0.0 } else { p.value };
            (p.col, p.op.code(), if v.is_nan() { f64::NAN.to_bits() } else { v.to_bits() })
        })
        .collect()
}

#[inline]
fn cmp_missing_last(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
    }
}

/// One dataset's records (distinct on every column), each column in sorted order.
pub struct Dataset {
    /// Per column, per record (position).
    columns: Vec<Vec<f64>>,
    /// Per position, the 0-based row of the dataset as given.
    pub rows: Vec<u32>,
    /// Per column, positions sorted by value (missing last), the sorted values, and
    /// how many are not missing.
    order: Vec<Vec<u32>>,
    sorted: Vec<Vec<f64>>,
    present: Vec<usize>,
}

impl Dataset {
    /// The records of `columns` (one vector per column, one value per row), those that
    /// repeat an earlier record on every column dropped.
    pub fn distinct(workers: &Workers, columns: &[&[f64]]) -> CoreResult<Dataset> {
        let n = columns.first().map_or(0, |c| c.len());
        if columns.iter().any(|c| c.len() != n) {
            return Err(CoreError::new("internal: the columns of singling out differ in length"));
        }
        let compare = |a: usize, b: usize| {
            for c in columns {
                let o = cmp_missing_last(c[a], c[b]);
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ordering::Equal
        };
        let mut order: Vec<u32> = (0..n as u32).collect();
        workers.run(|| order.par_sort_unstable_by(|&a, &b| compare(a as usize, b as usize).then(a.cmp(&b))));
        let mut keep = vec![false; n];
        let mut prev: Option<usize> = None;
        for &i in &order {
            let i = i as usize;
            if prev.is_none_or(|j| compare(i, j) != Ordering::Equal) {
                keep[i] = true;
            }
            prev = Some(i);
        }
        let rows: Vec<u32> = (0..n as u32).filter(|&i| keep[i as usize]).collect();
        Ok(Dataset::of_rows(workers, columns, rows))
    }

    /// The records `rows` (0-based rows of `columns`), taken as they are.
    pub fn of_rows(workers: &Workers, columns: &[&[f64]], rows: Vec<u32>) -> Dataset {
        let cols: Vec<Vec<f64>> = columns.iter().map(|c| rows.iter().map(|&r| c[r as usize]).collect()).collect();
        let sorted_cols: Vec<(Vec<u32>, Vec<f64>, usize)> = workers.run(|| {
            cols.par_iter()
                .map(|c| {
                    let mut o: Vec<u32> = (0..c.len() as u32).collect();
                    o.sort_by(|&a, &b| cmp_missing_last(c[a as usize], c[b as usize]).then(a.cmp(&b)));
                    let s: Vec<f64> = o.iter().map(|&i| c[i as usize]).collect();
                    let present = s.partition_point(|x| !x.is_nan());
                    (o, s, present)
                })
                .collect()
        });
        let mut order = Vec::new();
        let mut sorted = Vec::new();
        let mut present = Vec::new();
        for (o, s, p) in sorted_cols {
            order.push(o);
            sorted.push(s);
            present.push(p);
        }
        Dataset { columns: cols, rows, order, sorted, present }
    }

    pub fn n_records(&self) -> usize {
        self.rows.len()
    }

    /// The records at `positions` (of this dataset), rows as given kept.
    pub fn subset(&self, workers: &Workers, positions: &[u32]) -> CoreResult<Dataset> {
        if let Some(&bad) = positions.iter().find(|&&p| p as usize >= self.n_records()) {
            return Err(CoreError::new(format!("internal: position {bad} of a subset is beyond the records")));
        }
        let refs: Vec<&[f64]> = self.columns.iter().map(|c| c.as_slice()).collect();
        let mut out = Dataset::of_rows(workers, &refs, positions.to_vec());
        out.rows = positions.iter().map(|&p| self.rows[p as usize]).collect();
        Ok(out)
    }

    /// Per column, its values in order of first appearance (missing as NaN, once).
    pub fn distinct_values(&self) -> Vec<Vec<f64>> {
        self.columns
            .iter()
            .map(|c| {
                let mut seen: HashSet<u64> = HashSet::new();
                c.iter()
                    .copied()
                    .filter(|&x| {
                        let key = if x.is_nan() {
                            f64::NAN.to_bits()
                        } else if x == 0.0 {
                            0f64.to_bits()
                        } else {
                            x.to_bits()
                        };
                        seen.insert(key)
                    })
                    .collect()
            })
            .collect()
    }

    pub fn n_columns(&self) -> usize {
        self.columns.len()
    }

    /// The value of column `c` at position `pos`.
    pub fn value(&self, c: usize, pos: usize) -> f64 {
        self.columns[c][pos]
    }

    /// The runs of column `p.col`'s sorted order whose records satisfy `p`.
    fn runs(&self, p: &Predicate) -> [(usize, usize); 2] {
        let c = p.col as usize;
        let s = &self.sorted[c];
        let np = self.present[c];
        let n = s.len();
        let v = p.value;
        let present = &s[..np];
        let lb = || present.partition_point(|&x| x < v);
        let ub = || present.partition_point(|&x| x <= v);
        let empty = (0, 0);
        if v.is_nan() && !matches!(p.op, Op::IsNa | Op::NotNa) {
            return [empty, empty];
        }
        match p.op {
            Op::Eq => [(lb(), ub()), empty],
            Op::Ne => [(0, lb()), (ub(), np)],
            Op::Lt => [(0, lb()), empty],
            Op::Le => [(0, ub()), empty],
            Op::Gt => [(ub(), np), empty],
            Op::Ge => [(lb(), np), empty],
            Op::IsNa => [(np, n), empty],
            Op::NotNa => [(0, np), empty],
        }
    }

    /// Records satisfying every predicate of `query`, counted up to `cap`, and the
    /// position of the first found.
    pub fn count(&self, query: &[Predicate], cap: usize) -> (usize, Option<usize>) {
        if query.is_empty() {
            return (self.n_records().min(cap), if self.n_records() > 0 { Some(0) } else { None });
        }
        let mut best = 0;
        let mut best_runs = self.runs(&query[0]);
        let size = |r: &[(usize, usize); 2]| r.iter().map(|&(a, b)| b.saturating_sub(a)).sum::<usize>();
        for (k, p) in query.iter().enumerate().skip(1) {
            let r = self.runs(p);
            if size(&r) < size(&best_runs) {
                best = k;
                best_runs = r;
            }
        }
        let col = query[best].col as usize;
        let mut found = 0;
        let mut first = None;
        for &(a, b) in &best_runs {
            for i in a..b.max(a) {
                let pos = self.order[col][i] as usize;
                let ok = query
                    .iter()
                    .enumerate()
                    .all(|(k, p)| k == best || p.op.holds(self.columns[p.col as usize][pos], p.value));
                if ok {
                    found += 1;
                    if first.is_none() {
                        first = Some(pos);
                    }
                    if found >= cap {
                        return (found, first);
                    }
                }
            }
        }
        (found, first)
    }

    /// The 0-based row (as given) that `query` singles out, if it does.
    pub fn singled_out(&self, query: &[Predicate]) -> Option<u32> {
        match self.count(query, 2) {
            (1, Some(pos)) => Some(self.rows[pos]),
            _ => None,
        }
    }
}

/// Queries stored flat: query q is `predicates[offsets[q]..offsets[q + 1]]`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Queries {
    pub offsets: Vec<usize>,
    pub predicates: Vec<Predicate>,
}

impl Queries {
    pub fn new() -> Self {
        Queries { offsets: vec![0], predicates: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, q: usize) -> &[Predicate] {
        &self.predicates[self.offsets[q]..self.offsets[q + 1]]
    }

    pub fn push(&mut self, q: &[Predicate]) {
        self.predicates.extend_from_slice(q);
        self.offsets.push(self.predicates.len());
    }
}

/// The univariate queries of a synthesis that single out in it: per column, `is NA`
/// when one record is missing; for numeric columns `<= min` and `>= max` of the finite
/// values; `== v` for every value occurring once (in sorted order).
pub fn univariate(syn: &Dataset, numeric: &[bool]) -> Queries {
    let mut out = Queries::new();
    for (c, &is_numeric) in numeric.iter().enumerate().take(syn.n_columns()) {
        let s = &syn.sorted[c];
        let np = syn.present[c];
        let col = c as u32;
        let mut candidates = Vec::new();
        if s.len() - np == 1 {
            candidates.push(Predicate { col, op: Op::IsNa, value: f64::NAN });
        }
        if is_numeric {
            let finite: Vec<f64> = s[..np].iter().copied().filter(|x| x.is_finite()).collect();
            if let (Some(&lo), Some(&hi)) = (finite.first(), finite.last()) {
                candidates.push(Predicate { col, op: Op::Le, value: lo });
                candidates.push(Predicate { col, op: Op::Ge, value: hi });
            }
        }
        let mut i = 0;
        while i < np {
            let mut j = i + 1;
            while j < np && s[j] == s[i] {
                j += 1;
            }
            if j - i == 1 {
                candidates.push(Predicate { col, op: Op::Eq, value: s[i] });
            }
            i = j;
        }
        for p in candidates {
            if syn.count(&[p], 2).0 == 1 {
                out.push(&[p]);
            }
        }
    }
    out
}

/// The query of one attempt: record `pos` of the synthesis on columns `cols`.
pub fn attempt_query(syn: &Dataset, numeric: &[bool], medians: &[f64], pos: usize, cols: &[u32]) -> Vec<Predicate> {
    cols.iter()
        .map(|&col| {
            let c = col as usize;
            let x = syn.value(c, pos);
            if x.is_nan() {
                Predicate { col, op: Op::IsNa, value: f64::NAN }
            } else if !numeric[c] {
                Predicate { col, op: Op::Eq, value: x }
            } else if x > medians[c] {
                Predicate { col, op: Op::Ge, value: x }
            } else {
                Predicate { col, op: Op::Le, value: x }
            }
        })
        .collect()
}

/// Multivariate queries from attempts (record `positions[i]`, columns
/// `columns[i * n_cols..]`), in order: an attempt's query is kept when it singles out in
/// the synthesis and is not among `kept` (the queries kept so far, extended). Stops at
/// `wanted` kept queries. Returns the attempts used.
#[allow(clippy::too_many_arguments)]
pub fn multivariate(
    workers: &Workers,
    syn: &Dataset,
    numeric: &[bool],
    medians: &[f64],
    positions: &[u32],
    columns: &[u32],
    n_cols: usize,
    kept: &mut Queries,
    wanted: usize,
) -> CoreResult<usize> {
    if columns.len() != positions.len() * n_cols {
        return Err(CoreError::new("internal: one set of columns per attempt"));
    }
    let mut seen: HashSet<Vec<(u32, i32, u64)>> = (0..kept.len()).map(|q| query_key(kept.get(q))).collect();
    let queries: Vec<Vec<Predicate>> = positions
        .iter()
        .enumerate()
        .map(|(i, &pos)| attempt_query(syn, numeric, medians, pos as usize, &columns[i * n_cols..(i + 1) * n_cols]))
        .collect();
    let single: Vec<bool> = workers.run(|| queries.par_iter().map(|q| syn.count(q, 2).0 == 1).collect());
    for (i, q) in queries.iter().enumerate() {
        if kept.len() >= wanted {
            return Ok(i);
        }
        if single[i] && seen.insert(query_key(q)) {
            kept.push(q);
        }
    }
    Ok(queries.len())
}

/// How far the attempts drawn from R's uniforms went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Generation {
    /// Uniforms read up to the end of the last batch drawn whole.
    pub consumed: usize,
    /// Attempts examined.
    pub attempts: usize,
    /// Whether `wanted` queries are kept or the attempts are spent.
    pub done: bool,
}

/// Multivariate queries from attempts drawn as R draws them from `uniforms` (R's
/// `runif()`): per batch of min(1000, attempts left), `sample.int(Ns, B, replace = TRUE)`
/// then per attempt `sort(sample.int(p, n_cols))`. Stops at `wanted` kept queries, after
/// `attempts_left` attempts, or when the uniforms cannot complete a batch (R then hands
/// over more, from the end of the last whole batch).
#[allow(clippy::too_many_arguments)]
pub fn multivariate_drawn(
    workers: &Workers,
    syn: &Dataset,
    numeric: &[bool],
    medians: &[f64],
    uniforms: &[f64],
    rounding: bool,
    n_cols: usize,
    kept: &mut Queries,
    wanted: usize,
    attempts_left: usize,
) -> CoreResult<Generation> {
    let (ns, p) = (syn.n_records(), syn.n_columns());
    if n_cols == 0 || n_cols > p || ns == 0 {
        return Err(CoreError::new("internal: attempts need records and 1 to p columns"));
    }
    let mut stream = Uniforms::new(uniforms, rounding);
    let mut out = Generation::default();
    let mut pool = Vec::with_capacity(p);
    loop {
        if kept.len() >= wanted || out.attempts >= attempts_left {
            out.done = true;
            return Ok(out);
        }
        let b = (attempts_left - out.attempts).min(1000);
        let mut rows = Vec::with_capacity(b);
        for _ in 0..b {
            match stream.unif_index(ns as f64) {
                Some(x) => rows.push(x as u32),
                None => return Ok(out),
            }
        }
        let mut cols = Vec::with_capacity(b * n_cols);
        for _ in 0..b {
            let Some(mut c) = stream.sample_without_replacement(p, n_cols, &mut pool) else { return Ok(out) };
            c.sort_unstable();
            cols.extend(c.iter().map(|&x| (x - 1) as u32));
        }
        let used = multivariate(workers, syn, numeric, medians, &rows, &cols, n_cols, kept, wanted)?;
        out.consumed = stream.used;
        out.attempts += used;
        if used < b {
            out.done = true;
            return Ok(out);
        }
    }
}

/// Per query, the 0-based row (as given) of the record it singles out in `data`, if any.
pub fn evaluate(workers: &Workers, data: &Dataset, queries: &Queries) -> Vec<Option<u32>> {
    workers.run(|| (0..queries.len()).into_par_iter().map(|q| data.singled_out(queries.get(q))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_random::XorShift;

    fn brute(columns: &[Vec<f64>], rows: &[u32], q: &[Predicate]) -> Vec<u32> {
        rows.iter()
            .copied()
            .filter(|&r| q.iter().all(|p| p.op.holds(columns[p.col as usize][r as usize], p.value)))
            .collect()
    }

    #[test]
    fn counts_equal_brute_force() {
        let mut rng = XorShift::new(0x5111);
        let w = Workers::new(2).unwrap();
        let ops = [Op::Eq, Op::Ne, Op::Lt, Op::Gt, Op::Le, Op::Ge, Op::IsNa, Op::NotNa];
        for case in 0..300 {
            let p = 1 + rng.below(4) as usize;
            let n = 1 + rng.below(40) as usize;
            let columns: Vec<Vec<f64>> = (0..p)
                .map(|_| (0..n).map(|_| if rng.below(6) == 0 { f64::NAN } else { rng.below(5) as f64 - 1.0 }).collect())
                .collect();
            let refs: Vec<&[f64]> = columns.iter().map(|c| c.as_slice()).collect();
            let d = Dataset::distinct(&w, &refs).unwrap();
            // Distinct: no two kept rows equal on every column.
            for (i, &a) in d.rows.iter().enumerate() {
                for &b in &d.rows[..i] {
                    let same = columns.iter().all(|c| {
                        let (x, y) = (c[a as usize], c[b as usize]);
                        (x.is_nan() && y.is_nan()) || x == y
                    });
                    assert!(!same, "case {case}");
                }
            }
            for _ in 0..20 {
                let k = 1 + rng.below(p as u64) as usize;
                let q: Vec<Predicate> = (0..k)
                    .map(|j| {
                        let op = ops[rng.below(8) as usize];
                        let value = if matches!(op, Op::IsNa | Op::NotNa) {
                            f64::NAN
                        } else {
                            rng.below(5) as f64 - 1.5 + 0.5 * rng.below(2) as f64
                        };
                        Predicate { col: j as u32, op, value }
                    })
                    .collect();
                let want = brute(&columns, &d.rows, &q);
                let (got, first) = d.count(&q, usize::MAX);
                assert_eq!(got, want.len(), "case {case} {q:?}");
                let single = d.singled_out(&q);
                assert_eq!(single, if want.len() == 1 { Some(want[0]) } else { None });
                if got > 0 {
                    assert!(want.contains(&d.rows[first.unwrap()]));
                }
            }
        }
    }

    #[test]
    fn univariate_queries_single_out_in_the_synthesis() {
        let w = Workers::new(1).unwrap();
        let a = vec![1.0, 2.0, 2.0, f64::NAN, 5.0];
        let b = vec![0.0, 0.0, 1.0, 1.0, 1.0];
        let d = Dataset::distinct(&w, &[&a, &b]).unwrap();
        let q = univariate(&d, &[true, false]);
        let listed: Vec<Vec<Predicate>> = (0..q.len()).map(|i| q.get(i).to_vec()).collect();
        // a: is NA, <= 1, >= 5, == 1, == 5; b: none (0 twice, 1 three times).
        assert_eq!(listed.len(), 5);
        assert_eq!(listed[0][0].op, Op::IsNa);
        assert_eq!(listed[1][0], Predicate { col: 0, op: Op::Le, value: 1.0 });
        assert_eq!(listed[2][0], Predicate { col: 0, op: Op::Ge, value: 5.0 });
    }

    #[test]
    fn multivariate_keeps_new_queries_that_single_out_and_stops_when_enough() {
        let w = Workers::new(1).unwrap();
        let a = vec![1.0, 2.0, 3.0, 4.0];
        let b = vec![0.0, 0.0, 1.0, 1.0];
        let d = Dataset::distinct(&w, &[&a, &b]).unwrap();
        let mut kept = Queries::new();
        // attempts: row 0 twice (same query), row 3, row 1.
        let used = multivariate(
            &w,
            &d,
            &[true, false],
            &[2.5, f64::NAN],
            &[0, 0, 3, 1],
            &[0, 1, 0, 1, 0, 1, 0, 1],
            2,
            &mut kept,
            2,
        )
        .unwrap();
        assert_eq!(kept.len(), 2);
        assert_eq!(used, 3);
        assert_eq!(
            kept.get(0),
            &[Predicate { col: 0, op: Op::Le, value: 1.0 }, Predicate { col: 1, op: Op::Eq, value: 0.0 }]
        );
        assert_eq!(kept.get(1)[0].op, Op::Ge);
    }
}
