//! The order in which a call runs its searches (`dcr()` and the attacks): each search
//! looks records up in an indexed dataset, and what is built for that dataset (an
//! index, a synthesis's distinct records) is built on its first search and dropped
//! after its last, so that a call builds it once and, with the searches grouped by
//! dataset, holds one at a time (memory O(N), not O(m N)).

use crate::error::CoreError;

/// Runs `searches` in order: `indexed` gives each search's dataset (below
/// `n_datasets`), `build` makes that dataset's value on its first search, `each` runs
/// the search with it; the value is dropped after the dataset's last search. Returns
/// what `each` returned, per search.
pub fn run_each_indexed_once<S, T, R>(
    searches: &[S],
    n_datasets: usize,
    indexed: impl Fn(&S) -> usize,
    mut build: impl FnMut(&S) -> Result<T, CoreError>,
    mut each: impl FnMut(&S, &T) -> Result<R, CoreError>,
) -> Result<Vec<R>, CoreError> {
    let mut last_search = vec![usize::MAX; n_datasets];
    for (k, s) in searches.iter().enumerate() {
        let d = indexed(s);
        *last_search
            .get_mut(d)
            .ok_or_else(|| CoreError::new(format!("a search of dataset {d}, beyond the {n_datasets} datasets")))? = k;
    }
    let mut built: Vec<Option<T>> = (0..n_datasets).map(|_| None).collect();
    let mut out = Vec::with_capacity(searches.len());
    for (k, search) in searches.iter().enumerate() {
        let d = indexed(search);
        if built[d].is_none() {
            built[d] = Some(build(search)?);
        }
        if let Some(value) = &built[d] {
            out.push(each(search, value)?);
        }
        if last_search[d] == k {
            built[d] = None;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

    /// A built value that counts how many are alive.
    struct Built {
        dataset: usize,
        alive: Rc<Cell<usize>>,
    }

    impl Drop for Built {
        fn drop(&mut self) {
            self.alive.set(self.alive.get() - 1);
        }
    }

    #[test]
    fn each_dataset_is_built_once_and_dropped_after_its_last_search() {
        // (indexed dataset, query) pairs: grouped by dataset as R sends them, and not.
        for searches in [vec![(1, 0), (1, 3), (2, 0), (2, 3), (3, 0)], vec![(2, 0), (1, 0), (2, 3), (1, 3), (1, 0)]] {
            let alive = Rc::new(Cell::new(0));
            let builds = Cell::new(0);
            let mut most_alive = 0;
            let out = run_each_indexed_once(
                &searches,
                4,
                |s| s.0,
                |s| {
                    builds.set(builds.get() + 1);
                    alive.set(alive.get() + 1);
                    Ok(Built { dataset: s.0, alive: alive.clone() })
                },
                |s, b| {
                    assert_eq!(b.dataset, s.0);
                    most_alive = most_alive.max(alive.get());
                    Ok(s.0 * 10 + s.1)
                },
            )
            .unwrap();
            assert_eq!(out, searches.iter().map(|s| s.0 * 10 + s.1).collect::<Vec<_>>());
            let datasets: std::collections::BTreeSet<usize> = searches.iter().map(|s| s.0).collect();
            assert_eq!(builds.get(), datasets.len());
            assert_eq!(alive.get(), 0);
            // Grouped searches hold one value at a time; interleaved ones at most two.
            assert_eq!(most_alive, if searches[1].0 == searches[0].0 { 1 } else { 2 });
        }
    }

    #[test]
    fn a_search_beyond_the_datasets_is_an_error_and_errors_stop_the_run() {
        let err = run_each_indexed_once(&[5usize], 3, |&s| s, |_| Ok(()), |_, _| Ok(())).unwrap_err();
        assert!(err.to_string().contains("dataset 5, beyond the 3 datasets"));
        let mut ran = 0;
        let err = run_each_indexed_once(
            &[0usize, 1, 2],
            3,
            |&s| s,
            |&s| if s == 1 { Err(CoreError::new("no index")) } else { Ok(()) },
            |_, _| {
                ran += 1;
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "no index");
        assert_eq!(ran, 1);
    }
}
