//! The registry of experiment kinds.
//!
//! A kind is a runner with its own typed parameter table (`[params]` in the
//! TOML). To add one (the paper issues add `adaptive`, `pricing`,
//! `provisioning`, `utility`):
//!
//! 1. write a module with a unit struct implementing [`Kind`]: its `NAME`,
//!    its `Params` (serde, `deny_unknown_fields`), the `METRICS` one run
//!    reports, the series it plots, and `run`, which simulates one [`Cell`];
//! 2. add `entry::<YourKind>()` to [`KINDS`].
//!
//! Everything else (workloads, sweeps, repetitions, parallelism,
//! aggregation, figures, claims) is shared.

use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::config::{Experiment, Spec};
use crate::run::RunError;
use crate::workload::Workload;

/// A metric one run reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Metric {
    /// Name used by `[[panels]] metric = ...`.
    pub name: &'static str,
    /// Description, the default panel title.
    pub title: &'static str,
    /// Default y-axis label, with unit.
    pub y_label: &'static str,
}

/// One independent simulation: one x value, one series, one repetition.
// `x` and `seed` are for kinds with numeric axes or randomness (the paper kinds).
#[allow(dead_code)]
pub(crate) struct Cell<'a> {
    /// With the `workload` axis, the single workload at this x; otherwise
    /// every workload of the experiment, prepared for this x and repetition.
    pub workloads: &'a [Arc<Workload>],
    /// The numeric x value (`None` on the categorical workload axis).
    pub x: Option<f64>,
    /// The sweep axis `x` belongs to (`workload`, `load` or one of the
    /// kind's `AXES`), for kinds with several numeric axes.
    pub axis: &'a str,
    /// Index into the kind's series.
    pub series: usize,
    /// The repetition's derived seed (identical across series).
    pub seed: u64,
}

impl Cell<'_> {
    /// The only workload of this cell, for kinds that simulate one machine.
    pub fn workload(&self) -> Result<&Workload, RunError> {
        match self.workloads {
            [w] => Ok(w),
            _ => Err(RunError::Kind {
                message: format!(
                    "this kind simulates one workload per point, got {}",
                    self.workloads.len()
                ),
            }),
        }
    }
}

/// A runner with typed parameters.
pub(crate) trait Kind: 'static {
    /// The `kind = "..."` value.
    const NAME: &'static str;
    /// What one run reports, in the order `run` returns values.
    const METRICS: &'static [Metric];
    /// Numeric sweep axes of this kind besides the generic `load`.
    const AXES: &'static [&'static str] = &[];
    /// The `[params]` table.
    type Params: DeserializeOwned + Serialize + Send + Sync + 'static;

    /// Legend entries, in order.
    fn series(params: &Self::Params) -> Vec<String>;

    /// Kind-specific checks of the whole experiment.
    fn check(_params: &Self::Params, _experiment: &Experiment) -> Result<(), String> {
        Ok(())
    }

    /// Simulates one cell; one value per entry of `METRICS`.
    fn run(params: &Self::Params, cell: &Cell<'_>) -> Result<Vec<f64>, RunError>;

    /// Simulates one cell and returns, per entry of `METRICS`, the
    /// independent samples the point averages: by default the single value
    /// of [`Kind::run`]. A kind that measures several independent units
    /// itself (the intervals of a split trace, say) returns one sample per
    /// unit; the point's mean and confidence interval are then taken over
    /// every sample of every repetition, and `runs` counts the samples.
    fn run_samples(params: &Self::Params, cell: &Cell<'_>) -> Result<Vec<Vec<f64>>, RunError> {
        Ok(Self::run(params, cell)?
            .into_iter()
            .map(|v| vec![v])
            .collect())
    }

    /// Lines for `summary.md` about the prepared workloads (first x and
    /// repetition), such as the statistics a paper reports; none by default.
    fn notes(_params: &Self::Params, _workloads: &[Arc<Workload>]) -> Vec<String> {
        Vec::new()
    }
}

/// A kind's parameters with the kind's behaviour, type-erased.
pub(crate) trait DynParams: Send + Sync {
    fn series(&self) -> Vec<String>;
    fn metrics(&self) -> &'static [Metric];
    fn axes(&self) -> &'static [&'static str];
    fn check(&self, experiment: &Experiment) -> Result<(), String>;
    fn run(&self, cell: &Cell<'_>) -> Result<Vec<Vec<f64>>, RunError>;
    fn notes(&self, workloads: &[Arc<Workload>]) -> Vec<String>;
    fn to_toml(&self) -> toml::Value;
}

struct Typed<K: Kind>(K::Params);

impl<K: Kind> DynParams for Typed<K> {
    fn series(&self) -> Vec<String> {
        K::series(&self.0)
    }
    fn metrics(&self) -> &'static [Metric] {
        K::METRICS
    }
    fn axes(&self) -> &'static [&'static str] {
        K::AXES
    }
    fn check(&self, experiment: &Experiment) -> Result<(), String> {
        let names = K::series(&self.0);
        if let Some((_, dup)) = names
            .iter()
            .enumerate()
            .find(|(i, n)| names[..*i].contains(n))
        {
            return Err(format!("series '{dup}' is listed twice in [params]"));
        }
        K::check(&self.0, experiment)
    }
    fn run(&self, cell: &Cell<'_>) -> Result<Vec<Vec<f64>>, RunError> {
        let values = K::run_samples(&self.0, cell)?;
        if values.len() != K::METRICS.len() {
            return Err(RunError::Kind {
                message: format!(
                    "kind '{}' returned {} values for {} metrics",
                    K::NAME,
                    values.len(),
                    K::METRICS.len()
                ),
            });
        }
        Ok(values)
    }
    fn notes(&self, workloads: &[Arc<Workload>]) -> Vec<String> {
        K::notes(&self.0, workloads)
    }
    fn to_toml(&self) -> toml::Value {
        toml::Value::try_from(&self.0)
            .unwrap_or_else(|e| toml::Value::String(format!("cannot serialise: {e}")))
    }
}

/// A parsed document with type-erased parameters.
pub(crate) type ErasedSpec = Spec<Box<dyn DynParams>>;

/// A registered kind: its name and how to parse a document of that kind.
pub(crate) struct KindEntry {
    pub name: &'static str,
    pub parse: fn(&str) -> Result<ErasedSpec, toml::de::Error>,
}

fn parse_as<K: Kind>(text: &str) -> Result<ErasedSpec, toml::de::Error> {
    let spec: Spec<K::Params> = toml::from_str(text)?;
    Ok(spec.map_params(|p| Box::new(Typed::<K>(p)) as Box<dyn DynParams>))
}

impl Serialize for dyn DynParams {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_toml().serialize(serializer)
    }
}

const fn entry<K: Kind>() -> KindEntry {
    KindEntry {
        name: K::NAME,
        parse: parse_as::<K>,
    }
}

/// Every kind, by name.
pub(crate) const KINDS: &[KindEntry] = &[
    entry::<crate::backfilling::Backfilling>(),
    entry::<crate::adaptive::Adaptive>(),
    entry::<crate::pricing::Pricing>(),
    entry::<crate::provisioning::Provisioning>(),
    entry::<crate::utility::Utility>(),
];

pub(crate) fn lookup(name: &str) -> Option<&'static KindEntry> {
    KINDS.iter().find(|k| k.name == name)
}

/// The names of every registered kind.
pub fn names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name).collect()
}
