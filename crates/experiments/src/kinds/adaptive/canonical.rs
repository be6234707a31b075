//! The adaptive kind's [`Kind::canonical`](crate::Kind::canonical): the
//! settings a run of its variant never reads, reset to their defaults, so
//! that runs which are the same simulation share one identity.
//!
//! Where a run reads them:
//!
//! - `incentive` is `PriceFunction`'s share off the price of requests with
//!   `Sp`; `Table1::requests` gives `Sp` only to a preemptive variant's
//!   requests, so without `preemptive` no request is charged it.
//! - `table1.preemptive_share`, `preemptive_min_run`, `sp_parts`,
//!   `sp_percent` and `sp_mold_each` decide `Sp` in `Table1::requests`,
//!   which keeps it only for a preemptive variant (the draw against
//!   `preemptive_share` is made from its own stream either way, and its
//!   result is not used; `check` has already accepted the share that
//!   `requests` checks).
//! - `table1.r_min_percent` and `rigid_up_to` set `R^min` in
//!   `Table1::requests` for a moldable variant only.
//! - `mdf_fallback` and `mdf_rescheduling` are read by
//!   `Scheduler::submit` and `reschedule` only for an order that
//!   reschedules (MDF); FIFO places each request once.

use adaptive_requests::Policy;

use super::Params;

/// Resets what a run of `params`' variant does not read to
/// `Params::default()`.
pub(super) fn reset_unread(params: &mut Params) {
    let d = Params::default();
    if !params.preemptive {
        params.incentive = d.incentive;
        let (t, dt) = (&mut params.table1, &d.table1);
        t.preemptive_share = dt.preemptive_share;
        t.preemptive_min_run = dt.preemptive_min_run;
        (t.sp_parts, t.sp_percent, t.sp_mold_each) = (dt.sp_parts, dt.sp_percent, dt.sp_mold_each);
    }
    if !params.moldable {
        let (t, dt) = (&mut params.table1, &d.table1);
        (t.r_min_percent, t.rigid_up_to) = (dt.r_min_percent, dt.rigid_up_to);
    }
    if params.policy == Policy::Fifo {
        params.mdf_fallback = d.mdf_fallback;
        params.mdf_rescheduling = d.mdf_rescheduling;
    }
}

#[cfg(test)]
mod tests {
    use adaptive_requests::{BudgetRule, Fallback, Rescheduling};

    use super::*;
    use crate::kind::{
        CanonicalError, Input, Reset, WrongCanonical, check_canonical, identity, lublin,
        same_identity, series_params,
    };
    use crate::kinds::adaptive::Adaptive;
    use crate::registry::Policies;

    fn with(name: &str, change: impl FnOnce(&mut Params)) -> Params {
        series_params::<Adaptive>(name, change)
    }

    fn same(name: &str, change: impl FnOnce(&mut Params)) -> bool {
        same_identity::<Adaptive>(&with(name, |_| {}), change)
    }

    /// The preemption settings, each changed from its default.
    const PREEMPTION: [fn(&mut Params); 6] = [
        |p| p.incentive = 30.0,
        |p| p.table1.preemptive_share = 0.2,
        |p| p.table1.preemptive_min_run = 60,
        |p| p.table1.sp_parts = 4,
        |p| p.table1.sp_percent = 25,
        |p| p.table1.sp_mold_each = false,
    ];

    /// The molding settings, each changed from its default.
    const MOLDING: [fn(&mut Params); 2] = [
        |p| p.table1.r_min_percent = 50,
        |p| p.table1.rigid_up_to = 1,
    ];

    /// The MDF settings, each changed from its default.
    const MDF: [fn(&mut Params); 2] = [
        |p| p.mdf_fallback = Fallback::Append,
        |p| p.mdf_rescheduling = Rescheduling::Incremental,
    ];

    #[test]
    fn preemption_settings_are_read_by_preemptive_variants_only() {
        for change in PREEMPTION {
            for name in ["fifo-rigid", "mdf-moldable"] {
                assert!(same(name, change), "{name}");
            }
            for name in ["mdf-preemptive", "fifo-preemptive-moldable"] {
                assert!(!same(name, change), "{name}");
            }
        }
    }

    #[test]
    fn molding_settings_are_read_by_moldable_variants_only() {
        for change in MOLDING {
            assert!(same("mdf-preemptive", change));
            assert!(same("fifo-rigid", change));
            assert!(!same("mdf-moldable", change));
            assert!(!same("fifo-preemptive-moldable", change));
        }
    }

    #[test]
    fn mdf_settings_are_read_by_mdf_only() {
        for change in MDF {
            assert!(same("fifo-preemptive-moldable", change));
            assert!(!same("mdf-rigid", change));
        }
    }

    #[test]
    fn what_every_run_reads_stays() {
        let changes: [fn(&mut Params); 5] = [
            |p| p.load_increase = 50.0,
            |p| p.interval_days = 30,
            |p| p.budget = BudgetRule::Cap,
            |p| p.table1.high_share = 0.5,
            |p| p.table1.rate = 2.0,
        ];
        for change in changes {
            for name in ["fifo-rigid", "mdf-preemptive-moldable"] {
                assert!(!same(name, change), "{name}");
            }
        }
        assert_ne!(
            identity::<Adaptive>(&with("fifo-rigid", |_| {})),
            identity::<Adaptive>(&with("mdf-rigid", |_| {}))
        );
    }

    /// Every variant, with every setting `canonical` may reset changed at
    /// once, runs as its canonical form does, sample for sample, on a small
    /// trace (what the identities above promise, checked by running).
    #[test]
    fn what_canonical_resets_changes_no_run() {
        let ws = [lublin(32, 300, 5)];
        let policies = Policies::default();
        let input = Input::new(&ws, 9, &policies);
        for policy in ["fifo", "mdf"] {
            for flexibility in ["rigid", "preemptive", "moldable", "preemptive-moldable"] {
                let name = format!("{policy}-{flexibility}");
                let p = with(&name, |p| {
                    PREEMPTION
                        .iter()
                        .chain(&MOLDING)
                        .chain(&MDF)
                        .for_each(|c| c(p));
                });
                check_canonical::<Adaptive>(&p, &input).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
        }
    }

    /// A canonical that resets every setting but the variant's.
    struct ToDefaults;

    impl Reset<Params> for ToDefaults {
        fn reset(p: &mut Params) {
            *p = Params {
                policy: p.policy,
                preemptive: p.preemptive,
                moldable: p.moldable,
                ..Params::default()
            };
        }
    }

    /// The input above tells the preemption and the molding settings apart
    /// where a variant reads them: a canonical resetting them fails the
    /// check. (The MDF settings change nothing on it, nor on a trace ten
    /// times its size at twice the load: `Rescheduling::Incremental` is
    /// `Full` for requests Algorithm 1 places, and `Fallback` acts only when
    /// a new request leaves an accepted one without a placement.)
    #[test]
    fn the_check_catches_a_reset_of_what_a_variant_reads() {
        let ws = [lublin(32, 300, 5)];
        let policies = Policies::default();
        let input = Input::new(&ws, 9, &policies);
        for (name, changes) in [
            ("fifo-preemptive", &PREEMPTION[..]),
            ("fifo-moldable", &MOLDING[..]),
        ] {
            let p = with(name, |p| changes.iter().for_each(|c| c(p)));
            let e = check_canonical::<WrongCanonical<Adaptive, ToDefaults>>(&p, &input)
                .expect_err(name);
            assert!(matches!(e, CanonicalError::Differs { .. }), "{name}: {e}");
            assert!(e.to_string().starts_with("kind 'adaptive': "), "{e}");
        }
    }
}
