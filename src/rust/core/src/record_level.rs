//! Record by record: each record's q and its counts (`record_keys`), each record's
//! flags and risks for a target (`records`), and Hu's identification risk for
//! partially synthetic data (`identification`).
pub mod identification;
pub mod record_keys;
pub mod records;
