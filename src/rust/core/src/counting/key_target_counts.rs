//! The original's records by (key level, target level) for one key and one target: the
//! totals of the 2-way check (definitions vignette, section 7). They depend on that key
//! and that target only, not on the other keys of a call, so they are counted in one
//! pass over the original's rows in row order (no key index needed), and a key sweep
//! counts each (key, target) once for all its subsets (`KeyTargetCache`), as it does
//! each target's records by level (its margin), which depend on the target alone.

use crate::codes::CodeSource;
use crate::plain_pass::TargetRows;
use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Above this many (key level, target level) cells a table is not made: the 2-way check
/// counts the pairs it needs only (`checks::fill_two_way_totals`).
pub const MAX_TABLE_CELLS: u64 = 1 << 18;

const LANES: usize = 4;

/// Tables of at most this many cells are counted in lanes.
const LANED_CELLS: usize = 1 << 10;

/// Bytes of tables a cache keeps; beyond it, tables are counted for the call that needs
/// them and dropped, so that a sweep over many keys and targets stays bounded.
const CACHE_BYTES: usize = 1 << 27;

/// One key's and one target's table of the original's records.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyTargetCounts {
    target_levels: usize,
    /// Records at (key level, target level), at `key_level * target_levels + target_level`.
    joint: Vec<u64>,
    /// Records at each key level.
    key_totals: Vec<u64>,
}

impl KeyTargetCounts {
    /// The table of `key` (codes `< key_levels`) by `target` (codes `< target_levels`)
    /// in the original's rows, each row standing for `weights[row]` records (or one);
    /// `None` when it would have more than `MAX_TABLE_CELLS` cells.
    pub fn count<K: CodeSource + ?Sized, T: CodeSource + ?Sized>(
        key: &K,
        key_levels: u32,
        target: &T,
        target_levels: u32,
        weights: Option<&[u32]>,
    ) -> Option<Self> {
        let cells = key_levels as u64 * target_levels as u64;
        if cells > MAX_TABLE_CELLS {
            return None;
        }
        let n_t = target_levels as usize;
        // A small table is counted in lanes (row number mod LANES), so that consecutive
        // rows of one cell, common then, do not wait on each other's increment; a large
        // one directly, as its rows rarely meet and lanes would only spread it in memory.
        let lanes = if cells as usize <= LANED_CELLS { LANES } else { 1 };
        let mut counts = vec![0u64; cells as usize * lanes];
        let at = |i: usize| (key.code(i) as usize * n_t + target.code(i) as usize) * lanes + (i & (lanes - 1));
        match weights {
            None => (0..key.n_rows()).for_each(|i| counts[at(i)] += 1),
            Some(w) => w.iter().enumerate().for_each(|(i, &n)| counts[at(i)] += n as u64),
        }
        let joint: Vec<u64> = if lanes == 1 { counts } else { counts.chunks(lanes).map(|c| c.iter().sum()).collect() };
        Self::from_joint(joint, key_levels, target_levels)
    }

    /// The table whose records at (key level, target level) are `joint`, at
    /// `key_level * target_levels + target_level` (as the plain pass makes it);
    /// `None` when it has more than `MAX_TABLE_CELLS` cells or is not of that shape.
    pub fn from_joint(joint: Vec<u64>, key_levels: u32, target_levels: u32) -> Option<Self> {
        let cells = key_levels as u64 * target_levels as u64;
        if cells > MAX_TABLE_CELLS || joint.len() as u64 != cells {
            return None;
        }
        let n_t = target_levels as usize;
        let key_totals =
            if n_t == 0 { vec![0; key_levels as usize] } else { joint.chunks(n_t).map(|c| c.iter().sum()).collect() };
        Some(KeyTargetCounts { target_levels: n_t, joint, key_totals })
    }

    /// Records at `key_level`.
    pub fn key_total(&self, key_level: u32) -> u64 {
        self.key_totals[key_level as usize]
    }

    /// Records at `key_level` and `target_level`.
    pub fn joint(&self, key_level: u32, target_level: u32) -> u64 {
        self.joint[key_level as usize * self.target_levels + target_level as usize]
    }

    fn bytes(&self) -> usize {
        (self.joint.len() + self.key_totals.len()) * std::mem::size_of::<u64>()
    }
}

/// The codes of some target variables in one dataset, packed row by row.
type PackedTargets = (Vec<usize>, usize, Arc<TargetRows>);

/// Tables by (key variable, target variable) of one encoding, made when first asked
/// for and kept within a memory budget; shared by every subset of a key sweep, as are
/// the targets' margins and their codes packed row by row for the plain pass.
/// Every call sharing a cache counts the same original (one encoding, one plan).
pub struct KeyTargetCache {
    /// Packed codes by (target variables, dataset), kept within the same budget.
    packed: Mutex<Vec<PackedTargets>>,
    n_vars: usize,
    /// Per key variable (made when first used as a key), per target variable.
    tables: Vec<OnceLock<Vec<OnceLock<Option<KeyTargetCounts>>>>>,
    kept_bytes: AtomicUsize,
    /// Per variable, the original's records at each of its levels.
    margins: Vec<OnceLock<Vec<u64>>>,
}

impl KeyTargetCache {
    /// An empty cache for an encoding of `n_vars` variables.
    pub fn new(n_vars: usize) -> Self {
        KeyTargetCache {
            packed: Mutex::new(Vec::new()),
            n_vars,
            tables: (0..n_vars).map(|_| OnceLock::new()).collect(),
            kept_bytes: AtomicUsize::new(0),
            margins: (0..n_vars).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The original's records at each level of variable `var`, from the cache or
    /// counted by `count` (a margin has one number per level: always kept).
    pub fn margin(&self, var: usize, count: impl FnOnce() -> Vec<u64>) -> Cow<'_, [u64]> {
        match self.margins.get(var) {
            Some(slot) => Cow::Borrowed(slot.get_or_init(count).as_slice()),
            None => Cow::Owned(count()),
        }
    }

    /// Reserves `bytes` of the cache's budget; false when they would overrun it.
    fn reserve(&self, bytes: usize) -> bool {
        self.kept_bytes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                (used + bytes <= CACHE_BYTES).then_some(used + bytes)
            })
            .is_ok()
    }

    /// The codes of the variables `target_vars` in dataset `dataset`, packed row by row:
    /// from the cache, or made by `pack` (and kept when the budget allows).
    pub fn packed_targets(
        &self,
        target_vars: &[usize],
        dataset: usize,
        pack: impl FnOnce() -> TargetRows,
    ) -> Arc<TargetRows> {
        let find = || -> Option<Arc<TargetRows>> {
            let kept = self.packed.lock().ok()?;
            kept.iter().find(|(v, d, _)| v == target_vars && *d == dataset).map(|(_, _, p)| Arc::clone(p))
        };
        if let Some(p) = find() {
            return p;
        }
        let made = Arc::new(pack());
        let bytes = made.bytes_held();
        if self.reserve(bytes) {
            match self.packed.lock() {
                Ok(mut kept) => kept.push((target_vars.to_vec(), dataset, Arc::clone(&made))),
                Err(_) => {
                    self.kept_bytes.fetch_sub(bytes, Ordering::Relaxed);
                }
            }
        }
        made
    }

    /// Whether the tables of every key variable of `key_vars` by `target_var` are kept
    /// (or known to be too large), so that none would be counted again.
    pub fn holds_tables(&self, key_vars: &[usize], target_var: usize) -> bool {
        target_var < self.n_vars
            && key_vars.iter().all(|&k| {
                k < self.n_vars && self.tables[k].get().is_some_and(|of_key| of_key[target_var].get().is_some())
            })
    }

    /// The table of variables `key_var` by `target_var`, from the cache or made by
    /// `count` (kept when the budget allows; `None` from `count` is kept too, being
    /// free). Variables outside the encoding are counted and not kept.
    pub fn table(
        &self,
        key_var: usize,
        target_var: usize,
        count: impl FnOnce() -> Option<KeyTargetCounts>,
    ) -> Option<Cow<'_, KeyTargetCounts>> {
        if key_var >= self.n_vars || target_var >= self.n_vars {
            return count().map(Cow::Owned);
        }
        let of_key = self.tables[key_var].get_or_init(|| (0..self.n_vars).map(|_| OnceLock::new()).collect());
        let slot = &of_key[target_var];
        if let Some(kept) = slot.get() {
            return kept.as_ref().map(Cow::Borrowed);
        }
        let Some(table) = count() else {
            let _ = slot.set(None);
            return None;
        };
        let bytes = table.bytes();
        if !self.reserve(bytes) {
            return Some(Cow::Owned(table));
        }
        // Another thread may have made the same table meanwhile: both are equal.
        match slot.set(Some(table)) {
            Ok(()) => slot.get().and_then(|t| t.as_ref()).map(Cow::Borrowed),
            Err(Some(table)) => {
                self.kept_bytes.fetch_sub(bytes, Ordering::Relaxed);
                Some(Cow::Owned(table))
            }
            Err(None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_records_by_key_and_target_level() {
        let (key, target): ([u32; 5], [u32; 5]) = ([0, 1, 1, 2, 1], [1, 0, 1, 1, 1]);
        let t = KeyTargetCounts::count(&key[..], 3, &target[..], 2, None).unwrap();
        assert_eq!((t.key_total(0), t.key_total(1), t.key_total(2)), (1, 3, 1));
        assert_eq!((t.joint(1, 0), t.joint(1, 1), t.joint(0, 0), t.joint(2, 1)), (1, 2, 0, 1));
        let w = KeyTargetCounts::count(&key[..], 3, &target[..], 2, Some(&[2, 1, 5, 1, 1])).unwrap();
        assert_eq!((w.key_total(1), w.joint(1, 1)), (7, 6));
        let wide = [0u32; 5];
        assert!(KeyTargetCounts::count(&wide[..], 1 << 10, &wide[..], 1 << 9, None).is_none());
    }

    #[test]
    fn the_cache_counts_a_table_once() {
        let (key, target): ([u32; 3], [u32; 3]) = ([0, 1, 1], [1, 0, 1]);
        let cache = KeyTargetCache::new(2);
        let calls = std::cell::Cell::new(0);
        let count = || {
            calls.set(calls.get() + 1);
            KeyTargetCounts::count(&key[..], 2, &target[..], 2, None)
        };
        let first = cache.table(0, 1, count).unwrap().into_owned();
        let again = cache.table(0, 1, count).unwrap().into_owned();
        assert_eq!((first == again, calls.get()), (true, 1));
        // Outside the encoding: counted every time.
        cache.table(5, 1, count);
        assert_eq!(calls.get(), 2);
        let margin = || {
            calls.set(calls.get() + 1);
            vec![1, 2]
        };
        assert_eq!(
            (cache.margin(1, margin).into_owned(), cache.margin(1, margin).into_owned()),
            (vec![1, 2], vec![1, 2])
        );
        assert_eq!(calls.get(), 3);
    }
}
