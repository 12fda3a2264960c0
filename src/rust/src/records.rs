//! Record-level results: each record's q and the size of its q per dataset (for
//! replicated uniques), and each record's counts, flags and risks (record_risk()).

use crate::compute::target_request;
use crate::encoding::{encoded_vars, var_indices};
use crate::protocol::*;
use extendr_api::prelude::*;
use synthrisk_core::codes::LevelCodes;
use synthrisk_core::record_keys::record_keys;
use synthrisk_core::records::records;

fn ints_robj(v: &[u32], plus: i32) -> Robj {
    Robj::from(v.iter().map(|&x| x as i32 + plus).collect::<Vec<i32>>())
}

fn bools_robj(v: &[bool]) -> Robj {
    Robj::from(v.iter().map(|&x| Rbool::from(x)).collect::<Vec<Rbool>>())
}

/// Exclusion steps: 0 for kept, else the 1-based step that removed the record.
fn steps_robj(v: &[u8]) -> Robj {
    Robj::from(v.iter().map(|&x| x as i32).collect::<Vec<i32>>())
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

pub fn record_level(encoded: Robj, keys: Robj, use_keys_na: Robj, target: Robj, n_threads: i32) -> GlueResult<Robj> {
    let workers = workers(n_threads)?;
    let vars = encoded_vars(&encoded)?;
    let keys = var_indices(vars, &keys, "keys")?;
    let use_na = Vec::<bool>::from_robj(&use_keys_na, "use_keys_na")?;
    let request = target_request(&target, "target")?;
    let per_synthesis = records(&workers, vars, &keys, &use_na, request.var, &request.spec, &user_interrupt)?;
    let out: Vec<Robj> = per_synthesis
        .iter()
        .map(|(o, s)| {
            let original = named_list(
                ["d_q", "s_q", "q_in_syn", "excluded", "pd_one", "ps_one", "cap"],
                [
                    ints_robj(&o.d_q, 0),
                    ints_robj(&o.s_q, 0),
                    bools_robj(&o.q_in_syn),
                    steps_robj(&o.excluded),
                    bools_robj(&o.pd_one),
                    bools_robj(&o.ps_one),
                    Robj::from(o.cap.clone()),
                ],
            )?;
            let synthetic = named_list(
                ["s_q", "d_q", "excluded", "weap", "tcap"],
                [
                    ints_robj(&s.s_q, 0),
                    ints_robj(&s.d_q, 0),
                    steps_robj(&s.excluded),
                    Robj::from(s.weap.clone()),
                    Robj::from(s.tcap.clone()),
                ],
            )?;
            named_list(["original", "synthetic"], [original, synthetic])
        })
        .collect::<GlueResult<_>>()?;
    Ok(List::from_values(out).into())
}
