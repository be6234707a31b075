//! The options of a [`Lublin99`] workload beyond the model: arrivals
//! rescaled to a load or a rate, estimate models, and `key=value` specs.

use super::Lublin99;
use crate::record::SwfRecord;
use profile::{MAX_DURATION, Time};

/// How a [`Lublin99`] workload's arrivals are paced.
///
/// The model's arrival process sets the offered load (about 0.6–0.8 of a
/// 128-node machine for the typeless fit, less on bigger machines). To
/// change it, the generated submit times are multiplied by one factor
/// around the first submission (the model authors' "scale the
/// inter-arrival times"; sizes, run times and the order of jobs are kept,
/// and so is the daily cycle's shape, stretched). `duration` bounds the
/// model's clock before rescaling; `max_jobs` is kept exactly.
///
/// With the `serde` feature a load or rate that is not a finite number
/// above 0 is not read (the `key=value` spec refuses it too); built in
/// code, such a value leaves the model's arrivals unscaled.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "serde", serde(try_from = "serde_raw::Arrivals"))]
pub enum Arrivals {
    /// The model's own arrivals, unscaled (the default).
    #[default]
    Model,
    /// Rescaled so the offered load, `Σ run time × size / (procs × span)`
    /// with `span` from the first to the last submission, is this value
    /// (finite and positive; 0.7 = 70 % of the machine).
    Load(f64),
    /// Rescaled so the mean arrival rate over the span is this many jobs
    /// per hour (finite and positive).
    Rate(f64),
}

/// The serde mirror of [`Arrivals`]: read as plain data, then checked as
/// the `key=value` spec checks it.
#[cfg(feature = "serde")]
mod serde_raw {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Arrivals {
        Model,
        Load(f64),
        Rate(f64),
    }

    impl TryFrom<Arrivals> for super::Arrivals {
        type Error = String;
        fn try_from(raw: Arrivals) -> Result<Self, String> {
            let positive = |name: &str, x: f64| {
                if x.is_finite() && x > 0.0 {
                    Ok(x)
                } else {
                    Err(format!("`{name}` is {x}, expected a finite number above 0"))
                }
            };
            Ok(match raw {
                Arrivals::Model => super::Arrivals::Model,
                Arrivals::Load(x) => super::Arrivals::Load(positive("load", x)?),
                Arrivals::Rate(x) => super::Arrivals::Rate(positive("rate", x)?),
            })
        }
    }
}

/// How a [`Lublin99`] workload's requested times (SWF field 9) are made.
/// The model describes demand only (no estimates); these models add them,
/// each from a ChaCha stream of its own, so the jobs themselves (arrival,
/// size, run time) are the same with or without estimates.
///
/// * `none` (the default): field 9 is -1, so a scheduler told to use the
///   requested time falls back to the run time ("requested" equals
///   "exact", and summaries say so).
/// * `f:F`, the f-model of Mu'alem and Feitelson (IEEE TPDS 12(6), 2001):
///   requested = ⌈run time × u⌉ with u uniform on [1, F], F ≥ 1 (F = 1 is
///   exact estimates written into the file).
/// * `modal:F`: the f-model's value rounded up to the next of a few round
///   values ([`MODAL_ESTIMATES`]: 1, 5, 10, 15, 20, 30 min, 1, 2, 4, 8, 12,
///   18, 24, 36, 48 h), at most 48 h (as a queue's limit caps what users
///   ask). Tsafrir, Etsion and Feitelson ("Modeling user
///   runtime estimates", JSSPP 2005) observed that estimates are modal, a
///   handful of round values covering most jobs; this is a simple model
///   of that observation, not their fitted model.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub enum Estimates {
    /// No requested times.
    #[default]
    None,
    /// The f-model with this F.
    Factor(f64),
    /// The f-model rounded up to the next round value.
    Modal(f64),
}

/// The round values, in seconds, `modal:F` estimates are rounded up to
/// (the last, 48 h, is above the model's longest run time, e^12 s ≈ 45 h).
pub const MODAL_ESTIMATES: [i64; 15] = [
    60, 300, 600, 900, 1200, 1800, 3600, 7200, 14_400, 28_800, 43_200, 64_800, 86_400, 129_600,
    172_800,
];

impl Estimates {
    /// Whether requested times are written.
    pub fn is_none(&self) -> bool {
        matches!(self, Estimates::None)
    }

    /// The requested time for a run time of `run` seconds from the uniform
    /// `u` on [0, 1).
    pub(super) fn requested(&self, run: i64, u: f64) -> Option<i64> {
        let f = match *self {
            Estimates::None => return None,
            Estimates::Factor(f) | Estimates::Modal(f) => f,
        };
        let run_f = run as f64;
        let est = ((run_f * (1.0 + u * (f - 1.0))).ceil() as i64)
            .max(run)
            .max(1);
        match self {
            Estimates::Modal(_) => Some(
                MODAL_ESTIMATES
                    .iter()
                    .copied()
                    .find(|&m| m >= est)
                    .unwrap_or(MODAL_ESTIMATES[MODAL_ESTIMATES.len() - 1].max(run)),
            ),
            _ => Some(est),
        }
    }
}

impl std::fmt::Display for Estimates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Estimates::None => f.write_str("none"),
            Estimates::Factor(x) => write!(f, "f:{x}"),
            Estimates::Modal(x) => write!(f, "modal:{x}"),
        }
    }
}

impl std::str::FromStr for Estimates {
    type Err = String;

    /// `none`, `f:F` or `modal:F`, F finite and at least 1.
    fn from_str(s: &str) -> Result<Estimates, String> {
        let expected = "expected `none`, `f:F` or `modal:F` with F >= 1 (e.g. `f:3`)";
        let factor = |v: &str| match v.trim().parse::<f64>() {
            Ok(f) if f.is_finite() && f >= 1.0 => Ok(f),
            _ => Err(format!("estimate model '{s}': F is '{v}', {expected}")),
        };
        match s.trim().split_once(':') {
            None if s.trim() == "none" => Ok(Estimates::None),
            Some(("f", v)) => factor(v).map(Estimates::Factor),
            Some(("modal", v)) => factor(v).map(Estimates::Modal),
            _ => Err(format!("unknown estimate model '{s}', {expected}")),
        }
    }
}

impl TryFrom<String> for Estimates {
    type Error = String;
    fn try_from(s: String) -> Result<Estimates, String> {
        s.parse()
    }
}

impl From<Estimates> for String {
    fn from(e: Estimates) -> String {
        e.to_string()
    }
}

/// Multiplies the submit times of `recs` around the first one so that
/// `arrivals` holds; unchanged for the model's arrivals, fewer than two
/// records, a zero span or no work to load the machine with.
pub(super) fn rescale(mut recs: Vec<SwfRecord>, arrivals: Arrivals, procs: u32) -> Vec<SwfRecord> {
    let submits = || recs.iter().filter_map(|r| r.submit);
    let (Some(first), Some(last)) = (submits().min(), submits().max()) else {
        return recs;
    };
    let span = (last - first) as f64;
    if recs.len() < 2 || span <= 0.0 {
        return recs;
    }
    let factor = match arrivals {
        Arrivals::Model => return recs,
        Arrivals::Load(target) => {
            let work: f64 = recs
                .iter()
                .map(|r| r.run_time.unwrap_or(0) as f64 * r.allocated_procs.unwrap_or(0) as f64)
                .sum();
            work / (f64::from(procs.max(1)) * span) / target
        }
        Arrivals::Rate(per_hour) => (recs.len() - 1) as f64 * 3600.0 / per_hour / span,
    };
    // An infinite factor (a subnormal load or rate: the quotient
    // overflows) is kept: it spreads every later submit time to the end of
    // `i64`, which `Lublin99::check_records` refuses naming the option,
    // where returning the records unchanged ran the model's arrivals as if
    // the option held.
    if factor.is_nan() || factor <= 0.0 {
        return recs;
    }
    for r in &mut recs {
        if let Some(s) = r.submit.as_mut() {
            // `as` saturates and so does the sum; rounding is monotone, so
            // the order is kept. Times past the simulator's range are
            // refused by `Lublin99::check_records`.
            *s = first.saturating_add(((*s - first) as f64 * factor).round() as i64);
        }
    }
    recs
}

impl Lublin99 {
    /// Checks that `records`, this model's output, can be replayed: every
    /// submit time at most [`Time::LIMIT`] (2^40 s) and every run and
    /// requested time at most [`MAX_DURATION`]. The model alone stays far
    /// inside; arrivals rescaled to a tiny load or rate, or an estimate
    /// factor in the millions, can push times out, and such records would
    /// be dropped as unreplayable. The error names the option to change.
    pub fn check_records(&self, records: &[SwfRecord]) -> Result<(), ParseSpecError> {
        let limit = Time::LIMIT.secs();
        let late = records.iter().filter_map(|r| r.submit).max().unwrap_or(0);
        if late > limit {
            let (option, change) = match self.arrivals {
                Arrivals::Load(l) => (format!("load {l:?}"), "a larger load"),
                Arrivals::Rate(r) => (format!("arrival rate {r:?} jobs per hour"), "a larger rate"),
                Arrivals::Model => ("the model's arrivals".to_owned(), "fewer jobs"),
            };
            return Err(ParseSpecError {
                message: format!(
                    "{option} spreads the {} jobs' submit times past the simulator's limit of \
                     {limit} s (2^40); give {change}",
                    records.len()
                ),
            });
        }
        let long = records
            .iter()
            .flat_map(|r| [r.run_time, r.requested_time])
            .flatten()
            .max()
            .unwrap_or(0);
        if long > MAX_DURATION {
            let model = match self.estimates {
                Estimates::Factor(f) => format!("f:{f:?}"),
                Estimates::Modal(f) => format!("modal:{f:?}"),
                Estimates::None => "none".to_owned(),
            };
            return Err(ParseSpecError {
                message: format!(
                    "estimate model {model} makes requested times past the simulator's limit \
                     of {MAX_DURATION} s (2^40); give a smaller factor"
                ),
            });
        }
        self.check_arrivals(records)
    }

    /// Checks that `records`, this model's output, have the load or
    /// arrival rate asked for (within 1%), as the rescaling computes it
    /// (work over processors × the span of submit times; jobs after the
    /// first per hour of that span). Submit times are whole seconds, so a
    /// load or rate too high for the jobs drawn puts arrivals together and
    /// misses it, and fewer than two jobs have no span to set: refused,
    /// where the file's header would claim the value.
    pub fn check_arrivals(&self, records: &[SwfRecord]) -> Result<(), ParseSpecError> {
        self.check_arrivals_of(records.iter().map(|r| {
            let work = r.run_time.unwrap_or(0) as f64 * r.allocated_procs.unwrap_or(0) as f64;
            (r.submit, work)
        }))
    }

    /// [`check_arrivals`](Self::check_arrivals) on each job's submit time
    /// and work (run time × processors), as the records give them.
    pub fn check_arrivals_of(
        &self,
        jobs: impl Iterator<Item = (Option<i64>, f64)>,
    ) -> Result<(), ParseSpecError> {
        let (option, target) = match self.arrivals {
            Arrivals::Model => return Ok(()),
            Arrivals::Load(l) => (format!("load {l:?}"), l),
            Arrivals::Rate(r) => (format!("arrival rate {r:?} jobs per hour"), r),
        };
        // One pass: the count, the first and last submit, and the work.
        let (mut n, mut first, mut last, mut work) = (0usize, i64::MAX, i64::MIN, 0.0f64);
        for (submit, job_work) in jobs {
            n += 1;
            if let Some(t) = submit {
                first = first.min(t);
                last = last.max(t);
            }
            work += job_work;
        }
        let span = if first <= last { last - first } else { 0 } as f64;
        let reached = match self.arrivals {
            _ if n < 2 => {
                return Err(ParseSpecError {
                    message: format!(
                        "{option} needs at least 2 jobs ({n} drawn): it is set by the span from \
                         the first arrival to the last; give more jobs, or leave it out"
                    ),
                });
            }
            Arrivals::Load(_) => work / (f64::from(self.procs.max(1)) * span),
            _ => (n - 1) as f64 * 3600.0 / span,
        };
        if (reached / target - 1.0).abs() > 0.01 {
            return Err(ParseSpecError {
                message: format!(
                    "{option} cannot be reached with these {} jobs: submit times are whole \
                     seconds, and rescaled to it they give {} (1% off or more); give more \
                     jobs, or a lower {}",
                    n,
                    if reached.is_finite() {
                        format!("{reached:.4}")
                    } else {
                        "every arrival in the same second".to_owned()
                    },
                    if matches!(self.arrivals, Arrivals::Load(_)) {
                        "load"
                    } else {
                        "rate"
                    }
                ),
            });
        }
        Ok(())
    }
}

/// A [`Lublin99`] setting written as `key=value` pairs, or a bad value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSpecError {
    /// What is wrong and what to give.
    pub message: String,
}

impl std::fmt::Display for ParseSpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseSpecError {}

impl std::str::FromStr for Lublin99 {
    type Err = ParseSpecError;

    /// `procs=128,jobs=10000,seed=1` with optional `two_class=false`
    /// (default true, the reference program's), `load=L` or
    /// `arrival_rate=R` (jobs per hour), `estimates=f:3`: the form
    /// `simulate --trace lublin99:...` takes. `procs` and `jobs` are
    /// required; `seed` defaults to 1.
    fn from_str(s: &str) -> Result<Lublin99, ParseSpecError> {
        let err = |message: String| ParseSpecError { message };
        let keys = "procs, jobs, seed, two_class, load, arrival_rate, estimates";
        let mut g = Lublin99 {
            seed: 1,
            two_class: true,
            ..Lublin99::default()
        };
        let (mut jobs, mut procs) = (None, None);
        let mut seen: Vec<&str> = Vec::new();
        for pair in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| err(format!("'{pair}' is not key=value; keys: {keys}")))?;
            // Blanks around a key or a value are not part of it, for both.
            let (k, v) = (k.trim(), v.trim());
            // `procs=128,...,procs=64`: which one was meant is unknown.
            if seen.contains(&k) {
                return Err(err(format!("{k} is given twice; give it once")));
            }
            seen.push(k);
            let bad = |what: &str| err(format!("{k} is '{v}', expected {what}"));
            let positive = || match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
                _ => Err(bad("a finite number above 0")),
            };
            match k {
                "procs" => {
                    procs = Some(
                        v.parse::<u32>()
                            .ok()
                            .filter(|&p| (1..=crate::MAX_PROCS).contains(&p))
                            .ok_or_else(|| {
                                bad(&format!(
                                    "a whole number of processors from 1 to {}",
                                    crate::MAX_PROCS
                                ))
                            })?,
                    )
                }
                "jobs" => {
                    jobs = Some(
                        v.parse::<usize>()
                            .ok()
                            .filter(|&n| n >= 1)
                            .ok_or_else(|| bad("an integer of at least 1"))?,
                    )
                }
                "seed" => g.seed = v.parse().map_err(|_| bad("an unsigned integer"))?,
                "two_class" => g.two_class = v.parse().map_err(|_| bad("true or false"))?,
                "load" => g.arrivals = Arrivals::Load(positive()?),
                "arrival_rate" => g.arrivals = Arrivals::Rate(positive()?),
                "estimates" => g.estimates = v.parse().map_err(err)?,
                other => return Err(err(format!("unknown key '{other}'; keys: {keys}"))),
            }
        }
        if seen.contains(&"load") && seen.contains(&"arrival_rate") {
            return Err(err("give `load` or `arrival_rate`, not both".into()));
        }
        g.procs = procs.ok_or_else(|| {
            err(format!(
                "procs is missing; e.g. procs=128,jobs=10000,seed=1 (keys: {keys})"
            ))
        })?;
        g.max_jobs = Some(jobs.ok_or_else(|| {
            err(format!(
                "jobs is missing; e.g. procs=128,jobs=10000,seed=1 (keys: {keys})"
            ))
        })?);
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> Lublin99 {
        s.parse().unwrap()
    }

    #[test]
    fn times_past_the_simulators_range_are_refused_naming_the_option() {
        for (extra, needle) in [
            ("load=1e-300", "load 1e-300 spreads"),
            (
                "arrival_rate=1e-300",
                "arrival rate 1e-300 jobs per hour spreads",
            ),
            ("estimates=f:1e300", "estimate model f:1e300 makes"),
        ] {
            let model = spec(&format!("procs=64,jobs=50,seed=1,{extra}"));
            let records = model.generate();
            let e = model.check_records(&records).unwrap_err().to_string();
            assert!(e.contains(needle), "{extra}: {e}");
            // No time wrapped around: every submit is kept in order.
            let submits: Vec<i64> = records.iter().filter_map(|r| r.submit).collect();
            assert!(submits.windows(2).all(|w| w[0] <= w[1]), "{extra}");
        }
        for ok in ["load=0.01", "arrival_rate=0.5", "estimates=f:1000", ""] {
            let model = spec(&format!("procs=64,jobs=50,seed=1,{ok}"));
            assert_eq!(model.check_records(&model.generate()), Ok(()), "{ok}");
        }
    }

    #[test]
    fn a_load_or_rate_the_jobs_cannot_have_is_refused() {
        for (extra, needle) in [
            (
                "jobs=10,load=1e300",
                "load 1e300 cannot be reached with these 10 jobs",
            ),
            (
                "jobs=10,arrival_rate=1e300",
                "arrival rate 1e300 jobs per hour cannot be reached",
            ),
            (
                "jobs=1,load=0.5",
                "load 0.5 needs at least 2 jobs (1 drawn)",
            ),
            (
                "jobs=1,arrival_rate=3",
                "arrival rate 3.0 jobs per hour needs at least 2 jobs",
            ),
        ] {
            let model = spec(&format!("procs=64,seed=1,{extra}"));
            let e = model
                .check_records(&model.generate())
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "{extra}: {e}");
        }
        // What is asked is what the jobs have.
        for ok in [
            "jobs=50,load=0.5",
            "jobs=50,arrival_rate=3",
            "jobs=5000,load=3",
        ] {
            let model = spec(&format!("procs=64,seed=1,{ok}"));
            assert_eq!(model.check_records(&model.generate()), Ok(()), "{ok}");
        }
    }

    #[test]
    fn estimates_add_field_9_and_change_nothing_else() {
        let plain = spec("procs=128,jobs=3000,seed=5");
        let with = Lublin99 {
            estimates: Estimates::Factor(3.0),
            ..plain.clone()
        };
        let (a, b) = (plain.generate(), with.generate());
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.requested_time, None);
            let (run, req) = (y.run_time.unwrap(), y.requested_time.unwrap());
            assert!(
                run <= req && req as f64 <= (run as f64 * 3.0).ceil(),
                "{run} {req}"
            );
            assert_eq!(
                SwfRecord {
                    requested_time: None,
                    ..*y
                },
                *x
            );
        }
        let modal = Lublin99 {
            estimates: Estimates::Modal(2.0),
            ..plain
        };
        for r in modal.generate() {
            let req = r.requested_time.unwrap();
            assert!(MODAL_ESTIMATES.contains(&req) && req >= r.run_time.unwrap());
        }
    }

    /// Σ run × size / (procs × span from first to last submission).
    fn offered_load(recs: &[SwfRecord], procs: u32) -> f64 {
        let work: f64 = recs
            .iter()
            .map(|r| (r.run_time.unwrap() * r.allocated_procs.unwrap()) as f64)
            .sum();
        let span = recs.last().unwrap().submit.unwrap() - recs[0].submit.unwrap();
        work / (f64::from(procs) * span as f64)
    }

    #[test]
    fn load_and_arrival_rate_rescale_the_arrivals() {
        for target in [0.3, 0.7, 1.2] {
            let recs = spec(&format!("procs=64,jobs=2000,seed=3,load={target}")).generate();
            assert_eq!(recs.len(), 2000);
            assert!(recs.windows(2).all(|w| w[0].submit <= w[1].submit));
            let load = offered_load(&recs, 64);
            assert!(
                (load / target - 1.0).abs() < 0.01,
                "load {load}, asked {target}"
            );
        }
        let recs = spec("procs=64,jobs=1001,seed=3,arrival_rate=20").generate();
        let span = recs.last().unwrap().submit.unwrap() - recs[0].submit.unwrap();
        assert!((span as f64 - 1000.0 * 180.0).abs() < 2.0, "span {span}");
        // Sizes and run times are the model's.
        let model = spec("procs=64,jobs=1001,seed=3").generate();
        assert!(
            model
                .iter()
                .zip(&recs)
                .all(|(a, b)| (a.run_time, a.allocated_procs) == (b.run_time, b.allocated_procs))
        );
    }

    #[test]
    fn specs_parse_or_say_what_to_give() {
        let g = spec("procs=128, jobs=10, seed=9, two_class=false, estimates=modal:2");
        assert_eq!(
            (g.procs, g.max_jobs, g.seed, g.two_class, g.estimates),
            (128, Some(10), 9, false, Estimates::Modal(2.0))
        );
        let err = |s: &str| s.parse::<Lublin99>().unwrap_err().message;
        assert!(err("jobs=10").contains("procs is missing"));
        assert!(err("procs=8,jobs=10,load=0").contains("load is '0'"));
        assert!(err("procs=8,jobs=10,load=1,arrival_rate=2").contains("not both"));
        // Blanks around keys and values alike, and the two arrival keys
        // known as keys, not as text (`load =1` was taken with the rate).
        assert_eq!(spec(" procs = 128 ,jobs= 10 ").procs, 128);
        assert!(err("procs=8,jobs=10,load =1,arrival_rate=2").contains("not both"));
        assert!(err("procs=8,jobs=10,arrival_rate =2, load= 1").contains("not both"));
        assert!(err("procs=8,jobs=10,estimates=f:0.5").contains("F >= 1"));
        assert!(err("procs=8,jobs=10,colour=red").contains("unknown key 'colour'"));
        assert_eq!(
            err("procs=8,jobs=10,seed=1,procs=64"),
            "procs is given twice; give it once"
        );
        assert!(err("procs=8,jobs=10, seed=1,seed=2").contains("seed is given twice"));
        for e in ["none", "f:3", "modal:1.5"] {
            assert_eq!(e.parse::<Estimates>().unwrap().to_string(), e);
        }
    }
}
