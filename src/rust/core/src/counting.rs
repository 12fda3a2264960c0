//! Counting on key tuples: the composite key q (`keys`, indexed with a small call's
//! encoding by `encode_ahead`), rows grouped by q
//! (`rows_by_q`, `bucket_order`), the plan of syntheses (`plan`), every target and
//! synthesis in one call (`engine`) of passes over q ranges (`sweep`), the exclusions
//! and tables (`exclusions`), the named measures (`measures`), the checks' inputs
//! (`checks`, with the original's key-by-target tables, `key_target_counts`) and many subsets of keys in one call (`key_subsets`).
pub mod bucket_order;
pub mod checks;
pub mod encode_ahead;
pub mod engine;
pub mod exclusions;
pub mod key_subsets;
pub mod key_target_counts;
pub mod keys;
pub mod measures;
pub mod plain_pass;
pub mod plan;
pub mod rows_by_q;
pub mod sweep;
pub mod two_way_tables;
