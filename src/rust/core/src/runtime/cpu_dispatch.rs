//! Loops compiled twice: for the baseline x86-64 the package is built for (any CPU),
//! and for AVX2, chosen at run time where the CPU has it. The baseline's vectors hold
//! two doubles and lack the comparisons and conversions that AVX2 does four at a time
//! (a column's range, its values' offsets).

/// The body of a function that calls `$portable` (an `#[inline(always)]` function of
/// the arguments `$arg: $ty`) compiled for AVX2 where the CPU has it (runtime
/// detection), else as built. Both give the same result: only the instructions differ.
#[macro_export]
macro_rules! avx2_if_present {
    ($portable:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2")]
            unsafe fn avx2($($arg: $ty),*) -> $ret {
                $portable($($arg),*)
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has the feature the function is compiled for.
                return unsafe { avx2($($arg),*) };
            }
        }
        $portable($($arg),*)
    }};
}
