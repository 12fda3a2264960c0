//! The measures of the definitions vignette, section 6, in percent, from a synthesis' merged tally.
//! `TCAP_synthpop` is synthpop 1.9-3's TCAP: disclosive and correct over the original
//! records (after exclusions) whose q occurs in the synthetic data (after exclusions).
//! `TCAP_taub` is TCAP as Taub et al. (2018) define it (definitions vignette 10.5): weighted by synthetic
//! records.

use crate::exclusions::*;
use crate::sweep::Tally;

/// The measures, each a named field, and their names, written once: the macro makes
/// the struct, `NAMES` (in field order) and the list of (name, value) pairs.
macro_rules! measures {
    ($($field:ident => $name:literal),* $(,)?) => {
        #[derive(Debug, Clone, PartialEq)]
        pub struct SynthesisMeasures {
            $(pub $field: f64,)*
        }

        impl SynthesisMeasures {
            /// The measures' names, in the order of `named()`.
            pub const NAMES: &'static [&'static str] = &[$($name),*];

            /// Every measure with its name.
            pub fn named(&self) -> Vec<(&'static str, f64)> {
                vec![$(($name, self.$field)),*]
            }
        }
    };
}

measures! {
    uio => "UiO", uis => "UiS", uioi_s => "UiOiS", rep_u => "repU",
    dorig => "Dorig", dsyn => "Dsyn", i_s => "iS", dis => "DiS", disco => "DiSCO", dcapd => "DCAPd",
    disdio => "DiSDiO", max_denom => "max_denom", mean_denom => "mean_denom",
    base_capd => "baseCAPd", capd => "CAPd", caps => "CAPs", dcaps => "DCAPs", dcapb => "DCAPb",
    tcap => "TCAP", tcaps => "TCAPs", tcapb => "TCAPb", tcap_synthpop => "TCAP_synthpop", tcap_taub => "TCAP_taub",
    dcapi => "DCAPi",
    nd => "Nd", ns => "Ns",
}

/// Names of the measures, in the order of `SynthesisMeasures::named()`.
pub const MEASURE_NAMES: &[&str] = SynthesisMeasures::NAMES;

/// `100 * num / den` with R's arithmetic: `x / 0` is `Inf` for `x > 0`, `NaN` for `x = 0`
/// (definitions vignette, section 6; numerators are never negative).
fn pct(num: f64, den: f64) -> f64 {
    100.0 * num / den
}

/// `100 * sum_t (d[t,.] / Nd)^2` from the target's original margin before exclusions.
pub fn base_cap_d(margin: &[u64], n_orig: u64) -> f64 {
    let nd = n_orig as f64;
    100.0 * margin.iter().map(|&c| (c as f64 / nd) * (c as f64 / nd)).sum::<f64>()
}

impl SynthesisMeasures {
    pub fn from_tally(t: &Tally, n_orig: u64, n_syn: u64, base_cap_d: f64) -> Self {
        let nd = n_orig as f64;
        let ns = n_syn as f64;
        let kept = |k: usize| t.kept(k) as f64;
        let disco = kept(DISCO);
        let nb = t.n_b as f64;
        SynthesisMeasures {
            uio: pct(t.n_uio as f64, nd),
            uis: pct(t.n_uis as f64, ns),
            uioi_s: pct(t.n_uioi_s as f64, nd),
            rep_u: pct(t.n_repu as f64, nd),
            dorig: pct(kept(DORIG), nd),
            dsyn: pct(kept(DSYN), ns),
            i_s: pct(kept(IS), nd),
            dis: pct(kept(DIS), nd),
            disco: pct(disco, nd),
            dcapd: pct(t.dcap_num, nd),
            disdio: pct(kept(DISDIO), nd),
            max_denom: t.disco_max as f64,
            mean_denom: if t.disco_cells == 0 { f64::NAN } else { disco / t.disco_cells as f64 },
            base_capd: base_cap_d,
            capd: pct(t.capd_num, nd),
            caps: pct(t.caps_num, ns),
            dcaps: pct(t.dcap_num, ns),
            dcapb: pct(t.dcap_num, nb),
            tcap: pct(disco, kept(DIS)),
            tcaps: pct(disco, ns),
            tcapb: pct(disco, nb),
            tcap_synthpop: pct(disco, t.n_orig_in_syn as f64),
            tcap_taub: pct(t.taub_num, t.taub_den as f64),
            dcapi: pct(t.dcap_num, kept(IS)),
            nd,
            ns,
        }
    }

    pub fn get(&self, name: &str) -> Option<f64> {
        self.named().into_iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_denominators_follow_r_arithmetic() {
        assert_eq!(pct(3.0, 0.0), f64::INFINITY);
        assert!(pct(0.0, 0.0).is_nan());
        assert_eq!(pct(1.0, 4.0), 25.0);
        // K > 0 disclosive records but Nb = 0 after exclusions: TCAPb is Inf, TCAP finite.
        let mut t = Tally::new(2, 0);
        t.total[DISCO] = 2;
        t.total[DIS] = 4;
        let m = SynthesisMeasures::from_tally(&t, 10, 10, 50.0);
        assert_eq!(m.get("TCAPb"), Some(f64::INFINITY));
        assert!(m.get("DCAPb").unwrap().is_nan());
        assert_eq!(m.get("TCAP"), Some(50.0));
        assert!(m.get("mean_denom").unwrap().is_nan(), "no DiSCO cell: mean_denom stays NaN");
        assert_eq!(m.get("max_denom"), Some(0.0));
        assert!(m.get("DCAPi").unwrap().is_nan(), "no original record whose q is in the synthetic data");
    }

    #[test]
    fn dcapi_divides_c_by_the_is_total() {
        let mut t = Tally::new(2, 0);
        t.dcap_num = 3.0;
        t.total[IS] = 8;
        let m = SynthesisMeasures::from_tally(&t, 10, 20, 50.0);
        assert_eq!(m.get("DCAPi"), Some(37.5));
        assert_eq!(m.get("DCAPd"), Some(30.0));
    }
}
