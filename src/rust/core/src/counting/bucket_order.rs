//! Rows laid out by buckets: consecutive ranges of q, the same for every dataset. A
//! column copied into bucket order costs one sequential read and a few sequential write
//! streams (one per bucket), and the rows of each q point into their bucket's segment,
//! which stays in cache while the sweep counts it. Read in q order straight from the
//! column, every target would cost a random read per record, which misses the cache
//! once the data are larger than it.
//!
//! Positions in bucket order and in q order share one coordinate: bucket `b` holds
//! positions `offsets[bounds[b]]..offsets[bounds[b + 1]]` in both.

use crate::codes::{code_width, CodeSource, LevelCodes};
use crate::memory;
use crate::rows_by_q::RowsByQ;
use rayon::prelude::*;

pub struct Buckets {
    /// Bucket `b` is the q range `bounds[b]..bounds[b + 1]`.
    pub bounds: Vec<usize>,
    bucket_of_q: Vec<u8>,
}

/// At most this many buckets, so that a row's bucket is one byte.
pub const MAX_BUCKETS: usize = 256;

/// One dataset laid out by buckets.
pub struct Layout {
    /// Rows grouped by q, as positions in bucket order.
    pub rows: RowsByQ,
    /// Each row's bucket, read in sequence when a column is laid out.
    bucket_of_row: Vec<u8>,
}

impl Buckets {
    /// Buckets of about `bucket_rows` rows (more when there would be over
    /// `MAX_BUCKETS`), counting `rows_of_q(q)` rows at q, `total` in all.
    pub fn new(n_q: usize, bucket_rows: usize, total: usize, rows_of_q: impl Fn(usize) -> usize) -> Self {
        let bucket_rows = bucket_rows.max(total.div_ceil(MAX_BUCKETS - 1)).max(1);
        if total < bucket_rows {
            // One bucket, told without reading the q (most calls: their rows fit one).
            return Buckets { bounds: vec![0, n_q], bucket_of_q: vec![0u8; n_q] };
        }
        let mut bounds = vec![0];
        let mut rows = 0;
        for q in 0..n_q {
            rows += rows_of_q(q);
            if rows >= bucket_rows {
                bounds.push(q + 1);
                rows = 0;
            }
        }
        if *bounds.last().unwrap_or(&0) < n_q || bounds.len() == 1 {
            bounds.push(n_q);
        }
        let mut bucket_of_q = vec![0u8; n_q];
        for (b, w) in bounds.windows(2).enumerate() {
            bucket_of_q[w[0]..w[1]].fill(b as u8);
        }
        Buckets { bounds, bucket_of_q }
    }

    pub fn len(&self) -> usize {
        self.bounds.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The q range of bucket `b`.
    pub fn range(&self, b: usize) -> std::ops::Range<usize> {
        self.bounds[b]..self.bounds[b + 1]
    }

    /// The first position of each bucket in a dataset grouped as `offsets`.
    fn starts(&self, offsets: &[usize]) -> Vec<usize> {
        self.bounds[..self.len()].iter().map(|&q| offsets[q]).collect()
    }

    /// `value_of(row)` for every row of a dataset laid out as `layout`, in bucket order:
    /// row order within each bucket.
    pub fn scatter<T: Copy + Default>(&self, layout: &Layout, value_of: impl Fn(usize) -> T) -> Vec<T> {
        self.scatter_by(&layout.bucket_of_row, &layout.rows.offsets, value_of)
    }

    fn scatter_by<T: Copy + Default>(
        &self,
        bucket_of_row: &[u8],
        offsets: &[usize],
        value_of: impl Fn(usize) -> T,
    ) -> Vec<T> {
        let mut next = [0usize; MAX_BUCKETS];
        for (b, slot) in self.starts(offsets).into_iter().enumerate() {
            next[b] = slot;
        }
        let mut out = memory::filled(bucket_of_row.len(), T::default());
        for (row, &b) in bucket_of_row.iter().enumerate() {
            let slot = &mut next[b as usize];
            out[*slot] = value_of(row);
            *slot += 1;
        }
        out
    }

    /// A column's codes in bucket order, in the narrowest width for `n_levels` levels.
    pub fn scatter_codes<S: CodeSource + ?Sized>(
        &self,
        layout: &Layout,
        codes: &S,
        n_levels: u32,
    ) -> LevelCodes<'static> {
        match code_width(n_levels) {
            1 => LevelCodes::U8(self.scatter(layout, |r| codes.code(r) as u8)),
            2 => LevelCodes::U16(self.scatter(layout, |r| codes.code(r) as u16)),
            _ => LevelCodes::U32(self.scatter(layout, |r| codes.code(r))),
        }
    }

    /// The bytes `scatter_codes` takes.
    pub fn scatter_codes_bytes(n_rows: usize, n_levels: u32) -> usize {
        n_rows * code_width(n_levels)
    }

    /// A dataset (keys `q`, rows of q starting at `offsets[q]`) laid out: its rows
    /// grouped by q, as positions in bucket order: the q of every row are laid out by bucket, then
    /// each bucket is grouped by q on its own, in cache.
    pub fn lay_out(&self, q: &[u32], offsets: Vec<usize>) -> Layout {
        if self.len() == 1 {
            // One bucket: bucket order is row order, and positions are rows (grouped in
            // one pass, without the copy of q by bucket).
            let mut next = offsets.clone();
            let mut rows = memory::filled(q.len(), 0u32);
            for (row, &qi) in q.iter().enumerate() {
                let slot = &mut next[qi as usize];
                rows[*slot] = row as u32;
                *slot += 1;
            }
            return Layout { rows: RowsByQ { offsets, rows }, bucket_of_row: memory::filled(q.len(), 0u8) };
        }
        let bucket_of_row: Vec<u8> = memory::collected(q.len(), q.iter().map(|&qi| self.bucket_of_q[qi as usize]));
        let mut grouped = RowsByQ { offsets, rows: Vec::new() };
        let q_by_bucket = self.scatter_by(&bucket_of_row, &grouped.offsets, |r| q[r]);
        let mut positions = memory::filled(q.len(), 0u32);
        // Each bucket's segment of `positions`, filled in parallel.
        let mut segments: Vec<(usize, &mut [u32])> = Vec::with_capacity(self.len());
        let mut rest = positions.as_mut_slice();
        for b in 0..self.len() {
            let range = self.range(b);
            let (start, end) = (grouped.offsets[range.start], grouped.offsets[range.end]);
            let (segment, tail) = rest.split_at_mut(end - start);
            segments.push((b, segment));
            rest = tail;
        }
        let offsets = &grouped.offsets;
        segments.into_par_iter().for_each(|(b, segment)| {
            let range = self.range(b);
            let start = offsets[range.start];
            let mut next: Vec<usize> = offsets[range.clone()].iter().map(|&o| o - start).collect();
            for (pos, &qi) in q_by_bucket[start..start + segment.len()].iter().enumerate() {
                let slot = &mut next[qi as usize - range.start];
                segment[*slot] = (start + pos) as u32;
                *slot += 1;
            }
        });
        grouped.rows = positions;
        Layout { rows: grouped, bucket_of_row }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_order_keeps_each_q_and_row_order() {
        let q = [3u32, 0, 2, 3, 1, 0, 2, 3];
        let n_q = 4;
        let by_row = RowsByQ::new(&q, n_q);
        for bucket_rows in [1, 2, 3, 100] {
            let buckets = Buckets::new(n_q, bucket_rows, q.len(), |qi| by_row.count(qi));
            assert_eq!(*buckets.bounds.last().unwrap(), n_q);
            let layout = buckets.lay_out(&q, RowsByQ::offsets(&q, n_q));
            let grouped = &layout.rows;
            assert_eq!(grouped.offsets, by_row.offsets);
            // A column read through the bucket positions equals it read through the rows.
            let values: Vec<u32> = (0..q.len() as u32).map(|r| 10 * r).collect();
            let laid_out = buckets.scatter(&layout, |r| values[r]);
            for qi in 0..n_q {
                let through_buckets: Vec<u32> = grouped.of(qi).iter().map(|&p| laid_out[p as usize]).collect();
                let through_rows: Vec<u32> = by_row.of(qi).iter().map(|&r| values[r as usize]).collect();
                assert_eq!(through_buckets, through_rows, "q {qi}, bucket rows {bucket_rows}");
            }
            // Every position of q's rows lies in its bucket's segment.
            for b in 0..buckets.len() {
                let range = buckets.range(b);
                let segment = grouped.offsets[range.start]..grouped.offsets[range.end];
                for qi in range {
                    assert!(grouped.of(qi).iter().all(|&p| segment.contains(&(p as usize))));
                }
            }
        }
    }

    #[test]
    fn never_more_buckets_than_a_byte_counts() {
        let q: Vec<u32> = (0..3000u32).map(|r| (r * 7919) % 1000).collect();
        let by_row = RowsByQ::new(&q, 1000);
        let buckets = Buckets::new(1000, 1, q.len(), |qi| by_row.count(qi));
        assert!(buckets.len() <= MAX_BUCKETS && buckets.len() > 100, "{} buckets", buckets.len());
        let layout = buckets.lay_out(&q, RowsByQ::offsets(&q, 1000));
        let laid_out = buckets.scatter(&layout, |r| r as u32);
        for qi in 0..1000 {
            let through_buckets: Vec<u32> = layout.rows.of(qi).iter().map(|&p| laid_out[p as usize]).collect();
            assert_eq!(through_buckets, by_row.of(qi));
        }
    }
}
