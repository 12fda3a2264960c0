//! The engine against a naive map-based computation written straight from SPEC.md,
//! on random data, for several thread counts.

use std::collections::BTreeMap;
use synthrisk_core::encode::EncodedVar;
use synthrisk_core::engine::{run, with_threads, TargetRequest};
use synthrisk_core::exclusions::{ExclusionSpec, KeyTargetExclusion};

struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as u32
    }
}

fn var(codes: Vec<Vec<u32>>, n_levels: u32) -> EncodedVar {
    let missing_code = n_levels - 1;
    let has_missing = codes.iter().map(|c| c.contains(&missing_code)).collect();
    EncodedVar { codes, n_levels, missing_code, numeric_levels: None, has_missing }
}

/// Naive: cells as maps from (q tuple, t) to counts.
fn naive(vars: &[EncodedVar], keys: &[usize], use_na: &[bool], target: usize, spec: &ExclusionSpec, j: usize) -> Vec<f64> {
    type Q = Vec<u32>;
    let qof = |d: usize, r: usize| -> Q { keys.iter().map(|&k| vars[k].codes[d][r]).collect() };
    let mut dmap: BTreeMap<(Q, u32), u64> = BTreeMap::new();
    let mut smap: BTreeMap<(Q, u32), u64> = BTreeMap::new();
    for r in 0..vars[target].codes[0].len() {
        *dmap.entry((qof(0, r), vars[target].codes[0][r])).or_default() += 1;
    }
    for r in 0..vars[target].codes[j].len() {
        *smap.entry((qof(j, r), vars[target].codes[j][r])).or_default() += 1;
    }
    let mut dq: BTreeMap<Q, u64> = BTreeMap::new();
    let mut sq: BTreeMap<Q, u64> = BTreeMap::new();
    let mut slev: BTreeMap<Q, u64> = BTreeMap::new();
    for ((q, _), v) in &dmap { *dq.entry(q.clone()).or_default() += v; }
    for ((q, _), v) in &smap { *sq.entry(q.clone()).or_default() += v; *slev.entry(q.clone()).or_default() += 1; }
    let mut cells: Vec<(Q, u32)> = dmap.keys().chain(smap.keys()).cloned().collect();
    cells.sort(); cells.dedup();
    let nd = vars[target].codes[0].len() as f64;
    let ns = vars[target].codes[j].len() as f64;
    let excluded = |q: &Q, t: u32, v: u64| -> bool {
        spec.excluded_target[t as usize]
            || (spec.exclude_missing_target && t == spec.target_missing_code)
            || keys.iter().enumerate().any(|(i, &k)| !use_na[i] && q[i] == vars[k].missing_code)
            || spec.key_target.iter().any(|e| q[e.key] == e.key_level && t == e.target_level)
            || spec.denom_lim.is_some_and(|l| v > l)
    };
    let mut kept = [0u64; 8];
    let mut dk: BTreeMap<(Q, u32), u64> = BTreeMap::new();
    let mut sk: BTreeMap<(Q, u32), u64> = BTreeMap::new();
    for (q, t) in &cells {
        let d = *dmap.get(&(q.clone(), *t)).unwrap_or(&0);
        let s = *smap.get(&(q.clone(), *t)).unwrap_or(&0);
        let dqq = *dq.get(q).unwrap_or(&0);
        let sqq = *sq.get(q).unwrap_or(&0);
        let sc = sqq > 0 && s == sqq;
        let oc = dqq > 0 && d == dqq;
        let vals = [d, s, if oc { d } else { 0 }, if sc { s } else { 0 }, if sqq > 0 { d } else { 0 },
            if *slev.get(q).unwrap_or(&0) == 1 { d } else { 0 }, if sc { d } else { 0 }, if sc && oc { d } else { 0 }];
        for k in 0..8 {
            if vals[k] > 0 && !excluded(q, *t, vals[k]) {
                kept[k] += vals[k];
                if k == 0 { dk.insert((q.clone(), *t), vals[k]); }
                if k == 1 { sk.insert((q.clone(), *t), vals[k]); }
            }
        }
    }
    let mut dkq: BTreeMap<Q, u64> = BTreeMap::new();
    let mut skq: BTreeMap<Q, u64> = BTreeMap::new();
    for ((q, _), v) in &dk { *dkq.entry(q.clone()).or_default() += v; }
    for ((q, _), v) in &sk { *skq.entry(q.clone()).or_default() += v; }
    let uio = dkq.iter().filter(|(_, &v)| v == 1).count() as f64;
    let repu = dkq.iter().filter(|(q, &v)| v == 1 && skq.get(*q) == Some(&1)).count() as f64;
    let mut c = 0.0;
    for ((q, t), &d) in &dk {
        if let Some(&s) = sk.get(&(q.clone(), *t)) { c += s as f64 / skq[q] as f64 * d as f64; }
    }
    vec![100.0 * uio / nd, 100.0 * repu / nd, 100.0 * kept[2] as f64 / nd, 100.0 * kept[3] as f64 / ns,
         100.0 * kept[6] as f64 / nd, 100.0 * c / nd]
}

#[test]
fn engine_matches_naive_on_random_data_for_any_thread_count() {
    let mut rng = Lcg(42);
    for case in 0..60 {
        let m = 1 + rng.next(3) as usize;
        let nrows: Vec<usize> = (0..=m).map(|_| 5 + rng.next(80) as usize).collect();
        let nvars = 4;
        let levels: Vec<u32> = (0..nvars).map(|_| 2 + rng.next(5)).collect();
        let vars: Vec<EncodedVar> = levels.iter().map(|&l| {
            var(nrows.iter().map(|&n| (0..n).map(|_| rng.next(l)).collect()).collect(), l)
        }).collect();
        let keys = vec![0, 1, 2];
        let use_na: Vec<bool> = (0..3).map(|_| rng.next(3) > 0).collect();
        let t_levels = levels[3];
        let mut spec = ExclusionSpec::none(t_levels as usize, t_levels - 1);
        if rng.next(3) == 0 { spec.excluded_target[rng.next(t_levels) as usize] = true; }
        spec.exclude_missing_target = rng.next(2) == 0;
        if rng.next(2) == 0 {
            spec.key_target.push(KeyTargetExclusion { key: 1, key_level: rng.next(levels[1]), target_level: rng.next(t_levels) });
        }
        if rng.next(2) == 0 { spec.denom_lim = Some(1 + rng.next(4) as u64); }
        let req = || vec![TargetRequest { var: 3, spec: spec.clone(), twoway_min_cell: 1.0 }];
        let one = with_threads(1, || run(&vars, &keys, &use_na, &req())).unwrap().unwrap();
        let two = with_threads(2, || run(&vars, &keys, &use_na, &req())).unwrap().unwrap();
        for j in 1..=m {
            let got = &one[0].synthesis[j - 1].measures;
            let bits = |m: &synthrisk_core::measures::SynthesisMeasures| m.values.map(f64::to_bits);
            assert_eq!(bits(got), bits(&two[0].synthesis[j - 1].measures), "case {case}: thread count changed results");
            let want = naive(&vars, &keys, &use_na, 3, &spec, j);
            let names = ["UiO", "repU", "Dorig", "Dsyn", "DiSCO", "DCAPd"];
            for (name, w) in names.iter().zip(want) {
                let g = got.get(name).unwrap();
                assert!((g - w).abs() < 1e-9, "case {case} synthesis {j} {name}: got {g}, want {w}");
            }
        }
    }
}
