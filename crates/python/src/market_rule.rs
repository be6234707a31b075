//! The market environment's decision: the agent's answer for the arriving
//! job as an implementation of the `pricing` crate's public decision point,
//! [`pricing::Admission`], and the run's price function.

use pricing::{
    Admission, Decision, JobContext, LibraDollar, LibraStatic, NodeLoad, PriceFunction,
    PricingError, Quote, Rejection, admit,
};

/// The reason a job the agent rejected (and Algorithm 1 would have
/// accepted) carries: a [`Rejection::Custom`].
pub(crate) const AGENT_REJECTED: &str = "agent_rejected";

/// The agent's answer to the arriving job.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Offer {
    /// No: the job is rejected ([`AGENT_REJECTED`], or Algorithm 1's own
    /// reason if it would not have fitted either).
    Reject,
    /// Yes on Algorithm 1's terms, with the run's price scaled by this
    /// factor (1: Libra's or Libra+$'s own answer).
    Admit(f64),
}

/// The market's admission rule: the agent's [`Offer`] for the arriving job,
/// then Algorithm 1 ([`pricing::admit`]) under the run's price scaled by
/// its factor, so a job is accepted only on nodes that can finish it by its
/// deadline and at a cost within its budget.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct MarketAdmission {
    /// What the agent answered for the job being submitted.
    pub(crate) offer: Offer,
}

impl Admission for MarketAdmission {
    fn admit(
        &mut self,
        job: &JobContext<'_>,
        nodes: &[NodeLoad],
        price: &dyn PriceFunction,
    ) -> Result<Decision, PricingError> {
        match self.offer {
            // Factor 1: the run's own price, as Libra and Libra+$ quote it.
            Offer::Admit(1.0) => admit(job, nodes, price),
            Offer::Admit(factor) => admit(job, nodes, &Scaled { price, factor }),
            // Algorithm 1's rejection stands: the job could not fit anyway.
            Offer::Reject => Ok(match admit(job, nodes, price)? {
                Decision::Accept(_) => Decision::Reject(Rejection::Custom(AGENT_REJECTED.into())),
                rejected => rejected,
            }),
        }
    }
}

/// A price function scaled by the agent's factor: `factor · C_ij`.
struct Scaled<'a> {
    price: &'a dyn PriceFunction,
    factor: f64,
}

impl PriceFunction for Scaled<'_> {
    fn cost(&self, job: &JobContext<'_>, quote: &Quote) -> Result<f64, PricingError> {
        Ok(self.price.cost(job, quote)? * self.factor)
    }
}

/// The run's price function, as `RunConfig::price` builds it for Libra and
/// Libra+$ (kept concrete so the core is `Send`).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Price {
    Libra(LibraStatic),
    LibraDollar(LibraDollar),
}

impl Price {
    pub(crate) fn function(&self) -> &dyn PriceFunction {
        match self {
            Price::Libra(p) => p,
            Price::LibraDollar(p) => p,
        }
    }
}

/// The price mode's factors unless given.
pub(crate) const DEFAULT_FACTORS: [f64; 8] = [0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0];

/// `v` clamped into `[0, 1]` (NaN to 0).
pub(crate) fn unit(v: f64) -> f64 {
    if v >= 1.0 {
        1.0
    } else if v > 0.0 {
        v
    } else {
        0.0
    }
}

/// `x / (1 + x)` for `x >= 0`: a ratio squashed into `[0, 1)`.
pub(crate) fn squash(x: f64) -> f64 {
    unit(x / (1.0 + x))
}

/// A decision as a word: `accept`, or the rejection's reason.
pub(crate) fn word(d: &Decision) -> String {
    match d {
        Decision::Accept(_) => "accept".to_string(),
        Decision::Reject(r) => r.reason().to_string(),
    }
}
