//! All targets and all syntheses (the views of a `Plan`) in one call: the keys are indexed once, rows grouped by
//! q once per dataset, and the (target, synthesis, q-range) passes run in parallel.
//! q ranges depend only on the data, and partial sums merge in range order, so results
//! are identical whatever the number of threads. The passes run in chunks of a few
//! million rows so that the caller can stop a long run between two chunks.

use crate::bucket_order::{Buckets, Layout};
use crate::checks::{
    fill_two_way_totals, one_way, two_way_pairs, OneWay, PairCount, PairsByQ, TwoWayColumns, DECODED_ROWS,
};
use crate::codes::{CodeSource, LevelCodes};
use crate::encode::EncodedVar;
use crate::error::{check_row_count, CoreError, CoreResult};
use crate::exclusions::*;
use crate::key_target_counts::{KeyTargetCache, MAX_TABLE_CELLS};
use crate::keys::{build_key_index, KeyIndex};
use crate::measures::{base_cap_d, SynthesisMeasures};
use crate::plain_pass::{
    add_joint_tables, sweep_plain, sweep_plain_adding, JointTables, KeyJoint, PlainInput, PlainPiece, PlainView,
    TargetRows, PACKED_LEVELS,
};
use crate::plan::{Plan, SynthesisView};
use crate::rows_by_q::RowsByQ;
use crate::sweep::{sweep_views, Scratch, SweepInput, Tally};
use crate::with_codes;
use crate::workers::{chunks_by_cost, never_stop, stop_point, ShouldStop, Workers, LIGHT_STEP_ROWS, ONE_TRIP_ROWS};
use rayon::prelude::*;
use std::sync::Arc;

/// How the work is cut: rows (original + synthetic) per q range, and rows per chunk
/// between two interrupt checks. Only tests change the defaults.
#[derive(Debug, Clone, Copy)]
pub struct ChunkSizes {
    pub range_rows: usize,
    pub chunk_rows: usize,
    /// Words (offsets and rows) the grouped rows of subsamples may take at once.
    pub view_words: usize,
    /// Bytes the compact copies of factor targets may take at once.
    pub copy_bytes: usize,
    /// Rows of counting up to which a call is one trip to the pool, without stop
    /// checks (`Workers::call`).
    pub one_trip_rows: usize,
    /// Pieces the targets of the plain pass are split into, to run in parallel (`None`:
    /// enough for one piece per thread with the runs of q). A key sweep, whose subsets
    /// already run in parallel, asks for one, so that each q is read once for all
    /// targets; with one piece, the runs of q are read one after the other.
    pub target_pieces: Option<usize>,
    /// Records of the original from which the plain pass reads the q in two runs, each
    /// for all targets, rather than the targets in pieces each over all q: every
    /// piece of targets reads each q's records again. The runs depend on the original
    /// alone (never the threads, nor the syntheses), and their tallies merge in q
    /// order: they change the sums over q (floating point) as other q ranges do, the
    /// threads never.
    pub plain_split_rows: usize,
}

impl Default for ChunkSizes {
    /// Ranges large enough to amortise the scratch, small enough to spread one target
    /// over the cores; chunks of a fraction of a second.
    fn default() -> Self {
        ChunkSizes {
            range_rows: 1 << 19,
            chunk_rows: 1 << 22,
            view_words: 1 << 25,
            copy_bytes: 1 << 26,
            one_trip_rows: ONE_TRIP_ROWS,
            target_pieces: None,
            plain_split_rows: 1 << 12,
        }
    }
}

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
    /// The tau curve (percent, in the caller's tau order); empty without a tau grid.
    pub tau_syn: Vec<f64>,
    pub tau_orig: Vec<f64>,
}

pub struct TargetResult {
    pub synthesis: Vec<SynthesisResult>,
}

fn validate(vars: &[EncodedVar], keys: &[usize], use_keys_na: &[bool], targets: &[TargetRequest]) -> CoreResult<()> {
    let first = vars.first().ok_or_else(|| CoreError::new("internal: no variables"))?;
    if first.codes.len() < 2 {
        return Err(CoreError::new("internal: need the original and at least one synthesis"));
    }
    for (d, c) in first.codes.iter().enumerate() {
        check_row_count(c.len(), d)?;
    }
    for v in vars {
        if v.codes.len() != first.codes.len() {
            return Err(CoreError::new("internal: variables differ in their number of datasets"));
        }
        for (d, (a, b)) in v.codes.iter().zip(&first.codes).enumerate() {
            if a.len() != b.len() {
                let which = if d == 0 { "the original data".to_string() } else { format!("synthesis {d}") };
                return Err(CoreError::new(format!(
                    "internal: variables differ in their number of rows in {which} ({} and {})",
                    b.len(),
                    a.len()
                )));
            }
        }
    }
    if keys.is_empty() || keys.len() != use_keys_na.len() {
        return Err(CoreError::new("internal: need at least one key and one usekeysNA flag per key"));
    }
    for &k in keys {
        if k >= vars.len() {
            return Err(CoreError::new("internal: key index out of range"));
        }
    }
    for t in targets {
        let var = vars.get(t.var).ok_or_else(|| CoreError::new("internal: target index out of range"))?;
        if t.spec.excluded_target.len() != var.n_levels as usize {
            return Err(CoreError::new("internal: excluded target levels do not match the target's levels"));
        }
        if t.spec.target_missing_code != var.missing_code {
            return Err(CoreError::new("internal: the target's missing code does not match its encoding"));
        }
        if t.twoway_min_cell.is_nan() {
            return Err(CoreError::new("internal: the 2-way cell threshold is NaN"));
        }
        for e in &t.spec.key_target {
            if e.key >= keys.len() || e.key_level >= vars[keys[e.key]].n_levels || e.target_level >= var.n_levels {
                return Err(CoreError::new("internal: a key/target exclusion names a level out of range"));
            }
        }
    }
    Ok(())
}

/// Records at each level when each row stands for `weights[row]` records.
fn weighted_level_counts(codes: &LevelCodes<'_>, weights: &[u32], n_levels: u32) -> Vec<u64> {
    let mut counts = vec![0u64; n_levels as usize];
    with_codes!(codes, |c| {
        for (row, &w) in weights.iter().enumerate() {
            counts[c.code(row) as usize] += w as u64;
        }
    });
    counts
}

/// What one call counts: the encoded variables, the keys (indices into `vars`) with
/// their usekeysNA flags, the targets and the plan of syntheses.
#[derive(Clone, Copy)]
pub struct CountRequest<'r, 'a> {
    pub vars: &'r [EncodedVar<'a>],
    pub keys: &'r [usize],
    pub use_keys_na: &'r [bool],
    pub targets: &'r [TargetRequest],
    pub plan: &'r Plan,
}

/// Every (target, plan synthesis) of the request, in plan order. The work runs in
/// chunks on `workers`; between chunks `should_stop` is asked on the calling thread, and
/// a yes ends the call with `CoreError::Interrupted`. Chunks depend only on the data, so
/// results are identical for any thread count.
pub fn run_plan(
    workers: &Workers,
    request: &CountRequest<'_, '_>,
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<TargetResult>> {
    run_plan_with(workers, request, ChunkSizes::default(), should_stop)
}

/// Consecutive runs of views whose subsamples' grouped rows fit in `budget` words
/// together (at least one view each); whole datasets cost nothing, being shared.
fn view_batches(plan: &Plan, n_q: usize, budget: usize) -> Vec<std::ops::Range<usize>> {
    let costs: Vec<usize> =
        plan.syntheses.iter().map(|v| v.rows.as_ref().map_or(0, |r| RowsByQ::size_for(n_q, r.len()))).collect();
    if costs.iter().all(|&c| c == 0) {
        return vec![0..plan.syntheses.len()];
    }
    chunks_by_cost(&costs, budget)
}

/// The original's records per target level that the exclusions keep.
fn kept_by_level(margin: &[u64], removed: &[(u32, u64)]) -> Vec<u64> {
    let mut kept = margin.to_vec();
    for &(t, n) in removed {
        kept[t as usize] -= n;
    }
    kept
}

/// `run_plan` with given chunk sizes.
pub fn run_plan_with(
    workers: &Workers,
    request: &CountRequest<'_, '_>,
    sizes: ChunkSizes,
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<TargetResult>> {
    run_plan_in(workers, request, sizes, None, None, should_stop)
}

/// `run_plan` with the keys' index made already (`encode_ahead`: while the targets
/// were encoded) from the variables `index_keys` of the request's encoding: an error
/// unless they are the request's keys, in order.
pub fn run_plan_indexed(
    workers: &Workers,
    request: &CountRequest<'_, '_>,
    index: Arc<KeyIndex>,
    index_keys: &[usize],
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<TargetResult>> {
    if index_keys != request.keys {
        return Err(CoreError::new("internal: a key index of other keys given to a count"));
    }
    run_plan_in(workers, request, ChunkSizes::default(), None, Some(index), should_stop)
}

/// `run_plan` taking the original's key-by-target tables and packed targets from
/// `cache`, which several calls on one encoding share (the key sweep's subsets), and
/// the keys' index when given (built from a smaller subset's: `keys::extend_key_index`).
pub fn run_plan_sharing(
    workers: &Workers,
    request: &CountRequest<'_, '_>,
    cache: &KeyTargetCache,
    index: Option<Arc<KeyIndex>>,
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<TargetResult>> {
    let sizes = ChunkSizes { target_pieces: Some(1), ..ChunkSizes::default() };
    run_plan_in(workers, request, sizes, Some(cache), index, should_stop)
}

fn run_plan_in(
    workers: &Workers,
    request: &CountRequest<'_, '_>,
    sizes: ChunkSizes,
    cache: Option<&KeyTargetCache>,
    index: Option<Arc<KeyIndex>>,
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<TargetResult>> {
    if sizes.range_rows == 0 || sizes.chunk_rows == 0 || sizes.view_words == 0 || sizes.copy_bytes == 0 {
        return Err(CoreError::new("internal: chunk sizes must be at least 1"));
    }
    let CountRequest { vars, keys, use_keys_na, targets, plan } = *request;
    validate(vars, keys, use_keys_na, targets)?;
    let dataset_rows: Vec<usize> = vars[0].codes.iter().map(|c| c.len()).collect();
    plan.validate(&dataset_rows)?;
    if let Some(index) = &index {
        let rows: Vec<usize> = index.q.iter().map(|q| q.len()).collect();
        if index.n_keys != keys.len() || rows != dataset_rows {
            return Err(CoreError::new("internal: the given key index does not match the request"));
        }
    }
    let work_rows = work_rows(request, &dataset_rows);
    workers.call(work_rows, sizes.one_trip_rows, should_stop, |should_stop| {
        let own_cache;
        let cache = match cache {
            Some(c) => c,
            None => {
                own_cache = KeyTargetCache::new(vars.len());
                &own_cache
            }
        };
        run_validated(workers, request, sizes, &dataset_rows, cache, index, should_stop)
    })
}

/// Rows a call counts: the original and each view of the plan, once per target (what
/// decides whether it is one trip to the pool).
fn work_rows(request: &CountRequest<'_, '_>, dataset_rows: &[usize]) -> usize {
    let plan = request.plan;
    let view_rows: usize = plan.syntheses.iter().map(|v| v.n_rows(dataset_rows[v.dataset])).sum();
    (dataset_rows[plan.original] + view_rows).saturating_mul(request.targets.len())
}

/// `run_plan_with` once the request is validated, in stages: the keys indexed and the
/// datasets used whole laid out by q (`Prepared::new`), then each batch of views
/// (subsamples grouped by q a batch at a time, to bound memory) counted and finished
/// (`count_batch`).
fn run_validated(
    workers: &Workers,
    request: &CountRequest<'_, '_>,
    sizes: ChunkSizes,
    dataset_rows: &[usize],
    cache: &KeyTargetCache,
    index: Option<Arc<KeyIndex>>,
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<TargetResult>> {
    stop_point(should_stop)?;
    let one_trip = work_rows(request, dataset_rows) <= sizes.one_trip_rows;
    let run = Run { workers, request, sizes, dataset_rows, cache, should_stop };
    // In a call of one trip to the pool (which asks nothing between chunks) on more
    // than one thread, the targets of a plain pass are packed while the keys' rows are
    // laid out; each side sees the run with a stop callback of its own (R's cannot
    // cross threads, and the trip would not ask it).
    let ahead = plain_pass_ahead(&run).filter(|_| one_trip && workers.threads() > 1);
    let prepared = match ahead {
        Some(ahead) => {
            let quiet = || Run { workers, request, sizes, dataset_rows, cache, should_stop: &never_stop };
            let (prepared, packed) = rayon::join(
                || crate::phase!("prepared (key index, rows by q, margins)", Prepared::new(&quiet(), index)),
                || crate::phase!("targets packed (alongside)", ahead.pack(&quiet())),
            );
            packed?;
            prepared?
        }
        None => crate::phase!("prepared (key index, rows by q, margins)", Prepared::new(&run, index)?),
    };
    let plan = request.plan;
    let mut by_target: Vec<Vec<SynthesisResult>> =
        (0..request.targets.len()).map(|_| Vec::with_capacity(plan.syntheses.len())).collect();
    for batch in view_batches(plan, prepared.index.n_q, sizes.view_words) {
        count_batch(&run, &prepared, &plan.syntheses[batch], &mut by_target)?;
    }
    Ok(by_target.into_iter().map(|synthesis| TargetResult { synthesis }).collect())
}

/// The one group of targets that the call's plain pass will pack (`count_batch`,
/// `plain_parts`), when that is certain before the keys' rows are laid out: no tau
/// curve, no weights, no key whose missing level is excluded, one bucket (the datasets
/// used whole have fewer rows than a bucket holds), every target plain, and all their
/// copies within one group's budget.
struct PlainPassAhead {
    target_vars: Vec<usize>,
    datasets: Vec<usize>,
    max_levels: u32,
}

fn plain_pass_ahead(run: &Run<'_, '_, '_>) -> Option<PlainPassAhead> {
    let Run { request, sizes, dataset_rows, .. } = *run;
    let CountRequest { vars, use_keys_na, targets, plan, .. } = *request;
    let orig = plan.original;
    let mut datasets: Vec<usize> = plan.syntheses.iter().map(|v| v.dataset).collect();
    datasets.push(orig);
    datasets.sort_unstable();
    datasets.dedup();
    let whole_rows: usize = datasets
        .iter()
        .filter(|&&d| d == orig || plan.syntheses.iter().any(|v| v.dataset == d && v.rows.is_none()))
        .map(|&d| dataset_rows[d])
        .sum();
    let plain = !targets.is_empty()
        && plan.tau.is_empty()
        && plan.syntheses.iter().all(|v| v.rows.is_none())
        && datasets.iter().all(|&d| plan.weights_of(d).is_none())
        && use_keys_na.iter().all(|&u| u)
        && whole_rows < sizes.range_rows
        && targets.iter().all(|t| t.spec.removes_nothing() && vars[t.var].n_levels <= PACKED_LEVELS);
    if !plain {
        return None;
    }
    let max_levels = targets.iter().map(|t| vars[t.var].n_levels).max().unwrap_or(1);
    let bytes: usize = datasets.iter().map(|&d| TargetRows::bytes(dataset_rows[d], targets.len(), max_levels)).sum();
    (bytes < sizes.copy_bytes).then(|| PlainPassAhead {
        target_vars: targets.iter().map(|t| t.var).collect(),
        datasets,
        max_levels,
    })
}

impl PlainPassAhead {
    /// Packs the group's codes of every dataset into the run's cache, where
    /// `plain_parts` finds them.
    fn pack(&self, run: &Run<'_, '_, '_>) -> CoreResult<()> {
        let Run { workers, request, dataset_rows, should_stop, .. } = *run;
        let vars = request.vars;
        workers.chunk(should_stop, || {
            self.datasets.par_iter().for_each(|&d| {
                run.cache.packed_targets(&self.target_vars, d, || {
                    let columns: Vec<&LevelCodes<'_>> = self.target_vars.iter().map(|&v| &vars[v].codes[d]).collect();
                    TargetRows::new(&columns, dataset_rows[d], self.max_levels)
                });
            })
        })
    }
}

/// The call as every stage sees it: the pool, the request, the chunk sizes, the rows of
/// each dataset, the key-by-target tables and the stop callback.
struct Run<'a, 'r, 'v> {
    workers: &'a Workers,
    request: &'a CountRequest<'r, 'v>,
    sizes: ChunkSizes,
    dataset_rows: &'a [usize],
    cache: &'a KeyTargetCache,
    should_stop: ShouldStop<'a>,
}

/// What every pass of a call shares: the key index, the datasets used whole (the
/// original and the whole views) laid out by q in buckets (the q ranges of the
/// passes), their counted cells in bucket order, which q miss a key that usekeysNA
/// excludes, and per target the original's records at each level and its baseline CAP.
struct Prepared {
    index: Arc<KeyIndex>,
    key_levels: Vec<u32>,
    buckets: Buckets,
    layouts: Vec<Option<Layout>>,
    whole_weights: Vec<Option<Vec<u32>>>,
    missing_key: Vec<bool>,
    n_orig: u64,
    margins: Vec<Vec<u64>>,
    base_caps: Vec<f64>,
}

impl Prepared {
    /// The call's shared data; the key index is built unless `given`.
    fn new(run: &Run<'_, '_, '_>, given: Option<Arc<KeyIndex>>) -> CoreResult<Self> {
        let Run { workers, request, sizes, dataset_rows, should_stop, .. } = *run;
        let CountRequest { vars, keys, use_keys_na, targets, plan } = *request;
        let key_codes: Vec<&[LevelCodes<'_>]> = keys.iter().map(|&k| vars[k].codes.as_slice()).collect();
        let key_levels: Vec<u32> = keys.iter().map(|&k| vars[k].n_levels).collect();
        let index = match given {
            Some(index) => index,
            None => crate::phase!(
                "key index",
                Arc::new(workers.chunk(should_stop, || build_key_index(&key_codes, &key_levels))??)
            ),
        };
        let orig = plan.original;
        let mut used_whole = vec![false; dataset_rows.len()];
        used_whole[orig] = true;
        for v in plan.syntheses.iter().filter(|v| v.rows.is_none()) {
            used_whole[v.dataset] = true;
        }
        let offsets_of = |(d, &used): (usize, &bool)| used.then(|| index.offsets(d));
        let offsets: Vec<Option<Vec<usize>>> = if dataset_rows.iter().sum::<usize>() > LIGHT_STEP_ROWS {
            workers.chunk(should_stop, || used_whole.par_iter().enumerate().map(offsets_of).collect())?
        } else {
            used_whole.iter().enumerate().map(offsets_of).collect()
        };
        let total_rows = offsets.iter().flatten().map(|o| o[index.n_q]).sum();
        let buckets = Buckets::new(index.n_q, sizes.range_rows, total_rows, |q| {
            offsets.iter().flatten().map(|o| o[q + 1] - o[q]).sum()
        });
        let layouts: Vec<Option<Layout>> = workers.chunk(should_stop, || {
            index.q.par_iter().zip(offsets).map(|(q, o)| o.map(|o| buckets.lay_out(q, o))).collect()
        })?;
        // Counted cells' weights in bucket order; a trip to the pool only when some
        // dataset has weights.
        let whole_weights: Vec<Option<Vec<u32>>> = if (0..dataset_rows.len()).all(|d| plan.weights_of(d).is_none()) {
            vec![None; dataset_rows.len()]
        } else {
            workers.chunk(should_stop, || {
                (0..dataset_rows.len())
                    .into_par_iter()
                    .map(|d| match (&layouts[d], plan.weights_of(d)) {
                        (Some(layout), Some(w)) => Some(buckets.scatter(layout, |r| w[r])),
                        _ => None,
                    })
                    .collect()
            })?
        };
        let key_missing: Vec<u32> = keys.iter().map(|&k| vars[k].missing_code).collect();
        let missing_key = missing_key_flags(&index, &key_missing, use_keys_na);
        let n_orig = plan.records(orig, None, dataset_rows[orig]);
        let weights_orig = plan.weights_of(orig);
        let margin = |t: &TargetRequest| {
            let target = &vars[t.var];
            let count = || match weights_orig {
                None => target.level_counts(orig).into_owned(),
                Some(w) => weighted_level_counts(&target.codes[orig], w, target.n_levels),
            };
            run.cache.margin(t.var, count).into_owned()
        };
        // Most margins were counted with the encoding: a trip to the pool only for a
        // large original.
        let margins: Vec<Vec<u64>> = if dataset_rows[orig] > LIGHT_STEP_ROWS {
            workers.chunk(should_stop, || targets.par_iter().map(margin).collect())?
        } else {
            targets.iter().map(margin).collect()
        };
        let base_caps: Vec<f64> = margins.iter().map(|m| base_cap_d(m, n_orig)).collect();
        Ok(Prepared { index, key_levels, buckets, layouts, whole_weights, missing_key, n_orig, margins, base_caps })
    }

    /// The rows by q of a dataset used whole.
    fn whole(&self, dataset: usize) -> CoreResult<&RowsByQ> {
        self.layouts[dataset]
            .as_ref()
            .map(|l| &l.rows)
            .ok_or_else(|| CoreError::new("internal: a dataset used whole is not grouped"))
    }
}

/// The passes of one batch of views for every target, in groups of targets whose code
/// copies fit the budget: sweeps over (job, bucket), merged in bucket order, finished
/// into results appended to `by_target`.
fn count_batch(
    run: &Run<'_, '_, '_>,
    prepared: &Prepared,
    views: &[SynthesisView],
    by_target: &mut [Vec<SynthesisResult>],
) -> CoreResult<()> {
    let Run { workers, request, sizes, dataset_rows, should_stop, .. } = *run;
    let CountRequest { vars, targets, plan, .. } = *request;
    let Prepared { index, buckets, layouts, whole_weights, .. } = prepared;
    let orig = plan.original;
    let rows_orig = prepared.whole(orig)?;
    let subset_of = |v: &SynthesisView| v.rows.as_ref().map(|r| RowsByQ::subset(&index.q[v.dataset], r, index.n_q));
    // Only subsampled views have subsets to make (the curves'): no trip to the pool otherwise.
    let subsets: Vec<Option<RowsByQ>> = if views.iter().all(|v| v.rows.is_none()) {
        views.iter().map(|_| None).collect()
    } else {
        workers.chunk(should_stop, || views.par_iter().map(subset_of).collect())?
    };
    let view_rows: Vec<&RowsByQ> = views
        .iter()
        .zip(&subsets)
        .map(|(v, sub)| match sub {
            Some(r) => Ok(r),
            None => prepared.whole(v.dataset),
        })
        .collect::<CoreResult<_>>()?;
    // Copies of the targets' codes: in bucket order for the datasets used whole, in row
    // order and the narrowest width for subsampled ones (a byte where R has four, so
    // that random reads stay in cache); made for a group of targets at a time to bound
    // the memory they take.
    let mut whole_used: Vec<usize> = views.iter().filter(|v| v.rows.is_none()).map(|v| v.dataset).collect();
    whole_used.push(orig);
    whole_used.sort_unstable();
    whole_used.dedup();
    let mut subset_used: Vec<usize> = views.iter().filter(|v| v.rows.is_some()).map(|v| v.dataset).collect();
    subset_used.sort_unstable();
    subset_used.dedup();
    // With one bucket, bucket order is row order (bucket_order.rs): the datasets used
    // whole are read in place, uncopied.
    let one_bucket = buckets.len() == 1;
    if one_bucket {
        whole_used.clear();
    }
    // Targets of which nothing can remove a cell, of at most `PACKED_LEVELS` levels, when
    // every dataset is read in row order: the targets of a group share one pass
    // (plain_pass.rs), their codes packed row by row.
    let plain_call = one_bucket
        && plan.tau.is_empty()
        && plan.weights_of(orig).is_none()
        && views.iter().all(|v| plan.weights_of(v.dataset).is_none())
        && !prepared.missing_key.iter().any(|&m| m);
    let plain_target: Vec<bool> = targets
        .iter()
        .map(|t| plain_call && t.spec.removes_nothing() && vars[t.var].n_levels <= PACKED_LEVELS)
        .collect();
    let mut plain_datasets: Vec<usize> = views.iter().map(|v| v.dataset).collect();
    plain_datasets.push(orig);
    plain_datasets.sort_unstable();
    plain_datasets.dedup();
    // A group's codes are packed at the width of its widest target (plain_parts()),
    // unknown until the groups are made: plain targets are charged at the widest of all.
    let plain_levels = targets.iter().zip(&plain_target).filter(|(_, &p)| p).map(|(t, _)| vars[t.var].n_levels).max();
    let copy_costs: Vec<usize> = targets
        .iter()
        .zip(&plain_target)
        .map(|(t, &plain)| {
            if plain {
                let levels = plain_levels.unwrap_or(1);
                return plain_datasets.iter().map(|&d| TargetRows::bytes(dataset_rows[d], 1, levels)).sum();
            }
            let v = &vars[t.var];
            let bucketed: usize =
                whole_used.iter().map(|&d| Buckets::scatter_codes_bytes(dataset_rows[d], v.n_levels)).sum();
            let compact: usize = subset_used.iter().map(|&d| v.codes[d].compact_copy_bytes(v.n_levels)).sum();
            bucketed + compact
        })
        .collect();
    // Groups of targets all plain or none, of copies within the budget.
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    for end in 1..=targets.len() {
        if end == targets.len() || plain_target[end] != plain_target[start] {
            groups.extend(
                chunks_by_cost(&copy_costs[start..end], sizes.copy_bytes)
                    .into_iter()
                    .map(|g| g.start + start..g.end + start),
            );
            start = end;
        }
    }
    for group in groups {
        let plain = plain_target[group.start];
        // Per target of the group and dataset: (bucket order, row order) copies.
        type Copies = (Option<LevelCodes<'static>>, Option<LevelCodes<'static>>);
        let copies: Vec<Vec<Copies>> = if plain {
            Vec::new()
        } else {
            workers.chunk(should_stop, || {
                group
                    .clone()
                    .into_par_iter()
                    .map(|ti| {
                        let v = &vars[targets[ti].var];
                        (0..dataset_rows.len())
                            .into_par_iter()
                            .map(|d| {
                                let bucketed = match &layouts[d] {
                                    Some(layout) if whole_used.contains(&d) => {
                                        with_codes!(&v.codes[d], |c| Some(buckets.scatter_codes(layout, c, v.n_levels)))
                                    }
                                    _ => None,
                                };
                                let compact =
                                    if subset_used.contains(&d) { v.codes[d].compact_copy(v.n_levels) } else { None };
                                (bucketed, compact)
                            })
                            .collect()
                    })
                    .collect()
            })?
        };
        // A view's codes: in bucket order when it is whole, else in row order.
        let codes_of = |ti: usize, d: usize, whole: bool| -> CoreResult<&LevelCodes<'_>> {
            if whole && one_bucket {
                return Ok(&vars[targets[ti].var].codes[d]);
            }
            let (bucketed, compact) = copies
                .get(ti - group.start)
                .and_then(|c| c.get(d))
                .ok_or_else(|| CoreError::new("internal: a target's codes were not copied"))?;
            if whole {
                bucketed.as_ref().ok_or_else(|| CoreError::new("internal: a whole dataset was not laid out"))
            } else {
                Ok(compact.as_ref().unwrap_or(&vars[targets[ti].var].codes[d]))
            }
        };
        // Jobs (target, view within the batch), target-major.
        let jobs: Vec<(usize, usize)> = group.clone().flat_map(|t| (0..views.len()).map(move |v| (t, v))).collect();
        // Key tables of the 2-way totals made by the plain pass, per target of the group.
        let mut pass_tables: Vec<Option<JointTables>> = Vec::new();
        let parts = if plain {
            let (parts, tables) = crate::phase!(
                "plain pass (packing included)",
                plain_parts(run, prepared, views, &view_rows, &plain_datasets, group.clone())?
            );
            pass_tables = tables;
            parts
        } else {
            let inputs: Vec<SweepInput<'_>> = jobs
                .iter()
                .map(|&(ti, vi)| {
                    let target = &targets[ti];
                    let view = &views[vi];
                    let whole_view = view.rows.is_none();
                    Ok(SweepInput {
                        index,
                        rows_orig,
                        rows_syn: view_rows[vi],
                        target_orig: codes_of(ti, orig, true)?,
                        target_syn: codes_of(ti, view.dataset, whole_view)?,
                        n_target_levels: vars[target.var].n_levels as usize,
                        missing_key: &prepared.missing_key,
                        spec: &target.spec,
                        twoway_min_cell: target.twoway_min_cell,
                        tau: &plan.tau,
                        weights_orig: whole_weights[orig].as_deref(),
                        weights_syn: if whole_view {
                            whole_weights[view.dataset].as_deref()
                        } else {
                            plan.weights_of(view.dataset)
                        },
                    })
                })
                .collect::<CoreResult<_>>()?;
            sweep_jobs(run, buckets, &jobs, &inputs)?
        };
        let results = crate::phase!("tallies finished", finish_jobs(run, prepared, views, &jobs, parts)?);
        let mut results_by_target: Vec<Vec<SynthesisResult>> = group.clone().map(|_| Vec::new()).collect();
        for (&(ti, _), r) in jobs.iter().zip(results) {
            results_by_target[ti - group.start].push(r);
        }
        // The 2-way totals count the original only: once per target for all syntheses,
        // from its rows in row order.
        let orig_codes: Vec<&LevelCodes<'_>> =
            group.clone().map(|ti| codes_of(ti, orig, true)).collect::<CoreResult<_>>()?;
        let key_codes: Vec<&LevelCodes<'_>> = request.keys.iter().map(|&k| &vars[k].codes[orig]).collect();
        let decoded_keys: Vec<std::sync::OnceLock<Vec<u32>>> =
            request.keys.iter().map(|_| std::sync::OnceLock::new()).collect();
        pass_tables.resize_with(group.len(), || None);
        crate::phase!(
            "2-way totals",
            workers.chunk(should_stop, || {
                results_by_target.par_iter_mut().zip(pass_tables).enumerate().for_each(|(i, (results, tables))| {
                    let target = &vars[targets[group.start + i].var];
                    let mut pairs: Vec<&mut Vec<PairCount>> = results.iter_mut().map(|r| &mut r.two_way).collect();
                    let columns = TwoWayColumns {
                        key_vars: request.keys,
                        key_codes: &key_codes,
                        decoded_keys: &decoded_keys,
                        key_levels: &prepared.key_levels,
                        target_var: targets[group.start + i].var,
                        target: &target.codes[orig],
                        target_levels: target.n_levels,
                        weights: plan.weights_of(orig),
                    };
                    let by_q =
                        PairsByQ { index, rows_orig, target: orig_codes[i], weights: whole_weights[orig].as_deref() };
                    fill_two_way_totals(&mut pairs, &columns, &by_q, run.cache, tables);
                })
            })
        )?;
        for (i, results) in results_by_target.into_iter().enumerate() {
            by_target[group.start + i].extend(results);
        }
    }
    Ok(())
}

/// Bytes of key tables the plain pass may make for one group of targets (the rest are
/// counted from the rows by the 2-way totals, one at a time).
const PASS_TABLE_BYTES: usize = 1 << 26;

/// The plain pass's tallies, one per (target, view) as the jobs are, and per target its
/// key tables (when made).
type PlainParts = (Vec<Vec<Tally>>, Vec<Option<JointTables>>);

/// The plain pass (plain_pass.rs) of the targets `group` for the batch's views, one
/// tally per (target, view), target-major as the jobs are, and per target of the group
/// the key tables of its 2-way totals when the pass made them. The targets are packed
/// row by row per dataset, and split into pieces that run in parallel and in chunks of
/// bounded work; a target's tally does not depend on the piece it is in.
fn plain_parts(
    run: &Run<'_, '_, '_>,
    prepared: &Prepared,
    views: &[SynthesisView],
    view_rows: &[&RowsByQ],
    datasets: &[usize],
    group: std::ops::Range<usize>,
) -> CoreResult<PlainParts> {
    let Run { workers, request, sizes, dataset_rows, should_stop, .. } = *run;
    let CountRequest { vars, targets, plan, .. } = *request;
    let orig = plan.original;
    let target_vars: Vec<usize> = group.clone().map(|ti| targets[ti].var).collect();
    // One width for the group's codes: two bytes when any target has more than 256 levels.
    let max_levels = target_vars.iter().map(|&v| vars[v].n_levels).max().unwrap_or(1);
    let packed: Vec<Option<Arc<TargetRows>>> = crate::phase!(
        "targets packed",
        workers.chunk(should_stop, || {
            (0..dataset_rows.len())
                .into_par_iter()
                .map(|d| {
                    datasets.contains(&d).then(|| {
                        run.cache.packed_targets(&target_vars, d, || {
                            let columns: Vec<&LevelCodes<'_>> =
                                group.clone().map(|ti| &vars[targets[ti].var].codes[d]).collect();
                            TargetRows::new(&columns, dataset_rows[d], max_levels)
                        })
                    })
                })
                .collect()
        })
    )?;
    let packed_of = |d: usize| packed[d].as_deref().ok_or_else(|| CoreError::new("internal: a dataset was not packed"));
    let plain_views: Vec<PlainView<'_>> = views
        .iter()
        .zip(view_rows)
        .map(|(v, rows)| Ok(PlainView { rows, codes: packed_of(v.dataset)? }))
        .collect::<CoreResult<_>>()?;
    let n_levels: Vec<u32> = group.clone().map(|ti| vars[targets[ti].var].n_levels).collect();
    let twoway_min_cell: Vec<f64> = group.clone().map(|ti| targets[ti].twoway_min_cell).collect();
    // The q in one run, or two split at half the original's records (`plain_q_runs`).
    let q_runs = plain_q_runs(prepared.whole(orig)?, view_rows, prepared.index.n_q, sizes.plain_split_rows);
    // The key tables the 2-way totals would count from the original's rows (data of at
    // most `DECODED_ROWS` rows, tables within `MAX_TABLE_CELLS`), unless the cache
    // keeps them already (a key sweep's later subsets): made in the pass instead, each
    // run of q its own. They live from the pass to the 2-way totals: at most
    // `PASS_TABLE_BYTES` for a group. A target of many levels, whose tables (one per
    // run of q) have more cells than the original has rows (a record each: the pass
    // takes no counted cells), mostly empty, has them counted from the rows instead:
    // zeroing and adding the tables would cost more.
    let mut table_bytes = 0usize;
    let joint_wanted: Vec<bool> = group
        .clone()
        .map(|ti| {
            let target_levels = vars[targets[ti].var].n_levels as u64;
            let bytes: u64 =
                q_runs.len() as u64 * prepared.key_levels.iter().map(|&kl| kl as u64 * target_levels * 8).sum::<u64>();
            let wanted = dataset_rows[orig] <= DECODED_ROWS
                && prepared.key_levels.iter().all(|&kl| kl as u64 * target_levels <= MAX_TABLE_CELLS)
                && table_bytes as u64 + bytes <= PASS_TABLE_BYTES as u64
                && !run.cache.holds_tables(request.keys, targets[ti].var)
                && bytes / 8 <= dataset_rows[orig] as u64;
            if wanted {
                table_bytes += bytes as usize;
            }
            wanted
        })
        .collect();
    let joint = joint_wanted.iter().any(|&w| w).then_some(KeyJoint {
        q_keys: &prepared.index.q_keys,
        key_levels: &prepared.key_levels,
        wanted: &joint_wanted,
    });
    let input = PlainInput {
        rows_orig: prepared.whole(orig)?,
        codes_orig: packed_of(orig)?,
        views: &plain_views,
        n_levels: &n_levels,
        twoway_min_cell: &twoway_min_cell,
        joint,
    };
    let rows_per_target = dataset_rows[orig] + views.iter().map(|v| v.n_rows(dataset_rows[v.dataset])).sum::<usize>();
    // Pieces: runs of targets for each run of q, with one piece per thread at least
    // (when there are targets enough), each at most a chunk of work.
    let target_runs = sizes.target_pieces.unwrap_or(workers.threads().div_ceil(q_runs.len())).max(1);
    let per_piece = group.len().div_ceil(target_runs).min((sizes.chunk_rows / rows_per_target.max(1)).max(1)).max(1);
    let pieces: Vec<(std::ops::Range<usize>, std::ops::Range<usize>, usize)> = (0..group.len())
        .step_by(per_piece)
        .map(|s| s..(s + per_piece).min(group.len()))
        .flat_map(|t| q_runs.iter().map(move |(q, rows)| (t.clone(), q.clone(), t.len() * rows)))
        .collect();
    let piece_rows: Vec<usize> = pieces.iter().map(|p| p.2).collect();
    let n_views = views.len();
    // Per (target, view), its tallies of each run of q, in q order; per target its tables.
    let mut parts: Vec<Vec<Tally>> = (0..group.len() * n_views).map(|_| Vec::with_capacity(q_runs.len())).collect();
    let mut tables: Vec<Option<JointTables>> = vec![None; group.len()];
    for chunk in chunks_by_cost(&piece_rows, sizes.chunk_rows) {
        let done: Vec<_> = workers.chunk(should_stop, || {
            if workers.threads() > 1 && sizes.target_pieces != Some(1) {
                return pieces[chunk.clone()]
                    .par_iter()
                    .map(|(targets, q, _)| sweep_plain(&input, targets.clone(), q.start, q.end))
                    .collect::<CoreResult<Vec<_>>>();
            }
            // One thread, or one piece of targets (a key sweep's subset, in parallel with
            // the others): the runs of q of a piece of targets, one after the other, add
            // to one set of key tables (the sum of the runs' sets, without the second
            // set and the adding), which the last run returns.
            let mut done: Vec<PlainPiece> = Vec::with_capacity(chunk.len());
            for (targets, q, _) in &pieces[chunk.clone()] {
                let same_targets = !done.is_empty() && pieces[chunk.start + done.len() - 1].0 == *targets;
                let tables = if same_targets { done.last_mut().map(|p| std::mem::take(&mut p.joint)) } else { None };
                done.push(sweep_plain_adding(&input, targets.clone(), q.start, q.end, tables)?);
            }
            Ok(done)
        })??;
        for ((targets, _, _), piece) in pieces[chunk].iter().zip(done) {
            for (k, tally) in piece.tallies.into_iter().enumerate() {
                parts[(targets.start + k / n_views) * n_views + k % n_views].push(tally);
            }
            for (sum, part) in tables[targets.clone()].iter_mut().zip(piece.joint) {
                match (sum.as_mut(), part) {
                    (Some(sum), Some(part)) => add_joint_tables(sum, &part),
                    (None, part) => *sum = part,
                    (Some(_), None) => return Err(CoreError::new("internal: key tables of one run of q only")),
                }
            }
        }
    }
    Ok((parts, tables))
}

/// What a q with original records costs the plain pass beyond its records, in records
/// (`plain_q_runs`): its sums over levels and its tallies. With the records alone,
/// Adult's second run (3,047 q against 2,005) took 190 us longer on two threads; at
/// 6, 12 and 24 its crossing took 0.982, 0.970 and 0.981 as long (`bench/crossing-ab.R`).
const Q_COST_RECORDS: usize = 12;

/// The q of the plain pass in one run, or, from `split_rows` records of the original,
/// in two: the q before the one where the original's cost (its records, and
/// `Q_COST_RECORDS` for each q that has some) reaches half, and the rest (a q is never
/// split); with their records (the original's and the views'). Two runs let two
/// threads share the pass over all targets; more would make more sets of key tables
/// (each run makes its own) for little more. Which run a key combination falls in
/// depends on the original alone (its records and key combinations before it), so that
/// a synthesis's tally does not depend on the others counted with it.
fn plain_q_runs(
    rows_orig: &RowsByQ,
    view_rows: &[&RowsByQ],
    n_q: usize,
    split_rows: usize,
) -> Vec<(std::ops::Range<usize>, usize)> {
    let records_in = |q: std::ops::Range<usize>| {
        std::iter::once(rows_orig).chain(view_rows.iter().copied()).map(|r| r.offsets[q.end] - r.offsets[q.start]).sum()
    };
    let n_orig = rows_orig.offsets[n_q];
    if n_orig < split_rows.max(2) {
        return vec![(0..n_q, records_in(0..n_q))];
    }
    // The first q with half the original's cost before it.
    let offsets = &rows_orig.offsets[..=n_q];
    let with_records = offsets.windows(2).filter(|w| w[1] > w[0]).count();
    let half = (n_orig + Q_COST_RECORDS * with_records) / 2;
    let mut q_before = 0;
    let middle = (0..n_q)
        .find(|&q| {
            let reached = offsets[q] + Q_COST_RECORDS * q_before >= half;
            q_before += (offsets[q + 1] > offsets[q]) as usize;
            reached
        })
        .unwrap_or(n_q);
    if middle >= n_q {
        return vec![(0..n_q, records_in(0..n_q))];
    }
    vec![(0..middle, records_in(0..middle)), (middle..n_q, records_in(middle..n_q))]
}

/// Every (job, bucket) in job order, then bucket order; the partial tallies of a job
/// arrive in bucket order (and merge in that order, whatever the threads). The jobs of
/// one target (consecutive in `jobs`) share a pass, which reads each q's original
/// records once for all their syntheses (`sweep_views`).
fn sweep_jobs(
    run: &Run<'_, '_, '_>,
    buckets: &Buckets,
    jobs: &[(usize, usize)],
    inputs: &[SweepInput<'_>],
) -> CoreResult<Vec<Vec<Tally>>> {
    let Run { workers, sizes, should_stop, .. } = *run;
    let rows_in = |rows: &RowsByQ, b: usize| {
        let r = buckets.range(b);
        rows.offsets[r.end] - rows.offsets[r.start]
    };
    // Runs of jobs of one target, split into parts when there are fewer runs than
    // four per thread, so that the threads share the passes evenly (a synthesis's tally
    // does not depend on which others share its pass, so neither do the results).
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for (ji, &(ti, _)) in jobs.iter().enumerate() {
        match runs.last_mut() {
            Some(g) if jobs[g.start].0 == ti => g.end = ji + 1,
            _ => runs.push(ji..ji + 1),
        }
    }
    let parts = (4 * workers.threads()).div_ceil(runs.len().max(1)).max(1);
    let groups: Vec<std::ops::Range<usize>> = runs
        .into_iter()
        .flat_map(|run| {
            let size = run.len().div_ceil(parts).max(1);
            (run.start..run.end).step_by(size).map(move |start| start..(start + size).min(run.end))
        })
        .collect();
    let units: Vec<(usize, usize)> =
        (0..groups.len()).flat_map(|gi| (0..buckets.len()).map(move |b| (gi, b))).collect();
    let unit_rows: Vec<usize> = units
        .iter()
        .map(|&(gi, b)| {
            let group = &inputs[groups[gi].clone()];
            rows_in(group[0].rows_orig, b) + group.iter().map(|i| rows_in(i.rows_syn, b)).sum::<usize>()
        })
        .collect();
    let mut parts: Vec<Vec<Tally>> = (0..inputs.len()).map(|_| Vec::new()).collect();
    for chunk in chunks_by_cost(&unit_rows, sizes.chunk_rows) {
        let chunk_units = &units[chunk];
        let tallies: Vec<Vec<Tally>> = workers.chunk(should_stop, || {
            chunk_units
                .par_iter()
                .map_init(Scratch::default, |scratch, &(gi, b)| {
                    let r = buckets.range(b);
                    sweep_views(&inputs[groups[gi].clone()], r.start, r.end, scratch)
                })
                .collect()
        })?;
        for (&(gi, _), group_tallies) in chunk_units.iter().zip(tallies) {
            for (ji, t) in groups[gi].clone().zip(group_tallies) {
                parts[ji].push(t);
            }
        }
    }
    Ok(parts)
}

/// Each job's partial tallies merged in bucket order and turned into its result: the
/// named measures, the exclusion counts, the checks' inputs and the tau curve.
fn finish_jobs(
    run: &Run<'_, '_, '_>,
    prepared: &Prepared,
    views: &[SynthesisView],
    jobs: &[(usize, usize)],
    parts: Vec<Vec<Tally>>,
) -> CoreResult<Vec<SynthesisResult>> {
    let Run { workers, request, sizes, dataset_rows, should_stop, .. } = *run;
    let CountRequest { vars, targets, plan, .. } = *request;
    let n_orig = prepared.n_orig;
    let finish = |ji: usize, parts: Vec<Tally>| {
        let (ti, vi) = jobs[ji];
        let target = &vars[targets[ti].var];
        let mut tally = Tally::new(target.n_levels as usize, plan.tau.len());
        for p in parts {
            tally.merge(p);
        }
        let view = &views[vi];
        let n_syn_rows = plan.records(view.dataset, view.rows.as_deref(), dataset_rows[view.dataset]);
        let measures = SynthesisMeasures::from_tally(&tally, n_orig, n_syn_rows, prepared.base_caps[ti]);
        let (tau_syn, tau_orig) = if plan.tau.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            (plan.tau.curve(&tally.tau_syn, n_orig as f64), plan.tau.curve(&tally.tau_orig, n_orig as f64))
        };
        SynthesisResult {
            measures,
            total: tally.total,
            removed: tally.removed,
            one_way: one_way(
                &tally.disco_by_level(),
                &kept_by_level(&prepared.margins[ti], &tally.orig_removed_by_level),
            ),
            two_way: two_way_pairs(&tally.twoway_cells, &prepared.index),
            tau_syn,
            tau_orig,
        }
    };
    let rows_of = |vi: usize| -> usize {
        let view = &views[vi];
        dataset_rows[plan.original] + view.n_rows(dataset_rows[view.dataset])
    };
    let job_rows: Vec<usize> = jobs.iter().map(|&(_, vi)| rows_of(vi)).collect();
    // Small data's tallies are finished on this thread: on two, waking the other took
    // longer than the finishing (SD2011's 25 in 114 us against 55 on one).
    if job_rows.iter().sum::<usize>() <= LIGHT_STEP_ROWS {
        return Ok(parts.into_iter().enumerate().map(|(ji, p)| finish(ji, p)).collect());
    }
    let mut parts = parts.into_iter();
    let mut results: Vec<SynthesisResult> = Vec::with_capacity(jobs.len());
    for chunk in chunks_by_cost(&job_rows, sizes.chunk_rows) {
        let chunk_parts: Vec<(usize, Vec<Tally>)> = chunk.clone().zip(parts.by_ref().take(chunk.len())).collect();
        let done: Vec<SynthesisResult> =
            workers.chunk(should_stop, || chunk_parts.into_par_iter().map(|(ji, p)| finish(ji, p)).collect())?;
        results.extend(done);
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::TauGrid;
    use crate::test_random::XorShift;

    /// The plain pass's two runs of q split where the original's cost (records, and
    /// `Q_COST_RECORDS` per q with some) first reaches half, as a prefix sum over every
    /// q finds it; the views' rows count only in the runs' records.
    #[test]
    fn q_runs_split_where_the_originals_cost_reaches_half() {
        let mut rng = crate::test_random::XorShift::new(30);
        for case in 0..300 {
            let n_q = 1 + rng.below(60) as usize;
            let rows = |rng: &mut XorShift| -> Vec<u32> {
                let n = rng.below(400) as usize;
                // Half the rows in the first quarter of the q (crowded), the rest on even
                // q only (odd ones empty but for the crowded quarter).
                (0..n)
                    .map(|_| {
                        let q = if rng.below(2) == 0 {
                            rng.below(n_q.div_ceil(4) as u64)
                        } else {
                            2 * rng.below(n_q.div_ceil(2) as u64)
                        };
                        (q as usize % n_q) as u32
                    })
                    .collect()
            };
            let (orig, view) = (rows(&mut rng), rows(&mut rng));
            let (r_orig, r_view) = (RowsByQ::new(&orig, n_q), RowsByQ::new(&view, n_q));
            let runs = plain_q_runs(&r_orig, &[&r_view], n_q, 2);
            let mut per_q = vec![0usize; n_q];
            for &q in &orig {
                per_q[q as usize] += 1;
            }
            let cost: Vec<usize> = per_q.iter().map(|&n| if n > 0 { n + Q_COST_RECORDS } else { 0 }).collect();
            let total: usize = cost.iter().sum();
            let mut prefix = vec![0usize; n_q + 1];
            for q in 0..n_q {
                prefix[q + 1] = prefix[q] + cost[q];
            }
            let middle = (0..n_q).find(|&q| prefix[q] >= total / 2).unwrap_or(n_q);
            let records =
                |q: std::ops::Range<usize>| orig.iter().chain(&view).filter(|&&x| q.contains(&(x as usize))).count();
            let expected = if orig.len() < 2 || middle >= n_q {
                vec![(0..n_q, records(0..n_q))]
            } else {
                vec![(0..middle, records(0..middle)), (middle..n_q, records(middle..n_q))]
            };
            assert_eq!(runs, expected, "case {case}");
        }
    }

    /// An index made ahead counts as the engine's own; an index of other keys is an
    /// error, not counts on the wrong keys.
    #[test]
    fn an_index_made_ahead_counts_as_the_engines_and_only_for_its_keys() {
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15u64);
        let mut next = move |k: u64| rng.below(k);
        let workers = Workers::new(2).unwrap();
        let vars = keys_and_following_targets(&mut next, &[300, 250], &[3, 5], &[4, 7], 2);
        let targets = unexcluded_targets(&[4, 7], None);
        let plan = Plan {
            original: 0,
            syntheses: vec![SynthesisView { dataset: 1, rows: None, repeats: false }],
            tau: TauGrid::default(),
            weights: Vec::new(),
        };
        let request =
            CountRequest { vars: &vars, keys: &[0, 1], use_keys_na: &[true, true], targets: &targets, plan: &plan };
        let codes: Vec<&[LevelCodes<'_>]> = [0, 1].iter().map(|&k| vars[k].codes.as_slice()).collect();
        let index = Arc::new(build_key_index(&codes, &[vars[0].n_levels, vars[1].n_levels]).unwrap());
        let own = super::run_plan(&workers, &request, &never_stop).unwrap();
        let ahead = run_plan_indexed(&workers, &request, Arc::clone(&index), &[0, 1], &never_stop).unwrap();
        assert_eq!(own.len(), 2);
        assert_same_targets(&own, &ahead, 0);
        assert!(run_plan_indexed(&workers, &request, index, &[1, 0], &never_stop).is_err());
    }

    /// The engine's entry points with the request spelt out (shadow the glob import).
    fn run_plan(
        workers: &Workers,
        vars: &[EncodedVar],
        keys: &[usize],
        use_keys_na: &[bool],
        targets: &[TargetRequest],
        plan: &Plan,
        should_stop: ShouldStop<'_>,
    ) -> CoreResult<Vec<TargetResult>> {
        super::run_plan(workers, &CountRequest { vars, keys, use_keys_na, targets, plan }, should_stop)
    }

    /// Keys of `key_levels` levels, then targets of `target_levels`, over datasets of
    /// `sizes` rows (each variable's last level its missing one); every `follow`th row of
    /// a target takes the first key's code (modulo its levels), so that some q agree.
    fn keys_and_following_targets(
        next: &mut impl FnMut(u64) -> u32,
        sizes: &[usize],
        key_levels: &[u32],
        target_levels: &[u32],
        follow: usize,
    ) -> Vec<EncodedVar<'static>> {
        let mut column = |levels: u32| -> Vec<Vec<u32>> {
            sizes.iter().map(|&n| (0..n).map(|_| next(levels as u64)).collect()).collect()
        };
        let mut vars: Vec<EncodedVar<'static>> =
            key_levels.iter().map(|&l| EncodedVar::from_u32(column(l), l, l - 1, None)).collect();
        for &l in target_levels {
            let mut codes = column(l);
            for (d, rows) in codes.iter_mut().enumerate() {
                for (r, c) in rows.iter_mut().enumerate().filter(|(r, _)| r % follow == 0) {
                    *c = vars[0].codes[d].get(r) % l;
                }
            }
            vars.push(EncodedVar::from_u32(codes, l, l - 1, None));
        }
        vars
    }

    /// Two results of each target equal: every synthesis's measures bit for bit, its
    /// table totals and both checks' counts. Returns the 2-way pairs compared.
    fn assert_same_targets(a: &[TargetResult], b: &[TargetResult], case: usize) -> usize {
        assert_eq!(a.len(), b.len(), "case {case}");
        for (t, (a, b)) in a.iter().zip(b).enumerate() {
            assert_same_target(a, b, &format!("case {case} target {t}"));
        }
        a.iter().flat_map(|t| &t.synthesis).map(|s| s.two_way.len()).sum()
    }

    /// Targets of `levels` levels (variables 2, 3, ...) that exclude nothing, with a
    /// denominator limit when given (which forces the engine's pass).
    fn unexcluded_targets(levels: &[u32], denom_lim: Option<u64>) -> Vec<TargetRequest> {
        levels
            .iter()
            .enumerate()
            .map(|(i, &l)| {
                let mut spec = ExclusionSpec::none(l as usize, l - 1);
                spec.denom_lim = denom_lim;
                TargetRequest { var: 2 + i, spec, twoway_min_cell: 1.0 }
            })
            .collect()
    }

    /// `targets` counted by the keys 0 and 1 over every dataset of `vars` (the first the
    /// original).
    fn run_two_keys(
        workers: &Workers,
        vars: &[EncodedVar<'_>],
        targets: &[TargetRequest],
        sizes: ChunkSizes,
    ) -> Vec<TargetResult> {
        let plan = Plan::standard(vars[0].codes.len());
        let request = CountRequest { vars, keys: &[0, 1], use_keys_na: &[true, true], targets, plan: &plan };
        super::run_plan_with(workers, &request, sizes, &never_stop).unwrap()
    }

    fn assert_same_target(a: &TargetResult, b: &TargetResult, what: &str) {
        assert_eq!(a.synthesis.len(), b.synthesis.len(), "{what}");
        for (x, y) in a.synthesis.iter().zip(&b.synthesis) {
            assert_same_synthesis(x, y, what);
        }
    }

    fn assert_same_synthesis(x: &SynthesisResult, y: &SynthesisResult, what: &str) {
        for ((name, u), (_, v)) in x.measures.named().into_iter().zip(y.measures.named()) {
            assert!(u.to_bits() == v.to_bits() || (u.is_nan() && v.is_nan()), "{what} {name}");
        }
        assert_eq!(x.total, y.total, "{what}");
        assert_eq!(x.one_way, y.one_way, "{what}");
        assert_eq!(x.two_way, y.two_way, "{what}");
    }

    /// Counted cells give the numbers of the records they stand for: a dataset of rows
    /// with counts equals the dataset with each row repeated that many times.
    #[test]
    fn counted_cells_equal_the_records_they_count() {
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15u64);
        let mut next = move |k: u64| rng.below(k);
        let workers = Workers::new(2).unwrap();
        for case in 0..40 {
            let levels = [4u32, 5, 6]; // two keys and the target, the last level missing
            let sizes = [1 + next(60) as usize, 1 + next(60) as usize, 1 + next(60) as usize];
            let rows: Vec<Vec<[u32; 3]>> = sizes
                .iter()
                .map(|&n| {
                    (0..n).map(|_| [next(levels[0] as u64), next(levels[1] as u64), next(levels[2] as u64)]).collect()
                })
                .collect();
            let weights: Vec<Vec<u32>> = sizes.iter().map(|&n| (0..n).map(|_| 1 + next(4)).collect()).collect();
            let var = |rows: &Vec<Vec<[u32; 3]>>, j: usize| {
                EncodedVar::from_u32(
                    rows.iter().map(|d| d.iter().map(|r| r[j]).collect()).collect(),
                    levels[j],
                    levels[j] - 1,
                    None,
                )
            };
            let compact: Vec<EncodedVar<'_>> = (0..3).map(|j| var(&rows, j)).collect();
            let expanded_rows: Vec<Vec<[u32; 3]>> = rows
                .iter()
                .zip(&weights)
                .map(|(d, w)| d.iter().zip(w).flat_map(|(r, &n)| std::iter::repeat_n(*r, n as usize)).collect())
                .collect();
            let expanded: Vec<EncodedVar<'_>> = (0..3).map(|j| var(&expanded_rows, j)).collect();
            let mut spec = ExclusionSpec::none(levels[2] as usize, levels[2] - 1);
            if case % 3 == 1 {
                spec.denom_lim = Some(3);
            }
            if case % 3 == 2 {
                spec.excluded_target[0] = true;
                spec.exclude_missing_target = true;
            }
            let targets = [TargetRequest { var: 2, spec, twoway_min_cell: 1.0 }];
            let mut plan = Plan::standard(3);
            let want =
                run_plan(&workers, &expanded, &[0, 1], &[true, case % 2 == 0], &targets, &plan, &never_stop).unwrap();
            plan.weights = weights.into_iter().map(Some).collect();
            // Small buckets in every other case, so that the counts are laid out in
            // bucket order across several buckets.
            let sizes = if case % 2 == 0 {
                ChunkSizes { range_rows: 1 + next(8) as usize, ..ChunkSizes::default() }
            } else {
                ChunkSizes::default()
            };
            let keys = [0, 1];
            let use_na = [true, case % 2 == 0];
            let request =
                CountRequest { vars: &compact, keys: &keys, use_keys_na: &use_na, targets: &targets, plan: &plan };
            let got = super::run_plan_with(&workers, &request, sizes, &never_stop).unwrap();
            for (g, w) in got[0].synthesis.iter().zip(&want[0].synthesis) {
                for ((name, a), (_, b)) in g.measures.named().into_iter().zip(w.measures.named()) {
                    assert!(
                        (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-12 * b.abs().max(1.0),
                        "case {case} {name}: {a} vs {b}"
                    );
                }
                assert_eq!(g.total, w.total, "case {case}");
                assert_eq!(g.removed, w.removed, "case {case}");
                assert_eq!(g.one_way, w.one_way, "case {case}");
                assert_eq!(g.two_way, w.two_way, "case {case}");
            }
        }
    }

    #[test]
    fn many_target_levels_count_as_few_do() {
        // The same codes under 11 and 6011 target levels: sums per level are kept
        // densely for the first and as added pairs for the second; nothing may differ.
        let workers = Workers::new(2).unwrap();
        // Keys of 40 levels; the target mostly follows the key, so that some q are
        // disclosive, with a level of noise in every fifth row.
        let keys = |n: u32, shift: u32| -> Vec<u32> { (0..n).map(|i| (i * 7 + shift) % 40).collect() };
        let target_of = |k: &[u32], shift: u32| -> Vec<u32> {
            k.iter()
                .enumerate()
                .map(|(i, &c)| if i as u32 % 5 == shift { (i as u32 / 3) % 10 } else { c % 10 })
                .collect()
        };
        let (k_orig, k_syn) = (keys(300, 0), keys(250, 3));
        let key = EncodedVar::from_u32(vec![k_orig.clone(), k_syn.clone()], 41, 40, None);
        let rows = |d: usize| if d == 0 { target_of(&k_orig, 0) } else { target_of(&k_syn, 2) };
        let run = |n_levels: u32| {
            let target = EncodedVar::from_u32(vec![rows(0), rows(1)], n_levels, n_levels - 1, None);
            let vars = vec![key.clone(), target];
            let spec = ExclusionSpec::none(n_levels as usize, n_levels - 1);
            let targets = [TargetRequest { var: 1, spec, twoway_min_cell: 1.0 }];
            let sizes = ChunkSizes { range_rows: 37, ..ChunkSizes::default() };
            let plan = Plan::standard(2);
            let request =
                CountRequest { vars: &vars, keys: &[0], use_keys_na: &[true], targets: &targets, plan: &plan };
            super::run_plan_with(&workers, &request, sizes, &never_stop).unwrap()
        };
        let (few, many) = (run(11), run(6011));
        let (f, m) = (&few[0].synthesis[0], &many[0].synthesis[0]);
        assert!(f.one_way.level.is_some());
        assert_eq!(f.one_way, m.one_way);
        assert_eq!(f.two_way, m.two_way);
        assert_eq!(f.total, m.total);
        assert_eq!(f.measures.named()[..4], m.measures.named()[..4]);
    }

    #[test]
    fn short_paths_give_the_numbers_of_the_full_pass() {
        // When nothing can be excluded, a q with records on one side only takes the
        // short path, and any other q adds its table totals once per q (sweep.rs); a
        // denominator limit no cell reaches forces the full pass, cell by cell, without
        // changing a number. Every result must be identical, the sums bit for bit.
        let mut rng = XorShift::new(0x2545_F491_4F6C_DD1Du64);
        let mut next = move |k: u64| rng.below(k);
        let workers = Workers::new(2).unwrap();
        for case in 0..60 {
            // Keys of 9 and 11 levels (the last missing) over few rows, so that many q
            // have one side only, one record, or several records of one or more levels.
            let n_datasets = 2 + (case % 3);
            let sizes: Vec<usize> = (0..n_datasets).map(|_| 5 + next(80) as usize).collect();
            let column = |levels: u32, next: &mut dyn FnMut(u64) -> u32| -> Vec<Vec<u32>> {
                sizes.iter().map(|&n| (0..n).map(|_| next(levels as u64)).collect()).collect()
            };
            let n_t = 2 + next(5);
            let vars = vec![
                EncodedVar::from_u32(column(4 + next(6), &mut next), 9, 8, None),
                EncodedVar::from_u32(column(5 + next(7), &mut next), 11, 10, None),
                EncodedVar::from_u32(column(n_t, &mut next), n_t, n_t - 1, None),
            ];
            let use_na = [true, case % 2 == 0];
            let run = |denom_lim: Option<u64>| {
                let mut spec = ExclusionSpec::none(n_t as usize, n_t - 1);
                spec.denom_lim = denom_lim;
                let targets = [TargetRequest { var: 2, spec, twoway_min_cell: 1.0 }];
                let sizes = ChunkSizes { range_rows: 1 + (case % 4) * 20, ..ChunkSizes::default() };
                let plan = Plan::standard(n_datasets);
                let request =
                    CountRequest { vars: &vars, keys: &[0, 1], use_keys_na: &use_na, targets: &targets, plan: &plan };
                super::run_plan_with(&workers, &request, sizes, &never_stop).unwrap()
            };
            let (short, full) = (run(None), run(Some(u64::MAX)));
            for (a, b) in short[0].synthesis.iter().zip(&full[0].synthesis) {
                for ((name, x), (_, y)) in a.measures.named().into_iter().zip(b.measures.named()) {
                    assert!(x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()), "case {case} {name}: {x} vs {y}");
                }
                assert_eq!(a.total, b.total, "case {case}");
                assert_eq!(a.removed, b.removed, "case {case}");
                assert_eq!(a.one_way, b.one_way, "case {case}");
                assert_eq!(a.two_way, b.two_way, "case {case}");
            }
        }
    }

    /// Targets of 5, 300 and 4,096 levels share one plain pass, packed two bytes a code;
    /// one of 4,097 levels is beyond it. Each gives, bit for bit, the numbers of the
    /// engine's pass, which a denominator limit no cell reaches forces.
    #[test]
    fn targets_of_many_levels_share_the_plain_pass() {
        let mut rng = XorShift::new(0x51A7_E0C3_2B9D_4F61u64);
        let mut next = move |k: u64| rng.below(k);
        let workers = Workers::new(2).unwrap();
        let target_levels = [5u32, 300, 4096, 4097];
        let mut pairs_seen = 0usize;
        for case in 0..12 {
            let n_datasets = 2 + (case % 3);
            // Few key levels in some cases (q of many records a side), more in others.
            let key_levels: [u32; 2] = if case % 2 == 0 { [3, 4] } else { [9, 11] };
            let sizes: Vec<usize> = (0..n_datasets).map(|_| 200 + next(800) as usize).collect();
            let vars = keys_and_following_targets(&mut next, &sizes, &key_levels, &target_levels, 3);
            let run = |denom_lim: Option<u64>| {
                run_two_keys(&workers, &vars, &unexcluded_targets(&target_levels, denom_lim), ChunkSizes::default())
            };
            // The 2-way totals are compared on pairs (made by the plain pass's key tables
            // on one side, counted from the rows on the other).
            pairs_seen += assert_same_targets(&run(None), &run(Some(u64::MAX)), case);
        }
        assert!(pairs_seen > 0, "no 2-way pairs to compare");
    }

    /// The plain pass in two runs of q gives the numbers of the engine's pass: counts, the
    /// 1- and 2-way tables and the key tables' 2-way totals exactly, the sums over q to
    /// rounding; and the same bits with one thread or two, whatever the pieces of targets.
    #[test]
    fn plain_pass_in_runs_of_q_gives_the_engines_numbers() {
        let mut rng = XorShift::new(0x6A09_E667_BB67_AE85u64);
        let mut next = move |k: u64| rng.below(k);
        let (one, two) = (Workers::new(1).unwrap(), Workers::new(2).unwrap());
        let target_levels = [2u32, 7, 300];
        let mut pairs_seen = 0usize;
        for case in 0..12 {
            let n_datasets = 2 + (case % 3);
            let key_levels: [u32; 2] = if case % 2 == 0 { [3, 4] } else { [9, 11] };
            let sizes: Vec<usize> = (0..n_datasets).map(|_| 100 + next(600) as usize).collect();
            let vars = keys_and_following_targets(&mut next, &sizes, &key_levels, &target_levels, 3);
            let split_rows = 1 + next(400) as usize;
            let target_pieces = [None, Some(1), Some(2)][case % 3];
            let run = |workers: &Workers, denom_lim: Option<u64>, sizes: ChunkSizes| {
                run_two_keys(workers, &vars, &unexcluded_targets(&target_levels, denom_lim), sizes)
            };
            let runs = ChunkSizes { plain_split_rows: split_rows, target_pieces, ..ChunkSizes::default() };
            let (plain_1, plain_2) = (run(&one, None, runs), run(&two, None, runs));
            pairs_seen += assert_same_targets(&plain_1, &plain_2, case);
            // The first synthesis counted alone (its own key index) gives its numbers of
            // the call with all: the runs depend on the original alone.
            let pair: Vec<EncodedVar<'static>> = vars
                .iter()
                .map(|v| {
                    let codes = (0..2).map(|d| v.codes[d].to_u32()).collect();
                    EncodedVar::from_u32(codes, v.n_levels, v.missing_code, None)
                })
                .collect();
            let alone = run_two_keys(&two, &pair, &unexcluded_targets(&target_levels, None), runs);
            for (t, (a, b)) in alone.iter().zip(&plain_2).enumerate() {
                assert_same_synthesis(&a.synthesis[0], &b.synthesis[0], &format!("case {case} target {t}, alone"));
            }
            let engine = run(&two, Some(u64::MAX), ChunkSizes::default());
            for (t, (a, b)) in plain_1.iter().zip(&engine).enumerate() {
                for (x, y) in a.synthesis.iter().zip(&b.synthesis) {
                    for ((name, u), (_, v)) in x.measures.named().into_iter().zip(y.measures.named()) {
                        let close = (u - v).abs() <= 1e-12 * u.abs().max(v.abs()) || (u.is_nan() && v.is_nan());
                        assert!(close, "case {case} target {t} {name}: {u} vs {v}");
                    }
                    assert_eq!(x.total, y.total, "case {case} target {t}");
                    assert_eq!(x.one_way, y.one_way, "case {case} target {t}");
                    assert_eq!(x.two_way, y.two_way, "case {case} target {t}");
                }
            }
        }
        assert!(pairs_seen > 0, "no 2-way pairs to compare");
    }

    /// The plain pass over subsamples in several batches of views (the key tables made
    /// by the first batch's pass, then read from the cache) gives the results of one
    /// batch, the 2-way totals among them.
    #[test]
    fn plain_pass_in_batches_of_views_equals_one_batch() {
        let mut rng = XorShift::new(0x3C6E_F372_FE94_F82Bu64);
        let mut next = move |k: u64| rng.below(k);
        let workers = Workers::new(2).unwrap();
        let mut pairs_seen = 0usize;
        for case in 0..8 {
            let sizes = [300 + next(300) as usize, 300 + next(300) as usize];
            let key_levels = [3u32 + (case % 2) as u32 * 5, 4];
            let vars = keys_and_following_targets(&mut next, &sizes, &key_levels, &[3, 6, 300], 2);
            let targets: Vec<TargetRequest> = (2..5)
                .map(|v| TargetRequest {
                    var: v,
                    spec: ExclusionSpec::none(vars[v].n_levels as usize, vars[v].missing_code),
                    twoway_min_cell: 1.0,
                })
                .collect();
            // Subsamples of the synthesis (and the synthesis whole), no tau: the plain pass.
            let mut syntheses = vec![SynthesisView { dataset: 1, rows: None, repeats: false }];
            for _ in 0..4 {
                let rows: Vec<u32> = (0..sizes[1] as u32).filter(|_| next(2) == 0).collect();
                syntheses.push(SynthesisView { dataset: 1, rows: Some(rows), repeats: false });
            }
            let plan = Plan { original: 0, syntheses, tau: TauGrid::default(), weights: Vec::new() };
            let request =
                CountRequest { vars: &vars, keys: &[0, 1], use_keys_na: &[true, true], targets: &targets, plan: &plan };
            let one = super::run_plan(&workers, &request, &never_stop).unwrap();
            let batches = ChunkSizes { view_words: 1, ..ChunkSizes::default() };
            let many = run_plan_with(&workers, &request, batches, &never_stop).unwrap();
            pairs_seen += assert_same_targets(&one, &many, case);
        }
        assert!(pairs_seen > 0, "no 2-way pairs to compare");
    }

    #[test]
    fn weights_must_count_every_row_at_least_once() {
        let workers = Workers::new(1).unwrap();
        let vars = vec![EncodedVar::from_u32(vec![vec![0, 1], vec![1]], 3, 2, None)];
        let targets = [TargetRequest { var: 0, spec: ExclusionSpec::none(3, 2), twoway_min_cell: 4.0 }];
        let mut plan = Plan::standard(2);
        plan.weights = vec![Some(vec![1, 0]), None];
        assert!(run_plan(&workers, &vars, &[0], &[true], &targets, &plan, &never_stop).is_err());
        plan.weights = vec![Some(vec![1]), None];
        assert!(run_plan(&workers, &vars, &[0], &[true], &targets, &plan, &never_stop).is_err());
    }
}
