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

pub use adaptive::intervals::{AdaptiveInterval, adaptive_intervals};
pub use backfilling::{replay, replay_policy};
pub use pricing::setup::{PricingSetup, pricing_setup};
pub use provisioning::round::{ProvisioningRound, provisioning_round};
pub use provisioning::setup::{GridMonths, provisioning_scenario};

use crate::error::RunError;
use crate::kind::Kind;
use crate::registry::Registry;

/// One run's `[params]` of kind `K` (every key optional, the kind's
/// defaults), checked as a configuration's are ([`Registry::check_params`])
/// and read: for the functions that run a kind's own code for a front end
/// that builds a run itself ([`provisioning_round`], ...). The error names
/// the key at fault, `params.<key>`.
pub(crate) fn run_params<K: Kind>(params: toml::Table) -> Result<K::Params, RunError> {
    Registry::builtin()
        .check_params(K::NAME, params.clone())
        .map_err(|e| match e.key {
            Some(key) => RunError::field(
                format!("params.{key}"),
                format!("params.{key} {}", e.message),
            ),
            None => RunError::Kind { message: e.message },
        })?;
    toml::Value::Table(params)
        .try_into()
        .map_err(|e: toml::de::Error| RunError::Kind {
            message: e.message().to_string(),
        })
}

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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use profile::{Job, Time};

    use super::*;
    use crate::kind::PAPER_ONLY;
    use crate::workload::Workload;

    /// A kind's notes speak of the paper only after [`PAPER_ONLY`], which
    /// `summary.md` prints only in the paper's setting: a study of one's
    /// own is never shown a paper's numbers as if they were its own.
    #[test]
    fn the_kinds_notes_speak_of_the_paper_only_after_the_marker() {
        let jobs = (0..40)
            .map(|i| Job::new(i, Time(i as i64 * 3_600), 4, 600, 300))
            .collect();
        let workloads = [Arc::new(Workload {
            label: "w".into(),
            capacity: 64,
            jobs,
            start_unix: None,
        })];
        let notes = [
            adaptive::Adaptive::notes(&Default::default(), &workloads),
            pricing::Pricing::notes(&Default::default(), &workloads),
        ];
        for note in notes.iter().flatten() {
            let own = note
                .find(PAPER_ONLY)
                .map_or(note.as_str(), |at| &note[..at]);
            assert!(!own.to_lowercase().contains("paper"), "{note}");
            assert!(note.contains(PAPER_ONLY), "{note}");
        }
    }
}
