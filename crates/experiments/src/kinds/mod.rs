//! The registry of experiment kinds: one module per paper (plus the
//! `backfilling` baseline), each a thin adapter from the pipeline's
//! [`Kind`](crate::kind::Kind) to a domain crate.
//!
//! Adding a kind: write `kinds/<name>.rs` implementing `Kind`, declare the
//! module here and add `entry::<YourKind>()` to [`KINDS`]. The framework
//! modules reach the kinds only through this registry.

mod adaptive;
mod backfilling;
mod pricing;
mod provisioning;
mod utility;

use crate::kind::{KindEntry, entry};

/// Every kind, by name.
const KINDS: &[KindEntry] = &[
    entry::<adaptive::Adaptive>(),
    entry::<backfilling::Backfilling>(),
    entry::<pricing::Pricing>(),
    entry::<provisioning::Provisioning>(),
    entry::<utility::Utility>(),
];

/// The kind called `name`.
pub(crate) fn lookup(name: &str) -> Option<&'static KindEntry> {
    KINDS.iter().find(|k| k.name == name)
}

/// The names of every registered kind.
pub fn names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name).collect()
}
