//! Record-level results: each record's q and the size of its q per dataset (for
//! replicated uniques), and each record's counts, flags and risks (record_risk()).

use crate::compute::target_request;
use crate::encoding::{encoded_vars, var_indices};
use crate::protocol::*;
use extendr_api::prelude::*;
use extendr_api::{rtype_to_sxp, AsTypedSlice};
use synthrisk_core::codes::LevelCodes;
use synthrisk_core::record_keys::record_keys;
use synthrisk_core::records::{advise_huge_pages, records, OriginalRecord, RecordRequest, RowSink, SyntheticRecord};
pub(crate) use wire::{RecordKeysRequest, RecordLevelRequest};

fn ints_robj(v: &[u32], plus: i32) -> Robj {
    Robj::from(v.iter().map(|&x| x as i32 + plus).collect::<Vec<i32>>())
}

/// Each record's q per dataset, on `request.keys` (0-based variables of `encoded`).
pub fn keys_of_records(encoded: Robj, request: RecordKeysRequest) -> GlueResult<Robj> {
    let RecordKeysRequest { keys, n_threads } = request;
    let workers = workers(n_threads)?;
    let vars = encoded_vars(&encoded)?;
    let keys = var_indices(vars, &keys, "keys")?;
    let codes: Vec<&[LevelCodes<'_>]> = keys.iter().map(|&k| vars[k].codes.as_slice()).collect();
    let levels: Vec<u32> = keys.iter().map(|&k| vars[k].n_levels).collect();
    let r = record_keys(&workers, &codes, &levels, &user_interrupt)?;
    Ok(RecordKeys {
        q: List::from_values(r.q.iter().map(|q| ints_robj(q, 1))).into(),
        counts: List::from_values(r.counts.iter().map(|c| ints_robj(c, 0))).into(),
    }
    .into())
}

/// What `keys_of_records` returns, per dataset: each record's q (1-based) and the
/// records of each q. A named list of its fields (extendr's `IntoList`).
#[derive(IntoList)]
struct RecordKeys {
    q: Robj,
    counts: Robj,
}

/// Record-level rows of one target (`record_risk()`): the original records under each
/// synthesis, then the records of each synthesis, as columns of R's types, syntheses
/// one after another. The columns are allocated here, on the R thread, and the core
/// writes plain slices of them from its threads (no R call there), so each value is
/// written once, with no per-record table to build and copy.
pub fn record_level(encoded: Robj, request: RecordLevelRequest) -> GlueResult<Robj> {
    let RecordLevelRequest { keys, use_keys_na, target, n_threads } = request;
    let workers = workers(n_threads)?;
    let vars = encoded_vars(&encoded)?;
    let keys = var_indices(vars, &keys, "keys")?;
    let request = target_request(&target, "target", vars, 0)?;
    let record_request =
        RecordRequest { vars, keys: &keys, use_keys_na: &use_keys_na, target: request.var, spec: &request.spec };
    let recs = records(&workers, &record_request, &user_interrupt)?;
    let m = recs.n_syntheses();
    let n_orig = recs.n_rows(0);
    let n_syn: Vec<usize> = (1..=m).map(|d| recs.n_rows(d)).collect();
    let mut original = OriginalColumns::alloc(n_orig * m);
    let mut synthetic = SyntheticColumns::alloc(n_syn.iter().sum());
    let na_real = <f64 as CanBeNA>::na();
    let mut o_rest = original.sink(na_real)?;
    let mut s_rest = synthetic.sink(na_real)?;
    for (j, &n) in n_syn.iter().enumerate() {
        let (o_here, o_next) = o_rest.split_at(n_orig);
        let (s_here, s_next) = s_rest.split_at(n);
        let tables = recs.synthesis(&workers, j, &user_interrupt)?;
        tables.write_original(&workers, o_here, &user_interrupt)?;
        tables.write_synthetic(&workers, s_here, &user_interrupt)?;
        (o_rest, s_rest) = (o_next, s_next);
    }
    Ok(RecordLevel {
        original: original.into_list()?,
        synthetic: synthetic.into_list()?,
        n_orig: Robj::from(n_orig as f64),
        n_syn: n_syn.iter().map(|&n| n as f64).collect(),
    }
    .into())
}

/// What `record_level` returns: the original's and the syntheses' columns, the
/// original's records and each synthesis's. A named list of its fields (extendr's
/// `IntoList`).
#[derive(IntoList)]
struct RecordLevel {
    original: Robj,
    synthetic: Robj,
    n_orig: Robj,
    n_syn: Vec<f64>,
}

/// A fresh R vector of `len` elements of type `rtype`, for the core to fill.
fn alloc(rtype: Rtype, len: usize) -> Robj {
    Robj::alloc_vector(rtype_to_sxp(rtype), len)
}

/// A fresh column's elements, on huge pages where the system grants them.
fn column<'a, T>(x: &mut Robj, what: &str) -> GlueResult<&'a mut [T]>
where
    Robj: AsTypedSlice<'a, T>,
{
    let s = x.as_typed_slice_mut().ok_or_else(|| internal(format!("a record column is not {what}")))?;
    advise_huge_pages(s);
    Ok(s)
}

fn lgl(x: bool) -> Rbool {
    Rbool::from(x)
}

/// R's `NA_integer_`.
const R_NA_INTEGER: i32 = i32::MIN;

/// The exclusion step as R reads it: `NA` for kept, else the step (1-5).
fn step(x: u8) -> i32 {
    if x == 0 {
        R_NA_INTEGER
    } else {
        x as i32
    }
}

/// The record-level columns of one kind of record, named once: for each column its
/// name (the field of the core's record and of the sink), its element type, R's type
/// and the value written from the record `$v` (`$na`: R's `NA_real_`). Makes the
/// columns (allocated as R vectors), the sink the core writes into from its threads
/// (split by rows), and the named list R receives.
macro_rules! record_columns {
    ($columns:ident, $sink:ident, $record:ty, |$v:ident, $na:ident| {
        $first:ident: $first_ty:ty = $first_rtype:ident => $first_val:expr
        $(, $field:ident: $ty:ty = $rtype:ident => $val:expr)* $(,)?
    }) => {
        struct $columns {
            $first: Robj,
            $($field: Robj,)*
        }

        impl $columns {
            fn alloc(n: usize) -> Self {
                $columns { $first: alloc(Rtype::$first_rtype, n), $($field: alloc(Rtype::$rtype, n),)* }
            }

            /// The slices, borrowed while `self` holds the vectors.
            fn sink(&mut self, na_real: f64) -> GlueResult<$sink<'_>> {
                Ok($sink {
                    $first: column(&mut self.$first, stringify!($first_ty))?,
                    $($field: column(&mut self.$field, stringify!($ty))?,)*
                    na_real,
                })
            }

            /// The columns as a list named by their fields.
            fn into_list(self) -> GlueResult<Robj> {
                Ok(List::from_pairs([(stringify!($first), self.$first) $(, (stringify!($field), self.$field))*]).into())
            }
        }

        struct $sink<'a> {
            $first: &'a mut [$first_ty],
            $($field: &'a mut [$ty],)*
            na_real: f64,
        }

        impl RowSink<$record> for $sink<'_> {
            fn len(&self) -> usize {
                self.$first.len()
            }

            fn split_at(self, mid: usize) -> (Self, Self) {
                let $sink { $first, $($field,)* na_real } = self;
                let $first = $first.split_at_mut(mid);
                $(let $field = $field.split_at_mut(mid);)*
                (
                    $sink { $first: $first.0, $($field: $field.0,)* na_real },
                    $sink { $first: $first.1, $($field: $field.1,)* na_real },
                )
            }

            #[inline]
            fn put(&mut self, i: usize, $v: $record) {
                let $na = self.na_real;
                self.$first[i] = $first_val;
                $(self.$field[i] = $val;)*
                let _ = $na;
            }
        }
    };
}

record_columns!(OriginalColumns, OriginalSink, OriginalRecord, |v, na| {
    d_q: i32 = Integers => v.d_q as i32,
    s_q: i32 = Integers => v.s_q as i32,
    unique_orig: Rbool = Logicals => lgl(v.unique_orig),
    unique_in_syn: Rbool = Logicals => lgl(v.unique_in_syn),
    replicated_unique: Rbool = Logicals => lgl(v.replicated_unique),
    rk: f64 = Doubles => v.rk.unwrap_or(na),
    disclosive_orig: Rbool = Logicals => lgl(v.disclosive_orig),
    disco: Rbool = Logicals => lgl(v.disco),
    cap: f64 = Doubles => v.cap,
    excluded: i32 = Integers => step(v.excluded),
});

record_columns!(SyntheticColumns, SyntheticSink, SyntheticRecord, |v, na| {
    s_q: i32 = Integers => v.s_q as i32,
    d_q: i32 = Integers => v.d_q as i32,
    replicated_unique: Rbool = Logicals => lgl(v.replicated_unique),
    unique_syn_in_orig: Rbool = Logicals => lgl(v.unique_syn_in_orig),
    weap: f64 = Doubles => v.weap,
    tcap: f64 = Doubles => v.tcap.unwrap_or(na),
    excluded: i32 = Integers => step(v.excluded),
});

/// The shapes of the requests this topic receives, read by serde (`read_request`).
mod wire {
    use crate::compute::TargetWire;
    use serde::Deserialize;

    /// `rust_record_keys`'s request: the keys (0-based variables) and the threads.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct RecordKeysRequest {
        pub(crate) keys: Vec<i32>,
        pub(crate) n_threads: i32,
    }

    /// `rust_records`'s request: the keys, their usekeysNA flags, the target and the
    /// threads.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct RecordLevelRequest {
        pub(crate) keys: Vec<i32>,
        pub(crate) use_keys_na: Vec<bool>,
        pub(crate) target: TargetWire,
        pub(crate) n_threads: i32,
    }
}
