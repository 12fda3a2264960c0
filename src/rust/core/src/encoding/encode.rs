//! Turning one variable, seen in the original and in every synthesis, into level codes
//! that mean the same label on every side.
//!
//! Factors arrive as R's 1-based codes plus a per-dataset `remap` (raw code -> union
//! code, worked out in R from the level labels). Numeric columns arrive as values; their
//! levels are the distinct values of all datasets together, ascending, then `NaN`.
//! Missing values (R's NA only; `NaN` is not missing) get a level of their own
//! (`missing_code`). Doubles that R prints alike are merged afterwards, on R's word
//! (`merge_numeric_levels`), since R's own `as.character()` defines the label.

pub use crate::codes::NA_INTEGER;
use crate::codes::{FactorCodes, LevelCodes};
use crate::error::{check_row_count, CoreError, CoreResult};
use crate::whole_numbers::{
    for_each_slot, offset_bytes, ranked_codes as ranked_double_codes, ranked_integer_codes, read_doubles,
};
use crate::workers::{chunks_by_cost, ShouldStop, Workers};
use hashbrown::HashMap;
use std::borrow::Cow;
use std::sync::OnceLock;

/// R's `NA_real_` is the NaN whose low 32 bits are 1954 (what `R_IsNA` tests); any
/// other NaN is the value `NaN`, a level of its own (definitions vignette 2.2).
pub fn is_r_na(x: f64) -> bool {
    x.is_nan() && x.to_bits() as u32 == R_NA_LOW_WORD
}

/// The low 32 bits of R's `NA_real_`.
pub const R_NA_LOW_WORD: u32 = 1954;

/// One dataset's column, borrowed from R.
#[derive(Debug, Clone, Copy)]
pub enum RawColumn<'a> {
    /// Factor codes (1-based, NA = `NA_INTEGER`) and the map raw code -> union code (0-based).
    Factor {
        codes: &'a [i32],
        remap: &'a [i32],
    },
    Double(&'a [f64]),
    Integer(&'a [i32]),
}

impl RawColumn<'_> {
    pub fn len(&self) -> usize {
        match self {
            RawColumn::Factor { codes, .. } => codes.len(),
            RawColumn::Double(x) => x.len(),
            RawColumn::Integer(x) => x.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One variable as it arrives: its column in the original and in every synthesis.
pub enum VarInput<'a> {
    /// Factor columns on a union of `n_levels` levels, the missing one at `missing_code`.
    Factor { columns: Vec<RawColumn<'a>>, n_levels: u32, missing_code: u32 },
    /// Double or integer columns; the levels are their distinct values.
    Numeric { columns: Vec<RawColumn<'a>> },
}

/// A variable coded on the union of its levels, one code vector per dataset
/// (dataset 0 is the original, 1..=m the syntheses).
#[derive(Debug, Clone)]
pub struct EncodedVar<'a> {
    pub codes: Vec<LevelCodes<'a>>,
    /// Number of levels including the missing level.
    pub n_levels: u32,
    pub missing_code: u32,
    /// For numeric variables, the value of each non-missing level: ascending, then
    /// `NaN` last when it occurs.
    pub numeric_levels: Option<Vec<f64>>,
    /// Whether each dataset has a record at the missing level.
    pub has_missing: Vec<bool>,
    /// Whether some non-missing level occurs in the original but not in some
    /// synthesis, or in some synthesis but not in the original.
    pub one_sided: bool,
    /// For numeric variables, each dataset's values as they arrived (before levels
    /// that print alike are merged): the magnitudes the distances of section 11 use,
    /// kept beside the codes. `None` for factors.
    pub magnitudes: Option<Vec<RawColumn<'a>>>,
    /// Per dataset, its records at each level once counted (`level_counts`), kept for
    /// variables of at most `KEPT_COUNT_LEVELS` levels: counted when the variable is
    /// made (which levels occur) or, for a synthesis's factor whose codes were only
    /// marked and whole numbers only marked, when first asked for; read for R (levels
    /// on one side, distinct values) and for the targets' margins.
    counted: Vec<OnceLock<Vec<u64>>>,
}

/// Variables of up to this many levels keep their level counts (`EncodedVar::counted`,
/// at most half a megabyte a dataset); wider ones count again when asked.
const KEPT_COUNT_LEVELS: u32 = 1 << 16;

impl<'a> EncodedVar<'a> {
    /// Builds the variable and works out what follows from its codes.
    pub fn new(codes: Vec<LevelCodes<'a>>, n_levels: u32, missing_code: u32, numeric_levels: Option<Vec<f64>>) -> Self {
        use rayon::prelude::*;
        let counted: Vec<OnceLock<Vec<u64>>> = codes.iter().map(|_| OnceLock::new()).collect();
        let present: Vec<Vec<bool>> = codes
            .par_iter()
            .zip(counted.par_iter())
            .map(|(c, kept)| {
                // A synthesis's factor of few levels: its levels present were marked when
                // its codes were checked, and its rows are counted only if asked for.
                if let Some(present) = c.marked_presence(n_levels) {
                    return present;
                }
                let counts = c.level_counts(n_levels);
                let present = counts.iter().map(|&n| n > 0).collect();
                if n_levels <= KEPT_COUNT_LEVELS {
                    // A new cell: it takes the counts.
                    let _ = kept.set(counts);
                }
                present
            })
            .collect();
        Self::with_presence(codes, n_levels, missing_code, numeric_levels, present).with_counted(counted)
    }

    /// The records of dataset `d` at each level: kept ones, or counted now.
    pub fn level_counts(&self, d: usize) -> Cow<'_, [u64]> {
        match self.counted.get(d) {
            Some(kept) if self.n_levels <= KEPT_COUNT_LEVELS => {
                Cow::Borrowed(kept.get_or_init(|| self.codes[d].level_counts(self.n_levels)))
            }
            _ => Cow::Owned(self.codes[d].level_counts(self.n_levels)),
        }
    }

    /// The same variable with the counts `counted` kept (one cell per dataset).
    fn with_counted(mut self, counted: Vec<OnceLock<Vec<u64>>>) -> Self {
        self.counted = counted;
        self
    }

    /// As `new`, given which levels occur in each dataset.
    fn with_presence(
        codes: Vec<LevelCodes<'a>>,
        n_levels: u32,
        missing_code: u32,
        numeric_levels: Option<Vec<f64>>,
        present: Vec<Vec<bool>>,
    ) -> Self {
        let has_missing = present.iter().map(|p| p[missing_code as usize]).collect();
        let one_sided = one_sided(&present, missing_code);
        let counted = codes.iter().map(|_| OnceLock::new()).collect();
        EncodedVar { codes, n_levels, missing_code, numeric_levels, has_missing, one_sided, magnitudes: None, counted }
    }

    /// The same variable with its values kept beside the codes.
    fn with_magnitudes(mut self, columns: &[RawColumn<'a>]) -> Self {
        self.magnitudes = Some(columns.to_vec());
        self
    }

    /// From plain `u32` codes (tests, small data), stored in the narrowest width.
    pub fn from_u32(codes: Vec<Vec<u32>>, n_levels: u32, missing_code: u32, numeric_levels: Option<Vec<f64>>) -> Self {
        let codes = codes.into_iter().map(|c| LevelCodes::narrow(c, n_levels)).collect();
        EncodedVar::new(codes, n_levels, missing_code, numeric_levels)
    }

    /// Rows of each dataset.
    pub fn dataset_rows(&self) -> Vec<usize> {
        self.codes.iter().map(|c| c.len()).collect()
    }
}

/// Whether some non-missing level is observed on one side of an (original, synthesis)
/// pair only, from the levels present in each dataset.
fn one_sided(present: &[Vec<bool>], missing_code: u32) -> bool {
    let Some((orig, syns)) = present.split_first() else {
        return false;
    };
    syns.iter().any(|syn| (0..orig.len()).any(|l| l != missing_code as usize && orig[l] != syn[l]))
}

fn check_rows(columns: &[RawColumn<'_>]) -> CoreResult<()> {
    for (d, c) in columns.iter().enumerate() {
        check_row_count(c.len(), d)?;
    }
    Ok(())
}

/// Bits that identify a numeric value: -0 and 0 are one value, every NaN is one value.
fn value_key(x: f64) -> u64 {
    if x == 0.0 {
        0.0f64.to_bits()
    } else if x.is_nan() {
        f64::NAN.to_bits()
    } else {
        x.to_bits()
    }
}

/// First pass over one numeric column: local ids in order of first appearance
/// (`u32::MAX` for missing) and the value of each local id.
fn local_numeric_codes(col: RawColumn<'_>) -> CoreResult<(Vec<u32>, Vec<f64>)> {
    let mut ids: HashMap<u64, u32> = HashMap::new();
    let mut values: Vec<f64> = Vec::new();
    let mut out = crate::memory::with_capacity(col.len());
    let mut push_value = |x: f64, out: &mut Vec<u32>| {
        let next = values.len() as u32;
        let id = *ids.entry(value_key(x)).or_insert_with(|| {
            values.push(if x == 0.0 {
                0.0
            } else if x.is_nan() {
                f64::NAN
            } else {
                x
            });
            next
        });
        out.push(id);
    };
    match col {
        RawColumn::Double(x) => {
            for &v in x {
                if is_r_na(v) {
                    out.push(u32::MAX);
                } else {
                    push_value(v, &mut out);
                }
            }
        }
        RawColumn::Integer(x) => {
            for &v in x {
                if v == NA_INTEGER {
                    out.push(u32::MAX);
                } else {
                    push_value(v as f64, &mut out);
                }
            }
        }
        RawColumn::Factor { .. } => {
            return Err(CoreError::new("internal: a factor column was given as numeric"));
        }
    }
    Ok((out, values))
}

/// Widest range of whole numbers that `encode_whole_numbers` codes through a table.
const DIRECT_SPAN: i64 = 1 << 22;

/// Values beyond this magnitude are not whole numbers to the direct path (doubles hold
/// every whole number up to it exactly).
const WHOLE_LIMIT: u64 = 1 << 53;

/// A column's smallest and largest value and whether a value is missing, when every
/// value is a whole number within `WHOLE_LIMIT` or missing; `None` otherwise (a
/// fraction, `NaN`, an infinity, a factor). `(i64::MAX, i64::MIN, true)` when every
/// value is missing.
fn whole_range(col: &RawColumn<'_>) -> Option<(i64, i64, bool)> {
    match col {
        RawColumn::Integer(x) => {
            let (lo, hi, missing) = integer_range(x);
            if lo > hi {
                return Some((i64::MAX, i64::MIN, missing));
            }
            Some((lo as i64, hi as i64, missing))
        }
        RawColumn::Double(x) => whole_doubles_range(x),
        RawColumn::Factor { .. } => None,
    }
}

/// The smallest and largest of integers `x` other than R's NA, and whether one is NA;
/// `(i32::MAX, i32::MIN, _)` when all are. Where the CPU has AVX2, compiled for it: its
/// vectors have the comparisons of 32-bit integers that the baseline's lack (more than
/// twice as fast on Adult's columns).
fn integer_range(x: &[i32]) -> (i32, i32, bool) {
    crate::avx2_if_present!(integer_range_portable(x: &[i32]) -> (i32, i32, bool))
}

#[inline(always)]
fn integer_range_portable(x: &[i32]) -> (i32, i32, bool) {
    // Without branches, so that it is vectorized: R's NA (i32::MIN) raises no bound.
    let (mut lo, mut hi, mut missing) = (i32::MAX, i32::MIN, false);
    for &v in x {
        let na = v == NA_INTEGER;
        missing |= na;
        lo = lo.min(if na { i32::MAX } else { v });
        hi = hi.max(v);
    }
    (lo, hi, missing)
}

/// `whole_range` of doubles: first a pass without branches that accepts columns of
/// whole numbers below 2^51 in magnitude, NaN allowed (most numeric keys and targets);
/// a column it cannot accept (a fraction, an infinity, a larger number) is read again
/// value by value (`exact_whole_doubles_range`), which decides.
fn whole_doubles_range(x: &[f64]) -> Option<(i64, i64, bool)> {
    quick_whole_doubles_range(x).unwrap_or_else(|| exact_whole_doubles_range(x))
}

/// `Some(whole_range)` when every value is a whole number below 2^51 in magnitude or
/// NaN (`Some(None)` when a NaN is not R's NA: a level of its own); `None` when this
/// read cannot tell (then `exact_whole_doubles_range` decides): one read without
/// branches (whole_numbers.rs). Twice as fast as the exact pass on columns of 5,000
/// values without AVX2, eight times with it; a column with a fraction is read once
/// more than before (the exact pass stops at the first), a small part of the hashing
/// that then codes it.
fn quick_whole_doubles_range(x: &[f64]) -> Option<Option<(i64, i64, bool)>> {
    let read = read_doubles(x);
    let limit = (1u64 << 51) as f64;
    if read.fraction || read.lo < -limit || read.hi > limit {
        return None;
    }
    if read.other_nan {
        return Some(None);
    }
    if read.lo > read.hi {
        return Some(Some((i64::MAX, i64::MIN, read.nan)));
    }
    Some(Some((read.lo as i64, read.hi as i64, read.nan)))
}

/// `whole_range` of doubles, value by value.
fn exact_whole_doubles_range(x: &[f64]) -> Option<(i64, i64, bool)> {
    // `as` saturates (and sends NaN to 0), so the round trip holds only for whole
    // numbers within i64; NaN (R's NA among them), fractions and infinities fail it:
    // R's NA is missing, any other ends the scan.
    let (mut lo, mut hi, mut missing) = (i64::MAX, i64::MIN, false);
    for &v in x {
        let w = v as i64;
        if w as f64 == v {
            lo = lo.min(w);
            hi = hi.max(w);
        } else if is_r_na(v) {
            missing = true;
        } else {
            return None;
        }
    }
    if lo > hi {
        return Some((i64::MAX, i64::MIN, missing));
    }
    if lo.unsigned_abs() > WHOLE_LIMIT || hi.unsigned_abs() > WHOLE_LIMIT {
        return None;
    }
    Some((lo, hi, missing))
}

/// The offset of `v` from `lo`, both whole numbers of a column that `whole_range`
/// accepted, with `v - lo` below `DIRECT_SPAN`.
#[inline(always)]
fn offset_of(v: f64, lo: f64) -> usize {
    debug_assert!((0.0..DIRECT_SPAN as f64).contains(&(v - lo)));
    // SAFETY: `v - lo` is a whole number in 0..DIRECT_SPAN (`whole_range` accepted the
    // column and set `lo`; the span is at most DIRECT_SPAN), so it is finite and fits
    // u32; the unchecked conversion skips the saturating one's fix-ups.
    unsafe { (v - lo).to_int_unchecked::<u32>() as usize }
}

/// Marks in `present` (all false, as long as the span) each value of a column that
/// `whole_range` accepted, at its offset from `lo`.
fn mark_whole_values(col: &RawColumn<'_>, lo: i64, present: &mut [bool]) {
    crate::avx2_if_present!(mark_whole_values_portable(col: &RawColumn<'_>, lo: i64, present: &mut [bool]) -> ())
}

#[inline(always)]
fn mark_whole_values_portable(col: &RawColumn<'_>, lo: i64, present: &mut [bool]) {
    match col {
        RawColumn::Integer(x) => {
            x.iter().filter(|&&v| v != NA_INTEGER).for_each(|&v| present[(v as i64 - lo) as usize] = true)
        }
        RawColumn::Double(x) => {
            // Every value is a whole number within 2^53 or missing (`whole_range`): the
            // difference is exact, less than the span. NaN marks a last slot, so that no
            // value branches.
            let span = present.len() as u32;
            let mut marked = vec![false; present.len() + 1];
            for_each_slot(x, lo as f64, span, |_, slot| marked[slot] = true);
            present.copy_from_slice(&marked[..present.len()]);
        }
        RawColumn::Factor { .. } => {}
    }
}

/// Counts in `counts` each value of a column that `whole_range` accepted, at its
/// offset from `lo` (the span fits `counts`); returns its missing values. Columns have
/// at most 2^31 - 1 rows (`check_rows`): a count fits. Compiled for AVX2 where the CPU
/// has it, for the offsets of doubles.
fn count_whole_values(col: &RawColumn<'_>, lo: i64, counts: &mut [u32]) -> u64 {
    crate::avx2_if_present!(count_whole_values_portable(col: &RawColumn<'_>, lo: i64, counts: &mut [u32]) -> u64)
}

#[inline(always)]
fn count_whole_values_portable(col: &RawColumn<'_>, lo: i64, counts: &mut [u32]) -> u64 {
    // Lanes cost their zeroing and adding up, four words an offset: worth it for a
    // column of more rows than that (runs of one value are then likely).
    if counts.len() <= LANED_SPAN && 2 * counts.len() <= col.len() {
        return count_whole_values_in_lanes(col, lo, counts);
    }
    count_whole_values_one_by_one(col, lo, counts)
}

/// Spans up to which `count_whole_values` counts in four lanes (four counts an offset,
/// 256 KiB at most, within the second-level cache) a column of at least twice as many
/// rows, so that consecutive rows of one value, as most of a column such as capital
/// losses (0, of a span of 4,357), do not wait on each other's increment: counted one
/// by one, Adult's capital.loss took three times as long.
const LANED_SPAN: usize = 1 << 14;

/// `count_whole_values` in four lanes, the missing values in a last slot.
#[inline(always)]
fn count_whole_values_in_lanes(col: &RawColumn<'_>, lo: i64, counts: &mut [u32]) -> u64 {
    const LANES: usize = 4;
    let span = counts.len();
    let mut lanes = vec![[0u32; LANES]; span + 1];
    #[inline(always)]
    fn add<T: Copy>(values: &[T], lanes: &mut [[u32; LANES]], slot: impl Fn(T) -> usize) {
        let mut quads = values.chunks_exact(LANES);
        for quad in quads.by_ref() {
            for (lane, &v) in quad.iter().enumerate() {
                lanes[slot(v)][lane] += 1;
            }
        }
        for &v in quads.remainder() {
            lanes[slot(v)][0] += 1;
        }
    }
    match col {
        RawColumn::Integer(x) => {
            add(x, &mut lanes, |v| if v == NA_INTEGER { span } else { (v as i64 - lo) as usize });
        }
        RawColumn::Double(x) => {
            // NaN counted in the last slot, without a branch.
            for_each_slot(x, lo as f64, span as u32, |i, slot| lanes[slot][i % LANES] += 1);
        }
        RawColumn::Factor { .. } => {}
    }
    for (count, lane) in counts.iter_mut().zip(&lanes) {
        *count += lane.iter().sum::<u32>();
    }
    lanes[span].iter().map(|&n| n as u64).sum()
}

/// `count_whole_values` one value at a time.
#[inline(always)]
fn count_whole_values_one_by_one(col: &RawColumn<'_>, lo: i64, counts: &mut [u32]) -> u64 {
    let mut missing = 0u64;
    match col {
        RawColumn::Integer(x) => x.iter().for_each(|&v| {
            if v == NA_INTEGER {
                missing += 1;
            } else {
                counts[(v as i64 - lo) as usize] += 1;
            }
        }),
        RawColumn::Double(x) => {
            let lo = lo as f64;
            x.iter().for_each(|&v| {
                if v.is_nan() {
                    missing += 1;
                } else {
                    counts[offset_of(v, lo)] += 1;
                }
            })
        }
        RawColumn::Factor { .. } => {}
    }
    missing
}

/// The codes of a column that `whole_range` accepted, each value's level its offset
/// from `lo` (every value of the range occurs), or `missing`.
fn offset_codes(col: &RawColumn<'_>, lo: i64, n_levels: u32, missing: u32) -> LevelCodes<'static> {
    crate::avx2_if_present!(offset_codes_portable(col: &RawColumn<'_>, lo: i64, n_levels: u32, missing: u32) -> LevelCodes<'static>)
}

#[inline(always)]
fn offset_codes_portable(col: &RawColumn<'_>, lo: i64, n_levels: u32, missing: u32) -> LevelCodes<'static> {
    match col {
        RawColumn::Double(x) if n_levels <= 256 => LevelCodes::U8(offset_bytes(x, lo as f64, missing as u8)),
        _ => whole_codes(col, lo, n_levels, missing, |o| o as u32),
    }
}

/// The codes of a column that `whole_range` accepted, each value's level `rank[offset
/// from lo]`, or `missing`.
fn ranked_codes(col: &RawColumn<'_>, lo: i64, n_levels: u32, missing: u32, rank: &[u32]) -> LevelCodes<'static> {
    crate::avx2_if_present!(ranked_codes_portable(col: &RawColumn<'_>, lo: i64, n_levels: u32, missing: u32, rank: &[u32]) -> LevelCodes<'static>)
}

#[inline(always)]
fn ranked_codes_portable(
    col: &RawColumn<'_>,
    lo: i64,
    n_levels: u32,
    missing: u32,
    rank: &[u32],
) -> LevelCodes<'static> {
    match col {
        RawColumn::Double(x) if n_levels <= 256 => LevelCodes::U8(ranked_double_codes(x, lo as f64, rank, missing)),
        RawColumn::Double(x) if n_levels <= 1 << 16 => {
            LevelCodes::U16(ranked_double_codes(x, lo as f64, rank, missing))
        }
        RawColumn::Integer(x) => match i32::try_from(lo) {
            // `lo` of an integer column's variable is within i32 unless a double column
            // of the variable is beyond (its offsets are then read one by one).
            Ok(lo) if n_levels <= 256 => LevelCodes::U8(ranked_integer_codes(x, lo, rank, missing)),
            Ok(lo) if n_levels <= 1 << 16 => LevelCodes::U16(ranked_integer_codes(x, lo, rank, missing)),
            _ => whole_codes(col, lo, n_levels, missing, |o| rank[o]),
        },
        _ => whole_codes(col, lo, n_levels, missing, |o| rank[o]),
    }
}

/// The codes of a column that `whole_range` accepted: `code(offset from lo)`, or
/// `missing` for a missing value, in the narrowest width for `n_levels` levels.
#[inline(always)]
fn whole_codes<'a>(
    col: &RawColumn<'_>,
    lo: i64,
    n_levels: u32,
    missing: u32,
    code: impl Fn(usize) -> u32,
) -> LevelCodes<'a> {
    match col {
        RawColumn::Integer(x) => LevelCodes::narrow_from_iter(
            x.len(),
            n_levels,
            x.iter().map(|&v| if v == NA_INTEGER { missing } else { code((v as i64 - lo) as usize) }),
        ),
        RawColumn::Double(x) => {
            let lo = lo as f64;
            LevelCodes::narrow_from_iter(
                x.len(),
                n_levels,
                x.iter().map(|&v| if v.is_nan() { missing } else { code(offset_of(v, lo)) }),
            )
        }
        RawColumn::Factor { .. } => LevelCodes::U8(Vec::new()),
    }
}

/// The common case of numeric keys and targets (ages, counts, rounded amounts): whole
/// numbers in a narrow range, coded by offset (every value of the range occurs) or
/// through a table instead of hashing every value.
/// `None` when the values are not such; the codes are those `encode_numeric` defines.
fn encode_whole_numbers<'a>(columns: &[RawColumn<'_>]) -> Option<EncodedVar<'a>> {
    use rayon::prelude::*;
    // Per column: the smallest and largest value, and whether a value is missing.
    let ranges: Vec<Option<(i64, i64, bool)>> = columns.par_iter().map(whole_range).collect();
    let ranges: Vec<(i64, i64, bool)> = ranges.into_iter().collect::<Option<_>>()?;
    let lo = ranges.iter().map(|r| r.0).min()?;
    let hi = ranges.iter().map(|r| r.1).max()?;
    if lo > hi {
        return None; // every value missing: the general path handles it
    }
    let span = hi.checked_sub(lo)?.checked_add(1)?;
    if span > DIRECT_SPAN {
        return None;
    }
    let span = span as usize;
    // Each column's values counted by offset when the variable keeps its level counts
    // (`KEPT_COUNT_LEVELS`; then no later pass counts them) and the span is no wider
    // than the longest column, else only marked: the values of a wide span (SD2011's
    // incomes: 407 of some 20,000) are counted by level when asked, not by offset.
    let longest = columns.iter().map(|c| c.len()).max().unwrap_or(0);
    let by_offset = span < KEPT_COUNT_LEVELS as usize && span <= longest;
    let counted_by_offset: Option<Vec<(Vec<u32>, u64)>> = by_offset.then(|| {
        columns
            .par_iter()
            .map(|c| {
                let mut counts = vec![0u32; span];
                let missing = count_whole_values(c, lo, &mut counts);
                (counts, missing)
            })
            .collect()
    });
    let present: Vec<Vec<bool>> = match &counted_by_offset {
        Some(counted) => counted.iter().map(|(counts, _)| counts.iter().map(|&n| n > 0).collect()).collect(),
        None => columns
            .par_iter()
            .map(|c| {
                let mut p = vec![false; span];
                mark_whole_values(c, lo, &mut p);
                p
            })
            .collect(),
    };
    // The values present anywhere: one OR of the columns' tables (a wide span, such as
    // incomes, is read once per column in bulk, then once whole).
    let mut anywhere = vec![false; span];
    for p in &present {
        anywhere.iter_mut().zip(p).for_each(|(a, &x)| *a |= x);
    }
    let offsets: Vec<usize> = anywhere.iter().enumerate().filter(|(_, &x)| x).map(|(o, _)| o).collect();
    let levels: Vec<f64> = offsets.iter().map(|&o| (lo + o as i64) as f64).collect();
    let missing_code = levels.len() as u32;
    let n_levels = missing_code + 1;
    let codes: Vec<LevelCodes<'a>> = if offsets.len() == span {
        // Every value of the range occurs (ages, hours): a value's level is its offset,
        // and the codes are a subtraction, without a table.
        columns.par_iter().map(|c| offset_codes(c, lo, n_levels, missing_code)).collect()
    } else {
        // Read only at the offsets present: zeroed memory elsewhere is never used.
        let mut rank = vec![0u32; span];
        for (level, &o) in offsets.iter().enumerate() {
            rank[o] = level as u32;
        }
        columns.par_iter().map(|c| ranked_codes(c, lo, n_levels, missing_code, &rank)).collect()
    };
    // Which levels occur in each column, read at the levels' offsets.
    let present_by_level: Vec<Vec<bool>> = present
        .iter()
        .zip(&ranges)
        .map(|(p, &(_, _, missing))| offsets.iter().map(|&o| p[o]).chain([missing]).collect())
        .collect();
    let encoded = EncodedVar::with_presence(codes, n_levels, missing_code, Some(levels), present_by_level);
    Some(match counted_by_offset {
        Some(counted) => encoded.with_counted(
            counted
                .iter()
                .map(|(counts, missing)| {
                    let by_level: Vec<u64> = offsets.iter().map(|&o| counts[o] as u64).chain([*missing]).collect();
                    OnceLock::from(by_level)
                })
                .collect(),
        ),
        // Values only marked: a variable with levels on one side only has each side's
        // records by level read next (for R's label checks), counted here from the
        // codes, side by side, rather than one side after the other when asked.
        None if encoded.one_sided && n_levels <= KEPT_COUNT_LEVELS => {
            let counted = encoded.codes.par_iter().map(|c| OnceLock::from(c.level_counts(n_levels))).collect();
            encoded.with_counted(counted)
        }
        None => encoded,
    })
}

/// Encodes a numeric variable over all its datasets: levels are the distinct values
/// of all datasets in ascending order, then `NaN`, then the missing level.
pub fn encode_numeric<'a>(columns: &[RawColumn<'a>]) -> CoreResult<EncodedVar<'a>> {
    check_rows(columns)?;
    if let Some(encoded) = encode_whole_numbers(columns) {
        return Ok(encoded.with_magnitudes(columns));
    }
    encode_by_hashing(columns)
}

/// `encode_numeric` for any values: each column's distinct values hashed, then sorted
/// together.
fn encode_by_hashing<'a>(columns: &[RawColumn<'a>]) -> CoreResult<EncodedVar<'a>> {
    use rayon::prelude::*;
    let locals: Vec<(Vec<u32>, Vec<f64>)> =
        columns.par_iter().map(|c| local_numeric_codes(*c)).collect::<CoreResult<_>>()?;
    let mut all: Vec<f64> = locals.iter().flat_map(|(_, v)| v.iter().copied()).filter(|v| !v.is_nan()).collect();
    all.sort_by(|a, b| a.total_cmp(b));
    all.dedup_by(|a, b| value_key(*a) == value_key(*b));
    if locals.iter().any(|(_, v)| v.iter().any(|x| x.is_nan())) {
        all.push(f64::NAN);
    }
    let global: HashMap<u64, u32> = all.iter().enumerate().map(|(i, v)| (value_key(*v), i as u32)).collect();
    let missing_code = all.len() as u32;
    let n_levels = missing_code + 1;
    let codes: Vec<LevelCodes<'static>> = locals
        .into_par_iter()
        .map(|(local, values)| {
            let to_global: Vec<u32> = values.iter().map(|v| global[&value_key(*v)]).collect();
            LevelCodes::narrow_from_fn(local.len(), n_levels, |i| {
                let c = local[i];
                if c == u32::MAX {
                    missing_code
                } else {
                    to_global[c as usize]
                }
            })
        })
        .collect();
    Ok(EncodedVar::new(codes, n_levels, missing_code, Some(all)).with_magnitudes(columns))
}

/// Encodes a factor variable over all its datasets: R's codes are kept, borrowed.
pub fn encode_factor<'a>(columns: &[RawColumn<'a>], n_levels: u32, missing_code: u32) -> CoreResult<EncodedVar<'a>> {
    use rayon::prelude::*;
    check_rows(columns)?;
    // The original's rows are counted (its margins are wanted); a synthesis's levels
    // present are only marked, where that is quicker.
    let codes: Vec<LevelCodes<'a>> = columns
        .par_iter()
        .enumerate()
        .map(|(d, c)| match *c {
            RawColumn::Factor { codes, remap } if d == 0 => {
                FactorCodes::new(codes, remap, n_levels, missing_code).map(LevelCodes::Factor)
            }
            RawColumn::Factor { codes, remap } => {
                FactorCodes::marked(codes, remap, n_levels, missing_code).map(LevelCodes::Factor)
            }
            _ => Err(CoreError::new("internal: a numeric column was given as a factor")),
        })
        .collect::<CoreResult<_>>()?;
    Ok(EncodedVar::new(codes, n_levels, missing_code, None))
}

/// Rows encoded between two interrupt checks.
const ENCODE_CHUNK_ROWS: usize = 1 << 23;

/// Encodes every variable, in groups of variables of a few million rows (small data in
/// one trip to the pool), asking between groups whether to stop.
pub fn encode_all<'a>(
    workers: &Workers,
    vars: &[VarInput<'a>],
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<EncodedVar<'a>>> {
    use rayon::prelude::*;
    // Variables in groups of a few million rows: small data in one trip to the pool.
    let rows: Vec<usize> = vars
        .iter()
        .map(|v| match v {
            VarInput::Factor { columns, .. } | VarInput::Numeric { columns } => columns.iter().map(|c| c.len()).sum(),
        })
        .collect();
    let mut out = Vec::with_capacity(vars.len());
    for group in chunks_by_cost(&rows, ENCODE_CHUNK_ROWS) {
        let encoded: Vec<EncodedVar<'a>> = workers.chunk(should_stop, || {
            vars[group]
                .par_iter()
                .map(|v| match v {
                    VarInput::Factor { columns, n_levels, missing_code } => {
                        encode_factor(columns, *n_levels, *missing_code)
                    }
                    VarInput::Numeric { columns } => encode_numeric(columns),
                })
                .collect::<CoreResult<_>>()
        })??;
        out.extend(encoded);
    }
    Ok(out)
}

/// Largest relative gap between two doubles that R might print alike: equal labels
/// mean equal values at 15 significant digits (or, for 16+ digit integers printed in
/// fixed notation, within 1), a relative gap below 1e-14; 2e-13 leaves a margin.
pub const CLOSE_RELATIVE_GAP: f64 = 2e-13;

/// Indices `i` of sorted numeric levels such that levels `i` and `i + 1` are close
/// enough that R might print them alike; the R side asks `as.character()` about these
/// only, instead of printing every level.
pub fn close_numeric_pairs(levels: &[f64]) -> Vec<usize> {
    levels
        .windows(2)
        .enumerate()
        .filter(|(_, w)| {
            let (a, b) = (w[0], w[1]);
            a.is_finite() && b.is_finite() && (b - a) <= CLOSE_RELATIVE_GAP * a.abs().max(b.abs())
        })
        .map(|(i, _)| i)
        .collect()
}

/// Merges numeric levels that are one level for R (two doubles whose labels print the
/// same, definitions vignette 2.2). `first_of[i]` is the first non-missing level with level i's
/// label; the merged level keeps that level's (smallest) value.
pub fn merge_numeric_levels(workers: &Workers, var: &mut EncodedVar<'_>, first_of: &[u32]) -> CoreResult<()> {
    use rayon::prelude::*;
    let values =
        var.numeric_levels.as_ref().ok_or_else(|| CoreError::new("internal: only numeric levels can be merged"))?;
    let n = values.len();
    if first_of.len() != n || var.missing_code as usize != n {
        return Err(CoreError::new(format!("internal: {} level groups given for {n} numeric levels", first_of.len())));
    }
    let mut new_of = vec![0u32; n + 1];
    let mut kept: Vec<f64> = Vec::new();
    for (i, &f) in first_of.iter().enumerate() {
        let f = f as usize;
        if f > i || first_of[f] as usize != f {
            return Err(CoreError::new(format!("internal: level {i} is grouped with {f}, not a first level")));
        }
        if f == i {
            new_of[i] = kept.len() as u32;
            kept.push(values[i]);
        } else {
            new_of[i] = new_of[f];
        }
    }
    let missing_code = kept.len() as u32;
    new_of[n] = missing_code;
    let n_levels = missing_code + 1;
    let old_codes = std::mem::take(&mut var.codes);
    // Both in the pool: `EncodedVar::new` counts the levels present in parallel too.
    let merged = workers.run(|| {
        let codes: Vec<LevelCodes<'_>> = old_codes
            .into_par_iter()
            .map(|c| LevelCodes::narrow_from_fn(c.len(), n_levels, |i| new_of[c.get(i) as usize]))
            .collect();
        EncodedVar::new(codes, n_levels, missing_code, Some(kept))
    });
    // The values as they arrived stay: merging changes levels, never magnitudes.
    let magnitudes = var.magnitudes.take();
    *var = merged;
    var.magnitudes = magnitudes;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::never_stop;

    /// R's `NA_real_`.
    const NA_REAL: f64 = f64::from_bits(0x7FF0_0000_0000_07A2);

    #[test]
    fn quick_range_of_doubles_agrees_with_the_exact_pass() {
        let na = f64::from_bits(0x7FF0_0000_0000_07A2);
        let big = (1u64 << 51) as f64;
        let cases: Vec<Vec<f64>> = vec![
            vec![],
            vec![na, na],
            vec![3.0, na, -2.0, 7.0, 0.0, -0.0],
            vec![1.5, 2.0],
            vec![f64::NAN, 1.0],
            vec![f64::INFINITY, 1.0],
            vec![f64::NEG_INFINITY],
            vec![big, -big, 1.0],
            vec![big + 2.0, 1.0],
            vec![(1u64 << 53) as f64, na],
            vec![(1u64 << 54) as f64],
            vec![-0.0; 9],
            // Beyond 2^51 the shift's doubles are half a unit apart: -(2^51) - 0.5
            // survives the round trip, so the bound must hold it back.
            vec![f64::from_bits(0xC320_0000_0000_0001), 1.0],
            vec![-big - 0.5, na],
            // R's NA as arithmetic leaves it (quiet), and with the sign bit set: NA
            // still; a NaN of another low word is not.
            vec![f64::from_bits(0x7FF8_0000_0000_07A2), 1.0],
            vec![f64::from_bits(0xFFF8_0000_0000_07A2), 1.0, 2.0, 3.0, 4.0],
            vec![f64::from_bits(0x7FF8_0000_0000_07A3), 1.0],
            vec![f64::from_bits(1), 1.0],
            vec![f64::MIN_POSITIVE, 0.0],
        ];
        let mut next = {
            let mut s = 11u64;
            move || {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                s >> 33
            }
        };
        // Random columns of every length up to 13 (the four lanes and their tails), of
        // whole numbers, NA, NaN, fractions and large values.
        let random: Vec<Vec<f64>> = (0..2000)
            .map(|case| {
                (0..case % 14)
                    .map(|_| match next() % 40 {
                        0 => na,
                        1 if case % 3 == 0 => f64::NAN,
                        2 if case % 5 == 0 => 0.25,
                        3 if case % 7 == 0 => big * 4.0,
                        _ => next() as f64 % 1000.0 - 500.0,
                    })
                    .collect()
            })
            .collect();
        for x in cases.iter().chain(&random) {
            let quick = quick_whole_doubles_range(x);
            let exact = exact_whole_doubles_range(x);
            if let Some(decided) = quick {
                assert_eq!(decided, exact, "{x:?}");
            }
            assert_eq!(whole_doubles_range(x), exact, "{x:?}");
        }
        // Whole numbers below 2^51 and NA (signalling or quiet, either sign) are decided
        // by the quick pass; beyond 2^51 it leaves the column to the exact one.
        assert_eq!(quick_whole_doubles_range(&[3.0, na, -2.0, 7.0, -0.0]), Some(Some((-2, 7, true))));
        assert_eq!(quick_whole_doubles_range(&[f64::from_bits(0xFFF8_0000_0000_07A2), 1.0]), Some(Some((1, 1, true))));
        assert_eq!(quick_whole_doubles_range(&[f64::NAN, 1.0]), Some(None));
        assert_eq!(quick_whole_doubles_range(&[f64::from_bits(0xC320_0000_0000_0001)]), None);
        assert_eq!(whole_doubles_range(&[f64::from_bits(0xC320_0000_0000_0001)]), None);
    }

    /// Counting in lanes gives the counts of counting one by one: integers and doubles,
    /// with missing values, runs of one value, and lengths that leave a remainder.
    #[test]
    fn whole_values_counted_in_lanes_as_one_by_one() {
        let mut rng = crate::test_random::XorShift::new(11);
        for case in 0..40 {
            let span = 1 + rng.below(LANED_SPAN as u64) as usize;
            let n = rng.below(400) as usize;
            let lo = rng.below(50) as i64 - 25;
            let value = |rng: &mut crate::test_random::XorShift| lo + rng.below(span as u64) as i64;
            let mut ints = Vec::with_capacity(n);
            while ints.len() < n {
                let v = if rng.below(8) == 0 { NA_INTEGER } else { value(&mut rng) as i32 };
                // Runs of one value, as most of a column of capital losses.
                let run = 1 + rng.below(6) as usize;
                ints.extend(std::iter::repeat_n(v, run.min(n - ints.len())));
            }
            let r_na = f64::from_bits(0x7FF0_0000_0000_0000 | R_NA_LOW_WORD as u64);
            let doubles: Vec<f64> = ints.iter().map(|&v| if v == NA_INTEGER { r_na } else { v as f64 }).collect();
            for col in [RawColumn::Integer(&ints), RawColumn::Double(&doubles)] {
                // Both add to the counts they are given (here 0 or 1 at each offset).
                let given: Vec<u32> = (0..span).map(|o| (o % 2) as u32 * (case % 2) as u32).collect();
                let (mut laned, mut one) = (given.clone(), given.clone());
                let missing = count_whole_values_in_lanes(&col, lo, &mut laned);
                assert_eq!(missing, count_whole_values_one_by_one(&col, lo, &mut one), "case {case}");
                assert_eq!(laned, one, "case {case}");
                assert_eq!(missing, ints.iter().filter(|&&v| v == NA_INTEGER).count() as u64);
                let added = laned.iter().zip(&given).map(|(&c, &g)| (c - g) as u64).sum::<u64>();
                assert_eq!(added + missing, n as u64);
            }
        }
    }

    #[test]
    fn whole_range_of_integers_skips_na() {
        let range = |x: &[i32]| whole_range(&RawColumn::Integer(x));
        assert_eq!(range(&[3, NA_INTEGER, -2, 7]), Some((-2, 7, true)));
        assert_eq!(range(&[NA_INTEGER, NA_INTEGER]), Some((i64::MAX, i64::MIN, true)));
        assert_eq!(range(&[]), Some((i64::MAX, i64::MIN, false)));
        assert_eq!(range(&[i32::MAX, -i32::MAX]), Some((-(i32::MAX as i64), i32::MAX as i64, false)));
        // Through the lanes and their tail, against a look value by value.
        let mut rng = crate::test_random::XorShift::new(5);
        for n in 0..70 {
            let x: Vec<i32> =
                (0..n).map(|_| if rng.below(6) == 0 { NA_INTEGER } else { rng.below(1_000) as i32 - 500 }).collect();
            let values = x.iter().copied().filter(|&v| v != NA_INTEGER);
            let want =
                (values.clone().min().unwrap_or(i32::MAX), values.max().unwrap_or(i32::MIN), x.contains(&NA_INTEGER));
            assert_eq!(integer_range(&x), want, "length {n}");
            assert_eq!(integer_range_portable(&x), want, "length {n}");
        }
    }

    #[test]
    fn has_missing_counts_an_na_level_or_missing_label_sent_to_the_missing_code() {
        // addNA(factor(NA)): one level (NA) that R maps to the missing code, no NA code.
        let enc = encode_factor(&[RawColumn::Factor { codes: &[1, 1], remap: &[1] }], 2, 1).unwrap();
        assert_eq!(enc.has_missing, vec![true]);
        let enc = encode_factor(
            &[RawColumn::Factor { codes: &[1, 2], remap: &[0, 1] }, RawColumn::Factor { codes: &[1], remap: &[0] }],
            2,
            1,
        )
        .unwrap();
        assert_eq!(enc.has_missing, vec![true, false]);
    }

    #[test]
    fn numeric_levels_are_sorted_union_of_all_datasets() {
        let a = [3.0, NA_REAL, 1.0, -0.0];
        let b = [0.0, 7.5, 3.0];
        let c = [2, NA_INTEGER];
        let enc = encode_numeric(&[RawColumn::Double(&a), RawColumn::Double(&b), RawColumn::Integer(&c)]).unwrap();
        assert_eq!(enc.numeric_levels.as_deref(), Some(&[0.0, 1.0, 2.0, 3.0, 7.5][..]));
        assert_eq!(enc.missing_code, 5);
        assert_eq!(enc.codes[0], vec![3, 5, 1, 0]);
        assert_eq!(enc.codes[1], vec![0, 4, 3]);
        assert_eq!(enc.codes[2], vec![2, 5]);
        assert_eq!(enc.has_missing, vec![true, false, true]);
    }

    #[test]
    fn whole_numbers_code_as_the_general_path_does() {
        let a = [3.0, NA_REAL, -2.0, -0.0, 1e6, 3.0];
        let b = [0.0, 7.0, 1e6 - 1.0];
        let c = [2, NA_INTEGER];
        let cols = [RawColumn::Double(&a), RawColumn::Double(&b), RawColumn::Integer(&c)];
        let fast = encode_whole_numbers(&cols).expect("whole numbers in range");
        // A fraction sends the same values down the general path.
        let b_frac = [0.0, 7.0, 1e6 - 1.0, 0.5];
        let general = encode_numeric(&[cols[0], RawColumn::Double(&b_frac), cols[2]]).unwrap();
        assert!(encode_whole_numbers(&[cols[0], RawColumn::Double(&b_frac)]).is_none());
        assert_eq!(fast.numeric_levels.as_deref(), Some(&[-2.0, 0.0, 2.0, 3.0, 7.0, 999_999.0, 1e6][..]));
        assert_eq!(fast.codes[0], vec![3, 7, 0, 1, 6, 3]);
        assert_eq!(fast.codes[1], vec![1, 4, 5]);
        assert_eq!(fast.codes[2], vec![2, 7]);
        let general_levels = general.numeric_levels.clone().unwrap();
        for (d, col) in fast.codes.iter().enumerate() {
            for i in 0..col.len() {
                let (f, g) = (col.get(i), general.codes[d].get(i));
                let value = |levels: &[f64], code: u32| levels.get(code as usize).copied();
                assert_eq!(value(fast.numeric_levels.as_deref().unwrap(), f), value(&general_levels, g));
            }
        }
        assert_eq!(fast.has_missing, vec![true, false, true]);
        // The presence taken from the table equals the one counted from the codes.
        let recounted = EncodedVar::new(fast.codes.clone(), fast.n_levels, fast.missing_code, None);
        assert_eq!((fast.has_missing.clone(), fast.one_sided), (recounted.has_missing, recounted.one_sided));
        let one_sided =
            encode_whole_numbers(&[RawColumn::Double(&[1.0, 2.0]), RawColumn::Double(&[1.0, NA_REAL])]).unwrap();
        assert!(one_sided.one_sided);
        assert_eq!(one_sided.has_missing, vec![false, true]);
        // Beyond the table's span, or infinite, or NaN: the general path.
        assert!(encode_whole_numbers(&[RawColumn::Double(&[0.0, 1e9])]).is_none());
        assert!(encode_whole_numbers(&[RawColumn::Double(&[0.0, f64::INFINITY])]).is_none());
        assert!(encode_whole_numbers(&[RawColumn::Double(&[0.0, f64::NAN])]).is_none());
        assert!(encode_whole_numbers(&[RawColumn::Double(&[NA_REAL])]).is_none());
    }

    /// The table of whole numbers codes random columns (missing values, wide and narrow
    /// spans, a column all missing, integer and double columns) as hashing does.
    #[test]
    fn whole_numbers_equal_hashing_on_random_columns() {
        let mut rng = crate::test_random::XorShift::new(0x51C3_0A77_9E21_4B05u64);
        // Cases whose levels leave gaps in their range, and cases whose levels fill it.
        let mut ranges_filled = [0usize; 2];
        for case in 0..200 {
            let span = [3u64, 80, 20_000, 3_000_000][case % 4];
            let lo = rng.below(2_000) as i64 - 1_000;
            let n_cols = 1 + rng.below(4) as usize;
            let doubles: Vec<Vec<f64>> = (0..n_cols)
                .map(|c| {
                    let n = rng.below(300) as usize;
                    let all_missing = c == 1 && case % 5 == 0;
                    (0..n)
                        .map(|_| {
                            if all_missing || rng.below(10) == 0 {
                                NA_REAL
                            } else {
                                (lo + rng.below(span) as i64) as f64
                            }
                        })
                        .collect()
                })
                .collect();
            let ints: Vec<i32> = (0..rng.below(50))
                .map(|_| if rng.below(8) == 0 { NA_INTEGER } else { (lo + rng.below(span) as i64) as i32 })
                .collect();
            let mut cols: Vec<RawColumn<'_>> = doubles.iter().map(|d| RawColumn::Double(d)).collect();
            if case % 3 == 0 {
                cols.push(RawColumn::Integer(&ints));
            }
            let Some(fast) = encode_whole_numbers(&cols) else {
                assert!(cols.iter().all(|c| match c {
                    RawColumn::Double(x) => x.iter().all(|v| is_r_na(*v)),
                    RawColumn::Integer(x) => x.iter().all(|&v| v == NA_INTEGER),
                    RawColumn::Factor { .. } => true,
                }));
                continue;
            };
            let hashed = encode_by_hashing(&cols).unwrap();
            assert_eq!(fast.numeric_levels, hashed.numeric_levels, "case {case}");
            assert_eq!((fast.n_levels, fast.missing_code), (hashed.n_levels, hashed.missing_code));
            let as_u32 = |e: &EncodedVar<'_>| -> Vec<Vec<u32>> {
                e.codes.iter().map(|c| (0..c.len()).map(|i| c.get(i)).collect()).collect()
            };
            assert_eq!(as_u32(&fast), as_u32(&hashed), "case {case}");
            assert_eq!((&fast.has_missing, fast.one_sided), (&hashed.has_missing, hashed.one_sided), "case {case}");
            // Levels that fill their range are coded by offset, others through a table.
            let levels = fast.numeric_levels.as_deref().unwrap_or(&[]);
            if let (Some(first), Some(last)) = (levels.first(), levels.last()) {
                ranges_filled[(last - first + 1.0 == levels.len() as f64) as usize] += 1;
            }
        }
        assert!(ranges_filled.iter().all(|&n| n > 10), "{ranges_filled:?}");
    }

    #[test]
    fn nan_is_its_own_level_not_missing() {
        assert!(is_r_na(NA_REAL));
        assert!(!is_r_na(f64::NAN));
        assert!(!is_r_na(-f64::NAN));
        let a = [NA_REAL, 1.0, f64::INFINITY];
        let b = [f64::NAN, -f64::NAN, f64::NEG_INFINITY, NA_REAL];
        let enc = encode_numeric(&[RawColumn::Double(&a), RawColumn::Double(&b)]).unwrap();
        let lev = enc.numeric_levels.clone().unwrap();
        assert_eq!(&lev[..3], &[f64::NEG_INFINITY, 1.0, f64::INFINITY]);
        assert!(lev[3].is_nan() && lev.len() == 4, "NaN is the last non-missing level: {lev:?}");
        assert_eq!(enc.missing_code, 4);
        assert_eq!(enc.codes[0], vec![4, 1, 2]);
        assert_eq!(enc.codes[1], vec![3, 3, 0, 4]);
        assert_eq!(enc.has_missing, vec![true, true]);
        let only_nan = encode_numeric(&[RawColumn::Double(&[f64::NAN]), RawColumn::Double(&[1.0])]).unwrap();
        assert_eq!(only_nan.has_missing, vec![false, false]);
    }

    #[test]
    fn integer_columns_have_only_na_integer_missing() {
        let enc = encode_numeric(&[RawColumn::Integer(&[NA_INTEGER, 1954, -1]), RawColumn::Integer(&[1954])]).unwrap();
        assert_eq!(enc.numeric_levels.as_deref(), Some(&[-1.0, 1954.0][..]));
        assert_eq!(enc.codes[0], vec![2, 1, 0]);
        assert_eq!(enc.has_missing, vec![true, false]);
    }

    #[test]
    fn doubles_that_print_the_same_merge_into_the_first_level() {
        let w = Workers::new(2).unwrap();
        let a = [0.1 + 0.2, 0.3, 1.0, NA_REAL];
        let b = [0.3, 2.0];
        let mut enc = encode_numeric(&[RawColumn::Double(&a), RawColumn::Double(&b)]).unwrap();
        assert_eq!(enc.numeric_levels.as_deref(), Some(&[0.3, 0.1 + 0.2, 1.0, 2.0][..]));
        merge_numeric_levels(&w, &mut enc, &[0, 0, 2, 3]).unwrap();
        assert_eq!(enc.numeric_levels.as_deref(), Some(&[0.3, 1.0, 2.0][..]));
        assert_eq!((enc.n_levels, enc.missing_code), (4, 3));
        assert_eq!(enc.codes[0], vec![0, 0, 1, 3]);
        assert_eq!(enc.codes[1], vec![0, 2]);
        assert!(enc.one_sided);
        // The values as they arrived stay beside the merged codes (the distances use them).
        match enc.magnitudes.as_deref() {
            Some([RawColumn::Double(x), RawColumn::Double(y)]) => {
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
                assert_eq!((bits(x), bits(y)), (bits(&a), bits(&b)));
            }
            _ => panic!("the merge lost the magnitudes"),
        }
        // Groups that point forward, or to a level that is not first, are refused.
        assert!(merge_numeric_levels(&w, &mut enc.clone(), &[1, 1, 2]).is_err());
        assert!(merge_numeric_levels(&w, &mut enc.clone(), &[0, 0, 1]).is_err());
        assert!(merge_numeric_levels(&w, &mut enc.clone(), &[0, 1]).is_err());
    }

    /// The level counts a variable keeps (or counts again, past `KEPT_COUNT_LEVELS`
    /// levels) are its codes' counts, asked once or twice, for factors, doubles, whole
    /// numbers and after a merge.
    #[test]
    fn kept_level_counts_are_the_codes_counts() {
        let w = Workers::new(2).unwrap();
        let check = |enc: &EncodedVar<'_>, what: &str| {
            for d in 0..enc.codes.len() {
                let want = enc.codes[d].level_counts(enc.n_levels);
                assert_eq!(&*enc.level_counts(d), want.as_slice(), "{what}, dataset {d}");
                assert_eq!(&*enc.level_counts(d), want.as_slice(), "{what}, dataset {d}, again");
            }
        };
        let factor = encode_factor(
            &[
                RawColumn::Factor { codes: &[1, 2, NA_INTEGER, 2], remap: &[2, 0] },
                RawColumn::Factor { codes: &[2, 2], remap: &[0, 1] },
            ],
            4,
            3,
        )
        .unwrap();
        check(&factor, "factor");
        let (a, b) = ([0.1 + 0.2, 0.3, 1.0, NA_REAL, 1.0], [0.3, 2.5]);
        let mut doubles = encode_numeric(&[RawColumn::Double(&a), RawColumn::Double(&b)]).unwrap();
        check(&doubles, "doubles");
        merge_numeric_levels(&w, &mut doubles, &[0, 0, 2, 3]).unwrap();
        check(&doubles, "doubles merged");
        let whole = encode_numeric(&[RawColumn::Integer(&[3, NA_INTEGER, 3, -2]), RawColumn::Integer(&[7])]).unwrap();
        check(&whole, "whole numbers");
        // A span past the kept levels: marked, then counted when asked.
        let spread =
            encode_numeric(&[RawColumn::Integer(&[0, 70_000, NA_INTEGER, 0]), RawColumn::Integer(&[5])]).unwrap();
        check(&spread, "whole numbers of a wide span");
        let many: Vec<f64> = (0..(KEPT_COUNT_LEVELS as usize + 5)).map(|i| i as f64 + 0.5).collect();
        let wide = encode_numeric(&[RawColumn::Double(&many), RawColumn::Double(&many[..3])]).unwrap();
        assert!(wide.n_levels > KEPT_COUNT_LEVELS);
        check(&wide, "more levels than kept");
    }

    #[test]
    fn close_pairs_find_every_pair_that_prints_alike_at_15_digits() {
        let levels = [
            -1.0,
            0.0,
            5e-324,
            1e-323,
            0.1 + 0.2 - 1e-16,
            0.3,
            0.1 + 0.2,
            1.0,
            1e15,
            1e15 + 1.0,
            1e300,
            f64::INFINITY,
            f64::NAN,
        ];
        assert_eq!(close_numeric_pairs(&levels), vec![4, 5, 8]);
        // Every adjacent pair of random doubles equal at 15 significant digits is flagged.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut values = Vec::new();
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits((x >> 2) | 0x3000_0000_0000_0000) * if x & 1 == 0 { 1.0 } else { -1.0 };
            if v.is_finite() {
                values.extend([v, f64::from_bits(v.to_bits() + 1), f64::from_bits(v.to_bits() + 7)]);
            }
        }
        values.sort_by(|a, b| a.total_cmp(b));
        values.dedup();
        let close: std::collections::HashSet<usize> = close_numeric_pairs(&values).into_iter().collect();
        for i in 0..values.len() - 1 {
            if format!("{:.14e}", values[i]) == format!("{:.14e}", values[i + 1]) {
                assert!(close.contains(&i), "{} and {} print alike but are not flagged", values[i], values[i + 1]);
            }
        }
    }

    #[test]
    fn one_sided_flags_levels_on_one_side_only() {
        let same = EncodedVar::from_u32(vec![vec![0, 1, 2], vec![1, 0], vec![0, 1, 1]], 3, 2, None);
        assert!(!same.one_sided, "the missing level may be on one side");
        let extra_in_syn = EncodedVar::from_u32(vec![vec![0, 0], vec![0], vec![0, 1]], 3, 2, None);
        assert!(extra_in_syn.one_sided);
        let missing_in_syn = EncodedVar::from_u32(vec![vec![0, 1], vec![0, 1], vec![1]], 3, 2, None);
        assert!(missing_in_syn.one_sided);
    }

    #[test]
    fn encode_all_stops_between_variables_when_asked() {
        let w = Workers::new(1).unwrap();
        let vars = [VarInput::Numeric { columns: vec![RawColumn::Integer(&[1]), RawColumn::Integer(&[1])] }];
        assert_eq!(encode_all(&w, &vars, &never_stop).unwrap().len(), 1);
        assert!(encode_all(&w, &vars, &|| true).unwrap_err().is_interrupt());
    }
}
