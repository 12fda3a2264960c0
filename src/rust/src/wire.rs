//! Reading the handle's named lists into typed structs by extendr's `TryFromList`
//! derive: the variables R sends to be encoded, whose columns the encoding borrows
//! (`encoding.rs`'s `VariableWire`). Requests are read by serde instead
//! (`protocol::read_request`). The derive reads each field as
//! `value.dollar("field")`; in those modules that is `FieldByName::dollar`, a lookup by
//! name, not extendr's `Operators::dollar`, which evaluates R's `$` once per field (on
//! SD2011 that took about 0.3 ms of a 10 ms call). **Invariant:** a `mod wire` imports
//! `FieldByName` and never extendr's prelude (two `dollar` methods in scope would not
//! compile, and the prelude's alone would be slow).

use extendr_api::{Attributes, List, Robj};

/// A field of a named list by its exact name (R writes every name in full), NULL when
/// the list has no such field, as `$` gives.
pub(crate) trait FieldByName {
    fn dollar(&self, name: &str) -> extendr_api::Result<Robj>;
}

impl FieldByName for Robj {
    fn dollar(&self, name: &str) -> extendr_api::Result<Robj> {
        let list = List::try_from(self)?;
        match self.names().and_then(|mut names| names.position(|n| n == name)) {
            Some(i) => list.elt(i),
            None => Ok(Robj::from(())),
        }
    }
}
