//! Record-level risk (SPEC 10): for every original and every synthetic record, the
//! counts of its q and its cell after the exclusions of SPEC 5, so that summing the
//! per-record flags gives UiO, UiOiS, repU, Dorig, DiSCO and DCAPd (original records)
//! and Taub's TCAP (synthetic records) exactly as the measures count them.
//!
//! A record's cell (t, q) is excluded from the tables of original counts by the first
//! of steps 1-4 that applies, or by step 5 when its `d[t,q]` exceeds `denom_lim`; a
//! synthetic record's cell is excluded from the synthetic table likewise, with `s[t,q]`.

use crate::encode::EncodedVar;
use crate::error::{CoreError, CoreResult};
use crate::exclusions::{missing_key_flags, ExclusionSpec, STEP_DENOM_LIM};
use crate::keys::build_key_index;
use crate::rows_by_q::RowsByQ;
use crate::workers::{ShouldStop, Workers};
use rayon::prelude::*;

/// Per original record of one synthesis.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OriginalRecords {
    /// Original and synthetic records of its q after exclusions.
    pub d_q: Vec<u32>,
    pub s_q: Vec<u32>,
    /// Whether its q occurs in the synthesis before exclusions (UiOiS's "in Ks").
    pub q_in_syn: Vec<bool>,
    /// Exclusion step (1-5) that removed its cell, 0 for none.
    pub excluded: Vec<u8>,
    /// Its target level is the only one of its q in the original / in the synthesis
    /// (before exclusions, as Dorig and DiSCO use them).
    pub pd_one: Vec<bool>,
    pub ps_one: Vec<bool>,
    /// ps of its own target level after exclusions (0 when excluded): its share of DCAPd.
    pub cap: Vec<f64>,
}

/// Per synthetic record of one synthesis.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SyntheticRecords {
    pub s_q: Vec<u32>,
    pub d_q: Vec<u32>,
    pub excluded: Vec<u8>,
    /// ps and pd of its own target level after exclusions; pd is NaN when its q has no
    /// original record after exclusions.
    pub weap: Vec<f64>,
    pub tcap: Vec<f64>,
}

/// One target's records: `vars` as for the engine (dataset 0 the original), `keys`
/// indices of the keys, `target` of the target, `spec` its exclusions.
pub fn records(
    workers: &Workers,
    vars: &[EncodedVar],
    keys: &[usize],
    use_keys_na: &[bool],
    target: usize,
    spec: &ExclusionSpec,
    should_stop: ShouldStop<'_>,
) -> CoreResult<Vec<(OriginalRecords, SyntheticRecords)>> {
    let tv = vars.get(target).ok_or_else(|| CoreError::new("internal: target index out of range"))?;
    if keys.is_empty() || keys.len() != use_keys_na.len() || keys.iter().any(|&k| k >= vars.len()) {
        return Err(CoreError::new("internal: keys and usekeysNA do not match"));
    }
    if spec.excluded_target.len() != tv.n_levels as usize {
        return Err(CoreError::new("internal: excluded target levels do not match the target's levels"));
    }
    let n_datasets = tv.codes.len();
    if n_datasets < 2 || keys.iter().any(|&k| vars[k].codes.len() != n_datasets) {
        return Err(CoreError::new("internal: need the original and at least one synthesis for every variable"));
    }
    let key_codes: Vec<&[Vec<u32>]> = keys.iter().map(|&k| vars[k].codes.as_slice()).collect();
    let key_levels: Vec<u32> = keys.iter().map(|&k| vars[k].n_levels).collect();
    let index = workers.chunk(should_stop, || build_key_index(&key_codes, &key_levels))??;
    let key_missing: Vec<u32> = keys.iter().map(|&k| vars[k].missing_code).collect();
    let missing_key = missing_key_flags(&index, &key_missing, use_keys_na);
    let rows_orig = RowsByQ::new(&index.q[0], index.n_q);
    let n_t = tv.n_levels as usize;
    let step_code = |s: Option<usize>| s.map_or(0u8, |x| x as u8 + 1);

    let mut out = Vec::with_capacity(n_datasets - 1);
    for j in 1..n_datasets {
        let rows_syn = RowsByQ::new(&index.q[j], index.n_q);
        let n_orig = index.q[0].len();
        let n_syn = index.q[j].len();
        // Each q fills the entries of its own rows; q are independent, so the pass runs
        // over q in parallel and writes through per-row slots gathered afterwards.
        let per_q: Vec<(Vec<(u32, OrigRow)>, Vec<(u32, SynRow)>)> = workers.chunk(should_stop, || {
            (0..index.n_q)
                .into_par_iter()
                .map_init(
                    || (vec![0u32; n_t], vec![0u32; n_t], Vec::<u32>::new(), Vec::<u32>::new()),
                    |(d, s, touched, kt), q| {
                        touched.clear();
                        for &r in rows_orig.of(q) {
                            let t = tv.codes[0][r as usize] as usize;
                            if d[t] == 0 {
                                touched.push(t as u32);
                            }
                            d[t] += 1;
                        }
                        for &r in rows_syn.of(q) {
                            let t = tv.codes[j][r as usize] as usize;
                            if d[t] == 0 && s[t] == 0 {
                                touched.push(t as u32);
                            }
                            s[t] += 1;
                        }
                        let (d_q, s_q) = (rows_orig.count(q) as u32, rows_syn.count(q) as u32);
                        spec.key_target_levels_for(&index, q, kt);
                        // Steps of each touched cell for the original and synthetic tables,
                        // and the kept counts of q.
                        let mut cells: Vec<(u32, u32, u32, Option<usize>, Option<usize>)> = Vec::with_capacity(touched.len());
                        let (mut d_kept, mut s_kept) = (0u32, 0u32);
                        for &t in touched.iter() {
                            let (dv, sv) = (d[t as usize], s[t as usize]);
                            let base = spec.cell_step(t, missing_key[q], kt);
                            let over = |v: u32| matches!(spec.denom_lim, Some(lim) if v as u64 > lim);
                            let step_d = base.or(if over(dv) { Some(STEP_DENOM_LIM) } else { None });
                            let step_s = base.or(if over(sv) { Some(STEP_DENOM_LIM) } else { None });
                            if step_d.is_none() {
                                d_kept += dv;
                            }
                            if step_s.is_none() {
                                s_kept += sv;
                            }
                            cells.push((t, dv, sv, step_d, step_s));
                        }
                        let kept_of = |t: u32, which_s: bool| -> u32 {
                            cells
                                .iter()
                                .find(|c| c.0 == t)
                                .map_or(0, |c| if which_s { if c.4.is_none() { c.2 } else { 0 } } else if c.3.is_none() { c.1 } else { 0 })
                        };
                        let orig_rows: Vec<(u32, OrigRow)> = rows_orig
                            .of(q)
                            .iter()
                            .map(|&r| {
                                let t = tv.codes[0][r as usize];
                                let c = cells.iter().find(|c| c.0 == t).copied().unwrap_or((t, 0, 0, None, None));
                                let excluded = step_code(c.3);
                                let s_cell = kept_of(t, true);
                                let cap = if excluded == 0 && s_kept > 0 { s_cell as f64 / s_kept as f64 } else { 0.0 };
                                (
                                    r,
                                    OrigRow {
                                        d_q: d_kept,
                                        s_q: s_kept,
                                        q_in_syn: s_q > 0,
                                        excluded,
                                        pd_one: d_q > 0 && c.1 == d_q,
                                        ps_one: s_q > 0 && c.2 == s_q,
                                        cap,
                                    },
                                )
                            })
                            .collect();
                        let syn_rows: Vec<(u32, SynRow)> = rows_syn
                            .of(q)
                            .iter()
                            .map(|&r| {
                                let t = tv.codes[j][r as usize];
                                let c = cells.iter().find(|c| c.0 == t).copied().unwrap_or((t, 0, 0, None, None));
                                let s_cell = kept_of(t, true);
                                let d_cell = kept_of(t, false);
                                (
                                    r,
                                    SynRow {
                                        s_q: s_kept,
                                        d_q: d_kept,
                                        excluded: step_code(c.4),
                                        weap: if s_kept > 0 { s_cell as f64 / s_kept as f64 } else { 0.0 },
                                        tcap: if d_kept > 0 { d_cell as f64 / d_kept as f64 } else { f64::NAN },
                                    },
                                )
                            })
                            .collect();
                        for &t in touched.iter() {
                            d[t as usize] = 0;
                            s[t as usize] = 0;
                        }
                        (orig_rows, syn_rows)
                    },
                )
                .collect()
        })?;
        let mut o = OriginalRecords {
            d_q: vec![0; n_orig],
            s_q: vec![0; n_orig],
            q_in_syn: vec![false; n_orig],
            excluded: vec![0; n_orig],
            pd_one: vec![false; n_orig],
            ps_one: vec![false; n_orig],
            cap: vec![0.0; n_orig],
        };
        let mut sy = SyntheticRecords {
            s_q: vec![0; n_syn],
            d_q: vec![0; n_syn],
            excluded: vec![0; n_syn],
            weap: vec![0.0; n_syn],
            tcap: vec![0.0; n_syn],
        };
        for (orig_rows, syn_rows) in per_q {
            for (r, x) in orig_rows {
                let r = r as usize;
                o.d_q[r] = x.d_q;
                o.s_q[r] = x.s_q;
                o.q_in_syn[r] = x.q_in_syn;
                o.excluded[r] = x.excluded;
                o.pd_one[r] = x.pd_one;
                o.ps_one[r] = x.ps_one;
                o.cap[r] = x.cap;
            }
            for (r, x) in syn_rows {
                let r = r as usize;
                sy.s_q[r] = x.s_q;
                sy.d_q[r] = x.d_q;
                sy.excluded[r] = x.excluded;
                sy.weap[r] = x.weap;
                sy.tcap[r] = x.tcap;
            }
        }
        out.push((o, sy));
    }
    Ok(out)
}

#[derive(Debug, Clone, Copy)]
struct OrigRow {
    d_q: u32,
    s_q: u32,
    q_in_syn: bool,
    excluded: u8,
    pd_one: bool,
    ps_one: bool,
    cap: f64,
}

#[derive(Debug, Clone, Copy)]
struct SynRow {
    s_q: u32,
    d_q: u32,
    excluded: u8,
    weap: f64,
    tcap: f64,
}
