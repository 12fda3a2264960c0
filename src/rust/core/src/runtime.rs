//! What every computation runs on: the thread pool and interrupts (`workers`), memory
//! (`memory`) and the one error type (`error`).
pub mod error;
pub mod memory;
pub mod workers;
