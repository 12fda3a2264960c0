//! How each other dataset's levels of one variable meet the original's, from their
//! records by level (`EncodedVar::level_counts`): what R's notes ask of a variable with
//! levels on one side only (labels that barely meet, R/label-gaps.R's label_gap(), and
//! the tables synthpop 1.9-3 misaligns, R/encode.R's synthpop_misaligns()). Counted
//! here so that R reads a few numbers per dataset instead of working over every level,
//! and looks at the labels only when these numbers say there is something to say.

/// The original's records and, per other dataset (in order), how its levels meet the
/// original's.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelOverlap {
    /// The original's records, the missing level included.
    pub original_records: u64,
    pub sides: Vec<SideOverlap>,
}

/// One dataset against the original; "levels" leave out the missing level.
#[derive(Debug, Clone, PartialEq)]
pub struct SideOverlap {
    /// Its records, the missing level included.
    pub records: u64,
    /// Both sides have levels, and none is on both.
    pub shares_none: bool,
    /// The original's records at levels this dataset lacks.
    pub original_only: u64,
    /// This dataset's records at levels the original lacks.
    pub synthetic_only: u64,
    /// Every level of this dataset is one of the original's.
    pub within_original: bool,
    /// Every level of the original is one of this dataset's.
    pub covers_original: bool,
}

/// `counts`: per dataset (the original first) its records at each level; `missing`:
/// the missing level's code. Datasets with fewer counts than the original's are read
/// as having no records at the levels they lack.
pub fn level_overlap(counts: &[&[u64]], missing: usize) -> LevelOverlap {
    let Some((original, others)) = counts.split_first() else {
        return LevelOverlap { original_records: 0, sides: Vec::new() };
    };
    let at = |side: &[u64], level: usize| if level == missing { 0 } else { side.get(level).copied().unwrap_or(0) };
    let n_levels = counts.iter().map(|c| c.len()).max().unwrap_or(0);
    let original_has_levels = (0..n_levels).any(|l| at(original, l) > 0);
    let sides = others
        .iter()
        .map(|side| {
            let mut overlap = SideOverlap {
                records: side.iter().sum(),
                shares_none: true,
                original_only: 0,
                synthetic_only: 0,
                within_original: true,
                covers_original: true,
            };
            let mut side_has_levels = false;
            for level in 0..n_levels {
                let (d, s) = (at(original, level), at(side, level));
                side_has_levels |= s > 0;
                match (d > 0, s > 0) {
                    (true, true) => overlap.shares_none = false,
                    (true, false) => {
                        overlap.original_only += d;
                        overlap.covers_original = false;
                    }
                    (false, true) => {
                        overlap.synthetic_only += s;
                        overlap.within_original = false;
                    }
                    (false, false) => {}
                }
            }
            overlap.shares_none &= original_has_levels && side_has_levels;
            overlap
        })
        .collect();
    LevelOverlap { original_records: original.iter().sum(), sides }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_random::XorShift;

    /// The same from the definitions, by sets of levels.
    fn by_sets(counts: &[Vec<u64>], missing: usize) -> LevelOverlap {
        let n = counts.iter().map(|c| c.len()).max().unwrap_or(0);
        let levels = |c: &Vec<u64>| -> Vec<usize> {
            (0..n).filter(|&l| l != missing && c.get(l).copied().unwrap_or(0) > 0).collect()
        };
        let records_at = |c: &Vec<u64>, ls: &[usize]| -> u64 { ls.iter().map(|&l| c[l]).sum() };
        let orig = levels(&counts[0]);
        let sides = counts[1..]
            .iter()
            .map(|c| {
                let syn = levels(c);
                let both: Vec<usize> = orig.iter().copied().filter(|l| syn.contains(l)).collect();
                let orig_only: Vec<usize> = orig.iter().copied().filter(|l| !syn.contains(l)).collect();
                let syn_only: Vec<usize> = syn.iter().copied().filter(|l| !orig.contains(l)).collect();
                SideOverlap {
                    records: c.iter().sum(),
                    shares_none: both.is_empty() && !orig.is_empty() && !syn.is_empty(),
                    original_only: records_at(&counts[0], &orig_only),
                    synthetic_only: records_at(c, &syn_only),
                    within_original: syn_only.is_empty(),
                    covers_original: orig_only.is_empty(),
                }
            })
            .collect();
        LevelOverlap { original_records: counts[0].iter().sum(), sides }
    }

    #[test]
    fn overlap_equals_the_one_by_sets_of_levels() {
        let mut rng = XorShift::new(11);
        for _ in 0..3000 {
            let n_levels = 1 + rng.below(7) as usize;
            let n_datasets = 1 + rng.below(4) as usize;
            let counts: Vec<Vec<u64>> = (0..n_datasets)
                .map(|_| (0..n_levels).map(|_| if rng.below(2) == 0 { 0 } else { u64::from(rng.below(5)) }).collect())
                .collect();
            let missing = rng.below(n_levels as u64) as usize;
            let refs: Vec<&[u64]> = counts.iter().map(|c| c.as_slice()).collect();
            assert_eq!(level_overlap(&refs, missing), by_sets(&counts, missing), "{counts:?} missing {missing}");
        }
    }

    #[test]
    fn records_at_the_missing_level_count_as_records_not_levels() {
        let overlap = level_overlap(&[&[3, 0, 2], &[0, 4, 5]], 2);
        assert_eq!(overlap.original_records, 5);
        let side = &overlap.sides[0];
        assert_eq!((side.records, side.shares_none, side.original_only, side.synthetic_only), (9, true, 3, 4));
        assert!(!side.within_original && !side.covers_original);
        // Only the missing level on a side: no levels, so it shares none only vacuously.
        let overlap = level_overlap(&[&[0, 0, 2], &[1, 0, 0]], 2);
        assert!(!overlap.sides[0].shares_none);
        assert!(overlap.sides[0].covers_original && !overlap.sides[0].within_original);
    }
}
