//! synthrisk's counting core: disclosure measures for synthetic data on integer-coded
//! variables. No R types here; `src/rust/src/lib.rs` is the R glue.

pub mod bucket_order;
pub mod checks;
pub mod codes;
pub mod distance;
pub mod distance_tables;
pub mod encode;
pub mod engine;
pub mod error;
pub mod exclusions;
pub mod identification;
pub mod keys;
pub mod measures;
pub mod memory;
pub mod nearest;
pub mod plan;
pub mod record_keys;
pub mod records;
pub mod rows_by_q;
pub mod sweep;
#[cfg(test)]
mod test_random;
pub mod workers;
