//! Exact nearest records under the Gower distance of `distance.rs` (definitions
//! vignette 11): for each query record, the smallest distance to the indexed records,
//! the smallest row attaining it, and (when asked) the second smallest distance of the
//! multiset. Equal to brute force bit for bit, with memory O(N) and no N x N matrix.
//!
//! The index groups its records by pattern: the codes of every variable whose code is
//! not the same for all records (categorical labels, and for numeric variables whether
//! the value is finite or which special label it is). The patterns form a trie in
//! column order; a query walks it matching child first, each differing code adding its
//! weight to a lower bound of S, and a subtree is skipped once that bound (shrunk by
//! `Metric::bound_slack()` against rounding) passes the best distances found. Inside a
//! pattern the finite numeric values sit in a k-d tree whose boxes bound the numeric
//! contributions the same way. Every distance that could matter is computed exactly,
//! in column order, and ties go to the smallest row.

use crate::distance::{Metric, Table, FINITE};
use crate::error::{CoreError, CoreResult};
use crate::workers::{ShouldStop, Workers};
use rayon::prelude::*;

/// Records per k-d leaf.
const LEAF_SIZE: usize = 8;
/// Queries per chunk of work between two stop checks.
const QUERIES_PER_CHUNK: usize = 1 << 13;
const NONE: u32 = u32::MAX;

/// Per query: its nearest distance, the 0-based row of the first record attaining it,
/// and (when asked) the second smallest distance.
#[derive(Debug, Clone, PartialEq)]
pub struct Nearest {
    pub distance: Vec<f64>,
    pub row: Vec<u32>,
    /// Empty unless the second smallest distance was asked for.
    pub second: Vec<f64>,
}

#[derive(Debug, Clone, Copy)]
struct TrieNode {
    first_child: u32,
    n_children: u32,
}

#[derive(Debug, Clone, Copy)]
struct KdNode {
    start: u32,
    end: u32,
    left: u32,
    right: u32,
    /// Every record of the node is the same record (same codes, same values).
    uniform: bool,
}

/// The records of one table arranged for the search.
pub struct Index {
    p: usize,
    /// Row-major codes and values (0.0 where no value counts), in search order.
    codes: Vec<i32>,
    values: Vec<f64>,
    /// The 0-based row of each record in search order.
    rows: Vec<u32>,
    /// Variables whose code is the same for every record, with that code.
    constant: Vec<(usize, i32)>,
    /// Variables of the trie, in column order.
    trie_vars: Vec<usize>,
    trie: Vec<TrieNode>,
    child_code: Vec<i32>,
    /// A trie node below the last trie variable's parent, else a pattern.
    child: Vec<u32>,
    /// Per pattern, its k-d root.
    pattern_root: Vec<u32>,
    kd: Vec<KdNode>,
    /// Per k-d node, lo and hi of each numeric variable (in `numeric_vars` order).
    bbox: Vec<f64>,
    numeric_vars: Vec<usize>,
}

impl Index {
    /// The index of `table`'s records.
    pub fn build(metric: &Metric, table: &Table<'_>) -> CoreResult<Index> {
        let p = metric.n_vars();
        let n = table.n_rows;
        if n == 0 {
            return Err(CoreError::new("internal: no records to search"));
        }
        let mut constant = Vec::new();
        let mut trie_vars = Vec::new();
        for v in 0..p {
            let c = table.codes[v];
            if c.iter().all(|&x| x == c[0]) {
                constant.push((v, c[0]));
            } else {
                trie_vars.push(v);
            }
        }
        let numeric_vars: Vec<usize> = (0..p).filter(|&v| metric.numeric[v]).collect();
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_unstable_by(|&a, &b| {
            for &v in &trie_vars {
                let c = table.codes[v][a as usize].cmp(&table.codes[v][b as usize]);
                if c != std::cmp::Ordering::Equal {
                    return c;
                }
            }
            a.cmp(&b)
        });
        let mut index = Index {
            p,
            codes: Vec::new(),
            values: Vec::new(),
            rows: Vec::new(),
            constant,
            trie_vars,
            trie: Vec::new(),
            child_code: Vec::new(),
            child: Vec::new(),
            pattern_root: Vec::new(),
            kd: Vec::new(),
            bbox: Vec::new(),
            numeric_vars,
        };
        let value_of = |v: usize, row: u32| -> f64 {
            let i = row as usize;
            if metric.numeric[v] && table.codes[v][i] == FINITE {
                table.values[v][i]
            } else {
                0.0
            }
        };
        if index.trie_vars.is_empty() {
            index.add_pattern(metric, &mut order, 0, n, &value_of);
        } else {
            index.build_trie(metric, table, &mut order, 0..n, 0, &value_of);
        }
        index.codes = Vec::with_capacity(n * p);
        index.values = Vec::with_capacity(n * p);
        for &row in &order {
            for v in 0..p {
                index.codes.push(table.codes[v][row as usize]);
                index.values.push(value_of(v, row));
            }
        }
        index.rows = order;
        Ok(index)
    }

    /// A trie node over `order[rows]` at `depth`; returns its id.
    fn build_trie(
        &mut self,
        metric: &Metric,
        table: &Table<'_>,
        order: &mut [u32],
        rows: std::ops::Range<usize>,
        depth: usize,
        value_of: &dyn Fn(usize, u32) -> f64,
    ) -> u32 {
        let (start, end) = (rows.start, rows.end);
        let v = self.trie_vars[depth];
        let codes = table.codes[v];
        let mut groups = Vec::new();
        let mut a = start;
        while a < end {
            let c = codes[order[a] as usize];
            let mut b = a + 1;
            while b < end && codes[order[b] as usize] == c {
                b += 1;
            }
            groups.push((c, a, b));
            a = b;
        }
        let id = self.trie.len() as u32;
        let first_child = self.child.len();
        self.trie.push(TrieNode { first_child: first_child as u32, n_children: groups.len() as u32 });
        for &(c, _, _) in &groups {
            self.child_code.push(c);
            self.child.push(NONE);
        }
        let last = depth + 1 == self.trie_vars.len();
        for (k, &(_, a, b)) in groups.iter().enumerate() {
            let child = if last {
                self.add_pattern(metric, order, a, b, value_of)
            } else {
                self.build_trie(metric, table, order, a..b, depth + 1, value_of)
            };
            self.child[first_child + k] = child;
        }
        id
    }

    /// A pattern over `order[start..end]`, its k-d tree built; returns its id.
    fn add_pattern(
        &mut self,
        metric: &Metric,
        order: &mut [u32],
        start: usize,
        end: usize,
        value_of: &dyn Fn(usize, u32) -> f64,
    ) -> u32 {
        let root = self.build_kd(metric, order, start, end, value_of);
        self.pattern_root.push(root);
        (self.pattern_root.len() - 1) as u32
    }

    fn build_kd(
        &mut self,
        metric: &Metric,
        order: &mut [u32],
        start: usize,
        end: usize,
        value_of: &dyn Fn(usize, u32) -> f64,
    ) -> u32 {
        let k = self.numeric_vars.len();
        let id = self.kd.len() as u32;
        let mut best_dim = NONE;
        let mut best_spread = 0.0;
        for &v in &self.numeric_vars {
            let mut lo = f64::INFINITY;
            let mut hi = f64::NEG_INFINITY;
            for &row in &order[start..end] {
                let x = value_of(v, row);
                lo = lo.min(x);
                hi = hi.max(x);
            }
            self.bbox.push(lo);
            self.bbox.push(hi);
            let r = metric.ranges[v];
            let spread = if hi > lo {
                if r > 0.0 {
                    ((hi - lo) / r).min(1.0)
                } else {
                    1.0
                }
            } else {
                0.0
            };
            if spread > best_spread {
                best_spread = spread;
                best_dim = v as u32;
            }
        }
        debug_assert_eq!(self.bbox.len(), (id as usize + 1) * 2 * k);
        let uniform = best_dim == NONE;
        self.kd.push(KdNode { start: start as u32, end: end as u32, left: NONE, right: NONE, uniform });
        if uniform || end - start <= LEAF_SIZE {
            order[start..end].sort_unstable();
            return id;
        }
        let v = best_dim as usize;
        let mid = (end - start) / 2;
        order[start..end]
            .select_nth_unstable_by(mid, |&a, &b| value_of(v, a).total_cmp(&value_of(v, b)).then(a.cmp(&b)));
        let left = self.build_kd(metric, order, start, start + mid, value_of);
        let right = self.build_kd(metric, order, start + mid, end, value_of);
        self.kd[id as usize].left = left;
        self.kd[id as usize].right = right;
        id
    }

    pub fn n_records(&self) -> usize {
        self.rows.len()
    }

    pub fn n_patterns(&self) -> usize {
        self.pattern_root.len()
    }
}

/// What a search keeps of the records it meets: the nearest (`Best`) or every record up
/// to the k-th distance (`attacks::tie_sets`). The search skips whatever the collector
/// says is settled.
pub(crate) trait Collector {
    fn update(&mut self, d: f64, row: u32);
    /// Records that are all the same record (one distance).
    fn update_uniform(&mut self, d: f64, rows: &[u32]);
    /// Whether records at a distance of at least `lower` can change nothing.
    fn settled_below(&self, lower: f64) -> bool;
}

/// The best two distances found so far for one query.
struct Best {
    d1: f64,
    row1: u32,
    d2: f64,
    want_second: bool,
}

impl Collector for Best {
    #[inline]
    fn update(&mut self, d: f64, row: u32) {
        if d < self.d1 || (d == self.d1 && row < self.row1) {
            // The old best moves to second place (equal distances tie at d).
            self.d2 = self.d1;
            self.d1 = d;
            self.row1 = row;
        } else if d < self.d2 {
            self.d2 = d;
        }
    }

    /// Whether records whose distance is at least `lower` can change nothing: not
    /// the nearest (nor a tie with it, which might have a smaller row), nor the
    /// second smallest distance.
    #[inline]
    fn settled_below(&self, lower: f64) -> bool {
        lower > self.d1 && (!self.want_second || lower >= self.d2)
    }

    /// The two smallest rows are all the multiset needs.
    #[inline]
    fn update_uniform(&mut self, d: f64, rows: &[u32]) {
        for &row in rows.iter().take(2) {
            self.update(d, row);
        }
    }
}

pub(crate) struct Search<'a, C: Collector> {
    metric: &'a Metric,
    index: &'a Index,
    slack: f64,
    pub(crate) codes: Vec<i32>,
    pub(crate) values: Vec<f64>,
    /// Numeric variables (positions in `numeric_vars`) finite in the query and the
    /// current pattern.
    active: Vec<usize>,
    pub(crate) best: C,
}

impl<'a, C: Collector> Search<'a, C> {
    /// A search of `index` for queries read into `codes` and `values`.
    pub(crate) fn new(metric: &'a Metric, index: &'a Index, best: C) -> Self {
        let p = metric.n_vars();
        Search {
            metric,
            index,
            slack: metric.bound_slack(),
            codes: vec![0; p],
            values: vec![0.0; p],
            active: Vec::with_capacity(p),
            best,
        }
    }

    /// Visits every record the collector may need, for the query in `codes`/`values`.
    pub(crate) fn visit_all(&mut self) {
        let mut sum = 0.0;
        for &(v, c) in &self.index.constant {
            if self.codes[v] != c {
                sum += self.metric.variable_weights[v];
            }
        }
        if self.index.trie_vars.is_empty() {
            self.visit_pattern(0, sum);
        } else {
            self.visit_trie(0, 0, sum);
        }
    }
}

impl Search<'_, Best> {
    fn run(&mut self, want_second: bool) -> (f64, u32, f64) {
        self.best = Best { d1: f64::INFINITY, row1: NONE, d2: f64::INFINITY, want_second };
        self.visit_all();
        (self.best.d1, self.best.row1, self.best.d2)
    }
}

impl<C: Collector> Search<'_, C> {
    #[inline]
    fn lower(&self, sum: f64) -> f64 {
        sum / self.metric.total_weight * self.slack
    }

    fn visit_trie(&mut self, node: u32, depth: usize, sum: f64) {
        let index = self.index;
        let TrieNode { first_child, n_children } = index.trie[node as usize];
        let kids = first_child as usize..(first_child + n_children) as usize;
        let v = index.trie_vars[depth];
        let q = self.codes[v];
        let last = depth + 1 == index.trie_vars.len();
        let same = index.child_code[kids.clone()].binary_search(&q).ok().map(|k| k + kids.start);
        if let Some(k) = same {
            if last {
                self.visit_pattern(index.child[k], sum);
            } else {
                self.visit_trie(index.child[k], depth + 1, sum);
            }
        }
        let other = sum + self.metric.variable_weights[v];
        for k in kids {
            if self.best.settled_below(self.lower(other)) {
                return;
            }
            if Some(k) == same {
                continue;
            }
            if last {
                self.visit_pattern(index.child[k], other);
            } else {
                self.visit_trie(index.child[k], depth + 1, other);
            }
        }
    }

    fn visit_pattern(&mut self, pattern: u32, sum: f64) {
        let index = self.index;
        let root = index.pattern_root[pattern as usize];
        let first = index.kd[root as usize].start as usize * index.p;
        self.active.clear();
        for (j, &v) in index.numeric_vars.iter().enumerate() {
            if index.codes[first + v] == FINITE && self.codes[v] == FINITE {
                self.active.push(j);
            }
        }
        let lower = self.box_sum(root, sum);
        self.visit_kd(root, sum, lower);
    }

    /// `sum` plus the least numeric contributions to S of any record in the box.
    #[inline]
    fn box_sum(&self, node: u32, sum: f64) -> f64 {
        let index = self.index;
        let k = index.numeric_vars.len();
        let b = &index.bbox[node as usize * 2 * k..(node as usize + 1) * 2 * k];
        let mut s = sum;
        for &j in &self.active {
            let v = index.numeric_vars[j];
            let q = self.values[v];
            let (lo, hi) = (b[2 * j], b[2 * j + 1]);
            let gap = if q < lo {
                lo - q
            } else if q > hi {
                q - hi
            } else {
                continue;
            };
            let r = self.metric.ranges[v];
            let delta = if r == 0.0 {
                1.0
            } else {
                let t = gap / r;
                if t < 1.0 {
                    t
                } else {
                    1.0
                }
            };
            s += self.metric.variable_weights[v] * delta;
        }
        s
    }

    /// The distance to the record at `pos`, or +Inf once a prefix of its sum shows
    /// that it can change nothing: the prefix of the same sum in the same order is at
    /// most the whole (the terms are >= 0 and rounding is monotone), so no slack.
    #[inline]
    fn record_distance(&self, pos: usize) -> f64 {
        let index = self.index;
        let metric = self.metric;
        let p = index.p;
        let codes = &index.codes[pos * p..(pos + 1) * p];
        let values = &index.values[pos * p..(pos + 1) * p];
        let mut s = 0.0;
        for v in 0..p {
            let delta = if self.codes[v] != codes[v] {
                1.0
            } else if metric.numeric[v] && codes[v] == FINITE {
                metric.numeric_contribution(v, self.values[v], values[v])
            } else {
                0.0
            };
            s += metric.variable_weights[v] * delta;
            if v % 4 == 3 && v + 1 < p && self.best.settled_below(s / metric.total_weight) {
                return f64::INFINITY;
            }
        }
        s / metric.total_weight
    }

    fn visit_kd(&mut self, node: u32, sum: f64, lower: f64) {
        if self.best.settled_below(self.lower(lower)) {
            return;
        }
        let index = self.index;
        let KdNode { start, end, left, right, uniform } = index.kd[node as usize];
        if left == NONE {
            let (start, end) = (start as usize, end as usize);
            if uniform {
                // Every record of the leaf is the same record: one distance.
                let d = self.record_distance(start);
                self.best.update_uniform(d, &index.rows[start..end]);
                return;
            }
            for pos in start..end {
                let d = self.record_distance(pos);
                self.best.update(d, index.rows[pos]);
            }
            return;
        }
        let lower_left = self.box_sum(left, sum);
        let lower_right = self.box_sum(right, sum);
        if lower_right < lower_left {
            self.visit_kd(right, sum, lower_right);
            self.visit_kd(left, sum, lower_left);
        } else {
            self.visit_kd(left, sum, lower_left);
            self.visit_kd(right, sum, lower_right);
        }
    }
}

/// For each record of `queries`, its nearest record in `index` (and the second
/// smallest distance with `want_second`), in parallel over queries; the same result
/// for any number of threads.
pub fn nearest(
    workers: &Workers,
    metric: &Metric,
    index: &Index,
    queries: &Table<'_>,
    want_second: bool,
    should_stop: ShouldStop<'_>,
) -> CoreResult<Nearest> {
    if index.p != metric.n_vars() {
        return Err(CoreError::new("internal: the index and the metric differ in variables"));
    }
    let n = queries.n_rows;
    let mut out = Nearest {
        distance: Vec::with_capacity(n),
        row: Vec::with_capacity(n),
        second: Vec::with_capacity(if want_second { n } else { 0 }),
    };
    let mut start = 0;
    while start < n {
        let end = (start + QUERIES_PER_CHUNK).min(n);
        let chunk: Vec<(f64, u32, f64)> = workers.chunk(should_stop, || {
            (start..end)
                .into_par_iter()
                .map_init(
                    || {
                        Search::new(
                            metric,
                            index,
                            Best { d1: f64::INFINITY, row1: NONE, d2: f64::INFINITY, want_second },
                        )
                    },
                    |search, j| {
                        queries.record_into(metric, j, &mut search.codes, &mut search.values);
                        search.run(want_second)
                    },
                )
                .collect()
        })?;
        for (d1, row, d2) in chunk {
            out.distance.push(d1);
            out.row.push(row);
            if want_second {
                out.second.push(d2);
            }
        }
        start = end;
    }
    Ok(out)
}

/// The same by brute force: every pair, for tests and as the definition in code.
pub fn nearest_brute_force(metric: &Metric, records: &Table<'_>, queries: &Table<'_>, want_second: bool) -> Nearest {
    let p = metric.n_vars();
    let (mut qc, mut qv, mut rc, mut rv) = (vec![0; p], vec![0.0; p], vec![0; p], vec![0.0; p]);
    let mut out = Nearest { distance: Vec::new(), row: Vec::new(), second: Vec::new() };
    for j in 0..queries.n_rows {
        queries.record_into(metric, j, &mut qc, &mut qv);
        let mut best = Best { d1: f64::INFINITY, row1: NONE, d2: f64::INFINITY, want_second };
        for i in 0..records.n_rows {
            records.record_into(metric, i, &mut rc, &mut rv);
            best.update(metric.distance(&qc, &qv, &rc, &rv), i as u32);
        }
        out.distance.push(best.d1);
        out.row.push(best.row1);
        if want_second {
            out.second.push(best.d2);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_random::XorShift;

    struct Owned {
        codes: Vec<Vec<i32>>,
        values: Vec<Vec<f64>>,
    }

    impl Owned {
        fn table<'a>(&'a self, metric: &Metric) -> Table<'a> {
            Table::new(
                metric,
                self.codes.iter().map(|c| c.as_slice()).collect(),
                self.values.iter().map(|c| c.as_slice()).collect(),
                "test table",
            )
            .unwrap()
        }
    }

    /// Random columns: few labels and few distinct values (many ties), special codes.
    fn random_owned(rng: &mut XorShift, numeric: &[bool], n: usize, spread: u64, coarse: bool) -> Owned {
        let mut codes = Vec::new();
        let mut values = Vec::new();
        for &num in numeric {
            let mut c = Vec::with_capacity(n);
            let mut x = Vec::with_capacity(n);
            for _ in 0..n {
                if num {
                    if rng.below(6) == 0 {
                        c.push(1 + rng.below(3) as i32);
                        x.push(f64::NAN);
                    } else {
                        c.push(FINITE);
                        let raw = rng.below(spread + 1) as f64;
                        x.push(if coarse { raw } else { raw * 0.1 + rng.below(7) as f64 * 0.013 });
                    }
                } else {
                    c.push(1 + rng.below(1 + spread.min(4)) as i32);
                    x.push(0.0);
                }
            }
            codes.push(c);
            values.push(if num { x } else { Vec::new() });
        }
        Owned { codes, values }
    }

    fn range_of(o: &Owned, v: usize) -> f64 {
        let xs: Vec<f64> = (0..o.codes[v].len()).filter(|&i| o.codes[v][i] == FINITE).map(|i| o.values[v][i]).collect();
        if xs.is_empty() {
            0.0
        } else {
            xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max) - xs.iter().cloned().fold(f64::INFINITY, f64::min)
        }
    }

    #[test]
    fn the_search_equals_brute_force_bit_for_bit() {
        let mut rng = XorShift::new(0x5eed_dc12);
        for case in 0..400 {
            let p = 1 + rng.below(6) as usize;
            let numeric: Vec<bool> = (0..p).map(|_| rng.below(2) == 0).collect();
            let n_index = 1 + rng.below(if case % 10 == 0 { 3 } else { 150 }) as usize;
            let n_query = 1 + rng.below(60) as usize;
            let spread = rng.below(12) as u64;
            let coarse = rng.below(2) == 0;
            let index_data = random_owned(&mut rng, &numeric, n_index, spread, coarse);
            let query_spread = spread + rng.below(4) as u64;
            let mut query_data = random_owned(&mut rng, &numeric, n_query, query_spread, coarse);
            // Some queries copy indexed records.
            for j in 0..n_query {
                if rng.below(3) == 0 {
                    let i = rng.below(n_index as u64) as usize;
                    for (v, &num) in numeric.iter().enumerate() {
                        query_data.codes[v][j] = index_data.codes[v][i];
                        if num {
                            query_data.values[v][j] = index_data.values[v][i];
                        }
                    }
                }
            }
            let weights: Vec<f64> = if rng.below(2) == 0 {
                vec![1.0; p]
            } else {
                (0..p).map(|_| [0.0, 0.5, 1.0, 2.0, 0.3][rng.below(5) as usize]).collect()
            };
            if weights.iter().sum::<f64>() <= 0.0 {
                continue;
            }
            let ranges: Vec<f64> = (0..p).map(|v| if numeric[v] { range_of(&index_data, v) } else { 0.0 }).collect();
            let metric = Metric::new(numeric.clone(), weights, ranges).unwrap();
            let records = index_data.table(&metric);
            let queries = query_data.table(&metric);
            let index = Index::build(&metric, &records).unwrap();
            for want_second in [true, false] {
                let expected = nearest_brute_force(&metric, &records, &queries, want_second);
                for threads in [1, 3] {
                    let workers = Workers::new(threads).unwrap();
                    let got =
                        nearest(&workers, &metric, &index, &queries, want_second, &crate::workers::never_stop).unwrap();
                    assert_eq!(got.row, expected.row, "case {case}");
                    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&got.distance), bits(&expected.distance), "case {case}");
                    assert_eq!(bits(&got.second), bits(&expected.second), "case {case}");
                }
            }
        }
    }

    #[test]
    fn ties_go_to_the_smallest_row_and_duplicates_give_a_zero_second_distance() {
        let metric = Metric::new(vec![false, true], vec![1.0, 1.0], vec![0.0, 10.0]).unwrap();
        let codes = [vec![1, 1, 2, 1], vec![0, 0, 0, 0]];
        let values = [vec![], vec![5.0, 3.0, 5.0, 3.0]];
        let records = Table::new(
            &metric,
            codes.iter().map(|c| c.as_slice()).collect(),
            values.iter().map(|c| c.as_slice()).collect(),
            "r",
        )
        .unwrap();
        let qc = [vec![1, 1], vec![0, 0]];
        let qv = [vec![], vec![3.0, 4.0]];
        let queries = Table::new(
            &metric,
            qc.iter().map(|c| c.as_slice()).collect(),
            qv.iter().map(|c| c.as_slice()).collect(),
            "q",
        )
        .unwrap();
        let index = Index::build(&metric, &records).unwrap();
        let got =
            nearest(&Workers::new(1).unwrap(), &metric, &index, &queries, true, &crate::workers::never_stop).unwrap();
        // Query 1 copies rows 2 and 4 (0-based 1 and 3): d = 0 twice.
        assert_eq!(got.row, vec![1, 0]);
        assert_eq!(got.distance[0], 0.0);
        assert_eq!(got.second[0], 0.0);
        // Query 2 is 1 away (0.1 scaled) from rows 1, 2 and 4: the first wins.
        assert_eq!(got.distance[1], 0.1 / 2.0);
        assert_eq!(got.second[1], 0.1 / 2.0);
    }

    #[test]
    fn a_finite_code_with_a_non_finite_value_is_refused() {
        let metric = Metric::new(vec![true], vec![1.0], vec![1.0]).unwrap();
        let c = vec![0];
        let x = vec![f64::NAN];
        assert!(Table::new(&metric, vec![&c], vec![&x], "data").is_err());
    }
}
