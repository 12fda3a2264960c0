//! R's C API (Rinternals.h) as the glue's raw code calls it, declared once: SEXPs as
//! opaque pointers. `column_facts.rs` reads columns with it (calls that allocate
//! nothing, but for ALTREP vectors); `r_lists.rs` builds the counts' lists with it.

use std::os::raw::{c_char, c_int, c_uint};

pub(crate) type Sexp = *mut std::ffi::c_void;

extern "C" {
    pub(crate) fn TYPEOF(x: Sexp) -> c_int;
    pub(crate) fn OBJECT(x: Sexp) -> c_int;
    pub(crate) fn ATTRIB(x: Sexp) -> Sexp;
    pub(crate) fn Rf_getAttrib(x: Sexp, name: Sexp) -> Sexp;
    pub(crate) fn Rf_xlength(x: Sexp) -> isize;
    pub(crate) fn STRING_ELT(x: Sexp, i: isize) -> Sexp;
    pub(crate) fn VECTOR_ELT(x: Sexp, i: isize) -> Sexp;
    pub(crate) fn R_CHAR(x: Sexp) -> *const c_char;
    pub(crate) fn Rf_translateCharUTF8(x: Sexp) -> *const c_char;
    pub(crate) fn Rf_getCharCE(x: Sexp) -> c_int;
    pub(crate) fn CAR(x: Sexp) -> Sexp;
    pub(crate) fn CDR(x: Sexp) -> Sexp;
    pub(crate) fn TAG(x: Sexp) -> Sexp;
    pub(crate) fn INTEGER(x: Sexp) -> *mut c_int;
    pub(crate) fn REAL(x: Sexp) -> *mut f64;
    pub(crate) fn LOGICAL(x: Sexp) -> *mut c_int;
    pub(crate) fn Rf_allocVector(sexptype: c_uint, length: isize) -> Sexp;
    pub(crate) fn Rf_protect(x: Sexp) -> Sexp;
    pub(crate) fn Rf_unprotect(n: c_int);
    pub(crate) fn SET_VECTOR_ELT(x: Sexp, i: isize, v: Sexp) -> Sexp;
    pub(crate) fn SET_STRING_ELT(x: Sexp, i: isize, v: Sexp);
    pub(crate) fn Rf_mkCharLenCE(s: *const c_char, len: c_int, encoding: c_int) -> Sexp;
    pub(crate) fn Rf_setAttrib(x: Sexp, name: Sexp, value: Sexp) -> Sexp;
    pub(crate) static R_NilValue: Sexp;
    pub(crate) static R_NaString: Sexp;
    pub(crate) static R_NamesSymbol: Sexp;
    pub(crate) static R_ClassSymbol: Sexp;
    pub(crate) static R_DimSymbol: Sexp;
    pub(crate) static R_DimNamesSymbol: Sexp;
    pub(crate) static R_LevelsSymbol: Sexp;
    pub(crate) static R_RowNamesSymbol: Sexp;
}

// SEXPTYPEs.
pub(crate) const LGLSXP: c_int = 10;
pub(crate) const INTSXP: c_int = 13;
pub(crate) const REALSXP: c_int = 14;
pub(crate) const STRSXP: c_int = 16;
pub(crate) const VECSXP: c_int = 19;
pub(crate) const RAWSXP: c_int = 24;

/// cetype_t's CE_UTF8 and CE_BYTES.
pub(crate) const CE_UTF8: c_int = 1;
pub(crate) const CE_BYTES: c_int = 3;

/// The element of a named list `list` (a VECSXP) called `name`, by its names' bytes;
/// None when it has no such element. Reads only: no allocation, no lock (extendr's
/// lookups take its lock and register objects: a result's shaping reads hundreds).
///
/// # Safety
/// R's thread; `list` a live R object.
pub(crate) unsafe fn named_element(list: Sexp, name: &str) -> Option<Sexp> {
    if TYPEOF(list) != VECSXP {
        return None;
    }
    let names = Rf_getAttrib(list, R_NamesSymbol);
    if TYPEOF(names) != STRSXP {
        return None;
    }
    (0..Rf_xlength(names))
        .find(|&i| {
            let s = STRING_ELT(names, i);
            s != R_NaString && std::ffi::CStr::from_ptr(R_CHAR(s)).to_bytes() == name.as_bytes()
        })
        .map(|i| VECTOR_ELT(list, i))
}

/// The doubles of a double vector, borrowed; None for another type.
///
/// # Safety
/// R's thread; `x` a live R object that outlives the slice.
pub(crate) unsafe fn doubles_of<'a>(x: Sexp) -> Option<&'a [f64]> {
    (TYPEOF(x) == REALSXP).then(|| {
        let n = Rf_xlength(x) as usize;
        if n == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(REAL(x), n)
        }
    })
}

/// The integers of an integer vector, borrowed; None for another type.
///
/// # Safety
/// As `doubles_of`.
pub(crate) unsafe fn ints_of<'a>(x: Sexp) -> Option<&'a [i32]> {
    (TYPEOF(x) == INTSXP).then(|| {
        let n = Rf_xlength(x) as usize;
        if n == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(INTEGER(x), n)
        }
    })
}

/// A string's bytes in UTF-8, as paste() would write them: NA is "NA", and a string of
/// "bytes" encoding keeps its bytes (R refuses to translate it, with an error that
/// would jump over the caller's Rust frames).
///
/// # Safety
/// R's thread; `s` a live CHARSXP. The bytes live until the `.Call` returns (R's
/// transient stack, for a translated string).
pub(crate) unsafe fn utf8_bytes<'a>(s: Sexp) -> &'a [u8] {
    if s == R_NaString {
        return b"NA";
    }
    let chars = if Rf_getCharCE(s) == CE_BYTES { R_CHAR(s) } else { Rf_translateCharUTF8(s) };
    std::ffi::CStr::from_ptr(chars).to_bytes()
}

/// as.integer() of a double: truncated, NA (R's `i32::MIN`) for NaN, infinities and
/// values beyond R's integers.
pub(crate) fn r_as_integer(x: f64) -> i32 {
    if x.is_finite() && x.abs() < 2_147_483_648.0 {
        x.trunc() as i32
    } else {
        i32::MIN
    }
}

/// A list's elements; an internal error naming it (`what`) when it is not a list.
///
/// # Safety
/// R's thread; `x` a live R object that holds its elements for as long as they are used.
pub(crate) unsafe fn list_elements(x: Sexp, what: &str) -> crate::protocol::GlueResult<Vec<Sexp>> {
    if TYPEOF(x) != VECSXP {
        return Err(crate::protocol::internal(format!("`{what}` must be a list")));
    }
    Ok((0..Rf_xlength(x)).map(|i| VECTOR_ELT(x, i)).collect())
}

/// A new character vector of `values` (UTF-8), returned unprotected: store it before
/// the next allocation.
///
/// # Safety
/// R's thread.
pub(crate) unsafe fn new_strings(values: &[&str]) -> Sexp {
    let v = Rf_protect(Rf_allocVector(STRSXP as c_uint, values.len() as isize));
    for (i, s) in values.iter().enumerate() {
        SET_STRING_ELT(v, i as isize, Rf_mkCharLenCE(s.as_ptr() as _, s.len() as c_int, CE_UTF8));
    }
    Rf_unprotect(1);
    v
}
