//! Property tests over random requests and arrival orders: one `check_*`
//! helper per invariant, shared by several `proptest!` cases.

use adaptive_requests::{
    BudgetRule, Decision, Fallback, LinearFmol, Moldability, Placement, Policy, Preemption,
    PriceFunction, Req, Request, Rescheduling, Scheduler, SchedulerConfig, place, r_min_share,
    schedule, validate, within_budget,
};
use profile::{Profile, Time};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::twin::{self, Sub};

/// One random request: its shape, SLA and gap to the previous submission.
#[derive(Clone, Debug)]
pub(crate) struct Spec {
    pub(crate) gap: i64,
    pub(crate) r_max: u32,
    pub(crate) r_min_percent: u32,
    pub(crate) t_min: i64,
    pub(crate) factor: i64,
    pub(crate) extra: i64,
    pub(crate) high: bool,
    pub(crate) tight_budget: bool,
    pub(crate) sp: Option<Preemption>,
}

fn preemption() -> impl Strategy<Value = Option<Preemption>> {
    let sp = (
        prop_oneof![Just(None), (1u32..=10).prop_map(Some)],
        prop_oneof![Just(10u32), Just(20), Just(25), Just(30), Just(50)],
        any::<bool>(),
    )
        .prop_map(|(max_parts, split_percent, mold_each)| Preemption {
            max_parts,
            split_percent,
            mold_each,
        });
    prop_oneof![2 => Just(None), 1 => sp.prop_map(Some)]
}

pub(crate) fn spec(capacity: u32) -> impl Strategy<Value = Spec> {
    (
        (0i64..40, 1..=capacity, 50u32..=100, 1i64..=120),
        (
            1i64..=6,
            prop_oneof![Just(0i64), 0i64..300],
            any::<bool>(),
            any::<bool>(),
        ),
        preemption(),
    )
        .prop_map(
            |((gap, r_max, r_min_percent, t_min), (factor, extra, high, tight_budget), sp)| Spec {
                gap,
                r_max,
                r_min_percent,
                t_min,
                factor,
                extra,
                high,
                tight_budget,
                sp,
            },
        )
}

/// A machine size and requests for it, in a random arrival order.
pub(crate) fn workload(max_requests: usize) -> impl Strategy<Value = (u32, Vec<Spec>)> {
    (2u32..=12).prop_flat_map(move |cap| {
        (
            Just(cap),
            prop::collection::vec(spec(cap), 1..=max_requests).prop_shuffle(),
        )
    })
}

pub(crate) fn build(specs: &[Spec], preemptive: bool) -> Vec<Request> {
    let omega = PriceFunction::TABLE1;
    let mut submit = 0;
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            submit += s.gap;
            let profile = if s.high { 3.0 } else { 1.0 };
            let r_min = r_min_share(s.r_max, s.r_min_percent, 2);
            let f = LinearFmol::new(r_min, s.r_max, s.t_min).unwrap();
            let budget = if s.tight_budget {
                omega
                    .full_price(i64::from(s.r_max) * s.t_min, profile)
                    .unwrap()
            } else {
                1e12
            };
            let deadline = s.t_min * s.factor + s.extra;
            let sp = if preemptive { s.sp } else { None };
            let req = Req::linear(f, deadline, budget, sp)
                .unwrap()
                .with_price_profile(profile)
                .unwrap();
            Request {
                id: i as u64,
                submit: Time(submit),
                req,
            }
        })
        .collect()
}

fn configs(capacity: u32) -> Vec<SchedulerConfig> {
    let mut out = Vec::new();
    for policy in [Policy::Fifo, Policy::Mdf] {
        for budget in [BudgetRule::Limit, BudgetRule::Cap] {
            for fallback in [Fallback::Reject, Fallback::Append] {
                for mode in [Rescheduling::Incremental, Rescheduling::Full] {
                    if policy == Policy::Fifo && (fallback, mode) != Default::default() {
                        continue;
                    }
                    let omega = PriceFunction::TABLE1.with_incentive(0.25).unwrap();
                    out.push(
                        SchedulerConfig::new(capacity, policy)
                            .price(omega)
                            .budget(budget)
                            .fallback(fallback)
                            .rescheduling(mode),
                    );
                }
            }
        }
    }
    out
}

/// The subrequest rules, checked independently of `validate`: parts within
/// `R^min..=R^max`, in time order without overlap, at most `N`, split at
/// multiples of `I`, one `R` unless `M`, and together exactly the work.
fn check_subrequests<F: Moldability>(req: &Req<F>, p: &Placement) -> Result<(), TestCaseError> {
    let parts = p.parts();
    let sp = req.preemption();
    prop_assert!(parts.len() <= sp.map_or(1, |s| s.max_parts.unwrap_or(u32::MAX) as usize));
    let mut done = 0;
    let mut pieces = 0.0;
    for (k, q) in parts.iter().enumerate() {
        prop_assert!(
            (req.r_min()..=req.r_max()).contains(&q.procs),
            "R = {} outside",
            q.procs
        );
        if k > 0 {
            prop_assert!(q.start >= parts[k - 1].end(), "parts overlap: {parts:?}");
        }
        prop_assert_eq!(q.from, done);
        prop_assert!(q.to > q.from);
        if q.to < 100 {
            let i = sp.map_or(100, |s| s.split_percent);
            prop_assert_eq!(q.to % i, 0, "split off the I grid: {:?}", parts);
        }
        done = q.to;
        let t = req.time_for(q.procs).unwrap() as f64;
        let share = f64::from(q.to - q.from) / 100.0;
        prop_assert!(
            (q.duration as f64 - share * t).abs() < 1.0,
            "work not conserved: {q:?}"
        );
        pieces += q.duration as f64 / t;
    }
    prop_assert_eq!(done, 100);
    prop_assert!((pieces - 1.0).abs() <= parts.len() as f64 / req.t_min() as f64);
    if sp.is_some_and(|s| !s.mold_each) {
        prop_assert!(parts.iter().all(|q| q.procs == parts[0].procs));
    }
    Ok(())
}

/// A schedule passes `validate` (no over-commitment, deadlines, budgets,
/// well-formed subrequests) and the independent checks above.
fn check_valid(config: SchedulerConfig, requests: &[Request]) -> Result<(), TestCaseError> {
    let outcomes = schedule(config, requests).unwrap();
    if let Err(e) = validate(&config, requests, &outcomes) {
        return Err(TestCaseError::fail(format!("{config:?}: {e}")));
    }
    for (r, o) in requests.iter().zip(&outcomes) {
        if let Some(p) = &o.placement {
            check_subrequests(&r.req, p)?;
            prop_assert!(p.completion() <= r.submit + r.req.deadline());
            prop_assert!(
                within_budget(o.price, r.req.budget()),
                "price {} > budget {}",
                o.price,
                r.req.budget()
            );
        }
    }
    Ok(())
}

/// Submitting one by one: a request accepted once stays accepted, on time
/// and within budget, through every later arrival (MDF never loses one).
fn check_never_loses(config: SchedulerConfig, requests: &[Request]) -> Result<(), TestCaseError> {
    let mut s = Scheduler::new(config).unwrap();
    let mut accepted = Vec::new();
    for (n, r) in requests.iter().enumerate() {
        if let Decision::Accepted(_) = s.submit(r.id, r.submit, r.req.clone()).unwrap() {
            accepted.push(n);
        }
        let outcomes = s.outcomes();
        for &a in &accepted {
            prop_assert!(
                outcomes[a].placement.is_some(),
                "request {a} lost after arrival {n}"
            );
        }
        if let Err(e) = validate(&config, &requests[..=n], &outcomes) {
            return Err(TestCaseError::fail(format!("after arrival {n}: {e}")));
        }
    }
    Ok(())
}

fn as_triples(outcomes: &[adaptive_requests::RequestOutcome]) -> Vec<Option<(i64, u32, i64)>> {
    outcomes
        .iter()
        .map(|o| {
            o.placement.as_ref().map(|p| {
                let q = p.parts()[0];
                (q.start.0, q.procs, q.duration)
            })
        })
        .collect()
}

/// For requests that cannot be split, FIFO is Algorithm 1 on arrival and
/// MDF (either rescheduling mode) is the from-scratch twin.
fn check_against_twins(
    capacity: u32,
    requests: &[Request],
    rule: BudgetRule,
) -> Result<(), TestCaseError> {
    let omega = PriceFunction::TABLE1;
    let subs: Vec<Sub<'_, LinearFmol>> = requests
        .iter()
        .map(|r| Sub {
            submit: r.submit.0,
            req: &r.req,
        })
        .collect();
    let fifo = schedule(
        SchedulerConfig::new(capacity, Policy::Fifo).budget(rule),
        requests,
    )
    .unwrap();
    prop_assert_eq!(as_triples(&fifo), twin::fifo(capacity, &subs, &omega, rule));
    let expected = twin::mdf(capacity, &subs, &omega, rule);
    for mode in [Rescheduling::Incremental, Rescheduling::Full] {
        let config = SchedulerConfig::new(capacity, Policy::Mdf)
            .budget(rule)
            .rescheduling(mode);
        let mdf = schedule(config, requests).unwrap();
        prop_assert_eq!(as_triples(&mdf), expected.clone(), "{:?}", mode);
    }
    Ok(())
}

/// On any profile, the splitter finishes no later than the same request
/// unsplit, and places it whenever the unsplit request can be placed.
fn check_split_not_later(
    capacity: u32,
    background: &[Request],
    probe: &Spec,
) -> Result<(), TestCaseError> {
    let outcomes = schedule(SchedulerConfig::new(capacity, Policy::Fifo), background).unwrap();
    let mut profile = Profile::new(capacity, Time(0));
    for p in outcomes.iter().filter_map(|o| o.placement.as_ref()) {
        for q in p.parts() {
            profile.reserve(q.start, q.duration, q.procs).unwrap();
        }
    }
    let now = background.last().map_or(Time(0), |r| r.submit);
    let with = build(std::slice::from_ref(probe), true).remove(0).req;
    let without = build(std::slice::from_ref(probe), false).remove(0).req;
    let omega = PriceFunction::TABLE1;
    let split = place(&profile, now, now, &with, &omega, BudgetRule::Limit).unwrap();
    let whole = place(&profile, now, now, &without, &omega, BudgetRule::Limit).unwrap();
    if let Some(w) = &whole {
        let s = split.as_ref();
        prop_assert!(
            s.is_some_and(|s| s.completion() <= w.completion()),
            "split {s:?} vs whole {w:?}"
        );
    }
    if let Some(s) = &split {
        check_subrequests(&with, s)?;
        for q in s.parts() {
            prop_assert!(
                profile.min_free(q.start, q.end()) >= q.procs,
                "part {q:?} over-commits"
            );
        }
    }
    Ok(())
}

/// A user-supplied `f_mol`: Amdahl's law on powers of two only.
#[derive(Clone, Debug, PartialEq)]
struct Amdahl {
    work: i64,
    serial_percent: i64,
}

impl Moldability for Amdahl {
    fn time_for(&self, procs: u32) -> Option<i64> {
        let p = i64::from(procs);
        procs.is_power_of_two().then(|| {
            let serial = self.work * self.serial_percent;
            (serial * p + self.work * (100 - self.serial_percent) + 100 * p - 1) / (100 * p)
        })
    }
}

fn check_user_fmol(capacity: u32, specs: &[Spec], policy: Policy) -> Result<(), TestCaseError> {
    let omega = PriceFunction::TABLE1;
    let mut submit = 0;
    let requests: Vec<Request<Amdahl>> = specs
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            submit += s.gap;
            let f = Amdahl {
                work: s.t_min * 8,
                serial_percent: i64::from(s.r_min_percent - 50),
            };
            let r_max = s
                .r_max
                .next_power_of_two()
                .min(capacity.next_power_of_two());
            let t_min = f.time_for(r_max)?;
            let budget = omega.full_price(i64::from(r_max) * t_min * 2, 1.0).ok()?;
            let req = Req::new(1, r_max, f, s.t_min * 8 * s.factor + s.extra, budget, s.sp).ok()?;
            Some(Request {
                id: i as u64,
                submit: Time(submit),
                req,
            })
        })
        .collect();
    let config = SchedulerConfig::new(capacity, policy);
    let outcomes = schedule(config, &requests).unwrap();
    if let Err(e) = validate(&config, &requests, &outcomes) {
        return Err(TestCaseError::fail(e.to_string()));
    }
    for (r, o) in requests.iter().zip(&outcomes) {
        if let Some(p) = &o.placement {
            check_subrequests(&r.req, p)?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(256))]

    #[test]
    fn schedules_are_valid((cap, specs) in workload(30)) {
        let requests = build(&specs, true);
        for config in configs(cap) {
            check_valid(config, &requests)?;
        }
    }

    #[test]
    fn accepted_requests_are_never_lost((cap, specs) in workload(20)) {
        let requests = build(&specs, true);
        for policy in [Policy::Mdf, Policy::Fifo] {
            check_never_loses(SchedulerConfig::new(cap, policy), &requests)?;
        }
        let append = SchedulerConfig::new(cap, Policy::Mdf).fallback(Fallback::Append);
        check_never_loses(append, &requests)?;
    }

    #[test]
    fn fifo_and_mdf_match_the_twins((cap, specs) in workload(20), cap_budget in any::<bool>()) {
        let rule = if cap_budget { BudgetRule::Cap } else { BudgetRule::Limit };
        check_against_twins(cap, &build(&specs, false), rule)?;
    }

    #[test]
    fn splitting_never_finishes_later((cap, specs) in workload(20), probe in spec(2), wide in any::<bool>()) {
        let probe = Spec {
            r_max: if wide { cap } else { probe.r_max },
            sp: Some(probe.sp.unwrap_or(Preemption::TABLE1)),
            ..probe
        };
        check_split_not_later(cap, &build(&specs, false), &probe)?;
    }

    #[test]
    fn user_moldability_functions((cap, specs) in workload(10), mdf in any::<bool>()) {
        check_user_fmol(cap, &specs, if mdf { Policy::Mdf } else { Policy::Fifo })?;
    }
}
