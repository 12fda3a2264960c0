//! R's `sample.int()` from a stream of R's uniforms, so that singling out's random
//! attempts are those R would draw (definitions vignette 13: in batches,
//! `sample.int(Ns, B, replace = TRUE)` then per attempt `sort(sample.int(p, n_cols))`)
//! without a call into R per attempt. R hands over `runif(K)`; the core reads what
//! `sample.int()` would have read and says how many it used, and R advances its
//! generator by exactly that many (`runif(used)`). As in R 3.6 and later: with the
//! "Rejection" sample kind an index below n is drawn bitwise from 16-bit pieces of
//! uniforms until it falls below n; with "Rounding", floor(n · u).

/// A stream of R's uniforms; `None` once it runs out.
pub struct Uniforms<'a> {
    values: &'a [f64],
    pub used: usize,
    rounding: bool,
}

impl<'a> Uniforms<'a> {
    pub fn new(values: &'a [f64], rounding: bool) -> Self {
        Uniforms { values, used: 0, rounding }
    }

    fn next(&mut self) -> Option<f64> {
        let u = *self.values.get(self.used)?;
        self.used += 1;
        Some(u)
    }

    /// R's `rbits(bits)`: 16 bits per uniform, for n = 0, 16, ... <= bits.
    fn rbits(&mut self, bits: u32) -> Option<f64> {
        let mut v: i64 = 0;
        let mut n = 0;
        while n <= bits {
            let v1 = (self.next()? * 65536.0).floor() as i64;
            v = 65536 * v + v1;
            n += 16;
        }
        Some((v & ((1i64 << bits) - 1)) as f64)
    }

    /// R's `R_unif_index(dn)`: an index in 0..dn.
    pub fn unif_index(&mut self, dn: f64) -> Option<f64> {
        if self.rounding {
            return Some((dn * self.next()?).floor());
        }
        if dn <= 0.0 {
            return Some(0.0);
        }
        let bits = dn.log2().ceil() as u32;
        loop {
            let dv = self.rbits(bits)?;
            if dn > dv {
                return Some(dv);
            }
        }
    }

    /// `sample.int(n, k)` without replacement (1-based values, in draw order).
    pub fn sample_without_replacement(&mut self, n: usize, k: usize, pool: &mut Vec<usize>) -> Option<Vec<usize>> {
        pool.clear();
        pool.extend(0..n);
        let mut left = n;
        let mut out = Vec::with_capacity(k);
        for _ in 0..k {
            let j = self.unif_index(left as f64)? as usize;
            out.push(pool[j] + 1);
            left -= 1;
            pool[j] = pool[left];
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_come_from_16_bit_pieces_and_rejection() {
        // n = 5: 3 bits; u = 0.9 gives floor(0.9 * 65536) & 7 = 58982 & 7 = 6, rejected.
        let u = [0.9, 0.1];
        let mut s = Uniforms::new(&u, false);
        assert_eq!(s.unif_index(5.0), Some(((0.1f64 * 65536.0).floor() as i64 & 7) as f64));
        assert_eq!(s.used, 2);
        // 16 bits take two uniforms (R's loop runs for n = 0 and 16).
        let u = [0.5, 0.25];
        let mut s = Uniforms::new(&u, false);
        let v = (32768i64 * 65536 + 16384) & 0xFFFF;
        assert_eq!(s.unif_index(65536.0), Some(v as f64));
        assert_eq!(s.used, 2);
        // Rounding: floor(n u); running out gives None.
        let mut s = Uniforms::new(&[0.5], true);
        assert_eq!(s.unif_index(7.0), Some(3.0));
        assert_eq!(s.unif_index(7.0), None);
    }
}
