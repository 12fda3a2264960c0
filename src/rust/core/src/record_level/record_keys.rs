//! Record-level keys: each record's q (shared by the original and every dataset) and,
//! per dataset, how many of its records have each q. From these, R reads per record
//! whether it is unique in the original, in its synthesis, or both (replicated
//! uniques), without pasting keys or comparing records.

use crate::codes::LevelCodes;
use crate::error::{CoreError, CoreResult};
use crate::keys::build_key_index;
use crate::workers::{ShouldStop, Workers};
use rayon::prelude::*;

pub struct RecordKeys {
    pub n_q: usize,
    /// q (0-based) of every row, per dataset.
    pub q: Vec<Vec<u32>>,
    /// Rows of each q, per dataset.
    pub counts: Vec<Vec<u32>>,
}

/// `keys[k][dataset]`: key codes with `levels[k]` levels.
pub fn record_keys(
    workers: &Workers,
    keys: &[&[LevelCodes<'_>]],
    levels: &[u32],
    should_stop: ShouldStop<'_>,
) -> CoreResult<RecordKeys> {
    if keys.is_empty() || keys.len() != levels.len() {
        return Err(CoreError::new("internal: need at least one key, with its level count"));
    }
    let index = workers.chunk(should_stop, || build_key_index(keys, levels))??;
    let n_q = index.n_q;
    let counts: Vec<Vec<u32>> = workers.chunk(should_stop, || {
        index
            .q
            .par_iter()
            .map(|q| {
                let mut c = vec![0u32; n_q];
                for &qi in q {
                    c[qi as usize] += 1;
                }
                c
            })
            .collect()
    })?;
    Ok(RecordKeys { n_q, q: index.q, counts })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::never_stop;

    #[test]
    fn counts_of_each_q_per_dataset() {
        let w = Workers::new(2).unwrap();
        let k1 = vec![LevelCodes::U8(vec![0, 0, 1]), LevelCodes::U8(vec![1, 1, 0, 2])];
        let k2 = vec![LevelCodes::U8(vec![0, 1, 1]), LevelCodes::U8(vec![1, 1, 0, 0])];
        let r = record_keys(&w, &[&k1, &k2], &[3, 2], &never_stop).unwrap();
        // Tuples: (0,0) (0,1) (1,1) | (1,1) (1,1) (0,0) (2,0): q in lexicographic order.
        assert_eq!(r.n_q, 4);
        assert_eq!(r.q[0], vec![0, 1, 2]);
        assert_eq!(r.q[1], vec![2, 2, 0, 3]);
        assert_eq!(r.counts[0], vec![1, 1, 1, 0]);
        assert_eq!(r.counts[1], vec![1, 0, 2, 1]);
    }
}
