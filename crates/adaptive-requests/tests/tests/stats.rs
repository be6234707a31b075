//! `IntervalStats::of`: the measurements of a schedule.

use adaptive_requests::{
    IntervalStats, LinearFmol, Policy, PriceFunction, Req, Request, RequestSeeds, SchedulerConfig,
    Table1, schedule, validate,
};
use profile::{Job, Time};

fn request(id: u64, submit: i64, r_min: u32, r_max: u32, t_min: i64, deadline: i64) -> Request {
    let f = LinearFmol::new(r_min, r_max, t_min).unwrap();
    Request {
        id,
        submit: Time(submit),
        req: Req::linear(f, deadline, 1e9, None).unwrap(),
    }
}

/// A schedule worked out by hand on 10 processors: a rigid request holds 2
/// processors for 1000 s, a moldable one (8 to 10) runs at once on 8, and a
/// rigid one for the whole machine cannot meet its deadline.
#[test]
fn by_hand() {
    let requests = vec![
        request(1, 0, 2, 2, 1000, 5000),
        request(2, 0, 8, 10, 100, 1100),
        request(3, 1, 10, 10, 100, 500),
    ];
    let config = SchedulerConfig::new(10, Policy::Fifo);
    let outcomes = schedule(config, &requests).unwrap();
    validate(&config, &requests, &outcomes).unwrap();
    let s = IntervalStats::of(10, &requests, &outcomes);
    assert_eq!((s.requests, s.accepted, s.rejected()), (3, 2, 1));
    // Completions at 1000 and 125 (100 s at R^max is 125 s on 8).
    assert_eq!(s.response_sum, 1125.0);
    assert_eq!(s.response(), Some(562.5));
    assert_eq!(s.busy, (2 * 1000 + 8 * 125) as f64);
    assert_eq!(s.span, 1000 * 10);
    assert_eq!((s.moldable_accepted, s.molded), (1, 1));
    // All of the work at R^min: molded 100%.
    assert_eq!(s.modification_sum, 100.0);
    assert_eq!((s.preemptive_accepted, s.split), (0, 0));
    let prices: f64 = outcomes.iter().map(|o| o.price).sum();
    assert_eq!(s.profit, prices);
    assert_eq!(
        outcomes[0].price,
        2000.0 / 3600.0,
        "finished as early as it could"
    );
}

#[test]
fn empty_interval() {
    let s = IntervalStats::of::<LinearFmol>(10, &[], &[]);
    assert_eq!(s, IntervalStats::default());
    assert_eq!((s.rejected(), s.response()), (0, None));
    // Nothing accepted: no response time, the span still counts.
    let requests = vec![request(1, 0, 10, 10, 100, 50)];
    let outcomes = schedule(SchedulerConfig::new(10, Policy::Mdf), &requests).unwrap();
    let s = IntervalStats::of(10, &requests, &outcomes);
    assert_eq!(
        (s.requests, s.accepted, s.response(), s.span),
        (1, 0, None, 0)
    );
}

/// On a crowded Table 1 interval, the counts agree with the outcomes
/// counted one by one.
#[test]
fn counts_agree_with_outcomes() {
    let jobs: Vec<Job> = (0..300u64)
        .map(|i| {
            let procs = 1 + (i * 7 % 32) as u32;
            Job::new(
                i,
                Time(i as i64 * 90),
                procs,
                1800 + (i as i64 % 5) * 1500,
                1,
            )
        })
        .collect();
    let seeds = RequestSeeds {
        preemptive: 1,
        price_profile: 2,
    };
    let v = "mdf-preemptive-moldable".parse().unwrap();
    let requests = Table1::default()
        .requests(v, &jobs, &PriceFunction::TABLE1, seeds)
        .unwrap();
    let config = SchedulerConfig::new(32, Policy::Mdf);
    let outcomes = schedule(config, &requests).unwrap();
    validate(&config, &requests, &outcomes).unwrap();
    let s = IntervalStats::of(32, &requests, &outcomes);
    let placed: Vec<_> = requests
        .iter()
        .zip(&outcomes)
        .filter_map(|(r, o)| Some((r, o.placement.as_ref()?)))
        .collect();
    let count = |f: &dyn Fn(&Request, &adaptive_requests::Placement) -> bool| {
        placed.iter().filter(|(r, p)| f(r, p)).count()
    };
    assert_eq!(s.accepted, placed.len());
    assert!(s.rejected() > 0 && s.accepted > 0, "a crowded interval");
    assert_eq!(s.moldable_accepted, count(&|r, _| r.req.is_moldable()));
    let molded = count(&|r, p| p.parts().iter().any(|q| q.procs < r.req.r_max()));
    assert_eq!(s.molded, molded);
    assert!(molded > 0);
    assert_eq!(s.preemptive_accepted, count(&|r, _| r.req.is_preemptive()));
    assert_eq!(
        s.split,
        count(&|r, p| r.req.is_preemptive() && p.is_split())
    );
    assert!(s.modification_sum >= 0.0 && s.modification_sum <= 100.0 * molded as f64);
    let last = placed.iter().map(|(_, p)| p.completion()).max().unwrap();
    assert_eq!(s.span, (last - requests[0].submit) * 32);
    assert!(s.busy <= s.span as f64, "never more than the machine");
}
