//! R glue for synthrisk-core, one module per topic: `protocol` reads each request into
//! its typed struct (serde) and writes named results, `wire` the lookup by name with
//! which the handle's variables are read (extendr's `TryFromList`);
//! the topics (`column_facts`, `encoding`, `compute`, `two_way_tables`, `disclosure_parts`, `key_subsets`, `identification`, `records`, `dcr`, `attacks`)
//! borrow slices on the R thread, run the core on plain data and build R objects after
//! the join. Nothing here panics on bad input or throws: an error returns
//! through extendr's `result_condition` feature as an `extendr_error` condition, whose
//! `value` the R side raises (rust_result()).

mod attacks;
mod column_facts;
mod compute;
mod dcr;
mod disclosure_parts;
mod encoding;
mod identification;
mod key_subsets;
mod protocol;
mod r_api;
mod r_lists;
mod records;
mod search;
mod two_way_tables;
mod wire;

use extendr_api::prelude::*;
use protocol::{read_request, respond, Response};

/// Declares every entry point once: `rust_x => topic::x` makes the `.Call` entry
/// `rust_x(handle, request)` (registered as `wrap__rust_x`), which reads `request`, one
/// named list, into the typed request `topic::x` takes (its `mod wire` struct), and
/// calls it with `handle`: the data the request works on (the columns to encode, an
/// encoding, singling out's datasets; NULL when none). The R side of each is one
/// wrapper in R/rust-calls.R that names the request's fields.
macro_rules! entry_points {
    ($($name:ident => $($topic:ident)::+;)+) => {
        $(
            #[extendr]
            fn $name(handle: Robj, request: Robj) -> Response {
                respond(read_request(&request).and_then(|request| $($topic)::+(handle, request)))
            }
        )+

        extendr_module! {
            mod synthrisk;
            $(fn $name;)+
        }
    };
}

entry_points! {
    rust_column_facts => column_facts::column_facts;
    rust_encode_variables => encoding::encode;
    rust_merge_numeric_levels => encoding::merge;
    rust_level_counts => encoding::level_counts;
    rust_compute => compute::compute;
    rust_encode_compute => compute::encode_compute;
    rust_key_subsets => key_subsets::key_subsets;
    rust_measure_declarations => compute::measure_declarations;
    rust_identification => identification::identify;
    rust_record_keys => records::keys_of_records;
    rust_records => records::record_level;
    rust_dcr => dcr::dcr;
    rust_inference => attacks::inference;
    rust_linkability => attacks::linkability;
    rust_singling_out_data => attacks::singling_out_data;
    rust_singling_out_univariate => attacks::singling_out_univariate;
    rust_singling_out_generate => attacks::singling_out_generate;
    rust_singling_out_evaluate => attacks::singling_out_evaluate;
    rust_two_way_tables => two_way_tables::two_way_tables;
    rust_disclosure_parts => disclosure_parts::disclosure_parts;
}
