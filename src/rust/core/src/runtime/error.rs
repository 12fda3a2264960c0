//! The one error type of the core: a message for the user, or the news that the user
//! asked to stop; never a panic.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoreError {
    /// Something the caller must hear about, in words.
    Message(String),
    /// The caller's "should stop" callback said yes between two chunks of work.
    Interrupted,
}

impl CoreError {
    pub fn new(msg: impl Into<String>) -> Self {
        CoreError::Message(msg.into())
    }

    pub fn is_interrupt(&self) -> bool {
        matches!(self, CoreError::Interrupted)
    }
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::Message(m) => f.write_str(m),
            CoreError::Interrupted => f.write_str("interrupted by the user"),
        }
    }
}

impl std::error::Error for CoreError {}

pub type CoreResult<T> = Result<T, CoreError>;

/// Row ids are `u32` and R lengths `i32`: a dataset may hold at most this many rows.
pub const MAX_ROWS: usize = i32::MAX as usize;

/// An error naming the limit when a dataset has more rows than the core can count.
pub fn check_row_count(n_rows: usize, dataset: usize) -> CoreResult<()> {
    if n_rows > MAX_ROWS {
        let which = if dataset == 0 { "The original data".to_string() } else { format!("Synthesis {dataset}") };
        return Err(CoreError::new(format!(
            "{which} has {n_rows} rows; synthrisk counts at most {MAX_ROWS} (2^31 - 1) rows per dataset"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_counts_beyond_2_pow_31_are_rejected_naming_the_limit() {
        assert!(check_row_count(MAX_ROWS, 0).is_ok());
        let e = check_row_count(MAX_ROWS + 1, 2).unwrap_err().to_string();
        assert!(e.contains("Synthesis 2 has 2147483648 rows"), "{e}");
        assert!(e.contains("2147483647 (2^31 - 1)"), "{e}");
        let e = check_row_count(1 << 33, 0).unwrap_err().to_string();
        assert!(e.starts_with("The original data has 8589934592 rows"), "{e}");
    }
}
