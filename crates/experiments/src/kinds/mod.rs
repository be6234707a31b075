//! The papers' kinds (plus the `backfilling` baseline), each a thin adapter
//! from the pipeline's [`Kind`](crate::Kind) to a domain crate, and
//! [`Registry::builtin`], which registers them.
//!
//! Adding a kind of this repository: write `kinds/<name>.rs` implementing
//! `Kind`, declare the module here and add `.with::<YourKind>()` to
//! [`Registry::builtin`]. A kind outside this repository does the same on
//! its own registry.

mod adaptive;
mod backfilling;
mod pricing;
mod provisioning;
mod registered;
mod utility;

pub use backfilling::{replay, replay_policy};
pub use provisioning::round::{ProvisioningRound, provisioning_round};
pub use provisioning::setup::{GridMonths, provisioning_scenario};

use crate::registry::Registry;

impl Registry {
    /// The papers' kinds (`adaptive`, `backfilling`, `pricing`,
    /// `provisioning`, `utility`) and the built-in policy names.
    pub fn builtin() -> Registry {
        Registry::new()
            .with::<adaptive::Adaptive>()
            .with::<backfilling::Backfilling>()
            .with::<pricing::Pricing>()
            .with::<provisioning::Provisioning>()
            .with::<utility::Utility>()
            .reserve(|name| name.parse::<profile::Policy>().is_ok())
            .reserve(|name| name.parse::<::pricing::Series>().is_ok())
    }
}
