//! The measurements of one interval's schedule.

use profile::Time;

use crate::fmol::Moldability;
use crate::sched::{Request, RequestOutcome};

/// What one interval's schedule yields: the raw material of the paper's
/// metrics (profit, response time, rejections, molding, splitting,
/// utilisation), as sums and counts so that ratios are taken by the caller.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[non_exhaustive]
pub struct IntervalStats {
    /// Requests submitted.
    pub requests: usize,
    /// Requests accepted.
    pub accepted: usize,
    /// The provider's profit: the sum of the prices charged, in $.
    pub profit: f64,
    /// Sum over accepted requests of completion − submission, in seconds.
    pub response_sum: f64,
    /// Accepted requests that were moldable (`R^min < R^max`).
    pub moldable_accepted: usize,
    /// Accepted moldable requests with a part on fewer than `R^max` processors.
    pub molded: usize,
    /// Sum over the molded requests of how far they were molded, in percent:
    /// each part's `(R^max − R) / (R^max − R^min)` weighted by its share of
    /// the work (0% at `R^max`, 100% at `R^min`).
    pub modification_sum: f64,
    /// Accepted requests that were preemptive (had `Sp`).
    pub preemptive_accepted: usize,
    /// Accepted preemptive requests placed as more than one subrequest.
    pub split: usize,
    /// Processor-seconds of the accepted requests.
    pub busy: f64,
    /// Processor-seconds of the machine from the first submission to the
    /// last completion (0 if nothing was submitted).
    pub span: i64,
}

impl IntervalStats {
    /// The stats of `outcomes`, the schedule of `requests` (in the same
    /// order, as [`schedule`](crate::schedule) returns them) on a machine of
    /// `capacity` processors.
    pub fn of<F: Moldability>(
        capacity: u32,
        requests: &[Request<F>],
        outcomes: &[RequestOutcome],
    ) -> IntervalStats {
        let mut s = IntervalStats {
            requests: requests.len(),
            ..IntervalStats::default()
        };
        let first: Option<Time> = requests.iter().map(|r| r.submit).min();
        let mut last = first;
        for (r, o) in requests.iter().zip(outcomes) {
            let Some(p) = &o.placement else { continue };
            s.accepted += 1;
            s.profit += o.price;
            s.response_sum += (p.completion() - r.submit) as f64;
            s.busy += p.proc_seconds() as f64;
            last = last.max(Some(p.completion()));
            if r.req.is_moldable() {
                s.moldable_accepted += 1;
                let (r_min, r_max) = (f64::from(r.req.r_min()), f64::from(r.req.r_max()));
                // How far from R^max towards R^min, weighted by each part's share of the work.
                let degree: f64 = p
                    .parts()
                    .iter()
                    .map(|q| {
                        f64::from(q.to - q.from) * (r_max - f64::from(q.procs)) / (r_max - r_min)
                    })
                    .sum();
                if p.parts().iter().any(|q| q.procs < r.req.r_max()) {
                    s.molded += 1;
                    s.modification_sum += degree;
                }
            }
            if r.req.is_preemptive() {
                s.preemptive_accepted += 1;
                s.split += usize::from(p.is_split());
            }
        }
        if let (Some(first), Some(last)) = (first, last) {
            s.span = (last - first).saturating_mul(i64::from(capacity));
        }
        s
    }

    /// Requests rejected.
    pub fn rejected(&self) -> usize {
        self.requests - self.accepted
    }

    /// The average response time of the accepted requests, in seconds, if
    /// any was accepted.
    pub fn response(&self) -> Option<f64> {
        (self.accepted > 0).then(|| self.response_sum / self.accepted as f64)
    }
}
