//! Feature encoders of other projects' environments, on the table.

pub mod douzero;
