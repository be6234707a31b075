//! The checks one workload's configuration passes before anything is
//! prepared: a `[[workloads]]` entry as written, and every variant a
//! sweep, a grid, a `with` key or a series' override makes of one, so a
//! value that arrives by a sweep is held to what the same value written
//! in the entry is.

use swf_io::Estimate;

use crate::config::{Transform, WorkloadSpec};

/// What is wrong with a workload's configuration, and where.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fault {
    /// The keys inside the entry that hold the value at fault
    /// (`["lublin99", "load"]`, `["transforms", "1"]`); empty for the
    /// entry as a whole.
    pub(crate) field: Vec<String>,
    /// What is wrong, without the workload's name.
    pub(crate) message: String,
}

fn fault(field: &[&str], message: String) -> Fault {
    Fault {
        field: field.iter().map(|k| k.to_string()).collect(),
        message,
    }
}

/// Checks `w`: exactly one source; a Lublin99 machine and job count in
/// range and its arrivals well formed; the transforms; an under-estimate
/// fraction in `[0, 1)`; a machine size (`procs`) only for a trace, in
/// range. The first fault found.
pub(crate) fn check(w: &WorkloadSpec) -> Result<(), Fault> {
    let sources = [
        w.trace.is_some(),
        w.lublin99.is_some(),
        w.generated_by_kind.is_some(),
    ];
    if sources.iter().filter(|s| **s).count() != 1 {
        return Err(fault(
            &[],
            "give exactly one of `trace` or `lublin99` (or `generated_by_kind` for a kind that \
             makes its own jobs)"
                .into(),
        ));
    }
    if let Some(g) = &w.lublin99 {
        if g.procs > swf_io::MAX_PROCS {
            return Err(fault(
                &["lublin99", "procs"],
                format!(
                    "lublin99 `procs` is {}, expected 1 to {} processors",
                    g.procs,
                    swf_io::MAX_PROCS
                ),
            ));
        }
        if g.procs == 0 || g.jobs == 0 {
            return Err(fault(
                &["lublin99", if g.procs == 0 { "procs" } else { "jobs" }],
                format!(
                    "lublin99 needs procs and jobs of at least 1, got {} and {}",
                    g.procs, g.jobs
                ),
            ));
        }
        if let Err(m) = g.arrivals() {
            let field: &[&str] = match (g.load, g.arrival_rate) {
                (Some(_), None) => &["lublin99", "load"],
                (None, Some(_)) => &["lublin99", "arrival_rate"],
                _ => &["lublin99"],
            };
            return Err(fault(field, m));
        }
    }
    Transform::check_each(&w.transforms)
        .map_err(|(i, m)| fault(&["transforms", &i.to_string()], m))?;
    if let Estimate::UnderEstimate(f) = w.estimate
        && !(f.is_finite() && (0.0..1.0).contains(&f))
    {
        return Err(fault(
            &["estimate"],
            format!(
                "under_estimate is {}, expected a fraction in [0, 1)",
                profile::ShortFloat(f)
            ),
        ));
    }
    if let Some(p) = w.procs {
        if w.trace.is_none() {
            return Err(fault(
                &["procs"],
                "`procs` sets the machine of a trace; a lublin99 workload has its own `procs` \
                 (and a kind's generated one its [params]); remove it"
                    .into(),
            ));
        }
        if !(1..=swf_io::MAX_PROCS).contains(&p) {
            return Err(fault(
                &["procs"],
                format!(
                    "`procs` is {p}, expected 1 to {} processors",
                    swf_io::MAX_PROCS
                ),
            ));
        }
    }
    Ok(())
}
