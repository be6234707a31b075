//! Integration tests of `partitions-forecast` (one binary, several modules):
//! hand-checked scenarios of partitions, reservations and Algorithm 1, and
//! property tests of the cluster's invariants on random operation sequences.

mod extremes;
mod forecast_policy;
mod hostile;
mod messages;
mod props;
mod scenarios;
mod serde_checks;
mod suite;
