//! The composite quasi-identifier `q`: one id per distinct tuple of key level codes,
//! shared by the original and every synthesis, built once for all targets.
//!
//! Keys are folded in mixed radix while the product of cardinalities stays small, and
//! compressed to dense ids whenever it would not. Ids are in lexicographic order of the
//! code tuples, so they do not depend on row order or on the number of threads.

use crate::codes::{CodeSource, LevelCodes};
use crate::error::{CoreError, CoreResult};
use crate::rows_by_q::RowsByQ;
use crate::with_codes;
use rayon::prelude::*;

/// Above this many possible tuples, compress by sorting instead of a direct table.
const DENSE_LIMIT: u64 = 1 << 22;

#[derive(Debug, Clone, PartialEq)]
pub struct KeyIndex {
    pub n_keys: usize,
    /// Number of distinct q over all datasets.
    pub n_q: usize,
    /// q id of every row, per dataset.
    pub q: Vec<Vec<u32>>,
    /// Key level codes of each q: `q_keys[q * n_keys + k]`.
    pub q_keys: Vec<u32>,
    /// Per dataset, where each q's rows start when its rows are grouped by q
    /// (`RowsByQ::offsets`), when counted while the ids were numbered.
    pub counted_offsets: Vec<Option<Vec<usize>>>,
}

impl KeyIndex {
    pub fn key_code(&self, q: usize, k: usize) -> u32 {
        self.q_keys[q * self.n_keys + k]
    }

    /// Where each q's rows start in dataset `d` grouped by q: counted with the ids, or
    /// now.
    pub fn offsets(&self, d: usize) -> Vec<usize> {
        match self.counted_offsets.get(d) {
            Some(Some(offsets)) => offsets.clone(),
            _ => RowsByQ::offsets(&self.q[d], self.n_q),
        }
    }
}

/// Replaces values (all `< n_values`) by dense ids in ascending value order.
fn compress(values: &mut [Vec<u64>], n_values: u64) -> u64 {
    if n_values <= DENSE_LIMIT {
        let present = PresentRanks::new(values.iter().flat_map(|d| d.iter()).map(|&v| v as usize), n_values as usize);
        values.par_iter_mut().for_each(|d| present.number(d));
        present.n_present() as u64
    } else {
        let mut distinct: Vec<u64> = values.iter().flat_map(|d| d.iter().copied()).collect();
        distinct.par_sort_unstable();
        distinct.dedup();
        values.par_iter_mut().for_each(|d| {
            d.iter_mut().for_each(|v| *v = distinct.binary_search(v).expect("value was collected") as u64)
        });
        distinct.len() as u64
    }
}

/// Builds the q index from key codes: `keys[k][dataset]` with `levels[k]` levels.
/// q ids are `u32`: more distinct key combinations than that is an error.
pub fn build_key_index(keys: &[&[LevelCodes<'_>]], levels: &[u32]) -> CoreResult<KeyIndex> {
    let n_keys = keys.len();
    let n_datasets = keys.first().map_or(0, |k| k.len());
    let product = levels.iter().try_fold(1u64, |p, &l| p.checked_mul(l.max(1) as u64)).filter(|&p| p <= DENSE_LIMIT);
    if let (Some(product), true) = (product, n_keys > 0) {
        return Ok(dense_key_index(keys, levels, product as usize));
    }
    let mut cur: Vec<Vec<u64>> = (0..n_datasets)
        .into_par_iter()
        .map(|d| {
            keys.first()
                .map_or_else(Vec::new, |k| with_codes!(&k[d], |s| (0..s.n_rows()).map(|i| s.code(i) as u64).collect()))
        })
        .collect();
    let mut cur_n: u64 = levels.first().map_or(1, |&l| l.max(1) as u64);
    for k in 1..n_keys {
        let l = levels[k].max(1) as u64;
        if cur_n.checked_mul(l).is_none_or(|p| p > DENSE_LIMIT) {
            cur_n = compress(&mut cur, cur_n);
        }
        let codes = keys[k];
        cur.par_iter_mut().zip(codes.par_iter()).for_each(|(c, kc)| {
            with_codes!(kc, |s| c.iter_mut().enumerate().for_each(|(i, v)| *v = *v * l + s.code(i) as u64))
        });
        cur_n *= l;
    }
    let n_q = if n_keys == 0 { 0 } else { compress(&mut cur, cur_n) };
    if n_q > u32::MAX as u64 {
        return Err(CoreError::new(format!(
            "the keys have {n_q} distinct combinations; synthrisk handles at most {}",
            u32::MAX
        )));
    }
    let q: Vec<Vec<u32>> = cur.into_par_iter().map(|d| d.into_iter().map(|v| v as u32).collect()).collect();
    Ok(with_key_codes(keys, q, n_q as usize))
}

/// The index of `parent`'s keys followed by one more key (`key`, per dataset, with
/// `levels` levels), from the parent's q ids: each row's pair (parent q, key code) in
/// mixed radix, numbered in ascending order. Parent ids are in lexicographic order of
/// their tuples, so the pairs' order is that of the longer tuples, and the index equals
/// `build_key_index` on all the keys. One pass over the rows instead of one per key (a
/// key sweep builds each subset from the subset without its last key). `None` when the
/// pairs do not fit a direct table, or the rows do not match.
pub fn extend_key_index(parent: &KeyIndex, key: &[LevelCodes<'_>], levels: u32) -> Option<KeyIndex> {
    let l = levels.max(1);
    let product = (parent.n_q as u64).checked_mul(l as u64).filter(|&p| p <= DENSE_LIMIT)? as usize;
    if key.len() != parent.q.len() || key.iter().zip(&parent.q).any(|(k, q)| k.len() != q.len()) {
        return None;
    }
    // Each row's pair, and which pairs occur, in one pass; then the ids, and the rows
    // of each id counted, in another.
    let mut bits = vec![0u64; product.div_ceil(64)];
    let mut values: Vec<Vec<u32>> = parent
        .q
        .iter()
        .zip(key)
        .map(|(q, codes)| {
            with_codes!(codes, |s| crate::memory::collected(
                q.len(),
                q.iter().enumerate().map(|(i, &qp)| {
                    let v = qp * l + s.code(i);
                    bits[v as usize >> 6] |= 1 << (v & 63);
                    v
                })
            ))
        })
        .collect();
    let present = PresentRanks::from_bits(bits);
    let counted_offsets = values.par_iter_mut().map(|d| Some(present.number_counting(d))).collect();
    let (n_parent, n_keys) = (parent.n_keys, parent.n_keys + 1);
    let n_q = present.n_present();
    let mut q_keys = vec![0u32; n_q * n_keys];
    for (codes, value) in q_keys.chunks_mut(n_keys).zip(present.ascending()) {
        let qp = value / l as usize;
        codes[..n_parent].copy_from_slice(&parent.q_keys[qp * n_parent..(qp + 1) * n_parent]);
        codes[n_parent] = (value % l as usize) as u32;
    }
    Some(KeyIndex { n_keys, n_q, q: values, q_keys, counted_offsets })
}

/// Rows per block of `dense_key_ids`: a block's tuple values stay in the first-level
/// cache while each key column is read into them.
const KEY_BLOCK_ROWS: usize = 4096;

/// The index when every possible tuple fits a direct table (`product` of the levels):
/// the tuples in mixed radix, folded key by key over blocks of rows (each column read
/// once, in sequence), then numbered in ascending order; each q's key codes are the
/// digits of its tuple.
fn dense_key_index(keys: &[&[LevelCodes<'_>]], levels: &[u32], product: usize) -> KeyIndex {
    let n_datasets = keys[0].len();
    let mut values: Vec<Vec<u32>> = (0..n_datasets)
        .into_par_iter()
        .map(|d| {
            let mut v = crate::memory::filled(keys[0][d].len(), 0u32);
            for (b, block) in v.chunks_mut(KEY_BLOCK_ROWS).enumerate() {
                let start = b * KEY_BLOCK_ROWS;
                for (k, key) in keys.iter().enumerate() {
                    let l = levels[k].max(1);
                    with_codes!(&key[d], |s| {
                        s.for_each_in(start..start + block.len(), |i, code| block[i] = block[i] * l + code)
                    });
                }
            }
            v
        })
        .collect();
    let present = PresentRanks::new(values.iter().flat_map(|d| d.iter()).map(|&v| v as usize), product);
    // Each dataset's rows per q counted while they are numbered: the index is built
    // beside the encoding of the other variables, where the grouping by q would count
    // them again on the call's one thread.
    let counted_offsets: Vec<Option<Vec<usize>>> =
        if values.iter().map(Vec::len).sum::<usize>() > crate::workers::LIGHT_STEP_ROWS {
            values.par_iter_mut().map(|d| Some(present.number_counting(d))).collect()
        } else {
            values.iter_mut().map(|d| Some(present.number_counting(d))).collect()
        };
    let n_keys = keys.len();
    let n_q = present.n_present();
    let mut q_keys = vec![0u32; n_q * n_keys];
    for (codes, tuple) in q_keys.chunks_mut(n_keys).zip(present.ascending()) {
        let mut rest = tuple as u32;
        for k in (0..n_keys).rev() {
            let l = levels[k].max(1);
            codes[k] = rest % l;
            rest /= l;
        }
    }
    KeyIndex { n_keys, n_q, q: values, q_keys, counted_offsets }
}

/// Which of the values `0..n_values` occur, as bits, with the number that occur before
/// each word of bits: a value's dense id (its rank among those that occur, in ascending
/// order) in constant time, for memory of two bits per possible value.
struct PresentRanks {
    bits: Vec<u64>,
    before: Vec<u32>,
}

impl PresentRanks {
    fn new(values: impl Iterator<Item = usize>, n_values: usize) -> Self {
        let mut bits = vec![0u64; n_values.div_ceil(64)];
        for v in values {
            bits[v >> 6] |= 1 << (v & 63);
        }
        Self::from_bits(bits)
    }

    /// From the bits of the values that occur.
    fn from_bits(bits: Vec<u64>) -> Self {
        let mut before = Vec::with_capacity(bits.len() + 1);
        let mut n = 0u32;
        for w in &bits {
            before.push(n);
            n += w.count_ones();
        }
        before.push(n);
        PresentRanks { bits, before }
    }

    fn n_present(&self) -> usize {
        self.before.last().copied().unwrap_or(0) as usize
    }

    /// The id of a value that occurs.
    #[inline(always)]
    fn id(&self, v: usize) -> u32 {
        let below = self.bits[v >> 6] & ((1u64 << (v & 63)) - 1);
        self.before[v >> 6] + below.count_ones()
    }

    /// Replaces each value (all occur) by its id. A value's id counts bits: with the
    /// CPU's population count where it has one (most x86-64 since 2008; Rust's baseline
    /// target does not assume it, and counts bits in a dozen instructions otherwise).
    fn number<V: Copy + TryFrom<u32> + Into<u64>>(&self, values: &mut [V]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the feature the function is compiled for.
            unsafe { self.number_with_popcnt(values) };
            return;
        }
        self.number_portable(values);
    }

    #[inline(always)]
    fn number_portable<V: Copy + TryFrom<u32> + Into<u64>>(&self, values: &mut [V]) {
        for v in values.iter_mut() {
            let value: u64 = (*v).into();
            // Ids are below the number of values, which fits `V`.
            if let Ok(id) = V::try_from(self.id(value as usize)) {
                *v = id;
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn number_with_popcnt<V: Copy + TryFrom<u32> + Into<u64>>(&self, values: &mut [V]) {
        self.number_portable(values);
    }

    /// `number` on `u32` values, also counting the values of each id: returns where
    /// each id's values start when grouped by id (`RowsByQ::offsets` of the ids).
    fn number_counting(&self, values: &mut [u32]) -> Vec<usize> {
        let mut offsets = vec![0usize; self.n_present() + 1];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the feature the function is compiled for.
            unsafe { self.number_counting_with_popcnt(values, &mut offsets) };
            return offsets;
        }
        self.number_counting_portable(values, &mut offsets);
        offsets
    }

    #[inline(always)]
    fn number_counting_portable(&self, values: &mut [u32], offsets: &mut [usize]) {
        for v in values.iter_mut() {
            let id = self.id(*v as usize);
            *v = id;
            offsets[id as usize + 1] += 1;
        }
        for i in 1..offsets.len() {
            offsets[i] += offsets[i - 1];
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn number_counting_with_popcnt(&self, values: &mut [u32], offsets: &mut [usize]) {
        self.number_counting_portable(values, offsets);
    }

    /// The values that occur, ascending.
    fn ascending(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(i, &w)| {
            let mut rest = w;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    i * 64 + bit
                })
            })
        })
    }
}

/// The index from the q ids of every row, with each q's key codes.
fn with_key_codes(keys: &[&[LevelCodes<'_>]], q: Vec<Vec<u32>>, n_q: usize) -> KeyIndex {
    let n_keys = keys.len();
    let mut q_keys = vec![0u32; n_q * n_keys];
    let mut seen = vec![false; n_q];
    let mut n_seen = 0;
    // The first record of each q gives its key codes; the scan ends once all are known.
    'datasets: for (d, qd) in q.iter().enumerate() {
        for (row, &qi) in qd.iter().enumerate() {
            let qi = qi as usize;
            if !seen[qi] {
                seen[qi] = true;
                for k in 0..n_keys {
                    q_keys[qi * n_keys + k] = keys[k][d].get(row);
                }
                n_seen += 1;
                if n_seen == n_q {
                    break 'datasets;
                }
            }
        }
    }
    KeyIndex { n_keys, n_q, q, q_keys, counted_offsets: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_tuple_same_id_across_datasets() {
        let k1 = vec![LevelCodes::U8(vec![0, 1, 0, 1]), LevelCodes::U8(vec![1, 0, 2])];
        let k2 = vec![LevelCodes::U8(vec![1, 1, 1, 0]), LevelCodes::U8(vec![1, 1, 0])];
        let idx = build_key_index(&[&k1, &k2], &[3, 2]).unwrap();
        assert_eq!(idx.n_q, 4);
        // tuples (0,1) (1,1) (0,1) (1,0) | (1,1) (0,1) (2,0): sorted ids (0,1)=0 (1,0)=1 (1,1)=2 (2,0)=3
        assert_eq!(idx.q[0], vec![0, 2, 0, 1]);
        assert_eq!(idx.q[1], vec![2, 0, 3]);
        assert_eq!((idx.key_code(3, 0), idx.key_code(3, 1)), (2, 0));
    }

    #[test]
    fn present_values_are_numbered_in_ascending_order() {
        let values = [130usize, 0, 63, 64, 130, 7, 199];
        let present = PresentRanks::new(values.iter().copied(), 200);
        let ascending: Vec<usize> = present.ascending().collect();
        assert_eq!(ascending, vec![0, 7, 63, 64, 130, 199]);
        assert_eq!(present.n_present(), 6);
        for (id, &v) in ascending.iter().enumerate() {
            assert_eq!(present.id(v), id as u32);
        }
    }

    #[test]
    fn direct_table_and_compression_give_the_same_ids() {
        // A third key of 2^23 levels (always level 0) sends the same tuples down the
        // compressing path; ids in tuple order cannot differ.
        let a: Vec<Vec<u32>> = vec![(0..500).map(|i| i * 31 % 97).collect(), (0..300).map(|i| i * 17 % 101).collect()];
        let b: Vec<Vec<u32>> = vec![(0..500).map(|i| i % 7).collect(), (0..300).map(|i| i * 5 % 9).collect()];
        let codes = |x: &Vec<Vec<u32>>, l: u32| -> Vec<LevelCodes<'static>> {
            x.iter().map(|d| LevelCodes::narrow(d.clone(), l)).collect()
        };
        let (ka, kb) = (codes(&a, 101), codes(&b, 9));
        let kz: Vec<LevelCodes<'static>> = vec![LevelCodes::U32(vec![0; 500]), LevelCodes::U32(vec![0; 300])];
        let direct = build_key_index(&[&ka, &kb], &[101, 9]).unwrap();
        let compressed = build_key_index(&[&ka, &kb, &kz], &[101, 9, 1 << 23]).unwrap();
        assert_eq!(direct.q, compressed.q);
        assert_eq!(direct.n_q, compressed.n_q);
        for q in 0..direct.n_q {
            assert_eq!(
                (direct.key_code(q, 0), direct.key_code(q, 1)),
                (compressed.key_code(q, 0), compressed.key_code(q, 1))
            );
        }
    }

    /// Above `LIGHT_STEP_ROWS` rows the direct table numbers its datasets in parallel,
    /// below on the calling thread: both give the compressing path's ids, and a dataset's
    /// ids do not depend on the rows of the others beyond the tuples they share.
    #[test]
    fn ids_numbered_in_parallel_for_large_data_equal_the_compressed_ones() {
        let rows = crate::workers::LIGHT_STEP_ROWS / 2 + 1000;
        // Even codes only: tuples leave gaps, so that ids differ from the tuples' values.
        let a: Vec<Vec<u32>> = (0..2).map(|d| (0..rows as u32).map(|i| (i * 31 + d) % 97 * 2).collect()).collect();
        let b: Vec<Vec<u32>> = (0..2).map(|d| (0..rows as u32).map(|i| (i / 3 + d) % 11).collect()).collect();
        let codes = |x: &[Vec<u32>], l: u32| -> Vec<LevelCodes<'static>> {
            x.iter().map(|d| LevelCodes::narrow(d.clone(), l)).collect()
        };
        let (ka, kb) = (codes(&a, 194), codes(&b, 11));
        let kz: Vec<LevelCodes<'static>> = (0..2).map(|_| LevelCodes::U32(vec![0; rows])).collect();
        assert!(2 * rows > crate::workers::LIGHT_STEP_ROWS);
        let direct = build_key_index(&[&ka, &kb], &[194, 11]).unwrap();
        let compressed = build_key_index(&[&ka, &kb, &kz], &[194, 11, 1 << 23]).unwrap();
        assert_eq!(direct.q, compressed.q);
        assert_eq!(direct.n_q, compressed.n_q);
        assert_eq!(direct.n_q, 97 * 11);
        // The first 1000 rows of each dataset alone (the light path) hold the same tuples
        // in the same order: their ids rank those tuples among themselves.
        let head = |x: &[Vec<u32>], l: u32| -> Vec<LevelCodes<'static>> {
            x.iter().map(|d| LevelCodes::narrow(d[..1000].to_vec(), l)).collect()
        };
        let small = build_key_index(&[&head(&a, 194), &head(&b, 11)], &[194, 11]).unwrap();
        for d in 0..2 {
            for (&s, &big) in small.q[d].iter().zip(&direct.q[d]) {
                let tuple = |idx: &KeyIndex, q: u32| (idx.key_code(q as usize, 0), idx.key_code(q as usize, 1));
                assert_eq!(tuple(&small, s), tuple(&direct, big));
            }
        }
    }

    /// An index extended by one key equals the index built on all the keys, through the
    /// direct table or the compressing path; pairs beyond a direct table are refused.
    #[test]
    fn an_extended_index_equals_the_index_built_on_all_its_keys() {
        let mut rng = crate::test_random::XorShift::new(0x3C6E_F372_FE94_F82Bu64);
        let mut next = move |k: u64| rng.below(k);
        for case in 0..40 {
            let sizes = [1 + next(300) as usize, 1 + next(200) as usize];
            let levels: Vec<u32> = (0..4).map(|k| if case % 5 == 0 && k == 2 { 5000 } else { 1 + next(40) }).collect();
            let keys: Vec<Vec<LevelCodes<'static>>> = levels
                .iter()
                .map(|&l| {
                    sizes.iter().map(|&n| LevelCodes::narrow((0..n).map(|_| next(l as u64)).collect(), l)).collect()
                })
                .collect();
            let mut index = build_key_index(&[&keys[0]], &levels[..1]).unwrap();
            for k in 1..keys.len() {
                let all: Vec<&[LevelCodes<'_>]> = keys[..=k].iter().map(|c| c.as_slice()).collect();
                let built = build_key_index(&all, &levels[..=k]).unwrap();
                // Rows per q, counted while the ids were numbered or now, are the ids' counts.
                for (d, q) in built.q.iter().enumerate() {
                    assert_eq!(built.offsets(d), RowsByQ::offsets(q, built.n_q), "case {case}, key {k}, built");
                }
                match extend_key_index(&index, &keys[k], levels[k]) {
                    Some(extended) => {
                        for (d, q) in extended.q.iter().enumerate() {
                            assert_eq!(extended.offsets(d), RowsByQ::offsets(q, extended.n_q), "case {case}, key {k}");
                        }
                        let without_counts = KeyIndex { counted_offsets: Vec::new(), ..extended };
                        let built_without_counts = KeyIndex { counted_offsets: Vec::new(), ..built.clone() };
                        assert_eq!(without_counts, built_without_counts, "case {case}, key {k}");
                    }
                    None => assert!(index.n_q as u64 * levels[k] as u64 > DENSE_LIMIT, "case {case}, key {k}"),
                }
                index = built;
            }
        }
        let one = build_key_index(&[&[LevelCodes::U8(vec![0, 1])][..]], &[2]).unwrap();
        assert!(extend_key_index(&one, &[LevelCodes::U8(vec![0])], 2).is_none(), "rows that do not match");
    }

    #[test]
    fn many_high_cardinality_keys_compress_without_overflow() {
        let n = 1000u32;
        let a: Vec<u32> = (0..n).map(|i| i * 7919 % 100_000).collect();
        let b: Vec<u32> = (0..n).map(|i| i * 104_729 % 100_000).collect();
        let c: Vec<u32> = (0..n).map(|i| i % 3).collect();
        let (ka, kb, kc) = (
            vec![LevelCodes::narrow(a.clone(), 100_000)],
            vec![LevelCodes::narrow(b.clone(), 100_000)],
            vec![LevelCodes::narrow(c.clone(), 3)],
        );
        let idx = build_key_index(&[&ka, &kb, &kc], &[100_000, 100_000, 3]).unwrap();
        let mut tuples: Vec<(u32, u32, u32)> = (0..n as usize).map(|i| (a[i], b[i], c[i])).collect();
        tuples.sort();
        tuples.dedup();
        assert_eq!(idx.n_q, tuples.len());
        for i in 0..n as usize {
            let q = idx.q[0][i] as usize;
            assert_eq!(tuples[q], (a[i], b[i], c[i]));
        }
    }
}
