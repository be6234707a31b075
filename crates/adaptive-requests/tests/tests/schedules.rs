//! Small schedules computed by hand: three to five requests each.

use adaptive_requests::{
    BudgetRule, Fallback, LinearFmol, Part, Placement, Policy, Preemption, PriceFunction, Req,
    Request, RequestOutcome, SchedError, Scheduler, SchedulerConfig, Violation, schedule, validate,
};
use profile::Time;

/// A rigid request: `procs` processors for `time` seconds.
fn rigid(procs: u32, time: i64, deadline: i64) -> Req {
    Req::linear(
        LinearFmol::new(procs, procs, time).unwrap(),
        deadline,
        1e9,
        None,
    )
    .unwrap()
}

fn requests(list: Vec<(i64, Req)>) -> Vec<Request> {
    list.into_iter()
        .enumerate()
        .map(|(i, (submit, req))| Request {
            id: i as u64 + 1,
            submit: Time(submit),
            req,
        })
        .collect()
}

/// `(start, procs, end)` of each part, or `None` if rejected.
type Shape = Option<Vec<(i64, u32, i64)>>;

fn shape(o: &RequestOutcome) -> Shape {
    o.placement.as_ref().map(|p| {
        p.parts()
            .iter()
            .map(|q| (q.start.0, q.procs, q.end().0))
            .collect()
    })
}

/// Runs `list` under `config`, checks the schedule, and compares each
/// request's parts with `expected`.
fn check(
    config: SchedulerConfig,
    list: Vec<(i64, Req)>,
    expected: &[Shape],
) -> Vec<RequestOutcome> {
    let reqs = requests(list);
    let outcomes = schedule(config, &reqs).unwrap();
    validate(&config, &reqs, &outcomes).unwrap();
    let got: Vec<Shape> = outcomes.iter().map(shape).collect();
    assert_eq!(got, expected, "{:?}", config.policy);
    outcomes
}

fn one(start: i64, procs: u32, end: i64) -> Shape {
    Some(vec![(start, procs, end)])
}

/// FIFO with conservative backfilling: a narrow request backfills, a later
/// one fits in the gap only if its deadline allows.
#[test]
fn fifo_backfills_and_keeps_deadlines() {
    let list = || {
        vec![
            (0, rigid(6, 100, 10_000)),
            (0, rigid(6, 50, 10_000)),
            (10, rigid(4, 80, 10_000)),
            // Earliest slot [90, 290) ends after its deadline at 270: rejected.
            (20, rigid(4, 200, 250)),
            // The same request with 30 s more slack takes it.
            (20, rigid(4, 200, 300)),
        ]
    };
    let expected = [
        one(0, 6, 100),
        one(100, 6, 150),
        one(10, 4, 90),
        None,
        one(90, 4, 290),
    ];
    let out = check(SchedulerConfig::new(10, Policy::Fifo), list(), &expected);
    // Finishing T^min after submission pays the full work: 600 processor-seconds at $1/h.
    assert!((out[0].price - 600.0 / 3600.0).abs() < 1e-12);
    // Request 5 finishes 70 s after T^min with 100 s of slack: 70% of the
    // 60% discount, ⌊0.7 · 800 · 0.6⌋ = 336 processor-seconds off.
    let paid = (800.0 - 336.0) / 3600.0;
    assert!((out[4].price - paid).abs() < 1e-12);
    // MDF orders by slack but nothing is waiting long enough to move: same schedule.
    check(SchedulerConfig::new(10, Policy::Mdf), list(), &expected);
}

/// Algorithm 1 molds a request onto fewer processors when that completes it
/// earlier.
#[test]
fn algorithm_1_molds() {
    let moldable = Req::linear(LinearFmol::table1(20, 1000).unwrap(), 5000, 1e9, None).unwrap();
    let list = vec![(0, rigid(4, 2000, 10_000)), (0, moldable)];
    // R = 20 could start only at 2000; R = 16 (T = 1250) starts now.
    check(
        SchedulerConfig::new(20, Policy::Fifo),
        list,
        &[one(0, 4, 2000), one(0, 16, 1250)],
    );
}

/// The budget binds: on 19 processors at once the early completion would
/// cost more than `R^max · T^min`; 3 s later the discount for lateness makes
/// it affordable, and that still beats 18 processors at once.
#[test]
fn budget_limits_molding() {
    let f = LinearFmol::table1(20, 1000).unwrap();
    assert_eq!((f.r_min(), f.t_max()), (16, 1250));
    let budget = PriceFunction::TABLE1.full_price(20 * 1000, 1.0).unwrap();
    let req = Req::linear(f, 5000, budget, None).unwrap();
    let list = || vec![(0, rigid(1, 100_000, 200_000)), (0, req.clone())];
    // 19 × 1063 = 20 197 processor-seconds. Ending at 1065 (65 s after T^min
    // of 4000 s of slack) takes ⌊196.9⌋ off: 20 001 > 20 000. Ending at 1066
    // takes ⌊199.95⌋ = 199 off: 19 998, within budget.
    let out = check(
        SchedulerConfig::new(20, Policy::Fifo),
        list(),
        &[one(0, 1, 100_000), one(3, 19, 1066)],
    );
    assert!((out[1].price - 19_998.0 / 3600.0).abs() < 1e-12);
    // Capping the price instead lets it start at once, at the budget.
    let cap = SchedulerConfig::new(20, Policy::Fifo).budget(BudgetRule::Cap);
    let out = check(cap, list(), &[one(0, 1, 100_000), one(0, 19, 1063)]);
    assert_eq!(out[1].price, budget);
    // A budget below the full price delays even a rigid request on an idle
    // machine: 1000 processor-seconds, 15% under budget, need 250 s of the
    // 1000 s slack (0.25 · 0.6 = 15% off).
    let cheap = PriceFunction::TABLE1.full_price(1000, 1.0).unwrap() * 0.85;
    let req = Req::linear(LinearFmol::new(1, 1, 1000).unwrap(), 2000, cheap, None).unwrap();
    check(
        SchedulerConfig::new(4, Policy::Mdf),
        vec![(0, req.clone())],
        &[one(250, 1, 1250)],
    );
    let cap = SchedulerConfig::new(4, Policy::Fifo).budget(BudgetRule::Cap);
    let out = check(cap, vec![(0, req)], &[one(0, 1, 1000)]);
    assert_eq!(out[0].price, cheap);
}

/// MDF puts the request closest to missing its deadline first; FIFO cannot
/// move the waiting request and rejects the urgent one.
#[test]
fn mdf_reorders_by_slack() {
    let list = || {
        vec![
            (0, rigid(10, 100, 10_000)),
            (1, rigid(10, 100, 10_000)),
            (2, rigid(10, 100, 250)),
        ]
    };
    check(
        SchedulerConfig::new(10, Policy::Fifo),
        list(),
        &[one(0, 10, 100), one(100, 10, 200), None],
    );
    check(
        SchedulerConfig::new(10, Policy::Mdf),
        list(),
        &[one(0, 10, 100), one(200, 10, 300), one(100, 10, 200)],
    );
}

/// A scenario after the paper's Figure 1: request C (4 processors, 150 s)
/// arrives while A runs on half the machine and B waits for all of it.
/// Rigid, C waits for B; split every 10%, it fills the fragment before B;
/// under MDF with a tight deadline, B is moved behind it.
#[test]
fn figure_1_scenario() {
    let c = |deadline: i64, sp: Option<Preemption>| {
        Req::linear(LinearFmol::new(4, 4, 150).unwrap(), deadline, 1e9, sp).unwrap()
    };
    let list = |c: Req| {
        vec![
            (0, rigid(4, 100, 10_000)),
            (0, rigid(8, 100, 10_000)),
            (0, c),
        ]
    };
    let (a, b) = (one(0, 4, 100), one(100, 8, 200));
    let fifo = SchedulerConfig::new(8, Policy::Fifo);
    check(
        fifo,
        list(c(10_000, None)),
        &[a.clone(), b.clone(), one(200, 4, 350)],
    );
    // 15 s pieces: six fit before B (0–90), the other four after it (200–260).
    let out = check(
        fifo,
        list(c(10_000, Some(Preemption::TABLE1))),
        &[a.clone(), b.clone(), Some(vec![(0, 4, 90), (200, 4, 260)])],
    );
    let parts = out[2].placement.as_ref().unwrap().parts();
    assert_eq!((parts[0].from, parts[0].to, parts[1].to), (0, 60, 100));
    // Due at 200: too late for FIFO either way.
    check(
        fifo,
        list(c(200, Some(Preemption::TABLE1))),
        &[a.clone(), b.clone(), None],
    );
    // MDF: C's slack (200 − 150) is less than B's, so C goes first and B waits.
    let mdf = SchedulerConfig::new(8, Policy::Mdf);
    check(
        mdf,
        list(c(200, Some(Preemption::TABLE1))),
        &[a, one(150, 8, 250), one(0, 4, 150)],
    );
}

/// When placing everyone again in slack order fails, MDF rejects the
/// newcomer (the default) or appends it to the kept schedule.
#[test]
fn mdf_fallback() {
    let list = || {
        vec![
            (0, rigid(10, 100, 10_000)),
            (1, rigid(10, 100, 319)),
            // Slack 200 < B's 220, but first in line it pushes B past 320.
            (2, rigid(10, 150, 348)),
        ]
    };
    let mdf = SchedulerConfig::new(10, Policy::Mdf);
    let (a, b) = (one(0, 10, 100), one(100, 10, 200));
    check(mdf, list(), &[a.clone(), b.clone(), None]);
    check(
        mdf.fallback(Fallback::Append),
        list(),
        &[a, b, one(200, 10, 350)],
    );
}

/// Started requests stay where they are; submissions must come in order.
#[test]
fn started_requests_stay_put() {
    let mut s = Scheduler::new(SchedulerConfig::new(10, Policy::Mdf)).unwrap();
    s.submit(1, Time(0), rigid(10, 100, 10_000)).unwrap();
    s.submit(2, Time(0), rigid(10, 100, 10_000)).unwrap();
    // At 150 request 2 has started (at 100); an urgent request waits for it.
    s.submit(3, Time(150), rigid(10, 10, 70)).unwrap();
    let out = s.outcomes();
    assert_eq!(shape(&out[1]), one(100, 10, 200));
    assert_eq!(shape(&out[2]), one(200, 10, 210));
    assert_eq!(s.waiting(), 1);
    let err = s.submit(4, Time(149), rigid(1, 1, 10)).unwrap_err();
    assert_eq!(
        err,
        SchedError::OutOfOrder {
            id: 4,
            submit: Time(149),
            now: Time(150)
        }
    );
    assert!(Scheduler::<LinearFmol>::new(SchedulerConfig::new(0, Policy::Fifo)).is_err());
}

/// `validate` notices each kind of broken schedule.
#[test]
fn verify_catches_violations() {
    let reqs = requests(vec![
        (0, rigid(6, 100, 1000)),
        (
            0,
            Req::linear(
                LinearFmol::table1(20, 100).unwrap(),
                1000,
                1e9,
                Some(Preemption::TABLE1),
            )
            .unwrap(),
        ),
    ]);
    let config = SchedulerConfig::new(30, Policy::Fifo);
    let good = schedule(config, &reqs).unwrap();
    validate(&config, &reqs, &good).unwrap();
    let with = |index: usize, parts: Vec<Part>| {
        let mut o = good.clone();
        o[index].placement = Placement::new(parts);
        o
    };
    let part = |start: i64, procs: u32, duration: i64, from: u32, to: u32| Part {
        start: Time(start),
        procs,
        duration,
        from,
        to,
    };
    let fails =
        |o: Vec<RequestOutcome>, cfg: &SchedulerConfig| validate(cfg, &reqs, &o).unwrap_err();
    let small = SchedulerConfig::new(20, Policy::Fifo);
    assert!(matches!(
        fails(good.clone(), &small),
        Violation::Capacity { .. }
    ));
    assert!(matches!(
        fails(with(0, vec![part(950, 6, 100, 0, 100)]), &config),
        Violation::Late { id: 1, .. } | Violation::Price { id: 1, .. }
    ));
    assert!(matches!(
        fails(with(0, vec![part(0, 5, 100, 0, 100)]), &config),
        Violation::Shape { id: 1, .. }
    ));
    assert!(matches!(
        fails(with(0, vec![part(0, 6, 90, 0, 100)]), &config),
        Violation::Duration { id: 1, .. }
    ));
    assert!(matches!(
        fails(
            with(0, vec![part(0, 6, 50, 0, 50), part(50, 6, 50, 50, 100)]),
            &config
        ),
        Violation::TooManyParts { id: 1, .. }
    ));
    assert!(matches!(
        fails(
            with(1, vec![part(0, 20, 50, 0, 50), part(40, 20, 50, 50, 100)]),
            &config
        ),
        Violation::Overlap { id: 2, .. }
    ));
    assert!(matches!(
        fails(
            with(1, vec![part(0, 20, 55, 0, 55), part(60, 20, 45, 55, 100)]),
            &config
        ),
        Violation::Coverage { id: 2, .. }
    ));
    let mut priced = good.clone();
    priced[0].price *= 2.0;
    assert!(matches!(
        fails(priced, &config),
        Violation::Price { id: 1, .. }
    ));
    let e = fails(good[..1].to_vec(), &config);
    assert!(e.to_string().contains("one outcome per request"), "{e}");
}
