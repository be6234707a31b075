//! The pricing kind's [`Kind::canonical`](crate::Kind::canonical): the
//! settings a run of each policy never reads, reset to their defaults, so
//! that runs which are the same simulation share one identity.
//!
//! A run builds its jobs with `qos_jobs` (the QoS workload keys and
//! `base_price`, never the policy's settings) and hands `run_config` to
//! `pricing::run_policy`, which reads, by policy:
//!
//! - a backfilling baseline (`Policy::Backfill`): `run_baseline`, which
//!   passes `drop` and `base_price` to `backfill` and nothing else, so
//!   `alpha`, `beta`, `gamma`, `delta`, `rating`, `spare`, `late` and
//!   `committed` are unread;
//! - Libra: `RunConfig::cluster` (`rating`, `base_price`, `spare`, `late`,
//!   `committed`) and `RunConfig::price`'s `LibraStatic` (`gamma`, `delta`);
//!   `alpha`, `beta` and `drop` are unread;
//! - Libra+$: the same cluster and `LibraDollar` (`alpha`, and `beta`
//!   unless the policy fixes its own); `gamma`, `delta` and `drop` are
//!   unread.
//!
//! A registered policy is left as it is.

use ::pricing::Policy;

use super::Params;
use crate::registry::PolicyName;

/// Resets what a run of `params.policy` does not read to `Params::default()`.
pub(super) fn reset_unread(params: &mut Params) {
    let PolicyName::BuiltIn(series) = &params.policy else {
        return;
    };
    let d = Params::default();
    match series.policy() {
        Policy::Backfill(_) => {
            (params.alpha, params.beta) = (d.alpha, d.beta);
            (params.gamma, params.delta) = (d.gamma, d.delta);
            params.rating = d.rating;
            (params.spare, params.late) = (d.spare, d.late);
            params.committed = d.committed;
        }
        Policy::Libra => {
            (params.alpha, params.beta) = (d.alpha, d.beta);
            params.drop = d.drop;
        }
        Policy::LibraDollar { beta } => {
            (params.gamma, params.delta) = (d.gamma, d.delta);
            params.drop = d.drop;
            if beta.is_some() {
                params.beta = d.beta;
            }
        }
        // A policy this file does not know: everything may be read.
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use ::pricing::{Committed, DropRule, Late, Spare};

    use super::*;
    use crate::kind::{
        CanonicalError, Input, Reset, WrongCanonical, check_canonical, identity, lublin,
        same_identity, series_params,
    };
    use crate::kinds::pricing::Pricing;
    use crate::registry::Policies;

    fn with(name: &str, change: impl FnOnce(&mut Params)) -> Params {
        series_params::<Pricing>(name, change)
    }

    fn same(name: &str, change: impl FnOnce(&mut Params)) -> bool {
        same_identity::<Pricing>(&with(name, |_| {}), change)
    }

    #[test]
    fn a_baseline_reads_only_its_drop_rule_base_price_and_jobs() {
        for name in ["fcfs-bf", "sjf-bf", "edf-bf"] {
            assert!(same(name, |p| p.beta = 0.7), "{name}");
            assert!(same(name, |p| p.alpha = 2.0), "{name}");
            assert!(same(name, |p| (p.gamma, p.delta) = (3.0, 4.0)), "{name}");
            assert!(same(name, |p| p.rating = 100), "{name}");
            assert!(same(name, |p| p.spare = Spare::Equal), "{name}");
            assert!(same(name, |p| p.late = Late::Zero), "{name}");
            assert!(same(name, |p| p.committed = Committed::Window), "{name}");
            assert!(!same(name, |p| p.drop = DropRule::Lapsed), "{name}");
            assert!(!same(name, |p| p.base_price = 2.0), "{name}");
            assert!(!same(name, |p| p.high_urgency = 40.0), "{name}");
            assert!(!same(name, |p| p.arrival_delay = 0.25), "{name}");
        }
        // Two baselines stay two runs.
        assert_ne!(
            identity::<Pricing>(&with("fcfs-bf", |_| {})),
            identity::<Pricing>(&with("sjf-bf", |_| {}))
        );
    }

    #[test]
    fn libra_reads_its_cluster_and_static_price() {
        assert!(same("libra", |p| p.beta = 0.7));
        assert!(same("libra", |p| p.alpha = 2.0));
        assert!(same("libra", |p| p.drop = DropRule::Lapsed));
        assert!(!same("libra", |p| p.gamma = 2.0));
        assert!(!same("libra", |p| p.delta = 2.0));
        assert!(!same("libra", |p| p.rating = 100));
        assert!(!same("libra", |p| p.spare = Spare::Equal));
        assert!(!same("libra", |p| p.committed = Committed::Window));
        assert!(!same("libra", |p| p.inaccuracy = 10.0));
    }

    #[test]
    fn libra_dollar_reads_its_cluster_and_alpha_and_beta() {
        assert!(same("libra+$", |p| (p.gamma, p.delta) = (3.0, 4.0)));
        assert!(same("libra+$", |p| p.drop = DropRule::Lapsed));
        assert!(!same("libra+$", |p| p.beta = 0.7));
        assert!(!same("libra+$", |p| p.alpha = 2.0));
        assert!(!same("libra+$", |p| p.late = Late::Zero));
        // `libra+$-b0.5` is `libra+$` with beta = 0.5: its beta is read.
        assert!(!same("libra+$-b0.5", |p| p.beta = 0.7));
        // A policy fixing its own beta (refused by `check`, but canonical
        // all the same) does not read the run's.
        let fixed = |beta| {
            let mut p = Params {
                policy: PolicyName::BuiltIn("libra+$-b0.5".parse().unwrap()),
                ..Params::default()
            };
            p.beta = beta;
            identity::<Pricing>(&p)
        };
        assert_eq!(fixed(0.1), fixed(0.9));
    }

    #[test]
    fn a_registered_policy_keeps_every_setting() {
        let registered = |beta| {
            let mut p = Params {
                policy: PolicyName::Registered("mine".into()),
                ..Params::default()
            };
            p.beta = beta;
            identity::<Pricing>(&p)
        };
        assert_ne!(registered(0.1), registered(0.9));
    }

    /// Every setting `canonical` resets for some policy, changed from its
    /// default.
    fn change_all(p: &mut Params) {
        (p.alpha, p.beta) = (2.0, 0.7);
        (p.gamma, p.delta) = (3.0, 4.0);
        p.rating = 100;
        (p.spare, p.late) = (Spare::Equal, Late::Zero);
        p.committed = Committed::Window;
        p.drop = DropRule::Lapsed;
    }

    /// Every built-in policy, with every setting some policy does not read
    /// changed at once, runs as its canonical form does, sample for sample,
    /// on a small trace (what the identities above promise, checked by
    /// running).
    #[test]
    fn what_canonical_resets_changes_no_run() {
        let ws = [lublin(64, 1000, 5)];
        let policies = Policies::default();
        let input = Input::new(&ws, 9, &policies);
        for name in ["fcfs-bf", "sjf-bf", "edf-bf", "libra", "libra+$"] {
            check_canonical::<Pricing>(&with(name, change_all), &input)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    /// A change of the parameters.
    type Change = fn(&mut Params);

    /// A canonical that resets every setting but the policy.
    struct ToDefaults;

    impl Reset<Params> for ToDefaults {
        fn reset(p: &mut Params) {
            *p = Params {
                policy: p.policy.clone(),
                ..Params::default()
            };
        }
    }

    /// The input above tells the settings apart where a policy reads them:
    /// a canonical resetting them fails the check. (`late` and `rating`
    /// change nothing on it, so a wrong reset of them would pass unseen.)
    #[test]
    fn the_check_catches_a_reset_of_what_a_policy_reads() {
        let ws = [lublin(64, 1000, 5)];
        let policies = Policies::default();
        let input = Input::new(&ws, 9, &policies);
        let cases: [(&str, Change); 6] = [
            ("fcfs-bf", |p| p.drop = DropRule::Lapsed),
            ("libra", |p| (p.gamma, p.delta) = (0.0, 0.0)),
            ("libra", |p| p.spare = Spare::Equal),
            ("libra", |p| p.committed = Committed::Window),
            ("libra+$", |p| p.alpha = 2.0),
            ("libra+$", |p| p.beta = 0.7),
        ];
        for (name, change) in cases {
            let e =
                check_canonical::<WrongCanonical<Pricing, ToDefaults>>(&with(name, change), &input)
                    .expect_err(name);
            assert!(matches!(e, CanonicalError::Differs { .. }), "{name}: {e}");
        }
    }
}
