//! Nearest sets with every tie (definitions vignette 13): the records of a table at or
//! below the k-th smallest distance from a query, as groups of identical records with
//! their sizes, so a query whose nearest set holds half the data costs what one with
//! a single neighbour does. Identical records (the same codes and values on every
//! variable of the metric) are at the same distance from any query, so the search
//! runs on the distinct records (`Distinct`), each weighing its number of records.

use crate::distance::{Metric, Table, FINITE};
use crate::error::CoreResult;
use crate::nearest::{Collector, Index, Search};
use crate::workers::Workers;
use std::cmp::Ordering;

/// The distinct records of a table (or of some of its rows), each a group.
pub struct Distinct {
    /// Per record (of `rows` when given), its group.
    pub group_of: Vec<u32>,
    /// Per group, its records.
    pub counts: Vec<u32>,
    /// Per variable, per group: the group's code and value (0.0 where no value counts).
    codes: Vec<Vec<i32>>,
    values: Vec<Vec<f64>>,
}

impl Distinct {
    /// The groups of `table`'s records (or of `rows`, 0-based, in that order).
    pub fn of(metric: &Metric, table: &Table<'_>, rows: Option<&[u32]>) -> Distinct {
        let p = metric.n_vars();
        let n = rows.map_or(table.n_rows, |r| r.len());
        let row_of = |i: usize| rows.map_or(i, |r| r[i] as usize);
        let value = |v: usize, i: usize| -> f64 {
            if metric.numeric[v] && table.codes[v][i] == FINITE {
                table.values[v][i]
            } else {
                0.0
            }
        };
        let mut order: Vec<u32> = (0..n as u32).collect();
        let compare = |a: usize, b: usize| -> Ordering {
            for v in 0..p {
                let c = table.codes[v][a].cmp(&table.codes[v][b]);
                if c != Ordering::Equal {
                    return c;
                }
                let c = value(v, a).total_cmp(&value(v, b));
                if c != Ordering::Equal {
                    return c;
                }
            }
            Ordering::Equal
        };
        order.sort_unstable_by(|&a, &b| compare(row_of(a as usize), row_of(b as usize)).then(a.cmp(&b)));
        let mut group_of = vec![0u32; n];
        let mut counts: Vec<u32> = Vec::new();
        let mut codes: Vec<Vec<i32>> = vec![Vec::new(); p];
        let mut values: Vec<Vec<f64>> = vec![Vec::new(); p];
        let mut prev: Option<usize> = None;
        for &k in &order {
            let i = row_of(k as usize);
            let new_group = prev.is_none_or(|j| compare(i, j) != Ordering::Equal);
            if new_group {
                counts.push(0);
                for v in 0..p {
                    codes[v].push(table.codes[v][i]);
                    values[v].push(value(v, i));
                }
            }
            let g = counts.len() - 1;
            counts[g] += 1;
            group_of[k as usize] = g as u32;
            prev = Some(i);
        }
        Distinct { group_of, counts, codes, values }
    }

    pub fn n_groups(&self) -> usize {
        self.counts.len()
    }

    /// The groups as a table (one record per group).
    pub fn table(&self, metric: &Metric) -> CoreResult<Table<'_>> {
        let codes = self.codes.iter().map(|c| c.as_slice()).collect();
        let values =
            self.values.iter().zip(&metric.numeric).map(|(v, &num)| if num { v.as_slice() } else { &[][..] }).collect();
        Table::new(metric, codes, values, "distinct records")
    }
}

/// A synthesis ready for nearest-set searches: its distinct records and the index of
/// their table. It depends on the synthesis and the metric only, so a call builds it
/// once per synthesis and every search of that synthesis (main and control targets,
/// every secret) reuses it.
pub struct IndexedSynthesis {
    pub groups: Distinct,
    pub index: Index,
}

impl IndexedSynthesis {
    pub fn build(workers: &Workers, metric: &Metric, synthetic: &Table<'_>) -> CoreResult<IndexedSynthesis> {
        let groups = workers.run(|| Distinct::of(metric, synthetic, None));
        let index = {
            let table = groups.table(metric)?;
            workers.run(|| Index::build(metric, &table))?
        };
        Ok(IndexedSynthesis { groups, index })
    }

    /// The synthesis's records (every record is in one group).
    pub fn n_records(&self) -> usize {
        self.groups.group_of.len()
    }
}

/// Every group at or below the k-th smallest distance seen, by records.
pub(crate) struct KNearest<'w> {
    k: u64,
    /// Per group, its records (`Distinct::counts`).
    counts: &'w [u32],
    candidates: Vec<(f64, u32)>,
    threshold: f64,
    next_prune: usize,
}

impl<'w> KNearest<'w> {
    fn new(k: u64, counts: &'w [u32]) -> Self {
        KNearest { k, counts, candidates: Vec::new(), threshold: f64::INFINITY, next_prune: 64 }
    }

    fn reset(&mut self) {
        self.candidates.clear();
        self.threshold = f64::INFINITY;
        self.next_prune = 64;
    }

    /// Keeps the candidates at or below the k-th smallest distance (by records).
    fn prune(&mut self) {
        self.candidates.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut total = 0u64;
        let mut kth = None;
        for &(d, g) in &self.candidates {
            total += self.counts[g as usize] as u64;
            if total >= self.k {
                kth = Some(d);
                break;
            }
        }
        if let Some(d) = kth {
            let keep = self.candidates.partition_point(|c| c.0 <= d);
            self.candidates.truncate(keep);
            self.threshold = d;
        }
        self.next_prune = (2 * self.candidates.len()).max(64);
    }
}

impl Collector for KNearest<'_> {
    #[inline]
    fn update(&mut self, d: f64, row: u32) {
        if d > self.threshold {
            return;
        }
        self.candidates.push((d, row));
        if self.candidates.len() >= self.next_prune {
            self.prune();
        }
    }

    fn update_uniform(&mut self, d: f64, rows: &[u32]) {
        for &row in rows {
            self.update(d, row);
        }
    }

    #[inline]
    fn settled_below(&self, lower: f64) -> bool {
        lower > self.threshold
    }
}

/// The nearest set of one query: the groups strictly nearer than the k-th distance and
/// those at it (each sorted by group).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NearestSet {
    pub kth: f64,
    pub strict: Vec<u32>,
    pub at_kth: Vec<u32>,
}

/// A reusable search for nearest sets of one index (one per thread).
pub struct TieSearch<'a> {
    metric: &'a Metric,
    search: Search<'a, KNearest<'a>>,
}

impl<'a> TieSearch<'a> {
    /// `index` built on `distinct.table()`, `counts` its groups' sizes; `k` >= 1.
    pub fn new(metric: &'a Metric, index: &'a Index, counts: &'a [u32], k: u64) -> Self {
        TieSearch { metric, search: Search::new(metric, index, KNearest::new(k.max(1), counts)) }
    }

    /// The nearest set of record `row` of `queries` (a table under the same metric).
    pub fn find(&mut self, queries: &Table<'_>, row: usize) -> NearestSet {
        queries.record_into(self.metric, row, &mut self.search.codes, &mut self.search.values);
        self.search.best.reset();
        self.search.visit_all();
        let best = &mut self.search.best;
        best.prune();
        // Fewer than k records in all: every record is in the set, the farthest at "k".
        let kth = if best.threshold.is_finite() {
            best.threshold
        } else {
            best.candidates.last().map_or(f64::INFINITY, |c| c.0)
        };
        let mut set = NearestSet { kth, strict: Vec::new(), at_kth: Vec::new() };
        for &(d, g) in &best.candidates {
            if d < kth {
                set.strict.push(g);
            } else if d == kth {
                set.at_kth.push(g);
            }
        }
        set.strict.sort_unstable();
        set.at_kth.sort_unstable();
        set
    }
}

/// The same by brute force over every record of `records` (tests; the definition in
/// code): the 0-based records strictly below and at the k-th distance.
pub fn nearest_set_brute_force(
    metric: &Metric,
    records: &Table<'_>,
    queries: &Table<'_>,
    row: usize,
    k: usize,
) -> (Vec<u32>, Vec<u32>) {
    let p = metric.n_vars();
    let (mut qc, mut qv, mut rc, mut rv) = (vec![0; p], vec![0.0; p], vec![0; p], vec![0.0; p]);
    queries.record_into(metric, row, &mut qc, &mut qv);
    let mut d: Vec<(f64, u32)> = (0..records.n_rows)
        .map(|i| {
            records.record_into(metric, i, &mut rc, &mut rv);
            (metric.distance(&qc, &qv, &rc, &rv), i as u32)
        })
        .collect();
    d.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let kth = d[k.min(d.len()) - 1].0;
    let mut strict: Vec<u32> = d.iter().filter(|x| x.0 < kth).map(|x| x.1).collect();
    let mut at: Vec<u32> = d.iter().filter(|x| x.0 == kth).map(|x| x.1).collect();
    strict.sort_unstable();
    at.sort_unstable();
    (strict, at)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::test_random::XorShift;

    pub(crate) struct Owned {
        pub codes: Vec<Vec<i32>>,
        pub values: Vec<Vec<f64>>,
    }

    impl Owned {
        pub fn table<'a>(&'a self, metric: &Metric) -> Table<'a> {
            Table::new(
                metric,
                self.codes.iter().map(|c| c.as_slice()).collect(),
                self.values.iter().zip(&metric.numeric).map(|(v, &n)| if n { v.as_slice() } else { &[][..] }).collect(),
                "test",
            )
            .unwrap()
        }
    }

    /// Few labels and values (many ties), NA labels in numeric columns.
    pub(crate) fn random_owned(rng: &mut XorShift, numeric: &[bool], n: usize, spread: u64) -> Owned {
        let mut codes = Vec::new();
        let mut values = Vec::new();
        for &num in numeric {
            let mut c = Vec::new();
            let mut x = Vec::new();
            for _ in 0..n {
                if num && rng.below(7) == 0 {
                    c.push(1);
                    x.push(0.0);
                } else if num {
                    c.push(FINITE);
                    x.push(rng.below(spread + 1) as f64 * 0.5);
                } else {
                    c.push(1 + rng.below(spread.min(3) + 1) as i32);
                    x.push(0.0);
                }
            }
            codes.push(c);
            values.push(x);
        }
        Owned { codes, values }
    }

    pub(crate) fn metric_for(numeric: &[bool], spread: u64) -> Metric {
        let ranges = numeric.iter().map(|&n| if n { spread as f64 * 0.5 } else { 0.0 }).collect();
        Metric::new(numeric.to_vec(), vec![1.0; numeric.len()], ranges).unwrap()
    }

    #[test]
    fn nearest_sets_equal_brute_force_for_k_1_to_5() {
        let mut rng = XorShift::new(0x7135_5e75);
        for case in 0..300 {
            let p = 1 + rng.below(4) as usize;
            let numeric: Vec<bool> = (0..p).map(|_| rng.below(2) == 0).collect();
            let spread = 1 + rng.below(6) as u64;
            let metric = metric_for(&numeric, spread);
            let (nr, nq) = (1 + rng.below(120) as usize, 1 + rng.below(30) as usize);
            let records = random_owned(&mut rng, &numeric, nr, spread);
            let queries = random_owned(&mut rng, &numeric, nq, spread + 1);
            let (rt, qt) = (records.table(&metric), queries.table(&metric));
            let distinct = Distinct::of(&metric, &rt, None);
            let dt = distinct.table(&metric).unwrap();
            let index = Index::build(&metric, &dt).unwrap();
            let k = 1 + rng.below(5) as usize;
            let mut search = TieSearch::new(&metric, &index, &distinct.counts, k as u64);
            for j in 0..qt.n_rows {
                let set = search.find(&qt, j);
                let expand = |groups: &[u32]| {
                    let mut rows: Vec<u32> =
                        (0..rt.n_rows as u32).filter(|&i| groups.contains(&distinct.group_of[i as usize])).collect();
                    rows.sort_unstable();
                    rows
                };
                let (strict, at) = nearest_set_brute_force(&metric, &rt, &qt, j, k);
                assert_eq!(expand(&set.strict), strict, "case {case} query {j}");
                assert_eq!(expand(&set.at_kth), at, "case {case} query {j}");
            }
        }
    }

    #[test]
    fn identical_records_form_one_group() {
        let metric = metric_for(&[false, true], 4);
        let o =
            Owned { codes: vec![vec![1, 1, 2, 1], vec![0, 0, 0, 1]], values: vec![vec![], vec![2.0, 2.0, 2.0, 0.0]] };
        let d = Distinct::of(&metric, &o.table(&metric), None);
        assert_eq!(d.n_groups(), 3);
        assert_eq!(d.group_of[0], d.group_of[1]);
        assert_ne!(d.group_of[0], d.group_of[2]);
        let sub = Distinct::of(&metric, &o.table(&metric), Some(&[3, 0]));
        assert_eq!(sub.group_of.len(), 2);
        assert_eq!(sub.n_groups(), 2);
    }
}
