//! What the preparation (R/encode.R's prepare_variables()) asks of every column before
//! its checks and its usual paths, read for every variable and dataset in one call:
//! R would make one call per question, column and dataset (about 50 thousand
//! instructions a variable of SD2011's six datasets). Facts only: R decides with them
//! which columns its checks must look at and which variables take the usual path
//! (R/column-facts.R); nothing here judges a column or raises an error about it.

use crate::protocol::*;
use crate::r_api::*;
use extendr_api::prelude::*;
use extendr_api::robj::GetSexp;
use std::ffi::CStr;
pub(crate) use wire::ColumnFactsRequest;

/// A column's kind for the usual paths: a factor (class exactly "factor"), plain
/// integers or doubles (no class), or anything else.
const KIND_OTHER: i32 = 0;
const KIND_FACTOR: i32 = 1;
const KIND_INTEGER: i32 = 2;
const KIND_DOUBLE: i32 = 3;

/// `datasets`: the list of data frames (the original first, then the syntheses and
/// control as R orders them); `request.vars`: the variables. Per variable and dataset
/// (variable by variable, datasets in order within each), in `kind`, `usual` and
/// `length`:
/// - `kind`: 1 for a factor whose class is exactly "factor", 2 for integers and 3 for
///   doubles without a class, 0 otherwise (a column not found, or a name that is not
///   ASCII, which the glue does not compare, is 0);
/// - `usual`: the column has the shape every key or target has, as
///   check_variable_columns() tests it: logical, integer, double, character or raw,
///   without dimensions, and without a class or with class "factor" or
///   c("ordered", "factor") (other classes are left to R, whose `length()` may
///   dispatch on them);
/// - `length`: its values (R's `length()` for those `usual`).
///
/// Per dataset, in `rows` and `plain_frame`: its rows as its row names count them
/// (`.row_names_info(x, 2L)`), and whether its class is exactly "data.frame" (then
/// `nrow()` is that count).
///
/// Per variable, in `columns` (each dataset's column, NULL where not found),
/// `same_levels` (every dataset's column is a factor, its levels the same strings as
/// the original's: the same R strings, so also the same bytes and encoding) and
/// `plain_levels` (those levels are a character vector without attributes whose
/// strings are all ASCII or NA: then cleaning them changes nothing).
pub fn column_facts(datasets: Robj, request: ColumnFactsRequest) -> GlueResult<Robj> {
    let ColumnFactsRequest { vars } = request;
    let datasets = list_of(&datasets, "datasets")?;
    let n = datasets.len();
    let cells = vars.len() * n;
    let mut columns_by_var: Vec<Robj> = Vec::with_capacity(vars.len());
    let mut facts = ColumnFacts {
        kind: Vec::with_capacity(cells),
        usual: Vec::with_capacity(cells),
        length: Vec::with_capacity(cells),
        columns: Robj::from(()),
        rows: Vec::new(),
        plain_frame: Vec::new(),
        same_levels: Vec::with_capacity(vars.len()),
        plain_levels: Vec::with_capacity(vars.len()),
    };
    // SAFETY: R's thread; read-only calls on objects `datasets` holds and protects
    // (R never moves an object, so the raw pointers stay valid). Most allocate nothing;
    // STRING_ELT() on an ALTREP character vector and INTEGER() on ALTREP row names may,
    // which cannot free what `datasets` protects.
    unsafe {
        let frames: Vec<Sexp> = datasets.values().map(|d| d.get() as Sexp).collect();
        if frames.iter().any(|&frame| TYPEOF(frame) != VECSXP) {
            return Err(internal("`datasets` must be a list of data frames"));
        }
        facts.rows = frames.iter().map(|&frame| row_names_rows(frame)).collect();
        facts.plain_frame =
            frames.iter().map(|&frame| class_strings(frame).is_some_and(|c| c == [b"data.frame".as_slice()])).collect();
        for var in &vars {
            let mut columns = Vec::with_capacity(n);
            let mut first_levels: Option<Sexp> = None;
            let (mut same_levels, mut plain_levels) = (true, true);
            for (j, &frame) in frames.iter().enumerate() {
                // The first column named `var` (ASCII), compared by bytes: for ASCII, equal
                // bytes are equal names in every encoding, as `.subset2()` matches them.
                let column = if var.is_ascii() { named_element(frame, var) } else { None };
                let (kind, usual, length) = match column {
                    Some(x) => (kind_of(x), usual_shape(x), Rf_xlength(x) as f64),
                    None => (KIND_OTHER, false, 0.0),
                };
                facts.kind.push(kind);
                facts.usual.push(usual);
                facts.length.push(length);
                let levels = column.filter(|_| kind == KIND_FACTOR).map(|x| Rf_getAttrib(x, R_LevelsSymbol));
                match (j, levels) {
                    (0, Some(l)) => {
                        first_levels = Some(l);
                        plain_levels = is_plain_ascii(l);
                    }
                    (_, Some(l)) => same_levels &= first_levels.is_some_and(|f| same_strings(f, l)),
                    (_, None) => same_levels = false,
                }
                columns.push(column.map_or_else(|| Robj::from(()), |x| Robj::from_sexp(x as _)));
            }
            facts.same_levels.push(same_levels);
            facts.plain_levels.push(same_levels && plain_levels);
            columns_by_var.push(List::from_values(columns).into());
        }
    }
    facts.columns = List::from_values(columns_by_var).into();
    Ok(facts.into())
}

/// The rows of a data frame as its row.names attribute counts them, read as stored
/// (R's getAttrib() would expand compact row names c(NA, -n) into n integers):
/// |n| for compact row names, else their number.
unsafe fn row_names_rows(frame: Sexp) -> f64 {
    let mut attribute = ATTRIB(frame);
    while attribute != R_NilValue {
        if TAG(attribute) == R_RowNamesSymbol {
            let names = CAR(attribute);
            if TYPEOF(names) == INTSXP && Rf_xlength(names) == 2 && *INTEGER(names) == i32::MIN {
                return (*INTEGER(names).add(1) as f64).abs();
            }
            return Rf_xlength(names) as f64;
        }
        attribute = CDR(attribute);
    }
    0.0
}

/// The class attribute's strings, or None without one.
unsafe fn class_strings(x: Sexp) -> Option<Vec<&'static [u8]>> {
    let class = Rf_getAttrib(x, R_ClassSymbol);
    if TYPEOF(class) != STRSXP {
        return None;
    }
    Some((0..Rf_xlength(class)).map(|i| CStr::from_ptr(R_CHAR(STRING_ELT(class, i))).to_bytes()).collect())
}

unsafe fn kind_of(x: Sexp) -> i32 {
    match class_strings(x) {
        Some(class) if class == [b"factor".as_slice()] && TYPEOF(x) == INTSXP => KIND_FACTOR,
        Some(_) => KIND_OTHER,
        None if OBJECT(x) == 0 && TYPEOF(x) == INTSXP => KIND_INTEGER,
        None if OBJECT(x) == 0 && TYPEOF(x) == REALSXP => KIND_DOUBLE,
        None => KIND_OTHER,
    }
}

unsafe fn usual_shape(x: Sexp) -> bool {
    let atomic = matches!(TYPEOF(x), LGLSXP | INTSXP | REALSXP | STRSXP | RAWSXP);
    let no_dim = Rf_getAttrib(x, R_DimSymbol) == R_NilValue;
    let class_ok = match class_strings(x) {
        None => OBJECT(x) == 0,
        Some(class) => class == [b"factor".as_slice()] || class == [b"ordered".as_slice(), b"factor".as_slice()],
    };
    atomic && no_dim && class_ok
}

/// A character vector without attributes whose strings are ASCII or NA.
unsafe fn is_plain_ascii(x: Sexp) -> bool {
    TYPEOF(x) == STRSXP
        && ATTRIB(x) == R_NilValue
        && (0..Rf_xlength(x)).all(|i| {
            let s = STRING_ELT(x, i);
            s == R_NaString || CStr::from_ptr(R_CHAR(s)).to_bytes().is_ascii()
        })
}

/// The same R strings in the same order (R keeps one copy of each string and
/// encoding, so equal pointers are equal text).
unsafe fn same_strings(a: Sexp, b: Sexp) -> bool {
    if a == b {
        return true;
    }
    TYPEOF(a) == STRSXP
        && TYPEOF(b) == STRSXP
        && Rf_xlength(a) == Rf_xlength(b)
        && (0..Rf_xlength(a)).all(|i| STRING_ELT(a, i) == STRING_ELT(b, i))
}

/// What `column_facts` returns, a named list of its fields (extendr's `IntoList`;
/// `columns` one list per variable).
#[derive(IntoList)]
struct ColumnFacts {
    kind: Vec<i32>,
    usual: Vec<bool>,
    length: Vec<f64>,
    columns: Robj,
    same_levels: Vec<bool>,
    plain_levels: Vec<bool>,
    rows: Vec<f64>,
    plain_frame: Vec<bool>,
}

/// The shape of `rust_column_facts`'s request, read by serde (`read_request`).
mod wire {
    use serde::Deserialize;

    /// The variables, by name.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct ColumnFactsRequest {
        pub(crate) vars: Vec<String>,
    }
}
