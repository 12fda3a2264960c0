//! Rows of one dataset grouped by q (a counting sort), so that every target can walk
//! the cells of a q without hashing.

pub struct RowsByQ {
    /// Rows of q are `rows[offsets[q]..offsets[q + 1]]`.
    pub offsets: Vec<usize>,
    pub rows: Vec<u32>,
}

impl RowsByQ {
    pub fn new(q: &[u32], n_q: usize) -> Self {
        let offsets = Self::offsets(q, n_q);
        let mut next = offsets.clone();
        let mut rows = crate::memory::filled(q.len(), 0u32);
        for (row, &qi) in q.iter().enumerate() {
            let slot = &mut next[qi as usize];
            rows[*slot] = row as u32;
            *slot += 1;
        }
        RowsByQ { offsets, rows }
    }

    /// Where the rows of each q start when rows with keys `q` are grouped by q (and
    /// `n_rows` at the end).
    pub fn offsets(q: &[u32], n_q: usize) -> Vec<usize> {
        let mut offsets = vec![0usize; n_q + 1];
        for &qi in q {
            offsets[qi as usize + 1] += 1;
        }
        for i in 0..n_q {
            offsets[i + 1] += offsets[i];
        }
        offsets
    }

    /// The rows `subset` of a dataset whose rows have keys `q`, grouped by q; the row ids
    /// stay those of the whole dataset.
    pub fn subset(q: &[u32], subset: &[u32], n_q: usize) -> Self {
        let mut offsets = vec![0usize; n_q + 1];
        for &r in subset {
            offsets[q[r as usize] as usize + 1] += 1;
        }
        for i in 0..n_q {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut rows = crate::memory::filled(subset.len(), 0u32);
        for &r in subset {
            let slot = &mut next[q[r as usize] as usize];
            rows[*slot] = r;
            *slot += 1;
        }
        RowsByQ { offsets, rows }
    }

    /// Entries held (offsets and rows): the memory a view costs, in words.
    pub fn size_for(n_q: usize, n_rows: usize) -> usize {
        n_q + 1 + n_rows
    }

    pub fn of(&self, q: usize) -> &[u32] {
        &self.rows[self.offsets[q]..self.offsets[q + 1]]
    }

    pub fn count(&self, q: usize) -> usize {
        self.offsets[q + 1] - self.offsets[q]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_rows_stably() {
        let g = RowsByQ::new(&[2, 0, 2, 1, 0], 4);
        assert_eq!(g.of(0), &[1, 4]);
        assert_eq!(g.of(1), &[3]);
        assert_eq!(g.of(2), &[0, 2]);
        assert_eq!(g.count(3), 0);
        let s = RowsByQ::subset(&[2, 0, 2, 1, 0], &[4, 2, 0], 4);
        assert_eq!(s.of(0), &[4]);
        assert_eq!(s.of(2), &[2, 0]);
        assert_eq!(s.count(1), 0);
    }
}
