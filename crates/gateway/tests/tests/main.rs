//! Integration tests of `gateway` (one binary, several modules): a simple
//! conservative-backfilling provider (`twin`) that counts every call, hand-
//! checked runs of each policy, and property tests on random grids.

mod extremes;
mod props;
mod scenarios;
mod twin;
