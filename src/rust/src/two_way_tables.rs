//! The 2-way check's tables of every target and synthesis of a call, built as R objects
//! in one call: the pairs (the counts' `two_way` columns) labelled "target|key", laid out
//! by the core (`two_way_tables`) and made synthpop's data frames. R keeps the one thing
//! it alone can do: the labels' order in the locale. The glue orders each target's
//! labels by their bytes and returns them; R checks that order in the locale with one
//! comparison of neighbours and, for a target where it is not the locale's, calls again
//! with the locale's ranks (R/two-way-checks.R).

use crate::protocol::*;
use crate::r_api::*;
use extendr_api::prelude::*;
use extendr_api::robj::GetSexp;
use std::os::raw::{c_int, c_uint};
use synthrisk_core::two_way_tables::{two_way_tables as lay_out, TargetPairs, TwoWayTable};
pub(crate) use wire::TwoWayRequest;

/// The columns of synthpop's check_2way, in its order.
const COLUMNS: [&str; 6] = ["target_key_levs", "npairs", "key", "key_target_total", "key_total", "PctTargetKeyLevel"];

/// One target's pairs of the syntheses 1..m, read from its `two_way` list.
struct Pairs {
    synthesis: Vec<usize>,
    key: Vec<usize>,
    npairs: Vec<f64>,
    key_target_total: Vec<f64>,
    key_total: Vec<f64>,
    pct: Vec<f64>,
    shown: Vec<bool>,
    /// Per pair its label id; per id its bytes' span of `text` (ids in byte order).
    label: Vec<u32>,
    labels: Vec<std::ops::Range<usize>>,
    text: Vec<u8>,
}

/// `handle`: list(pairs = each target's `two_way` list (the counts' columns), target_labels
/// = each target's labels, key_labels = each key's labels, keys = the keys' names,
/// key_names = names(keys) or NULL). Returns list(tables = per target a list of m (NULL
/// or the data frame), labels = the labels of every target with a table, each target's
/// in byte order (or in the order of `request.ranks` when given), label_target = each
/// label's target (1-based)).
pub fn two_way_tables(handle: Robj, request: TwoWayRequest) -> GlueResult<Robj> {
    let TwoWayRequest { m, threshold, ranks } = request;
    let m = usize::try_from(m).map_err(|_| internal(format!("`m` is {m}")))?;
    // SAFETY (every unsafe block below): R's thread (an entry point); the objects read
    // are held by `handle`, which outlives the call, and every object made is stored in
    // a protected list as soon as it is made.
    let handle = unsafe { handle.get() as Sexp };
    let field = |name: &str| {
        unsafe { named_element(handle, name) }.ok_or_else(|| internal(format!("`handle${name}` is missing")))
    };
    let list = |x: Sexp, what: &str| unsafe { list_elements(x, what) };
    let pairs_of = list(field("pairs")?, "handle$pairs")?;
    let target_labels = list(field("target_labels")?, "handle$target_labels")?;
    let key_labels = list(field("key_labels")?, "handle$key_labels")?;
    let keys = field("keys")?;
    let key_names = field("key_names")?;
    if target_labels.len() != pairs_of.len() {
        return Err(internal("`handle$target_labels` is not one per target"));
    }
    unsafe {
        if TYPEOF(keys) != STRSXP || Rf_xlength(keys) as usize != key_labels.len() {
            return Err(internal("`handle$keys` must be one name per key"));
        }
        if key_names != R_NilValue && (TYPEOF(key_names) != STRSXP || Rf_xlength(key_names) != Rf_xlength(keys)) {
            return Err(internal("`handle$key_names` must be NULL or one name per key"));
        }
        if key_labels.iter().chain(&target_labels).any(|&x| TYPEOF(x) != STRSXP) {
            return Err(internal("`handle$key_labels` and `target_labels` must be character vectors"));
        }
    }
    let targets: Vec<Pairs> = pairs_of
        .iter()
        .zip(&target_labels)
        .enumerate()
        .map(|(t, (&two_way, &labels))| unsafe { read_pairs(two_way, labels, &key_labels, m, threshold, t) })
        .collect::<GlueResult<_>>()?;
    // Each target's rank of each label: its byte order, or the ranks R gave in its place.
    let n_labels: usize = targets.iter().filter(|p| p.shown.iter().any(|&s| s)).map(|p| p.labels.len()).sum();
    if let Some(r) = &ranks {
        if r.len() != n_labels {
            return Err(internal(format!("`ranks` has {} values for {n_labels} labels", r.len())));
        }
    }
    let mut offset = 0;
    let mut laid_out: Vec<Option<(Vec<TwoWayTable>, usize)>> = Vec::with_capacity(targets.len());
    for p in &targets {
        if !p.shown.iter().any(|&s| s) {
            laid_out.push(None);
            continue;
        }
        // Label ids are their places in byte order.
        let label_rank: Vec<u32> = match &ranks {
            Some(r) => r[offset..offset + p.labels.len()]
                .iter()
                .map(|&x| u32::try_from(x).map_err(|_| internal(format!("`ranks` has {x}"))))
                .collect::<GlueResult<_>>()?,
            None => (0..p.labels.len() as u32).collect(),
        };
        let tables = lay_out(&TargetPairs {
            synthesis: &p.synthesis,
            key: &p.key,
            label: &p.label,
            npairs: &p.npairs,
            shown: &p.shown,
            label_rank: &label_rank,
        })?;
        laid_out.push(Some((tables, offset)));
        offset += p.labels.len();
    }
    unsafe { Ok(build(&targets, &laid_out, n_labels, m, keys, key_names)) }
}

/// A label's bytes as UTF-8 (NA is "NA", as paste() writes it).
unsafe fn label_bytes<'a>(labels: Sexp, level: i32, what: &str) -> GlueResult<&'a [u8]> {
    let n = Rf_xlength(labels);
    if level < 1 || level as isize > n {
        return Err(internal(format!("a 2-way pair has {what} level {level} of {n}")));
    }
    Ok(utf8_bytes(STRING_ELT(labels, level as isize - 1)))
}

/// One target's pairs of the syntheses 1..m, their labels made once per distinct
/// (key, key level, target level) and numbered in byte order (equal labels, of two keys
/// that share one, take one number).
///
/// # Safety
/// R's thread; the arguments are live R objects.
unsafe fn read_pairs(
    two_way: Sexp,
    labels: Sexp,
    key_labels: &[Sexp],
    m: usize,
    threshold: f64,
    t: usize,
) -> GlueResult<Pairs> {
    let what = |f: &str| format!("pairs[[{}]]${f}", t + 1);
    let ints = |f: &str| {
        named_element(two_way, f)
            .and_then(|x| ints_of(x))
            .ok_or_else(|| internal(format!("`{}` must be integers", what(f))))
    };
    let reals = |f: &str| {
        named_element(two_way, f)
            .and_then(|x| doubles_of(x))
            .ok_or_else(|| internal(format!("`{}` must be doubles", what(f))))
    };
    let (synthesis, key, key_level, target_level) =
        (ints("synthesis")?, ints("key")?, ints("key_level")?, ints("target_level")?);
    let (npairs, ktt, kt) = (reals("npairs")?, reals("key_target_total")?, reals("key_total")?);
    let n = synthesis.len();
    if [key.len(), key_level.len(), target_level.len(), npairs.len(), ktt.len(), kt.len()].iter().any(|&l| l != n) {
        return Err(internal(format!("`{}` has columns of different lengths", what(""))));
    }
    let mut out = Pairs {
        synthesis: Vec::new(),
        key: Vec::new(),
        npairs: Vec::new(),
        key_target_total: Vec::new(),
        key_total: Vec::new(),
        pct: Vec::new(),
        shown: Vec::new(),
        label: Vec::new(),
        labels: Vec::new(),
        text: Vec::new(),
    };
    // Rows of the holdout records (synthesis m + 1) are not the syntheses' tables.
    let rows: Vec<usize> = (0..n).filter(|&i| synthesis[i] >= 1 && synthesis[i] as usize <= m).collect();
    let pct: Vec<f64> = rows.iter().map(|&i| 100.0 * ktt[i] / kt[i]).collect();
    if !pct.iter().any(|&p| p > threshold) {
        return Ok(out);
    }
    let n = rows.len();
    out = Pairs {
        synthesis: Vec::with_capacity(n),
        key: Vec::with_capacity(n),
        npairs: Vec::with_capacity(n),
        key_target_total: Vec::with_capacity(n),
        key_total: Vec::with_capacity(n),
        pct: Vec::with_capacity(n),
        shown: Vec::with_capacity(n),
        label: Vec::with_capacity(n),
        labels: Vec::new(),
        text: Vec::new(),
    };
    // The distinct (key, key level, target level) of the rows, and each row's.
    let mut tuples: Vec<(i32, i32, i32, usize)> =
        rows.iter().enumerate().map(|(r, &i)| (key[i], key_level[i], target_level[i], r)).collect();
    tuples.sort_unstable();
    let mut distinct_of_row = vec![0usize; rows.len()];
    // Each distinct tuple's text, "target|key", in one buffer.
    let mut spans: Vec<std::ops::Range<usize>> = Vec::new();
    let mut text: Vec<u8> = Vec::new();
    for (k, &(key, key_level, target_level, r)) in tuples.iter().enumerate() {
        if k == 0 || (tuples[k - 1].0, tuples[k - 1].1, tuples[k - 1].2) != (key, key_level, target_level) {
            let key_labels = (key >= 1)
                .then(|| key_labels.get(key as usize - 1))
                .flatten()
                .ok_or_else(|| internal(format!("`{}` has key {key}", what("key"))))?;
            let start = text.len();
            text.extend_from_slice(label_bytes(labels, target_level, "target")?);
            text.push(b'|');
            text.extend_from_slice(label_bytes(*key_labels, key_level, "key")?);
            spans.push(start..text.len());
        }
        distinct_of_row[r] = spans.len() - 1;
    }
    // Labels numbered in byte order, equal texts one number.
    let mut by_bytes: Vec<usize> = (0..spans.len()).collect();
    by_bytes.sort_unstable_by(|&a, &b| text[spans[a].clone()].cmp(&text[spans[b].clone()]).then(a.cmp(&b)));
    let mut label_of_distinct = vec![0u32; spans.len()];
    for (k, &d) in by_bytes.iter().enumerate() {
        if k == 0 || text[spans[by_bytes[k - 1]].clone()] != text[spans[d].clone()] {
            out.labels.push(spans[d].clone());
        }
        label_of_distinct[d] = out.labels.len() as u32 - 1;
    }
    out.text = text;
    for (r, (&i, &p)) in rows.iter().zip(&pct).enumerate() {
        out.label.push(label_of_distinct[distinct_of_row[r]]);
        out.synthesis.push(synthesis[i] as usize - 1);
        out.key.push(key[i] as usize - 1);
        out.npairs.push(npairs[i]);
        out.key_target_total.push(ktt[i]);
        out.key_total.push(kt[i]);
        out.pct.push(p);
        out.shown.push(p > threshold);
    }
    Ok(out)
}

unsafe fn reals(values: impl ExactSizeIterator<Item = f64>) -> Sexp {
    let v = Rf_allocVector(REALSXP as c_uint, values.len() as isize);
    let out = std::slice::from_raw_parts_mut(REAL(v), values.len());
    out.iter_mut().zip(values).for_each(|(o, x)| *o = x);
    v
}

unsafe fn ints(values: impl ExactSizeIterator<Item = i32>) -> Sexp {
    let v = Rf_allocVector(INTSXP as c_uint, values.len() as isize);
    let out = std::slice::from_raw_parts_mut(INTEGER(v), values.len());
    out.iter_mut().zip(values).for_each(|(o, x)| *o = x);
    v
}

/// The result list (see `two_way_tables`), built on R's protect stack.
unsafe fn build(
    targets: &[Pairs],
    laid_out: &[Option<(Vec<TwoWayTable>, usize)>],
    n_labels: usize,
    m: usize,
    keys: Sexp,
    key_names: Sexp,
) -> Robj {
    let out = Rf_protect(Rf_allocVector(VECSXP as c_uint, 3));
    let keep = Rf_protect(Rf_allocVector(VECSXP as c_uint, 4));
    // Strings made once, kept in `keep` (protected) and shared.
    let put = |i: isize, v: Sexp| {
        SET_VECTOR_ELT(keep, i, v);
        v
    };
    let class_df = put(0, new_strings(&["data.frame"]));
    let class_factor = put(1, new_strings(&["factor"]));
    let column_names = put(2, new_strings(&COLUMNS));
    let out_names = put(3, new_strings(&["tables", "labels", "label_target"]));
    // Every label once: the returned labels, whose strings the factors' levels share.
    let labels = Rf_allocVector(STRSXP as c_uint, n_labels as isize);
    SET_VECTOR_ELT(out, 1, labels);
    let label_target = Rf_allocVector(INTSXP as c_uint, n_labels as isize);
    SET_VECTOR_ELT(out, 2, label_target);
    // Each target's label id -> its place in `labels`.
    let mut label_at: Vec<Vec<usize>> = Vec::with_capacity(targets.len());
    for (t, (p, l)) in targets.iter().zip(laid_out).enumerate() {
        let mut at = vec![0; p.labels.len()];
        if let Some((_, offset)) = l {
            for (k, span) in p.labels.iter().enumerate() {
                let text = &p.text[span.clone()];
                SET_STRING_ELT(
                    labels,
                    (offset + k) as isize,
                    Rf_mkCharLenCE(text.as_ptr() as _, text.len() as c_int, CE_UTF8),
                );
                *INTEGER(label_target).add(offset + k) = t as i32 + 1;
                at[k] = offset + k;
            }
        }
        label_at.push(at);
    }
    let has_key_names = TYPEOF(key_names) == STRSXP;
    let tables = Rf_allocVector(VECSXP as c_uint, targets.len() as isize);
    SET_VECTOR_ELT(out, 0, tables);
    for (t, (p, l)) in targets.iter().zip(laid_out).enumerate() {
        let per_synthesis = Rf_allocVector(VECSXP as c_uint, m as isize);
        SET_VECTOR_ELT(tables, t as isize, per_synthesis);
        let Some((laid, _)) = l else { continue };
        for table in laid {
            let frame = Rf_allocVector(VECSXP as c_uint, COLUMNS.len() as isize);
            SET_VECTOR_ELT(per_synthesis, table.synthesis as isize, frame);
            let rows = &table.rows;
            let factor = ints(table.codes.iter().copied());
            SET_VECTOR_ELT(frame, 0, factor);
            let levels = Rf_allocVector(STRSXP as c_uint, table.levels.len() as isize);
            Rf_setAttrib(factor, R_LevelsSymbol, levels);
            for (k, &id) in table.levels.iter().enumerate() {
                SET_STRING_ELT(levels, k as isize, STRING_ELT(labels, label_at[t][id as usize] as isize));
            }
            Rf_setAttrib(factor, R_ClassSymbol, class_factor);
            // as.integer() of each count.
            SET_VECTOR_ELT(frame, 1, ints(rows.iter().map(|&i| r_as_integer(p.npairs[i]))));
            let key = Rf_allocVector(STRSXP as c_uint, rows.len() as isize);
            SET_VECTOR_ELT(frame, 2, key);
            for (k, &i) in rows.iter().enumerate() {
                SET_STRING_ELT(key, k as isize, STRING_ELT(keys, p.key[i] as isize));
            }
            SET_VECTOR_ELT(frame, 3, reals(rows.iter().map(|&i| p.key_target_total[i])));
            SET_VECTOR_ELT(frame, 4, reals(rows.iter().map(|&i| p.key_total[i])));
            SET_VECTOR_ELT(frame, 5, reals(rows.iter().map(|&i| p.pct[i])));
            Rf_setAttrib(frame, R_ClassSymbol, class_df);
            Rf_setAttrib(frame, R_NamesSymbol, column_names);
            // Keys named by the user name the rows when their names are distinct and
            // not all empty (as data.frame() took them from the key column); otherwise
            // each row's place among all of its synthesis's pairs, as synthpop's.
            let named = has_key_names && {
                let names: Vec<Option<&[u8]>> = rows
                    .iter()
                    .map(|&i| {
                        let s = STRING_ELT(key_names, p.key[i] as isize);
                        (s != R_NaString).then(|| utf8_bytes(s))
                    })
                    .collect();
                let mut distinct = names.clone();
                distinct.sort();
                distinct.dedup();
                // (nzchar() is TRUE for NA.)
                distinct.len() == names.len() && names.iter().any(|s| s.is_none_or(|s| !s.is_empty()))
            };
            let row_names = if named {
                let v = Rf_protect(Rf_allocVector(STRSXP as c_uint, rows.len() as isize));
                for (k, &i) in rows.iter().enumerate() {
                    SET_STRING_ELT(v, k as isize, STRING_ELT(key_names, p.key[i] as isize));
                }
                v
            } else {
                Rf_protect(ints(table.places.iter().copied()))
            };
            Rf_setAttrib(frame, R_RowNamesSymbol, row_names);
            Rf_unprotect(1);
        }
    }
    Rf_setAttrib(out, R_NamesSymbol, out_names);
    let robj = Robj::from_sexp(out as _);
    Rf_unprotect(2);
    robj
}

/// The shape of `rust_two_way_tables`'s request, read by serde (`read_request`).
mod wire {
    use serde::Deserialize;

    /// The syntheses shown (1..m), the share a pair must pass (thresh_2way[2]), and the
    /// labels' ranks in the locale where their byte order is not the locale's.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct TwoWayRequest {
        pub(crate) m: i32,
        pub(crate) threshold: f64,
        pub(crate) ranks: Option<Vec<i32>>,
    }
}
