//! The key sweep (definitions vignette, section 14): every measure of many subsets of a
//! candidate set of keys in one call, on one encoding. Each subset is one `CountRequest`
//! of the engine (its own key index, rows grouped by its q, every target and synthesis);
//! the subsets run in parallel on the same pool as the engine's own passes, so that the
//! many small subsets of small data keep every core busy. Only the measures come back:
//! per subset, target and synthesis the values of `MEASURE_NAMES`, in that order.
//! Subsets go in chunks of bounded work, so that memory stays bounded (at most a chunk's
//! subsets are counted at once) and the caller can stop between two chunks. Each subset's
//! numbers are those of `run_plan` on it, so results are identical for any thread count.

use crate::codes::code_width;
use crate::encode::EncodedVar;
use crate::engine::{run_plan_sharing, CountRequest, TargetRequest};
use crate::error::CoreResult;
use crate::key_target_counts::KeyTargetCache;
use crate::measures::MEASURE_NAMES;
use crate::plan::Plan;
use crate::workers::{chunks_by_cost, never_stop, stop_point, ShouldStop, Workers};
use rayon::prelude::*;

/// One subset of keys: the encoded variables that are its keys, each key's usekeysNA
/// flag, and its targets' requests (whose key/target exclusions index these keys).
pub struct KeySubset {
    pub keys: Vec<usize>,
    pub use_keys_na: Vec<bool>,
    pub targets: Vec<TargetRequest>,
}

/// Rows of counting (records of the original and syntheses, times targets) per chunk of
/// subsets: a fraction of a second, and the memory of a few subsets' passes.
pub const SUBSET_CHUNK_ROWS: usize = 1 << 23;

/// Every subset's measures: for subset, then target, then synthesis of `plan`, the
/// values of `MEASURE_NAMES`. Between chunks of `chunk_rows` rows of counting,
/// `should_stop` is asked on the calling thread.
pub fn count_key_subsets(
    workers: &Workers,
    vars: &[EncodedVar<'_>],
    subsets: &[KeySubset],
    plan: &Plan,
    chunk_rows: usize,
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<f64>> {
    let dataset_rows = vars.first().map_or_else(Vec::new, |v| v.dataset_rows());
    plan.validate(&dataset_rows)?;
    let view_rows: usize = plan.syntheses.iter().map(|v| v.n_rows(dataset_rows[v.dataset])).sum();
    let rows_per_target = dataset_rows.get(plan.original).copied().unwrap_or(0) + view_rows;
    let costs: Vec<usize> = subsets.iter().map(|s| rows_per_target.saturating_mul(s.targets.len())).collect();
    let values_per_target = MEASURE_NAMES.len() * plan.syntheses.len();
    let mut out = Vec::with_capacity(subsets.iter().map(|s| s.targets.len() * values_per_target).sum());
    // The 2-way totals' tables depend on one key and one target: counted once for all
    // subsets.
    let cache = KeyTargetCache::new(vars.len());
    let narrowed = narrow_copies(workers, vars, NARROW_COPY_BYTES);
    let vars = narrowed.as_deref().unwrap_or(vars);
    for chunk in chunks_by_cost(&costs, chunk_rows.max(1)) {
        // A subset's own passes run on the same pool (the engine's calls from a pool
        // thread stay in it), so subsets and passes share the cores.
        let counted: Vec<CoreResult<Vec<f64>>> = workers
            .run(|| subsets[chunk].par_iter().map(|s| subset_measures(workers, vars, s, plan, &cache)).collect());
        for values in counted {
            out.extend(values?);
        }
        stop_point(should_stop)?;
    }
    Ok(out)
}

/// Bytes the sweep's narrow copies of R's factor codes may take.
pub const NARROW_COPY_BYTES: usize = 1 << 27;

/// The variables with R's factor codes (four bytes, read through their table) copied
/// into the narrowest width: every subset reads its keys and targets, so one copy
/// serves them all. `None` when no variable has factor codes, or when the copies and
/// the clones of the other variables' codes would take more than `budget` bytes.
fn narrow_copies<'a>(workers: &Workers, vars: &[EncodedVar<'a>], budget: usize) -> Option<Vec<EncodedVar<'a>>> {
    let bytes_of = |v: &EncodedVar<'_>| -> (usize, usize) {
        v.codes.iter().fold((0, 0), |(copied, cloned), c| match c.compact_copy_bytes(v.n_levels) {
            0 => (copied, cloned + c.len() * code_width(v.n_levels)),
            n => (copied + n, cloned),
        })
    };
    let (copied, cloned) = vars.iter().map(bytes_of).fold((0, 0), |(a, b), (c, d)| (a + c, b + d));
    if copied == 0 || copied + cloned > budget {
        return None;
    }
    Some(workers.run(|| {
        vars.par_iter()
            .map(|v| {
                let mut out = v.clone();
                for c in out.codes.iter_mut() {
                    if let Some(narrow) = c.compact_copy(v.n_levels) {
                        *c = narrow;
                    }
                }
                out
            })
            .collect()
    }))
}

/// One subset's measures, target by target, synthesis by synthesis.
fn subset_measures(
    workers: &Workers,
    vars: &[EncodedVar<'_>],
    subset: &KeySubset,
    plan: &Plan,
    cache: &KeyTargetCache,
) -> CoreResult<Vec<f64>> {
    let request =
        CountRequest { vars, keys: &subset.keys, use_keys_na: &subset.use_keys_na, targets: &subset.targets, plan };
    let results = run_plan_sharing(workers, &request, cache, &never_stop)?;
    Ok(results
        .iter()
        .flat_map(|t| t.synthesis.iter())
        .flat_map(|s| s.measures.named().into_iter().map(|(_, v)| v))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::run_plan;
    use crate::exclusions::ExclusionSpec;
    use crate::test_random::XorShift;

    fn target(var: usize, levels: u32, case: usize) -> TargetRequest {
        let mut spec = ExclusionSpec::none(levels as usize, levels - 1);
        if case % 3 == 1 {
            spec.denom_lim = Some(2);
        }
        if case % 3 == 2 {
            spec.exclude_missing_target = true;
        }
        TargetRequest { var, spec, twoway_min_cell: 1.0 }
    }

    /// Every subset of three keys, each counted alone by the engine, equals the sweep
    /// for 1 and 3 threads and for chunks of one subset or all of them.
    #[test]
    fn every_subset_equals_the_engine_alone_for_any_threads_and_chunks() {
        let mut rng = XorShift::new(0x51ED_2701_9A3C_44B1u64);
        let mut next = move |k: u64| rng.below(k);
        let levels = [3u32, 4, 5, 4, 6]; // three keys, two targets; the last level missing
        let sizes = [80usize, 70, 90];
        let vars: Vec<EncodedVar<'_>> = levels
            .iter()
            .map(|&l| {
                EncodedVar::from_u32(
                    sizes.iter().map(|&n| (0..n).map(|_| next(l as u64)).collect()).collect(),
                    l,
                    l - 1,
                    None,
                )
            })
            .collect();
        let plan = Plan::standard(3);
        let subsets_of = || -> Vec<KeySubset> {
            let mut out = Vec::new();
            for mask in 1usize..8 {
                let keys: Vec<usize> = (0..3).filter(|k| mask & (1 << k) != 0).collect();
                let use_keys_na = keys.iter().map(|&k| k != 1).collect();
                let targets = vec![target(3, levels[3], mask), target(4, levels[4], mask + 1)];
                out.push(KeySubset { keys, use_keys_na, targets });
            }
            out
        };
        let one = Workers::new(1).unwrap();
        let want: Vec<f64> = subsets_of()
            .iter()
            .flat_map(|s| {
                let request = CountRequest {
                    vars: &vars,
                    keys: &s.keys,
                    use_keys_na: &s.use_keys_na,
                    targets: &s.targets,
                    plan: &plan,
                };
                run_plan(&one, &request, &never_stop).unwrap().into_iter().flat_map(|t| {
                    t.synthesis
                        .into_iter()
                        .flat_map(|s| s.measures.named().into_iter().map(|(_, v)| v))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        assert_eq!(want.len(), 7 * 2 * 2 * MEASURE_NAMES.len());
        for threads in [1, 3] {
            let workers = Workers::new(threads).unwrap();
            for chunk_rows in [1, SUBSET_CHUNK_ROWS] {
                let got = count_key_subsets(&workers, &vars, &subsets_of(), &plan, chunk_rows, &never_stop).unwrap();
                assert_eq!(got.len(), want.len());
                for (a, b) in got.iter().zip(&want) {
                    assert!(a.to_bits() == b.to_bits(), "{a} != {b} ({threads} threads, chunks of {chunk_rows})");
                }
            }
        }
    }

    #[test]
    fn a_stop_between_chunks_ends_the_call() {
        let vars = vec![
            EncodedVar::from_u32(vec![vec![0, 1, 0], vec![1, 1, 0]], 3, 2, None),
            EncodedVar::from_u32(vec![vec![0, 1, 1], vec![1, 0, 0]], 3, 2, None),
        ];
        let subsets = vec![KeySubset { keys: vec![0], use_keys_na: vec![true], targets: vec![target(1, 3, 0)] }];
        let workers = Workers::new(1).unwrap();
        let stop = || true;
        assert!(count_key_subsets(&workers, &vars, &subsets, &Plan::standard(2), 1, &stop).is_err());
    }
}
