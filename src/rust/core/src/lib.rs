//! synthrisk's counting core: disclosure measures, record-level flags and nearest
//! records for synthetic data, on integer-coded variables. No R types here;
//! `src/rust/src/lib.rs` is the R glue. The modules are grouped by capability (one
//! folder each); each module is also re-exported at the crate root, so that a path
//! names the module, not the folder.

pub mod attacks;
pub mod counting;
pub mod distances;
pub mod encoding;
pub mod record_level;
pub mod runtime;
#[cfg(test)]
mod test_random;

pub use attacks::{inference, linkability, r_sampling, singling_out, tie_sets};
pub use counting::{
    bucket_order, checks, encode_ahead, engine, exclusions, key_subsets, key_target_counts, keys, measures, plain_pass,
    plan, rows_by_q, sweep, two_way_tables,
};
pub use distances::{distance, distance_tables, nearest, search_order};
pub use encoding::{codes, encode, level_overlap, whole_numbers};
pub use record_level::{identification, record_keys, records};
pub use runtime::{error, memory, workers};
