//! Table 1: how the jobs of an interval become requests, and the draws they
//! take from the two seeded streams.

use adaptive_requests::{
    Preemption, PriceFunction, ReqError, Request, RequestSeeds, Table1, Table1Error, Variant,
    table1_r_min,
};
use profile::{Job, Time};

const SEEDS: RequestSeeds = RequestSeeds {
    preemptive: 11,
    price_profile: 12,
};

/// 4000 jobs of 1 to 40 processors, from one minute to about 1.7 hours.
fn jobs() -> Vec<Job> {
    (0..4000u64)
        .map(|i| {
            Job::new(
                i,
                Time(i as i64),
                1 + (i % 40) as u32,
                60 + (i as i64 % 7) * 1000,
                1,
            )
        })
        .collect()
}

fn requests(t: &Table1, variant: &str, jobs: &[Job], seeds: RequestSeeds) -> Vec<Request> {
    t.requests(
        variant.parse().unwrap(),
        jobs,
        &PriceFunction::TABLE1,
        seeds,
    )
    .unwrap()
}

/// What a request takes from the draws: its price profile, and whether it
/// may be split (given `Sp` when preemptive).
fn draws(requests: &[Request]) -> Vec<(f64, i64, bool)> {
    requests
        .iter()
        .map(|r| {
            (
                r.req.price_profile(),
                r.req.deadline(),
                r.req.is_preemptive(),
            )
        })
        .collect()
}

/// Table 1 by hand, and the shares of the draws.
#[test]
fn table1_by_hand() {
    let t = Table1::default();
    let omega = PriceFunction::TABLE1;
    let jobs = jobs();
    let rigid = requests(&t, "fifo-rigid", &jobs, SEEDS);
    let flexible = requests(&t, "mdf-preemptive-moldable", &jobs, SEEDS);
    let (mut high, mut split, mut long) = (0, 0, 0);
    for ((j, r), f) in jobs.iter().zip(&rigid).zip(&flexible) {
        assert_eq!((r.id, r.submit), (j.id, j.submit));
        assert_eq!((r.req.r_min(), r.req.r_max()), (j.procs, j.procs));
        assert!(r.req.preemption().is_none());
        assert_eq!(f.req.r_min(), table1_r_min(j.procs));
        assert_eq!(f.req.t_min(), j.estimate);
        // Same price profile and deadline in every variant.
        assert_eq!(r.req.price_profile(), f.req.price_profile());
        assert_eq!(r.req.deadline(), f.req.deadline());
        let is_high = f.req.price_profile() == 3.0;
        let extra = if is_high { 0 } else { 3 * 86_400 };
        assert_eq!(f.req.deadline(), 5 * j.estimate + extra);
        let budget = omega
            .full_price(i64::from(j.procs) * j.estimate, f.req.price_profile())
            .unwrap();
        assert_eq!(f.req.budget(), budget);
        high += usize::from(is_high);
        long += usize::from(j.estimate >= 3600);
        if f.req.is_preemptive() {
            assert!(j.estimate >= 3600, "short requests are never split");
            assert_eq!(f.req.preemption(), Some(Preemption::TABLE1));
            split += 1;
        }
    }
    let share = |n: usize, of: usize| n as f64 / of as f64;
    assert!((share(high, jobs.len()) - 0.2).abs() < 0.03, "{high}");
    // §4.1: "The 60% ... regarding the Sp ... were used randomly", of the
    // requests of an hour or more (Table 1: "Requests less than 1 hour
    // were not split").
    assert!((share(split, long) - 0.6).abs() < 0.03, "{split} of {long}");
    assert_eq!(t.preemption(), Preemption::TABLE1);
    assert_eq!(t.price_function(0.0), Ok(PriceFunction::TABLE1));
}

/// The Sp share: 60% of the requests of an hour or more by default, none
/// below; the 20% reading (`preemptive_share = 0.2`) picks a subset of the
/// same requests, so the two readings differ only in the extra ones.
#[test]
fn sp_goes_to_a_share_of_the_long_requests() {
    let jobs = jobs();
    let long = jobs.iter().filter(|j| j.estimate >= 3600).count();
    let splittable = |share: f64| -> Vec<bool> {
        let t = Table1 {
            preemptive_share: share,
            ..Table1::default()
        };
        requests(&t, "fifo-preemptive", &jobs, SEEDS)
            .iter()
            .map(|r| r.req.is_preemptive())
            .collect()
    };
    let check = |share: f64, got: &[bool]| {
        for (j, &p) in jobs.iter().zip(got) {
            assert!(!p || j.estimate >= 3600, "job {} is under an hour", j.id);
        }
        let n = got.iter().filter(|p| **p).count();
        let ratio = n as f64 / long as f64;
        assert!((ratio - share).abs() < 0.03, "{n} of {long} at {share}");
    };
    let sixty = splittable(0.6);
    let twenty = splittable(0.2);
    assert_eq!(sixty, splittable(Table1::default().preemptive_share));
    check(0.6, &sixty);
    check(0.2, &twenty);
    assert!(twenty.iter().zip(&sixty).all(|(t, s)| !t || *s));
    assert!(splittable(0.0).iter().all(|p| !p));
    let all = splittable(1.0);
    check(1.0, &all);
}

/// Every variant draws the same price profiles and deadlines, and the
/// preemptive ones the same splittable requests: the flexibility decides
/// only `R^min` and whether the drawn `Sp` is kept.
#[test]
fn draws_independent_of_variant() {
    let t = Table1::default();
    let jobs = jobs();
    let preemptive = draws(&requests(&t, "fifo-preemptive", &jobs, SEEDS));
    assert!(
        preemptive.iter().any(|d| d.2),
        "some requests are splittable"
    );
    for v in super::variant::all() {
        let got = t.requests(v, &jobs, &PriceFunction::TABLE1, SEEDS).unwrap();
        for ((r, j), d) in got.iter().zip(&jobs).zip(&preemptive) {
            assert_eq!((r.req.price_profile(), r.req.deadline()), (d.0, d.1), "{v}");
            assert_eq!(r.req.is_preemptive(), v.preemptive && d.2, "{v}");
            let r_min = if v.moldable {
                table1_r_min(j.procs)
            } else {
                j.procs
            };
            assert_eq!(r.req.r_min(), r_min, "{v}");
        }
    }
}

/// Each stream depends on its own seed only.
#[test]
fn one_stream_per_seed() {
    let t = Table1::default();
    let jobs = jobs();
    let base = draws(&requests(&t, "mdf-preemptive", &jobs, SEEDS));
    let again = draws(&requests(&t, "mdf-preemptive", &jobs, SEEDS));
    assert_eq!(base, again, "same seeds, same requests");
    let other_split = draws(&requests(
        &t,
        "mdf-preemptive",
        &jobs,
        RequestSeeds {
            preemptive: 99,
            ..SEEDS
        },
    ));
    let other_profile = draws(&requests(
        &t,
        "mdf-preemptive",
        &jobs,
        RequestSeeds {
            price_profile: 99,
            ..SEEDS
        },
    ));
    let profiles = |d: &[(f64, i64, bool)]| d.iter().map(|x| (x.0, x.1)).collect::<Vec<_>>();
    let splits = |d: &[(f64, i64, bool)]| d.iter().map(|x| x.2).collect::<Vec<_>>();
    assert_eq!(profiles(&other_split), profiles(&base));
    assert_ne!(splits(&other_split), splits(&base));
    assert_eq!(splits(&other_profile), splits(&base));
    assert_ne!(profiles(&other_profile), profiles(&base));
    // A share of 0 or 1 decides without chance.
    let all_high = Table1 {
        high_share: 1.0,
        preemptive_share: 0.0,
        ..Table1::default()
    };
    let d = draws(&requests(&all_high, "mdf-preemptive", &jobs, SEEDS));
    assert!(d.iter().all(|x| x.0 == 3.0 && !x.2));
}

#[test]
fn errors() {
    let jobs = jobs();
    let omega = PriceFunction::TABLE1;
    let v: Variant = "mdf-preemptive-moldable".parse().unwrap();
    let check = |t: Table1, message: &str| {
        let err = t.requests(v, &jobs, &omega, SEEDS).unwrap_err();
        assert_eq!(err.to_string(), message);
        err
    };
    let err = check(
        Table1 {
            high_share: 1.5,
            ..Table1::default()
        },
        "Table 1 high_share is 1.5, expected a share in [0, 1]",
    );
    assert_eq!(
        err,
        Table1Error::Share {
            field: "high_share",
            value: 1.5
        }
    );
    let err = check(
        Table1 {
            preemptive_share: f64::NAN,
            ..Table1::default()
        },
        "Table 1 preemptive_share is NaN, expected a share in [0, 1]",
    );
    assert!(matches!(
        err,
        Table1Error::Share {
            field: "preemptive_share",
            ..
        }
    ));
    let err = check(
        Table1 {
            high_share: 1.0,
            high_profile: 0.0,
            ..Table1::default()
        },
        "Table 1 high_profile is 0, expected a multiplier in (0, 1e12]",
    );
    assert_eq!(
        err,
        Table1Error::Field {
            field: "high_profile",
            value: "0".into(),
            expected: "a multiplier in (0, 1e12]",
        }
    );
    // Every field is checked before any job is read.
    assert_eq!(Table1::default().check(), Ok(()));
    let err = Table1 {
        sp_percent: 0,
        ..Table1::default()
    }
    .requests(v, &[], &omega, SEEDS)
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Table 1 sp_percent is 0, expected a percentage in 1..=100"
    );
    // A job whose request is out of range is named.
    let err = Table1 {
        deadline_factor: 1 << 40,
        ..Table1::default()
    }
    .requests(v, &jobs, &omega, SEEDS)
    .unwrap_err();
    assert!(
        matches!(
            err,
            Table1Error::Job {
                id: 0,
                error: ReqError::TooLong {
                    name: "deadline",
                    ..
                }
            }
        ),
        "{err}"
    );
}
