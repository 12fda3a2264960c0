//! The one encoding: every variable of the original and the syntheses coded on the
//! union of its levels (`encode`), stored in the narrowest width (`codes`), numeric
//! values kept beside the codes; a numeric column of whole numbers read four or eight
//! values at a time where the CPU allows (`whole_numbers`).
pub mod codes;
pub mod encode;
pub mod level_overlap;
pub mod whole_numbers;
