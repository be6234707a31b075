//! Integration tests of `adaptive-requests`: one binary, one module per area.

mod extremes;
mod finite;
mod hostile;
mod incentive;
mod mdf_full;
mod messages;
mod props;
mod schedules;
#[cfg(feature = "serde")]
mod serde_names;
mod stats;
mod suite;
mod table1;
mod twin;
mod variant;
