//! What every computation runs on: the thread pool and interrupts (`workers`), memory
//! (`memory`), the one error type (`error`), and the phase timer of the benchmarks
//! (`phase_times`).
pub mod error;
pub mod memory;
pub mod phase_times;
pub mod workers;
