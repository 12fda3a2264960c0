//! Each target's `disclosure` components, named and ordered as synthpop 1.9-3's, made
//! from the counts in one call for every target (R/disclosure-result.R's
//! build_disclosures()): the measure frames (sharing the counts' columns, as R's `[`
//! of a list does), the exclusion matrices, the 1-way check (the level with most
//! disclosive records, flagged by `thresh_1way`) and the 2-way tables R made
//! (R/two-way-checks.R), with their messages. R's values that the result only holds
//! (keys, target, digits, to.print, call, the names) are stored as R gave them.

use crate::protocol::*;
use crate::r_api::*;
use extendr_api::robj::GetSexp;
use extendr_api::Robj;
use std::os::raw::{c_int, c_uint};
pub(crate) use wire::PartsRequest;

/// A target's components, in synthpop's order, then synthrisk's.
const PARTS: [&str; 17] = [
    "ident",
    "attrib",
    "allCAPs",
    "check_1way",
    "check1",
    "check_2way",
    "check2",
    "Nexclusions",
    "keys",
    "target",
    "digits",
    "Norig",
    "to.print",
    "call",
    "measures",
    "Nsyn",
    "m",
];

/// The 1-way check's table columns, in synthpop's order.
const ONE_WAY_COLUMNS: [&str; 6] = ["Level", "All", "PctLevelAll", "totalDisclosive", "nLevelDis", "PctLevelDis"];

/// The measure frames of synthpop's components.
const FRAMES: [&str; 3] = ["ident", "attrib", "allCAPs"];

/// The 1-way check's inputs, per synthesis (the first m of each field are the syntheses').
const ONE_WAY_FIELDS: [&str; 5] = ["level", "n_level_dis", "total_disclosive", "all_orig", "level_orig"];

/// What `disclosure_parts` reads of R's values: the SEXPs are held by the handle.
struct Input {
    targets: Vec<Target>,
    /// The frames' columns: per frame, its columns' places among the measures.
    frame_at: Vec<Vec<usize>>,
    /// Per frame, its column names (R's character vector).
    frame_names: Vec<Sexp>,
    target_names: Sexp,
    /// Each target's `target` component as R gave it (a name kept), or None: the
    /// target's name.
    target_values: Option<Vec<Sexp>>,
    keys: Sexp,
    digits: Sexp,
    to_print: Sexp,
    call: Sexp,
    dimnames: Sexp,
    /// Components R adds after synthpop's (`extra`: per component a value per target;
    /// a NULL value adds nothing, as `$<-` does), and the class, or NULL.
    extra: Vec<(Sexp, Vec<Sexp>)>,
    class: Sexp,
    n_tables: usize,
    n_cols: usize,
    m: usize,
    thresh_1way: (f64, f64),
}

/// One target's counts.
struct Target {
    /// The measures' columns and their names (the counts' `stats`).
    columns: Vec<Sexp>,
    stat_names: Sexp,
    n_rows: usize,
    norig: f64,
    nsyn: Vec<f64>,
    /// Per table, per synthesis the records each step removed, then the table's total.
    nexcl: Vec<Vec<f64>>,
    one_way: [Vec<f64>; 5],
    labels: Sexp,
    /// The target's 2-way tables (a list of m) or NULL.
    two: Sexp,
}

/// A named list's element by name, or an internal error naming it.
///
/// # Safety
/// R's thread; `list` a live R object.
unsafe fn element(list: Sexp, name: &str, what: &dyn Fn() -> String) -> GlueResult<Sexp> {
    named_element(list, name).ok_or_else(|| internal(format!("`{}${name}` is missing", what())))
}

/// The doubles of a named list's element.
///
/// # Safety
/// As `element`; the slice lives as long as `list`'s element.
unsafe fn doubles<'a>(list: Sexp, name: &str, what: &dyn Fn() -> String) -> GlueResult<&'a [f64]> {
    doubles_of(element(list, name, what)?).ok_or_else(|| internal(format!("`{}${name}` must be doubles", what())))
}

/// The strings of a character vector (NA as "NA").
///
/// # Safety
/// R's thread; `x` a live R object.
unsafe fn utf8_strings(x: Sexp, what: &str) -> GlueResult<Vec<String>> {
    if TYPEOF(x) != STRSXP {
        return Err(internal(format!("`{what}` must be a character vector")));
    }
    Ok((0..Rf_xlength(x)).map(|i| utf8(STRING_ELT(x, i)).into_owned()).collect())
}

/// A string's text as UTF-8 ("NA" for NA, as paste() writes it; bytes that are not
/// UTF-8 shown as replacement characters, never dropped).
unsafe fn utf8<'a>(s: Sexp) -> std::borrow::Cow<'a, str> {
    String::from_utf8_lossy(utf8_bytes(s))
}

/// Reads the handle. All of it is R's values that `handle` holds: read on R's thread,
/// without allocating R objects.
unsafe fn read(handle: Sexp, request: PartsRequest) -> GlueResult<Input> {
    let PartsRequest { m, thresh_1way } = request;
    let m = usize::try_from(m).ok().filter(|&m| m >= 1).ok_or_else(|| internal(format!("`m` is {m}")))?;
    let thresh_1way = match thresh_1way.as_slice() {
        &[a, b] => (a, b),
        _ => return Err(internal("`thresh_1way` must be two numbers")),
    };
    let handle_name = || "handle".to_string();
    let field = |name: &str| element(handle, name, &handle_name);
    let raws = list_elements(field("raws")?, "handle$raws")?;
    let labels = list_elements(field("target_labels")?, "handle$target_labels")?;
    let two = field("two")?;
    let two = if two == R_NilValue { None } else { Some(list_elements(two, "handle$two")?) };
    // Each target's 2-way tables: a list of NULL or data frames (lists).
    for (i, &t) in two.iter().flatten().enumerate() {
        let tables = if t == R_NilValue { Vec::new() } else { list_elements(t, "handle$two[[i]]")? };
        if tables.iter().any(|&x| x != R_NilValue && TYPEOF(x) != VECSXP) {
            return Err(internal(format!("`handle$two[[{}]]` must hold NULL or data frames", i + 1)));
        }
    }
    let target_names = field("targets")?;
    if TYPEOF(target_names) != STRSXP {
        return Err(internal("`handle$targets` must be a character vector"));
    }
    let n = raws.len();
    if labels.len() != n || two.as_ref().is_some_and(|t| t.len() != n) || Rf_xlength(target_names) as usize != n {
        return Err(internal("`handle$targets`, `target_labels` and `two` must be one per target"));
    }
    let dimnames = field("exclusion_dimnames")?;
    let dims = list_elements(dimnames, "handle$exclusion_dimnames")?;
    if dims.len() != 2 {
        return Err(internal("`handle$exclusion_dimnames` must be two vectors"));
    }
    let table_names = utf8_strings(dims[0], "exclusion_dimnames[[1]]")?;
    let n_cols = Rf_xlength(dims[1]) as usize;
    if n_cols < 1 {
        return Err(internal("`handle$exclusion_dimnames[[2]]` is empty"));
    }
    let mut targets = Vec::with_capacity(n);
    for (i, (&raw, &labels)) in raws.iter().zip(&labels).enumerate() {
        let what = || format!("raws[[{}]]", i + 1);
        let stats = element(raw, "stats", &what)?;
        let stats_what = || format!("raws[[{}]]$stats", i + 1);
        let columns = list_elements(stats, &stats_what())?;
        if columns.iter().any(|&c| TYPEOF(c) != REALSXP) {
            return Err(internal(format!("`{}` must be double vectors", stats_what())));
        }
        let n_rows = columns.first().map_or(0, |&c| Rf_xlength(c) as usize);
        let norig = doubles(stats, "Nd", &stats_what)?.first().copied().unwrap_or(f64::NAN);
        let nsyn = doubles(stats, "Ns", &stats_what)?.to_vec();
        let nexcl = element(raw, "nexcl", &what)?;
        let nexcl_what = || format!("raws[[{}]]$nexcl", i + 1);
        let nexcl = table_names
            .iter()
            .map(|t| doubles(nexcl, t, &nexcl_what).map(<[f64]>::to_vec))
            .collect::<GlueResult<Vec<_>>>()?;
        let one = element(raw, "one_way", &what)?;
        let one_what = || format!("raws[[{}]]$one_way", i + 1);
        let mut one_way: [Vec<f64>; 5] = Default::default();
        for (field, name) in one_way.iter_mut().zip(ONE_WAY_FIELDS) {
            *field = doubles(one, name, &one_what)?.to_vec();
        }
        if TYPEOF(labels) != STRSXP {
            return Err(internal(format!("`handle$target_labels[[{}]]` must be a character vector", i + 1)));
        }
        targets.push(Target {
            columns,
            stat_names: Rf_getAttrib(stats, R_NamesSymbol),
            n_rows,
            norig,
            nsyn,
            nexcl,
            one_way,
            labels,
            two: two.as_ref().map_or(R_NilValue, |t| t[i]),
        });
    }
    // Every target's counts name the same measures (one core call made them).
    let stat_names = match targets.first() {
        Some(t) => utf8_strings(t.stat_names, "raws[[1]]$stats names")?,
        None => Vec::new(),
    };
    if targets.iter().any(|t| utf8_strings(t.stat_names, "stats names").ok().as_ref() != Some(&stat_names)) {
        return Err(internal("the targets' counts name their measures differently"));
    }
    let core_names = field("component_core_names")?;
    let names = field("component_names")?;
    let mut frame_at = Vec::with_capacity(FRAMES.len());
    let mut frame_names = Vec::with_capacity(FRAMES.len());
    for f in FRAMES {
        let wanted = utf8_strings(element(core_names, f, &|| "handle$component_core_names".into())?, f)?;
        let at = wanted
            .iter()
            .map(|w| {
                stat_names.iter().position(|s| s == w).ok_or_else(|| internal(format!("the core gave no measure {w}")))
            })
            .collect::<GlueResult<Vec<_>>>()?;
        let shown = element(names, f, &|| "handle$component_names".into())?;
        if TYPEOF(shown) != STRSXP || Rf_xlength(shown) as usize != at.len() {
            return Err(internal(format!("`handle$component_names${f}` is not one name per column")));
        }
        frame_at.push(at);
        frame_names.push(shown);
    }
    let extra_list = field("extra")?;
    let extra_names = Rf_getAttrib(extra_list, R_NamesSymbol);
    let mut extra = Vec::new();
    for (k, values) in list_elements(extra_list, "handle$extra")?.into_iter().enumerate() {
        let values = list_elements(values, "handle$extra[[k]]")?;
        if TYPEOF(extra_names) != STRSXP || values.len() != n {
            return Err(internal("`handle$extra` must be named lists of one value per target"));
        }
        let name = STRING_ELT(extra_names, k as isize);
        // Added after synthpop's components, never in place of one.
        if PARTS.contains(&&*utf8(name)) {
            return Err(internal(format!("`handle$extra` names synthpop's component {}", utf8(name))));
        }
        extra.push((name, values));
    }
    let class = field("class")?;
    if class != R_NilValue && TYPEOF(class) != STRSXP {
        return Err(internal("`handle$class` must be NULL or a character vector"));
    }
    let target_values = field("target_values")?;
    let target_values = if target_values == R_NilValue {
        None
    } else {
        let values = list_elements(target_values, "handle$target_values")?;
        if values.len() != n || values.iter().any(|&v| TYPEOF(v) != STRSXP || Rf_xlength(v) != 1) {
            return Err(internal("`handle$target_values` must be one string per target"));
        }
        Some(values)
    };
    Ok(Input {
        target_values,
        extra,
        class,
        targets,
        frame_at,
        frame_names,
        target_names,
        keys: field("keys")?,
        digits: field("digits")?,
        to_print: field("to.print")?,
        call: field("call")?,
        dimnames,
        n_tables: table_names.len(),
        n_cols,
        m,
        thresh_1way,
    })
}

/// `handle`: list(raws = each target's counts (compute.rs's `TargetCounts`), two = NULL
/// or each target's 2-way tables (two_way_checks()), target_labels, targets, keys,
/// digits, to.print, call, component_names and component_core_names (per frame of
/// FRAMES its column names, and the core's names of those columns), exclusion_dimnames).
/// Returns each target's components, named by `targets`.
pub fn disclosure_parts(handle: Robj, request: PartsRequest) -> GlueResult<Robj> {
    // SAFETY: R's thread (an entry point); every value read is held by `handle`, which
    // outlives the call, and `build` runs after every check.
    unsafe {
        let input = read(handle.get() as Sexp, request)?;
        check_shapes(&input)?;
        Ok(build(&input))
    }
}

/// The counts hold a value per synthesis: every exclusion table a block per synthesis,
/// every 1-way field at least m values.
fn check_shapes(input: &Input) -> GlueResult<()> {
    for t in &input.targets {
        let len = t.nexcl.first().map_or(0, Vec::len);
        if t.nexcl.iter().any(|x| x.len() != len || x.len() % input.n_cols != 0 || x.len() / input.n_cols < input.m) {
            return Err(internal("the core's exclusion counts are not a table per step and synthesis"));
        }
        if t.one_way.iter().any(|x| x.len() < input.m) {
            return Err(internal("the core's 1-way counts are not a value per synthesis"));
        }
    }
    Ok(())
}

/// Constant R values made once per call, kept in a protected list.
struct Made {
    keep: Sexp,
    parts_names: Sexp,
    one_way_names: Sexp,
    class_df: Sexp,
    empty: Sexp,
    dim: Sexp,
}

unsafe fn made(n_tables: usize, n_cols: usize) -> Made {
    let keep = Rf_protect(Rf_allocVector(VECSXP as c_uint, 5));
    let put = |i: isize, v: Sexp| {
        SET_VECTOR_ELT(keep, i, v);
        v
    };
    let parts_names = put(0, new_strings(&PARTS));
    let one_way_names = put(1, new_strings(&ONE_WAY_COLUMNS));
    let class_df = put(2, new_strings(&["data.frame"]));
    let empty = put(3, new_strings(&[""]));
    let dim = put(4, Rf_allocVector(INTSXP as c_uint, 2));
    *INTEGER(dim) = n_tables as c_int;
    *INTEGER(dim).add(1) = n_cols as c_int;
    Made { keep, parts_names, one_way_names, class_df, empty, dim }
}

/// A data frame of `columns` (stored in `frame`): its attributes in the order R sets
/// them (class, row.names, names as measure_frame() did; class, names, row.names as
/// vctrs::new_data_frame() does, for the 1-way table), so that even serialize() sees
/// the objects R made.
unsafe fn frame_attributes(frame: Sexp, names: Sexp, n_rows: usize, row_names: Option<Sexp>, made: &Made) {
    Rf_setAttrib(frame, R_ClassSymbol, made.class_df);
    if row_names.is_some() {
        Rf_setAttrib(frame, R_NamesSymbol, names);
    }
    let rows = match row_names {
        Some(r) => r,
        None => {
            // (Writing its two integers allocates nothing: protected below.)
            let r = Rf_allocVector(INTSXP as c_uint, 2);
            *INTEGER(r) = i32::MIN;
            *INTEGER(r).add(1) = -(n_rows as c_int);
            r
        }
    };
    Rf_protect(rows);
    Rf_setAttrib(frame, R_RowNamesSymbol, rows);
    Rf_unprotect(1);
    if row_names.is_none() {
        Rf_setAttrib(frame, R_NamesSymbol, names);
    }
}

unsafe fn measure_frame(columns: &[Sexp], at: &[usize], names: Sexp, n_rows: usize, made: &Made) -> Sexp {
    let frame = Rf_protect(Rf_allocVector(VECSXP as c_uint, at.len() as isize));
    for (k, &i) in at.iter().enumerate() {
        SET_VECTOR_ELT(frame, k as isize, columns[i]);
    }
    frame_attributes(frame, names, n_rows, None, made);
    Rf_unprotect(1);
    frame
}

unsafe fn real1(x: f64) -> Sexp {
    let v = Rf_allocVector(REALSXP as c_uint, 1);
    *REAL(v) = x;
    v
}

unsafe fn string1(text: &str) -> Sexp {
    let v = Rf_protect(Rf_allocVector(STRSXP as c_uint, 1));
    SET_STRING_ELT(v, 0, Rf_mkCharLenCE(text.as_ptr() as _, text.len() as c_int, CE_UTF8));
    Rf_unprotect(1);
    v
}

/// synthpop's check component: with one synthesis the table itself, or list("") when
/// none; with several, a list of one per synthesis, "" where none.
unsafe fn check_component(tables: &[Sexp], made: &Made) -> Sexp {
    if tables.len() == 1 && !tables[0].is_null() && tables[0] != R_NilValue {
        return tables[0];
    }
    let v = Rf_protect(Rf_allocVector(VECSXP as c_uint, tables.len() as isize));
    for (j, &t) in tables.iter().enumerate() {
        let empty = t.is_null() || t == R_NilValue;
        SET_VECTOR_ELT(v, j as isize, if empty { made.empty } else { t });
    }
    Rf_unprotect(1);
    v
}

unsafe fn build(input: &Input) -> Robj {
    let made = made(input.n_tables, input.n_cols);
    let out = Rf_protect(Rf_allocVector(VECSXP as c_uint, input.targets.len() as isize));
    let m = input.m;
    let (min_level, min_pct) = input.thresh_1way;
    for (i, t) in input.targets.iter().enumerate() {
        // R's components after synthpop's, those not NULL, in the order given.
        let added: Vec<&(Sexp, Vec<Sexp>)> = input.extra.iter().filter(|(_, v)| v[i] != R_NilValue).collect();
        let parts = Rf_allocVector(VECSXP as c_uint, (PARTS.len() + added.len()) as isize);
        SET_VECTOR_ELT(out, i as isize, parts);
        for (k, (at, &names)) in input.frame_at.iter().zip(&input.frame_names).enumerate() {
            SET_VECTOR_ELT(parts, k as isize, measure_frame(&t.columns, at, names, t.n_rows, &made));
        }
        // The 1-way check of each synthesis; synthpop keeps the message of the last one
        // flagged.
        let target = utf8(STRING_ELT(input.target_names, i as isize));
        let held = Rf_protect(Rf_allocVector(VECSXP as c_uint, m as isize));
        let mut message: Option<String> = None;
        let [level, n_level, total, all_orig, level_orig] = &t.one_way;
        for j in 0..m {
            let pct_dis = 100.0 * n_level[j] / total[j];
            let flagged = !level[j].is_nan() && total[j] != 0.0 && n_level[j] > min_level && pct_dis > min_pct;
            if !flagged {
                continue;
            }
            let lab = if level[j] >= 1.0 && level[j] <= Rf_xlength(t.labels) as f64 {
                STRING_ELT(t.labels, level[j] as isize - 1)
            } else {
                R_NaString
            };
            let table = Rf_allocVector(VECSXP as c_uint, ONE_WAY_COLUMNS.len() as isize);
            SET_VECTOR_ELT(held, j as isize, table);
            let label = Rf_allocVector(STRSXP as c_uint, 1);
            SET_VECTOR_ELT(table, 0, label);
            SET_STRING_ELT(label, 0, lab);
            let values = [all_orig[j], 100.0 * level_orig[j] / all_orig[j], total[j], n_level[j], pct_dis];
            for (c, &v) in values.iter().enumerate() {
                SET_VECTOR_ELT(table, c as isize + 1, real1(v));
            }
            frame_attributes(table, made.one_way_names, 1, Some(label), &made);
            message = Some(format!("Check  {target}  level  {}", utf8(lab)));
        }
        let tables: Vec<Sexp> = (0..m).map(|j| VECTOR_ELT(held, j as isize)).collect();
        SET_VECTOR_ELT(parts, 3, check_component(&tables, &made));
        SET_VECTOR_ELT(parts, 4, message.as_deref().map_or(made.empty, |s| string1(s)));
        Rf_unprotect(1);
        // The 2-way tables R made; the message counts the rows of the last synthesis with any.
        let two: Vec<Sexp> = if t.two.is_null() || t.two == R_NilValue || TYPEOF(t.two) != VECSXP {
            vec![R_NilValue; m]
        } else {
            (0..m)
                .map(|j| if (j as isize) < Rf_xlength(t.two) { VECTOR_ELT(t.two, j as isize) } else { R_NilValue })
                .collect()
        };
        let rows = |x: Sexp| if x == R_NilValue || Rf_xlength(x) == 0 { 0 } else { Rf_xlength(VECTOR_ELT(x, 0)) };
        SET_VECTOR_ELT(parts, 5, check_component(&two, &made));
        let check2 = match two.iter().rev().map(|&x| rows(x)).find(|&r| r > 0) {
            Some(r) => string1(&format!("{r} pairs need checks")),
            None => made.empty,
        };
        SET_VECTOR_ELT(parts, 6, check2);
        // Each synthesis's exclusions: per table the records each step removed, and the
        // records remaining (the total less the removed).
        let exclusions = Rf_allocVector(VECSXP as c_uint, m as isize);
        SET_VECTOR_ELT(parts, 7, exclusions);
        let steps = input.n_cols - 1;
        for j in 0..m {
            let x = Rf_allocVector(REALSXP as c_uint, (input.n_tables * input.n_cols) as isize);
            SET_VECTOR_ELT(exclusions, j as isize, x);
            let cells = std::slice::from_raw_parts_mut(REAL(x), input.n_tables * input.n_cols);
            for (k, table) in t.nexcl.iter().enumerate() {
                let block = &table[j * input.n_cols..(j + 1) * input.n_cols];
                let removed: f64 = block[..steps].iter().sum();
                for s in 0..steps {
                    cells[k + s * input.n_tables] = block[s];
                }
                cells[k + steps * input.n_tables] = block[steps] - removed;
            }
            Rf_setAttrib(x, R_DimSymbol, made.dim);
            Rf_setAttrib(x, R_DimNamesSymbol, input.dimnames);
        }
        SET_VECTOR_ELT(parts, 8, input.keys);
        match &input.target_values {
            Some(values) => {
                SET_VECTOR_ELT(parts, 9, values[i]);
            }
            None => {
                let target_name = Rf_allocVector(STRSXP as c_uint, 1);
                SET_VECTOR_ELT(parts, 9, target_name);
                SET_STRING_ELT(target_name, 0, STRING_ELT(input.target_names, i as isize));
            }
        }
        SET_VECTOR_ELT(parts, 10, input.digits);
        let norig = Rf_allocVector(INTSXP as c_uint, 1);
        SET_VECTOR_ELT(parts, 11, norig);
        *INTEGER(norig) = r_as_integer(t.norig);
        SET_VECTOR_ELT(parts, 12, input.to_print);
        SET_VECTOR_ELT(parts, 13, input.call);
        let all_at: Vec<usize> = (0..t.columns.len()).collect();
        SET_VECTOR_ELT(parts, 14, measure_frame(&t.columns, &all_at, t.stat_names, t.n_rows, &made));
        let nsyn = Rf_allocVector(INTSXP as c_uint, t.nsyn.len() as isize);
        SET_VECTOR_ELT(parts, 15, nsyn);
        for (k, &x) in t.nsyn.iter().enumerate() {
            *INTEGER(nsyn).add(k) = r_as_integer(x);
        }
        let m_value = Rf_allocVector(INTSXP as c_uint, 1);
        SET_VECTOR_ELT(parts, 16, m_value);
        *INTEGER(m_value) = m as c_int;
        if added.is_empty() {
            Rf_setAttrib(parts, R_NamesSymbol, made.parts_names);
        } else {
            let names = Rf_allocVector(STRSXP as c_uint, (PARTS.len() + added.len()) as isize);
            Rf_setAttrib(parts, R_NamesSymbol, names);
            for k in 0..PARTS.len() {
                SET_STRING_ELT(names, k as isize, STRING_ELT(made.parts_names, k as isize));
            }
            for (k, (name, values)) in added.iter().enumerate() {
                SET_VECTOR_ELT(parts, (PARTS.len() + k) as isize, values[i]);
                SET_STRING_ELT(names, (PARTS.len() + k) as isize, *name);
            }
        }
        if input.class != R_NilValue {
            Rf_setAttrib(parts, R_ClassSymbol, input.class);
        }
    }
    Rf_setAttrib(out, R_NamesSymbol, input.target_names);
    let robj = Robj::from_sexp(out as _);
    Rf_unprotect(2);
    let _ = made.keep;
    robj
}

/// The shape of `rust_disclosure_parts`'s request, read by serde (`read_request`).
mod wire {
    use serde::Deserialize;

    /// The syntheses (1..m) and the 1-way check's thresholds.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct PartsRequest {
        pub(crate) m: i32,
        pub(crate) thresh_1way: Vec<f64>,
    }
}
