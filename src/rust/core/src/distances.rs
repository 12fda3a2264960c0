//! Nearest records under the Gower distance (definitions vignette 11): the distance
//! (`distance`), the search tables built from the one encoding (`distance_tables`), the
//! exact search (`nearest`) and the order in which a call runs its searches, each
//! indexed dataset built once (`search_order`).
pub mod distance;
pub mod distance_tables;
pub mod nearest;
pub mod search_order;
