//! The linkability attack (definitions vignette 13): the attacker links the two halves
//! of a target when its k nearest synthetic records on `aux_a` and its k nearest on
//! `aux_b` share a record, each list completed by a random choice among the records
//! tied at its k-th distance. Per target, the probability of that, computed from the
//! sizes of the nearest sets and their intersections (counted through the joint table
//! of the two groupings, never record by record).

use crate::attacks::tie_sets::{Distinct, IndexedSynthesis, NearestSet, TieSearch};
use crate::distance::{Metric, Table};
use crate::error::{CoreError, CoreResult};
use crate::workers::{ShouldStop, Workers};
use rayon::prelude::*;

const TARGETS_PER_CHUNK: usize = 1 << 12;

/// C(n - u, x) / C(n, x): the chance that x records drawn from n avoid u given ones.
pub fn avoid(n: u64, u: u64, x: u64) -> f64 {
    if x == 0 {
        return 1.0;
    }
    if u > n || n - u < x {
        return 0.0;
    }
    let mut r = 1.0;
    for t in 0..x {
        r *= (n - u - t) as f64 / (n - t) as f64;
    }
    r
}

/// The hypergeometric probability of h of `marked` records among x drawn from n.
pub fn hypergeometric(h: u64, marked: u64, n: u64, x: u64) -> f64 {
    if h > marked || h > x || x > n || x - h > n - marked {
        return 0.0;
    }
    // C(x, h) [marked]_h [n - marked]_(x - h) / [n]_x, every factor but C(x, h) <= 1.
    let mut r = 1.0;
    for t in 0..h {
        r *= (marked - t) as f64 / (n - t) as f64;
        r *= (x - t) as f64 / (t + 1) as f64;
    }
    for t in 0..x - h {
        r *= (n - marked - t) as f64 / (n - h - t) as f64;
    }
    r
}

/// The sizes and intersections of one target's two nearest sets.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overlap {
    /// |A<|, |A=|, |B<|, |B=|.
    pub a: u64,
    pub alpha: u64,
    pub b: u64,
    pub beta: u64,
    /// |A< ∩ B<|, |A= ∩ B<|, |B= ∩ A<|, |A= ∩ B=|.
    pub both_strict: u64,
    pub u1: u64,
    pub u2: u64,
    pub u3: u64,
}

impl Overlap {
    /// The probability that the two lists of k share a record.
    pub fn success(&self, k: u64) -> f64 {
        if self.both_strict > 0 {
            return 1.0;
        }
        let x = k.saturating_sub(self.a).min(self.alpha);
        let y = k.saturating_sub(self.b).min(self.beta);
        let rest = self.alpha - self.u1;
        let keep_a = avoid(self.alpha, self.u1, x);
        if keep_a == 0.0 {
            return 1.0;
        }
        let mut fail = 0.0;
        for h in 0..=self.u3.min(x) {
            let p = hypergeometric(h, self.u3, rest, x);
            if p > 0.0 {
                fail += p * avoid(self.beta, self.u2 + h, y);
            }
        }
        1.0 - keep_a * fail
    }

    /// Whether the lists with every tie (all records at or below the k-th distance)
    /// share a record.
    pub fn any(&self) -> bool {
        self.both_strict + self.u1 + self.u2 + self.u3 > 0
    }
}

/// The records per pair of groups (a, b), by a and by b.
struct Joint {
    by_a: Adjacency,
    by_b: Adjacency,
}

struct Adjacency {
    offsets: Vec<usize>,
    other: Vec<u32>,
    count: Vec<u64>,
}

impl Adjacency {
    fn new(pairs: &mut [(u32, u32)], n: usize) -> Self {
        pairs.sort_unstable();
        let mut offsets = vec![0usize; n + 1];
        let mut other = Vec::new();
        let mut count: Vec<u64> = Vec::new();
        let mut prev: Option<(u32, u32)> = None;
        for &(g, h) in pairs.iter() {
            if prev == Some((g, h)) {
                *count.last_mut().unwrap_or(&mut 0) += 1;
            } else {
                offsets[g as usize + 1] += 1;
                other.push(h);
                count.push(1);
            }
            prev = Some((g, h));
        }
        for g in 0..n {
            offsets[g + 1] += offsets[g];
        }
        Adjacency { offsets, other, count }
    }

    fn degree(&self, g: u32) -> usize {
        self.offsets[g as usize + 1] - self.offsets[g as usize]
    }
}

/// Per target: the probability of a link, and whether the lists with every tie meet.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LinkResult {
    pub success: Vec<f64>,
    pub any: Vec<bool>,
    pub overlap: Vec<Overlap>,
}

/// One side of the attack: the targets under the side's metric.
pub struct Side<'a> {
    pub metric: &'a Metric,
    pub targets: &'a Table<'a>,
}

/// A synthesis ready for linkability: each side's distinct records and index, and the
/// joint table of the two groupings. It depends on the synthesis and the two metrics
/// only, so a call builds it once per synthesis and its main and control searches reuse
/// it.
pub struct LinkedSynthesis {
    a: IndexedSynthesis,
    b: IndexedSynthesis,
    joint: Joint,
}

impl LinkedSynthesis {
    /// `synthetic_a` and `synthetic_b`: the synthesis on each side's columns.
    pub fn build(
        workers: &Workers,
        metric_a: &Metric,
        synthetic_a: &Table<'_>,
        metric_b: &Metric,
        synthetic_b: &Table<'_>,
    ) -> CoreResult<LinkedSynthesis> {
        if synthetic_a.n_rows != synthetic_b.n_rows {
            return Err(CoreError::new("internal: the two sides of linkability differ in records"));
        }
        let a = IndexedSynthesis::build(workers, metric_a, synthetic_a)?;
        let b = IndexedSynthesis::build(workers, metric_b, synthetic_b)?;
        let (na, nb) = (a.groups.n_groups(), b.groups.n_groups());
        let mut pairs: Vec<(u32, u32)> =
            a.groups.group_of.iter().zip(&b.groups.group_of).map(|(&x, &y)| (x, y)).collect();
        let by_a = Adjacency::new(&mut pairs, na);
        let mut flipped: Vec<(u32, u32)> = pairs.iter().map(|&(x, y)| (y, x)).collect();
        let by_b = Adjacency::new(&mut flipped, nb);
        Ok(LinkedSynthesis { a, b, joint: Joint { by_a, by_b } })
    }

    /// The synthesis's records.
    pub fn n_records(&self) -> usize {
        self.a.n_records()
    }
}

/// Nearest sets of the distinct target patterns of one side.
fn side_sets(
    workers: &Workers,
    side: &Side<'_>,
    synthetic: &IndexedSynthesis,
    rows: &[u32],
    k: u64,
    should_stop: ShouldStop<'_>,
) -> CoreResult<(Distinct, Vec<NearestSet>)> {
    let (groups, index) = (&synthetic.groups, &synthetic.index);
    let patterns = workers.run(|| Distinct::of(side.metric, side.targets, Some(rows)));
    let pattern_table = patterns.table(side.metric)?;
    let n = patterns.n_groups();
    let mut sets = Vec::with_capacity(n);
    let mut start = 0;
    while start < n {
        let end = (start + TARGETS_PER_CHUNK).min(n);
        let chunk: Vec<NearestSet> = workers.chunk(should_stop, || {
            (start..end)
                .into_par_iter()
                .map_init(|| TieSearch::new(side.metric, index, &groups.counts, k), |s, j| s.find(&pattern_table, j))
                .collect()
        })?;
        sets.extend(chunk);
        start = end;
    }
    Ok((patterns, sets))
}

/// The attack on the targets `rows` (0-based) against `synthetic` with `k` neighbours
/// on each side.
pub fn link(
    workers: &Workers,
    synthetic: &LinkedSynthesis,
    a: &Side<'_>,
    b: &Side<'_>,
    rows: &[u32],
    k: u64,
    should_stop: ShouldStop<'_>,
) -> CoreResult<LinkResult> {
    let n_syn = synthetic.n_records();
    if a.targets.n_rows != b.targets.n_rows {
        return Err(CoreError::new("internal: the two sides of linkability differ in records"));
    }
    if k == 0 || k as usize > n_syn {
        return Err(CoreError::new("internal: k must be between 1 and the synthetic records"));
    }
    let (groups_a, groups_b, joint) = (&synthetic.a.groups, &synthetic.b.groups, &synthetic.joint);
    let (na, nb) = (groups_a.n_groups(), groups_b.n_groups());
    let (patterns_a, sets_a) = side_sets(workers, a, &synthetic.a, rows, k, should_stop)?;
    let (patterns_b, sets_b) = side_sets(workers, b, &synthetic.b, rows, k, should_stop)?;
    let overlaps: Vec<Overlap> = workers.run(|| {
        (0..rows.len())
            .into_par_iter()
            .map_init(
                || (vec![0u8; na], vec![0u8; nb]),
                |(flag_a, flag_b), t| {
                    let sa = &sets_a[patterns_a.group_of[t] as usize];
                    let sb = &sets_b[patterns_b.group_of[t] as usize];
                    overlap(sa, sb, &groups_a.counts, &groups_b.counts, joint, flag_a, flag_b)
                },
            )
            .collect()
    });
    let success = overlaps.iter().map(|o| o.success(k)).collect();
    let any = overlaps.iter().map(|o| o.any()).collect();
    Ok(LinkResult { success, any, overlap: overlaps })
}

/// Sizes and intersections of two nearest sets, iterating the joint table from the
/// side with fewer entries; `flag_a`/`flag_b` are all 0 on entry and on return.
fn overlap(
    sa: &NearestSet,
    sb: &NearestSet,
    counts_a: &[u32],
    counts_b: &[u32],
    joint: &Joint,
    flag_a: &mut [u8],
    flag_b: &mut [u8],
) -> Overlap {
    const STRICT: u8 = 1;
    const AT: u8 = 2;
    let sum = |gs: &[u32], counts: &[u32]| gs.iter().map(|&g| counts[g as usize] as u64).sum::<u64>();
    let mut o = Overlap {
        a: sum(&sa.strict, counts_a),
        alpha: sum(&sa.at_kth, counts_a),
        b: sum(&sb.strict, counts_b),
        beta: sum(&sb.at_kth, counts_b),
        ..Overlap::default()
    };
    let cost =
        |s: &NearestSet, adj: &Adjacency| s.strict.iter().chain(&s.at_kth).map(|&g| adj.degree(g)).sum::<usize>();
    let from_a = cost(sa, &joint.by_a) <= cost(sb, &joint.by_b);
    let (mine, theirs, adj, flags) = if from_a { (sa, sb, &joint.by_a, flag_b) } else { (sb, sa, &joint.by_b, flag_a) };
    for &g in &theirs.strict {
        flags[g as usize] = STRICT;
    }
    for &g in &theirs.at_kth {
        flags[g as usize] = AT;
    }
    for (mine_flag, gs) in [(STRICT, &mine.strict), (AT, &mine.at_kth)] {
        for &g in gs {
            for e in adj.offsets[g as usize]..adj.offsets[g as usize + 1] {
                let their_flag = flags[adj.other[e] as usize];
                if their_flag == 0 {
                    continue;
                }
                let c = adj.count[e];
                // (flag on A, flag on B)
                let (fa, fb) = if from_a { (mine_flag, their_flag) } else { (their_flag, mine_flag) };
                match (fa, fb) {
                    (STRICT, STRICT) => o.both_strict += c,
                    (AT, STRICT) => o.u1 += c,
                    (STRICT, AT) => o.u2 += c,
                    _ => o.u3 += c,
                }
            }
        }
    }
    for &g in theirs.strict.iter().chain(&theirs.at_kth) {
        flags[g as usize] = 0;
    }
    o
}

/// 1 - C(Ns - k, k) / C(Ns, k): two random lists of k synthetic records meet.
pub fn baseline(n_syn: u64, k: u64) -> f64 {
    1.0 - avoid(n_syn, k, k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::tie_sets::nearest_set_brute_force;
    use crate::attacks::tie_sets::tests::{metric_for, random_owned};
    use crate::test_random::XorShift;
    use crate::workers::never_stop;

    fn choose(n: u64, r: u64) -> f64 {
        if r > n {
            return 0.0;
        }
        (0..r).fold(1.0, |acc, t| acc * (n - t) as f64 / (t + 1) as f64)
    }

    #[test]
    fn the_formula_parts_match_choose() {
        for n in 0..12u64 {
            for u in 0..=n {
                for x in 0..=n + 1 {
                    let want = if x > n { 0.0 } else { choose(n - u, x) / choose(n, x) };
                    assert!((avoid(n, u, x) - want).abs() < 1e-12);
                }
                for x in 0..=n {
                    let total: f64 = (0..=x).map(|h| hypergeometric(h, u, n, x)).sum();
                    assert!((total - 1.0).abs() < 1e-12, "{n} {u} {x}");
                    for h in 0..=x {
                        let want = choose(u, h) * choose(n - u, x - h) / choose(n, x);
                        assert!((hypergeometric(h, u, n, x) - want).abs() < 1e-12);
                    }
                }
            }
        }
    }

    #[test]
    fn overlaps_equal_brute_force_and_k1_is_the_simple_ratio() {
        let mut rng = XorShift::new(0x11_4ca3);
        for case in 0..200 {
            let na = 1 + rng.below(2) as usize;
            let nb = 1 + rng.below(2) as usize;
            let num_a: Vec<bool> = (0..na).map(|_| rng.below(2) == 0).collect();
            let num_b: Vec<bool> = (0..nb).map(|_| rng.below(2) == 0).collect();
            let spread = 1 + rng.below(4) as u64;
            let (ma, mb) = (metric_for(&num_a, spread), metric_for(&num_b, spread));
            let ns = 1 + rng.below(60) as usize;
            let nt = 1 + rng.below(20) as usize;
            let (sa, sb) = (random_owned(&mut rng, &num_a, ns, spread), random_owned(&mut rng, &num_b, ns, spread));
            let (ta, tb) = (random_owned(&mut rng, &num_a, nt, spread), random_owned(&mut rng, &num_b, nt, spread));
            let k = 1 + rng.below(5.min(ns as u64)) as u64;
            let (sat, sbt, tat, tbt) = (sa.table(&ma), sb.table(&mb), ta.table(&ma), tb.table(&mb));
            let rows: Vec<u32> = (0..nt as u32).collect();
            let workers = Workers::new(2).unwrap();
            let linked = LinkedSynthesis::build(&workers, &ma, &sat, &mb, &sbt).unwrap();
            let got = link(
                &workers,
                &linked,
                &Side { metric: &ma, targets: &tat },
                &Side { metric: &mb, targets: &tbt },
                &rows,
                k,
                &never_stop,
            )
            .unwrap();
            for t in 0..nt {
                let (a_lt, a_eq) = nearest_set_brute_force(&ma, &sat, &tat, t, k as usize);
                let (b_lt, b_eq) = nearest_set_brute_force(&mb, &sbt, &tbt, t, k as usize);
                let both = |x: &[u32], y: &[u32]| x.iter().filter(|r| y.contains(r)).count() as u64;
                let o = got.overlap[t];
                assert_eq!(
                    (o.a, o.alpha, o.b, o.beta),
                    (a_lt.len() as u64, a_eq.len() as u64, b_lt.len() as u64, b_eq.len() as u64),
                    "case {case}"
                );
                assert_eq!(
                    (o.both_strict, o.u1, o.u2, o.u3),
                    (both(&a_lt, &b_lt), both(&a_eq, &b_lt), both(&b_eq, &a_lt), both(&a_eq, &b_eq)),
                    "case {case}"
                );
                if k == 1 {
                    let want = o.u3 as f64 / (o.alpha * o.beta) as f64;
                    assert!((got.success[t] - want).abs() < 1e-12, "case {case}");
                }
            }
        }
    }

    #[test]
    fn the_probability_agrees_with_random_tie_breaking() {
        // A= of 6 records, B= of 5, 2 shared; A< = {s}, B< = {} (s not in B); k = 3.
        let o = Overlap { a: 1, alpha: 6, b: 0, beta: 5, both_strict: 0, u1: 0, u2: 0, u3: 2 };
        let mut rng = XorShift::new(99);
        let trials = 200_000;
        let mut hits = 0;
        for _ in 0..trials {
            // A= records 0..6 (0, 1 shared with B=), B= records 0, 1, 10, 11, 12.
            let mut a: Vec<u32> = (0..6).collect();
            let mut b: Vec<u32> = vec![0, 1, 10, 11, 12];
            let pick = |v: &mut Vec<u32>, m: usize, rng: &mut XorShift| -> Vec<u32> {
                (0..m).map(|_| v.swap_remove(rng.below(v.len() as u64) as usize)).collect()
            };
            let la = pick(&mut a, 2, &mut rng);
            let lb = pick(&mut b, 3, &mut rng);
            if la.iter().any(|x| lb.contains(x)) {
                hits += 1;
            }
        }
        let p = o.success(3);
        let se = (p * (1.0 - p) / trials as f64).sqrt();
        assert!((hits as f64 / trials as f64 - p).abs() < 5.0 * se, "{p} vs {}", hits as f64 / trials as f64);
    }
}
