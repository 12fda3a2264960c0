//! Lists of columns built straight on R's protect stack, for results of many small
//! parts (a small call's counts: some fifty vectors and their names per target; each
//! encoded variable's info).
//! extendr registers each object it makes in its table of protected objects, under its
//! lock, and again when the object is dropped; here only the finished list becomes an
//! `Robj`, and each part is protected by the list that holds it from the moment it is
//! made. Made in `count()` after the core's join, on R's thread, as every R object.
//! (Twenty-fifth session, bench/RESULTS.md: SD2011's "results made R's" 135 to about
//! 27 us.)
//!
//! Results stay typed: `result_list!` declares a struct and the list it becomes, its
//! fields' names and order (as extendr's `IntoList` derive did).

use crate::r_api::*;
use extendr_api::Robj;
use std::os::raw::{c_int, c_uint};

/// One element of a result list: a vector (a scalar is one of length 1), a list, or
/// NULL.
pub(crate) enum Column {
    Doubles(Vec<f64>),
    Ints(Vec<i32>),
    Logicals(Vec<bool>),
    /// `None` is R's NA.
    Strings(Vec<Option<String>>),
    List(ResultList),
    Null,
}

impl From<Vec<bool>> for Column {
    fn from(x: Vec<bool>) -> Self {
        Column::Logicals(x)
    }
}

impl From<Vec<Option<String>>> for Column {
    fn from(x: Vec<Option<String>>) -> Self {
        Column::Strings(x)
    }
}

impl From<f64> for Column {
    fn from(x: f64) -> Self {
        Column::Doubles(vec![x])
    }
}

impl From<i32> for Column {
    fn from(x: i32) -> Self {
        Column::Ints(vec![x])
    }
}

impl From<bool> for Column {
    fn from(x: bool) -> Self {
        Column::Logicals(vec![x])
    }
}

/// A value that may be absent: NULL for R when it is.
impl<T: Into<Column>> From<Option<T>> for Column {
    fn from(x: Option<T>) -> Self {
        x.map_or(Column::Null, Into::into)
    }
}

impl From<Vec<f64>> for Column {
    fn from(x: Vec<f64>) -> Self {
        Column::Doubles(x)
    }
}

impl From<Vec<i32>> for Column {
    fn from(x: Vec<i32>) -> Self {
        Column::Ints(x)
    }
}

impl From<ResultList> for Column {
    fn from(x: ResultList) -> Self {
        Column::List(x)
    }
}

/// A list of columns, named or not, as plain Rust data until `into_robj()`.
pub(crate) struct ResultList {
    names: Option<Vec<&'static str>>,
    columns: Vec<Column>,
}

impl ResultList {
    /// A list named `names`, one name per column (an internal error otherwise).
    pub(crate) fn named(names: Vec<&'static str>, columns: Vec<Column>) -> crate::protocol::GlueResult<Self> {
        if names.len() != columns.len() {
            return Err(crate::protocol::internal(format!(
                "a result list has {} names for {} columns",
                names.len(),
                columns.len()
            )));
        }
        Ok(ResultList { names: Some(names), columns })
    }

    /// A list of a struct's fields (`result_list!`): as many names as columns by
    /// construction.
    pub(crate) fn of_fields(names: Vec<&'static str>, columns: Vec<Column>) -> Self {
        ResultList { names: Some(names), columns }
    }

    /// A list without names.
    pub(crate) fn unnamed(columns: Vec<Column>) -> Self {
        ResultList { names: None, columns }
    }

    /// The R list.
    pub(crate) fn into_robj(self) -> Robj {
        // SAFETY: R's thread (the glue's entry points run there). `build` returns its
        // list unprotected; it is protected until extendr has taken it over.
        unsafe {
            let sexp = Rf_protect(self.build());
            let out = Robj::from_sexp(sexp as _);
            Rf_unprotect(1);
            out
        }
    }

    /// Builds the list, returned unprotected: each part is stored in the (protected)
    /// list before anything else is allocated.
    unsafe fn build(&self) -> Sexp {
        let list = Rf_protect(Rf_allocVector(VECSXP as c_uint, self.columns.len() as isize));
        for (i, column) in self.columns.iter().enumerate() {
            let value = match column {
                Column::Doubles(x) => {
                    let v = Rf_allocVector(REALSXP as c_uint, x.len() as isize);
                    if !x.is_empty() {
                        std::ptr::copy_nonoverlapping(x.as_ptr(), REAL(v), x.len());
                    }
                    v
                }
                Column::Ints(x) => {
                    let v = Rf_allocVector(INTSXP as c_uint, x.len() as isize);
                    if !x.is_empty() {
                        std::ptr::copy_nonoverlapping(x.as_ptr(), INTEGER(v), x.len());
                    }
                    v
                }
                Column::Logicals(x) => {
                    let v = Rf_allocVector(LGLSXP as c_uint, x.len() as isize);
                    if !x.is_empty() {
                        let out = std::slice::from_raw_parts_mut(LOGICAL(v), x.len());
                        out.iter_mut().zip(x).for_each(|(o, &b)| *o = b as c_int);
                    }
                    v
                }
                Column::Strings(x) => {
                    // Each string is stored as soon as it is made, while `list`
                    // protects the vector.
                    let v = Rf_allocVector(STRSXP as c_uint, x.len() as isize);
                    SET_VECTOR_ELT(list, i as isize, v);
                    for (j, s) in x.iter().enumerate() {
                        let chars = match s {
                            Some(s) => Rf_mkCharLenCE(s.as_ptr() as _, s.len() as c_int, CE_UTF8),
                            None => R_NaString,
                        };
                        SET_STRING_ELT(v, j as isize, chars);
                    }
                    v
                }
                Column::List(inner) => inner.build(),
                Column::Null => R_NilValue,
            };
            SET_VECTOR_ELT(list, i as isize, value);
        }
        if let Some(names) = &self.names {
            let r_names = Rf_protect(Rf_allocVector(STRSXP as c_uint, names.len() as isize));
            for (i, name) in names.iter().enumerate() {
                SET_STRING_ELT(r_names, i as isize, Rf_mkCharLenCE(name.as_ptr() as _, name.len() as c_int, CE_UTF8));
            }
            Rf_setAttrib(list, R_NamesSymbol, r_names);
            Rf_unprotect(1);
        }
        Rf_unprotect(1);
        list
    }
}

/// Declares a result struct and the named list it becomes: its fields' names, in
/// order, each field anything that is a `Column` (vectors, scalars, `ResultList`,
/// `Option`s of those for NULL).
macro_rules! result_list {
    ($(#[$meta:meta])* $vis:vis struct $name:ident { $($(#[$fmeta:meta])* $fvis:vis $field:ident: $ty:ty,)* }) => {
        $(#[$meta])* $vis struct $name { $($(#[$fmeta])* $fvis $field: $ty,)* }

        impl From<$name> for $crate::r_lists::ResultList {
            fn from(x: $name) -> Self {
                $crate::r_lists::ResultList::of_fields(
                    vec![$(stringify!($field)),*],
                    vec![$($crate::r_lists::Column::from(x.$field)),*],
                )
            }
        }
    };
}
pub(crate) use result_list;
