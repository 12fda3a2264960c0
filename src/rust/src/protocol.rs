//! The R–Rust protocol: every value R sends is read into a typed Rust value or refused
//! with an "internal: ..." error naming it (R validated the user's input before, so a
//! refusal here is a bug, never clamped or defaulted away); every result goes back as
//! a named R list. Errors travel to R as data (a classed list), never as a panic.

use extendr_api::prelude::*;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::os::raw::c_int;
use synthrisk_core::error::CoreError;
use synthrisk_core::workers::{threads_for, Workers};

pub type GlueResult<T> = std::result::Result<T, CoreError>;

extern "C" {
    /// 1 when the user asked to interrupt (src/entrypoint.c: `R_CheckUserInterrupt`
    /// inside `R_ToplevelExec`, so R's longjmp never crosses a Rust frame).
    fn synthrisk_user_interrupt() -> c_int;
}

/// The "should stop" callback of the core; called on the R thread between chunks.
pub fn user_interrupt() -> bool {
    // SAFETY: called only on R's main thread, outside any rayon closure; the C side
    // catches the interrupt's longjmp itself.
    unsafe { synthrisk_user_interrupt() != 0 }
}

pub fn internal(msg: impl std::fmt::Display) -> CoreError {
    CoreError::new(format!("internal: {msg}"))
}

/// The one error of a list R sent that is not of the shape its `mod wire` declares.
pub fn wire_error(what: &str) -> impl Fn(extendr_api::Error) -> CoreError + '_ {
    move |e| internal(format!("`{what}` is not as the protocol says: {e}"))
}

/// The request of an entry point (lib.rs's `entry_points!`): one named list read by
/// serde (extendr's `serde` feature) into the typed struct its topic's `mod wire`
/// declares (`#[derive(Deserialize)]`, unknown fields refused), or refused whole with
/// one "internal" error that names the element serde stopped at, as R reaches it
/// (`request$targets[[1]]$var`, through `serde_path_to_error`). Strings are checked
/// first: extendr 0.9's deserializer panics (`unimplemented!`) on a character vector
/// read as a sequence (extendr turns the panic into an R error, but the glue never
/// panics), so a request sends strings only as elements of an unnamed list, one string
/// each (as `Vec<String>` reads them); anything else is refused here, before serde
/// sees it.
pub fn read_request<T: DeserializeOwned>(x: &Robj) -> GlueResult<T> {
    strings_as_lists(x, false).map_err(wire_error("request"))?;
    // Read without tracking the path (tracking costs every element of a long vector,
    // such as a curve's subsample rows: 7 % of a size curve); read again with it only
    // to name the element at fault.
    extendr_api::deserializer::from_robj::<T>(x).map_err(|plain| match serde_path_to_error::deserialize::<_, T>(x) {
        Err(e) => internal(format!("`{}` is not as the protocol says: {}", r_path(e.path()), e.inner())),
        Ok(_) => wire_error("request")(plain),
    })
}

/// Where in a request serde stopped, written as R would reach it
/// (`request$targets[[2]]$var`), so that the error names the element R sent wrong.
fn r_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::from("request");
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[[{}]]", index + 1)),
            Segment::Map { key } | Segment::Enum { variant: key } => out.push_str(&format!("${key}")),
            Segment::Unknown => out.push_str("$?"),
        }
    }
    out
}

/// Refuses a character vector that is not one string in an unnamed list.
fn strings_as_lists(x: &Robj, in_unnamed_list: bool) -> extendr_api::Result<()> {
    match x.rtype() {
        Rtype::Strings if x.len() != 1 || !in_unnamed_list => {
            Err(extendr_api::Error::Other("a character vector that is not one string of a list".into()))
        }
        Rtype::List => {
            let unnamed = x.names().is_none();
            List::try_from(x)?.values().try_for_each(|v| strings_as_lists(&v, unnamed))
        }
        _ => Ok(()),
    }
}

/// The request of an entry point that needs none: an empty list.
pub struct NoRequest;

impl<'de> Deserialize<'de> for NoRequest {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct Empty;
        impl<'de> serde::de::Visitor<'de> for Empty {
            type Value = NoRequest;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an empty list")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<NoRequest, A::Error> {
                match seq.next_element::<serde::de::IgnoredAny>()? {
                    None => Ok(NoRequest),
                    Some(_) => Err(serde::de::Error::custom("an empty list expected")),
                }
            }
        }
        deserializer.deserialize_any(Empty)
    }
}

/// An error (or interrupt) of an entry point. extendr's `result_condition` feature
/// returns it to R as the `value` of an `extendr_error` condition (a value, not a
/// throw): a list of the message, verbatim, and whether the user interrupted,
/// classed `synthrisk_rust_error` (and `synthrisk_rust_interrupt`).
pub struct Failure(CoreError);

impl From<Failure> for Robj {
    fn from(failure: Failure) -> Robj {
        let e = failure.0;
        let interrupted = e.is_interrupt();
        let mut out: Robj =
            FailureValue { message: Robj::from(e.to_string()), interrupted: Robj::from(interrupted) }.into();
        let classes: &[&str] =
            if interrupted { &["synthrisk_rust_interrupt", "synthrisk_rust_error"] } else { &["synthrisk_rust_error"] };
        // A failed set_class leaves a plain value, which the R side also reports.
        let _ = out.set_class(classes);
        out
    }
}

/// The value of a `Failure` for R: a named list of its fields (extendr's `IntoList`).
#[derive(IntoList)]
struct FailureValue {
    message: Robj,
    interrupted: Robj,
}

/// What an entry point returns to R.
pub type Response = std::result::Result<Robj, Failure>;

/// The result of an entry point for R: the value, or the error for the condition.
pub fn respond(result: GlueResult<Robj>) -> Response {
    result.map_err(Failure)
}

/// A list R sent (the handle's variables); `what` names it in the error.
pub fn list_of(x: &Robj, what: &str) -> GlueResult<List> {
    List::try_from(x.clone()).map_err(|_| internal(format!("`{what}` must be a list")))
}

/// R's integers, borrowed (R must have coerced them).
pub fn int_slice<'a>(x: &'a Robj, what: &str) -> GlueResult<&'a [i32]> {
    x.as_integer_slice().ok_or_else(|| internal(format!("`{what}` must be an integer vector")))
}

/// R's doubles, borrowed.
pub fn real_slice<'a>(x: &'a Robj, what: &str) -> GlueResult<&'a [f64]> {
    x.as_real_slice().ok_or_else(|| internal(format!("`{what}` must be a double vector")))
}

/// The session's pool of `n` threads; R's thread works in the first such pool (see the
/// core's `Workers::with_caller`): every call comes from R's one thread.
pub fn workers(n: i32) -> GlueResult<Workers> {
    Workers::with_caller(thread_count(n)?)
}

/// The session's pool for `work_rows` rows of counting: at most `n` threads, fewer for
/// small work (`threads_for`).
pub fn workers_for(n: i32, work_rows: usize) -> GlueResult<Workers> {
    Workers::with_caller(threads_for(thread_count(n)?, work_rows))
}

fn thread_count(n: i32) -> GlueResult<usize> {
    usize::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| internal(format!("n_threads is {n}")))
}

/// Counts as R's doubles: exact up to 2^53, where R's integers would stop at 2^31.
pub fn counts(v: impl IntoIterator<Item = u64>) -> Vec<f64> {
    v.into_iter().map(|x| x as f64).collect()
}

/// 0-based indices for R, made 1-based.
pub fn one_based_robj(v: impl IntoIterator<Item = u32>) -> Robj {
    Robj::from(one_based(v))
}

/// 0-based indices made 1-based, as R's integers.
pub fn one_based(v: impl IntoIterator<Item = u32>) -> Vec<i32> {
    v.into_iter().map(|x| x as i32 + 1).collect()
}
