//! A check of a kind's [`Kind::canonical`] against its runs: what it resets
//! must be what a run never reads, or two different runs share one result
//! without a word. Identities alone cannot show it; running both can.

use std::fmt;

use super::{Input, Kind, Schedule};
use crate::error::RunError;

/// A parameter [`Kind::canonical`] changed: its dotted key within
/// `[params]`, its value as written and its canonical value (TOML text;
/// `absent` for a key one side does not have).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamReset {
    /// The key, dotted for nested tables (`table1.sp_parts`).
    pub key: String,
    /// The value as written.
    pub value: String,
    /// The value after [`Kind::canonical`].
    pub canonical: String,
}

impl fmt::Display for ParamReset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = {} (canonical {})",
            self.key, self.value, self.canonical
        )
    }
}

/// Why [`check_canonical`] failed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CanonicalError {
    /// The parameters as written and the canonical ones, which the pipeline
    /// takes for one run, measure different samples or make different
    /// schedules: [`Kind::canonical`] resets a parameter the run reads.
    Differs {
        /// The kind's [`Kind::NAME`].
        kind: &'static str,
        /// `"the run"`, or `"the reference run"` (the run
        /// [`Kind::reference`] names).
        run: &'static str,
        /// Every parameter [`Kind::canonical`] changed in that run.
        resets: Vec<ParamReset>,
        /// The first difference: the sample and metric, or the schedule.
        difference: String,
    },
    /// A run failed, so nothing could be compared.
    Run {
        /// The kind's [`Kind::NAME`].
        kind: &'static str,
        /// Which run, and with which parameters.
        run: String,
        /// What the kind said.
        error: Box<RunError>,
    },
    /// The parameters or the overrides [`Kind::reference`] returns do not
    /// make the kind's `Params`.
    Params {
        /// The kind's [`Kind::NAME`].
        kind: &'static str,
        /// What failed.
        message: String,
    },
}

impl fmt::Display for CanonicalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CanonicalError::Differs {
                kind,
                run,
                resets,
                difference,
            } => {
                let resets: Vec<String> = resets.iter().map(ParamReset::to_string).collect();
                write!(
                    f,
                    "kind '{kind}': Kind::canonical resets a parameter {run} reads: with {} \
                     as written and as canonical, {difference}; keep every parameter the run \
                     reads in canonical (the pipeline runs the two once, sharing one result)",
                    resets.join(", ")
                )
            }
            CanonicalError::Run { kind, run, error } => {
                write!(f, "kind '{kind}': {run} failed: {error}")
            }
            CanonicalError::Params { kind, message } => write!(f, "kind '{kind}': {message}"),
        }
    }
}

impl std::error::Error for CanonicalError {}

/// Checks [`Kind::canonical`] of kind `K` at `params` on `input`: runs `K`
/// with `params` as written and with `params` after `canonical`, and
/// fails if their samples differ in any metric of [`Kind::METRICS`]
/// (compared bit for bit; a NaN equals a NaN, a missing value only a
/// missing value), in their number, or if their [`Kind::schedule`]s
/// differ. The pipeline takes runs with equal canonical parameters for one
/// and runs it once, so such a difference is a result shared by two runs
/// that are not the same simulation. Call it from your kind's tests with
/// parameters that `canonical` changes; parameters it leaves as they are
/// pass without a run.
///
/// If [`Kind::reference`] names a run, that run is made first (its
/// overrides written over `params`, as the pipeline writes them over the
/// point's parameters), checked the same way, and its samples handed to
/// both runs.
///
/// ```
/// use experiments::{CanonicalError, Input, Kind, Metric, Policies, RunError, check_canonical};
/// use serde::{Deserialize, Serialize};
///
/// /// Measures `base + bonus`; `canonical` wrongly resets `bonus`.
/// struct Sum;
///
/// #[derive(Clone, Default, Serialize, Deserialize)]
/// #[serde(deny_unknown_fields, default)]
/// struct Params { base: f64, bonus: f64 }
///
/// impl Kind for Sum {
///     const NAME: &'static str = "sum";
///     type Params = Params;
///     type Sample = f64;
///     const METRICS: &'static [Metric<f64>] =
///         &[Metric::new("total", "Total", "total", |t| Some(*t))];
///     fn series(_: &str) -> Result<toml::Table, String> { Ok(toml::Table::new()) }
///     fn canonical(p: &mut Params) { p.bonus = 0.0 }
///     fn run(p: &Params, _: &Input<'_>, _: Option<&[f64]>) -> Result<Vec<f64>, RunError> {
///         Ok(vec![p.base + p.bonus])
///     }
/// }
///
/// let policies = Policies::default();
/// let input = Input::new(&[], 1, &policies);
/// let err = check_canonical::<Sum>(&Params { base: 1.0, bonus: 2.0 }, &input).unwrap_err();
/// assert!(matches!(err, CanonicalError::Differs { .. }));
/// assert!(err.to_string().contains("bonus = 2.0 (canonical 0.0)"), "{err}");
/// assert!(err.to_string().contains("metric 'total' of sample 1 is 3"), "{err}");
/// ```
pub fn check_canonical<K: Kind>(
    params: &K::Params,
    input: &Input<'_>,
) -> Result<(), CanonicalError> {
    let reference = match K::reference(params) {
        Some(overrides) => {
            let mut table = table::<K>(params, "the parameters")?;
            merge(&mut table, &overrides);
            let reference: K::Params =
                toml::Value::Table(table)
                    .try_into()
                    .map_err(|e: toml::de::Error| CanonicalError::Params {
                        kind: K::NAME,
                        message: format!(
                            "the overrides of Kind::reference do not make its parameters: {}",
                            e.message().trim()
                        ),
                    })?;
            Some(compare::<K>(&reference, input, None, "the reference run")?)
        }
        None => None,
    };
    compare::<K>(params, input, reference.as_deref(), "the run")?;
    Ok(())
}

/// Runs `params` and its canonical form with `reference`, and returns the
/// samples of `params` if the two agree.
fn compare<K: Kind>(
    params: &K::Params,
    input: &Input<'_>,
    reference: Option<&[K::Sample]>,
    run: &'static str,
) -> Result<Vec<K::Sample>, CanonicalError> {
    let mut canonical = params.clone();
    K::canonical(&mut canonical);
    let written = table::<K>(params, "the parameters")?;
    let resets = resets(
        &written,
        &table::<K>(&canonical, "the canonical parameters")?,
    );
    let go = |p: &K::Params, which: &str| {
        K::run(p, input, reference).map_err(|error| CanonicalError::Run {
            kind: K::NAME,
            run: format!("{run} with the {which} parameters"),
            error: Box::new(error),
        })
    };
    let samples = go(params, "written")?;
    if resets.is_empty() {
        return Ok(samples);
    }
    let differs = |difference: String| CanonicalError::Differs {
        kind: K::NAME,
        run,
        resets: resets.clone(),
        difference,
    };
    if let Some(d) = samples_difference::<K>(&samples, &go(&canonical, "canonical")?) {
        return Err(differs(d));
    }
    let schedule = |p: &K::Params, which: &str| {
        K::schedule(p, input).map_err(|error| CanonicalError::Run {
            kind: K::NAME,
            run: format!("the schedule of {run} with the {which} parameters"),
            error: Box::new(error),
        })
    };
    let (a, b) = (
        schedule(params, "written")?,
        schedule(&canonical, "canonical")?,
    );
    if let Some(d) = schedule_difference(a.as_ref(), b.as_ref()) {
        return Err(differs(d));
    }
    Ok(samples)
}

/// `overrides` written over `table`, nested tables key by key (as the
/// pipeline writes a reference's overrides over a point's parameters).
fn merge(table: &mut toml::Table, overrides: &toml::Table) {
    for (k, v) in overrides {
        match (table.get_mut(k), v) {
            (Some(toml::Value::Table(t)), toml::Value::Table(o)) => merge(t, o),
            _ => {
                table.insert(k.clone(), v.clone());
            }
        }
    }
}

fn table<K: Kind>(params: &K::Params, what: &str) -> Result<toml::Table, CanonicalError> {
    toml::Table::try_from(params).map_err(|e| CanonicalError::Params {
        kind: K::NAME,
        message: format!("{what} are not a TOML table: {e}"),
    })
}

/// Every key whose value differs between `written` and `canonical`, dotted.
fn resets(written: &toml::Table, canonical: &toml::Table) -> Vec<ParamReset> {
    fn walk(prefix: &str, a: &toml::Table, b: &toml::Table, out: &mut Vec<ParamReset>) {
        let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        for key in keys {
            let dotted = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            match (a.get(key), b.get(key)) {
                (Some(toml::Value::Table(x)), Some(toml::Value::Table(y))) => {
                    walk(&dotted, x, y, out);
                }
                (x, y) if x != y => {
                    let shown = |v: Option<&toml::Value>| {
                        v.map_or_else(|| "absent".to_string(), toml::Value::to_string)
                    };
                    out.push(ParamReset {
                        key: dotted,
                        value: shown(x),
                        canonical: shown(y),
                    });
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk("", written, canonical, &mut out);
    out
}

/// The first difference between the samples of the written parameters
/// (`a`) and the canonical ones (`b`), metric by metric.
fn samples_difference<K: Kind>(a: &[K::Sample], b: &[K::Sample]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!(
            "the run measures {} sample(s) as written, {} as canonical",
            a.len(),
            b.len()
        ));
    }
    let same = |x: Option<f64>, y: Option<f64>| match (x, y) {
        (Some(x), Some(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        (None, None) => true,
        _ => false,
    };
    let shown = |v: Option<f64>| v.map_or_else(|| "no value".to_string(), |v| format!("{v:?}"));
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        for m in K::METRICS {
            let (vx, vy) = ((m.value)(x), (m.value)(y));
            if !same(vx, vy) {
                return Some(format!(
                    "metric '{}' of sample {} is {} as written, {} as canonical",
                    m.name,
                    i + 1,
                    shown(vx),
                    shown(vy)
                ));
            }
        }
    }
    None
}

/// The first difference between two runs' schedules, if any.
fn schedule_difference(a: Option<&Schedule>, b: Option<&Schedule>) -> Option<String> {
    let (a, b) = match (a, b) {
        (None, None) => return None,
        (Some(a), Some(b)) => (a, b),
        (a, _) => {
            let has = |yes: bool| if yes { "a schedule" } else { "none" };
            return Some(format!(
                "the run gives {} as written, {} as canonical",
                has(a.is_some()),
                has(a.is_none())
            ));
        }
    };
    let sizes = |s: &Schedule| (s.jobs.len(), s.outcomes.len());
    if a.policy != b.policy || a.capacity != b.capacity || sizes(a) != sizes(b) {
        return Some(format!(
            "the schedule is of policy '{}' on {} processors with {:?} (jobs, outcomes) as \
             written, of '{}' on {} with {:?} as canonical",
            a.policy,
            a.capacity,
            sizes(a),
            b.policy,
            b.capacity,
            sizes(b)
        ));
    }
    let at = (0..a.jobs.len().min(a.outcomes.len()))
        .find(|&i| a.jobs[i] != b.jobs[i] || a.outcomes[i] != b.outcomes[i]);
    at.map(|i| {
        format!(
            "the schedule differs at job {} ({:?} as written, {:?} as canonical)",
            a.jobs[i].id, a.outcomes[i], b.outcomes[i]
        )
    })
}
