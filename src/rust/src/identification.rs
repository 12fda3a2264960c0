//! Identification risk: the matches of each original record among the synthetic
//! records, exact on categorical variables and within a radius on numeric ones.

use crate::encoding::{encoded_vars, var_indices};
use crate::protocol::*;
use extendr_api::prelude::*;
use synthrisk_core::codes::LevelCodes;
use synthrisk_core::encode::EncodedVar;
use synthrisk_core::identification::{identification, RadiusVar};

/// `encoded`: NULL or an encoding whose variables `exact` (0-based) are matched
/// exactly; `radius_values`: per numeric variable matched within a radius, a list of
/// double vectors (original first), with `radius` and `relative` per variable.
pub fn identify(
    encoded: Robj,
    exact: Robj,
    radius_values: Robj,
    radius: Robj,
    relative: Robj,
    n_threads: i32,
) -> GlueResult<Robj> {
    let workers = workers(n_threads)?;
    let vars: &[EncodedVar<'static>] = if encoded.is_null() { &[] } else { encoded_vars(&encoded)? };
    let exact = var_indices(vars, &exact, "exact")?;
    let exact_codes: Vec<&[LevelCodes<'_>]> = exact.iter().map(|&k| vars[k].codes.as_slice()).collect();
    let levels: Vec<u32> = exact.iter().map(|&k| vars[k].n_levels).collect();
    let radius = Vec::<f64>::from_robj(&radius, "radius")?;
    let relative = Vec::<bool>::from_robj(&relative, "relative")?;
    let columns: Vec<Vec<Robj>> = List::from_robj(&radius_values, "radius_values")?
        .values()
        .map(|v| Ok(List::from_robj(&v, "radius_values[[i]]")?.values().collect()))
        .collect::<GlueResult<_>>()?;
    if columns.len() != radius.len() || columns.len() != relative.len() {
        return Err(internal("one radius and one relative flag per numeric variable"));
    }
    let radius_vars: Vec<RadiusVar<'_>> = columns
        .iter()
        .zip(radius)
        .zip(&relative)
        .map(|((cols, r), &rel)| {
            let values = cols.iter().map(|c| real_slice(c, "numeric column")).collect::<GlueResult<Vec<&[f64]>>>()?;
            Ok(RadiusVar { values, radius: r, relative: rel })
        })
        .collect::<GlueResult<_>>()?;
    let results = identification(&workers, &exact_codes, &levels, &radius_vars, &user_interrupt)?;
    let out: Vec<Robj> = results
        .iter()
        .map(|r| {
            named_list(
                ["c", "t"],
                [
                    Robj::from(r.c.iter().map(|&c| c as i32).collect::<Vec<i32>>()),
                    Robj::from(r.t.iter().map(|&t| Rbool::from(t)).collect::<Vec<Rbool>>()),
                ],
            )
        })
        .collect::<GlueResult<_>>()?;
    Ok(List::from_values(out).into())
}
