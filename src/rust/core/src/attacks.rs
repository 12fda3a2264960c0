//! The attacks of definitions vignette 13 (anonymeter's singling out, linkability and
//! inference), exact over every record: distinct records and nearest sets with every
//! tie (`tie_sets`), inference (`inference`), linkability (`linkability`) and the
//! queries of singling out (`singling_out`).
pub mod inference;
pub mod linkability;
pub mod r_sampling;
pub mod singling_out;
pub mod tie_sets;
