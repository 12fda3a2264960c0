//! What every computation runs on: the thread pool and interrupts (`workers`), memory
//! (`memory`), the one error type (`error`), the phase timer of the benchmarks
//! (`phase_times`), and loops compiled for the CPU at hand (`cpu_dispatch`).
pub mod cpu_dispatch;
pub mod error;
pub mod memory;
pub mod phase_times;
pub mod workers;
