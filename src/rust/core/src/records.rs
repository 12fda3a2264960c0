//! Record-level risk (definitions vignette 10.6): for every original and every synthetic record, the
//! counts of its q and its cell after the exclusions of definitions vignette section 5, so that summing the
//! per-record flags gives UiO, UiOiS, repU, Dorig, DiSCO and DCAPd (original records)
//! and Taub's TCAP (synthetic records) exactly as the measures count them.
//!
//! A record's cell (t, q) is excluded from the tables of original counts by the first
//! of steps 1-4 that applies, or by step 5 when its `d[t,q]` exceeds `denom_lim`; a
//! synthetic record's cell is excluded from the synthetic table likewise, with `s[t,q]`.

use crate::codes::LevelCodes;
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
    let key_codes: Vec<&[LevelCodes<'_>]> = keys.iter().map(|&k| vars[k].codes.as_slice()).collect();
    let key_levels: Vec<u32> = keys.iter().map(|&k| vars[k].n_levels).collect();
    let index = workers.chunk(should_stop, || build_key_index(&key_codes, &key_levels))??;
    let key_missing: Vec<u32> = keys.iter().map(|&k| vars[k].missing_code).collect();
    let missing_key = missing_key_flags(&index, &key_missing, use_keys_na);
    let rows_orig = RowsByQ::new(&index.q[0], index.n_q);
    let n_t = tv.n_levels as usize;
    let step_code = |s: Option<usize>| s.map_or(0u8, |x| x as u8 + 1);
    let step_code = &step_code;

    let mut out = Vec::with_capacity(n_datasets - 1);
    for j in 1..n_datasets {
        let rows_syn = RowsByQ::new(&index.q[j], index.n_q);
        // Pass 1, over q in blocks: the cells of each q (target level, d, s and the step
        // that removes the cell from the original and from the synthetic table) and the
        // kept counts of q.
        let blocks: Vec<std::ops::Range<usize>> =
            (0..index.n_q).step_by(Q_BLOCK).map(|lo| lo..(lo + Q_BLOCK).min(index.n_q)).collect();
        let parts: Vec<QBlock> = workers.chunk(should_stop, || {
            blocks
                .par_iter()
                .map(|b| {
                    let mut d = vec![0u32; n_t];
                    let mut s = vec![0u32; n_t];
                    let mut touched: Vec<u32> = Vec::new();
                    let mut kt: Vec<u32> = Vec::new();
                    let mut part = QBlock::default();
                    for q in b.clone() {
                        touched.clear();
                        for &r in rows_orig.of(q) {
                            let t = tv.codes[0].get(r as usize) as usize;
                            if d[t] == 0 {
                                touched.push(t as u32);
                            }
                            d[t] += 1;
                        }
                        for &r in rows_syn.of(q) {
                            let t = tv.codes[j].get(r as usize) as usize;
                            if d[t] == 0 && s[t] == 0 {
                                touched.push(t as u32);
                            }
                            s[t] += 1;
                        }
                        spec.key_target_levels_for(&index, q, &mut kt);
                        let (mut d_kept, mut s_kept) = (0u32, 0u32);
                        for &t in touched.iter() {
                            let (dv, sv) = (d[t as usize], s[t as usize]);
                            let base = spec.cell_step(t, missing_key[q], &kt);
                            let over = |v: u32| matches!(spec.denom_lim, Some(lim) if v as u64 > lim);
                            let step_d = base.or(if over(dv) { Some(STEP_DENOM_LIM) } else { None });
                            let step_s = base.or(if over(sv) { Some(STEP_DENOM_LIM) } else { None });
                            if step_d.is_none() {
                                d_kept += dv;
                            }
                            if step_s.is_none() {
                                s_kept += sv;
                            }
                            part.cells.push(Cell {
                                t,
                                d: dv,
                                s: sv,
                                step_d: step_code(step_d),
                                step_s: step_code(step_s),
                            });
                            d[t as usize] = 0;
                            s[t as usize] = 0;
                        }
                        part.n_cells.push(touched.len() as u32);
                        part.d_kept.push(d_kept);
                        part.s_kept.push(s_kept);
                    }
                    part
                })
                .collect()
        })?;
        let mut cells: Vec<Cell> = Vec::new();
        let mut offsets: Vec<usize> = Vec::with_capacity(index.n_q + 1);
        let mut d_kept: Vec<u32> = Vec::with_capacity(index.n_q);
        let mut s_kept: Vec<u32> = Vec::with_capacity(index.n_q);
        offsets.push(0);
        for p in parts {
            let mut at = cells.len();
            for n in p.n_cells {
                at += n as usize;
                offsets.push(at);
            }
            cells.extend(p.cells);
            d_kept.extend(p.d_kept);
            s_kept.extend(p.s_kept);
        }
        let cell_of = |q: usize, t: u32| -> Cell {
            cells[offsets[q]..offsets[q + 1]].iter().find(|c| c.t == t).copied().unwrap_or_default()
        };
        let kept_s = |c: &Cell| if c.step_s == 0 { c.s } else { 0 };
        let kept_d = |c: &Cell| if c.step_d == 0 { c.d } else { 0 };
        // Pass 2, over records: each reads its own cell.
        let orig_rows: Vec<OrigRow> = workers.chunk(should_stop, || {
            (0..index.q[0].len())
                .into_par_iter()
                .map(|r| {
                    let q = index.q[0][r] as usize;
                    let c = cell_of(q, tv.codes[0].get(r));
                    let (dq_all, sq_all) = (rows_orig.count(q) as u32, rows_syn.count(q) as u32);
                    let cap = if c.step_d == 0 && s_kept[q] > 0 { kept_s(&c) as f64 / s_kept[q] as f64 } else { 0.0 };
                    OrigRow {
                        d_q: d_kept[q],
                        s_q: s_kept[q],
                        q_in_syn: sq_all > 0,
                        excluded: c.step_d,
                        pd_one: dq_all > 0 && c.d == dq_all,
                        ps_one: sq_all > 0 && c.s == sq_all,
                        cap,
                    }
                })
                .collect()
        })?;
        let syn_rows: Vec<SynRow> = workers.chunk(should_stop, || {
            (0..index.q[j].len())
                .into_par_iter()
                .map(|r| {
                    let q = index.q[j][r] as usize;
                    let c = cell_of(q, tv.codes[j].get(r));
                    SynRow {
                        s_q: s_kept[q],
                        d_q: d_kept[q],
                        excluded: c.step_s,
                        weap: if s_kept[q] > 0 { kept_s(&c) as f64 / s_kept[q] as f64 } else { 0.0 },
                        tcap: if d_kept[q] > 0 { kept_d(&c) as f64 / d_kept[q] as f64 } else { f64::NAN },
                    }
                })
                .collect()
        })?;
        let o = OriginalRecords {
            d_q: orig_rows.iter().map(|x| x.d_q).collect(),
            s_q: orig_rows.iter().map(|x| x.s_q).collect(),
            q_in_syn: orig_rows.iter().map(|x| x.q_in_syn).collect(),
            excluded: orig_rows.iter().map(|x| x.excluded).collect(),
            pd_one: orig_rows.iter().map(|x| x.pd_one).collect(),
            ps_one: orig_rows.iter().map(|x| x.ps_one).collect(),
            cap: orig_rows.iter().map(|x| x.cap).collect(),
        };
        let sy = SyntheticRecords {
            s_q: syn_rows.iter().map(|x| x.s_q).collect(),
            d_q: syn_rows.iter().map(|x| x.d_q).collect(),
            excluded: syn_rows.iter().map(|x| x.excluded).collect(),
            weap: syn_rows.iter().map(|x| x.weap).collect(),
            tcap: syn_rows.iter().map(|x| x.tcap).collect(),
        };
        out.push((o, sy));
    }
    Ok(out)
}

/// q per block of the first pass.
const Q_BLOCK: usize = 1 << 12;

/// A cell (t, q) of one q: counts and the steps (1-5, 0 for kept) that remove it from
/// the original and from the synthetic table.
#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    t: u32,
    d: u32,
    s: u32,
    step_d: u8,
    step_s: u8,
}

#[derive(Default)]
struct QBlock {
    cells: Vec<Cell>,
    n_cells: Vec<u32>,
    d_kept: Vec<u32>,
    s_kept: Vec<u32>,
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
