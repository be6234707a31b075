//! Table 1 of the paper: how the jobs of a trace become adaptive requests.

use profile::{Job, MAX_DURATION, ShortFloat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::{SchedError, Table1Error};
use crate::fmol::{LinearFmol, r_min_share};
use crate::price::PriceFunction;
use crate::req::{Preemption, Req, checked_profile};
use crate::sched::Request;
use crate::variant::Variant;

/// Table 1 of the paper: how a trace job (`R^max` = its processors,
/// `T^min` = its estimate) becomes an adaptive request.
///
/// [`Default`] is the paper's Table 1. [`Table1::check`] says which values
/// are accepted, and [`Table1::requests`] checks them first. With the
/// `serde` feature every field may be left out of a config (it keeps its
/// default) and an unknown field is an error; a table read is not checked
/// when read, so that a configuration's reader can name the key at fault
/// (the experiments framework runs its own checks, which point at the key's
/// line): call [`Table1::check`] on a table read.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct Table1 {
    /// `R^min` as a percentage of `R^max` (rounded up, and at least one
    /// processor).
    pub r_min_percent: u32,
    /// Requests for up to this many processors are not moldable.
    pub rigid_up_to: u32,
    /// Share of the requests of at least `preemptive_min_run` seconds that
    /// get `Sp` (a draw per request; shorter requests never get it). The
    /// paper's "The 60% and 20% regarding the Sp and price profile
    /// parameters, respectively, were used randomly" (§4.1) gives 0.6;
    /// on the SDSC SP2 log, where 38% of the requests of a minute or more
    /// run an hour or more, that makes 23% of all requests preemptive,
    /// close to Table 1's "Only 20% of the requests were considered as
    /// preemptive". 0.2 reads Table 1's 20% as the share of the long
    /// requests instead (7.7% of all).
    pub preemptive_share: f64,
    /// Requests shorter than this (seconds) are never split.
    pub preemptive_min_run: i64,
    /// `N` of `Sp`.
    pub sp_parts: u32,
    /// `I` of `Sp`, in percent of the work.
    pub sp_percent: u32,
    /// `M` of `Sp`.
    pub sp_mold_each: bool,
    /// Share of the requests in the high price profile.
    pub high_share: f64,
    /// The high price profile (the low one is 1).
    pub high_profile: f64,
    /// `D = T^min · deadline_factor` (+ `low_extra` for the low profile).
    pub deadline_factor: i64,
    /// Seconds added to the deadline of low-profile requests.
    pub low_extra: i64,
    /// $ per processor-hour.
    pub rate: f64,
    /// Largest share of the price a late completion takes off.
    pub max_discount: f64,
}

impl Default for Table1 {
    /// The paper's Table 1: `R^min` = 80% of `R^max` above 10 processors,
    /// 60% of the runs of an hour or more preemptive with `Sp = (10, 10%,
    /// true)`,
    /// 20% of users in price profile 3 with deadline `5·T^min`, the others in
    /// profile 1 with three more days, $1 per processor-hour, up to 60% off.
    fn default() -> Self {
        Table1 {
            r_min_percent: 80,
            rigid_up_to: 10,
            preemptive_share: 0.6,
            preemptive_min_run: 3600,
            sp_parts: 10,
            sp_percent: 10,
            sp_mold_each: true,
            high_share: 0.2,
            high_profile: 3.0,
            deadline_factor: 5,
            low_extra: 3 * 86_400,
            rate: 1.0,
            max_discount: 0.6,
        }
    }
}

/// The seeds of the two random streams [`Table1::requests`] draws from:
/// one decides which requests may be split, the other which pay the high
/// price profile. Each is seeded into its own `ChaCha8Rng`, so changing one
/// share never shifts the other's draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RequestSeeds {
    /// Seeds the draws against [`Table1::preemptive_share`].
    pub preemptive: u64,
    /// Seeds the draws against [`Table1::high_share`].
    pub price_profile: u64,
}

impl Table1 {
    /// Checks every field: `r_min_percent` a percentage in `0..=100` (0
    /// giving `R^min` of one processor), `sp_percent` one in `1..=100`, the two shares in `[0, 1]`, `preemptive_min_run` and
    /// `low_extra` in `[0, 2^40]` s, `sp_parts` at least 1, `high_profile`
    /// a multiplier in `(0, 1e12]`, `deadline_factor` at least 1, and
    /// `rate` and `max_discount` as [`PriceFunction::new`] takes them.
    /// [`Table1::requests`] checks first; the error names the field.
    pub fn check(&self) -> Result<(), Table1Error> {
        for (field, value) in [
            ("preemptive_share", self.preemptive_share),
            ("high_share", self.high_share),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err(Table1Error::Share { field, value });
            }
        }
        let field = |field, value: &dyn std::fmt::Display, expected| {
            Err(Table1Error::Field {
                field,
                value: value.to_string(),
                expected,
            })
        };
        // `R^min` is at least one processor (`r_min_share`), so 0% is the
        // smallest `R^min` there is, as the experiments' check takes it.
        if self.r_min_percent > 100 {
            return field(
                "r_min_percent",
                &self.r_min_percent,
                "a percentage in 0..=100",
            );
        }
        if !(1..=100).contains(&self.sp_percent) {
            return field("sp_percent", &self.sp_percent, "a percentage in 1..=100");
        }
        for (name, value) in [
            ("preemptive_min_run", self.preemptive_min_run),
            ("low_extra", self.low_extra),
        ] {
            if !(0..=MAX_DURATION).contains(&value) {
                return field(name, &value, "0 to 2^40 s");
            }
        }
        if self.sp_parts == 0 {
            return field("sp_parts", &0, "at least 1");
        }
        if checked_profile(self.high_profile).is_err() {
            return field(
                "high_profile",
                &ShortFloat(self.high_profile),
                "a multiplier in (0, 1e12]",
            );
        }
        if self.deadline_factor < 1 {
            return field("deadline_factor", &self.deadline_factor, "at least 1");
        }
        if let Err(SchedError::Price {
            field: name,
            value,
            expected,
        }) = self.price_function(0.0)
        {
            return field(name, &value, expected);
        }
        Ok(())
    }

    /// `Sp = (sp_parts, sp_percent, sp_mold_each)`.
    pub fn preemption(&self) -> Preemption {
        Preemption {
            max_parts: Some(self.sp_parts),
            split_percent: self.sp_percent,
            mold_each: self.sp_mold_each,
        }
    }

    /// `ω` at this table's rate and largest discount, with `incentive` (a
    /// fraction in `[0, 1]`) off the price of preemptive requests.
    pub fn price_function(&self, incentive: f64) -> Result<PriceFunction, SchedError> {
        PriceFunction::new(self.rate, self.max_discount, incentive)
    }

    /// The requests of `jobs` (one interval of a trace, in submission
    /// order) for `variant`, priced by `omega`.
    ///
    /// For each job, in order, one draw from the `preemptive` stream (may
    /// it be split: only if `T^min >= preemptive_min_run`, and then with
    /// probability `preemptive_share`) and one from the `price_profile`
    /// stream (high profile with probability `high_share`). The draws depend
    /// on the seeds and the job's position only, never on the variant: every
    /// variant sees the same price profiles, deadlines and budgets, and a
    /// variant's flexibility only decides whether `R^min` drops below
    /// `R^max` (moldable) and whether the drawn `Sp` is kept (preemptive).
    ///
    /// `T^min` is the job's estimate (at least 1 s); the deadline is
    /// `T^min · deadline_factor`, plus `low_extra` in the low profile; the
    /// budget is `omega`'s full price of `R^max · T^min` in the job's
    /// profile, so the ([`BudgetRule::Limit`](crate::BudgetRule::Limit))
    /// budget never binds on an unmolded placement.
    ///
    /// Errors: a field [`Table1::check`] refuses, or a job that gives an
    /// invalid request (the job's id and the [`ReqError`](crate::ReqError):
    /// a deadline past 2^40 s, say).
    ///
    /// ```
    /// use adaptive_requests::{PriceFunction, RequestSeeds, Table1, Variant};
    /// use profile::{Job, Time};
    ///
    /// let jobs: Vec<Job> = (0..100).map(|i| Job::new(i, Time(60 * i as i64), 32, 7200, 7200)).collect();
    /// let seeds = RequestSeeds { preemptive: 1, price_profile: 2 };
    /// let t = Table1::default();
    /// let omega = PriceFunction::TABLE1;
    /// let rigid = t.requests("fifo-rigid".parse()?, &jobs, &omega, seeds)?;
    /// let flexible = t.requests("mdf-preemptive-moldable".parse()?, &jobs, &omega, seeds)?;
    /// assert_eq!((rigid[0].req.r_min(), flexible[0].req.r_min()), (32, 26));
    /// assert!(rigid.iter().zip(&flexible).all(|(r, f)| r.req.deadline() == f.req.deadline()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn requests(
        &self,
        variant: Variant,
        jobs: &[Job],
        omega: &PriceFunction,
        seeds: RequestSeeds,
    ) -> Result<Vec<Request>, Table1Error> {
        self.check()?;
        let mut split_rng = ChaCha8Rng::seed_from_u64(seeds.preemptive);
        let mut profile_rng = ChaCha8Rng::seed_from_u64(seeds.price_profile);
        let sp = self.preemption();
        jobs.iter()
            .map(|j| {
                let t_min = j.estimate.max(1);
                let splittable = split_rng.random_bool(self.preemptive_share)
                    && t_min >= self.preemptive_min_run;
                let high = profile_rng.random_bool(self.high_share);
                let profile = if high { self.high_profile } else { 1.0 };
                let r_max = j.procs;
                let r_min = if variant.moldable {
                    r_min_share(r_max, self.r_min_percent, self.rigid_up_to)
                } else {
                    r_max
                };
                let deadline = t_min
                    .saturating_mul(self.deadline_factor)
                    .saturating_add(if high { 0 } else { self.low_extra });
                let work = i64::from(r_max).saturating_mul(t_min);
                let sp = (variant.preemptive && splittable).then_some(sp);
                let req = LinearFmol::new(r_min, r_max, t_min)
                    .and_then(|f| Req::linear(f, deadline, omega.full_price(work, profile)?, sp))
                    .and_then(|r| r.with_price_profile(profile))
                    .map_err(|error| Table1Error::Job { id: j.id, error })?;
                Ok(Request {
                    id: j.id,
                    submit: j.submit,
                    req,
                })
            })
            .collect()
    }
}
