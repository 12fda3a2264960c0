//! The encoding: variables (keys and targets) of the original and every synthesis,
//! coded on the union of their levels, kept in an external pointer between calls.
//! Factor codes are R's own vectors, borrowed: the pointer's protected field holds the
//! request (and so every column), so they live as long as the encoding does.

use crate::protocol::*;
use crate::r_lists::{result_list, Column, ResultList};
use extendr_api::prelude::*;
use synthrisk_core::encode::{close_numeric_pairs, merge_numeric_levels, EncodedVar, RawColumn, VarInput};
use synthrisk_core::encode_ahead::encode_with_key_index;
use synthrisk_core::keys::KeyIndex;
use synthrisk_core::level_overlap::{level_overlap, LevelOverlap};
use wire::VariableWire;
pub(crate) use wire::{EncodeRequest, LevelCountsRequest, MergeRequest};

extern "C" {
    /// R's API (Rinternals.h); SEXPs passed as opaque pointers.
    fn R_SetExternalPtrProtected(s: *mut std::ffi::c_void, p: *mut std::ffi::c_void);
}

/// The encoded variables. `'static` stands for "as long as the external pointer":
/// see `outlive_r`.
pub struct Encoded(pub Vec<EncodedVar<'static>>);

/// R's memory of `x` for as long as the encoding lives.
///
/// SAFETY (of the callers' use): the slice is R memory of a column held by the encode
/// request, which the encoding's external pointer protects until its finaliser has
/// dropped the encoding; R never moves a vector, and a column referenced from that
/// request is never modified in place (R copies on modify once a second reference
/// exists).
unsafe fn outlive_r<T>(x: &[T]) -> &'static [T] {
    std::slice::from_raw_parts(x.as_ptr(), x.len())
}

/// How a variable's columns arrive.
enum ColumnKind {
    Factor,
    Double,
    Integer,
}

/// One variable of the encode request: `kind`, `columns` (original first), and for
/// factors `remaps` (per column, R's level -> union code, 0-based), `n_levels`,
/// `missing_code`.
struct VariableSpec {
    kind: ColumnKind,
    columns: Vec<Robj>,
    remaps: Vec<Robj>,
    n_levels: u32,
    missing_code: u32,
}

impl VariableSpec {
    fn from_wire(x: &Robj, what: &str) -> GlueResult<Self> {
        let w = VariableWire::try_from(x).map_err(wire_error(what))?;
        let kind = match w.kind.as_str() {
            "factor" => ColumnKind::Factor,
            "double" => ColumnKind::Double,
            "integer" => ColumnKind::Integer,
            other => return Err(internal(format!("`{what}$kind` is `{other}`"))),
        };
        let columns: Vec<Robj> = w.columns.values().collect();
        let (remaps, n_levels, missing_code) = match (&kind, w.remaps) {
            (ColumnKind::Factor, Nullable::NotNull(remaps)) => {
                let remaps: Vec<Robj> = remaps.values().collect();
                if remaps.len() != columns.len() {
                    return Err(internal(format!("`{what}` needs one remap per column")));
                }
                let count = |v: i32, field: &str| {
                    u32::try_from(v).map_err(|_| internal(format!("`{what}${field}` is {v}, must be >= 0")))
                };
                (remaps, count(w.n_levels, "n_levels")?, count(w.missing_code, "missing_code")?)
            }
            (ColumnKind::Factor, Nullable::Null) => {
                return Err(internal(format!("`{what}` is a factor without remaps")))
            }
            _ => (Vec::new(), 0, 0),
        };
        Ok(VariableSpec { kind, columns, remaps, n_levels, missing_code })
    }
}

impl VariableSpec {
    /// The core's input, borrowing the columns for as long as the encoding lives.
    ///
    /// SAFETY: the caller keeps the request that holds these columns alive for as
    /// long as the returned input or anything built from it.
    unsafe fn input(&self) -> GlueResult<VarInput<'static>> {
        let columns = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, col)| {
                Ok(match self.kind {
                    ColumnKind::Factor => RawColumn::Factor {
                        codes: outlive_r(int_slice(col, "factor codes")?),
                        remap: outlive_r(int_slice(&self.remaps[i], "remap")?),
                    },
                    ColumnKind::Double => RawColumn::Double(outlive_r(real_slice(col, "double column")?)),
                    ColumnKind::Integer => RawColumn::Integer(outlive_r(int_slice(col, "integer column")?)),
                })
            })
            .collect::<GlueResult<Vec<_>>>()?;
        Ok(match self.kind {
            ColumnKind::Factor => {
                VarInput::Factor { columns, n_levels: self.n_levels, missing_code: self.missing_code }
            }
            _ => VarInput::Numeric { columns },
        })
    }
}

/// What R learns about one encoded variable. Levels of integer columns come back as
/// integers, so that R labels them as it labels integers; `close_pairs` (1-based) are
/// the adjacent double levels R must compare by label (the flag returned beside: it
/// has some).
fn info_list(v: &EncodedVar<'_>, integer_kind: bool) -> (ResultList, bool) {
    let (levels, close, look_alike): (Column, Option<Vec<f64>>, bool) = match &v.numeric_levels {
        Some(x) if integer_kind => (x.iter().map(|&l| l as i32).collect::<Vec<i32>>().into(), None, false),
        Some(x) => {
            let close: Vec<f64> = close_numeric_pairs(x).into_iter().map(|i| i as f64 + 1.0).collect();
            let look_alike = !close.is_empty();
            (x.clone().into(), Some(close), look_alike)
        }
        None => (Column::Null, None, false),
    };
    // Counted here, in the same call, for what R checks next: the records at each level
    // of a variable with levels on one side only (labels that barely meet), and the
    // distinct values of the original for a numeric variable with more levels than half
    // its rows (a nearly unique target).
    let (level_counts, level_overlap) = if v.one_sided {
        let counts: Vec<_> = (0..v.codes.len()).map(|d| v.level_counts(d)).collect();
        let by_dataset = ResultList::unnamed(
            counts.iter().map(|c| Column::from(c.iter().map(|&n| n as f64).collect::<Vec<f64>>())).collect(),
        );
        let refs: Vec<&[u64]> = counts.iter().map(|c| c.as_ref()).collect();
        (Some(by_dataset), Some(overlap_list(&level_overlap(&refs, v.missing_code as usize))))
    } else {
        (None, None)
    };
    let original_distinct = match (&v.numeric_levels, v.codes.first()) {
        (Some(l), Some(orig)) if l.len() > orig.len() / 2 => {
            let counts = v.level_counts(0);
            Some(counts.iter().enumerate().filter(|&(i, &n)| n > 0 && i != v.missing_code as usize).count() as i32)
        }
        _ => None,
    };
    let level_labels = v
        .numeric_levels
        .as_ref()
        .map(|x| x.iter().map(|&l| whole_number_label(l, integer_kind)).collect::<Vec<Option<String>>>());
    let info = VariableInfo {
        n_levels: v.n_levels as i32,
        missing_code: v.missing_code as i32,
        numeric_levels: levels,
        has_missing: v.has_missing.clone(),
        one_sided: v.one_sided,
        close_pairs: close,
        level_counts,
        original_distinct,
        level_labels,
        level_overlap,
    };
    (info.into(), look_alike)
}

/// A `LevelOverlap` for R: the original's records and, per other dataset, its fields.
fn overlap_list(overlap: &LevelOverlap) -> ResultList {
    let sides = &overlap.sides;
    LevelOverlapValue {
        original_records: overlap.original_records as f64,
        records: counts(sides.iter().map(|s| s.records)),
        shares_none: sides.iter().map(|s| s.shares_none).collect(),
        original_only: counts(sides.iter().map(|s| s.original_only)),
        synthetic_only: counts(sides.iter().map(|s| s.synthetic_only)),
        within_original: sides.iter().map(|s| s.within_original).collect(),
        covers_original: sides.iter().map(|s| s.covers_original).collect(),
    }
    .into()
}

result_list! {
    /// What `overlap_list` returns, a named list of its fields.
    struct LevelOverlapValue {
        original_records: f64,
        records: Vec<f64>,
        shares_none: Vec<bool>,
        original_only: Vec<f64>,
        synthetic_only: Vec<f64>,
        within_original: Vec<bool>,
        covers_original: Vec<bool>,
    }
}

/// The label R gives a numeric level that R/encode.R's numeric_level_labels() writes as
/// an integer: every level of an integer variable, and a whole double within R's
/// integers that is not a multiple of 100,000 (R may write those as "1e+05"); None
/// (NA for R) for the others, which R labels itself. Writing them here spares R a
/// string conversion per level (about 2 thousand instructions each).
fn whole_number_label(level: f64, integer_kind: bool) -> Option<String> {
    let whole = level.is_finite() && level.abs() <= i32::MAX as f64 && level.trunc() == level;
    (whole && (integer_kind || level % 1e5 != 0.0)).then(|| (level as i32).to_string())
}

result_list! {
    /// What R learns about one encoded variable (`info_list`), a named list of its
    /// fields, built on R's protect stack (r_lists.rs); `None` is NULL for R.
    struct VariableInfo {
        n_levels: i32,
        missing_code: i32,
        numeric_levels: Column,
        has_missing: Vec<bool>,
        one_sided: bool,
        close_pairs: Option<Vec<f64>>,
        level_counts: Option<ResultList>,
        original_distinct: Option<i32>,
        level_labels: Option<Vec<Option<String>>>,
        level_overlap: Option<ResultList>,
    }
}

/// A new encoding: its handle for R, each variable's `VariableInfo`, and whether some
/// double variable has levels R must compare by label before counting.
pub(crate) struct NewEncoding {
    pub(crate) ptr: Robj,
    pub(crate) info: Vec<ResultList>,
    pub(crate) look_alike: bool,
    /// The index of the keys asked for (`encode_vars`'s `keys`), made with the encoding.
    pub(crate) key_index: Option<KeyIndex>,
}

impl NewEncoding {
    pub(crate) fn into_robj(self) -> Robj {
        let info = ResultList::unnamed(self.info.into_iter().map(Column::from).collect()).into_robj();
        Encoding { ptr: self.ptr, info }.into()
    }
}

/// Encodes `vars` (the list of variables R/encode.R sends, each a `VariableWire`) and,
/// for small data, indexes the variables `keys` (0-based, each once) on the way.
pub(crate) fn encode_vars(vars: Robj, n_threads: i32, keys: Option<&[usize]>) -> GlueResult<NewEncoding> {
    let workers = workers(n_threads)?;
    let specs: Vec<VariableSpec> = synthrisk_core::phase!(
        "variables read",
        list_of(&vars, "vars")?
            .values()
            .enumerate()
            .map(|(i, v)| VariableSpec::from_wire(&v, &format!("vars[[{}]]", i + 1)))
            .collect::<GlueResult<_>>()?
    );
    // SAFETY: `vars` holds every column and is protected by the pointer made below
    // for the life of the encoding; on an error nothing borrowed outlives this call.
    let inputs: Vec<VarInput<'static>> = specs.iter().map(|s| unsafe { s.input() }).collect::<GlueResult<_>>()?;
    let (encoded, key_index) = encode_with_key_index(&workers, &inputs, keys, &user_interrupt)?;
    let mut info = Vec::with_capacity(encoded.len());
    let mut look_alike = false;
    synthrisk_core::phase!(
        "variables' info made",
        for (v, s) in encoded.iter().zip(&specs) {
            let (i, alike) = info_list(v, matches!(s.kind, ColumnKind::Integer));
            info.push(i);
            look_alike |= alike;
        }
    );
    let ptr: Robj = ExternalPtr::new(Encoded(encoded)).into();
    // SAFETY: both are live R objects on R's thread.
    unsafe { R_SetExternalPtrProtected(ptr.get().cast(), vars.get().cast()) };
    Ok(NewEncoding { ptr, info, look_alike, key_index })
}

/// The encoding of `vars` (the handle: the columns, borrowed for the encoding's life).
/// Returns list(ptr, info).
pub fn encode(vars: Robj, request: EncodeRequest) -> GlueResult<Robj> {
    Ok(encode_vars(vars, request.n_threads, None)?.into_robj())
}

/// What `encode` returns: the encoding's handle and each variable's `VariableInfo`.
#[derive(IntoList)]
struct Encoding {
    ptr: Robj,
    info: Robj,
}

/// The variables of an encoding made by `encode`.
pub fn encoded_vars(encoded: &Robj) -> GlueResult<&[EncodedVar<'static>]> {
    let ptr = <&ExternalPtr<Encoded>>::try_from(encoded).map_err(|_| internal("not an encoding of synthrisk"))?;
    Ok(&ptr.try_addr().map_err(|_| internal("the encoding was released"))?.0)
}

/// Merges, in `encoded`, the numeric levels that R labels alike (`request.merges`, each
/// a `MergeWire`). Returns the merged variables' new info.
pub fn merge(mut encoded: Robj, request: MergeRequest) -> GlueResult<Robj> {
    let workers = workers(request.n_threads)?;
    let ptr: &mut ExternalPtr<Encoded> =
        (&mut encoded).try_into().map_err(|_| internal("not an encoding of synthrisk"))?;
    let vars = &mut ptr.try_addr_mut().map_err(|_| internal("the encoding was released"))?.0;
    let mut infos = Vec::new();
    for (k, w) in request.merges.iter().enumerate() {
        let what = format!("merges[[{}]]", k + 1);
        let v = usize::try_from(w.var).ok().and_then(|var| vars.get_mut(var));
        let v = v.ok_or_else(|| internal(format!("variable {}", w.var)))?;
        let first_of = w
            .first_of
            .iter()
            .map(|&i| u32::try_from(i).map_err(|_| internal(format!("`{what}$first_of` has {i}"))))
            .collect::<GlueResult<Vec<u32>>>()?;
        merge_numeric_levels(&workers, v, &first_of)?;
        infos.push(Column::from(info_list(v, w.integer_kind).0));
    }
    Ok(ResultList::unnamed(infos).into_robj())
}

/// `exact`/`keys` (0-based) as variables of the encoding, checked.
pub fn var_indices(vars: &[EncodedVar<'_>], idx: &[i32], what: &str) -> GlueResult<Vec<usize>> {
    idx.iter()
        .map(|&k| {
            usize::try_from(k)
                .ok()
                .filter(|&k| k < vars.len())
                .ok_or_else(|| internal(format!("`{what}` has {k}, beyond the {} encoded variables", vars.len())))
        })
        .collect()
}

/// Records at each level of variable `request.var` (0-based), per dataset:
/// `request.weights` has per dataset NULL (one record a row) or the records each row
/// stands for.
pub fn level_counts(encoded: Robj, request: LevelCountsRequest) -> GlueResult<Robj> {
    let LevelCountsRequest { var, weights } = request;
    let vars = encoded_vars(&encoded)?;
    let var =
        usize::try_from(var).ok().filter(|&v| v < vars.len()).ok_or_else(|| internal(format!("variable {var}")))?;
    let v = &vars[var];
    if weights.len() != v.codes.len() {
        return Err(internal(format!("{} weights for {} datasets", weights.len(), v.codes.len())));
    }
    let mut out = Vec::with_capacity(v.codes.len());
    for (d, (codes, w)) in v.codes.iter().zip(&weights).enumerate() {
        let counts: Vec<f64> = match w {
            None => v.level_counts(d).iter().map(|&n| n as f64).collect(),
            Some(w) => {
                codes.weighted_level_counts(v.n_levels, w).ok_or_else(|| internal("weights do not match the rows"))?
            }
        };
        out.push(Robj::from(counts));
    }
    Ok(List::from_values(out).into())
}

/// The shapes of the lists this topic receives (see `crate::wire`): its requests, read
/// by serde (`read_request`), and the variables of the handle, whose columns are
/// borrowed (extendr's `TryFromList`).
mod wire {
    pub(crate) use crate::wire::FieldByName;
    use extendr_api::{List, Nullable, TryFromList};
    use serde::Deserialize;

    /// `rust_encode_variables`'s request: the threads (the variables are the handle).
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct EncodeRequest {
        pub(crate) n_threads: i32,
    }

    /// `rust_merge_numeric_levels`'s request: one `MergeWire` per variable to merge.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct MergeRequest {
        pub(crate) merges: Vec<MergeWire>,
        pub(crate) n_threads: i32,
    }

    /// One variable's merge as R sends it (merge_look_alike_levels()).
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct MergeWire {
        pub(crate) var: i32,
        pub(crate) first_of: Vec<i32>,
        pub(crate) integer_kind: bool,
    }

    /// `rust_level_counts`'s request: the variable (0-based) and per dataset NULL or
    /// the records each row stands for.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct LevelCountsRequest {
        pub(crate) var: i32,
        pub(crate) weights: Vec<Option<Vec<f64>>>,
    }

    /// A variable of the handle as R sends it (R/encode.R); `remaps` NULL for numeric
    /// variables.
    #[derive(TryFromList)]
    pub(crate) struct VariableWire {
        pub(crate) kind: String,
        pub(crate) columns: List,
        pub(crate) remaps: Nullable<List>,
        pub(crate) n_levels: i32,
        pub(crate) missing_code: i32,
    }
}
