//! The public invariant suite for a user's own [`UtilityFunction`]
//! (feature `testing`), in the shape of `profile::testing` and the other
//! paper crates' suites: [`check_utility`] for one run, and a [`Suite`]
//! that runs it on edge cases and on grids drawn from the gate's fixed
//! seed (the same on every run), reporting the first broken invariant as a
//! [`Broken`] under one of the names of [`invariant`]:
//!
//! * [`invariant::DETERMINISTIC`]: two runs, each with a fresh function
//!   from the closure, made different runs (the detail names the first job
//!   whose record differs);
//! * [`invariant::VALID`]: the run fails [`validate`];
//! * [`invariant::KEEPS_THE_CONTRACT`]: a utility outside `[0, 1]` (or
//!   NaN), which the simulation refuses as [`GridError::Utility`]: the
//!   suite names it as the function's; or two utilities for the same
//!   requirements and resource within one run (the trait's utility is
//!   that of a job with these requirements on this resource: the run
//!   reads it when it decides and again when it measures, and the two
//!   must agree). The suite asks every question twice in a row, so an
//!   answer that drifts with the calls made is caught on any grid, and
//!   remembers each answer for the rest of the run;
//! * [`invariant::RUNS_TO_THE_END`]: a run failed with an error on a grid
//!   the built-in [`PartialUtility`] runs.
//!
//! ```
//! use utility_match::testing::Suite;
//! use utility_match::{Attribute, Requirement, Resource, UtilityFunction, UtilityKind};
//!
//! /// Partial utility, but a resource without its OS named is worth nothing.
//! struct NamedOsOnly;
//!
//! impl UtilityFunction for NamedOsOnly {
//!     fn utility(&self, requirements: &[Requirement], resource: &Resource) -> f64 {
//!         match resource.get(&Attribute::Os) {
//!             Some(_) => UtilityKind::Partial.utility(requirements, resource),
//!             None => 0.0,
//!         }
//!     }
//! }
//!
//! Suite::new(4).check_utility(|| NamedOsOnly)?;
//! # Ok::<(), profile::testing::Broken>(())
//! ```

use std::cell::RefCell;
use std::collections::HashMap;

pub use profile::testing::{Broken, invariant};

use crate::{
    GridConfig, GridError, GridJob, GridRun, GridWorkload, PartialUtility, Requirement, Resource,
    Scenario, TieBreak, UtilityFunction, simulate, validate,
};

/// A utility function that records the first answer outside `[0, 1]`,
/// or the first that differs from an earlier one for the same inputs.
struct Watched<F> {
    inner: F,
    broken: RefCell<Option<Broken>>,
    /// Each answer so far, by its inputs (as `Debug` text: a requirement
    /// holds floats, so neither input is `Hash`).
    answers: RefCell<HashMap<String, u64>>,
}

impl<F: UtilityFunction> UtilityFunction for Watched<F> {
    fn utility(&self, requirements: &[Requirement], resource: &Resource) -> f64 {
        let u = self.inner.utility(requirements, resource);
        let mut slot = self.broken.borrow_mut();
        if slot.is_some() {
            return u;
        }
        if !(0.0..=1.0).contains(&u) {
            *slot = Some(Broken::new(
                invariant::KEEPS_THE_CONTRACT,
                format!(
                    "a utility of {u} for requirements {requirements:?} on {resource:?}; a utility is a number in [0, 1]"
                ),
            ));
            return u;
        }
        // Asked again at once: an answer that drifts with the calls made
        // (a counter, a cache that changes what it returns) shows here on
        // any grid, not only where a run happens to repeat a question.
        let again = self.inner.utility(requirements, resource);
        if again.to_bits() != u.to_bits() {
            *slot = Some(Broken::new(
                invariant::KEEPS_THE_CONTRACT,
                format!(
                    "a utility of {u}, then {again} when asked again at once, for requirements {requirements:?} on {resource:?}; a utility is a function of the requirements and the resource (look for state kept between calls)"
                ),
            ));
            return u;
        }
        let key = format!("{requirements:?} on {resource:?}");
        let earlier = *self.answers.borrow_mut().entry(key).or_insert(u.to_bits());
        if earlier != u.to_bits() {
            *slot = Some(Broken::new(
                invariant::KEEPS_THE_CONTRACT,
                format!(
                    "a utility of {u}, then {} earlier in the run, for requirements {requirements:?} on {resource:?}; a utility is a function of the requirements and the resource (look for state kept between calls)",
                    f64::from_bits(earlier)
                ),
            ));
        }
        u
    }
}

/// Checks one run of the utility functions `make` builds (it is called for
/// each run) on the grid `machines` under `config`: every utility lies in
/// `[0, 1]`, the run passes [`validate`], a fresh function makes the same
/// run, and the run ends without an error unless [`PartialUtility`] fails
/// on the same input too (an input the simulation refuses).
pub fn check_utility<F: UtilityFunction>(
    make: impl Fn() -> F,
    config: &GridConfig,
    machines: &[Vec<crate::Machine>],
    jobs: &[GridJob],
) -> Result<(), Broken> {
    let run = || {
        let f = Watched {
            inner: make(),
            broken: RefCell::new(None),
            answers: RefCell::new(HashMap::new()),
        };
        let run = simulate(config, &f, machines, jobs);
        (run, f.broken.into_inner())
    };
    let (first, watched) = run();
    if let Some(b) = watched {
        return Err(b);
    }
    let (again, _) = run();
    if first != again {
        return Err(Broken::new(
            invariant::DETERMINISTIC,
            format!(
                "a fresh utility function made another run of the same grid ({}); look for state kept between instances (a static), iteration over a HashMap or HashSet, or time and randomness",
                first_difference(&first, &again)
            ),
        ));
    }
    let run = match first {
        Ok(run) => run,
        Err(_) if simulate(config, &PartialUtility, machines, jobs).is_err() => return Ok(()),
        Err(e) => return Err(Broken::new(invariant::RUNS_TO_THE_END, e.to_string())),
    };
    validate(machines, jobs, &run, config.max_ttl)
        .map_err(|v| Broken::new(invariant::VALID, v.to_string()))
}

fn first_difference(a: &Result<GridRun, GridError>, b: &Result<GridRun, GridError>) -> String {
    match (a, b) {
        (Ok(a), Ok(b)) => match a.jobs.iter().zip(&b.jobs).find(|(x, y)| x != y) {
            Some((x, y)) => format!("job {}: run 1 {x:?}, run 2 {y:?}", x.id),
            None => "the same records, other totals".into(),
        },
        (a, b) => format!("run 1 {:?}, run 2 {:?}", a.as_ref().err(), b.as_ref().err()),
    }
}

/// The property suite for one utility function: [`check_utility`] on the
/// grids of [`Suite::workloads`], each under the default [`GridConfig`]
/// and under one that forwards nowhere, breaks ties in table order and
/// views remote sites by their summary. The first broken invariant is
/// returned, its detail prefixed with the grid it broke on.
#[derive(Clone, Debug)]
pub struct Suite {
    cases: u32,
}

impl Suite {
    /// `cases` generated grids (2 sites of 3 resources, 4 users of up to 6
    /// jobs; times the scale of a `cargo xtask explore`), after the edge
    /// cases.
    pub fn new(cases: u32) -> Suite {
        Suite { cases }
    }

    /// The grids the suite runs: the edge cases (one site of one resource;
    /// bounded queues of one job per core; jobs submitted at once), then
    /// `cases` grids of §4.2's scenario, small, each from a seed derived
    /// from the gate's fixed seed.
    pub fn workloads(&self) -> Vec<GridWorkload> {
        let small = Scenario {
            sites: 2,
            resources_per_site: 3,
            users: 4,
            jobs_per_user: 6,
            ..Scenario::paper()
        };
        let (seed, scale) = profile::testing::seed_and_scale();
        let edges = [
            Scenario {
                sites: 1,
                resources_per_site: 1,
                users: 2,
                jobs_per_user: 3,
                ..small.clone()
            },
            Scenario {
                jobs_per_core: Some(1),
                ..small.clone()
            },
            Scenario {
                mean_interarrival: 0.0,
                max_options: 1,
                ..small.clone()
            },
        ];
        let generated =
            (0..u64::from(self.cases.saturating_mul(scale))).map(|k| (small.clone(), k));
        edges
            .into_iter()
            .map(|s| (s, 0))
            .chain(generated)
            .filter_map(|(s, k)| s.generate(seed.wrapping_add(k)).ok())
            .collect()
    }

    /// [`check_utility`] on every grid and configuration.
    pub fn check_utility<F: UtilityFunction>(&self, make: impl Fn() -> F) -> Result<(), Broken> {
        let configs = [
            GridConfig::default(),
            GridConfig {
                max_ttl: 0,
                tie_break: TieBreak::TableOrder,
                remote_view: crate::RemoteView::Summary,
                ..GridConfig::default()
            },
        ];
        for (k, w) in self.workloads().iter().enumerate() {
            for config in &configs {
                check_utility(&make, config, &w.machines, &w.jobs).map_err(|b| {
                    b.within(format_args!("grid {} ({} jobs)", k + 1, w.jobs.len()))
                })?;
            }
        }
        Ok(())
    }
}
