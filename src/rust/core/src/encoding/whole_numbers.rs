//! The reads of a numeric column of whole numbers that their encoding makes
//! (encode.rs): a column of doubles' range, each value's offset from the smallest as a
//! byte, the slots of a count or a mark by offset, and the codes through the ranks of
//! the values that occur (doubles and integers). Four or eight values at a time with
//! AVX2 where the CPU has it (runtime detection): the package is built for the
//! baseline x86-64, whose two-double vectors lack the blends, conversions and gathers
//! these need, and the compiler left the baseline loops scalar (0.8 against 0.2 ns a
//! value for a range, SD2011's ages). Both versions give the same result for the
//! columns the encoding passes them (whole numbers within the range it found, or R's
//! NA; a bound of zero may be -0 in one and 0 in the other, the same whole number),
//! which a test holds on random columns.

use crate::encode::R_NA_LOW_WORD;

/// Below 2^51 in magnitude, adding and then subtracting 1.5 * 2^52 rounds a double to
/// a whole number: it is unchanged exactly when it is one.
const ROUNDING_SHIFT: f64 = 6_755_399_441_055_744.0;

/// What one read of a column of doubles tells: the smallest and largest value that is
/// not NaN (infinite when there is none), whether a value other than NaN changes when
/// rounded (a fraction, for values below 2^51 in magnitude; larger values are decided
/// by their range), whether a value is NaN, and whether a NaN is not R's NA (a level
/// of its own).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DoublesRead {
    pub lo: f64,
    pub hi: f64,
    pub fraction: bool,
    pub nan: bool,
    pub other_nan: bool,
}

impl DoublesRead {
    const EMPTY: DoublesRead =
        DoublesRead { lo: f64::INFINITY, hi: f64::NEG_INFINITY, fraction: false, nan: false, other_nan: false };

    /// `self` with one more value (comparisons, which NaN never wins).
    #[inline(always)]
    fn with(mut self, v: f64) -> Self {
        self.fraction |= ((v + ROUNDING_SHIFT) - ROUNDING_SHIFT != v) & !v.is_nan();
        self.nan |= v.is_nan();
        self.other_nan |= v.is_nan() & (v.to_bits() as u32 != R_NA_LOW_WORD);
        self.lo = if v < self.lo { v } else { self.lo };
        self.hi = if v > self.hi { v } else { self.hi };
        self
    }

    fn joined(self, other: DoublesRead) -> Self {
        DoublesRead {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
            fraction: self.fraction | other.fraction,
            nan: self.nan | other.nan,
            other_nan: self.other_nan | other.other_nan,
        }
    }
}

/// One read of the column `x`.
pub fn read_doubles(x: &[f64]) -> DoublesRead {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has the feature the function is compiled for.
        return unsafe { read_doubles_avx2(x) };
    }
    read_doubles_portable(x)
}

/// `read_doubles` in four lanes, so that no value waits on the one before.
fn read_doubles_portable(x: &[f64]) -> DoublesRead {
    let mut lanes = [DoublesRead::EMPTY; 4];
    let mut quads = x.chunks_exact(4);
    for quad in quads.by_ref() {
        for (lane, &v) in lanes.iter_mut().zip(quad) {
            *lane = lane.with(v);
        }
    }
    let tail = quads.remainder().iter().fold(DoublesRead::EMPTY, |read, &v| read.with(v));
    lanes.into_iter().fold(tail, DoublesRead::joined)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn read_doubles_avx2(x: &[f64]) -> DoublesRead {
    use std::arch::x86_64::*;
    let shift = _mm256_set1_pd(ROUNDING_SHIFT);
    let (mut lo, mut hi) = ([_mm256_set1_pd(f64::INFINITY); 2], [_mm256_set1_pd(f64::NEG_INFINITY); 2]);
    let (mut fraction, mut nan, mut other_nan) = (_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_si256());
    let (low_word, na_low_word) = (_mm256_set1_epi64x(u32::MAX as i64), _mm256_set1_epi64x(R_NA_LOW_WORD as i64));
    let mut octets = x.chunks_exact(8);
    for octet in octets.by_ref() {
        for (half, values) in octet.chunks_exact(4).enumerate() {
            // SAFETY: `values` holds four doubles.
            let v = unsafe { _mm256_loadu_pd(values.as_ptr()) };
            let rounded = _mm256_sub_pd(_mm256_add_pd(v, shift), shift);
            // Not equal and ordered: NaN is never a fraction.
            fraction = _mm256_or_pd(fraction, _mm256_cmp_pd::<_CMP_NEQ_OQ>(rounded, v));
            let is_nan = _mm256_cmp_pd::<_CMP_UNORD_Q>(v, v);
            nan = _mm256_or_pd(nan, is_nan);
            let is_na = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_castpd_si256(v), low_word), na_low_word);
            other_nan = _mm256_or_si256(other_nan, _mm256_andnot_si256(is_na, _mm256_castpd_si256(is_nan)));
            // The second operand when either is NaN: a NaN never becomes a bound.
            lo[half] = _mm256_min_pd(v, lo[half]);
            hi[half] = _mm256_max_pd(v, hi[half]);
        }
    }
    let (mut lows, mut highs) = ([0.0f64; 8], [0.0f64; 8]);
    for half in 0..2 {
        // SAFETY: each array holds eight doubles, four from `4 * half`.
        unsafe {
            _mm256_storeu_pd(lows.as_mut_ptr().add(4 * half), lo[half]);
            _mm256_storeu_pd(highs.as_mut_ptr().add(4 * half), hi[half]);
        }
    }
    let vectors = DoublesRead {
        lo: lows.into_iter().fold(f64::INFINITY, f64::min),
        hi: highs.into_iter().fold(f64::NEG_INFINITY, f64::max),
        fraction: _mm256_movemask_pd(fraction) != 0,
        nan: _mm256_movemask_pd(nan) != 0,
        other_nan: _mm256_movemask_pd(_mm256_castsi256_pd(other_nan)) != 0,
    };
    octets.remainder().iter().fold(vectors, |read, &v| read.with(v))
}

/// Each value's offset from `lo` as a byte, `missing` for NaN, for a column whose values
/// are whole numbers from `lo` to at most `lo + 255` or NaN (the codes of a variable
/// whose every value of a span of at most 256 levels, its missing level included, is
/// its offset).
pub fn offset_bytes(x: &[f64], lo: f64, missing: u8) -> Vec<u8> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has the feature the function is compiled for.
        return unsafe { offset_bytes_avx2(x, lo, missing) };
    }
    offset_bytes_portable(x, lo, missing)
}

#[inline(always)]
fn offset_byte(v: f64, lo: f64, missing: u8) -> u8 {
    if v.is_nan() {
        missing
    } else {
        (v - lo) as u8
    }
}

fn offset_bytes_portable(x: &[f64], lo: f64, missing: u8) -> Vec<u8> {
    crate::memory::collected(x.len(), x.iter().map(|&v| offset_byte(v, lo, missing)))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn offset_bytes_avx2(x: &[f64], lo: f64, missing: u8) -> Vec<u8> {
    use std::arch::x86_64::*;
    let mut out: Vec<u8> = crate::memory::with_capacity(x.len());
    let low = _mm256_set1_pd(lo);
    let missing32 = _mm_set1_epi32(missing as i32);
    // NaN converts to i32::MIN, which no offset (0 to 255) is.
    let nan32 = _mm_set1_epi32(i32::MIN);
    let offsets = |v: __m256d| {
        let o = _mm256_cvttpd_epi32(_mm256_sub_pd(v, low));
        _mm_blendv_epi8(o, missing32, _mm_cmpeq_epi32(o, nan32))
    };
    let mut octets = x.chunks_exact(8);
    for octet in octets.by_ref() {
        // SAFETY: `octet` holds eight doubles.
        let (a, b) = unsafe { (_mm256_loadu_pd(octet.as_ptr()), _mm256_loadu_pd(octet.as_ptr().add(4))) };
        // Offsets of 0 to 255 pass both packings unchanged.
        let bytes = _mm_packus_epi16(_mm_packs_epi32(offsets(a), offsets(b)), _mm_setzero_si128());
        out.extend_from_slice(&_mm_cvtsi128_si64(bytes).to_le_bytes());
    }
    out.extend(octets.remainder().iter().map(|&v| offset_byte(v, lo, missing)));
    out
}

/// Calls `each(i, slot)` for each value `x[i]` in order, `slot` its offset from `lo`,
/// or `nan_slot` for NaN, for a column whose values are whole numbers from `lo` to
/// below `lo + nan_slot` or NaN: the slots of a count or a mark by offset, without a
/// branch for NaN (the offsets four at a time, each call in turn).
#[inline(always)]
pub fn for_each_slot(x: &[f64], lo: f64, nan_slot: u32, each: impl FnMut(usize, usize)) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has the feature the function is compiled for.
        return unsafe { for_each_slot_avx2(x, lo, nan_slot, each) };
    }
    for_each_slot_portable(x, lo, nan_slot, each)
}

#[inline(always)]
fn slot_of(v: f64, lo: f64, nan_slot: u32) -> usize {
    (if v.is_nan() { nan_slot } else { (v - lo) as u32 }) as usize
}

#[inline(always)]
fn for_each_slot_portable(x: &[f64], lo: f64, nan_slot: u32, mut each: impl FnMut(usize, usize)) {
    x.iter().enumerate().for_each(|(i, &v)| each(i, slot_of(v, lo, nan_slot)));
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn for_each_slot_avx2(x: &[f64], lo: f64, nan_slot: u32, mut each: impl FnMut(usize, usize)) {
    use std::arch::x86_64::*;
    let low = _mm256_set1_pd(lo);
    let nan = _mm_set1_epi32(nan_slot as i32);
    let mut quads = x.chunks_exact(4);
    let mut slots = [0u32; 4];
    for (q, quad) in quads.by_ref().enumerate() {
        // SAFETY: `quad` holds four doubles, `slots` four u32. NaN converts to i32::MIN,
        // which the unsigned minimum sends to `nan_slot`, as it does any offset beyond.
        unsafe {
            let offsets = _mm256_cvttpd_epi32(_mm256_sub_pd(_mm256_loadu_pd(quad.as_ptr()), low));
            _mm_storeu_si128(slots.as_mut_ptr() as *mut __m128i, _mm_min_epu32(offsets, nan));
        }
        for (k, &slot) in slots.iter().enumerate() {
            each(4 * q + k, slot as usize);
        }
    }
    let done = x.len() - quads.remainder().len();
    quads.remainder().iter().enumerate().for_each(|(k, &v)| each(done + k, slot_of(v, lo, nan_slot)));
}

/// Each value's level `rank[offset from lo]`, `missing` for NaN, for a column whose
/// values are whole numbers from `lo` to below `lo + rank.len()` or NaN, in the width
/// `T` (u8 or u16, wide enough for every level): the codes of a variable whose range
/// has values that do not occur (its levels are the ranks of those that do).
pub fn ranked_codes<T: RankedCode>(x: &[f64], lo: f64, rank: &[u32], missing: u32) -> Vec<T> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && gathers_within(rank) {
        // SAFETY: the CPU has the feature the function is compiled for.
        return unsafe { ranked_codes_avx2(x, lo, rank, missing) };
    }
    ranked_codes_portable(x, lo, rank, missing)
}

/// Whether a gather can reach every entry of `rank` and none beyond: its offsets are
/// signed 32-bit, clamped to the last entry (the encoding's tables hold at most 2^22).
fn gathers_within(rank: &[u32]) -> bool {
    !rank.is_empty() && rank.len() <= i32::MAX as usize
}

/// A width of `ranked_codes`: a byte or two a code.
pub trait RankedCode: Copy {
    fn of(level: u32) -> Self;
    /// Eight levels (each fitting the width) from two vectors of four, pushed on `out`.
    ///
    /// # Safety
    /// The CPU must have SSE4.1 (every CPU with AVX2 has).
    #[cfg(target_arch = "x86_64")]
    unsafe fn pushed(out: &mut Vec<Self>, first: std::arch::x86_64::__m128i, second: std::arch::x86_64::__m128i);
}

impl RankedCode for u8 {
    #[inline(always)]
    fn of(level: u32) -> Self {
        level as u8
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn pushed(out: &mut Vec<Self>, first: std::arch::x86_64::__m128i, second: std::arch::x86_64::__m128i) {
        use std::arch::x86_64::*;
        // SAFETY (the caller's): the CPU has SSE4.1 (it has AVX2). Levels below 256 pass
        // both packings unchanged.
        let bytes = unsafe { _mm_packus_epi16(_mm_packus_epi32(first, second), _mm_setzero_si128()) };
        out.extend_from_slice(&unsafe { _mm_cvtsi128_si64(bytes) }.to_le_bytes());
    }
}

impl RankedCode for u16 {
    #[inline(always)]
    fn of(level: u32) -> Self {
        level as u16
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn pushed(out: &mut Vec<Self>, first: std::arch::x86_64::__m128i, second: std::arch::x86_64::__m128i) {
        use std::arch::x86_64::*;
        let mut eight = [0u16; 8];
        // SAFETY (the caller's): the CPU has SSE4.1; `eight` holds eight u16. Levels
        // below 65,536 pass the packing unchanged.
        unsafe { _mm_storeu_si128(eight.as_mut_ptr() as *mut __m128i, _mm_packus_epi32(first, second)) };
        out.extend_from_slice(&eight);
    }
}

#[inline(always)]
fn ranked_code<T: RankedCode>(v: f64, lo: f64, rank: &[u32], missing: u32) -> T {
    T::of(if v.is_nan() { missing } else { rank[(v - lo) as usize] })
}

fn ranked_codes_portable<T: RankedCode>(x: &[f64], lo: f64, rank: &[u32], missing: u32) -> Vec<T> {
    crate::memory::collected(x.len(), x.iter().map(|&v| ranked_code(v, lo, rank, missing)))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn ranked_codes_avx2<T: RankedCode>(x: &[f64], lo: f64, rank: &[u32], missing: u32) -> Vec<T> {
    use std::arch::x86_64::*;
    let mut out: Vec<T> = crate::memory::with_capacity(x.len());
    let low = _mm256_set1_pd(lo);
    let missing32 = _mm_set1_epi32(missing as i32);
    let last = _mm_set1_epi32(rank.len() as i32 - 1);
    let levels = |v: __m256d| {
        let offsets = _mm256_cvttpd_epi32(_mm256_sub_pd(v, low));
        // NaN converts to i32::MIN: not gathered, `missing` instead. Offsets are below
        // the table's length; clamped all the same, so that no read leaves it.
        let wanted = _mm_castps_si128(_mm256_cvtpd_ps(_mm256_cmp_pd::<_CMP_ORD_Q>(v, v)));
        let offsets = _mm_min_epu32(offsets, last);
        // SAFETY: every gathered offset is within `rank` (clamped above).
        unsafe { _mm_mask_i32gather_epi32::<4>(missing32, rank.as_ptr() as *const i32, offsets, wanted) }
    };
    let mut octets = x.chunks_exact(8);
    for octet in octets.by_ref() {
        // SAFETY: `octet` holds eight doubles.
        let (a, b) = unsafe { (_mm256_loadu_pd(octet.as_ptr()), _mm256_loadu_pd(octet.as_ptr().add(4))) };
        unsafe { T::pushed(&mut out, levels(a), levels(b)) };
    }
    out.extend(octets.remainder().iter().map(|&v| ranked_code::<T>(v, lo, rank, missing)));
    out
}

/// `ranked_codes` of a column of integers (R's NA, `i32::MIN`, for `missing`), whose
/// values other than NA are from `lo` to below `lo + rank.len()`: eight at a time with
/// AVX2.
pub fn ranked_integer_codes<T: RankedCode>(x: &[i32], lo: i32, rank: &[u32], missing: u32) -> Vec<T> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && gathers_within(rank) {
        // SAFETY: the CPU has the feature the function is compiled for.
        return unsafe { ranked_integer_codes_avx2(x, lo, rank, missing) };
    }
    ranked_integer_codes_portable(x, lo, rank, missing)
}

#[inline(always)]
fn ranked_integer_code<T: RankedCode>(v: i32, lo: i32, rank: &[u32], missing: u32) -> T {
    T::of(if v == i32::MIN { missing } else { rank[(v as i64 - lo as i64) as usize] })
}

fn ranked_integer_codes_portable<T: RankedCode>(x: &[i32], lo: i32, rank: &[u32], missing: u32) -> Vec<T> {
    crate::memory::collected(x.len(), x.iter().map(|&v| ranked_integer_code(v, lo, rank, missing)))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn ranked_integer_codes_avx2<T: RankedCode>(x: &[i32], lo: i32, rank: &[u32], missing: u32) -> Vec<T> {
    use std::arch::x86_64::*;
    let mut out: Vec<T> = crate::memory::with_capacity(x.len());
    let (low, na) = (_mm256_set1_epi32(lo), _mm256_set1_epi32(i32::MIN));
    let missing32 = _mm256_set1_epi32(missing as i32);
    let last = _mm256_set1_epi32(rank.len() as i32 - 1);
    let mut octets = x.chunks_exact(8);
    for octet in octets.by_ref() {
        // SAFETY: `octet` holds eight integers.
        let v = unsafe { _mm256_loadu_si256(octet.as_ptr() as *const __m256i) };
        // NA is not gathered (`missing` instead); offsets, below the table's length,
        // are clamped all the same, so that no read leaves it.
        let wanted = _mm256_xor_si256(_mm256_cmpeq_epi32(v, na), _mm256_set1_epi32(-1));
        let offsets = _mm256_min_epu32(_mm256_sub_epi32(v, low), last);
        // SAFETY: every gathered offset is within `rank` (clamped above).
        let levels =
            unsafe { _mm256_mask_i32gather_epi32::<4>(missing32, rank.as_ptr() as *const i32, offsets, wanted) };
        unsafe { T::pushed(&mut out, _mm256_castsi256_si128(levels), _mm256_extracti128_si256::<1>(levels)) };
    }
    out.extend(octets.remainder().iter().map(|&v| ranked_integer_code::<T>(v, lo, rank, missing)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_random::XorShift;

    /// A column of whole numbers near `base`, with NaN, R's NA, fractions and
    /// infinities as asked.
    fn column(rng: &mut XorShift, n: usize, base: f64, span: u64, odd: u32) -> Vec<f64> {
        (0..n)
            .map(|_| match rng.below(100) {
                x if x < odd => {
                    [f64::NAN, f64::from_bits(0x7FF0_0000_0000_07A2), 0.5 + base, f64::INFINITY][rng.below(4) as usize]
                }
                _ => base + rng.below(span) as f64,
            })
            .collect()
    }

    #[test]
    fn both_reads_of_doubles_agree_with_a_look_at_each_value() {
        let mut rng = XorShift::new(20261205);
        for case in 0..3000 {
            let n = rng.below(70) as usize;
            let base = [0.0, -40.0, 1e6, -2e15][case % 4];
            let span = 1 + rng.below(300) as u64;
            let x = column(&mut rng, n, base, span, [0, 0, 3, 30][(case / 4) % 4]);
            let by_value = DoublesRead {
                lo: x.iter().copied().filter(|v| !v.is_nan()).fold(f64::INFINITY, f64::min),
                hi: x.iter().copied().filter(|v| !v.is_nan()).fold(f64::NEG_INFINITY, f64::max),
                fraction: x.iter().any(|v| !v.is_nan() && v.is_finite() && v.fract() != 0.0),
                nan: x.iter().any(|v| v.is_nan()),
                other_nan: x.iter().any(|&v| v.is_nan() && !crate::encode::is_r_na(v)),
            };
            assert_eq!(read_doubles_portable(&x), by_value, "{x:?}");
            assert_eq!(read_doubles(&x), by_value, "{x:?}");
            if !by_value.fraction && by_value.lo.is_finite() && by_value.hi - by_value.lo < 255.0 {
                let missing = (by_value.hi - by_value.lo) as u8 + 1;
                let looked: Vec<u8> =
                    x.iter().map(|&v| if v.is_nan() { missing } else { (v - by_value.lo) as u8 }).collect();
                assert_eq!(offset_bytes_portable(&x, by_value.lo, missing), looked);
                assert_eq!(offset_bytes(&x, by_value.lo, missing), looked);
            }
            if !by_value.fraction && by_value.lo.is_finite() && by_value.hi.is_finite() {
                let nan_slot = (by_value.hi - by_value.lo) as u32 + 1;
                let looked: Vec<(usize, usize)> = x
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (i, if v.is_nan() { nan_slot as usize } else { (v - by_value.lo) as usize }))
                    .collect();
                let mut portable = Vec::new();
                for_each_slot_portable(&x, by_value.lo, nan_slot, |i, slot| portable.push((i, slot)));
                assert_eq!(portable, looked);
                let mut fastest = Vec::new();
                for_each_slot(&x, by_value.lo, nan_slot, |i, slot| fastest.push((i, slot)));
                assert_eq!(fastest, looked);
                // Ranks of the values that occur, as the encoding makes them.
                let span = (by_value.hi - by_value.lo) as usize + 1;
                let mut rank = vec![0u32; span];
                let mut next = 0u32;
                for (o, r) in rank.iter_mut().enumerate() {
                    if x.iter().any(|&v| v - by_value.lo == o as f64) {
                        *r = next;
                        next += 1;
                    }
                }
                let looked: Vec<u32> =
                    x.iter().map(|&v| if v.is_nan() { next } else { rank[(v - by_value.lo) as usize] }).collect();
                if next < 256 {
                    let narrow: Vec<u8> = looked.iter().map(|&c| c as u8).collect();
                    assert_eq!(ranked_codes_portable::<u8>(&x, by_value.lo, &rank, next), narrow);
                    assert_eq!(ranked_codes::<u8>(&x, by_value.lo, &rank, next), narrow);
                }
                // Levels beyond a byte for the wider codes.
                let wide_rank: Vec<u32> = rank.iter().map(|&r| r * 200).collect();
                let wide: Vec<u16> = x
                    .iter()
                    .map(|&v| if v.is_nan() { 60_000 } else { (rank[(v - by_value.lo) as usize] * 200) as u16 })
                    .collect();
                assert_eq!(ranked_codes_portable::<u16>(&x, by_value.lo, &wide_rank, 60_000), wide);
                assert_eq!(ranked_codes::<u16>(&x, by_value.lo, &wide_rank, 60_000), wide);
                // The same values as integers (NaN as R's NA), where they fit.
                if by_value.lo >= -1e9 && by_value.hi <= 1e9 {
                    let ints: Vec<i32> = x.iter().map(|&v| if v.is_nan() { i32::MIN } else { v as i32 }).collect();
                    let lo = by_value.lo as i32;
                    if next < 256 {
                        let narrow: Vec<u8> = looked.iter().map(|&c| c as u8).collect();
                        assert_eq!(ranked_integer_codes_portable::<u8>(&ints, lo, &rank, next), narrow);
                        assert_eq!(ranked_integer_codes::<u8>(&ints, lo, &rank, next), narrow);
                    }
                    assert_eq!(ranked_integer_codes_portable::<u16>(&ints, lo, &wide_rank, 60_000), wide);
                    assert_eq!(ranked_integer_codes::<u16>(&ints, lo, &wide_rank, 60_000), wide);
                }
            }
        }
    }
}
