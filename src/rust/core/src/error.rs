//! The one error type of the core: a message for the user, never a panic.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoreError(pub String);

impl CoreError {
    pub fn new(msg: impl Into<String>) -> Self {
        CoreError(msg.into())
    }
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CoreError {}

pub type CoreResult<T> = Result<T, CoreError>;
