//! One dataset's level codes of one variable, in the least memory that serves them.
//! Numeric variables own their codes in the narrowest unsigned width that holds every
//! level (`u8`, `u16`, `u32`). Factor variables keep R's own 1-based codes, borrowed and
//! never copied, and read them through a table from R's code to the union code: a
//! census file's factors cost no memory beyond the data the session already holds.

use crate::error::{CoreError, CoreResult};
use crate::memory;
use std::sync::OnceLock;

/// R's NA for integers (and factor codes).
pub const NA_INTEGER: i32 = i32::MIN;

/// Lanes of the level counts made while a factor column is checked.
const COUNT_LANES: usize = 4;

/// Anything that gives the level code of a row; the hot loops are generic over it.
pub trait CodeSource: Sync {
    fn code(&self, row: usize) -> u32;
    fn n_rows(&self) -> usize;
    /// Calls `f(i, code)` for the rows `rows` in order, `i` counting from 0: the codes
    /// read in sequence, without a bounds check per row.
    #[inline(always)]
    fn for_each_in(&self, rows: std::ops::Range<usize>, mut f: impl FnMut(usize, u32)) {
        for (i, row) in rows.enumerate() {
            f(i, self.code(row));
        }
    }
}

macro_rules! narrow_source {
    ($($t:ty),*) => {$(
        impl CodeSource for [$t] {
            #[inline(always)]
            fn code(&self, row: usize) -> u32 {
                self[row] as u32
            }
            fn n_rows(&self) -> usize {
                self.len()
            }
            #[inline(always)]
            fn for_each_in(&self, rows: std::ops::Range<usize>, mut f: impl FnMut(usize, u32)) {
                for (i, &c) in self[rows].iter().enumerate() {
                    f(i, c as u32);
                }
            }
        }
    )*};
}
narrow_source!(u8, u16, u32);

/// R's factor codes read through a table: `table[0]` is the missing level (R's NA,
/// `i32::MIN`, clamps to 0), `table[r]` the union code of R's code `r`. Every code was
/// checked to be NA or within the table when the column was made, in the same pass
/// that counted the rows of each of R's codes (`raw_counts`, indexed as `table`) or,
/// for a synthesis's factor of fewer than `MASKED_CODES` levels (`FactorCodes::marked`),
/// marked the codes present (`raw_present`, bit `r - 1` for code `r`, the next for
/// NA); its rows are then counted when first asked for.
#[derive(Debug, Clone)]
pub struct FactorCodes<'a> {
    raw: &'a [i32],
    table: Vec<u32>,
    raw_counts: OnceLock<Vec<u64>>,
    raw_present: Option<u64>,
}

/// Factors of fewer levels than this can have their codes checked and marked present
/// in one bit each of a word, in lanes that do not wait on each other.
pub const MASKED_CODES: usize = 64;

impl<'a> FactorCodes<'a> {
    /// `remap[r - 1]` is the union code (`< n_levels`) of R's code `r`; its rows counted
    /// as the codes are checked.
    pub fn new(raw: &'a [i32], remap: &[i32], n_levels: u32, missing_code: u32) -> CoreResult<Self> {
        Self::checked(raw, remap, n_levels, missing_code, true)
    }

    /// As `new`, but for fewer than `MASKED_CODES` levels the codes present only marked,
    /// and the rows counted when first asked for: a synthesis's column, whose counts
    /// most calls never ask for (the original's margins are counted, a synthesis's are
    /// not), costs a check that reads it at the speed of memory.
    pub fn marked(raw: &'a [i32], remap: &[i32], n_levels: u32, missing_code: u32) -> CoreResult<Self> {
        Self::checked(raw, remap, n_levels, missing_code, false)
    }

    fn checked(raw: &'a [i32], remap: &[i32], n_levels: u32, missing_code: u32, count: bool) -> CoreResult<Self> {
        if missing_code >= n_levels {
            return Err(CoreError::new("internal: missing level code out of range"));
        }
        let mut table = Vec::with_capacity(remap.len() + 1);
        table.push(missing_code);
        for &r in remap {
            if r < 0 || r as u32 >= n_levels {
                return Err(CoreError::new(format!("internal: factor level map has code {r} outside 0..{n_levels}")));
            }
            table.push(r as u32);
        }
        let no_level = |bad: i32| CoreError::new(format!("internal: factor code {bad} has no level"));
        if !count && remap.len() < MASKED_CODES {
            let raw_present = mark_raw_codes(raw, remap.len()).map_err(no_level)?;
            return Ok(FactorCodes { raw, table, raw_counts: OnceLock::new(), raw_present: Some(raw_present) });
        }
        let raw_counts = count_raw_codes(raw, remap.len()).map_err(no_level)?;
        Ok(FactorCodes { raw, table, raw_counts: OnceLock::from(raw_counts), raw_present: None })
    }

    /// Rows of each of R's codes (`[0]` NA's), counted when first asked for.
    fn raw_counts(&self) -> &[u64] {
        // The codes were checked when the column was made: every one is NA or a level.
        self.raw_counts.get_or_init(|| count_raw_codes(self.raw, self.table.len() - 1).unwrap_or_default())
    }

    /// Which union levels (of `n_levels`) have rows, from the codes marked present;
    /// `None` when they were counted instead.
    fn marked_presence(&self, n_levels: u32) -> Option<Vec<bool>> {
        let marks = self.raw_present?;
        let n_codes = self.table.len() - 1;
        let mut present = vec![false; n_levels as usize];
        for r in 1..=n_codes {
            if marks >> (r - 1) & 1 == 1 {
                present[self.table[r] as usize] = true;
            }
        }
        if marks >> n_codes & 1 == 1 {
            present[self.table[0] as usize] = true;
        }
        Some(present)
    }
}

/// Which of R's codes of a factor column of `n_codes` (< `MASKED_CODES`) levels occur:
/// bit `r - 1` for code `r`, bit `n_codes` for NA; or the first code that is neither
/// NA nor a level. Where the CPU has AVX2, compiled for it: the shifts of eight lanes
/// then take a few instructions for eight rows.
fn mark_raw_codes(raw: &[i32], n_codes: usize) -> Result<u64, i32> {
    crate::avx2_if_present!(mark_raw_codes_portable(raw: &[i32], n_codes: usize) -> Result<u64, i32>)
}

#[inline(always)]
fn mark_raw_codes_portable(raw: &[i32], n_codes: usize) -> Result<u64, i32> {
    // Code r at bit r - 1 and NA at bit n_codes (R's code less one, as unsigned, is
    // NA's or a bad code's beyond the codes: clamped to that bit); bad codes, neither NA
    // nor a level, noted in lanes of their own, so that no row branches.
    const LANES: usize = 8;
    let last = n_codes.min(MASKED_CODES - 1) as u32;
    let bit = |c: i32| 1u64 << (c as u32).wrapping_sub(1).min(last);
    let bad = |c: i32| ((c as u32).wrapping_sub(1) >= n_codes as u32 && c != NA_INTEGER) as u32;
    let (mut lanes, mut bad_lanes) = ([0u64; LANES], [0u32; LANES]);
    let mut blocks = raw.chunks_exact(LANES);
    for block in blocks.by_ref() {
        for ((lane, bad_lane), &c) in lanes.iter_mut().zip(bad_lanes.iter_mut()).zip(block) {
            *lane |= bit(c);
            *bad_lane |= bad(c);
        }
    }
    let mut marks = lanes.iter().fold(0u64, |all, &lane| all | lane);
    let mut any_bad = bad_lanes.iter().fold(0u32, |all, &lane| all | lane);
    for &c in blocks.remainder() {
        marks |= bit(c);
        any_bad |= bad(c);
    }
    if any_bad != 0 {
        return Err(raw.iter().copied().find(|&c| bad(c) != 0).unwrap_or(0));
    }
    Ok(marks)
}

/// Rows of each of R's codes of a factor column of `n_codes` levels: `[0]` its NAs,
/// `[r]` the rows of code `r`; or the first code that is neither NA nor a level. Not
/// inlined: its loop compiles the same wherever it is called from.
#[inline(never)]
fn count_raw_codes(raw: &[i32], n_codes: usize) -> Result<Vec<u64>, i32> {
    // Code r counted at slot r - 1, and NA and every code outside 1..=n_codes at the
    // last slot (R's code less one, as unsigned, clamped to it): no branch, and no
    // bounds check. Four lanes, so that consecutive rows of one level do not wait on
    // each other's increment (most factors have few levels). NAs are told from bad
    // codes afterwards, only when the last slot has rows (a second pass, which
    // vectorizes, rather than a comparison a row).
    let mut lanes = vec![[0u64; COUNT_LANES]; n_codes + 1];
    let last = n_codes;
    let slot = |c: i32| ((c as u32).wrapping_sub(1) as usize).min(last);
    let mut quads = raw.chunks_exact(COUNT_LANES);
    for quad in quads.by_ref() {
        for (lane, &c) in quad.iter().enumerate() {
            // SAFETY: `slot` is at most `last`, and `lanes` has `last + 1` slots.
            unsafe { lanes.get_unchecked_mut(slot(c))[lane] += 1 };
        }
    }
    for &c in quads.remainder() {
        lanes[slot(c)][0] += 1;
    }
    let beyond = lanes[last].iter().sum::<u64>();
    let na = if beyond == 0 { 0 } else { raw.iter().map(|&c| (c == NA_INTEGER) as u64).sum::<u64>() };
    if beyond != na {
        let level = |c: i32| c >= 1 && c as usize <= n_codes;
        return Err(raw.iter().copied().find(|&c| c != NA_INTEGER && !level(c)).unwrap_or(0));
    }
    let mut counts = Vec::with_capacity(n_codes + 1);
    counts.push(na);
    counts.extend(lanes[..last].iter().map(|l| l.iter().sum::<u64>()));
    Ok(counts)
}

impl CodeSource for FactorCodes<'_> {
    #[inline(always)]
    fn code(&self, row: usize) -> u32 {
        self.table[self.raw[row].max(0) as usize]
    }
    fn n_rows(&self) -> usize {
        self.raw.len()
    }
    #[inline(always)]
    fn for_each_in(&self, rows: std::ops::Range<usize>, mut f: impl FnMut(usize, u32)) {
        let table = self.table.as_slice();
        for (i, &r) in self.raw[rows].iter().enumerate() {
            // SAFETY: `new` or `marked` (`checked`) found every code to be NA (0 once
            // clamped) or a level of the table, `1..table.len()`.
            f(i, unsafe { *table.get_unchecked(r.max(0) as usize) });
        }
    }
}

#[derive(Debug, Clone)]
pub enum LevelCodes<'a> {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    Factor(FactorCodes<'a>),
}

/// Runs `$body` with `$s` bound to the concrete `CodeSource` of `$codes`, so that the
/// body is compiled once per storage and its loops have no dispatch.
#[macro_export]
macro_rules! with_codes {
    ($codes:expr, |$s:ident| $body:expr) => {
        match $codes {
            $crate::codes::LevelCodes::U8(v) => {
                let $s: &[u8] = v.as_slice();
                $body
            }
            $crate::codes::LevelCodes::U16(v) => {
                let $s: &[u16] = v.as_slice();
                $body
            }
            $crate::codes::LevelCodes::U32(v) => {
                let $s: &[u32] = v.as_slice();
                $body
            }
            $crate::codes::LevelCodes::Factor(f) => {
                let $s: &$crate::codes::FactorCodes<'_> = f;
                $body
            }
        }
    };
}

impl CodeSource for LevelCodes<'_> {
    #[inline]
    fn code(&self, row: usize) -> u32 {
        match self {
            LevelCodes::U8(v) => v[row] as u32,
            LevelCodes::U16(v) => v[row] as u32,
            LevelCodes::U32(v) => v[row],
            LevelCodes::Factor(f) => f.code(row),
        }
    }
    fn n_rows(&self) -> usize {
        self.len()
    }
}

/// Bytes per code of the narrowest width for `n_levels` levels.
pub fn code_width(n_levels: u32) -> usize {
    if n_levels <= 1 << 8 {
        1
    } else if n_levels <= 1 << 16 {
        2
    } else {
        4
    }
}

impl<'a> LevelCodes<'a> {
    pub fn len(&self) -> usize {
        match self {
            LevelCodes::U8(v) => v.len(),
            LevelCodes::U16(v) => v.len(),
            LevelCodes::U32(v) => v.len(),
            LevelCodes::Factor(f) => f.n_rows(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The code of `row`.
    #[inline]
    pub fn get(&self, row: usize) -> u32 {
        self.code(row)
    }

    /// Every row's code as `u32`, in row order.
    pub fn to_u32(&self) -> Vec<u32> {
        with_codes!(self, |s| memory::collected(s.n_rows(), (0..s.n_rows()).map(|i| s.code(i))))
    }

    /// Owned codes (all `< n_levels`) in the narrowest width for `n_levels` levels.
    pub fn narrow(codes: Vec<u32>, n_levels: u32) -> Self {
        match code_width(n_levels) {
            1 => LevelCodes::U8(codes.into_iter().map(|c| c as u8).collect()),
            2 => LevelCodes::U16(codes.into_iter().map(|c| c as u16).collect()),
            _ => LevelCodes::U32(codes),
        }
    }

    /// Owned codes of `len` rows (`codes`, each `< n_levels`) in the narrowest width
    /// for `n_levels` levels.
    #[inline(always)]
    pub fn narrow_from_iter(len: usize, n_levels: u32, codes: impl Iterator<Item = u32>) -> Self {
        match code_width(n_levels) {
            1 => LevelCodes::U8(memory::collected(len, codes.map(|c| c as u8))),
            2 => LevelCodes::U16(memory::collected(len, codes.map(|c| c as u16))),
            _ => LevelCodes::U32(memory::collected(len, codes)),
        }
    }

    /// Owned codes of `len` rows in the narrowest width for `n_levels` levels, row `i`
    /// coded `code_of(i)` (which must be `< n_levels`).
    pub fn narrow_from_fn(len: usize, n_levels: u32, code_of: impl Fn(usize) -> u32) -> Self {
        match code_width(n_levels) {
            1 => LevelCodes::U8(memory::collected(len, (0..len).map(|i| code_of(i) as u8))),
            2 => LevelCodes::U16(memory::collected(len, (0..len).map(|i| code_of(i) as u16))),
            _ => LevelCodes::U32(memory::collected(len, (0..len).map(&code_of))),
        }
    }

    /// Rows at each of `n_levels` levels.
    pub fn level_counts(&self, n_levels: u32) -> Vec<u64> {
        let mut counts = vec![0u64; n_levels as usize];
        match self {
            LevelCodes::Factor(f) => {
                // Counted per R code (when the column was checked, or now); through the table.
                for (r, &n) in f.raw_counts().iter().enumerate() {
                    counts[f.table[r] as usize] += n;
                }
            }
            other => with_codes!(other, |s| {
                // Four lanes, so that consecutive rows of one level (most rows, for a
                // target with one common value) do not wait on each other's increment;
                // one for many levels, where lanes would only cost memory.
                let n_levels = n_levels as usize;
                let n_lanes = if n_levels <= 1 << 12 { COUNT_LANES } else { 1 };
                let mut lanes = vec![0u64; n_levels * n_lanes];
                for i in 0..s.n_rows() {
                    lanes[(i & (n_lanes - 1)) * n_levels + s.code(i) as usize] += 1;
                }
                for lane in lanes.chunks(n_levels.max(1)) {
                    counts.iter_mut().zip(lane).for_each(|(c, &n)| *c += n);
                }
            }),
        }
        counts
    }

    /// Records at each of `n_levels` levels when row `i` stands for `weights[i]` records
    /// (counted cells); `None` when `weights` does not have one entry per row.
    pub fn weighted_level_counts(&self, n_levels: u32, weights: &[f64]) -> Option<Vec<f64>> {
        if weights.len() != self.len() {
            return None;
        }
        let mut counts = vec![0f64; n_levels as usize];
        for (i, &w) in weights.iter().enumerate() {
            counts[self.code(i) as usize] += w;
        }
        Some(counts)
    }

    /// Which of `n_levels` levels occur.
    pub fn presence(&self, n_levels: u32) -> Vec<bool> {
        self.marked_presence(n_levels)
            .unwrap_or_else(|| self.level_counts(n_levels).into_iter().map(|n| n > 0).collect())
    }

    /// Which of `n_levels` levels occur when that is known without counting (a factor
    /// of few levels, its codes marked present when checked); `None` otherwise.
    pub fn marked_presence(&self, n_levels: u32) -> Option<Vec<bool>> {
        match self {
            LevelCodes::Factor(f) => f.marked_presence(n_levels),
            _ => None,
        }
    }

    /// A copy of R's factor codes in the narrowest width (`None` for owned codes, already
    /// narrow): random reads of one-byte codes stay in cache where four-byte ones miss.
    pub fn compact_copy(&self, n_levels: u32) -> Option<LevelCodes<'static>> {
        match self {
            LevelCodes::Factor(f) => Some(LevelCodes::narrow_from_fn(f.n_rows(), n_levels, |i| f.code(i))),
            _ => None,
        }
    }

    /// The bytes `compact_copy` takes.
    pub fn compact_copy_bytes(&self, n_levels: u32) -> usize {
        match self {
            LevelCodes::Factor(f) => f.n_rows() * code_width(n_levels),
            _ => 0,
        }
    }
}

impl PartialEq<Vec<u32>> for LevelCodes<'_> {
    fn eq(&self, other: &Vec<u32>) -> bool {
        self.len() == other.len() && other.iter().enumerate().all(|(i, &c)| self.get(i) == c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowest_width_holds_every_level() {
        assert!(matches!(LevelCodes::narrow(vec![0, 255], 256), LevelCodes::U8(_)));
        assert!(matches!(LevelCodes::narrow(vec![0, 256], 257), LevelCodes::U16(_)));
        assert!(matches!(LevelCodes::narrow(vec![0, 65_536], 65_537), LevelCodes::U32(_)));
        assert_eq!(LevelCodes::narrow(vec![3, 256, 0], 300), vec![3, 256, 0]);
    }

    #[test]
    fn weighted_level_counts_add_each_rows_weight() {
        let codes = LevelCodes::narrow(vec![2, 0, 2, 1], 4);
        assert_eq!(codes.weighted_level_counts(4, &[1.5, 2.0, 3.0, 0.0]), Some(vec![2.0, 0.0, 4.5, 0.0]));
        assert_eq!(codes.weighted_level_counts(4, &[1.0]), None);
        let raw = [1, 2, NA_INTEGER, 2];
        let f = LevelCodes::Factor(FactorCodes::new(&raw, &[2, 0], 4, 3).unwrap());
        assert_eq!(f.weighted_level_counts(4, &[1.0, 10.0, 100.0, 1000.0]), Some(vec![1010.0, 0.0, 1.0, 100.0]));
    }

    #[test]
    fn factor_codes_read_through_the_table_and_na_is_missing() {
        let raw = [1, 2, NA_INTEGER, 2];
        let f = LevelCodes::Factor(FactorCodes::new(&raw, &[2, 0], 4, 3).unwrap());
        assert_eq!(f, vec![2, 0, 3, 0]);
        assert_eq!(f.presence(4), vec![true, false, true, true]);
    }

    #[test]
    fn factor_code_without_level_is_an_error() {
        assert!(FactorCodes::new(&[3], &[0, 1], 3, 2).is_err());
        assert!(FactorCodes::new(&[0], &[0, 1], 3, 2).is_err());
        assert!(FactorCodes::new(&[-5], &[0, 1], 3, 2).is_err());
        assert!(FactorCodes::new(&[1], &[5], 3, 2).is_err());
        assert!(FactorCodes::new(&[1], &[0], 3, 3).is_err());
        // Beside NA, which counts in the same slot, and past the rows counted in fours.
        let na = NA_INTEGER;
        for bad in [3, -5, i32::MAX, na + 1] {
            let raw = [na, 1, 2, na, 1, na, bad];
            let err = FactorCodes::new(&raw, &[0, 1], 3, 2).unwrap_err();
            assert!(err.to_string().contains(&format!("factor code {bad} has")), "{err}");
        }
        assert!(FactorCodes::new(&[na, 0, 1, 2, na], &[0, 1], 3, 2).is_err());
    }

    /// A synthesis's factor's levels present, marked when its codes are checked (fewer
    /// than `MASKED_CODES` codes) or read off its counts (more), are those of a look row
    /// by row, as are an original's (counted); its counts, made when first asked for,
    /// are those counted row by row; a code without a level is an error either way,
    /// wherever it lies among the lanes.
    #[test]
    fn factor_presence_marked_or_counted_matches_a_look_row_by_row() {
        let na = NA_INTEGER;
        let mut rng = crate::test_random::XorShift::new(11);
        for n_codes in [1usize, 2, 5, 31, 62, 63, 64, 65, 90] {
            let n_levels = n_codes as u32 + 1;
            // Union codes in a shuffled order, the last level missing.
            let remap: Vec<i32> = (0..n_codes as i32).rev().collect();
            for len in 0..40 {
                let raw: Vec<i32> = (0..len)
                    .map(|_| match rng.below(n_codes as u64 + 1) {
                        0 => na,
                        r => r as i32,
                    })
                    .collect();
                let codes = LevelCodes::Factor(FactorCodes::marked(&raw, &remap, n_levels, n_codes as u32).unwrap());
                let counted = LevelCodes::Factor(FactorCodes::new(&raw, &remap, n_levels, n_codes as u32).unwrap());
                let mut expected = vec![0u64; n_levels as usize];
                for &c in &raw {
                    expected[if c == na { n_codes } else { remap[c as usize - 1] as usize }] += 1;
                }
                let present: Vec<bool> = expected.iter().map(|&n| n > 0).collect();
                assert_eq!(codes.marked_presence(n_levels).is_some(), n_codes < MASKED_CODES, "{n_codes} codes");
                assert_eq!(codes.presence(n_levels), present, "{n_codes} codes, length {len}");
                assert_eq!(codes.level_counts(n_levels), expected, "{n_codes} codes, length {len}");
                assert!(counted.marked_presence(n_levels).is_none());
                assert_eq!(counted.presence(n_levels), present, "{n_codes} codes, length {len}, counted");
                assert_eq!(counted.level_counts(n_levels), expected, "{n_codes} codes, length {len}, counted");
                if len > 0 {
                    for bad in [0, -1, n_codes as i32 + 1, i32::MAX, na + 1] {
                        let mut with_bad = raw.clone();
                        with_bad[rng.below(len as u64) as usize] = bad;
                        for checked in [FactorCodes::new, FactorCodes::marked] {
                            let err = checked(&with_bad, &remap, n_levels, n_codes as u32).unwrap_err();
                            assert!(err.to_string().contains(&format!("factor code {bad} has")), "{err}");
                        }
                    }
                }
            }
        }
    }

    /// Each level's rows, NA's at the missing level, for columns of every length
    /// around the lanes of four, against a count row by row.
    #[test]
    fn factor_level_counts_match_a_count_row_by_row() {
        let na = NA_INTEGER;
        let mut state = 7u64;
        for len in 0..40 {
            let raw: Vec<i32> = (0..len)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    // NA or one of R's codes 1..=4.
                    match (state >> 33) % 5 {
                        0 => na,
                        r => r as i32,
                    }
                })
                .collect();
            let remap = [3, 0, 2, 1];
            let f = LevelCodes::Factor(FactorCodes::new(&raw, &remap, 5, 4).unwrap());
            let mut expected = vec![0u64; 5];
            for &c in &raw {
                expected[if c == na { 4 } else { remap[c as usize - 1] as usize }] += 1;
            }
            assert_eq!(f.level_counts(5), expected, "length {len}");
        }
    }

    /// `for_each_in` reads, for any range of rows, what `code` reads row by row, from
    /// owned codes of each width and from a factor's codes through its table.
    #[test]
    fn codes_read_in_sequence_equal_codes_read_by_row() {
        let na = NA_INTEGER;
        let raw = [2, na, 1, 3, 3, na, 1, 2, 2];
        let sources = [
            LevelCodes::narrow(vec![4, 0, 1, 3, 3, 4, 1, 2, 2], 5),
            LevelCodes::narrow(vec![4, 0, 300, 3, 3, 4, 1, 299, 2], 301),
            LevelCodes::narrow(vec![4, 0, 70_000, 3, 3, 4, 1, 2, 69_999], 70_001),
            LevelCodes::Factor(FactorCodes::new(&raw, &[3, 0, 2], 5, 4).unwrap()),
        ];
        for source in &sources {
            for start in 0..raw.len() {
                for end in start..=raw.len() {
                    let mut read = Vec::new();
                    with_codes!(source, |s| s.for_each_in(start..end, |i, c| read.push((i, c))));
                    let by_row: Vec<(usize, u32)> = (start..end).map(|r| (r - start, source.code(r))).collect();
                    assert_eq!(read, by_row, "rows {start}..{end}");
                }
            }
        }
    }
}
