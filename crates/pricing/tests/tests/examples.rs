//! Hand-checked cases: the paper's worked example, and small clusters whose
//! schedules and prices were computed by hand.

use pricing::{
    Cluster, ClusterConfig, Committed, Decision, Flat, JobContext, JobSpec, Late, LibraDollar,
    LibraStatic, NodeLoad, PriceFunction, Quote, Rejection, Spare, utilisation_rate,
};
use profile::Time;

const LIBRA: LibraStatic = LibraStatic {
    gamma: 1.0,
    delta: 1.0,
};
const DOLLAR: LibraDollar = LibraDollar {
    alpha: 1.0,
    beta: 0.1,
};

/// Checks that `f` prices `quote` at `expected` (to 1e-9).
fn check_cost(f: &dyn PriceFunction, quote: &Quote, expected: f64) {
    let c = cost(f, quote);
    assert!((c - expected).abs() < 1e-9, "{quote:?}: {c} != {expected}");
}

/// `f`'s cost for `quote`; the built-in prices read the quote alone, so
/// any job will do.
fn cost(f: &dyn PriceFunction, quote: &Quote) -> f64 {
    let spec = JobSpec::new(quote.runtime_estimate.max(1), 1, quote.deadline.max(1), 1e9);
    f.cost(&JobContext::new(0, Time(0), &spec), quote).unwrap()
}

fn quote(runtime_estimate: i64, deadline: i64, committed: i64) -> Quote {
    Quote {
        runtime_estimate,
        deadline,
        base_price: 1.0,
        res_max: deadline,
        committed,
    }
}

/// §V-B: 10 units needed, 100 free units per hour of deadline, 90
/// committed, $1 per unit: PUtil = $2 per unit for 2 hours, $1.25 for 5.
#[test]
fn paper_worked_example() {
    for (hours, putil) in [(2, 2.0), (5, 1.25)] {
        let q = quote(10, hours * 100, 90);
        assert_eq!(utilisation_rate(1.0, q.demand()), Ok(putil));
        // α = 0, β = 1 isolates PUtil in the cost RE · P.
        check_cost(
            &LibraDollar {
                alpha: 0.0,
                beta: 1.0,
            },
            &q,
            10.0 * putil,
        );
        check_cost(&DOLLAR, &q, 10.0 * (1.0 + 0.1 * putil));
    }
}

#[test]
fn every_function_on_one_quote() {
    let q = quote(3600, 7200, 1800);
    check_cost(&Flat, &q, 3600.0);
    check_cost(&LIBRA, &q, 3600.5);
    // RESFree = 7200 − 1800 − 3600 = 1800: P = 1 + 0.1 · 4.
    check_cost(&DOLLAR, &q, 3600.0 * 1.4);
}

fn node_loads(cluster: &mut Cluster, at: i64, job: &JobSpec) -> Vec<NodeLoad> {
    cluster.snapshot(Time(at), job).unwrap()
}

/// The worked example in processor time: one node runs a job of 1 h due in
/// 4 h (partition 1/4). A new half-hour job pays less for a 5-hour deadline
/// than for a 2-hour one, and more the more the node has committed.
#[test]
fn processor_time_price_on_a_cluster() {
    let half_hour = |hours: i64| JobSpec::new(1800, 1, hours * 3600, 1e9);
    for (committed, two_h, five_h) in [
        // Eq. 6 as printed: the first job's whole estimate, 3600 s, in both
        // windows (as the paper's 90 units "during both deadlines").
        (Committed::Estimate, 3600, 3600),
        // Its partition over each window: 1/4 · 7200, and all of it in 5 h.
        (Committed::Window, 1800, 3600),
        (Committed::Remaining, 3600, 3600),
    ] {
        let mut config = ClusterConfig::homogeneous(1, 168, 1.0);
        config.committed = committed;
        let mut c = Cluster::new(config).unwrap();
        c.submit(Time(0), 1, &JobSpec::new(3600, 1, 14_400, 1e9), 3600, &Flat)
            .unwrap();
        let two = node_loads(&mut c, 0, &half_hour(2));
        let five = node_loads(&mut c, 0, &half_hour(5));
        assert_eq!(
            (two[0].share, two[0].quote.committed),
            (0.25, two_h),
            "{committed:?}"
        );
        assert_eq!(five[0].quote.committed, five_h, "{committed:?}");
        let putil =
            |res_max: i64, committed: i64| res_max as f64 / (res_max - committed - 1800) as f64;
        check_cost(
            &DOLLAR,
            &two[0].quote,
            1800.0 * (1.0 + 0.1 * putil(7200, two_h)),
        );
        check_cost(
            &DOLLAR,
            &five[0].quote,
            1800.0 * (1.0 + 0.1 * putil(18_000, five_h)),
        );
        assert!(cost(&DOLLAR, &five[0].quote) < cost(&DOLLAR, &two[0].quote));
        // Libra charges the same whatever the load, a little less for more time.
        check_cost(&LIBRA, &two[0].quote, 1800.25);
        check_cost(&LIBRA, &five[0].quote, 1800.1);
        // A second committed job raises the Libra+$ price of the same request.
        c.submit(Time(0), 2, &JobSpec::new(900, 1, 7200, 1e9), 900, &Flat)
            .unwrap();
        let busier = node_loads(&mut c, 0, &half_hour(2));
        assert_eq!(busier[0].quote.committed, two_h + 900);
        assert!(cost(&DOLLAR, &busier[0].quote) > cost(&DOLLAR, &two[0].quote));
    }
    // With the estimate reading the 2-hour quote is the paper's $2 shape:
    // PUtil = 7200 / (7200 − 3600 − 1800) = 4, and 18 000 / 12 600 for 5 hours.
}

/// A budget that covers Libra's cost but not Libra+$'s.
#[test]
fn libra_accepts_what_libra_dollar_prices_out() {
    let job = JobSpec::new(3600, 1, 7200, 3700.0);
    for (price, accepted) in [(&LIBRA as &dyn PriceFunction, true), (&DOLLAR, false)] {
        let mut c = Cluster::new(ClusterConfig::homogeneous(1, 168, 1.0)).unwrap();
        let d = c.submit(Time(0), 1, &job, 3600, price).unwrap();
        match d {
            Decision::Accept(a) => {
                assert!(accepted);
                assert_eq!(a.cost, 3600.5);
            }
            // Idle node: P = 1 + 0.1 · 7200/3600 = 1.2, cost 4320 > 3700.
            Decision::Reject(r) => {
                assert!(!accepted);
                assert_eq!(
                    r,
                    Rejection::CannotMeetBudget {
                        affordable: 0,
                        processors: 1
                    }
                );
            }
        }
    }
}

/// A job under-estimated by half: it uses up its 50 s estimate at 50 s
/// (partition 0 from then) and is still running at its deadline, 60 s. With
/// a late job's partition at 1 the node is full and turns the next job away;
/// at 0 the next job is admitted and runs beside it, and the late job
/// finishes later.
#[test]
fn a_late_job_blocks_or_yields() {
    let first = JobSpec::new(50, 1, 60, 1e9);
    let second = JobSpec::new(50, 1, 100, 1e9);
    for (late, spare, second_accepted, finishes) in [
        (
            Late::Full,
            Spare::Proportional,
            false,
            vec![Some(Time(100)), None],
        ),
        // At 60 the late job has partition 0 and the new one 0.5: rates
        // 0.25 and 0.75. The new job ends at 60 + ⌈66.7⌉ = 127; the late one
        // has 60 + 16.75 s done and ends ⌈23.25⌉ s later, at 151.
        (
            Late::Zero,
            Spare::Equal,
            true,
            vec![Some(Time(151)), Some(Time(127))],
        ),
        // Proportional shares give the late job nothing until the new one
        // ends at 110; then it has the node and its last 40 s.
        (
            Late::Zero,
            Spare::Proportional,
            true,
            vec![Some(Time(150)), Some(Time(110))],
        ),
    ] {
        let mut config = ClusterConfig::homogeneous(1, 168, 1.0);
        config.control.late = late;
        config.control.spare = spare;
        let mut c = Cluster::new(config).unwrap();
        let d = c.submit(Time(0), 1, &first, 100, &Flat).unwrap();
        assert!(d.allocation().is_some());
        let d = c.submit(Time(60), 2, &second, 50, &Flat).unwrap();
        assert_eq!(d.allocation().is_some(), second_accepted, "{late:?}: {d:?}");
        c.run_to_completion().unwrap();
        let out = c.outcomes();
        assert_eq!(
            out.iter().map(|o| o.finish).collect::<Vec<_>>(),
            finishes,
            "{late:?}"
        );
        assert!(!out[0].met_qos());
        assert_eq!(out[1].met_qos(), second_accepted);
    }
}

/// A job that needs its whole window leaves no free capacity (RESFree = 0),
/// so Libra+$ cannot price it anywhere: it cannot meet its deadline. Libra's
/// static cost needs no free capacity, and the job runs exactly in time.
#[test]
fn a_job_needing_its_whole_window_has_no_libra_dollar_price() {
    let job = JobSpec::new(50, 1, 50, 1e9);
    let mut c = Cluster::new(ClusterConfig::homogeneous(1, 168, 1.0)).unwrap();
    let d = c.submit(Time(0), 1, &job, 50, &DOLLAR).unwrap();
    assert_eq!(
        d,
        Decision::Reject(Rejection::CannotMeetDeadline {
            in_time: 0,
            processors: 1
        })
    );
    let d = c.submit(Time(0), 2, &job, 50, &LIBRA).unwrap();
    assert!(d.allocation().is_some());
    c.run_to_completion().unwrap();
    assert!(c.outcomes()[1].met_qos());
}

/// The spare settings on two jobs of partitions 0.25 and 0.5.
#[test]
fn spare_time_settings() {
    let a = JobSpec::new(100, 1, 400, 1e9);
    let b = JobSpec::new(200, 1, 400, 1e9);
    // Equal: rates 0.375 and 0.625; A ends at ⌈266.7⌉ = 267, B then has
    // 200 − 166.875 left alone: 34 s more. Proportional: rates 1/3 and 2/3,
    // both end at 300. Idle: rates 0.25 and 0.5, both end at 400.
    for (spare, finishes) in [
        (Spare::Equal, [267, 301]),
        (Spare::Proportional, [300, 300]),
        (Spare::Idle, [400, 400]),
    ] {
        let mut config = ClusterConfig::homogeneous(1, 168, 1.0);
        config.control.spare = spare;
        let mut c = Cluster::new(config).unwrap();
        c.submit(Time(0), 1, &a, 100, &Flat).unwrap();
        c.submit(Time(0), 2, &b, 200, &Flat).unwrap();
        c.run_to_completion().unwrap();
        let got: Vec<Option<Time>> = c.outcomes().iter().map(|o| o.finish).collect();
        assert_eq!(got, finishes.map(|t| Some(Time(t))), "{spare:?}");
    }
}
