//! One paper's policy inside another's setting: Libra+$ pricing and
//! admission (Yeo & Buyya, the `pricing` crate) at the providers behind the
//! InterGrid gateway (Assunção & Buyya). `pricing` knows nothing of
//! gateways and `gateway` nothing of prices; they meet here, through
//! [`gateway::Provider`] and [`pricing::Admission`].

use std::collections::HashMap;

use gateway::{HoldId, Provider, Refusal, Report, SlotView};
use pricing::{
    Admission, Decision, JobContext, JobSpec, LibraAdmission, LibraDollar, NodeLoad, PriceFunction,
    Quote,
};
use profile::{FreeSlot, Job, MAX_DURATION, Time};

use crate::error::IntergridError;

/// How a provider prices and admits the grid jobs offered to it.
///
/// A grid job is a Libra job for the provider: `RE` is its estimate,
/// `PROC` its processors, `D` its deadline from now (or `deadline_factor ×
/// RE` for a job without one; at most 2^40 s, the longest duration pricing
/// takes) and `B` its budget, `budget_factor × RE ×
/// base_price` (what the job would pay on an idle node under the static
/// price, times the factor). The provider's processors are the nodes; a
/// node's committed time over `[now, now + D)` is read from the free time
/// slots the provider publishes, filling processors in index order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProviderPricing {
    /// Libra+$'s `α` (weight of the static price).
    pub alpha: f64,
    /// Libra+$'s `β` (weight of the utilisation price).
    pub beta: f64,
    /// `PBase`: price per second of processor time.
    pub base_price: f64,
    /// A grid job's budget in units of `RE × base_price`.
    pub budget_factor: f64,
    /// The deadline of a grid job without one, in units of its estimate.
    pub deadline_factor: f64,
}

impl ProviderPricing {
    /// Yeo & Buyya's `α = 1`, `β = 0.1`, a base price of 1, budgets of
    /// twice the static price and deadlines of four times the estimate.
    pub const PAPER: ProviderPricing = ProviderPricing {
        alpha: 1.0,
        beta: 0.1,
        base_price: 1.0,
        budget_factor: 2.0,
        deadline_factor: 4.0,
    };

    /// That every field is a finite number in its range: `alpha`, `beta`
    /// and `budget_factor` at least 0, `base_price` above 0 and
    /// `deadline_factor` at least 1 (a deadline no shorter than the
    /// estimate), and budgets that stay finite (`budget_factor × base_price
    /// × 2^40` is a number). The error names the first field that is not.
    pub fn check(&self) -> Result<(), IntergridError> {
        let at_least_0 = "a finite number of at least 0";
        let fields = [
            ("alpha", self.alpha, 0.0, at_least_0),
            ("beta", self.beta, 0.0, at_least_0),
            (
                "base_price",
                self.base_price,
                f64::MIN_POSITIVE,
                "a finite number above 0",
            ),
            ("budget_factor", self.budget_factor, 0.0, at_least_0),
            (
                "deadline_factor",
                self.deadline_factor,
                1.0,
                "a finite number of at least 1",
            ),
        ];
        if let Some((field, value, _, expected)) = fields
            .into_iter()
            .find(|&(_, v, lo, _)| !(v.is_finite() && v >= lo))
        {
            return Err(IntergridError::Pricing {
                field,
                value,
                expected,
            });
        }
        // The budget of the longest estimate must be a number too.
        if !(self.budget_factor * self.base_price * MAX_DURATION as f64).is_finite() {
            return Err(IntergridError::Pricing {
                field: "budget_factor",
                value: self.budget_factor,
                expected: "a budget_factor × base_price whose budget for an estimate of \
                           2^40 s is finite (at most about 1.6e296)",
            });
        }
        Ok(())
    }
}

/// A provider that admits grid jobs with a [`pricing::Admission`] rule and
/// a [`PriceFunction`] before handing them to the provider it wraps; a job
/// the rule rejects is refused with the rule's reason
/// ([`Refusal::Rejected`]), and so is one it accepts at a cost that is not
/// a finite number of at least 0. What accepted jobs pay is its revenue.
#[derive(Debug)]
pub struct Priced<P, A = LibraAdmission, F = LibraDollar> {
    inner: P,
    admission: A,
    price: F,
    pricing: ProviderPricing,
    revenue: f64,
    rejected: u64,
    holds: HashMap<HoldId, f64>,
}

impl<P: Provider> Priced<P> {
    /// `inner` under Libra+$ with `pricing`'s `α` and `β` and Algorithm 1;
    /// [`IntergridError::Pricing`] if `pricing` is not usable
    /// ([`ProviderPricing::check`]).
    pub fn libra_dollar(inner: P, pricing: ProviderPricing) -> Result<Self, IntergridError> {
        let price = LibraDollar {
            alpha: pricing.alpha,
            beta: pricing.beta,
        };
        Priced::new(inner, LibraAdmission, price, pricing)
    }
}

impl<P: Provider, A: Admission, F: PriceFunction> Priced<P, A, F> {
    /// `inner` admitting with `admission`, pricing with `price`, budgets
    /// and deadlines from `pricing`; [`IntergridError::Pricing`] naming the
    /// field if `pricing` is not usable ([`ProviderPricing::check`]: a NaN
    /// weight, say, would reject every job as too expensive, silently).
    pub fn new(
        inner: P,
        admission: A,
        price: F,
        pricing: ProviderPricing,
    ) -> Result<Self, IntergridError> {
        pricing.check()?;
        Ok(Priced {
            inner,
            admission,
            price,
            pricing,
            revenue: 0.0,
            rejected: 0,
            holds: HashMap::new(),
        })
    }

    /// What accepted grid jobs paid.
    pub fn revenue(&self) -> f64 {
        self.revenue
    }

    /// Grid jobs the admission rule rejected.
    pub fn rejected(&self) -> u64 {
        self.rejected
    }

    /// The wrapped provider.
    pub fn into_inner(self) -> P {
        self.inner
    }

    /// The rule's decision on `job` at `now`: its cost if accepted.
    fn decide(&mut self, now: Time, job: &Job) -> Result<f64, Refusal> {
        let p = self.pricing;
        let re = job.estimate.max(1);
        let deadline = job
            .deadline
            .map(|d| d - now)
            .filter(|&d| d > 0)
            .unwrap_or_else(|| ((re as f64) * p.deadline_factor).ceil() as i64)
            // A deadline past the longest duration pricing takes is none
            // within the time domain.
            .clamp(1, MAX_DURATION);
        let budget = p.budget_factor * re as f64 * p.base_price;
        let spec = JobSpec::new(re, job.procs, deadline, budget);
        // One node per processor: a provider past the pricing's limit is
        // refused before a snapshot of that many nodes is made.
        let capacity = self.inner.capacity();
        if usize::try_from(capacity).map_or(true, |c| c > pricing::MAX_NODES) {
            self.rejected += 1;
            return Err(Refusal::Rejected {
                job: job.id,
                reason: format!(
                    "libra+$ admission: the provider has {capacity} processors, more than the \
                     {} nodes pricing takes",
                    pricing::MAX_NODES
                ),
            });
        }
        let slots = self.inner.free_slots(now, now + deadline);
        let nodes = snapshot(capacity, &slots, now, deadline, re, p.base_price);
        let ctx = JobContext::new(job.id, now, &spec);
        let rejected = |reason: String| Refusal::Rejected {
            job: job.id,
            reason,
        };
        match self.admission.admit(&ctx, &nodes, &self.price) {
            // A rule of a user's own may price a job at anything: a cost
            // that is no finite number of at least 0 would make the
            // revenue NaN, infinite or negative, so the job is refused.
            Ok(Decision::Accept(a)) if !(a.cost.is_finite() && a.cost >= 0.0) => {
                self.rejected += 1;
                Err(rejected(format!(
                    "the admission rule accepted job {} at a cost of {}, not a finite number \
                     of at least 0",
                    job.id, a.cost
                )))
            }
            Ok(Decision::Accept(a)) => Ok(a.cost),
            Ok(Decision::Reject(r)) => {
                self.rejected += 1;
                Err(rejected(format!("libra+$ admission: {r}")))
            }
            Err(e) => {
                self.rejected += 1;
                Err(rejected(format!("libra+$ admission: {e}")))
            }
        }
    }
}

/// One [`NodeLoad`] per processor: processor `j` is busy at `t` when `j`
/// is at least the number of processors free at `t` (free processors are
/// the lowest-numbered), so its committed time in `[now, now + window)` is
/// the time it is busy there.
fn snapshot(
    capacity: u32,
    slots: &[FreeSlot],
    now: Time,
    window: i64,
    re: i64,
    base_price: f64,
) -> Vec<NodeLoad> {
    let end = now + window;
    // Free processors at each instant: the widest slot covering it (the
    // slots are maximal free rectangles, so they overlap; their sum would
    // count a processor once per slot).
    let view = SlotView::from_slots(capacity, now, slots);
    let mut cuts: Vec<Time> = vec![now, end];
    for s in slots {
        cuts.extend([s.start.max(now).min(end), s.end.max(now).min(end)]);
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut busy = vec![0i64; capacity as usize];
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let free = view.free_at(a);
        for c in busy.iter_mut().skip(free as usize) {
            *c += b - a;
        }
    }
    busy.into_iter()
        .enumerate()
        .map(|(node, committed)| NodeLoad {
            node,
            memory_mb: 0,
            disk_mb: 0,
            free_memory_mb: 0,
            free_disk_mb: 0,
            share: committed as f64 / window as f64,
            quote: Quote {
                runtime_estimate: re,
                deadline: window,
                base_price,
                res_max: window,
                committed,
            },
        })
        .collect()
}

impl<P: Provider, A: Admission, F: PriceFunction> Provider for Priced<P, A, F> {
    fn capacity(&self) -> u32 {
        self.inner.capacity()
    }
    fn utilisation(&self, now: Time) -> f64 {
        self.inner.utilisation(now)
    }
    fn free_slots(&mut self, now: Time, horizon: Time) -> Vec<FreeSlot> {
        self.inner.free_slots(now, horizon)
    }
    fn publish(&mut self, now: Time, horizon: Time) -> Option<Vec<FreeSlot>> {
        self.inner.publish(now, horizon)
    }
    fn submit(&mut self, now: Time, job: Job) -> Result<(), Refusal> {
        let cost = self.decide(now, &job)?;
        self.inner.submit(now, job)?;
        self.revenue += cost;
        Ok(())
    }
    fn request_reservation(
        &mut self,
        now: Time,
        job: &Job,
        start: Time,
    ) -> Result<HoldId, Refusal> {
        let cost = self.decide(now, job)?;
        let hold = self.inner.request_reservation(now, job, start)?;
        self.holds.insert(hold, cost);
        Ok(hold)
    }
    fn commit(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.inner.commit(now, hold)?;
        self.revenue += self.holds.remove(&hold).unwrap_or(0.0);
        Ok(())
    }
    fn abort(&mut self, now: Time, hold: HoldId) -> Result<(), Refusal> {
        self.holds.remove(&hold);
        self.inner.abort(now, hold)
    }
    fn next_event(&self) -> Option<Time> {
        self.inner.next_event()
    }
    fn advance(&mut self, now: Time, reports: &mut Vec<Report>) {
        self.inner.advance(now, reports);
    }
    fn due(&self, now: Time) -> bool {
        self.inner.due(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Scenario, simulate};

    fn scenario() -> Scenario {
        let local = |first: u64| -> Vec<Job> {
            (0..6)
                .map(|i| Job::new(first + i, Time(600 * i as i64), 4, 1800, 1200))
                .collect()
        };
        let grid: Vec<Job> = (0..8)
            .map(|i| Job::new(1000 + i, Time(300 + 450 * i as i64), 6, 900, 600))
            .collect();
        Scenario {
            grid,
            local: vec![local(0), local(100)],
            warmup: Time(0),
        }
    }

    /// Without pricing nothing is rejected for its price; a budget below
    /// the cheapest Libra+$ price (α + β per second) rejects every grid
    /// job; a generous one admits them and earns revenue.
    #[test]
    fn libra_dollar_at_the_providers_admits_by_budget() {
        let series = "arcb+earliest-ask".parse().unwrap();
        let run = |pricing| {
            let config = Config {
                pricing,
                ..Config::paper(vec![8, 8], 3600)
            };
            simulate(&config, &scenario(), series, None).unwrap()
        };
        let free = run(None);
        assert_eq!((free.revenue(), free.admission_rejections()), (0.0, 0));
        assert!(free.grid().iter().all(Option::is_some));
        let poor = run(Some(ProviderPricing {
            budget_factor: 1.05,
            ..ProviderPricing::PAPER
        }));
        assert!(poor.grid().iter().all(Option::is_none));
        assert_eq!(poor.revenue(), 0.0);
        assert!(poor.admission_rejections() >= 8);
        let rich = run(Some(ProviderPricing {
            budget_factor: 10.0,
            ..ProviderPricing::PAPER
        }));
        // A generous budget still needs room before the deadline (4 × RE).
        let admitted = rich.grid().iter().filter(|g| g.is_some()).count();
        assert!(admitted >= 4, "{admitted} of 8 admitted");
        // Each job pays at least (α + β)·PBase·RE = 660.
        assert!(
            rich.revenue() >= admitted as f64 * 660.0,
            "{}",
            rich.revenue()
        );
    }

    #[test]
    fn a_snapshot_fills_processors_in_order() {
        // 4 processors; 2 free over [0, 100), all 4 over [100, 200): the
        // maximal free rectangles overlap.
        let slots = [
            FreeSlot {
                start: Time(0),
                end: Time(200),
                procs: 2,
            },
            FreeSlot {
                start: Time(100),
                end: Time(200),
                procs: 4,
            },
        ];
        let nodes = snapshot(4, &slots, Time(0), 200, 50, 1.0);
        let committed: Vec<i64> = nodes.iter().map(|n| n.quote.committed).collect();
        assert_eq!(committed, [0, 0, 100, 100]);
    }

    /// The committed time a snapshot reads from a profile's published
    /// slots is the profile's busy time, whatever the overlaps: over 40
    /// seeded profiles, each processor-second is counted once, and slots
    /// wider than the machine count as the machine.
    #[test]
    fn a_snapshot_counts_busy_time_once() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(27);
        for _ in 0..40 {
            let capacity = rng.random_range(1..=32);
            let mut profile = profile::Profile::new(capacity, Time(0));
            let mut busy_truth = 0i64;
            for _ in 0..rng.random_range(0..12) {
                let (start, duration) = (rng.random_range(0..400), rng.random_range(1..300));
                let procs = rng.random_range(1..=capacity);
                if profile.reserve(Time(start), duration, procs).is_ok() {
                    let clipped = (start + duration).min(500) - start.min(500);
                    busy_truth += clipped * i64::from(procs);
                }
            }
            let slots = profile.free_slots(Time(0), Time::MAX);
            let nodes = snapshot(capacity, &slots, Time(0), 500, 10, 1.0);
            let committed: i64 = nodes.iter().map(|n| n.quote.committed).sum();
            assert_eq!(committed, busy_truth, "{slots:?}");
        }
        let huge = [FreeSlot {
            start: Time(0),
            end: Time::MAX,
            procs: u32::MAX,
        }; 2];
        let nodes = snapshot(16, &huge, Time(0), 100, 10, 1.0);
        assert!(nodes.iter().all(|n| n.quote.committed == 0));
    }
}
