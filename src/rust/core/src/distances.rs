//! Nearest records under the Gower distance (definitions vignette 11): the distance
//! (`distance`), the search tables built from the one encoding (`distance_tables`) and
//! the exact search (`nearest`).
pub mod distance;
pub mod distance_tables;
pub mod nearest;
