//! The measures of the definitions vignette, section 6, in percent, from a synthesis' merged tally.
//! `TCAP_synthpop` is synthpop 1.9-3's TCAP: disclosive and correct over the original
//! records (after exclusions) whose q occurs in the synthetic data (after exclusions).
//! `TCAP_taub` is TCAP as Taub et al. (2018) define it (definitions vignette 10.5): weighted by synthetic
//! records.

use crate::exclusions::*;
use crate::sweep::Tally;

/// What the R side shows of a measure: everything but its formula, declared beside it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeasureDeclaration {
    pub name: &'static str,
    /// `identity`, `attribute`, `CAP` or `count` (the record counts).
    pub family: &'static str,
    /// `%` or `count`.
    pub unit: &'static str,
    /// What it describes: the `original` alone or the `synthetic` data (alone or against
    /// the original).
    pub data: &'static str,
    /// The components of a synthpop `disclosure` object that hold it beside synthpop's
    /// own columns (space separated: `ident`, `attrib`, `allCAPs`), or `""` when only
    /// the `measures` table holds it.
    pub components: &'static str,
    /// `100 * numerator / denominator` in the symbols of the definitions vignette
    /// (section 6); `""` for the counts and the baseline.
    pub numerator: &'static str,
    pub denominator: &'static str,
    pub definition: &'static str,
}

/// Every measure written once: its field, its name, what R shows of it and its formula.
/// The macro makes the struct, `from_tally()` (the formulas, after the prelude that
/// names the tally's totals), `NAMES` and `DECLARATIONS` (in field order) and the list
/// of (name, value) pairs. A new measure is one entry here; R reads the declarations
/// (`R/measure-declarations.R`, written by `tools/measure-declarations.R`).
macro_rules! measures {
    (
        fn from_tally($($arg:ident: $ty:ty),*) { $($prelude:stmt;)* }
        $($field:ident => $name:literal [$family:literal, $unit:literal, $data:literal, $components:literal,
            $numerator:literal / $denominator:literal] $definition:literal = $formula:expr;)*
    ) => {
        #[derive(Debug, Clone, PartialEq)]
        pub struct SynthesisMeasures {
            $(pub $field: f64,)*
        }

        impl SynthesisMeasures {
            /// The measures' names, in the order of `named()`.
            pub const NAMES: &'static [&'static str] = &[$($name),*];

            /// What R shows of each measure, in the order of `named()`.
            pub const DECLARATIONS: &'static [MeasureDeclaration] = &[$(MeasureDeclaration {
                name: $name,
                family: $family,
                unit: $unit,
                data: $data,
                components: $components,
                numerator: $numerator,
                denominator: $denominator,
                definition: $definition,
            }),*];

            /// Every measure with its name.
            pub fn named(&self) -> Vec<(&'static str, f64)> {
                vec![$(($name, self.$field)),*]
            }

            /// Every measure of one synthesis from its merged tally.
            pub fn from_tally($($arg: $ty),*) -> Self {
                $($prelude)*
                SynthesisMeasures { $($field: $formula,)* }
            }
        }
    };
}

measures! {
    fn from_tally(t: &Tally, n_orig: u64, n_syn: u64, base_cap_d: f64) {
        let nd = n_orig as f64;
        let ns = n_syn as f64;
        let kept = |k: usize| t.kept(k) as f64;
        let disco = kept(DISCO);
        let nb = t.n_b as f64;
    }
    uio => "UiO" ["identity", "%", "original", "ident", "UiO" / "Nd"]
        "unique in the original: records whose key combination (q) occurs once in the original"
        = pct(t.n_uio as f64, nd);
    uis => "UiS" ["identity", "%", "synthetic", "ident", "UiS" / "Ns"]
        "unique in the synthetic data: records whose q occurs once in the synthesis (over Ns)"
        = pct(t.n_uis as f64, ns);
    uioi_s => "UiOiS" ["identity", "%", "synthetic", "ident", "UiOiS" / "Nd"]
        "unique in the original and q present in the synthetic data"
        = pct(t.n_uioi_s as f64, nd);
    rep_u => "repU" ["identity", "%", "synthetic", "ident", "repU" / "Nd"]
        "replicated uniques: unique in the original and unique in the synthetic data"
        = pct(t.n_repu as f64, nd);
    dorig => "Dorig" ["attribute", "%", "original", "attrib", "did" / "Nd"]
        "disclosive in the original: records whose q has one target level in the original"
        = pct(kept(DORIG), nd);
    dsyn => "Dsyn" ["attribute", "%", "synthetic", "attrib", "dis" / "Ns"]
        "disclosive in the synthetic data: records whose q has one target level there (over Ns)"
        = pct(kept(DSYN), ns);
    i_s => "iS" ["attribute", "%", "synthetic", "attrib", "iS" / "Nd"]
        "original records whose q occurs in the synthetic data"
        = pct(kept(IS), nd);
    dis => "DiS" ["attribute", "%", "synthetic", "attrib", "DiS" / "Nd"]
        "original records whose q has one target level in the synthetic data"
        = pct(kept(DIS), nd);
    disco => "DiSCO" ["attribute", "%", "synthetic", "attrib", "K" / "Nd"]
        "disclosive in the synthetic data and correct in the original"
        = pct(disco, nd);
    dcapd => "DCAPd" ["attribute", "%", "synthetic", "attrib allCAPs", "C" / "Nd"]
        "expected correct attributions: the sum over original records of ps, the synthetic share of their target level in their q (C / Nd)"
        = pct(t.dcap_num, nd);
    disdio => "DiSDiO" ["attribute", "%", "synthetic", "attrib", "DiSDiO" / "Nd"]
        "disclosive in the synthetic data and in the original, and correct"
        = pct(kept(DISDIO), nd);
    max_denom => "max_denom" ["attribute", "count", "synthetic", "attrib", "" / ""]
        "largest cell of the DiSCO table (records)"
        = t.disco_max as f64;
    mean_denom => "mean_denom" ["attribute", "count", "synthetic", "attrib", "" / ""]
        "mean of the non-zero cells of the DiSCO table (records)"
        = if t.disco_cells == 0 { f64::NAN } else { disco / t.disco_cells as f64 };
    base_capd => "baseCAPd" ["CAP", "%", "original", "allCAPs", "" / ""]
        "baseline: the chance of guessing the target from its original distribution"
        = base_cap_d;
    capd => "CAPd" ["CAP", "%", "original", "allCAPs", "CAPd" / "Nd"]
        "CAP of the original data predicting itself"
        = pct(t.capd_num, nd);
    caps => "CAPs" ["CAP", "%", "synthetic", "allCAPs", "CAPs" / "Ns"]
        "CAP of the synthetic data predicting itself (over Ns)"
        = pct(t.caps_num, ns);
    dcaps => "DCAPs" ["CAP", "%", "synthetic", "allCAPs", "C" / "Ns"]
        "expected correct attributions over the synthetic records (C / Ns)"
        = pct(t.dcap_num, ns);
    dcapb => "DCAPb" ["CAP", "%", "synthetic", "allCAPs", "C" / "Nb"]
        "expected correct attributions over synthetic records whose q occurs in the original (C / Nb)"
        = pct(t.dcap_num, nb);
    tcap => "TCAP" ["CAP", "%", "synthetic", "allCAPs", "K" / "DiS"]
        "of the original records whose q is predicted with certainty, the share predicted correctly (DiSCO / DiS)"
        = pct(disco, kept(DIS));
    tcaps => "TCAPs" ["CAP", "%", "synthetic", "allCAPs", "K" / "Ns"]
        "records predicted with certainty and correct over Ns (K / Ns)"
        = pct(disco, ns);
    tcapb => "TCAPb" ["CAP", "%", "synthetic", "allCAPs", "K" / "Nb"]
        "records predicted with certainty and correct over Nb (K / Nb)"
        = pct(disco, nb);
    tcap_synthpop => "TCAP_synthpop" ["CAP", "%", "synthetic", "", "K" / "iS"]
        "synthpop 1.9-3's TCAP: disclosive and correct over the original records whose q occurs in the synthetic data"
        = pct(disco, t.n_orig_in_syn as f64);
    tcap_taub => "TCAP_taub" ["CAP", "%", "synthetic", "allCAPs", "Tt" / "Sc"]
        "TCAP as Taub et al. (2018) define it: of the synthetic records whose q predicts one target level and occurs in the original, the mean share of original records in q with that level"
        = pct(t.taub_num, t.taub_den as f64);
    dcapi => "DCAPi" ["CAP", "%", "synthetic", "allCAPs", "C" / "iS"]
        "expected correct attributions over the original records whose q occurs in the synthetic data (C / iS); SDMetrics' CategoricalCAP reports 1 - score"
        = pct(t.dcap_num, kept(IS));
    nd => "Nd" ["count", "count", "original", "", "" / ""]
        "records of the original data"
        = nd;
    ns => "Ns" ["count", "count", "synthetic", "", "" / ""]
        "records of the synthesis"
        = ns;
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
    fn every_measure_is_declared_once_with_known_family_unit_and_components() {
        let decl = SynthesisMeasures::DECLARATIONS;
        let names: Vec<&str> = decl.iter().map(|d| d.name).collect();
        assert_eq!(names, SynthesisMeasures::NAMES);
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "a name declared twice");
        for d in decl {
            assert!(["identity", "attribute", "CAP", "count"].contains(&d.family), "{}", d.name);
            assert!(["%", "count"].contains(&d.unit), "{}", d.name);
            assert!(["original", "synthetic"].contains(&d.data), "{}", d.name);
            assert!(d.components.split(' ').all(|c| ["", "ident", "attrib", "allCAPs"].contains(&c)), "{}", d.name);
            // A percentage names what it divides, unless it is the baseline.
            assert_eq!(d.unit == "%" && d.name != "baseCAPd", !d.denominator.is_empty(), "{}", d.name);
            assert!(!d.definition.is_empty(), "{}", d.name);
        }
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
