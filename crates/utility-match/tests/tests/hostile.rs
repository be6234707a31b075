//! A Job Scheduler asked about another grid than the one it was built for:
//! `decide` and `utility_of` indexed the machines they were passed with the
//! ids of the scheduler's own view, and panicked (index out of bounds) on a
//! smaller grid or a resource the grid does not have. They are now errors
//! naming `machines`, `resource` or `site`.

use profile::Time;
use utility_match::{
    Attribute, Decision, GridError, GridJob, JobScheduler, Machine, PartialUtility, Requirement,
    Resource, ResourceId, ResourceStatus, TieBreak, Want,
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
