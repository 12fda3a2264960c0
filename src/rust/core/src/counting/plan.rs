//! What one call computes: which dataset plays the original, which datasets (or
//! subsamples of them) are compared with it as syntheses, and the tau grid of the tau
//! curve (definitions vignette 10.1). The default plan is dataset 0 against every other dataset.

use crate::error::{CoreError, CoreResult};

/// A synthesis as the measures see it: a dataset, whole, a subsample of its rows, or a
/// resample (rows drawn with replacement, a bootstrap replicate: a row drawn k times
/// counts as k records).
#[derive(Debug, Clone, PartialEq)]
pub struct SynthesisView {
    pub dataset: usize,
    /// Rows (0-based) of the subsample or resample; `None` for every row.
    pub rows: Option<Vec<u32>>,
    /// Whether rows may repeat (a resample); a subsample's may not.
    pub repeats: bool,
}

impl SynthesisView {
    pub fn whole(dataset: usize) -> Self {
        SynthesisView { dataset, rows: None, repeats: false }
    }

    pub fn subsample(dataset: usize, rows: Vec<u32>) -> Self {
        SynthesisView { dataset, rows: Some(rows), repeats: false }
    }

    pub fn resample(dataset: usize, rows: Vec<u32>) -> Self {
        SynthesisView { dataset, rows: Some(rows), repeats: true }
    }

    /// Rows of the view, given the dataset's rows.
    pub fn n_rows(&self, dataset_rows: usize) -> usize {
        self.rows.as_ref().map_or(dataset_rows, |r| r.len())
    }
}

/// The tau values in ascending order and where each came from in the caller's order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TauGrid {
    pub sorted: Vec<f64>,
    /// `sorted[k]` is the caller's `tau[position[k]]`.
    pub position: Vec<usize>,
}

impl TauGrid {
    pub fn new(tau: &[f64]) -> CoreResult<Self> {
        if let Some(bad) = tau.iter().find(|t| !(**t >= 0.0 && **t <= 1.0)) {
            return Err(CoreError::new(format!("internal: tau must lie in [0, 1], not {bad}")));
        }
        let mut position: Vec<usize> = (0..tau.len()).collect();
        position.sort_by(|&a, &b| tau[a].total_cmp(&tau[b]));
        Ok(TauGrid { sorted: position.iter().map(|&i| tau[i]).collect(), position })
    }

    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// Bucket of a cell with proportion `p`: the number of tau values at most `p`. A cell
    /// counts towards D(tau_k) for every k below its bucket.
    #[inline]
    pub fn bucket(&self, p: f64) -> usize {
        self.sorted.partition_point(|&t| t <= p)
    }

    /// `100 * D(tau) / n_orig` for each tau in the caller's order, from the buckets'
    /// sums (`n + 1` of them): D(tau_k) is the sum of the buckets above k.
    pub fn curve(&self, buckets: &[f64], n_orig: f64) -> Vec<f64> {
        let n = self.sorted.len();
        let mut out = vec![0.0; n];
        let mut above = 0.0;
        for k in (0..n).rev() {
            above += buckets[k + 1];
            out[self.position[k]] = 100.0 * above / n_orig;
        }
        out
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub original: usize,
    pub syntheses: Vec<SynthesisView>,
    pub tau: TauGrid,
    /// Counted cells: per dataset, the number of records each row stands for (at least
    /// 1); empty, or `None` for a dataset, when every row is one record.
    pub weights: Vec<Option<Vec<u32>>>,
}

impl Plan {
    /// Dataset 0 against each of datasets `1..n_datasets`, whole, no tau curve.
    pub fn standard(n_datasets: usize) -> Self {
        Plan {
            original: 0,
            syntheses: (1..n_datasets).map(SynthesisView::whole).collect(),
            tau: TauGrid::default(),
            weights: Vec::new(),
        }
    }

    /// The records each row of `dataset` stands for; `None` for one each.
    pub fn weights_of(&self, dataset: usize) -> Option<&[u32]> {
        self.weights.get(dataset).and_then(|w| w.as_deref())
    }

    /// Records of `dataset` (weighted) in the rows `rows`, or in all its `n_rows` rows.
    pub fn records(&self, dataset: usize, rows: Option<&[u32]>, n_rows: usize) -> u64 {
        match (self.weights_of(dataset), rows) {
            (None, None) => n_rows as u64,
            (None, Some(r)) => r.len() as u64,
            (Some(w), None) => w.iter().map(|&x| x as u64).sum(),
            (Some(w), Some(r)) => r.iter().map(|&i| w[i as usize] as u64).sum(),
        }
    }

    /// Checks the plan against the datasets' row counts.
    pub fn validate(&self, dataset_rows: &[usize]) -> CoreResult<()> {
        let n = dataset_rows.len();
        if self.original >= n {
            return Err(CoreError::new(format!("internal: the plan's original is dataset {}, of {n}", self.original)));
        }
        if self.syntheses.is_empty() {
            return Err(CoreError::new("internal: the plan has no synthesis"));
        }
        if !self.weights.is_empty() && self.weights.len() != n {
            return Err(CoreError::new(format!("internal: weights for {} of {n} datasets", self.weights.len())));
        }
        for (d, w) in self.weights.iter().enumerate() {
            if let Some(w) = w {
                if w.len() != dataset_rows[d] {
                    return Err(CoreError::new(format!(
                        "internal: dataset {d} has {} weights for {} rows",
                        w.len(),
                        dataset_rows[d]
                    )));
                }
                if w.contains(&0) {
                    return Err(CoreError::new(format!("internal: dataset {d} has a row of weight 0")));
                }
                // Counts of a cell are u32 in the sweep.
                if w.iter().map(|&x| x as u64).sum::<u64>() > u32::MAX as u64 {
                    return Err(CoreError::new(format!(
                        "dataset {d} counts more than {} records; synthrisk handles at most that many",
                        u32::MAX
                    )));
                }
            }
        }
        let mut seen: Vec<bool> = Vec::new();
        for (i, v) in self.syntheses.iter().enumerate() {
            if v.dataset >= n {
                return Err(CoreError::new(format!(
                    "internal: plan synthesis {} is dataset {}, of {n}",
                    i + 1,
                    v.dataset
                )));
            }
            if let Some(rows) = &v.rows {
                seen.clear();
                seen.resize(dataset_rows[v.dataset], false);
                for &r in rows {
                    let slot = seen.get_mut(r as usize).ok_or_else(|| {
                        CoreError::new(format!(
                            "internal: plan synthesis {} has row {} of {}",
                            i + 1,
                            r as u64 + 1,
                            dataset_rows[v.dataset]
                        ))
                    })?;
                    if *slot && !v.repeats {
                        return Err(CoreError::new(format!(
                            "internal: plan synthesis {} repeats row {}",
                            i + 1,
                            r as u64 + 1
                        )));
                    }
                    *slot = true;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tau_grid_buckets_and_curve_keep_the_callers_order() {
        let g = TauGrid::new(&[1.0, 0.0, 0.5, 0.5]).unwrap();
        assert_eq!(g.sorted, vec![0.0, 0.5, 0.5, 1.0]);
        assert_eq!(g.bucket(0.0), 1);
        assert_eq!(g.bucket(0.49), 1);
        assert_eq!(g.bucket(0.5), 3);
        assert_eq!(g.bucket(1.0), 4);
        // Cells: 2 records at p = 1, 3 at p = 0.5 (contributing 1.5), 1 at 0.25 (0.25).
        let buckets = [0.0, 0.25, 0.0, 1.5, 2.0];
        let c = g.curve(&buckets, 10.0);
        assert_eq!(c, vec![20.0, 100.0 * 3.75 / 10.0, 35.0, 35.0]);
        assert!(TauGrid::new(&[1.5]).is_err());
        assert!(TauGrid::new(&[f64::NAN]).is_err());
    }

    #[test]
    fn plans_with_rows_out_of_range_or_repeated_are_rejected() {
        let mut p = Plan::standard(3);
        assert!(p.validate(&[4, 5, 6]).is_ok());
        p.syntheses[0].rows = Some(vec![0, 4]);
        assert!(p.validate(&[4, 5, 6]).is_ok());
        p.syntheses[0].rows = Some(vec![0, 5]);
        assert!(p.validate(&[4, 5, 6]).unwrap_err().to_string().contains("row 6 of 5"));
        p.syntheses[0].rows = Some(vec![1, 1]);
        assert!(p.validate(&[4, 5, 6]).unwrap_err().to_string().contains("repeats row 2"));
        // A resample may repeat rows, but not leave the dataset.
        p.syntheses[0] = SynthesisView::resample(1, vec![1, 1, 4]);
        assert!(p.validate(&[4, 5, 6]).is_ok());
        p.syntheses[0] = SynthesisView::resample(1, vec![1, 5]);
        assert!(p.validate(&[4, 5, 6]).unwrap_err().to_string().contains("row 6 of 5"));
        p.original = 3;
        assert!(p.validate(&[4, 5, 6]).is_err());
    }
}
