//! Record-level results: each record's q and the size of its q per dataset (for
//! replicated uniques), and each record's counts, flags and risks (record_risk()).

use crate::compute::target_request;
use crate::encoding::{encoded_vars, var_indices};
use crate::protocol::*;
use extendr_api::prelude::*;
use extendr_api::{rtype_to_sxp, AsTypedSlice};
use synthrisk_core::codes::LevelCodes;
use synthrisk_core::record_keys::record_keys;
use synthrisk_core::records::{advise_huge_pages, records, OriginalRecord, RowSink, SyntheticRecord};

fn ints_robj(v: &[u32], plus: i32) -> Robj {
    Robj::from(v.iter().map(|&x| x as i32 + plus).collect::<Vec<i32>>())
}

pub fn keys_of_records(encoded: Robj, keys: Robj, n_threads: i32) -> GlueResult<Robj> {
    let workers = workers(n_threads)?;
    let vars = encoded_vars(&encoded)?;
    let keys = var_indices(vars, &keys, "keys")?;
    let codes: Vec<&[LevelCodes<'_>]> = keys.iter().map(|&k| vars[k].codes.as_slice()).collect();
    let levels: Vec<u32> = keys.iter().map(|&k| vars[k].n_levels).collect();
    let r = record_keys(&workers, &codes, &levels, &user_interrupt)?;
    named_list(
        ["q", "counts"],
        [
            List::from_values(r.q.iter().map(|q| ints_robj(q, 1))).into(),
            List::from_values(r.counts.iter().map(|c| ints_robj(c, 0))).into(),
        ],
    )
}

/// Record-level rows of one target (`record_risk()`): the original records under each
/// synthesis, then the records of each synthesis, as columns of R's types, syntheses
/// one after another. The columns are allocated here, on the R thread, and the core
/// writes plain slices of them from its threads (no R call there), so each value is
/// written once, with no per-record table to build and copy.
pub fn record_level(encoded: Robj, keys: Robj, use_keys_na: Robj, target: Robj, n_threads: i32) -> GlueResult<Robj> {
    let workers = workers(n_threads)?;
    let vars = encoded_vars(&encoded)?;
    let keys = var_indices(vars, &keys, "keys")?;
    let use_na = Vec::<bool>::from_robj(&use_keys_na, "use_keys_na")?;
    let request = target_request(&target, "target")?;
    let recs = records(&workers, vars, &keys, &use_na, request.var, &request.spec, &user_interrupt)?;
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
    named_list(
        ["original", "synthetic", "n_orig", "n_syn"],
        [
            original.into_list()?,
            synthetic.into_list()?,
            Robj::from(n_orig as f64),
            Robj::from(n_syn.iter().map(|&n| n as f64).collect::<Vec<f64>>()),
        ],
    )
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

fn int_slice_mut<'a>(x: &mut Robj) -> GlueResult<&'a mut [i32]> {
    column(x, "an integer vector")
}

fn lgl_slice_mut<'a>(x: &mut Robj) -> GlueResult<&'a mut [Rbool]> {
    column(x, "a logical vector")
}

fn dbl_slice_mut<'a>(x: &mut Robj) -> GlueResult<&'a mut [f64]> {
    column(x, "a double vector")
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

const ORIGINAL_NAMES: [&str; 10] = [
    "d_q",
    "s_q",
    "unique_orig",
    "unique_in_syn",
    "replicated_unique",
    "rk",
    "disclosive_orig",
    "disco",
    "cap",
    "excluded",
];

/// The columns of the original records, in `ORIGINAL_NAMES` order.
struct OriginalColumns([Robj; 10]);

impl OriginalColumns {
    fn alloc(n: usize) -> Self {
        use Rtype::{Doubles, Integers, Logicals};
        OriginalColumns(
            [Integers, Integers, Logicals, Logicals, Logicals, Doubles, Logicals, Logicals, Doubles, Integers]
                .map(|t| alloc(t, n)),
        )
    }

    /// The slices, borrowed while `self` holds the vectors.
    fn sink<'a>(&'a mut self, na_real: f64) -> GlueResult<OriginalSink<'a>> {
        let [d_q, s_q, uo, uis, ru, rk, dor, disco, cap, excl] = &mut self.0;
        Ok(OriginalSink {
            d_q: int_slice_mut(d_q)?,
            s_q: int_slice_mut(s_q)?,
            unique_orig: lgl_slice_mut(uo)?,
            unique_in_syn: lgl_slice_mut(uis)?,
            replicated_unique: lgl_slice_mut(ru)?,
            rk: dbl_slice_mut(rk)?,
            disclosive_orig: lgl_slice_mut(dor)?,
            disco: lgl_slice_mut(disco)?,
            cap: dbl_slice_mut(cap)?,
            excluded: int_slice_mut(excl)?,
            na_real,
        })
    }

    fn into_list(self) -> GlueResult<Robj> {
        named_list(ORIGINAL_NAMES, self.0)
    }
}

struct OriginalSink<'a> {
    d_q: &'a mut [i32],
    s_q: &'a mut [i32],
    unique_orig: &'a mut [Rbool],
    unique_in_syn: &'a mut [Rbool],
    replicated_unique: &'a mut [Rbool],
    rk: &'a mut [f64],
    disclosive_orig: &'a mut [Rbool],
    disco: &'a mut [Rbool],
    cap: &'a mut [f64],
    excluded: &'a mut [i32],
    na_real: f64,
}

impl RowSink<OriginalRecord> for OriginalSink<'_> {
    fn len(&self) -> usize {
        self.d_q.len()
    }

    fn split_at(self, mid: usize) -> (Self, Self) {
        let (d_q, d_q2) = self.d_q.split_at_mut(mid);
        let (s_q, s_q2) = self.s_q.split_at_mut(mid);
        let (uo, uo2) = self.unique_orig.split_at_mut(mid);
        let (uis, uis2) = self.unique_in_syn.split_at_mut(mid);
        let (ru, ru2) = self.replicated_unique.split_at_mut(mid);
        let (rk, rk2) = self.rk.split_at_mut(mid);
        let (dor, dor2) = self.disclosive_orig.split_at_mut(mid);
        let (disco, disco2) = self.disco.split_at_mut(mid);
        let (cap, cap2) = self.cap.split_at_mut(mid);
        let (excl, excl2) = self.excluded.split_at_mut(mid);
        let na_real = self.na_real;
        (
            OriginalSink {
                d_q,
                s_q,
                unique_orig: uo,
                unique_in_syn: uis,
                replicated_unique: ru,
                rk,
                disclosive_orig: dor,
                disco,
                cap,
                excluded: excl,
                na_real,
            },
            OriginalSink {
                d_q: d_q2,
                s_q: s_q2,
                unique_orig: uo2,
                unique_in_syn: uis2,
                replicated_unique: ru2,
                rk: rk2,
                disclosive_orig: dor2,
                disco: disco2,
                cap: cap2,
                excluded: excl2,
                na_real,
            },
        )
    }

    #[inline]
    fn put(&mut self, i: usize, v: OriginalRecord) {
        self.d_q[i] = v.d_q as i32;
        self.s_q[i] = v.s_q as i32;
        self.unique_orig[i] = lgl(v.unique_orig);
        self.unique_in_syn[i] = lgl(v.unique_in_syn);
        self.replicated_unique[i] = lgl(v.replicated_unique);
        self.rk[i] = v.rk.unwrap_or(self.na_real);
        self.disclosive_orig[i] = lgl(v.disclosive_orig);
        self.disco[i] = lgl(v.disco);
        self.cap[i] = v.cap;
        self.excluded[i] = step(v.excluded);
    }
}

const SYNTHETIC_NAMES: [&str; 7] =
    ["s_q", "d_q", "replicated_unique", "unique_syn_in_orig", "weap", "tcap", "excluded"];

/// The columns of the synthetic records, in `SYNTHETIC_NAMES` order.
struct SyntheticColumns([Robj; 7]);

impl SyntheticColumns {
    fn alloc(n: usize) -> Self {
        use Rtype::{Doubles, Integers, Logicals};
        SyntheticColumns([Integers, Integers, Logicals, Logicals, Doubles, Doubles, Integers].map(|t| alloc(t, n)))
    }

    fn sink<'a>(&'a mut self, na_real: f64) -> GlueResult<SyntheticSink<'a>> {
        let [s_q, d_q, ru, usio, weap, tcap, excl] = &mut self.0;
        Ok(SyntheticSink {
            s_q: int_slice_mut(s_q)?,
            d_q: int_slice_mut(d_q)?,
            replicated_unique: lgl_slice_mut(ru)?,
            unique_syn_in_orig: lgl_slice_mut(usio)?,
            weap: dbl_slice_mut(weap)?,
            tcap: dbl_slice_mut(tcap)?,
            excluded: int_slice_mut(excl)?,
            na_real,
        })
    }

    fn into_list(self) -> GlueResult<Robj> {
        named_list(SYNTHETIC_NAMES, self.0)
    }
}

struct SyntheticSink<'a> {
    s_q: &'a mut [i32],
    d_q: &'a mut [i32],
    replicated_unique: &'a mut [Rbool],
    unique_syn_in_orig: &'a mut [Rbool],
    weap: &'a mut [f64],
    tcap: &'a mut [f64],
    excluded: &'a mut [i32],
    na_real: f64,
}

impl RowSink<SyntheticRecord> for SyntheticSink<'_> {
    fn len(&self) -> usize {
        self.s_q.len()
    }

    fn split_at(self, mid: usize) -> (Self, Self) {
        let (s_q, s_q2) = self.s_q.split_at_mut(mid);
        let (d_q, d_q2) = self.d_q.split_at_mut(mid);
        let (ru, ru2) = self.replicated_unique.split_at_mut(mid);
        let (usio, usio2) = self.unique_syn_in_orig.split_at_mut(mid);
        let (weap, weap2) = self.weap.split_at_mut(mid);
        let (tcap, tcap2) = self.tcap.split_at_mut(mid);
        let (excl, excl2) = self.excluded.split_at_mut(mid);
        let na_real = self.na_real;
        (
            SyntheticSink {
                s_q,
                d_q,
                replicated_unique: ru,
                unique_syn_in_orig: usio,
                weap,
                tcap,
                excluded: excl,
                na_real,
            },
            SyntheticSink {
                s_q: s_q2,
                d_q: d_q2,
                replicated_unique: ru2,
                unique_syn_in_orig: usio2,
                weap: weap2,
                tcap: tcap2,
                excluded: excl2,
                na_real,
            },
        )
    }

    #[inline]
    fn put(&mut self, i: usize, v: SyntheticRecord) {
        self.s_q[i] = v.s_q as i32;
        self.d_q[i] = v.d_q as i32;
        self.replicated_unique[i] = lgl(v.replicated_unique);
        self.unique_syn_in_orig[i] = lgl(v.unique_syn_in_orig);
        self.weap[i] = v.weap;
        self.tcap[i] = v.tcap.unwrap_or(self.na_real);
        self.excluded[i] = step(v.excluded);
    }
}
