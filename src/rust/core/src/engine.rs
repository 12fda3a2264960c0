//! All targets and all syntheses in one call: the keys are indexed once, rows grouped by
//! q once per dataset, and the (target, synthesis, q-range) passes run in parallel.
//! q ranges depend only on the data, and partial sums merge in range order, so results
//! are identical whatever the number of threads.

use crate::checks::{one_way, two_way, OneWay, PairCount};
use crate::encode::EncodedVar;
use crate::error::{CoreError, CoreResult};
use crate::exclusions::*;
use crate::keys::build_key_index;
use crate::measures::{base_cap_d, SynthesisMeasures};
use crate::rows_by_q::RowsByQ;
use crate::sweep::{sweep, SweepInput, Tally};
use rayon::prelude::*;

/// Rows (original + synthetic) per q range: large enough to amortise the scratch,
/// small enough to spread one target over both cores.
const RANGE_ROWS: usize = 1 << 19;

pub struct TargetRequest {
    /// Index of the target among the encoded variables.
    pub var: usize,
    pub spec: ExclusionSpec,
    pub twoway_min_cell: f64,
}

pub struct SynthesisResult {
    pub measures: SynthesisMeasures,
    pub total: [u64; N_TABLES],
    pub removed: [[u64; N_STEPS]; N_TABLES],
    pub one_way: OneWay,
    pub two_way: Vec<PairCount>,
}

pub struct TargetResult {
    pub synthesis: Vec<SynthesisResult>,
}

/// Runs a closure on a pool of `n_threads` threads made for this call.
pub fn with_threads<T: Send>(n_threads: usize, f: impl FnOnce() -> T + Send) -> CoreResult<T> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n_threads.max(1))
        .build()
        .map_err(|e| CoreError::new(format!("could not start {n_threads} threads: {e}")))?;
    Ok(pool.install(f))
}

fn q_ranges(rows_orig: &RowsByQ, rows_syn: &RowsByQ, n_q: usize) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut lo = 0;
    let mut rows = 0;
    for q in 0..n_q {
        rows += rows_orig.count(q) + rows_syn.count(q);
        if rows >= RANGE_ROWS {
            ranges.push((lo, q + 1));
            lo = q + 1;
            rows = 0;
        }
    }
    if lo < n_q || ranges.is_empty() {
        ranges.push((lo, n_q));
    }
    ranges
}

fn validate(vars: &[EncodedVar], keys: &[usize], use_keys_na: &[bool], targets: &[TargetRequest]) -> CoreResult<()> {
    let first = vars.first().ok_or_else(|| CoreError::new("no variables"))?;
    if first.codes.len() < 2 {
        return Err(CoreError::new("need the original and at least one synthesis"));
    }
    for v in vars {
        if v.codes.len() != first.codes.len() {
            return Err(CoreError::new("variables differ in their number of datasets"));
        }
        for (a, b) in v.codes.iter().zip(&first.codes) {
            if a.len() != b.len() {
                return Err(CoreError::new("variables differ in their number of rows"));
            }
        }
    }
    if keys.is_empty() || keys.len() != use_keys_na.len() {
        return Err(CoreError::new("need at least one key and one usekeysNA flag per key"));
    }
    for &k in keys {
        if k >= vars.len() {
            return Err(CoreError::new("key index out of range"));
        }
    }
    for t in targets {
        let var = vars.get(t.var).ok_or_else(|| CoreError::new("target index out of range"))?;
        if t.spec.excluded_target.len() != var.n_levels as usize {
            return Err(CoreError::new("excluded target levels do not match the target's levels"));
        }
        for e in &t.spec.key_target {
            if e.key >= keys.len()
                || e.key_level >= vars[keys[e.key]].n_levels
                || e.target_level >= var.n_levels
            {
                return Err(CoreError::new("a key/target exclusion names a level out of range"));
            }
        }
    }
    Ok(())
}

pub fn run(
    vars: &[EncodedVar],
    keys: &[usize],
    use_keys_na: &[bool],
    targets: &[TargetRequest],
) -> CoreResult<Vec<TargetResult>> {
    validate(vars, keys, use_keys_na, targets)?;
    let key_codes: Vec<&[Vec<u32>]> = keys.iter().map(|&k| vars[k].codes.as_slice()).collect();
    let key_levels: Vec<u32> = keys.iter().map(|&k| vars[k].n_levels).collect();
    let index = build_key_index(&key_codes, &key_levels);
    let rows: Vec<RowsByQ> = index.q.par_iter().map(|q| RowsByQ::new(q, index.n_q)).collect();
    let key_missing: Vec<u32> = keys.iter().map(|&k| vars[k].missing_code).collect();
    let missing_key = missing_key_flags(&index, &key_missing, use_keys_na);
    let n_syn = rows.len() - 1;
    let n_orig = index.q[0].len() as u64;
    let key_codes_orig: Vec<&[u32]> = keys.iter().map(|&k| vars[k].codes[0].as_slice()).collect();
    let ranges: Vec<Vec<(usize, usize)>> = (1..=n_syn).map(|j| q_ranges(&rows[0], &rows[j], index.n_q)).collect();

    let jobs: Vec<(usize, usize)> = (0..targets.len()).flat_map(|t| (1..=n_syn).map(move |j| (t, j))).collect();
    let results: Vec<SynthesisResult> = jobs
        .par_iter()
        .map(|&(ti, j)| {
            let request = &targets[ti];
            let target = &vars[request.var];
            let input = SweepInput {
                index: &index,
                rows_orig: &rows[0],
                rows_syn: &rows[j],
                target_orig: &target.codes[0],
                target_syn: &target.codes[j],
                n_target_levels: target.n_levels as usize,
                missing_key: &missing_key,
                spec: &request.spec,
                twoway_min_cell: request.twoway_min_cell,
            };
            let parts: Vec<Tally> = ranges[j - 1].par_iter().map(|&(lo, hi)| sweep(&input, lo, hi)).collect();
            let mut tally = Tally::new(target.n_levels as usize);
            for p in parts {
                tally.merge(p);
            }
            let mut margin = vec![0u64; target.n_levels as usize];
            for &c in &target.codes[0] {
                margin[c as usize] += 1;
            }
            let n_syn_rows = index.q[j].len() as u64;
            let measures = SynthesisMeasures::from_tally(&tally, n_orig, n_syn_rows, base_cap_d(&margin, n_orig));
            SynthesisResult {
                measures,
                total: tally.total,
                removed: tally.removed,
                one_way: one_way(&tally.disco_by_level, &tally.orig_by_level),
                two_way: two_way(&tally.twoway_cells, &index, &key_codes_orig, &key_levels, &target.codes[0]),
            }
        })
        .collect();
    let mut results = results.into_iter();
    Ok(targets
        .iter()
        .map(|_| TargetResult { synthesis: results.by_ref().take(n_syn).collect() })
        .collect())
}
