//! The NaN class (issue #19): every public function of `pricing` that
//! returns a float returns a finite one, or refuses its input with a typed
//! error naming the field.
//!
//! One property test per function, named `finite_<function>`, over hostile
//! inputs: NaN, the infinities, `f64::MAX` and `MIN`, `MIN_POSITIVE`,
//! subnormals, `-0.0`, the edges of `i64` and `u32`. `xtask`'s
//! `tests/float_api.rs` lists the functions with the test that covers each
//! and fails when a new float-returning `pub fn` has no test here.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use pricing::{
    ClusterConfig, Demand, Flat, JobContext, Late, LibraDollar, LibraStatic, Metrics, NodeLoad,
    Policy, PriceFunction, PricingError, Quote, RunConfig, RunStats, Series, Spare, Urgency,
    UrgencyModel, admit, libra_dollar_rate, libra_static_cost, partition, rates, run_policy,
    simulate, utilisation_rate,
};

use super::common;
use super::extremes::{count, qos_job, rating, seconds, submission};

/// Hostile floats: every special value and edge, any bit pattern, and
/// ordinary values (`profile::testing::hostile_f64`).
fn hostile() -> impl Strategy<Value = f64> {
    profile::testing::hostile_f64(0.0..10.0)
}

/// Hostile unsigned counts.
fn amount() -> impl Strategy<Value = usize> {
    prop_oneof![
        1 => prop::sample::select(vec![0, 1, u32::MAX as usize, usize::MAX - 1, usize::MAX]),
        1 => any::<usize>(),
        2 => 0usize..100,
    ]
}

/// A user's pricing function that returns whatever it is given.
struct Returns(f64);

impl PriceFunction for Returns {
    fn cost(&self, _job: &JobContext<'_>, _quote: &Quote) -> Result<f64, PricingError> {
        Ok(self.0)
    }
}

/// The pricing functions of the crate with hostile factors, and a user's
/// function returning a hostile float.
fn functions(a: f64, b: f64, returned: f64) -> Vec<Box<dyn PriceFunction>> {
    vec![
        Box::new(Flat),
        Box::new(LibraStatic { gamma: a, delta: b }),
        Box::new(LibraDollar { alpha: a, beta: b }),
        Box::new(Returns(returned)),
    ]
}

/// The error names the field or amount it refuses.
fn names_a_field(e: &PricingError) -> bool {
    match e {
        PricingError::InvalidFactor { name, .. }
        | PricingError::InvalidAmount { name, .. }
        | PricingError::OutOfRange { name, .. }
        | PricingError::OutOfDomain { name, .. } => !name.is_empty(),
        PricingError::NotFinite {
            quantity, field, ..
        } => !quantity.is_empty() && !field.is_empty(),
        // Names RESMax, the committed and the requested units.
        PricingError::NoFreeCapacity { .. } => true,
        // Names the node a user's pricing function quoted NaN or infinity.
        PricingError::NonFiniteCost { cost, .. } => !cost.is_finite(),
        PricingError::NegativeCost { cost, .. } => *cost < 0.0,
        _ => false,
    }
}

/// A finite value, or a typed error naming the field.
fn check(r: Result<f64, PricingError>) -> Result<(), TestCaseError> {
    match r {
        Ok(v) => prop_assert!(v.is_finite(), "returned {v}"),
        Err(e) => {
            prop_assert!(names_a_field(&e), "{e:?}");
            prop_assert!(!e.to_string().is_empty());
        }
    }
    Ok(())
}

fn quote() -> impl Strategy<Value = Quote> {
    (seconds(), seconds(), hostile(), seconds(), seconds()).prop_map(
        |(runtime_estimate, deadline, base_price, res_max, committed)| Quote {
            runtime_estimate,
            deadline,
            base_price,
            res_max,
            committed,
        },
    )
}

fn demand() -> impl Strategy<Value = Demand> {
    (seconds(), seconds(), seconds()).prop_map(|(res_max, committed, requested)| Demand {
        res_max,
        committed,
        requested,
    })
}

fn metrics() -> impl Strategy<Value = Metrics> {
    (amount(), amount(), amount(), hostile(), hostile()).prop_map(
        |(submitted, accepted, qos_met, earned, budgets)| Metrics {
            submitted,
            accepted,
            qos_met,
            earned,
            budgets,
        },
    )
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(256))]

    #[test]
    fn finite_libra_static_cost(
        gamma in hostile(),
        delta in hostile(),
        re in seconds(),
        deadline in seconds(),
    ) {
        check(libra_static_cost(gamma, delta, re, deadline))?;
    }

    #[test]
    fn finite_utilisation_rate(base in hostile(), demand in demand()) {
        check(utilisation_rate(base, demand))?;
    }

    #[test]
    fn finite_libra_dollar_rate(
        alpha in hostile(),
        beta in hostile(),
        base in hostile(),
        demand in demand(),
    ) {
        check(libra_dollar_rate(alpha, beta, base, demand))?;
    }

    /// `PriceFunction::cost` of every pricing function, and the cost of
    /// every allocation `admit` makes with them (a user's function that
    /// returns NaN or an infinity is refused).
    #[test]
    fn finite_price_function_cost(
        quotes in prop::collection::vec((quote(), hostile()), 1..4),
        a in hostile(),
        b in hostile(),
        returned in hostile(),
        job in submission(),
    ) {
        let loads: Vec<NodeLoad> = quotes
            .iter()
            .enumerate()
            .map(|(node, &(quote, share))| NodeLoad {
                share,
                quote,
                ..common::idle_node(node, 1, 1)
            })
            .collect();
        let context = JobContext::new(job.id, job.arrival, &job.spec);
        for f in functions(a, b, returned) {
            for (q, _) in &quotes {
                if let Ok(c) = f.cost(&context, q) {
                    // Only `Returns` may return a non-finite cost; `admit` refuses it.
                    prop_assert!(c.is_finite() || c.to_bits() == returned.to_bits(), "{q:?}");
                }
            }
            let bad_share = quotes.iter().any(|&(_, s)| !(s >= 0.0 && s.is_finite()));
            let decided = admit(&context, &loads, f.as_ref());
            if bad_share && job.spec.check().is_ok() {
                prop_assert!(
                    matches!(decided, Err(PricingError::InvalidFactor { name: "share", .. })),
                    "{decided:?}"
                );
            }
            match decided {
                Ok(d) => {
                    if let Some(a) = d.allocation() {
                        prop_assert!(a.cost.is_finite(), "{a:?}");
                    }
                }
                Err(e) => prop_assert!(names_a_field(&e), "{e:?}"),
            }
        }
        for f in functions(a, b, 1.0).into_iter().take(3) {
            for (q, _) in &quotes {
                check(f.cost(&context, q))?;
            }
        }
    }

    #[test]
    fn finite_partition(
        estimate in hostile(),
        cpu_done in hostile(),
        deadline in seconds(),
        wall in seconds(),
        zero in any::<bool>(),
    ) {
        let late = if zero { Late::Zero } else { Late::Full };
        let p = partition(estimate, cpu_done, deadline, wall, late);
        prop_assert!((0.0..=1.0).contains(&p), "{p}");
    }

    #[test]
    fn finite_rates(
        partitions in prop::collection::vec(hostile(), 0..6),
        spare in prop::sample::select(vec![Spare::Proportional, Spare::Equal, Spare::Idle]),
    ) {
        match rates(&partitions, spare) {
            Ok(r) => {
                prop_assert_eq!(r.len(), partitions.len());
                prop_assert!(r.iter().all(|x| x.is_finite()), "{r:?}");
            }
            Err(e) => prop_assert!(names_a_field(&e), "{e:?}"),
        }
    }

    #[test]
    fn finite_means(fields in prop::collection::vec(hostile(), 6), high in any::<bool>()) {
        let m = UrgencyModel {
            high_fraction: fields[0],
            deadline_low_mean: fields[1],
            deadline_ratio: fields[2],
            budget_low_mean: fields[3],
            budget_ratio: fields[4],
            spread: fields[5],
        };
        let u = if high { Urgency::High } else { Urgency::Low };
        match m.means(u) {
            Ok((d, b)) => prop_assert!(d.is_finite() && b.is_finite(), "{d} {b}"),
            Err(e) => prop_assert!(names_a_field(&e), "{e:?}"),
        }
    }

    /// `UrgencyModel::draw` on hostile fields and counts: finite factors,
    /// or an error naming a field (a factor once overflowed to infinity with
    /// a huge spread, or a class mean `means` refuses; `usize::MAX` draws
    /// once panicked).
    #[test]
    fn finite_draw(
        fields in prop::collection::vec(hostile(), 6),
        n in prop_oneof![3 => 0usize..40, 1 => Just(usize::MAX), 1 => Just(usize::MAX / 8)],
        seed in any::<u64>(),
    ) {
        let m = UrgencyModel {
            high_fraction: fields[0].min(1.0),
            deadline_low_mean: fields[1],
            deadline_ratio: fields[2],
            budget_low_mean: fields[3],
            budget_ratio: fields[4],
            spread: fields[5],
        };
        match m.draw(n, seed) {
            Ok(draws) => {
                prop_assert_eq!(draws.len(), n);
                for d in draws {
                    prop_assert!(d.deadline_factor.is_finite() && d.budget_factor.is_finite(), "{d:?}");
                }
            }
            Err(e) => prop_assert!(names_a_field(&e), "{e:?}"),
        }
    }

    #[test]
    fn finite_qos_satisfaction(m in metrics()) {
        prop_assert!(m.qos_satisfaction().is_finite());
    }

    /// On any metrics, and on those of every run `run_policy` returns
    /// (whose summed budgets may overflow: the run is then refused).
    #[test]
    fn finite_profitability(
        m in metrics(),
        jobs in prop::collection::vec(qos_job(), 0..4),
        capacity in count(),
        base_price in hostile(),
    ) {
        check(m.profitability())?;
        let mut jobs = jobs;
        jobs.sort_by_key(|j| j.submit);
        let config = RunConfig { base_price, ..RunConfig::default() };
        for name in ["fcfs-bf", "libra", "libra+$"] {
            let policy = name.parse::<Series>().map_err(|e| TestCaseError::fail(e.to_string()))?;
            if let Ok(s) = run_policy(policy.policy(), &config, capacity.min(64), &jobs) {
                prop_assert!(s.metrics.profitability().is_ok_and(f64::is_finite), "{s:?}");
            }
        }
    }

    #[test]
    fn finite_percent(m in metrics(), late in amount(), count in amount()) {
        let s = RunStats { metrics: m, late, ..RunStats::default() };
        prop_assert!(s.percent(count).is_finite());
    }

    #[test]
    fn finite_beta(beta in hostile(), text in "libra\\+\\$-b.{0,8}") {
        match (Policy::LibraDollar { beta: Some(beta) }).beta() {
            Ok(b) => prop_assert!(b.is_some_and(f64::is_finite)),
            Err(e) => prop_assert!(names_a_field(&e), "{e:?}"),
        }
        for s in [text, format!("libra+$-b{beta}")] {
            if let Ok(series) = s.parse::<Series>() {
                let b = series.policy().beta();
                prop_assert!(b.as_ref().is_ok_and(|b| b.is_none_or(f64::is_finite)), "{s}: {b:?}");
            }
        }
    }

    /// `JobOutcome::cost` of every job the cluster simulates, with every
    /// pricing function at hostile factors.
    #[test]
    fn finite_outcome_cost(
        jobs in prop::collection::vec(submission(), 0..6),
        nodes in 1usize..4,
        reference in rating(),
        a in hostile(),
        b in hostile(),
        returned in hostile(),
    ) {
        let mut jobs = jobs;
        jobs.sort_by_key(|s| s.arrival);
        let config = ClusterConfig::homogeneous(nodes, reference, 1.0);
        for f in functions(a, b, returned) {
            if let Ok(out) = simulate(&config, &jobs, f.as_ref()) {
                for o in &out {
                    prop_assert!(o.cost().is_none_or(f64::is_finite), "{o:?}");
                }
            }
        }
    }
}

/// The shrunk case of the finding: `f64::MAX` as a base price, a
/// utilisation ratio just above 1, `α = β = 0`: Libra+$ quoted NaN.
#[test]
fn finite_regression_max_base_price() {
    let quote = Quote {
        runtime_estimate: 1,
        deadline: i64::MIN,
        base_price: f64::MAX,
        res_max: 1 << 40,
        committed: 1,
    };
    let err = LibraDollar {
        alpha: 0.0,
        beta: 0.0,
    }
    .cost(
        &JobContext::new(0, profile::Time(0), &pricing::JobSpec::new(1, 1, 1, 1.0)),
        &quote,
    )
    .unwrap_err();
    assert_eq!(
        err,
        PricingError::NotFinite {
            quantity: "PUtil",
            field: "PBase",
            value: f64::MAX
        }
    );
    assert_eq!(
        err.to_string(),
        "PUtil would not be a finite number with PBase = 1.7976931348623157e308; give a smaller PBase"
    );
}

/// A user's pricing function that quotes NaN: `admit` names the node
/// instead of rejecting the job for its budget.
#[test]
fn finite_regression_user_function_quotes_nan() {
    let node = common::idle_node(3, 10, 100);
    let job = pricing::JobSpec::new(10, 1, 100, 1e6);
    let err = admit(
        &JobContext::new(1, profile::Time(0), &job),
        &[node],
        &Returns(f64::NAN),
    )
    .unwrap_err();
    assert!(
        matches!(err, PricingError::NonFiniteCost { node: 3, cost } if cost.is_nan()),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "the pricing function (PriceFunction::cost) quoted node 3 a cost of NaN, not a finite \
         number; fix the pricing function"
    );
}
