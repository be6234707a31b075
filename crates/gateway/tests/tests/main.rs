//! Integration tests of `gateway` (one binary, several modules): a simple
//! conservative-backfilling provider (`twin`) that counts every call, hand-
//! checked runs of each policy, property tests on random grids, and the
//! checks on what providers report.

mod answers;
mod extremes;
mod messages;
mod props;
mod quiet;
mod reports;
mod scenarios;
mod serde_checks;
mod suite;
mod twin;
