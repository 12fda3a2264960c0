//! The shapes of the lists R sends (named lists, one struct each), read with extendr's
//! `TryFromList` derive. The derive reads each field as `value.dollar("field")`; in this
//! module that is `FieldByName::dollar`, a lookup by name, not extendr's
//! `Operators::dollar`, which evaluates R's `$` once per field (on SD2011 that took about
//! 0.3 ms of a 10 ms call). So this module must not import extendr's prelude (two
//! `dollar` methods in scope would not compile).

use extendr_api::scalar::Rbool;
use extendr_api::{Attributes, List, Nullable, Robj, TryFromList};

/// A field of a named list by its exact name (R writes every name in full), NULL when
/// the list has no such field, as `$` gives.
pub(crate) trait FieldByName {
    fn dollar(&self, name: &str) -> extendr_api::Result<Robj>;
}

impl FieldByName for Robj {
    fn dollar(&self, name: &str) -> extendr_api::Result<Robj> {
        let list = List::try_from(self)?;
        match self.names().and_then(|mut names| names.position(|n| n == name)) {
            Some(i) => list.elt(i),
            None => Ok(Robj::from(())),
        }
    }
}

/// One target of the request as R sends it (R/target-request.R): `var` (0-based),
/// `excluded_target` (a flag per level), `exclude_missing_target` and
/// `target_missing_code`, the key/target exclusions `kt_key`, `kt_key_level`,
/// `kt_target_level` (0-based, same lengths), `denom_lim` (NA for no limit) and
/// `twoway_min_cell`. A request made before the encoding (in the same call as it)
/// gives `use_target_na` instead of `exclude_missing_target` and
/// `target_missing_code`, and may give no `excluded_target` (none excluded): they are
/// read off the encoded target by `complete_request()`.
#[derive(TryFromList)]
pub(crate) struct TargetWire {
    pub(crate) var: i32,
    pub(crate) excluded_target: Vec<Rbool>,
    pub(crate) exclude_missing_target: Option<bool>,
    pub(crate) target_missing_code: Option<i32>,
    pub(crate) use_target_na: Option<bool>,
    pub(crate) kt_key: Vec<i32>,
    pub(crate) kt_key_level: Vec<i32>,
    pub(crate) kt_target_level: Vec<i32>,
    pub(crate) denom_lim: Option<f64>,
    pub(crate) twoway_min_cell: Option<f64>,
}

/// A plan as R sends it: `original` (0-based dataset), `syntheses` (a list of
/// `ViewWire`), `tau` (NULL or doubles) and, for counted cells, `weights` (per dataset
/// NULL or the records each row stands for).
#[derive(TryFromList)]
pub(crate) struct PlanWire {
    pub(crate) original: i32,
    pub(crate) syntheses: List,
    pub(crate) tau: Option<Vec<f64>>,
    pub(crate) weights: Nullable<List>,
}

/// A synthesis of a plan: `dataset` (0-based), `rows` (NULL, or the 1-based rows of a
/// subsample or resample) and `repeats` (NULL or FALSE for a subsample, TRUE for a
/// resample: a bootstrap replicate, rows drawn with replacement).
#[derive(TryFromList)]
pub(crate) struct ViewWire {
    pub(crate) dataset: i32,
    pub(crate) rows: Option<Vec<i32>>,
    pub(crate) repeats: Option<bool>,
}

/// What `encode` returns: the encoding handle and the info of each variable.
#[derive(TryFromList)]
pub(crate) struct EncodingWire {
    pub(crate) ptr: Robj,
    pub(crate) info: List,
}

/// One call of `encode_compute`: the arguments of `compute` after the encoding.
#[derive(TryFromList)]
pub(crate) struct ComputeCall {
    pub(crate) keys: Robj,
    pub(crate) use_keys_na: Robj,
    pub(crate) targets: Robj,
    pub(crate) plan: Robj,
}

/// A variable as R sends it (R/encode.R); `remaps` NULL for numeric variables.
#[derive(TryFromList)]
pub(crate) struct VariableWire {
    pub(crate) kind: String,
    pub(crate) columns: List,
    pub(crate) remaps: Nullable<List>,
    pub(crate) n_levels: i32,
    pub(crate) missing_code: i32,
}

/// One variable's merge as R sends it (merge_look_alike_levels()).
#[derive(TryFromList)]
pub(crate) struct MergeWire {
    pub(crate) var: i32,
    pub(crate) first_of: Vec<i32>,
    pub(crate) integer_kind: bool,
}

/// The metric as R sends it: per variable in column order.
#[derive(TryFromList)]
pub(crate) struct MetricWire {
    pub(crate) numeric: Vec<Rbool>,
    pub(crate) weights: Vec<f64>,
    pub(crate) ranges: Vec<f64>,
}

/// One table: code columns (integers) and value columns (doubles, empty for
/// categorical variables).
#[derive(TryFromList)]
pub(crate) struct TableWire {
    pub(crate) codes: List,
    pub(crate) values: List,
}

/// One search: the 0-based table indexed, the 0-based table whose records are the
/// queries, and whether the second nearest is wanted.
#[derive(TryFromList)]
pub(crate) struct RequestWire {
    pub(crate) index: i32,
    pub(crate) queries: i32,
    pub(crate) second: bool,
}
