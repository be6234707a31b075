//! The time-shared cluster: partitions and rates on a shared node, admission
//! against the deadline and memory, late jobs, heterogeneous ratings and the
//! errors for arrivals out of order and degenerate job control.

use pricing::{
    Cluster, ClusterConfig, Decision, JobControl, JobOutcome, JobSpec, Late, Rejection, Spare,
};
use pricing::{Flat, LibraStatic};
use profile::Time;

fn one_node() -> Cluster {
    Cluster::new(ClusterConfig::homogeneous(1, 100, 1.0)).unwrap()
}

#[test]
fn two_jobs_share_a_node_and_both_meet_their_deadlines() {
    let mut config = ClusterConfig::homogeneous(1, 100, 1.0);
    config.control.spare = Spare::Equal;
    let mut c = Cluster::new(config).unwrap();
    // A: 100 s in 400 s (share 0.25); B: 300 s in 500 s (share 0.6).
    let a = JobSpec::new(100, 1, 400, 1e9);
    let b = JobSpec::new(300, 1, 500, 1e9);
    c.submit(Time(0), 1, &a, 100, &Flat).unwrap();
    c.submit(Time(0), 2, &b, 300, &Flat).unwrap();
    let tasks = c.node(0);
    assert_eq!(tasks.len(), 2);
    let (pa, pb) = (tasks[0].partition, tasks[1].partition);
    assert_eq!((pa, pb), (0.25, 0.6));
    // The spare 0.15 is split equally.
    assert!((tasks[0].rate - 0.325).abs() < 1e-12);
    assert!((tasks[1].rate - 0.675).abs() < 1e-12);
    c.run_to_completion().unwrap();
    let out = c.outcomes();
    assert!(out.iter().all(JobOutcome::met_qos), "{out:?}");
    // Together they need 400 s of processor time; A ends at 307.7 s,
    // which the integer clock rounds to 308, so B ends at 401 rather than 400.
    let finish: Vec<Time> = out.iter().filter_map(|o| o.finish).collect();
    assert_eq!(finish, [Time(308), Time(401)]);
}

#[test]
fn a_full_node_rejects_for_the_deadline() {
    let mut c = one_node();
    c.submit(Time(0), 1, &JobSpec::new(90, 1, 100, 1e9), 90, &Flat)
        .unwrap();
    let d = c
        .submit(Time(0), 2, &JobSpec::new(20, 1, 100, 1e9), 20, &Flat)
        .unwrap();
    assert_eq!(
        d,
        Decision::Reject(Rejection::CannotMeetDeadline {
            in_time: 0,
            processors: 1
        })
    );
    // Fifty seconds later job 1 has had the whole processor: 40 s left
    // in 50 s (share 0.8), so 20 s in 100 s (0.2) fits beside it.
    let d = c
        .submit(Time(50), 3, &JobSpec::new(20, 1, 100, 1e9), 20, &Flat)
        .unwrap();
    assert!(d.allocation().is_some(), "{d:?}");
}

#[test]
fn under_estimated_job_finishes_late_with_idle_spare() {
    let mut config = ClusterConfig::homogeneous(1, 100, 1.0);
    config.control.spare = Spare::Idle;
    let mut c = Cluster::new(config).unwrap();
    // Estimate 50 s, really 60 s, deadline 100 s: runs at 0.5 until its
    // estimate is used up at 100 s, then late with the whole processor.
    c.submit(Time(0), 1, &JobSpec::new(50, 1, 100, 1e9), 60, &Flat)
        .unwrap();
    c.run_to_completion().unwrap();
    let out = &c.outcomes()[0];
    assert_eq!(out.finish, Some(Time(110)));
    assert!(!out.met_qos());
}

#[test]
fn heterogeneous_nodes_translate_the_estimate() {
    let mut config = ClusterConfig::homogeneous(2, 100, 1.0);
    config.nodes[1].rating = 200;
    let mut c = Cluster::new(config).unwrap();
    // Wants 2 nodes; the fast node needs half the time.
    c.submit(
        Time(0),
        1,
        &JobSpec::new(100, 2, 1000, 1e9),
        100,
        &LibraStatic {
            gamma: 1.0,
            delta: 0.0,
        },
    )
    .unwrap();
    let est: Vec<f64> = (0..2).map(|j| c.node(j)[0].estimate).collect();
    assert_eq!(est, [100.0, 50.0]);
    // Libra's cost with γ = 1 is the translated estimate; the highest counts.
    assert_eq!(c.outcomes()[0].cost(), Some(100.0));
    c.run_to_completion().unwrap();
    assert_eq!(c.outcomes()[0].finish, Some(Time(100)));
}

#[test]
fn memory_is_held_while_a_job_runs() {
    let mut config = ClusterConfig::homogeneous(1, 100, 1.0);
    config.nodes[0].memory_mb = 1000;
    let mut c = Cluster::new(config).unwrap();
    let mut big = JobSpec::new(10, 1, 1000, 1e9);
    big.resource_requirements.memory_mb = 600;
    assert!(
        c.submit(Time(0), 1, &big, 10, &Flat)
            .unwrap()
            .allocation()
            .is_some()
    );
    // Too big for the free memory now, but not for the node.
    assert!(matches!(
        c.submit(Time(1), 2, &big, 10, &Flat).unwrap(),
        Decision::Reject(Rejection::CannotMeetDeadline { .. })
    ));
    // Job 1 is done at 10 s and gives its memory back.
    assert!(
        c.submit(Time(10), 3, &big, 10, &Flat)
            .unwrap()
            .allocation()
            .is_some()
    );
    big.resource_requirements.memory_mb = 2000;
    assert!(matches!(
        c.submit(Time(10), 4, &big, 10, &Flat).unwrap(),
        Decision::Reject(Rejection::CannotMeetResources { .. })
    ));
}

#[test]
fn arrivals_must_not_go_back_in_time() {
    let mut c = one_node();
    let job = JobSpec::new(10, 1, 100, 1.0);
    c.submit(Time(5), 1, &job, 10, &Flat).unwrap();
    let err = c.submit(Time(4), 2, &job, 10, &Flat).unwrap_err();
    assert_eq!(
        err.to_string(),
        "job 2 arrives at 4 s, before the cluster's clock (5 s); submit jobs in arrival order"
    );
}

#[test]
fn degenerate_job_control_is_refused() {
    let mut config = ClusterConfig::homogeneous(1, 100, 1.0);
    config.control = JobControl {
        spare: Spare::Idle,
        late: Late::Zero,
    };
    assert!(Cluster::new(config).is_err());
    assert!(Cluster::new(ClusterConfig::homogeneous(0, 100, 1.0)).is_err());
}

/// An admission rule that accepts every job on the nodes and at the cost
/// it is given, right or wrong.
struct Fixed(Vec<usize>, f64);

impl pricing::Admission for Fixed {
    fn admit(
        &mut self,
        _job: &pricing::JobContext<'_>,
        _nodes: &[pricing::NodeLoad],
        _price: &dyn pricing::PriceFunction,
    ) -> Result<Decision, pricing::PricingError> {
        Ok(Decision::Accept(pricing::Allocation {
            nodes: self.0.clone(),
            cost: self.1,
        }))
    }
}

#[test]
fn a_rules_allocation_is_checked_before_it_runs() {
    let job = JobSpec::new(60, 2, 600, 100.0);
    let submit = |rule: Fixed| {
        let config = ClusterConfig::homogeneous(3, 100, 1.0);
        let mut c = Cluster::with_admission(config, rule).unwrap();
        c.submit(Time(0), 9, &job, 60, &Flat)
    };
    let reason = |rule: Fixed| match submit(rule) {
        Err(pricing::PricingError::InvalidAllocation { job: 9, reason }) => reason,
        other => panic!("{other:?}"),
    };
    assert_eq!(reason(Fixed(vec![0], 1.0)), "1 nodes, but it asks for 2");
    assert_eq!(
        reason(Fixed(vec![0, 3], 1.0)),
        "node 3, but the cluster has nodes 0 to 2"
    );
    assert_eq!(reason(Fixed(vec![1, 1], 1.0)), "node 1 twice");
    assert!(reason(Fixed(vec![0, 1], f64::NAN)).starts_with("a cost of NaN"));
    // Above the budget of 100: the user never agreed to pay it (Algorithm 1
    // rejects such a job, line 31); at the budget itself it runs.
    assert_eq!(
        reason(Fixed(vec![0, 1], 100.5)),
        "a cost of 100.5, above its budget of 100"
    );
    assert_eq!(
        submit(Fixed(vec![0, 1], 100.0))
            .unwrap()
            .allocation()
            .map(|a| a.cost),
        Some(100.0)
    );
    // A value far from 1 is echoed in scientific notation, not as 309
    // digits (f64::MAX) or 300 zeros (-1e-300).
    assert_eq!(
        reason(Fixed(vec![0, 1], -1e-300)),
        "a cost of -1e-300, expected a finite number >= 0"
    );
    assert_eq!(
        reason(Fixed(vec![0, 1], f64::MAX)),
        "a cost of 1.7976931348623157e308, above its budget of 100"
    );
    let ok = submit(Fixed(vec![2, 0], 5.0)).unwrap();
    assert_eq!(ok.allocation().map(|a| a.nodes.clone()), Some(vec![2, 0]));
}

/// A rule's allocation once went onto a node without the job's memory or
/// disk free: the node's free memory saturated at 0 and grew past the node's
/// size when the jobs ended (2000 MB free of 1024). It is now refused,
/// naming the node and the amounts, and the node is as it was.
#[test]
fn a_rules_allocation_needs_the_memory_and_disk_free() {
    let mut config = ClusterConfig::homogeneous(2, 100, 1.0);
    config.nodes[0].memory_mb = 1024;
    config.nodes[1].disk_mb = 10;
    let mut c = Cluster::with_admission(config, Fixed(vec![0], 1.0)).unwrap();
    let mut job = JobSpec::new(60, 1, 600, 100.0);
    job.resource_requirements.memory_mb = 1000;
    assert!(
        c.submit(Time(0), 1, &job, 60, &Flat)
            .unwrap()
            .allocation()
            .is_some()
    );
    let err = c.submit(Time(0), 2, &job, 60, &Flat).unwrap_err();
    assert_eq!(
        err.to_string(),
        "job 2: the admission rule (Admission::admit) accepted it with node 0, whose free memory is 24 MB, but it \
         needs 1000 MB; fix the admission rule"
    );
    c.run_to_completion().unwrap();
    let free = c.snapshot(c.now(), &job).unwrap()[0].free_memory_mb;
    assert_eq!(free, 1024);

    // Larger than the node itself, and disk.
    job.resource_requirements.memory_mb = 5000;
    let err = c.submit(c.now(), 3, &job, 60, &Flat).unwrap_err();
    assert!(
        matches!(err, pricing::PricingError::InvalidAllocation { job: 3, .. }),
        "{err}"
    );
    *c.admission_mut() = Fixed(vec![1], 1.0);
    job.resource_requirements.memory_mb = 0;
    job.resource_requirements.disk_mb = 11;
    let err = c.submit(c.now(), 4, &job, 60, &Flat).unwrap_err();
    assert!(
        err.to_string()
            .contains("node 1, whose free disk is 10 MB, but it needs 11 MB"),
        "{err}"
    );
    job.resource_requirements.disk_mb = 10;
    assert!(
        c.submit(c.now(), 5, &job, 60, &Flat)
            .unwrap()
            .allocation()
            .is_some()
    );
}
