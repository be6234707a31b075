//! Integration tests of `gateway` (one binary, several modules): a simple
//! conservative-backfilling provider (`twin`) that counts every call, hand-
//! checked runs of each policy, property tests on random grids, and the
//! checks on what providers report.

/// The three reservation calls of a `Provider` that takes no reservation
/// (`request_reservation` refuses with `$reason`, no hold is known): the
/// test providers that only take submissions share them.
macro_rules! no_reservations {
    ($reason:expr) => {
        fn request_reservation(
            &mut self,
            _: profile::Time,
            job: &profile::Job,
            _: profile::Time,
        ) -> Result<gateway::HoldId, gateway::Refusal> {
            Err(gateway::Refusal::Rejected {
                job: job.id,
                reason: $reason.into(),
            })
        }
        fn commit(
            &mut self,
            _: profile::Time,
            hold: gateway::HoldId,
        ) -> Result<(), gateway::Refusal> {
            Err(gateway::Refusal::UnknownHold { hold })
        }
        fn abort(
            &mut self,
            _: profile::Time,
            hold: gateway::HoldId,
        ) -> Result<(), gateway::Refusal> {
            Err(gateway::Refusal::UnknownHold { hold })
        }
    };
}
pub(crate) use no_reservations;

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
