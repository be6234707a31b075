//! The checker every schedule of adaptive requests must pass.

use std::fmt;

use profile::{Job, Outcome, ShortFloat, Status, Time};

use crate::fmol::Moldability;
use crate::price::{Terms, within_budget};
use crate::sched::{Request, RequestOutcome, SchedulerConfig};
use crate::share::share_duration;

/// A way a schedule of adaptive requests breaks the machine's rules or a
/// request's SLA.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Violation {
    /// The numbers of requests and outcomes differ, or an outcome belongs to
    /// another request.
    Mismatch {
        /// Position of the first mismatch.
        index: usize,
    },
    /// Two requests carry the same id: an outcome is found by its
    /// request's id, so each request has its own.
    DuplicateId {
        /// The id both carry.
        id: u64,
        /// Position of the first request with it.
        first: usize,
        /// Position of the second request with it.
        second: usize,
    },
    /// More processors busy than the machine has (from `profile::validate`).
    Capacity {
        /// What the profile's validator found.
        violation: profile::Violation,
    },
    /// A (sub)request starts before the request was submitted.
    EarlyStart {
        /// The request.
        id: u64,
        /// When it starts.
        start: Time,
        /// When it was submitted.
        submit: Time,
    },
    /// The request completes after its deadline.
    Late {
        /// The request.
        id: u64,
        /// Its completion.
        completion: Time,
        /// Its deadline.
        due: Time,
    },
    /// The price is above the budget, or not what `ω` gives.
    Price {
        /// The request.
        id: u64,
        /// The price recorded.
        price: f64,
        /// What `ω` (and the budget rule) give for the placement.
        expected: f64,
        /// The budget.
        budget: f64,
    },
    /// A part uses a processor count the request does not allow (or for
    /// which its `f_mol` now gives no usage time in `[1, 2^40]` s).
    Shape {
        /// The request.
        id: u64,
        /// Which part.
        part: usize,
        /// Its processors.
        procs: u32,
    },
    /// A part's duration is not its share of `f_mol` at its `R`.
    Duration {
        /// The request.
        id: u64,
        /// Which part.
        part: usize,
        /// Its duration.
        duration: i64,
        /// Its share of `f_mol(R)`.
        expected: i64,
    },
    /// A part starts before the previous part of the same request ends.
    Overlap {
        /// The request.
        id: u64,
        /// Which part.
        part: usize,
    },
    /// The parts do not run the work from 0% to 100% in order, split only at
    /// multiples of `I`.
    Coverage {
        /// The request.
        id: u64,
        /// Which part.
        part: usize,
    },
    /// More parts than `N` allows (or a non-preemptive request split).
    TooManyParts {
        /// The request.
        id: u64,
        /// Parts used.
        parts: usize,
        /// Parts allowed.
        limit: usize,
    },
    /// With `M = false`, the parts use different processor counts.
    MoldedApart {
        /// The request.
        id: u64,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Mismatch { index } => {
                write!(
                    f,
                    "outcome {index} does not belong to request {index}; give one outcome per request, in order"
                )
            }
            Violation::DuplicateId { id, first, second } => write!(
                f,
                "requests at positions {first} and {second} both have id {id}; give every request its own id"
            ),
            Violation::Capacity { violation } => write!(f, "{violation}"),
            Violation::EarlyStart { id, start, submit } => {
                write!(
                    f,
                    "request {id} starts at {start}, before its submission at {submit}"
                )
            }
            Violation::Late {
                id,
                completion,
                due,
            } => {
                write!(
                    f,
                    "request {id} completes at {completion}, after its deadline {due}"
                )
            }
            Violation::Price {
                id,
                price,
                expected,
                budget,
            } => write!(
                f,
                "request {id} pays {}, but its placement is priced {} with a budget of {}",
                ShortFloat(*price),
                ShortFloat(*expected),
                ShortFloat(*budget)
            ),
            Violation::Shape { id, part, procs } => {
                write!(
                    f,
                    "request {id}, part {part}: {procs} processors is not an allowed shape"
                )
            }
            Violation::Duration {
                id,
                part,
                duration,
                expected,
            } => write!(
                f,
                "request {id}, part {part}: runs {duration} s, but its share of f_mol takes {expected} s"
            ),
            Violation::Overlap { id, part } => {
                write!(
                    f,
                    "request {id}, part {part}: starts before the previous part ends"
                )
            }
            Violation::Coverage { id, part } => write!(
                f,
                "request {id}, part {part}: the parts must run 0% to 100% of the work in order, split at multiples of I"
            ),
            Violation::TooManyParts { id, parts, limit } => {
                write!(
                    f,
                    "request {id} runs in {parts} parts, at most {limit} allowed"
                )
            }
            Violation::MoldedApart { id } => {
                write!(
                    f,
                    "request {id} has M = false but its parts use different processor counts"
                )
            }
        }
    }
}

impl std::error::Error for Violation {}

/// Checks a schedule: every request has its own id
/// ([`Violation::DuplicateId`]); one outcome per request, in order; no over-commitment of the machine (with
/// `profile::validate`, every part as a job), and for every accepted request:
/// parts in `R^min..=R^max` on shapes `f_mol` allows, each running its share
/// of `f_mol(R)`; parts in time order, never overlapping, covering the work
/// from 0% to 100% split only at multiples of `I`, at most `N` of them (one
/// if the request is not preemptive), one `R` if `M = false`; no start
/// before submission; completion by the deadline; the price recorded is `ω`
/// of the placement under the configured budget rule, and within the budget.
/// A rejected request pays nothing.
pub fn validate<F: Moldability, O>(
    config: &SchedulerConfig<O>,
    requests: &[Request<F>],
    outcomes: &[RequestOutcome],
) -> Result<(), Violation> {
    if requests.len() != outcomes.len() {
        return Err(Violation::Mismatch {
            index: requests.len().min(outcomes.len()),
        });
    }
    if let Some(profile::RepeatedId { id, first, second }) =
        profile::repeated_id(requests.iter().map(|r| r.id))
    {
        return Err(Violation::DuplicateId { id, first, second });
    }
    let tariff = config.tariff();
    let mut jobs = Vec::new();
    let mut outs = Vec::new();
    // The request each entry of `jobs` is a part of.
    let mut owner = Vec::new();
    for (index, (r, o)) in requests.iter().zip(outcomes).enumerate() {
        if r.id != o.id || r.submit != o.submit {
            return Err(Violation::Mismatch { index });
        }
        let id = r.id;
        let Some(p) = &o.placement else {
            if o.price != 0.0 {
                return Err(Violation::Price {
                    id,
                    price: o.price,
                    expected: 0.0,
                    budget: r.req.budget(),
                });
            }
            continue;
        };
        check_parts(r, p.parts())?;
        let terms = Terms::of(&r.req, r.submit);
        if p.start() < r.submit {
            return Err(Violation::EarlyStart {
                id,
                start: p.start(),
                submit: r.submit,
            });
        }
        if p.completion() > terms.due() {
            return Err(Violation::Late {
                id,
                completion: p.completion(),
                due: terms.due(),
            });
        }
        let expected = tariff.charged(&terms, p.completion(), p.proc_seconds());
        let same = (o.price - expected).abs() <= 1e-9 * expected.abs().max(1.0);
        if !same || !within_budget(o.price, terms.budget) {
            return Err(Violation::Price {
                id,
                price: o.price,
                expected,
                budget: terms.budget,
            });
        }
        for part in p.parts() {
            // A part may last 0 s; a profile job's estimate is at least
            // 1 s, and the run time (what validate checks) stays exact.
            // The parts of one request share its id, which
            // `profile::validate` refuses: each part is checked under its
            // position as id, and a violation names the request again.
            let position = jobs.len() as u64;
            owner.push(id);
            jobs.push(Job::new(
                position,
                r.submit,
                part.procs,
                part.duration.max(1),
                part.duration,
            ));
            outs.push(Outcome {
                id: position,
                start: part.start,
                end: part.end(),
                status: Status::Completed,
            });
        }
    }
    profile::validate(config.capacity, &jobs, &outs).map_err(|violation| Violation::Capacity {
        violation: violation.map_ids(|k| {
            let request = usize::try_from(k).ok().and_then(|k| owner.get(k));
            request.map_or(k, |&id| id)
        }),
    })
}

/// The structural rules on the parts of one accepted request.
fn check_parts<F: Moldability>(
    r: &Request<F>,
    parts: &[crate::place::Part],
) -> Result<(), Violation> {
    let id = r.id;
    let sp = r.req.preemption();
    let limit = sp.map_or(1, |s| s.part_limit());
    if parts.len() > limit {
        return Err(Violation::TooManyParts {
            id,
            parts: parts.len(),
            limit,
        });
    }
    let bounds = sp.map_or_else(|| vec![0, 100], |s| s.boundaries());
    let mut done = 0;
    let mut previous_end: Option<Time> = None;
    for (k, part) in parts.iter().enumerate() {
        let Some(time) = r.req.time_for(part.procs) else {
            return Err(Violation::Shape {
                id,
                part: k,
                procs: part.procs,
            });
        };
        if part.from != done || part.to <= part.from || !bounds.contains(&part.to) {
            return Err(Violation::Coverage { id, part: k });
        }
        done = part.to;
        // The shape's time is the user's `f_mol`'s answer now: one that is
        // no usage time makes the shape not an allowed one.
        let Ok(expected) = share_duration(time, part.from, part.to) else {
            return Err(Violation::Shape {
                id,
                part: k,
                procs: part.procs,
            });
        };
        if part.duration != expected {
            return Err(Violation::Duration {
                id,
                part: k,
                duration: part.duration,
                expected,
            });
        }
        if previous_end.is_some_and(|e| part.start < e) {
            return Err(Violation::Overlap { id, part: k });
        }
        previous_end = Some(part.end());
    }
    if done != 100 {
        return Err(Violation::Coverage {
            id,
            part: parts.len().saturating_sub(1),
        });
    }
    if sp.is_some_and(|s| !s.mold_each) && parts.iter().any(|q| q.procs != parts[0].procs) {
        return Err(Violation::MoldedApart { id });
    }
    Ok(())
}
