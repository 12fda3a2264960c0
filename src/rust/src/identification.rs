//! Identification risk: the matches of each original record among the synthetic
//! records, exact on categorical variables and within a radius on numeric ones, both
//! read from the one encoding (level codes, and the values kept beside them).

use crate::encoding::{encoded_vars, var_indices};
use crate::protocol::*;
use extendr_api::prelude::*;
use synthrisk_core::codes::{LevelCodes, NA_INTEGER};
use synthrisk_core::encode::{EncodedVar, RawColumn};
use synthrisk_core::identification::{identification, RadiusVar};
pub(crate) use wire::IdentificationRequest;

/// R's `NA_real_`: the NaN whose low word is 1954.
const NA_REAL_BITS: u64 = 0x7FF0_0000_0000_07A2;

/// A numeric variable's values per dataset as doubles: R's doubles borrowed, integers
/// converted (NA to R's `NA_real_`).
fn values_of<'a>(v: &'a EncodedVar<'_>, what: &str) -> GlueResult<Vec<std::borrow::Cow<'a, [f64]>>> {
    let columns = v.magnitudes.as_ref().ok_or_else(|| internal(format!("{what} is not numeric")))?;
    columns
        .iter()
        .map(|c| match *c {
            RawColumn::Double(x) => Ok(std::borrow::Cow::Borrowed(x)),
            RawColumn::Integer(x) => Ok(std::borrow::Cow::Owned(
                x.iter().map(|&i| if i == NA_INTEGER { f64::from_bits(NA_REAL_BITS) } else { i as f64 }).collect(),
            )),
            RawColumn::Factor { .. } => Err(internal(format!("{what} is a factor"))),
        })
        .collect()
}

/// `encoded`: an encoding whose variables `request.exact` (0-based) are matched
/// exactly and whose numeric variables `request.within` (0-based) are matched within
/// `radius` (one per variable, with `relative`).
pub fn identify(encoded: Robj, request: IdentificationRequest) -> GlueResult<Robj> {
    let IdentificationRequest { exact, within, radius, relative, n_threads } = request;
    let workers = workers(n_threads)?;
    let vars: &[EncodedVar<'static>] = encoded_vars(&encoded)?;
    let exact = var_indices(vars, &exact, "exact")?;
    let within = var_indices(vars, &within, "within")?;
    let exact_codes: Vec<&[LevelCodes<'_>]> = exact.iter().map(|&k| vars[k].codes.as_slice()).collect();
    let levels: Vec<u32> = exact.iter().map(|&k| vars[k].n_levels).collect();
    if within.len() != radius.len() || within.len() != relative.len() {
        return Err(internal("one radius and one relative flag per numeric variable"));
    }
    let values =
        within.iter().map(|&k| values_of(&vars[k], &format!("variable {k}"))).collect::<GlueResult<Vec<_>>>()?;
    let radius_vars: Vec<RadiusVar<'_>> = values
        .iter()
        .zip(radius)
        .zip(&relative)
        .map(|((cols, r), &rel)| RadiusVar {
            values: cols.iter().map(|c| c.as_ref()).collect(),
            radius: r,
            relative: rel,
        })
        .collect();
    let results = identification(&workers, &exact_codes, &levels, &radius_vars, &user_interrupt)?;
    let out = results.iter().map(|r| -> Robj {
        Identified { c: r.c.iter().map(|&c| c as i32).collect(), t: r.t.iter().map(|&t| Rbool::from(t)).collect() }
            .into()
    });
    Ok(List::from_values(out).into())
}

/// One synthesis's identification counts (`c`) and whether each match is true (`t`),
/// a named list of its fields (extendr's `IntoList`).
#[derive(IntoList)]
struct Identified {
    c: Vec<i32>,
    t: Vec<Rbool>,
}

/// The shape of `rust_identification`'s request, read by serde (`read_request`).
mod wire {
    use serde::Deserialize;

    /// The variables matched exactly and within a radius (0-based), the radius and
    /// whether it is relative per numeric variable, and the threads.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct IdentificationRequest {
        pub(crate) exact: Vec<i32>,
        pub(crate) within: Vec<i32>,
        pub(crate) radius: Vec<f64>,
        pub(crate) relative: Vec<bool>,
        pub(crate) n_threads: i32,
    }
}
