//! The key sweep (definitions vignette, section 14): every measure of many subsets of a
//! candidate set of keys in one call, on one encoding. Each subset is one `CountRequest`
//! of the engine (rows grouped by its q, every target and synthesis), whose key index
//! comes from the subset without its last key (`Prefix`, `keys::extend_key_index`): one
//! pass over the rows instead of one per key. The subsets run in parallel on the same
//! pool as the engine's own passes, so that the many small subsets of small data keep
//! every core busy, and share the targets' margins, packed codes and 2-way tables
//! (`KeyTargetCache`). Only the measures come back: per subset, target and synthesis the
//! values of `MEASURE_NAMES`, in that order. Subsets go in chunks of bounded work, so
//! that memory stays bounded (a chunk's indexes and passes at once) and the caller can
//! stop between two chunks. Each subset's numbers are those of `run_plan` on it, so
//! results are identical for any thread count.

use crate::codes::{code_width, LevelCodes};
use crate::encode::EncodedVar;
use crate::engine::{run_plan_sharing, CountRequest, TargetRequest};
use crate::error::{CoreError, CoreResult};
use crate::key_target_counts::KeyTargetCache;
use crate::keys::{build_key_index, extend_key_index, KeyIndex};
use crate::plan::Plan;
use crate::workers::{chunks_by_cost, never_stop, ShouldStop, Workers};
use rayon::prelude::*;
use std::sync::Arc;

/// One subset of keys: the encoded variables that are its keys, each key's usekeysNA
/// flag, and its targets' requests (whose key/target exclusions index these keys).
pub struct KeySubset {
    pub keys: Vec<usize>,
    pub use_keys_na: Vec<bool>,
    pub targets: Vec<TargetRequest>,
}

/// Rows of counting (records of the original and syntheses, times targets) per chunk of
/// subsets: a tenth of a second or so, and the memory of a few subsets' passes.
pub const SUBSET_CHUNK_ROWS: usize = 1 << 25;

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
    if subsets.iter().any(|s| s.keys.is_empty() || s.keys.iter().any(|&k| k >= vars.len())) {
        return Err(CoreError::new("internal: a subset without keys, or a key index out of range"));
    }
    let view_rows: usize = plan.syntheses.iter().map(|v| v.n_rows(dataset_rows[v.dataset])).sum();
    let rows_per_target = dataset_rows.get(plan.original).copied().unwrap_or(0) + view_rows;
    let costs: Vec<usize> = subsets.iter().map(|s| rows_per_target.saturating_mul(s.targets.len())).collect();
    // Building a subset's key index reads every row once.
    let tree = prefix_tree(subsets, &costs, dataset_rows.iter().sum());
    // The 2-way totals' tables depend on one key and one target: counted once for all
    // subsets.
    let cache = KeyTargetCache::new(vars.len());
    let narrowed = narrow_copies(workers, vars, NARROW_COPY_BYTES);
    let vars = narrowed.as_deref().unwrap_or(vars);
    let sweep = Sweep { workers, vars, subsets, costs: &costs, plan, cache: &cache, chunk_rows: chunk_rows.max(1) };
    let mut measured: Vec<(usize, Vec<f64>)> = Vec::with_capacity(subsets.len());
    sweep.walk_in_chunks(&[], &tree, None, &[], should_stop, &mut measured)?;
    measured.sort_unstable_by_key(|(s, _)| *s);
    if measured.len() != subsets.len() {
        return Err(CoreError::new("internal: a subset was not counted"));
    }
    Ok(measured.into_iter().flat_map(|(_, values)| values).collect())
}

/// The subsets as a tree of their keys' prefixes: a node is a prefix (its last key
/// `key`), with the subsets whose keys it spells, the longer prefixes below it, and the
/// rows of counting of it and everything below (`cost`). A node's key index is built
/// from its parent's (`keys::extend_key_index`), so each subset's key combinations come
/// from the subset without its last key. A prefix no subset asks for (the subsets of
/// one size only) is built for its children alone.
struct Prefix {
    key: usize,
    subsets: Vec<usize>,
    children: Vec<Prefix>,
    cost: usize,
}

fn prefix_tree(subsets: &[KeySubset], costs: &[usize], index_cost: usize) -> Vec<Prefix> {
    let mut roots: Vec<Prefix> = Vec::new();
    for (i, subset) in subsets.iter().enumerate() {
        let mut level = &mut roots;
        for (depth, &key) in subset.keys.iter().enumerate() {
            let at = match level.iter().position(|n| n.key == key) {
                Some(at) => at,
                None => {
                    level.push(Prefix { key, subsets: Vec::new(), children: Vec::new(), cost: 0 });
                    level.len() - 1
                }
            };
            let node = &mut level[at];
            if depth + 1 == subset.keys.len() {
                node.subsets.push(i);
            }
            level = &mut node.children;
        }
    }
    fn add_costs(nodes: &mut [Prefix], costs: &[usize], index_cost: usize) -> usize {
        nodes
            .iter_mut()
            .map(|n| {
                let below = add_costs(&mut n.children, costs, index_cost);
                n.cost = index_cost + n.subsets.iter().map(|&s| costs[s]).sum::<usize>() + below;
                n.cost
            })
            .sum()
    }
    add_costs(&mut roots, costs, index_cost);
    roots
}

/// Consecutive chunks of items of about `budget` cost (`chunks_by_cost`), except that
/// an item to be opened (`opened`) stands alone in its chunk whatever comes before it,
/// so that a costly prefix is always walked in chunks of its own.
fn chunks_opening(costs: &[usize], opened: &[bool], budget: usize) -> Vec<std::ops::Range<usize>> {
    let mut chunks = Vec::new();
    let mut start = 0;
    for i in 0..=costs.len() {
        if i == costs.len() || opened[i] {
            chunks.extend(chunks_by_cost(&costs[start..i], budget).into_iter().map(|c| c.start + start..c.end + start));
            if i < costs.len() {
                chunks.push(i..i + 1);
            }
            start = i + 1;
        }
    }
    chunks
}

/// What every node of the walk shares.
struct Sweep<'a, 'v> {
    workers: &'a Workers,
    vars: &'a [EncodedVar<'v>],
    subsets: &'a [KeySubset],
    /// Rows of counting of each subset.
    costs: &'a [usize],
    plan: &'a Plan,
    cache: &'a KeyTargetCache,
    chunk_rows: usize,
}

/// Measures by subset, as (subset, values).
type Measured = Vec<(usize, Vec<f64>)>;

impl Sweep<'_, '_> {
    /// On the calling thread: the subsets `own` of the prefix `prefix` (whose index is
    /// `parent`) and the nodes below it, in chunks of about `chunk_rows` rows of
    /// counting; each chunk's subsets, and its nodes with all below them, run in the
    /// pool at once. A node costlier than a chunk is opened (its index, then its own
    /// subsets and children the same way), so that the caller can stop between two
    /// chunks and memory holds a chunk's indexes.
    fn walk_in_chunks(
        &self,
        own: &[usize],
        nodes: &[Prefix],
        parent: Option<&Arc<KeyIndex>>,
        prefix: &[usize],
        should_stop: ShouldStop<'_>,
        out: &mut Measured,
    ) -> CoreResult<()> {
        enum Item<'n> {
            Own(usize),
            Node(&'n Prefix),
        }
        let to_open = |n: &Prefix| n.cost > self.chunk_rows && !n.children.is_empty();
        // The items to run whole first, in chunks shared by several (so that the cores
        // stay busy), then the nodes to open; the results are put in order at the end.
        let items: Vec<Item<'_>> = own
            .iter()
            .map(|&s| Item::Own(s))
            .chain(nodes.iter().filter(|n| !to_open(n)).map(Item::Node))
            .chain(nodes.iter().filter(|n| to_open(n)).map(Item::Node))
            .collect();
        let costs: Vec<usize> = items
            .iter()
            .map(|i| match i {
                Item::Own(s) => self.costs[*s],
                Item::Node(n) => n.cost,
            })
            .collect();
        let opened: Vec<bool> = items.iter().map(|i| matches!(i, Item::Node(n) if to_open(n))).collect();
        let chunks = chunks_opening(&costs, &opened, self.chunk_rows);
        for chunk in chunks {
            match &items[chunk.clone()] {
                [Item::Node(node)] if to_open(node) => {
                    let keys = [prefix, &[node.key]].concat();
                    let index = self.workers.chunk(should_stop, || self.index_of(&keys, parent))??;
                    self.walk_in_chunks(&node.subsets, &node.children, Some(&index), &keys, should_stop, out)?;
                }
                chunk => {
                    // A subset's own passes run on the same pool (the engine's calls from
                    // a pool thread stay in it), so subsets and passes share the cores.
                    let measured: Vec<Measured> = self.workers.chunk(should_stop, || {
                        chunk
                            .par_iter()
                            .map(|item| match item {
                                Item::Own(s) => {
                                    let index =
                                        parent.ok_or_else(|| CoreError::new("internal: a subset without keys"))?;
                                    Ok(vec![(*s, self.measures(*s, index)?)])
                                }
                                Item::Node(n) => self.walk_all(n, parent, prefix),
                            })
                            .collect::<CoreResult<_>>()
                    })??;
                    out.extend(measured.into_iter().flatten());
                }
            }
        }
        Ok(())
    }

    /// In the pool: a node's index and subsets, then its children in parallel.
    fn walk_all(&self, node: &Prefix, parent: Option<&Arc<KeyIndex>>, prefix: &[usize]) -> CoreResult<Measured> {
        let keys = [prefix, &[node.key]].concat();
        let index = self.index_of(&keys, parent)?;
        let mut out: Measured =
            node.subsets.iter().map(|&s| Ok((s, self.measures(s, &index)?))).collect::<CoreResult<_>>()?;
        let below: Vec<Measured> =
            node.children.par_iter().map(|c| self.walk_all(c, Some(&index), &keys)).collect::<CoreResult<_>>()?;
        out.extend(below.into_iter().flatten());
        Ok(out)
    }

    /// The index of `keys`: from the parent's (the keys but the last) when it fits a
    /// direct table, else built on all of them; the same ids either way.
    fn index_of(&self, keys: &[usize], parent: Option<&Arc<KeyIndex>>) -> CoreResult<Arc<KeyIndex>> {
        let last = &self.vars[keys[keys.len() - 1]];
        if let Some(index) = parent.and_then(|p| extend_key_index(p, &last.codes, last.n_levels)) {
            return Ok(Arc::new(index));
        }
        let codes: Vec<&[LevelCodes<'_>]> = keys.iter().map(|&k| self.vars[k].codes.as_slice()).collect();
        let levels: Vec<u32> = keys.iter().map(|&k| self.vars[k].n_levels).collect();
        Ok(Arc::new(build_key_index(&codes, &levels)?))
    }

    /// Subset `s`'s measures, target by target, synthesis by synthesis.
    fn measures(&self, s: usize, index: &Arc<KeyIndex>) -> CoreResult<Vec<f64>> {
        let subset = &self.subsets[s];
        let request = CountRequest {
            vars: self.vars,
            keys: &subset.keys,
            use_keys_na: &subset.use_keys_na,
            targets: &subset.targets,
            plan: self.plan,
        };
        let results = run_plan_sharing(self.workers, &request, self.cache, Some(Arc::clone(index)), &never_stop)?;
        Ok(results
            .iter()
            .flat_map(|t| t.synthesis.iter())
            .flat_map(|s| s.measures.named().into_iter().map(|(_, v)| v))
            .collect())
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::run_plan;
    use crate::exclusions::ExclusionSpec;
    use crate::measures::MEASURE_NAMES;
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

    /// Every subset of four keys, each counted alone by the engine, equals the sweep
    /// for 1 and 3 threads and for chunks of one subset or all of them: all subsets in
    /// ascending key order, and the subsets of two keys or more in descending order (a
    /// prefix no subset asks for). The fourth key has too many levels for an index
    /// extended by it, which is built on all its keys instead.
    #[test]
    fn every_subset_equals_the_engine_alone_for_any_threads_and_chunks() {
        let mut rng = XorShift::new(0x51ED_2701_9A3C_44B1u64);
        let mut next = move |k: u64| rng.below(k);
        // Four keys, two targets; the last level missing.
        let levels = [3u32, 4, 5, 1 << 23, 4, 6];
        let sizes = [80usize, 70, 90];
        let vars: Vec<EncodedVar<'_>> = levels
            .iter()
            .map(|&l| {
                EncodedVar::from_u32(
                    sizes.iter().map(|&n| (0..n).map(|_| next(l.min(1000) as u64)).collect()).collect(),
                    l,
                    l - 1,
                    None,
                )
            })
            .collect();
        let plan = Plan::standard(3);
        let subsets_of = |descending: bool| -> Vec<KeySubset> {
            let mut out = Vec::new();
            for mask in 1usize..16 {
                let mut keys: Vec<usize> = (0..4).filter(|k| mask & (1 << k) != 0).collect();
                if descending {
                    if keys.len() < 2 {
                        continue;
                    }
                    keys.reverse();
                }
                let use_keys_na = keys.iter().map(|&k| k != 1).collect();
                let targets = vec![target(4, levels[4], mask), target(5, levels[5], mask + 1)];
                out.push(KeySubset { keys, use_keys_na, targets });
            }
            if descending {
                out.reverse();
            }
            out
        };
        let one = Workers::new(1).unwrap();
        for descending in [false, true] {
            let want: Vec<f64> = subsets_of(descending)
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
            let n_subsets = if descending { 11 } else { 15 };
            assert_eq!(want.len(), n_subsets * 2 * 2 * MEASURE_NAMES.len());
            for threads in [1, 3] {
                let workers = Workers::new(threads).unwrap();
                // Chunks of one subset, of a few (a costly prefix after a cheap subset in
                // one budget), and of all.
                for chunk_rows in [1, 2_000, SUBSET_CHUNK_ROWS] {
                    let got =
                        count_key_subsets(&workers, &vars, &subsets_of(descending), &plan, chunk_rows, &never_stop)
                            .unwrap();
                    assert_eq!(got.len(), want.len());
                    for (a, b) in got.iter().zip(&want) {
                        assert!(
                            a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                            "{a} != {b} ({threads} threads, chunks of {chunk_rows}, descending {descending})"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_prefix_to_open_stands_alone_in_its_chunk() {
        // A cheap subset, then a costly prefix: within one budget, but the prefix is
        // opened, so it must not share the cheap subset's chunk.
        let costs = [10, 500, 10, 10, 700, 5];
        let opened = [false, true, false, false, true, false];
        let chunks = chunks_opening(&costs, &opened, 100);
        assert_eq!(chunks, vec![0..1, 1..2, 2..4, 4..5, 5..6]);
        let all = chunks_opening(&costs, &[false; 6], 100_000);
        assert_eq!(all, vec![0..6]);
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
