//! Wall times of a call's phases, for bench/phase-times.sh: built only with
//! `RUSTFLAGS="--cfg synthrisk_phase_times"`, which the package's own build never sets
//! (its cargo inherits RUSTFLAGS, so an installer's environment could), so that the
//! package as built neither times nor writes anything (test-rust-calls.R checks the
//! installed library).

/// `$body`'s value; built with the `synthrisk_phase_times` cfg, also a line
/// "synthrisk phase <name> <microseconds>" on standard error, read by
/// bench/phase-times.R. The cfg is read in the crate that uses the macro: the glue
/// needs the flag as the core does (RUSTFLAGS reaches every crate).
#[macro_export]
macro_rules! phase {
    ($name:expr, $body:expr) => {{
        #[cfg(synthrisk_phase_times)]
        let started = std::time::Instant::now();
        let value = $body;
        #[cfg(synthrisk_phase_times)]
        eprintln!("synthrisk phase {} {}", $name, started.elapsed().as_micros());
        value
    }};
}
