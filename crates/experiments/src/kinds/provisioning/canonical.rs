//! The provisioning kind's [`Kind::canonical`](crate::Kind::canonical): the
//! settings a run of its `<provider>+<gateway>` policy never reads, reset to
//! their defaults, so that runs which are the same simulation share one
//! identity (the base run of a sweep over `interval_min`, say, is one run
//! per repetition, not one per interval).
//!
//! Where a run reads them (`setup::config` builds `intergrid::Config`,
//! which `intergrid::simulate` hands on):
//!
//! - The forecast settings (`ForecastConfig`: `forecast_window`,
//!   `interval_min`, `reallocation_checks`, `training_from_days`,
//!   `share_from`, `forecast_load`) go to `Cluster::under`, whose
//!   `Partitioning::config` keeps them for ArEbMf only: every other
//!   provider builds a `ClusterConfig` with `forecast: None`, so the
//!   cluster never sees them.
//! - `interval_min` is also `Config::interval`, read by
//!   `GatewayKind::policy` for `earliest-partial` only (the publication
//!   timer); least-load and earliest-ask make no use of it.
//! - Under least-load the gateway never asks for, books or is published
//!   slots and plans no start (`LeastLoad::choose` submits at once with
//!   `planned: None`): `GatewayConfig::horizon` is read only when slots are
//!   asked for or published, `track_allocations` only when a placement is
//!   booked in a slot view, and `tolerance` only when a planned start is
//!   checked (`ViolationLog::check_start`), so `horizon_s`,
//!   `track_allocations` and `tolerance_s` are unread.
//! - `stringency` enters only `Scenario::deadlines`, which with
//!   `deadline_share = 0` draws no deadline (and checks a stringency that
//!   `check` has already accepted).
//!
//! `config` computes `training_from_days * 86400` for every run; a value
//! for which that overflows is left as it is.

use intergrid::GatewayKind;
use partitions_forecast::ProviderPolicy;

use super::{DAY, Params};

/// Resets what a run of `params.policy` does not read to `Params::default()`.
pub(super) fn reset_unread(params: &mut Params) {
    let d = Params::default();
    let forecast = params.policy.provider == ProviderPolicy::ArEbMf;
    let gateway = params.policy.gateway;
    if !forecast {
        params.forecast_window = d.forecast_window;
        params.reallocation_checks = d.reallocation_checks;
        params.share_from = d.share_from;
        params.forecast_load = d.forecast_load;
        if params.training_from_days.checked_mul(DAY).is_some() {
            params.training_from_days = d.training_from_days;
        }
        if gateway != GatewayKind::EarliestPartial {
            params.interval_min = d.interval_min;
        }
    }
    if gateway == GatewayKind::LeastLoad {
        params.horizon_s = d.horizon_s;
        params.track_allocations = d.track_allocations;
        params.tolerance_s = d.tolerance_s;
    }
    if params.deadline_share == 0.0 {
        params.stringency = d.stringency;
    }
}

#[cfg(test)]
mod tests {
    use partitions_forecast::{LoadMeasure, ShareFrom};

    use super::*;
    use crate::kind::{
        CanonicalError, Input, Reset, WrongCanonical, check_canonical, identity, lublin,
        same_identity,
    };
    use crate::kinds::provisioning::Provisioning;
    use crate::registry::Policies;

    /// The default parameters under series `name`, with `change` applied.
    fn with(name: &str, change: impl FnOnce(&mut Params)) -> Params {
        let mut params = Params {
            policy: name.parse().unwrap(),
            ..Params::default()
        };
        change(&mut params);
        params
    }

    fn same(name: &str, change: impl FnOnce(&mut Params)) -> bool {
        same_identity::<Provisioning>(&with(name, |_| {}), change)
    }

    #[test]
    fn the_interval_is_read_by_the_forecast_and_earliest_partial_only() {
        for name in ["areb+least-load", "arcb+earliest-ask", "arcbm+least-load"] {
            assert!(same(name, |p| p.interval_min = 15.0), "{name}");
        }
        for name in [
            "arcb+earliest-partial",
            "arebmf+least-load",
            "arebmf+earliest-ask",
        ] {
            assert!(!same(name, |p| p.interval_min = 15.0), "{name}");
        }
    }

    #[test]
    fn the_forecast_settings_are_read_by_arebmf_only() {
        let changes: [fn(&mut Params); 5] = [
            |p| p.forecast_window = 10,
            |p| p.reallocation_checks = 7,
            |p| p.training_from_days = 3,
            |p| p.share_from = ShareFrom::Actual,
            |p| p.forecast_load = LoadMeasure::Demand,
        ];
        for change in changes {
            assert!(same("arcb+earliest-partial", change));
            assert!(same("arebm+least-load", change));
            assert!(!same("arebmf+earliest-partial", change));
        }
        // A training start whose seconds overflow stays as written.
        assert!(!same("areb+least-load", |p| p.training_from_days = i64::MAX));
    }

    #[test]
    fn least_load_reads_no_slot_setting() {
        let changes: [fn(&mut Params); 3] = [
            |p| p.horizon_s = Some(86_400),
            |p| p.track_allocations = false,
            |p| p.tolerance_s = 60,
        ];
        for change in changes {
            assert!(same("areb+least-load", change));
            assert!(same("arebmf+least-load", change));
            assert!(!same("arcb+earliest-ask", change));
            assert!(!same("arcb+earliest-partial", change));
        }
    }

    #[test]
    fn what_every_run_reads_stays() {
        let changes: [fn(&mut Params); 5] = [
            |p| p.report_every_s = 300,
            |p| p.bsld_bound = 60,
            |p| p.warmup_days = 7,
            |p| p.clusters = vec![64, 64],
            |p| p.deadline_share = 0.2,
        ];
        for change in changes {
            for name in [
                "areb+least-load",
                "arcb+earliest-ask",
                "arebmf+earliest-partial",
            ] {
                assert!(!same(name, change), "{name}");
            }
        }
        assert_ne!(
            identity::<Provisioning>(&with("areb+least-load", |_| {})),
            identity::<Provisioning>(&with("arcb+least-load", |_| {}))
        );
    }

    #[test]
    fn the_stringency_is_read_with_deadlines_only() {
        assert!(same("arcb+earliest-ask", |p| p.stringency = 2.0));
        let share = |stringency| {
            identity::<Provisioning>(&with("arcb+earliest-ask", |p| {
                (p.deadline_share, p.stringency) = (0.2, stringency);
            }))
        };
        assert_ne!(share(2.0), share(5.0));
    }

    /// Series `name` on two clusters of 32 processors over one month of a
    /// small generated grid stream (trace time 0 is 1970-01-01 UTC), with
    /// `change` applied.
    fn small(name: &str, change: impl FnOnce(&mut Params)) -> Params {
        with(name, |p| {
            p.clusters = vec![32, 32];
            p.grid_months = [1, 1];
            (p.trace_start_unix, p.trace_year) = (Some(0), Some(1970));
            (p.trace_utc_offset_s, p.warmup_days, p.training_from_days) = (0, 0, 0);
            change(p);
        })
    }

    /// Every setting `canonical` resets for some policy, changed from its
    /// default.
    fn change_all(p: &mut Params) {
        (
            p.forecast_window,
            p.reallocation_checks,
            p.training_from_days,
        ) = (10, 7, 3);
        (p.share_from, p.forecast_load) = (ShareFrom::Actual, LoadMeasure::Demand);
        p.interval_min = 15.0;
        (p.horizon_s, p.track_allocations, p.tolerance_s) = (Some(86_400), false, 60);
        p.stringency = 2.0;
    }

    /// Every kind of provider and gateway, with every setting some policy
    /// does not read changed at once, runs as its canonical form does, and
    /// so does the base run it is measured against (what the identities
    /// above promise, checked by running).
    #[test]
    fn what_canonical_resets_changes_no_run() {
        let ws = [lublin(32, 300, 5)];
        let policies = Policies::default();
        let input = Input::new(&ws, 3, &policies);
        for name in [
            "areb+least-load",
            "arcbm+earliest-ask",
            "arcb+earliest-partial",
            "arebmf+least-load",
        ] {
            check_canonical::<Provisioning>(&small(name, change_all), &input)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    /// A change of the parameters.
    type Change = fn(&mut Params);

    /// A canonical that resets every setting some policy does not read,
    /// whatever the policy.
    struct ResetAll;

    impl Reset<Params> for ResetAll {
        fn reset(p: &mut Params) {
            let d = Params::default();
            (p.forecast_window, p.reallocation_checks) = (d.forecast_window, d.reallocation_checks);
            (p.share_from, p.forecast_load) = (d.share_from, d.forecast_load);
            p.training_from_days = 0;
            p.interval_min = d.interval_min;
            (p.horizon_s, p.track_allocations) = (d.horizon_s, d.track_allocations);
            (p.tolerance_s, p.stringency) = (d.tolerance_s, d.stringency);
        }
    }

    /// The input above tells the slot settings, the interval and the
    /// stringency apart where a policy reads them: a canonical resetting
    /// them fails the check. (ArEbMf's forecast settings change nothing on
    /// it, nor on five times as many grid jobs.)
    #[test]
    fn the_check_catches_a_reset_of_what_a_policy_reads() {
        let ws = [lublin(32, 300, 5)];
        let policies = Policies::default();
        let input = Input::new(&ws, 3, &policies);
        let cases: [(&str, Change); 3] = [
            ("arcb+earliest-ask", |p| {
                (p.horizon_s, p.track_allocations, p.tolerance_s) = (Some(3600), false, 0);
            }),
            ("arcb+earliest-partial", |p| p.interval_min = 15.0),
            ("arcb+earliest-ask", |p| {
                (p.deadline_share, p.stringency) = (0.5, 1.2);
            }),
        ];
        for (name, change) in cases {
            let e = check_canonical::<WrongCanonical<Provisioning, ResetAll>>(
                &small(name, change),
                &input,
            )
            .expect_err(name);
            assert!(matches!(e, CanonicalError::Differs { .. }), "{name}: {e}");
        }
    }
}
