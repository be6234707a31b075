//! A Job Scheduler asked about another grid than the one it was built for:
//! `decide` and `utility_of` indexed the machines they were passed with the
//! ids of the scheduler's own view, and panicked (index out of bounds) on a
//! smaller grid or a resource the grid does not have. They are now errors
//! naming `machines`, `resource` or `site`.
//!
//! A user's `UtilityFunction` answering outside `[0, 1]` (NaN, -1, 7) was
//! clamped into the decision (NaN as 0), silently; it is now
//! `GridError::Utility` naming the job, the resource and the value,
//! from `utility_of`, `decide` and `simulate`. And `validate` accepted a
//! run whose records held NaN utilities (that `SystemMetrics::of` refused
//! later); it refuses them, naming the job.

use profile::Time;
use utility_match::{
    Attribute, Decision, GridConfig, GridError, GridJob, GridWorkload, JobScheduler, JobStatus,
    Machine, PartialUtility, Requirement, Resource, ResourceId, ResourceStatus, Scenario, TieBreak,
    UtilityFunction, UtilityKind, Violation, Want, simulate, validate,
};

fn grid(sizes: &[usize]) -> Vec<Vec<Machine>> {
    let m = || Machine::new(2, 1000, Resource::new().with(Attribute::Os, "Linux")).unwrap();
    sizes
        .iter()
        .map(|&n| (0..n).map(|_| m()).collect())
        .collect()
}

fn job() -> GridJob {
    let linux = Requirement::new(Attribute::Os, 1.0, vec![(Want::Is("Linux".into()), 1.0)]);
    GridJob {
        id: 0,
        user: 0,
        site: 0,
        submit: Time(0),
        length: 60_000,
        requirements: vec![linux.unwrap()],
    }
}

fn setting(e: GridError) -> (&'static str, String) {
    match e {
        GridError::Setting { name, message } => (name, message),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_scheduler_refuses_another_grid() {
    let built = grid(&[2, 1]);
    let mut js = JobScheduler::new(0, &built, TieBreak::TableOrder);
    let idle = ResourceStatus::default();
    for other in [grid(&[2]), grid(&[1, 1]), grid(&[2, 1, 1]), grid(&[])] {
        let err = js.decide(&PartialUtility, &other, &job(), 3, None, Time(0));
        let (name, message) = setting(err.unwrap_err());
        assert_eq!(name, "machines");
        assert!(
            message.ends_with("but the scheduler was built for [2, 1]"),
            "{message}"
        );
        let id = ResourceId { site: 0, index: 0 };
        let err = js.utility_of(&PartialUtility, &other, &job(), id, &idle, Time(0));
        assert_eq!(setting(err.unwrap_err()).0, "machines");
    }
    for (site, index) in [(0, 2), (2, 0), (usize::MAX, usize::MAX)] {
        let id = ResourceId { site, index };
        let err = js.utility_of(&PartialUtility, &built, &job(), id, &idle, Time(0));
        assert_eq!(
            setting(err.unwrap_err()),
            (
                "resource",
                format!("is machine {index} of site {site}, which the grid does not have")
            )
        );
    }
    // The grid it was built for: as before.
    let id = ResourceId { site: 1, index: 0 };
    assert_eq!(
        js.utility_of(&PartialUtility, &built, &job(), id, &idle, Time(0)),
        Ok(1.0)
    );
    let d = js
        .decide(&PartialUtility, &built, &job(), 3, None, Time(0))
        .unwrap();
    let local = ResourceId { site: 0, index: 0 };
    assert_eq!(
        d,
        Decision::Assign {
            resource: local,
            utility: 1.0
        }
    );
}

/// A scheduler of a site the grid does not have once forwarded its jobs.
#[test]
fn a_scheduler_of_a_site_the_grid_lacks_is_refused() {
    let built = grid(&[2, 1]);
    let mut js = JobScheduler::new(7, &built, TieBreak::LocalFirst);
    let err = js.decide(&PartialUtility, &built, &job(), 3, None, Time(0));
    assert_eq!(
        setting(err.unwrap_err()),
        ("site", "is 7, but the grid has 2 sites".to_string())
    );
}

/// The paper's scenario cut to two users of two jobs each.
fn small_scenario() -> GridWorkload {
    Scenario {
        users: 2,
        jobs_per_user: 2,
        ..Scenario::paper()
    }
    .generate(7)
    .unwrap()
}

/// A utility function that answers `value` for every resource.
struct Answers(f64);

impl UtilityFunction for Answers {
    fn utility(&self, _requirements: &[Requirement], _resource: &Resource) -> f64 {
        self.0
    }
}

#[test]
fn a_utility_outside_0_to_1_is_named_where_it_is_received() {
    let built = grid(&[2, 1]);
    let idle = ResourceStatus::default();
    let id = ResourceId { site: 1, index: 0 };
    let w = small_scenario();
    for value in [f64::NAN, -1.0, 7.0, f64::INFINITY, -0.0001] {
        let f = Answers(value);
        let mut js = JobScheduler::new(0, &built, TieBreak::TableOrder);
        let want = |job, site, index| GridError::Utility {
            job,
            site,
            index,
            value,
        };
        let same = |got: GridError, want: GridError| match (got, want) {
            (
                GridError::Utility {
                    job,
                    site,
                    index,
                    value,
                },
                GridError::Utility {
                    job: j,
                    site: s,
                    index: i,
                    value: v,
                },
            ) => (job, site, index, value.to_bits()) == (j, s, i, v.to_bits()),
            _ => false,
        };
        let got = js
            .utility_of(&f, &built, &job(), id, &idle, Time(0))
            .unwrap_err();
        assert!(same(got.clone(), want(0, 1, 0)), "{got:?}");
        assert_eq!(
            got.to_string(),
            format!(
                "UtilityFunction::utility returned {value} for job 0 on machine 0 of site 1, \
                 expected a number in [0, 1]; fix the utility function"
            )
        );
        // `decide` evaluates the view in table order: site 0's first machine first.
        let got = js.decide(&f, &built, &job(), 3, None, Time(0)).unwrap_err();
        assert!(same(got.clone(), want(0, 0, 0)), "{got:?}");
        let got = simulate(&GridConfig::default(), &f, &w.machines, &w.jobs).unwrap_err();
        assert!(matches!(got, GridError::Utility { .. }), "{got:?}");
    }
    // A value far from [0, 1] is echoed in scientific notation: `{}` writes
    // f64::MAX with 309 digits and -1e-300 with 300 zeros.
    let mut js = JobScheduler::new(0, &built, TieBreak::TableOrder);
    for (value, shown) in [(f64::MAX, "1.7976931348623157e308"), (-1e-300, "-1e-300")] {
        let got = js
            .utility_of(&Answers(value), &built, &job(), id, &idle, Time(0))
            .unwrap_err();
        assert_eq!(
            got.to_string(),
            format!(
                "UtilityFunction::utility returned {shown} for job 0 on machine 0 of site 1, \
                 expected a number in [0, 1]; fix the utility function"
            )
        );
    }
    // The ends of the range are answers like any other.
    for value in [0.0, 1.0] {
        let run = simulate(
            &GridConfig::default(),
            &Answers(value),
            &w.machines,
            &w.jobs,
        )
        .unwrap();
        assert_eq!(validate(&w.machines, &w.jobs, &run, 3), Ok(()));
    }
}

#[test]
fn validate_refuses_utilities_outside_0_to_1() {
    let w = small_scenario();
    let config = GridConfig::default();
    let run = simulate(&config, &UtilityKind::Partial, &w.machines, &w.jobs).unwrap();
    assert_eq!(validate(&w.machines, &w.jobs, &run, config.max_ttl), Ok(()));
    let done = run
        .jobs
        .iter()
        .position(|r| r.status == JobStatus::Completed)
        .unwrap();
    let check = |change: &dyn Fn(&mut utility_match::JobRecord), job: usize, message: &str| {
        let mut bad = run.clone();
        change(&mut bad.jobs[job]);
        assert_eq!(
            validate(&w.machines, &w.jobs, &bad, config.max_ttl),
            Err(Violation::Job {
                job,
                message: message.into()
            })
        );
    };
    check(
        &|r| r.decided_utility = f64::NAN,
        done,
        "its decided utility is NaN, expected a number in [0, 1]",
    );
    check(
        &|r| r.achieved_utility = 1.5,
        done,
        "its achieved utility is 1.5, expected a number in [0, 1]",
    );
    check(
        &|r| {
            r.status = JobStatus::Failed(utility_match::FailReason::TtlExpired);
            r.start = None;
            r.end = None;
            r.decided_utility = 0.0;
            r.achieved_utility = 0.5;
        },
        done,
        "failed but its achieved utility is 0.5, expected 0 for a job that never ran",
    );
}

/// `validate` accepted a run whose totals contradicted its job records
/// (machines' usage, forwards, the span), from which the metrics are
/// computed: load balance 1.0 and 25,000 forwards per job from a forged
/// run. Each total is now checked against the records, naming the field.
#[test]
fn totals_that_contradict_the_records_are_refused() {
    let w = Scenario {
        users: 8,
        jobs_per_user: 5,
        ..Scenario::paper()
    }
    .generate(42)
    .unwrap();
    let config = GridConfig::default();
    let run = simulate(&config, &UtilityKind::Partial, &w.machines, &w.jobs).unwrap();
    let check = |run: &utility_match::GridRun| validate(&w.machines, &w.jobs, run, config.max_ttl);
    assert_eq!(check(&run), Ok(()));
    type Forge = fn(&mut utility_match::GridRun);
    let forgeries: [(&str, Forge); 7] = [
        ("machines", |r| r.machines[0].busy += 1),
        ("machines", |r| r.machines[0].jobs += 1),
        ("machines", |r| r.machines[0].cores = 1),
        ("machines", |r| {
            r.machines.pop();
        }),
        ("forwards", |r| r.forwards += 1),
        ("first_submit", |r| r.first_submit += 1),
        ("last_end", |r| r.last_end = r.first_submit),
    ];
    for (field, forge) in forgeries {
        let mut forged = run.clone();
        forge(&mut forged);
        match check(&forged) {
            Err(Violation::Totals { field: f, message }) => {
                assert_eq!(f, field, "{message}");
                let shown = Violation::Totals { field: f, message }.to_string();
                assert!(
                    shown.starts_with(&format!("the run's {field}: ")),
                    "{shown}"
                );
            }
            other => panic!("{field}: {other:?}"),
        }
    }
}
