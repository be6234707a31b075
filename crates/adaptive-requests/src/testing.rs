//! The public invariant suite for a user's own [`RequestOrder`] and
//! [`Moldability`] (feature `testing`), in the shape of `profile::testing`
//! and the other paper crates' suites: [`check_order`] and
//! [`check_moldability`] for one run, and a [`Suite`] that runs them on
//! edge cases and on workloads drawn from the gate's fixed seed
//! (`profile::testing::sample_workloads` through [`Table1::requests`], the
//! same on every run), reporting the first broken invariant as a
//! [`Broken`] under one of the names of [`invariant`]:
//!
//! * [`invariant::DETERMINISTIC`]: two runs, each with fresh
//!   implementations from the closure, made different schedules (the
//!   detail names the first request whose outcome differs);
//! * [`invariant::VALID`]: the schedule fails [`validate`];
//! * [`invariant::KEEPS_THE_CONTRACT`]: a rank that depends on more than
//!   its arguments (asked again, or of a fresh order, for the same request
//!   it answers otherwise: [`Rescheduling::Full`](crate::Rescheduling)
//!   relies on it), an order whose [`RequestOrder::reschedules`] changes
//!   its answer, or an `f_mol` that answers otherwise for the same
//!   processor count;
//! * [`invariant::RUNS_TO_THE_END`]: a run failed with an error on a
//!   workload the built-in [`Fifo`] (or [`LinearFmol`]) runs.
//!
//! ```
//! use adaptive_requests::testing::Suite;
//! use adaptive_requests::{Moldability, Req, RequestOrder};
//! use profile::Time;
//!
//! /// Earliest deadline first, placing the waiting requests again.
//! struct Edf;
//!
//! impl RequestOrder for Edf {
//!     fn reschedules(&self) -> bool {
//!         true
//!     }
//!     fn rank<F: Moldability>(&self, _id: u64, submit: Time, req: &Req<F>) -> i64 {
//!         submit.saturating_add(req.deadline()).secs()
//!     }
//! }
//!
//! Suite::new(4).check_order(|| Edf)?;
//! // An f_mol of one's own for each request: perfect speed-up from R^max.
//! Suite::new(4).check_moldability(|req| {
//!     let (r_max, t_min) = (req.r_max(), req.t_min());
//!     move |r: u32| Some((t_min * i64::from(r_max) + i64::from(r) - 1) / i64::from(r))
//! })?;
//! # Ok::<(), profile::testing::Broken>(())
//! ```

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use profile::Time;
pub use profile::testing::{Broken, invariant};

use crate::{
    Fifo, LinearFmol, Moldability, PriceFunction, Req, Request, RequestOrder, RequestOutcome,
    RequestSeeds, SchedError, SchedulerConfig, Table1, Variant, schedule, validate,
};

type Slot = Rc<RefCell<Option<Broken>>>;

fn record(slot: &Slot, b: Broken) {
    let mut s = slot.borrow_mut();
    if s.is_none() {
        *s = Some(b);
    }
}

/// An order that records every rank and `reschedules` answer it gives.
struct WatchedOrder<O> {
    inner: O,
    reschedules: RefCell<Option<bool>>,
    ranks: Rc<RefCell<Vec<(u64, Time, i64)>>>,
    broken: Slot,
}

impl<O: RequestOrder> RequestOrder for WatchedOrder<O> {
    fn reschedules(&self) -> bool {
        let r = self.inner.reschedules();
        let mut first = self.reschedules.borrow_mut();
        match *first {
            Some(f) if f != r => record(
                &self.broken,
                Broken::new(
                    invariant::KEEPS_THE_CONTRACT,
                    format!(
                        "reschedules() answered {f}, then {r}; an order reschedules on every arrival or on none"
                    ),
                ),
            ),
            _ => *first = Some(r),
        }
        r
    }

    fn rank<F: Moldability>(&self, id: u64, submit: Time, req: &Req<F>) -> i64 {
        let rank = self.inner.rank(id, submit, req);
        let again = self.inner.rank(id, submit, req);
        if again != rank {
            record(
                &self.broken,
                Broken::new(
                    invariant::KEEPS_THE_CONTRACT,
                    format!(
                        "request {id} at {submit}: rank {rank}, then {again} asked again; a rank must not depend on anything but its arguments"
                    ),
                ),
            );
        }
        self.ranks.borrow_mut().push((id, submit, rank));
        rank
    }
}

/// An `f_mol` that records every answer it gives.
#[derive(Clone)]
struct WatchedFmol<F> {
    inner: F,
    id: u64,
    answers: Rc<RefCell<BTreeMap<u32, Option<i64>>>>,
    broken: Slot,
}

impl<F: Moldability> Moldability for WatchedFmol<F> {
    fn time_for(&self, procs: u32) -> Option<i64> {
        let t = self.inner.time_for(procs);
        let mut answers = self.answers.borrow_mut();
        match answers.get(&procs) {
            Some(&before) if before != t => record(
                &self.broken,
                Broken::new(
                    invariant::KEEPS_THE_CONTRACT,
                    format!(
                        "request {}: f_mol({procs}) answered {before:?}, then {t:?}; the usage time on a processor count is one answer",
                        self.id
                    ),
                ),
            ),
            _ => {
                answers.insert(procs, t);
            }
        }
        t
    }
}

type Run = Result<Vec<RequestOutcome>, SchedError>;

fn first_difference(requests_ids: &[u64], a: &Run, b: &Run) -> Option<String> {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            let k = a.iter().zip(b).position(|(x, y)| x != y)?;
            let id = requests_ids.get(k).copied().unwrap_or(a[k].id);
            Some(format!(
                "request {id}: run 1 {:?} paying {}, run 2 {:?} paying {}",
                a[k].placement, a[k].price, b[k].placement, b[k].price
            ))
        }
        (a, b) if a == b => None,
        (a, b) => Some(format!("run 1 {a:?}, run 2 {b:?}")),
    }
}

const FRESH: &str = "look for state kept between instances (a static), iteration over a HashMap or HashSet, or time and randomness";

fn with_policy<P, O>(base: &SchedulerConfig<P>, policy: O) -> SchedulerConfig<O> {
    SchedulerConfig {
        capacity: base.capacity,
        policy,
        price: base.price,
        budget: base.budget,
        fallback: base.fallback,
        rescheduling: base.rescheduling,
    }
}

/// Checks one run of the request orders `make` builds (it is called for
/// the run, for a second run, then once to rank every request again) on `requests` under `base`'s settings (its own
/// order is not used): every rank depends on its arguments alone, the
/// schedule passes [`validate`], a fresh order makes the same schedule, and
/// the run ends without an error unless [`Fifo`] fails on the same input
/// too (an input the scheduler refuses).
pub fn check_order<O: RequestOrder, P, F: Moldability + Clone>(
    make: impl Fn() -> O,
    base: &SchedulerConfig<P>,
    requests: &[Request<F>],
) -> Result<(), Broken> {
    let run = || {
        let ranks: Rc<RefCell<Vec<(u64, Time, i64)>>> = Rc::default();
        let slot: Slot = Rc::default();
        let order = WatchedOrder {
            inner: make(),
            reschedules: RefCell::new(None),
            ranks: ranks.clone(),
            broken: slot.clone(),
        };
        let outcomes = schedule(with_policy(base, order), requests);
        let broken = slot.borrow_mut().take();
        let ranks = ranks.borrow().clone();
        (outcomes, ranks, broken)
    };
    let (first, ranks, watched) = run();
    if let Some(b) = watched {
        return Err(b);
    }
    let (again, _, _) = run();
    let ids: Vec<u64> = requests.iter().map(|r| r.id).collect();
    if let Some(d) = first_difference(&ids, &first, &again) {
        return Err(Broken::new(
            invariant::DETERMINISTIC,
            format!("a fresh order made another schedule of the same requests ({d}); {FRESH}"),
        ));
    }
    // A fresh order ranks every request as the run's did.
    let fresh = make();
    for (r, &(id, submit, rank)) in requests.iter().zip(&ranks) {
        let again = fresh.rank(id, submit, &r.req);
        if again != rank {
            return Err(Broken::new(
                invariant::KEEPS_THE_CONTRACT,
                format!(
                    "request {id} at {submit}: rank {rank} in the run, {again} from a fresh order; a rank must not depend on anything but its arguments"
                ),
            ));
        }
    }
    match first {
        Ok(outcomes) => validate(base, requests, &outcomes)
            .map_err(|v| Broken::new(invariant::VALID, v.to_string())),
        Err(_) if schedule(with_policy(base, Fifo), requests).is_err() => Ok(()),
        Err(e) => Err(Broken::new(invariant::RUNS_TO_THE_END, e.to_string())),
    }
}

/// Checks one run of the moldability functions `make` builds for each of
/// `requests` (it is called for each request in each run; the request's
/// own [`LinearFmol`] gives its processor range, deadline, budget and
/// preemption) under `config`: every `f_mol` gives one answer per
/// processor count, the schedule passes [`validate`], fresh functions make
/// the same schedule, and the run ends without an error unless the
/// requests' own linear functions fail too. A request whose `f_mol`
/// [`Req::new`] refuses (no allowed shape in its range, say) is left out:
/// the crate refuses it with a typed error at build. ([`Suite::check_moldability`]
/// reports a function refused for every request of every workload: it
/// would pass having checked nothing.)
pub fn check_moldability<F: Moldability + Clone, O: RequestOrder + Clone>(
    make: impl Fn(&Req<LinearFmol>) -> F,
    config: &SchedulerConfig<O>,
    requests: &[Request<LinearFmol>],
) -> Result<(), Broken> {
    moldability_run(make, config, requests).map(|_| ())
}

/// [`check_moldability`], and how many of `requests` were built with the
/// user's function, with the first refusal.
fn moldability_run<F: Moldability + Clone, O: RequestOrder + Clone>(
    make: impl Fn(&Req<LinearFmol>) -> F,
    config: &SchedulerConfig<O>,
    requests: &[Request<LinearFmol>],
) -> Result<(usize, Option<String>), Broken> {
    let refused: RefCell<Option<String>> = RefCell::default();
    let build = |slot: &Slot| -> Vec<Request<WatchedFmol<F>>> {
        requests
            .iter()
            .filter_map(|r| {
                let f = WatchedFmol {
                    inner: make(&r.req),
                    id: r.id,
                    answers: Rc::default(),
                    broken: slot.clone(),
                };
                let req = &r.req;
                let built = Req::new(
                    req.r_min(),
                    req.r_max(),
                    f,
                    req.deadline(),
                    req.budget(),
                    req.preemption(),
                )
                .and_then(|q| q.with_price_profile(req.price_profile()))
                .map_err(|e| {
                    refused
                        .borrow_mut()
                        .get_or_insert_with(|| format!("request {}: {e}", r.id));
                })
                .ok()?;
                Some(Request {
                    id: r.id,
                    submit: r.submit,
                    req: built,
                })
            })
            .collect()
    };
    let run = || {
        let slot: Slot = Rc::default();
        let mine = build(&slot);
        let outcomes = schedule(config.clone(), &mine);
        let broken = slot.borrow_mut().take();
        (mine, outcomes, broken)
    };
    let (mine, first, watched) = run();
    if let Some(b) = watched {
        return Err(b);
    }
    let (_, again, _) = run();
    let ids: Vec<u64> = mine.iter().map(|r| r.id).collect();
    if let Some(d) = first_difference(&ids, &first, &again) {
        return Err(Broken::new(
            invariant::DETERMINISTIC,
            format!(
                "fresh moldability functions made another schedule of the same requests ({d}); {FRESH}"
            ),
        ));
    }
    match first {
        Ok(outcomes) => validate(config, &mine, &outcomes)
            .map_err(|v| Broken::new(invariant::VALID, v.to_string()))?,
        Err(_) if schedule(config.clone(), requests).is_err() => {}
        Err(e) => return Err(Broken::new(invariant::RUNS_TO_THE_END, e.to_string())),
    }
    Ok((mine.len(), refused.into_inner()))
}

/// The property suite for one request order or moldability function:
/// [`check_order`] or [`check_moldability`] on the workloads of
/// [`Suite::workloads`] on a 16-processor machine with Table 1's prices,
/// under every [`Fallback`](crate::Fallback) and
/// [`Rescheduling`](crate::Rescheduling) (a moldability function: under
/// FIFO and MDF). The first broken invariant is returned, its detail
/// prefixed with the workload it broke on.
#[derive(Clone, Debug)]
pub struct Suite {
    cases: u32,
    capacity: u32,
}

impl Suite {
    /// `cases` generated workloads of up to 20 requests on 16 processors
    /// (times the scale of a `cargo xtask explore`).
    pub fn new(cases: u32) -> Suite {
        Suite {
            cases,
            capacity: 16,
        }
    }

    /// The workloads the suite runs: the edge cases (no request; requests
    /// submitted at once, one as wide as the machine; a request that
    /// cannot meet its deadline), then `profile`'s generated workloads as
    /// Table 1 makes them requests, rigid and preemptive-moldable (every
    /// request long enough to split), alternately.
    pub fn workloads(&self) -> Vec<Vec<Request>> {
        let c = self.capacity;
        let job = |id, submit, procs, run| profile::Job::new(id, Time(submit), procs, run, run);
        let edges = [
            Vec::new(),
            vec![job(1, 0, c, 100), job(2, 0, 1, 50), job(3, 0, c / 2, 70)],
            vec![job(4, 0, c, 1000), job(5, 1, c, 1)],
        ];
        let table = Table1 {
            preemptive_min_run: 0,
            preemptive_share: 0.5,
            ..Table1::default()
        };
        let (seed, _) = profile::testing::seed_and_scale();
        let seeds = RequestSeeds {
            preemptive: seed,
            price_profile: seed.rotate_left(17),
        };
        let variants = [
            Variant::FIFO_RIGID,
            Variant {
                preemptive: true,
                moldable: true,
                ..Variant::FIFO_RIGID
            },
        ];
        let mut generated = profile::testing::sample_workloads(c, 20, self.cases);
        generated.extend(profile::testing::sample_bursts(
            c,
            profile::testing::BURST_JOBS,
            2,
        ));
        edges
            .iter()
            .chain(&generated)
            .enumerate()
            .filter_map(|(k, jobs)| {
                let v = variants[k % 2];
                table.requests(v, jobs, &PriceFunction::TABLE1, seeds).ok()
            })
            .collect()
    }

    fn configs(&self) -> Vec<SchedulerConfig<()>> {
        let mut all = Vec::new();
        for fallback in [crate::Fallback::Reject, crate::Fallback::Append] {
            for rescheduling in [crate::Rescheduling::Full, crate::Rescheduling::Incremental] {
                all.push(SchedulerConfig {
                    fallback,
                    rescheduling,
                    ..SchedulerConfig::new(self.capacity, ())
                });
            }
        }
        all
    }

    fn each(&self, check: impl FnMut(&[Request]) -> Result<(), Broken>) -> Result<(), Broken> {
        profile::testing::check_each(&self.workloads(), "requests", check)
    }

    /// [`check_order`] on every workload and configuration.
    pub fn check_order<O: RequestOrder>(&self, make: impl Fn() -> O) -> Result<(), Broken> {
        let configs = self.configs();
        self.each(|requests| {
            configs
                .iter()
                .try_for_each(|base| check_order(&make, base, requests))
        })
    }

    /// [`check_moldability`] on every workload, under [`Fifo`] and
    /// [`Mdf`](crate::Mdf).
    pub fn check_moldability<F: Moldability + Clone>(
        &self,
        make: impl Fn(&Req<LinearFmol>) -> F,
    ) -> Result<(), Broken> {
        let fifo = SchedulerConfig::new(self.capacity, crate::Policy::Fifo);
        let mdf = SchedulerConfig::new(self.capacity, crate::Policy::Mdf);
        let (mut built, mut asked, mut refused) = (0, 0, None);
        self.each(|requests| {
            moldability_run(&make, &fifo, requests)?;
            let (n, first) = moldability_run(&make, &mdf, requests)?;
            built += n;
            asked += requests.len();
            refused = refused.take().or(first);
            Ok(())
        })?;
        match refused {
            Some(first) if built == 0 => Err(Broken::new(
                invariant::KEEPS_THE_CONTRACT,
                format!(
                    "Req::new refused the function for every one of the suite's {asked} requests, so nothing was checked (the first: {first}); a moldability function gives a time in [1, 2^40] s for at least one allowed processor count of a request's range"
                ),
            )),
            _ => Ok(()),
        }
    }
}
