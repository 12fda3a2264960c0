//! The five exclusion steps (definitions vignette, section 5) and the eight tables they apply to.

use crate::keys::KeyIndex;

pub const N_TABLES: usize = 8;
pub const N_STEPS: usize = 5;

/// Rows of the `Nexclusions` matrix, in order.
pub const TABLE_NAMES: [&str; N_TABLES] = ["original", "synthetic", "Dorig", "Dsyn", "iS", "DiS", "DiSCO", "DiSDiO"];

/// Positions of the tables in `TABLE_NAMES`, named as the tables are.
pub const ORIG: usize = 0;
pub const SYN: usize = 1;
pub const DORIG: usize = 2;
pub const DSYN: usize = 3;
pub const IS: usize = 4;
pub const DIS: usize = 5;
pub const DISCO: usize = 6;
pub const DISDIO: usize = 7;

/// Step indices (0-based) into the `removed` counts.
pub const STEP_TARGET_LEVEL: usize = 0;
pub const STEP_MISSING_TARGET: usize = 1;
pub const STEP_MISSING_KEY: usize = 2;
pub const STEP_KEY_TARGET: usize = 3;
pub const STEP_DENOM_LIM: usize = 4;

/// Cells whose target is `target_level` and whose key `key` has level `key_level`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyTargetExclusion {
    pub key: usize,
    pub key_level: u32,
    pub target_level: u32,
}

/// Everything that decides which cells one target's tables lose.
#[derive(Debug, Clone)]
pub struct ExclusionSpec {
    /// `not.targetlev`: one flag per target level.
    pub excluded_target: Vec<bool>,
    /// `usetargetNA = FALSE` and the original target has missing values.
    pub exclude_missing_target: bool,
    pub target_missing_code: u32,
    pub key_target: Vec<KeyTargetExclusion>,
    /// `Some(denom_lim)` when `exclude_ov_denom_lim` is set.
    pub denom_lim: Option<u64>,
}

impl ExclusionSpec {
    pub fn none(n_target_levels: usize, target_missing_code: u32) -> Self {
        ExclusionSpec {
            excluded_target: vec![false; n_target_levels],
            exclude_missing_target: false,
            target_missing_code,
            key_target: Vec::new(),
            denom_lim: None,
        }
    }

    /// Whether no step but a missing key (asked per q) can remove a cell.
    pub fn removes_nothing(&self) -> bool {
        !self.excluded_target.iter().any(|&x| x)
            && !self.exclude_missing_target
            && self.key_target.is_empty()
            && self.denom_lim.is_none()
    }

    /// Target levels that step 4 removes in this q.
    pub fn key_target_levels_for(&self, index: &KeyIndex, q: usize, out: &mut Vec<u32>) {
        out.clear();
        for e in &self.key_target {
            if index.key_code(q, e.key) == e.key_level {
                out.push(e.target_level);
            }
        }
    }

    /// The first of steps 1-4 that removes cell (t, q), whatever the table.
    #[inline]
    pub fn cell_step(&self, t: u32, q_missing_key: bool, q_key_target: &[u32]) -> Option<usize> {
        if self.excluded_target[t as usize] {
            Some(STEP_TARGET_LEVEL)
        } else if self.exclude_missing_target && t == self.target_missing_code {
            Some(STEP_MISSING_TARGET)
        } else if q_missing_key {
            Some(STEP_MISSING_KEY)
        } else if q_key_target.contains(&t) {
            Some(STEP_KEY_TARGET)
        } else {
            None
        }
    }
}

/// For each q, whether a key with `usekeysNA = FALSE` is missing in it.
pub fn missing_key_flags(index: &KeyIndex, key_missing_codes: &[u32], use_keys_na: &[bool]) -> Vec<bool> {
    (0..index.n_q)
        .map(|q| (0..index.n_keys).any(|k| !use_keys_na[k] && index.key_code(q, k) == key_missing_codes[k]))
        .collect()
}
