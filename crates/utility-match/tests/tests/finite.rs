//! The NaN class (issue #19): every public function of `utility-match`
//! that returns a float returns a finite one, or its input is refused with
//! a typed error naming the field.
//!
//! One property test per function, named `finite_<function>`, over hostile
//! inputs: NaN, the infinities, `f64::MAX` and `MIN`, `MIN_POSITIVE`,
//! subnormals, `-0.0`, the edges of `i64` and `u32`. `xtask`'s
//! `tests/float_api.rs` lists the functions with the test that covers each
//! and fails when a new float-returning `pub fn` has no test here.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use profile::Time;
use utility_match::{
    Attribute, FailReason, GridError, GridJob, GridRun, JobRecord, JobScheduler, JobStatus,
    Machine, MachineUsage, Requirement, Resource, ResourceId, ResourceStatus, SystemMetrics,
    TieBreak, UtilityError, UtilityFunction, UtilityKind, Want, draw_utility, load_balance,
    simulate,
};

use super::extremes::settings;

/// Hostile floats: every special value and edge, any bit pattern, and
/// ordinary values (`profile::testing::hostile_f64`).
fn hostile() -> impl Strategy<Value = f64> {
    profile::testing::hostile_f64(0.0..1.0)
}

/// Hostile times.
fn seconds() -> impl Strategy<Value = i64> {
    prop_oneof![
        1 => prop::sample::select(vec![i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 7, i64::MAX]),
        1 => any::<i64>(),
        2 => 0i64..10_000,
    ]
}

/// Hostile `u32` counts.
fn count() -> impl Strategy<Value = u32> {
    prop_oneof![
        1 => prop::sample::select(vec![0, 1, u32::MAX - 1, u32::MAX]),
        1 => any::<u32>(),
        2 => 0u32..16,
    ]
}

/// Hostile statuses.
fn status() -> impl Strategy<Value = ResourceStatus> {
    (count(), count(), seconds()).prop_map(|(present, running, backlog)| ResourceStatus {
        present,
        running,
        backlog,
    })
}

/// A user's utility function that returns whatever it is given.
struct Returns(f64);

impl UtilityFunction for Returns {
    fn utility(&self, _requirements: &[Requirement], _resource: &Resource) -> f64 {
        self.0
    }
}

/// A requirement on the operating system with hostile weight and option
/// utilities: one whose floats are finite, or an error naming the field
/// and carrying the value given.
fn requirement(weight: f64, utilities: &[f64]) -> Result<Option<Requirement>, TestCaseError> {
    let options = utilities
        .iter()
        .enumerate()
        .map(|(i, &u)| (Want::AtLeast(i as i64), u))
        .collect();
    match Requirement::new(Attribute::Cores, weight, options) {
        Ok(r) => {
            prop_assert!(r.weight().is_finite());
            prop_assert!(r.options().iter().all(|(_, u)| u.is_finite()));
            prop_assert!(r.preferred().1.is_finite());
            Ok(Some(r))
        }
        Err(UtilityError::Weight { value, .. }) => {
            prop_assert_eq!(value.to_bits(), weight.to_bits());
            Ok(None)
        }
        Err(UtilityError::OptionUtility { option, value, .. }) => {
            prop_assert_eq!(value.to_bits(), utilities[option].to_bits());
            Ok(None)
        }
        Err(UtilityError::NoOptions { .. }) => {
            prop_assert!(utilities.is_empty());
            Ok(None)
        }
        Err(e) => Err(TestCaseError::fail(format!("unexpected: {e:?}"))),
    }
}

fn machine(cores: u32, mips: i64) -> Result<Option<Machine>, TestCaseError> {
    match Machine::new(cores, mips, Resource::new()) {
        Ok(m) => Ok(Some(m)),
        Err(GridError::Setting { name, .. }) => {
            prop_assert!(name == "cores" || name == "mips", "{name}");
            Ok(None)
        }
        Err(e) => Err(TestCaseError::fail(format!("unexpected: {e:?}"))),
    }
}

/// A hand-made run: hostile records and machine usage.
fn run() -> impl Strategy<Value = GridRun> {
    let record = (
        (0usize..3, seconds(), any::<bool>(), seconds(), seconds()),
        (hostile(), hostile(), any::<bool>()),
    );
    let usage = (count(), seconds(), count());
    (
        prop::collection::vec(record, 0..6),
        prop::collection::vec(usage, 0..4),
        (any::<u64>(), any::<u64>(), seconds(), seconds()),
    )
        .prop_map(
            |(records, usage, (status_messages, forwards, first, last))| GridRun {
                jobs: records
                    .into_iter()
                    .enumerate()
                    .map(
                        |(id, ((user, submit, done, assigned, end), (decided, achieved, ran)))| {
                            JobRecord {
                                id,
                                user,
                                site: 0,
                                submit: Time(submit),
                                assigned: ran.then_some(Time(assigned)),
                                start: ran.then_some(Time(assigned)),
                                end: (ran && done).then_some(Time(end)),
                                resource: None,
                                forwards: 0,
                                status: if done {
                                    JobStatus::Completed
                                } else {
                                    JobStatus::Failed(FailReason::NoAcceptableResource)
                                },
                                decided_utility: decided,
                                achieved_utility: achieved,
                            }
                        },
                    )
                    .collect(),
                machines: usage
                    .into_iter()
                    .enumerate()
                    .map(|(index, (cores, busy, jobs))| MachineUsage {
                        id: ResourceId { site: 0, index },
                        cores,
                        busy,
                        jobs,
                    })
                    .collect(),
                status_messages,
                forwards,
                first_submit: Time(first),
                last_end: Time(last),
            },
        )
}

/// `SystemMetrics::of` a run: metrics whose named values are all finite,
/// or a refusal naming the machine field or the metric.
fn metrics_of(run: &GridRun) -> Result<Option<SystemMetrics>, TestCaseError> {
    match SystemMetrics::of(run) {
        Ok(m) => {
            for (name, v) in m.named() {
                // Finite, or NaN for a mean over nothing (no jobs).
                prop_assert!(v.is_finite() || v.is_nan(), "{name} = {v}");
                prop_assert_eq!(m.get(name).map(f64::to_bits), Some(v.to_bits()));
            }
            Ok(Some(m))
        }
        Err(GridError::Usage { field, value, .. }) => {
            prop_assert_eq!((field, value), ("cores", 0));
            Ok(None)
        }
        Err(GridError::NotFinite { metric, .. }) => {
            prop_assert!(!metric.is_empty());
            Ok(None)
        }
        Err(e) => Err(TestCaseError::fail(format!("unexpected: {e:?}"))),
    }
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(256))]

    #[test]
    fn finite_occupation(cores in count(), mips in seconds(), status in status()) {
        if let Some(m) = machine(cores, mips)? {
            let o = m.occupation(&status);
            prop_assert!((0.0..=1.0).contains(&o), "{o}");
        }
    }

    #[test]
    fn finite_load(cores in count(), mips in seconds(), status in status()) {
        if let Some(m) = machine(cores, mips)? {
            prop_assert!(m.load(&status).is_finite());
        }
    }

    #[test]
    fn finite_load_balance(run in run()) {
        match load_balance(&run) {
            Ok(b) => prop_assert!(b.is_finite(), "{b}"),
            Err(GridError::Usage { field, value, .. }) => {
                prop_assert_eq!((field, value), ("cores", 0));
            }
            Err(e) => return Err(TestCaseError::fail(format!("unexpected: {e:?}"))),
        }
    }

    #[test]
    fn finite_named(run in run()) {
        metrics_of(&run)?;
    }

    #[test]
    fn finite_get(run in run(), name in "[a-z_]{0,20}") {
        if let Some(m) = metrics_of(&run)? {
            prop_assert!(m.get(&name).is_none_or(f64::is_finite));
        }
    }

    #[test]
    fn finite_weight(weight in hostile(), utilities in prop::collection::vec(hostile(), 0..3)) {
        requirement(weight, &utilities)?;
    }

    #[test]
    fn finite_options(weight in hostile(), utilities in prop::collection::vec(hostile(), 0..3)) {
        requirement(weight, &utilities)?;
    }

    #[test]
    fn finite_preferred(weight in hostile(), utilities in prop::collection::vec(hostile(), 1..4)) {
        requirement(weight, &utilities)?;
    }

    #[test]
    fn finite_draw_utility(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..16 {
            let u = draw_utility(&mut rng);
            prop_assert!((0.0..=1.0).contains(&u), "{u}");
        }
    }

    /// `UtilityFunction::utility` of the three kinds on hostile requirements
    /// and resources.
    #[test]
    fn finite_utility(
        reqs in prop::collection::vec((hostile(), prop::collection::vec(hostile(), 1..3)), 0..3),
        cores in seconds(),
    ) {
        let mut requirements = Vec::new();
        for (w, us) in &reqs {
            requirements.extend(requirement(*w, us)?);
        }
        let resource = Resource::new().with(Attribute::Cores, cores);
        for kind in UtilityKind::ALL {
            let u = kind.utility(&requirements, &resource);
            prop_assert!((0.0..=1.0).contains(&u), "{kind:?}: {u}");
        }
    }

    /// `JobScheduler::utility_of` with the three kinds and with a user's
    /// function returning a hostile float, at hostile times and statuses:
    /// in `[0, 1]`, or the user's answer outside it refused and named.
    #[test]
    fn finite_utility_of(
        (cores, mips) in (1u32..u32::MAX, 1i64..i64::MAX),
        (submit, now, length) in (seconds(), seconds(), seconds()),
        status in status(),
        returned in hostile(),
        (w, us) in (hostile(), prop::collection::vec(hostile(), 1..3)),
    ) {
        let Some(m) = machine(cores, mips)? else { return Ok(()); };
        let machines = vec![vec![m]];
        let mut js = JobScheduler::new(0, &machines, TieBreak::default());
        let job = GridJob {
            id: 0,
            user: 0,
            site: 0,
            submit: Time(submit),
            length,
            requirements: requirement(w, &us)?.into_iter().collect(),
        };
        let id = ResourceId { site: 0, index: 0 };
        let own = Returns(returned);
        let functions: [(&dyn UtilityFunction, bool); 4] = [
            (&UtilityKind::Partial, false),
            (&UtilityKind::Binary, false),
            (&UtilityKind::Matchmaking, false),
            (&own, true),
        ];
        for (f, users) in functions {
            match js.utility_of(f, &machines, &job, id, &status, Time(now)) {
                Ok(u) => prop_assert!((0.0..=1.0).contains(&u), "{u}"),
                // Only the user's function may break the contract, and it
                // is named with what it returned.
                Err(GridError::Utility { value, .. }) => {
                    prop_assert!(users);
                    prop_assert!(!(0.0..=1.0).contains(&returned));
                    prop_assert!(value.to_bits() == returned.to_bits());
                }
                Err(e) => return Err(TestCaseError::fail(e.to_string())),
            }
        }
    }
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(32))]

    /// The metrics of simulated runs on hostile settings are finite too.
    #[test]
    fn finite_named_of_simulated_runs(settings in settings(), seed in any::<u64>()) {
        if settings.check().is_err() {
            return Ok(());
        }
        let Ok(w) = settings.scenario().generate(seed) else { return Ok(()); };
        if let Ok(run) = simulate(&settings.grid(), &settings.scheduler, &w.machines, &w.jobs) {
            prop_assert!(metrics_of(&run)?.is_some());
        }
    }
}
