//! The core (encoding + engine) against a naive computation written straight from
//! the definitions vignette on labels, with ordered maps: random small datasets of factor, double and
//! integer variables (NaN, ±Inf, -0, NA, an NA level, levels on one side only), m = 1..3,
//! every exclusion step, zero denominators, 1 and 2 threads, and q ranges / chunks cut
//! small. A bounded number of cases keeps `cargo test` fast.

use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use std::collections::{BTreeMap, BTreeSet};
use synthrisk_core::encode::{encode_all, merge_numeric_levels, EncodedVar, RawColumn, VarInput, NA_INTEGER};
use synthrisk_core::engine::{self, ChunkSizes, CountRequest, SynthesisResult, TargetRequest, TargetResult};
use synthrisk_core::error::CoreResult;
use synthrisk_core::exclusions::{ExclusionSpec, KeyTargetExclusion, N_STEPS, N_TABLES};
use synthrisk_core::measures::MEASURE_NAMES;
use synthrisk_core::plan::{Plan, SynthesisView, TauGrid};
use synthrisk_core::workers::ShouldStop;
use synthrisk_core::workers::{never_stop, Workers};

/// R's `NA_real_`.
const NA_REAL: f64 = f64::from_bits(0x7FF0_0000_0000_07A2);

const DOUBLES: [f64; 14] = [
    f64::NEG_INFINITY,
    -1.5,
    -0.0,
    0.0,
    0.3,
    0.1 + 0.2,
    2.0,
    1e300,
    f64::INFINITY,
    f64::NAN,
    -f64::NAN,
    NA_REAL,
    NA_REAL,
    2.0,
];
const INTEGERS: [i32; 6] = [NA_INTEGER, -3, 0, 7, 1954, 7];

/// One variable as R would hand it over: per dataset (original first) its column.
#[derive(Clone, Debug)]
enum RawVar {
    /// Union of `n_union` levels, `missing_code` among them ("Missing" or an NA level);
    /// per dataset its levels as union codes (the remap) and its 1-based codes.
    Factor {
        n_union: u32,
        missing_code: u32,
        datasets: Vec<(Vec<i32>, Vec<i32>)>,
    },
    Double(Vec<Vec<f64>>),
    Integer(Vec<Vec<i32>>),
}

/// A label as R would print it; numbers at 15 significant digits.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Label {
    Fac(u32),
    Num(String),
    NaN,
    Missing,
}

fn num_label(v: f64) -> Label {
    Label::Num(format!("{:.14e}", if v == 0.0 { 0.0 } else { v }))
}

impl RawVar {
    fn labels(&self, d: usize) -> Vec<Label> {
        match self {
            RawVar::Factor { missing_code, datasets, .. } => {
                let (remap, codes) = &datasets[d];
                codes
                    .iter()
                    .map(|&c| {
                        if c == NA_INTEGER || remap[c as usize - 1] as u32 == *missing_code {
                            Label::Missing
                        } else {
                            Label::Fac(remap[c as usize - 1] as u32)
                        }
                    })
                    .collect()
            }
            RawVar::Double(cols) => cols[d]
                .iter()
                .map(|&v| {
                    if v.is_nan() && (v.to_bits() & 0xFFFF_FFFF) == 1954 {
                        Label::Missing
                    } else if v.is_nan() {
                        Label::NaN
                    } else {
                        num_label(v)
                    }
                })
                .collect(),
            RawVar::Integer(cols) => {
                cols[d].iter().map(|&v| if v == NA_INTEGER { Label::Missing } else { num_label(v as f64) }).collect()
            }
        }
    }

    fn input(&self) -> VarInput<'_> {
        match self {
            RawVar::Factor { n_union, missing_code, datasets } => VarInput::Factor {
                columns: datasets.iter().map(|(r, c)| RawColumn::Factor { codes: c, remap: r }).collect(),
                n_levels: *n_union,
                missing_code: *missing_code,
            },
            RawVar::Double(cols) => VarInput::Numeric { columns: cols.iter().map(|c| RawColumn::Double(c)).collect() },
            RawVar::Integer(cols) => {
                VarInput::Numeric { columns: cols.iter().map(|c| RawColumn::Integer(c)).collect() }
            }
        }
    }

    /// Position of a label in the level order (factor: union order with the missing
    /// level where it is; numbers: ascending, then NaN, then missing).
    fn order_key(&self, l: &Label) -> (u8, f64) {
        match (self, l) {
            (RawVar::Factor { missing_code, .. }, Label::Missing) => (0, *missing_code as f64),
            (RawVar::Factor { .. }, Label::Fac(u)) => (0, *u as f64),
            (_, Label::Num(s)) => (0, s.parse::<f64>().unwrap()),
            (_, Label::NaN) => (1, 0.0),
            _ => (2, 0.0),
        }
    }
}

/// The label of each code of an encoded variable.
fn code_labels(raw: &RawVar, enc: &EncodedVar) -> Vec<Label> {
    (0..enc.n_levels)
        .map(|c| {
            if c == enc.missing_code {
                Label::Missing
            } else if let RawVar::Factor { .. } = raw {
                Label::Fac(c)
            } else {
                let v = enc.numeric_levels.as_ref().unwrap()[c as usize];
                if v.is_nan() {
                    Label::NaN
                } else {
                    num_label(v)
                }
            }
        })
        .collect()
}

/// Columns drawn from the first `card` values of a pool: few values make large cells
/// and levels on both sides, many make levels on one side only.
fn pool_columns<T: Clone + std::fmt::Debug + 'static>(
    pool: &'static [T],
    rows: Vec<usize>,
) -> impl Strategy<Value = Vec<Vec<T>>> {
    (1..=pool.len()).prop_flat_map(move |card| {
        rows.iter().map(|&n| proptest::collection::vec(select(&pool[..card]), n)).collect::<Vec<_>>()
    })
}

fn var_strategy(rows: Vec<usize>) -> BoxedStrategy<RawVar> {
    let doubles = pool_columns(&DOUBLES, rows.clone());
    let integers = pool_columns(&INTEGERS, rows.clone());
    let rows_f = rows.clone();
    let factor = (1u32..=5)
        .prop_flat_map(move |n_union| {
            let per_dataset = rows_f
                .iter()
                .map(|&n| {
                    (
                        subsequence((0..n_union as i32).collect::<Vec<_>>(), 0..=n_union as usize).prop_shuffle(),
                        proptest::collection::vec(any::<u8>(), n),
                    )
                })
                .collect::<Vec<_>>();
            (Just(n_union), 0..n_union, per_dataset)
        })
        .prop_map(|(n_union, missing_code, per_dataset)| {
            let datasets = per_dataset
                .into_iter()
                .map(|(remap, picks)| {
                    let codes = picks
                        .iter()
                        .map(|&p| {
                            if remap.is_empty() || p % 7 == 0 {
                                NA_INTEGER
                            } else {
                                1 + (p as i32 % remap.len() as i32)
                            }
                        })
                        .collect();
                    (remap, codes)
                })
                .collect();
            RawVar::Factor { n_union, missing_code, datasets }
        });
    prop_oneof![factor, doubles.prop_map(RawVar::Double), integers.prop_map(RawVar::Integer)].boxed()
}

#[derive(Clone, Debug)]
struct Options {
    use_keys_na: Vec<bool>,
    use_target_na: bool,
    not_target: Vec<u8>,
    key_target: Vec<(u8, u8, u8)>,
    denom_lim: Option<u64>,
    twoway_min_cell: f64,
}

#[derive(Clone, Debug)]
struct Case {
    vars: Vec<RawVar>,
    n_keys: usize,
    options: Vec<Options>,
    range_rows: usize,
    chunk_rows: usize,
}

fn options_strategy(n_keys: usize) -> impl Strategy<Value = Options> {
    (
        proptest::collection::vec(any::<bool>(), n_keys),
        any::<bool>(),
        proptest::collection::vec(any::<u8>(), 0..=2),
        proptest::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 0..=2),
        proptest::option::of(1u64..=4),
        select(vec![0.0, 0.5, 1.0, 2.0, 3.0]),
    )
        .prop_map(|(use_keys_na, use_target_na, not_target, key_target, denom_lim, twoway_min_cell)| Options {
            use_keys_na,
            use_target_na,
            not_target,
            key_target,
            denom_lim,
            twoway_min_cell,
        })
}

fn case_strategy() -> impl Strategy<Value = Case> {
    (1usize..=3, 1usize..=3, 1usize..=2)
        .prop_flat_map(|(m, n_keys, n_targets)| {
            (proptest::collection::vec(1usize..=25, m), 0usize..=25, Just(n_keys), Just(n_targets))
        })
        .prop_flat_map(|(syn_rows, orig_rows, n_keys, n_targets)| {
            let mut rows = vec![orig_rows];
            rows.extend(syn_rows);
            (
                proptest::collection::vec(var_strategy(rows), n_keys + n_targets),
                Just(n_keys),
                proptest::collection::vec(options_strategy(n_keys), n_targets),
                1usize..=12,
                1usize..=40,
            )
        })
        .prop_flat_map(|(vars, n_keys, options, range_rows, chunk_rows)| {
            (Just(Case { vars, n_keys, options, range_rows, chunk_rows }), proptest::option::weighted(0.25, 2usize..=4))
        })
        .prop_map(|(mut case, copies)| {
            // Sometimes every synthesis is the original repeated: cells s = copies * d,
            // so denom_lim can keep a DiSCO cell while removing its synthetic cell
            // (K > 0 with Nb = 0: TCAPb is Inf). Syntheses keep at least one row.
            let orig_rows = case.vars[0].labels(0).len();
            if let Some(copies) = copies.filter(|_| orig_rows > 0) {
                for v in case.vars.iter_mut() {
                    v.replicate_original(copies);
                }
            }
            case
        })
}

impl RawVar {
    /// The variable with dataset `j` cut to `rows`, in that order.
    fn with_subset(&self, j: usize, rows: &[u32]) -> RawVar {
        fn cut<T: Copy>(c: &[T], rows: &[u32]) -> Vec<T> {
            rows.iter().map(|&r| c[r as usize]).collect()
        }
        let mut out = self.clone();
        match &mut out {
            RawVar::Factor { datasets, .. } => datasets[j].1 = cut(&datasets[j].1, rows),
            RawVar::Double(cols) => cols[j] = cut(&cols[j], rows),
            RawVar::Integer(cols) => cols[j] = cut(&cols[j], rows),
        }
        out
    }

    fn replicate_original(&mut self, copies: usize) {
        fn rep<T: Copy>(cols: &mut [Vec<T>], copies: usize) {
            let orig = cols[0].repeat(copies);
            for c in cols.iter_mut().skip(1) {
                *c = orig.clone();
            }
        }
        match self {
            RawVar::Factor { datasets, .. } => {
                let orig = (datasets[0].0.clone(), datasets[0].1.repeat(copies));
                for d in datasets.iter_mut().skip(1) {
                    *d = orig.clone();
                }
            }
            RawVar::Double(cols) => rep(cols, copies),
            RawVar::Integer(cols) => rep(cols, copies),
        }
    }
}

/// Labels observed for a variable in any dataset, in a fixed order.
fn observed_labels(var: &RawVar, n_datasets: usize) -> Vec<Label> {
    let set: BTreeSet<Label> = (0..n_datasets).flat_map(|d| var.labels(d)).collect();
    set.into_iter().collect()
}

/// The exclusions of one target, in labels.
struct LabelSpec {
    not_target: BTreeSet<Label>,
    exclude_missing: bool,
    key_target: Vec<(usize, Label, Label)>,
    use_keys_na: Vec<bool>,
    denom_lim: Option<u64>,
    twoway_min_cell: f64,
}

/// `o`: the dataset that plays the original.
fn label_spec(case: &Case, ti: usize, n_datasets: usize, o: usize) -> LabelSpec {
    let opt = &case.options[ti];
    let target = &case.vars[case.n_keys + ti];
    let t_labels = observed_labels(target, n_datasets);
    let pick = |v: &[Label], i: u8| v[i as usize % v.len()].clone();
    LabelSpec {
        not_target: opt.not_target.iter().map(|&i| pick(&t_labels, i)).collect(),
        // usetargetNA = FALSE removes the missing target level if the original has it.
        exclude_missing: !opt.use_target_na && target.labels(o).contains(&Label::Missing),
        key_target: opt
            .key_target
            .iter()
            .map(|&(k, kl, tl)| {
                let k = k as usize % case.n_keys;
                (k, pick(&observed_labels(&case.vars[k], n_datasets), kl), pick(&t_labels, tl))
            })
            .collect(),
        use_keys_na: opt.use_keys_na.clone(),
        denom_lim: opt.denom_lim,
        twoway_min_cell: opt.twoway_min_cell,
    }
}

struct Naive {
    measures: BTreeMap<&'static str, f64>,
    total: [u64; N_TABLES],
    removed: [[u64; N_STEPS]; N_TABLES],
    one_way: (Option<Label>, u64, u64, u64, u64),
    two_way: BTreeMap<(usize, Label, Label), (u64, u64, u64)>,
    /// Tau curve (definitions vignette 10.1) on `TAU`: synthetic and original, in percent.
    tau_syn: Vec<f64>,
    tau_orig: Vec<f64>,
}

/// The tau grid of the tests: unsorted, with a repeat.
const TAU: [f64; 7] = [0.0, 1.0 / 3.0, 0.5, 0.2, 1.0, 0.75, 0.5];

fn pct(a: f64, b: f64) -> f64 {
    100.0 * a / b
}

/// Definitions vignette sections 3 to 7 and the tau curve of 10.1, on labels, cell by cell; dataset `o`
/// is the original, `j` the synthesis.
fn naive(case: &Case, ti: usize, o: usize, j: usize, spec: &LabelSpec) -> Naive {
    type Q = Vec<Label>;
    let keys = &case.vars[..case.n_keys];
    let target = &case.vars[case.n_keys + ti];
    let q_of = |d: usize| -> Vec<Q> {
        let cols: Vec<Vec<Label>> = keys.iter().map(|k| k.labels(d)).collect();
        (0..target.labels(d).len()).map(|r| cols.iter().map(|c| c[r].clone()).collect()).collect()
    };
    let (qd, qs) = (q_of(o), q_of(j));
    let (td, ts) = (target.labels(o), target.labels(j));
    let (nd, ns) = (td.len() as f64, ts.len() as f64);
    let mut dmap: BTreeMap<(Q, Label), u64> = BTreeMap::new();
    let mut smap: BTreeMap<(Q, Label), u64> = BTreeMap::new();
    for (q, t) in qd.iter().zip(&td) {
        *dmap.entry((q.clone(), t.clone())).or_default() += 1;
    }
    for (q, t) in qs.iter().zip(&ts) {
        *smap.entry((q.clone(), t.clone())).or_default() += 1;
    }
    let mut dq: BTreeMap<Q, u64> = BTreeMap::new();
    let mut sq: BTreeMap<Q, u64> = BTreeMap::new();
    for ((q, _), v) in &dmap {
        *dq.entry(q.clone()).or_default() += v;
    }
    for ((q, _), v) in &smap {
        *sq.entry(q.clone()).or_default() += v;
    }
    // ps[u,q] == 1 for some u: exactly when one target level occurs in q in the synthesis.
    let syn_certain_q = |q: &Q| smap.iter().filter(|((qq, _), _)| qq == q).count() == 1;
    let cells: BTreeSet<(Q, Label)> = dmap.keys().chain(smap.keys()).cloned().collect();
    let step_of = |q: &Q, t: &Label, v: u64| -> Option<usize> {
        if spec.not_target.contains(t) {
            Some(0)
        } else if spec.exclude_missing && *t == Label::Missing {
            Some(1)
        } else if (0..keys.len()).any(|i| !spec.use_keys_na[i] && q[i] == Label::Missing) {
            Some(2)
        } else if spec.key_target.iter().any(|(k, kl, tl)| q[*k] == *kl && t == tl) {
            Some(3)
        } else if spec.denom_lim.is_some_and(|l| v > l) {
            Some(4)
        } else {
            None
        }
    };
    // Tau curve: proportions before exclusions; the DiSCO table's steps with value d.
    let mut tau_syn = vec![0.0; TAU.len()];
    let mut tau_orig = vec![0.0; TAU.len()];
    for (q, t) in &cells {
        let d = dmap.get(&(q.clone(), t.clone())).copied().unwrap_or(0);
        if d == 0 || step_of(q, t, d).is_some() {
            continue;
        }
        let s = smap.get(&(q.clone(), t.clone())).copied().unwrap_or(0);
        let sqq = sq.get(q).copied().unwrap_or(0);
        let ps = if sqq > 0 { s as f64 / sqq as f64 } else { 0.0 };
        let pd = d as f64 / dq[q] as f64;
        for (k, &tau) in TAU.iter().enumerate() {
            if ps >= tau {
                tau_syn[k] += ps * d as f64;
            }
            if pd >= tau {
                tau_orig[k] += pd * d as f64;
            }
        }
    }
    let tau_syn: Vec<f64> = tau_syn.iter().map(|&x| pct(x, nd)).collect();
    let tau_orig: Vec<f64> = tau_orig.iter().map(|&x| pct(x, nd)).collect();
    let mut total = [0u64; N_TABLES];
    let mut removed = [[0u64; N_STEPS]; N_TABLES];
    let mut kept: Vec<BTreeMap<(Q, Label), u64>> = vec![BTreeMap::new(); N_TABLES];
    for (q, t) in &cells {
        let d = dmap.get(&(q.clone(), t.clone())).copied().unwrap_or(0);
        let s = smap.get(&(q.clone(), t.clone())).copied().unwrap_or(0);
        let dqq = dq.get(q).copied().unwrap_or(0);
        let sqq = sq.get(q).copied().unwrap_or(0);
        let ps1 = sqq > 0 && s == sqq;
        let pd1 = dqq > 0 && d == dqq;
        // In the order of MEASURE_NAMES.
        let values = [
            d,
            s,
            if pd1 { d } else { 0 },
            if ps1 { s } else { 0 },
            if sqq > 0 { d } else { 0 },
            if syn_certain_q(q) { d } else { 0 },
            if ps1 { d } else { 0 },
            if ps1 && pd1 { d } else { 0 },
        ];
        for k in 0..N_TABLES {
            let v = values[k];
            if v == 0 {
                continue;
            }
            total[k] += v;
            match step_of(q, t, v) {
                Some(st) => removed[k][st] += v,
                None => {
                    kept[k].insert((q.clone(), t.clone()), v);
                }
            }
        }
    }
    let sum = |k: usize| kept[k].values().sum::<u64>() as f64;
    let mut dkq: BTreeMap<Q, u64> = BTreeMap::new();
    let mut skq: BTreeMap<Q, u64> = BTreeMap::new();
    for ((q, _), v) in &kept[0] {
        *dkq.entry(q.clone()).or_default() += v;
    }
    for ((q, _), v) in &kept[1] {
        *skq.entry(q.clone()).or_default() += v;
    }
    let all_q: BTreeSet<Q> = dq.keys().chain(sq.keys()).cloned().collect();
    let dk = |q: &Q| dkq.get(q).copied().unwrap_or(0);
    let sk = |q: &Q| skq.get(q).copied().unwrap_or(0);
    let count = |f: &dyn Fn(&Q) -> bool| all_q.iter().filter(|q| f(q)).count() as f64;
    let mut c = 0.0;
    let mut capd = 0.0;
    let mut caps = 0.0;
    for ((q, t), &d) in &kept[0] {
        if let Some(&s) = kept[1].get(&(q.clone(), t.clone())) {
            c += s as f64 / sk(q) as f64 * d as f64;
        }
        capd += (d as f64 / dk(q) as f64).powi(2) * dk(q) as f64;
    }
    for ((q, _), &s) in &kept[1] {
        caps += (s as f64 / sk(q) as f64).powi(2) * sk(q) as f64;
    }
    let nb: f64 = all_q.iter().filter(|q| dk(q) > 0).map(|q| sk(q) as f64).sum();
    let orig_in_syn: f64 = all_q.iter().filter(|q| sk(q) > 0).map(|q| dk(q) as f64).sum();
    let disco_cells: Vec<u64> = kept[6].values().copied().collect();
    let k_disco = sum(6);
    let mut margin: BTreeMap<Label, u64> = BTreeMap::new();
    for t in &td {
        *margin.entry(t.clone()).or_default() += 1;
    }
    // Taub's TCAP: q whose kept synthetic records have one level u, with kept originals.
    let (mut taub_num, mut taub_den) = (0.0, 0.0);
    for q in &all_q {
        let syn_levels: Vec<&Label> =
            kept[1].iter().filter(|((qq, _), &v)| qq == q && v > 0).map(|((_, t), _)| t).collect();
        if syn_levels.len() == 1 && dk(q) > 0 {
            let d_u = kept[0].get(&(q.clone(), syn_levels[0].clone())).copied().unwrap_or(0);
            taub_num += sk(q) as f64 * (d_u as f64 / dk(q) as f64);
            taub_den += sk(q) as f64;
        }
    }
    let base = 100.0 * margin.values().map(|&v| (v as f64 / nd).powi(2)).sum::<f64>();
    let values = [
        pct(count(&|q| dk(q) == 1), nd),
        pct(count(&|q| sk(q) == 1), ns),
        pct(count(&|q| dk(q) == 1 && sq.get(q).is_some_and(|&v| v > 0)), nd),
        pct(count(&|q| dk(q) == 1 && sk(q) == 1), nd),
        pct(sum(2), nd),
        pct(sum(3), ns),
        pct(sum(4), nd),
        pct(sum(5), nd),
        pct(k_disco, nd),
        pct(c, nd),
        pct(sum(7), nd),
        disco_cells.iter().copied().max().unwrap_or(0) as f64,
        if disco_cells.is_empty() { f64::NAN } else { k_disco / disco_cells.len() as f64 },
        if nd == 0.0 { f64::NAN } else { base },
        pct(capd, nd),
        pct(caps, ns),
        pct(c, ns),
        pct(c, nb),
        pct(k_disco, sum(5)),
        pct(k_disco, ns),
        pct(k_disco, nb),
        pct(k_disco, orig_in_syn),
        pct(taub_num, taub_den),
        pct(c, sum(4)),
        nd,
        ns,
    ];
    let measures = MEASURE_NAMES.iter().copied().zip(values).collect();

    // 1-way: the target level with most disclosive records, first in level order on ties.
    let mut by_level: BTreeMap<Label, (u64, u64)> = BTreeMap::new();
    for ((_, t), &v) in &kept[6] {
        by_level.entry(t.clone()).or_default().0 += v;
    }
    for ((_, t), &v) in &kept[0] {
        by_level.entry(t.clone()).or_default().1 += v;
    }
    let mut levels: Vec<(&Label, &(u64, u64))> = by_level.iter().filter(|(_, c)| c.0 > 0).collect();
    levels.sort_by(|a, b| {
        b.1 .0.cmp(&a.1 .0).then_with(|| {
            let (ka, kb) = (target.order_key(a.0), target.order_key(b.0));
            ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
        })
    });
    let one_way = match levels.first() {
        Some((l, c)) => (Some((*l).clone()), c.0, k_disco as u64, c.1, sum(0) as u64),
        None => (None, 0, k_disco as u64, 0, sum(0) as u64),
    };

    // 2-way: DiSCO cells above the threshold, summed per (key, key level, target level).
    let mut two_way: BTreeMap<(usize, Label, Label), (u64, u64, u64)> = BTreeMap::new();
    for ((q, t), &v) in &kept[6] {
        if v as f64 > spec.twoway_min_cell {
            for (i, kl) in q.iter().enumerate() {
                two_way.entry((i, kl.clone(), t.clone())).or_default().0 += v;
            }
        }
    }
    for ((i, kl, t), e) in two_way.iter_mut() {
        e.2 = qd.iter().filter(|q| q[*i] == *kl).count() as u64;
        e.1 = qd.iter().zip(&td).filter(|(q, tt)| q[*i] == *kl && *tt == t).count() as u64;
    }
    Naive { measures, total, removed, one_way, two_way, tau_syn, tau_orig }
}

fn close(got: f64, want: f64) -> bool {
    (got.is_nan() && want.is_nan()) || got == want || (got - want).abs() <= 1e-9 * want.abs().max(1.0)
}

/// Encodes like the R side does: then merges doubles whose 15-digit labels agree.
fn encode_case<'a>(case: &'a Case, workers: &Workers) -> Vec<EncodedVar<'a>> {
    let inputs: Vec<VarInput> = case.vars.iter().map(|v| v.input()).collect();
    let mut enc = encode_all(workers, &inputs, &never_stop).unwrap();
    for v in enc.iter_mut() {
        if let Some(levels) = v.numeric_levels.clone() {
            let labels: Vec<String> =
                levels.iter().map(|&x| if x.is_nan() { "NaN".into() } else { format!("{x:.14e}") }).collect();
            let first_of: Vec<u32> =
                labels.iter().map(|l| labels.iter().position(|m| m == l).unwrap() as u32).collect();
            merge_numeric_levels(workers, v, &first_of).unwrap();
        }
    }
    enc
}

/// `o`: the dataset that plays the original.
fn requests(case: &Case, enc: &[EncodedVar], specs: &[LabelSpec], o: usize) -> Vec<TargetRequest> {
    specs
        .iter()
        .enumerate()
        .map(|(ti, s)| {
            let var = case.n_keys + ti;
            let t_labels = code_labels(&case.vars[var], &enc[var]);
            let code = |vi: usize, l: &Label| -> u32 {
                code_labels(&case.vars[vi], &enc[vi]).iter().position(|x| x == l).unwrap() as u32
            };
            let mut spec = ExclusionSpec::none(enc[var].n_levels as usize, enc[var].missing_code);
            for (c, l) in t_labels.iter().enumerate() {
                spec.excluded_target[c] = s.not_target.contains(l);
            }
            spec.exclude_missing_target = !case.options[ti].use_target_na && enc[var].has_missing[o];
            spec.key_target = s
                .key_target
                .iter()
                .map(|(k, kl, tl)| KeyTargetExclusion { key: *k, key_level: code(*k, kl), target_level: code(var, tl) })
                .collect();
            spec.denom_lim = s.denom_lim;
            TargetRequest { var, spec, twoway_min_cell: s.twoway_min_cell }
        })
        .collect()
}

fn check_against_naive(case: &Case, enc: &[EncodedVar], ti: usize, j: usize, got: &SynthesisResult, want: &Naive) {
    for name in MEASURE_NAMES {
        let (g, w) = (got.measures.get(name).unwrap(), want.measures[name]);
        assert!(close(g, w), "target {ti} synthesis {j} {name}: got {g}, want {w}");
    }
    assert_eq!(got.total, want.total, "table totals");
    assert_eq!(got.removed, want.removed, "Nexclusions");
    let var = case.n_keys + ti;
    let t_labels = code_labels(&case.vars[var], &enc[var]);
    let w = &got.one_way;
    let level = w.level.map(|l| t_labels[l as usize].clone());
    assert_eq!((level, w.n_level_dis, w.total_disclosive, w.level_orig, w.all_orig), want.one_way.clone(), "1-way");
    let two_way: BTreeMap<(usize, Label, Label), (u64, u64, u64)> = got
        .two_way
        .iter()
        .map(|p| {
            let kl = code_labels(&case.vars[p.key], &enc[p.key])[p.key_level as usize].clone();
            ((p.key, kl, t_labels[p.target_level as usize].clone()), (p.npairs, p.key_target_total, p.key_total))
        })
        .collect();
    assert_eq!(two_way, want.two_way, "2-way pairs");
}

fn bits(r: &SynthesisResult) -> (Vec<u64>, [u64; N_TABLES], [[u64; N_STEPS]; N_TABLES]) {
    (r.measures.named().iter().map(|(_, v)| v.to_bits()).collect(), r.total, r.removed)
}

/// 256 cases from a fixed seed, so that `cargo test` is fast and repeatable; more, or
/// other seeds, with SYNTHRISK_PROPTEST_CASES / SYNTHRISK_PROPTEST_SEED.
fn config() -> ProptestConfig {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    ProptestConfig {
        cases: env("SYNTHRISK_PROPTEST_CASES").map_or(256, |c| c as u32),
        rng_seed: proptest::test_runner::RngSeed::Fixed(env("SYNTHRISK_PROPTEST_SEED").unwrap_or(20_260_808)),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn engine_matches_naive_reference_for_any_threads_and_chunks(case in case_strategy()) {
        let one = Workers::new(1).unwrap();
        let two = Workers::new(2).unwrap();
        let enc = encode_case(&case, &one);
        let n_datasets = enc[0].codes.len();
        let specs: Vec<LabelSpec> = (0..case.options.len()).map(|ti| label_spec(&case, ti, n_datasets, 0)).collect();
        let reqs = requests(&case, &enc, &specs, 0);
        let keys: Vec<usize> = (0..case.n_keys).collect();
        let use_na = &case.options[0].use_keys_na;
        // usekeysNA is shared by all targets of a call.
        let specs: Vec<LabelSpec> = specs.into_iter().map(|mut s| { s.use_keys_na = use_na.clone(); s }).collect();
        let sizes = ChunkSizes { range_rows: case.range_rows, chunk_rows: case.chunk_rows, view_words: 1 << 25, copy_bytes: 1, one_trip_rows: 0, target_pieces: Some(1), plain_split_rows: case.chunk_rows };
        let a = run(&one, &enc, &keys, use_na, &reqs, &never_stop).unwrap();
        let b = run_with(&one, &enc, &keys, use_na, &reqs, sizes, &never_stop).unwrap();
        let c = run_with(&two, &enc, &keys, use_na, &reqs, sizes, &never_stop).unwrap();
        let d = run(&two, &enc, &keys, use_na, &reqs, &never_stop).unwrap();
        for ti in 0..reqs.len() {
            for j in 1..n_datasets {
                let want = naive(&case, ti, 0, j, &specs[ti]);
                for got in [&a, &b] {
                    check_against_naive(&case, &enc, ti, j, &got[ti].synthesis[j - 1], &want);
                }
                let (bb, cc) = (&b[ti].synthesis[j - 1], &c[ti].synthesis[j - 1]);
                prop_assert_eq!(bits(bb), bits(cc), "1 and 2 threads differ");
                prop_assert_eq!(&bb.one_way, &cc.one_way);
                prop_assert_eq!(&bb.two_way, &cc.two_way);
                prop_assert_eq!(bits(&a[ti].synthesis[j - 1]), bits(&d[ti].synthesis[j - 1]), "1 and 2 threads differ");
            }
        }
    }
}

fn close_all(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len() && got.iter().zip(want).all(|(&g, &w)| close(g, w))
}

proptest! {
    #![proptest_config(config())]

    /// Plans: another dataset as the original (the holdout), a subsample of a dataset as
    /// a synthesis (the size curve, in memory batches of any size) and the tau curve.
    #[test]
    fn plans_match_naive_reference(case in case_strategy(), keep in proptest::collection::vec(any::<bool>(), 1..8),
                                   draws in proptest::collection::vec(0u32..1000, 0..40),
                                   swap in any::<bool>(), tiny_batches in any::<bool>()) {
        let one = Workers::new(1).unwrap();
        let two = Workers::new(2).unwrap();
        let enc = encode_case(&case, &one);
        let n_datasets = enc[0].codes.len();
        let o = usize::from(swap);
        let other = 1 - o;
        let specs: Vec<LabelSpec> = (0..case.options.len()).map(|ti| label_spec(&case, ti, n_datasets, o)).collect();
        let reqs = requests(&case, &enc, &specs, o);
        let keys: Vec<usize> = (0..case.n_keys).collect();
        let use_na = &case.options[0].use_keys_na;
        let specs: Vec<LabelSpec> = specs.into_iter().map(|mut s| { s.use_keys_na = use_na.clone(); s }).collect();
        // A subsample of `other`, rows in reverse order.
        let n_other = enc[0].codes[other].len();
        let rows: Vec<u32> = (0..n_other as u32).rev().filter(|&r| keep[r as usize % keep.len()]).collect();
        // A resample of `other` (a bootstrap replicate): rows drawn with replacement, in
        // any order; the reference counts the same rows, repeats included, as a dataset.
        let resampled: Vec<u32> = if n_other == 0 { Vec::new() } else { draws.iter().map(|&d| d % n_other as u32).collect() };
        let plan = Plan {
            original: o,
            syntheses: vec![
                SynthesisView::whole(other),
                SynthesisView::subsample(other, rows.clone()),
                SynthesisView::resample(other, resampled.clone()),
            ],
            tau: TauGrid::new(&TAU).unwrap(),
            weights: Vec::new(),
        };
        let sub_case = Case { vars: case.vars.iter().map(|v| v.with_subset(other, &rows)).collect(), ..case.clone() };
        let re_case = Case { vars: case.vars.iter().map(|v| v.with_subset(other, &resampled)).collect(), ..case.clone() };
        // Batches of views never change a sum; q ranges may (floating point), so runs are
        // compared to the bit only at equal ranges, and each with the reference.
        let batched = ChunkSizes { view_words: if tiny_batches { 1 } else { 1 << 25 }, ..ChunkSizes::default() };
        let small = ChunkSizes { range_rows: case.range_rows, chunk_rows: case.chunk_rows, view_words: 1, copy_bytes: 1, one_trip_rows: usize::MAX, target_pieces: Some(3), plain_split_rows: 1 };
        let a = run_plan(&one, &enc, &keys, use_na, &reqs, &plan, &never_stop).unwrap();
        let request = CountRequest { vars: &enc, keys: &keys, use_keys_na: use_na, targets: &reqs, plan: &plan };
        let b = engine::run_plan_with(&two, &request, batched, &never_stop).unwrap();
        let c = engine::run_plan_with(&two, &request, small, &never_stop).unwrap();
        for ti in 0..reqs.len() {
            let wants = [naive(&case, ti, o, other, &specs[ti]), naive(&sub_case, ti, o, other, &specs[ti]),
                         naive(&re_case, ti, o, other, &specs[ti])];
            for (vi, want) in wants.iter().enumerate() {
                let got = &a[ti].synthesis[vi];
                check_against_naive(&case, &enc, ti, other, got, want);
                check_against_naive(&case, &enc, ti, other, &c[ti].synthesis[vi], want);
                prop_assert!(close_all(&c[ti].synthesis[vi].tau_syn, &want.tau_syn));
                prop_assert!(close_all(&got.tau_syn, &want.tau_syn), "tau synthetic: got {:?}, want {:?}", got.tau_syn, want.tau_syn);
                prop_assert!(close_all(&got.tau_orig, &want.tau_orig), "tau original: got {:?}, want {:?}", got.tau_orig, want.tau_orig);
                // tau = 1 is DiSCO and Dorig, to the bit.
                prop_assert_eq!(got.tau_syn[4].to_bits(), got.measures.get("DiSCO").unwrap().to_bits());
                prop_assert_eq!(got.tau_orig[4].to_bits(), got.measures.get("Dorig").unwrap().to_bits());
                let other_run = &b[ti].synthesis[vi];
                prop_assert_eq!(bits(got), bits(other_run), "threads, chunks or batches changed a result");
                prop_assert_eq!(&got.tau_syn.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                                &other_run.tau_syn.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
            }
        }
    }
}

#[test]
fn a_stop_request_ends_the_run_between_chunks() {
    let n = 50usize;
    let codes =
        |k: u32| -> Vec<Vec<u32>> { (0..2).map(|d| (0..n as u32).map(|r| (r * (d + 1) + k) % 4).collect()).collect() };
    let vars = vec![EncodedVar::from_u32(codes(0), 5, 4, None), EncodedVar::from_u32(codes(1), 5, 4, None)];
    let req = || vec![TargetRequest { var: 1, spec: ExclusionSpec::none(5, 4), twoway_min_cell: 1.0 }];
    let w = Workers::new(2).unwrap();
    // Small work is one trip to the pool without stop checks; here every chunk asks.
    let sizes = ChunkSizes { range_rows: 4, chunk_rows: 8, one_trip_rows: 0, ..ChunkSizes::default() };
    let asked = std::cell::Cell::new(0);
    let counting = || {
        asked.set(asked.get() + 1);
        false
    };
    run_with(&w, &vars, &[0], &[true], &req(), sizes, &counting).unwrap();
    let chunks = asked.get();
    assert!(chunks > 3, "asked {chunks} times");
    for stop_at in 1..=chunks {
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() >= stop_at
        };
        let e = run_with(&w, &vars, &[0], &[true], &req(), sizes, &stop).err().expect("stopped");
        assert!(e.is_interrupt());
        assert_eq!(asked.get(), stop_at, "no work after the stop request");
    }
}

// The engine's entry points with the request spelt out; `run` and `run_with` are the
// standard plan (dataset 0 the original, every other a synthesis).
fn run_plan(
    workers: &Workers,
    vars: &[EncodedVar],
    keys: &[usize],
    use_keys_na: &[bool],
    targets: &[TargetRequest],
    plan: &Plan,
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<TargetResult>> {
    engine::run_plan(workers, &CountRequest { vars, keys, use_keys_na, targets, plan }, should_stop)
}

fn run(
    workers: &Workers,
    vars: &[EncodedVar],
    keys: &[usize],
    use_keys_na: &[bool],
    targets: &[TargetRequest],
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<TargetResult>> {
    run_with(workers, vars, keys, use_keys_na, targets, ChunkSizes::default(), should_stop)
}

fn run_with(
    workers: &Workers,
    vars: &[EncodedVar],
    keys: &[usize],
    use_keys_na: &[bool],
    targets: &[TargetRequest],
    sizes: ChunkSizes,
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<TargetResult>> {
    let plan = Plan::standard(vars.first().map_or(0, |v| v.codes.len()));
    engine::run_plan_with(workers, &CountRequest { vars, keys, use_keys_na, targets, plan: &plan }, sizes, should_stop)
}
