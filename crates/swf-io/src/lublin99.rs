//! The Lublin & Feitelson rigid-job workload model ("Lublin99").
//!
//! U. Lublin and D. G. Feitelson, "The workload on parallel supercomputers:
//! modeling the characteristics of rigid jobs", JPDC 63(11):1105–1122,
//! 2003. Each job has an arrival time, a size, a run time and a type
//! (interactive or batch):
//!
//! * **size**: serial with probability `serial_prob`; otherwise
//!   `x = log2(size)` comes from a two-stage uniform (`[u_low, u_med]` with
//!   probability `u_prob`, else `[u_med, u_hi]`), rounded to an integer for
//!   power-of-two jobs; one uniform decides serial / power-of-two / other,
//!   so `pow2_prob` is a fraction of all jobs. Size = round(2^x), never
//!   above the machine (a power-of-two job that would be is halved);
//! * **run time**: ln(run time) is hyper-gamma, Gamma(a1, b1) with
//!   probability `p = pa·size + pb` (clamped to [0, 1]) else Gamma(a2, b2),
//!   redrawn while above 12; run time = ⌊e^draw⌋ seconds (≥ 1);
//! * **arrivals**: ln(gap) ~ Gamma(aarr·arar, barr), redrawn while above 13,
//!   spent as "points" over 48 half-hour buckets weighted by a
//!   Gamma(anum, bnum) daily cycle (window starting at index 11), so the
//!   arrival rate follows the weights; the clock starts at midnight;
//! * **two classes**: independent interactive and batch streams, each with
//!   its own clock, merged by next arrival (ties go to interactive).
//!
//! Randomness: `ChaCha8Rng::seed_from_u64(seed)`, with a separate ChaCha
//! stream for each component (arrival, size, run time) of each class, so
//! one seed gives identical output on every machine. Submit times are
//! integer seconds, non-decreasing.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Gamma};

use crate::gamma::gamma_cdf;
use crate::header::SwfHeader;
use crate::record::SwfRecord;
use crate::transform::{Estimate, to_job};

mod options;
use options::rescale;
pub use options::{Arrivals, Estimates, MODAL_ESTIMATES, ParseSpecError};

/// Half-hour buckets in a day.
const BUCKETS: usize = 48;
/// Seconds in one bucket.
const BUCKET_SECS: f64 = 1800.0;
/// The bucket-weight window starts at this gamma index (the reference's
/// `CYCLIC_DAY_START`, applied in bucket units).
const CYCLIC_DAY_START: usize = 11;
/// Log run times above this are redrawn (e^12 ≈ 45 h).
const MAX_LN_RUN: f64 = 12.0;
/// Log inter-arrival times above this are redrawn (e^13 s ≈ 5 days).
const MAX_LN_GAP: f64 = 13.0;
/// Redraws before a truncated draw gives up and takes the bound (only
/// reachable with absurd parameters).
const MAX_REDRAWS: usize = 10_000;

/// Every parameter of one job class of the model.
///
/// The constructors give the published fits; the size parameters are
/// scaled to a machine of `procs` nodes by shifting `u_hi` and `u_med`
/// with `log2(procs / 128)` (the fits are for 128 nodes), which is the
/// model authors' rule `u_hi = log2(P)`, `u_med ≈ u_hi − 2.5` for the
/// typeless set.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Params {
    /// Probability of a serial (1-node) job.
    pub serial_prob: f64,
    /// Probability of a parallel power-of-two job (a fraction of all jobs).
    pub pow2_prob: f64,
    /// log2 of the smallest parallel size.
    pub u_low: f64,
    /// Where the two-stage uniform changes (log2 of size).
    pub u_med: f64,
    /// log2 of the largest size.
    pub u_hi: f64,
    /// Probability of the lower stage `[u_low, u_med]`.
    pub u_prob: f64,
    /// Shape of the short run-time component (log scale).
    pub a1: f64,
    /// Scale of the short run-time component.
    pub b1: f64,
    /// Shape of the long run-time component.
    pub a2: f64,
    /// Scale of the long run-time component.
    pub b2: f64,
    /// Slope of the mixing weight in the size (negative: bigger jobs run longer).
    pub pa: f64,
    /// Intercept of the mixing weight.
    pub pb: f64,
    /// Shape of ln(inter-arrival time) at peak hours.
    pub aarr: f64,
    /// Scale of ln(inter-arrival time).
    pub barr: f64,
    /// Arrive-rush-to-all ratio: multiplies `aarr`.
    pub arar: f64,
    /// Shape of the daily-cycle gamma.
    pub anum: f64,
    /// Scale of the daily-cycle gamma.
    pub bnum: f64,
}

/// log2 of the machine size, at least 0.
fn log2_procs(procs: u32) -> f64 {
    f64::from(procs.max(1)).log2()
}

impl Params {
    /// The single-class model as published (fit on 128 nodes), with
    /// `u_hi = log2(procs)` and `u_med = u_hi − 2.5` (4.5 at 128 nodes).
    pub fn typeless(procs: u32) -> Params {
        let u_hi = log2_procs(procs);
        Params {
            serial_prob: 0.244,
            pow2_prob: 0.576,
            u_low: 0.8,
            u_med: u_hi - 2.5,
            u_hi,
            u_prob: 0.86,
            a1: 4.2,
            b1: 0.94,
            a2: 312.0,
            b2: 0.03,
            pa: -0.0054,
            pb: 0.78,
            aarr: 10.2303,
            barr: 0.4871,
            arar: 1.0225,
            anum: 8.1737,
            bnum: 3.9631,
        }
    }

    /// Batch jobs of the two-class model: `u_hi = log2(procs)`,
    /// `u_med = u_hi − 2` (7 and 5 at 128 nodes).
    pub fn batch(procs: u32) -> Params {
        let u_hi = log2_procs(procs);
        Params {
            serial_prob: 0.2927,
            pow2_prob: 0.6686,
            u_low: 1.2,
            u_med: u_hi - 2.0,
            u_hi,
            u_prob: 0.875,
            a1: 6.57,
            b1: 0.823,
            a2: 639.1,
            b2: 0.0156,
            pa: -0.003,
            pb: 0.6986,
            aarr: 6.0415,
            barr: 0.8531,
            arar: 1.0519,
            anum: 6.1271,
            bnum: 5.2740,
        }
    }

    /// Interactive jobs of the two-class model: `u_hi = log2(procs) − 1.5`,
    /// `u_med = u_hi − 2.5` (5.5 and 3 at 128 nodes: at most ≈ 35 % of the
    /// machine).
    pub fn interactive(procs: u32) -> Params {
        let u_hi = log2_procs(procs) - 1.5;
        Params {
            serial_prob: 0.1541,
            pow2_prob: 0.625,
            u_low: 1.0,
            u_med: u_hi - 2.5,
            u_hi,
            u_prob: 0.705,
            a1: 3.8351,
            b1: 0.6605,
            a2: 7.073,
            b2: 0.6856,
            pa: -0.0118,
            pb: 0.9156,
            aarr: 6.5510,
            barr: 0.6621,
            arar: 0.9797,
            anum: 8.9186,
            bnum: 3.6680,
        }
    }

    /// The 48 half-hour weights of the daily cycle, slot 0 = 00:00–00:30,
    /// normalised to mean 1: weight of gamma index `i` (11 ≤ i < 59) is
    /// CDF(i + 0.5) − CDF(i − 0.5) of Gamma(`anum`, `bnum`), placed in slot
    /// (i − 1) mod 48.
    pub fn daily_weights(&self) -> [f64; BUCKETS] {
        let mut w = [0.0; BUCKETS];
        for i in CYCLIC_DAY_START..CYCLIC_DAY_START + BUCKETS {
            let x = i as f64;
            w[(i - 1) % BUCKETS] =
                gamma_cdf(x + 0.5, self.anum, self.bnum) - gamma_cdf(x - 0.5, self.anum, self.bnum);
        }
        let mean = w.iter().sum::<f64>() / BUCKETS as f64;
        if !(mean.is_finite() && mean > 0.0) {
            return [1.0; BUCKETS];
        }
        // A zero weight would stop the clock; keep every bucket passable.
        w.map(|v| {
            if v.is_finite() {
                (v / mean).max(1e-9)
            } else {
                1.0
            }
        })
    }
}

/// The model's run-time and arrival distributions for one class, or `None`
/// if a parameter is not a valid gamma shape or scale.
#[derive(Clone, Debug)]
struct Dists {
    short: Gamma<f64>,
    long: Gamma<f64>,
    gap: Gamma<f64>,
}

impl Dists {
    fn new(p: &Params) -> Option<Dists> {
        Some(Dists {
            short: Gamma::new(p.a1, p.b1).ok()?,
            long: Gamma::new(p.a2, p.b2).ok()?,
            gap: Gamma::new(p.aarr * p.arar, p.barr).ok()?,
        })
    }
}

/// Component numbers for deriving the ChaCha stream of each random part.
const ARRIVAL: u64 = 1;
const SIZE: u64 = 2;
const RUN: u64 = 3;
/// The estimate model's component, in a class of its own (no job class
/// uses it), so estimates never shift the draws of the model itself.
const ESTIMATE: u64 = 4;
const ESTIMATE_CLASS: u64 = 15;

fn rng(seed: u64, class: u64, component: u64) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    r.set_stream(class * 16 + component);
    r
}

/// One job class: its parameters, random streams and arrival clock.
#[derive(Clone, Debug)]
struct Stream {
    params: Params,
    dists: Dists,
    queue: i64,
    procs: u32,
    weights: [f64; BUCKETS],
    arrival_rng: ChaCha8Rng,
    size_rng: ChaCha8Rng,
    run_rng: ChaCha8Rng,
    /// Current bucket (slot of the day).
    bucket: usize,
    /// Buckets passed since the start (midnight of day 0).
    passed: u64,
    /// Points not yet spent.
    points: f64,
    /// Seconds from the start of the next arrival.
    next: f64,
}

/// Draws from `dist` until the value is at most `bound`.
fn truncated<D: Distribution<f64>>(dist: &D, rng: &mut ChaCha8Rng, bound: f64) -> f64 {
    for _ in 0..MAX_REDRAWS {
        let v = dist.sample(rng);
        if v <= bound {
            return v;
        }
    }
    bound
}

impl Stream {
    fn new(params: Params, queue: i64, procs: u32, seed: u64, class: u64) -> Option<Stream> {
        let mut s = Stream {
            dists: Dists::new(&params)?,
            weights: params.daily_weights(),
            params,
            queue,
            procs,
            arrival_rng: rng(seed, class, ARRIVAL),
            size_rng: rng(seed, class, SIZE),
            run_rng: rng(seed, class, RUN),
            bucket: 0,
            passed: 0,
            points: 0.0,
            next: 0.0,
        };
        s.advance();
        Some(s)
    }

    /// Moves the clock to the next arrival.
    fn advance(&mut self) {
        let gap = truncated(&self.dists.gap, &mut self.arrival_rng, MAX_LN_GAP).exp();
        self.points += gap / BUCKET_SECS;
        while self.points > self.weights[self.bucket] {
            self.points -= self.weights[self.bucket];
            self.bucket = (self.bucket + 1) % BUCKETS;
            self.passed += 1;
        }
        // The fraction of the current bucket used so far; the clock is the
        // passed buckets plus that fraction, so no rounding accumulates.
        let fraction = self.points / self.weights[self.bucket];
        self.next = (self.passed as f64 + fraction) * BUCKET_SECS;
    }

    fn size(&mut self) -> u32 {
        let p = &self.params;
        let r = &mut self.size_rng;
        let u: f64 = r.random();
        if u <= p.serial_prob {
            return 1;
        }
        let (lo, hi) = if r.random::<f64>() <= p.u_prob {
            (p.u_low, p.u_med)
        } else {
            (p.u_med, p.u_hi)
        };
        let mut x = lo + r.random::<f64>() * (hi - lo);
        let pow2 = u <= p.serial_prob + p.pow2_prob;
        if pow2 {
            x = (x + 0.5).floor();
        }
        // `as` saturates (and maps NaN to 0).
        let size = (x.exp2() + 0.5).floor() as u64;
        let procs = u64::from(self.procs);
        let size = if pow2 && size > procs {
            // The largest power of two that fits.
            1u64 << (63 - procs.leading_zeros())
        } else {
            size
        };
        size.clamp(1, procs) as u32
    }

    fn run_time(&mut self, size: u32) -> i64 {
        let p = &self.params;
        let mix = (p.pa * f64::from(size) + p.pb).clamp(0.0, 1.0);
        let mut ln_run = MAX_LN_RUN;
        for _ in 0..MAX_REDRAWS {
            let u: f64 = self.run_rng.random();
            let dist = if u <= mix {
                &self.dists.short
            } else {
                &self.dists.long
            };
            let v = dist.sample(&mut self.run_rng);
            if v <= MAX_LN_RUN {
                ln_run = v;
                break;
            }
        }
        // A gamma draw is positive, so the run time is at least 1 s.
        (ln_run.exp().floor() as i64).max(1)
    }
}

/// A [`Lublin99`] workload: which machine, how long, how many, which seed.
///
/// Generation stops at the first arrival at or after `duration` seconds,
/// or after `max_jobs` jobs, whichever comes first; for a fixed number of
/// jobs set `duration` to `i64::MAX`. (With neither bound the generator
/// does not stop.)
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Lublin99 {
    /// Machine size in nodes; sizes never exceed it. 0 gives no jobs.
    pub procs: u32,
    /// Arrivals are generated in `[0, duration)` seconds.
    pub duration: i64,
    /// At most this many jobs, if set.
    pub max_jobs: Option<usize>,
    /// The seed of every random stream.
    pub seed: u64,
    /// Two classes (interactive in queue 0, batch in queue 1) instead of
    /// the typeless model (every job in queue 0).
    pub two_class: bool,
    /// How arrivals are paced: the model's own (the default), or rescaled
    /// to an offered load or an arrival rate.
    #[cfg_attr(feature = "serde", serde(default))]
    pub arrivals: Arrivals,
    /// How requested times (SWF field 9) are made: none (the model's
    /// default: the field is -1, so "requested" falls back to the run time),
    /// or an estimate model.
    #[cfg_attr(feature = "serde", serde(default))]
    pub estimates: Estimates,
}

impl Default for Lublin99 {
    /// No machine (so no jobs until `procs` is set), no bounds, seed 0,
    /// the typeless model, the model's arrivals, no estimates.
    fn default() -> Self {
        Lublin99 {
            procs: 0,
            duration: i64::MAX,
            max_jobs: None,
            seed: 0,
            two_class: false,
            arrivals: Arrivals::Model,
            estimates: Estimates::None,
        }
    }
}

impl Lublin99 {
    /// The generated jobs as SWF records, in submit order: job number from
    /// 1, submit, run time, allocated processors, status 1, queue 0
    /// (interactive or typeless) or 1 (batch); the other fields are -1.
    pub fn generate(&self) -> Vec<SwfRecord> {
        self.iter().collect()
    }

    /// The same records as [`generate`](Self::generate), one at a time, so a
    /// million-job workload never has to sit in memory as SWF records.
    pub fn iter(&self) -> Records {
        let classes = if self.two_class {
            vec![
                (Params::interactive(self.procs), 0),
                (Params::batch(self.procs), 1),
            ]
        } else {
            vec![(Params::typeless(self.procs), 0)]
        };
        let streams = if self.procs == 0 {
            Vec::new()
        } else {
            classes
                .into_iter()
                .zip(0u64..)
                .filter_map(|((params, queue), class)| {
                    Stream::new(params, queue, self.procs, self.seed, class)
                })
                .collect()
        };
        let mut records = Records {
            streams,
            duration: self.duration,
            remaining: self.max_jobs,
            emitted: 0,
            buffered: None,
            estimates: None,
        };
        if self.arrivals != Arrivals::Model {
            let raw: Vec<SwfRecord> = records.by_ref().collect();
            records.buffered = Some(rescale(raw, self.arrivals, self.procs).into_iter());
        }
        if !self.estimates.is_none() {
            records.estimates = Some((self.estimates, rng(self.seed, ESTIMATE_CLASS, ESTIMATE)));
        }
        records
    }

    /// The SWF header the reference program writes, for the jobs
    /// [`generate`](Self::generate) makes (it generates them to count them),
    /// with a `Note:` echoing the model variant, seed and bounds.
    pub fn header(&self) -> SwfHeader {
        let n = self.generate().len().to_string();
        let procs = self.procs.to_string();
        let mut h = SwfHeader::default();
        h.push_line("Version", "2");
        h.push_line("Acknowledge", "Uri Lublin, Hebrew University");
        h.push_line(
            "Information",
            "http://www.cs.huji.ac.il/labs/parallel/workload",
        );
        h.push_line("MaxJobs", &n);
        h.push_line("MaxRecords", &n);
        h.push_line("MaxNodes", &procs);
        h.push_line("MaxProcs", &procs);
        h.push_line("MaxRuntime", &(MAX_LN_RUN.exp() as i64).to_string());
        let variant = if self.two_class {
            "two-class Lublin-Feitelson 1999 model (queue 0 interactive, queue 1 batch)"
        } else {
            "typeless Lublin-Feitelson 1999 model"
        };
        let max = self
            .max_jobs
            .map_or_else(|| "unbounded".to_owned(), |m| m.to_string());
        // `i64::MAX` is "no bound", as the default's documentation says.
        let duration = match self.duration {
            i64::MAX => "unbounded".to_owned(),
            d => format!("{d} s"),
        };
        // The defaults' note is unchanged, so generated files stay the same.
        let arrivals = match self.arrivals {
            Arrivals::Model => String::new(),
            Arrivals::Load(l) => format!(", arrivals rescaled to load {l}"),
            Arrivals::Rate(r) => format!(", arrivals rescaled to {r} jobs per hour"),
        };
        let estimates = if self.estimates.is_none() {
            String::new()
        } else {
            format!(", requested times from estimate model {}", self.estimates)
        };
        h.push_line(
            "Note",
            &format!(
                "generated by swf-io: {variant}, seed {}, duration {duration}, max jobs {max}{arrivals}{estimates}",
                self.seed
            ),
        );
        h
    }

    /// The generated workload as jobs whose estimate is the run time,
    /// converted record by record (no intermediate record buffer).
    pub fn jobs(&self) -> Vec<profile::Job> {
        self.iter_jobs().collect()
    }

    /// The jobs of [`jobs`](Self::jobs), one at a time as
    /// [`iter`](Self::iter) makes their records, so a workload of any length
    /// can be replayed (`profile::simulate_stream`) without being collected.
    pub fn iter_jobs(&self) -> impl Iterator<Item = profile::Job> + use<> {
        // A record's job, as `to_jobs` makes it (the id is the record's
        // job number, always set), one at a time.
        self.iter()
            .enumerate()
            .filter_map(|(index, r)| to_job(&r, index, Estimate::Actual))
    }
}

/// The records of a [`Lublin99`] workload, generated lazily in submit order.
#[derive(Clone, Debug)]
pub struct Records {
    streams: Vec<Stream>,
    duration: i64,
    remaining: Option<usize>,
    emitted: i64,
    /// The whole workload, rescaled, when arrivals are not the model's.
    buffered: Option<std::vec::IntoIter<SwfRecord>>,
    /// The estimate model and its stream, if requested times are made.
    estimates: Option<(Estimates, ChaCha8Rng)>,
}

impl Iterator for Records {
    type Item = SwfRecord;

    fn next(&mut self) -> Option<SwfRecord> {
        let mut record = match self.buffered.as_mut() {
            Some(b) => b.next()?,
            None => self.next_of_model()?,
        };
        if let Some((model, rng)) = self.estimates.as_mut() {
            let u: f64 = rng.random();
            record.requested_time = record.run_time.and_then(|run| model.requested(run, u));
        }
        Some(record)
    }
}

impl Records {
    /// The next record of the model itself: arrivals unscaled, no estimates.
    fn next_of_model(&mut self) -> Option<SwfRecord> {
        if self.remaining == Some(0) {
            return None;
        }
        // The earliest next arrival; ties go to the first (interactive) class.
        let s = self
            .streams
            .iter_mut()
            .min_by(|a, b| a.next.total_cmp(&b.next))?;
        // `as` saturates.
        let submit = s.next.floor() as i64;
        if submit >= self.duration {
            self.remaining = Some(0);
            return None;
        }
        let size = s.size();
        let run = s.run_time(size);
        self.emitted += 1;
        let record = SwfRecord {
            job: Some(self.emitted),
            submit: Some(submit),
            run_time: Some(run),
            allocated_procs: Some(i64::from(size)),
            status: Some(1),
            queue: Some(s.queue),
            ..SwfRecord::default()
        };
        s.advance();
        if let Some(r) = self.remaining.as_mut() {
            *r -= 1;
        }
        Some(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamma::reg_lower;

    fn typeless_128(n: usize) -> Vec<SwfRecord> {
        Lublin99 {
            procs: 128,
            duration: i64::MAX,
            max_jobs: Some(n),
            seed: 2024,
            two_class: false,
            ..Default::default()
        }
        .generate()
    }

    fn fraction(recs: &[SwfRecord], pred: impl Fn(&SwfRecord) -> bool) -> f64 {
        recs.iter().filter(|r| pred(r)).count() as f64 / recs.len() as f64
    }

    #[test]
    fn sizes_serial_and_power_of_two_fractions() {
        let recs = typeless_128(100_000);
        let p = Params::typeless(128);
        assert!(
            recs.iter()
                .all(|r| (1..=128).contains(&r.allocated_procs.unwrap()))
        );
        // Size 1 happens only for serial jobs (parallel sizes are >= round(2^0.8) = 2).
        let serial = fraction(&recs, |r| r.allocated_procs == Some(1));
        assert!((serial - 0.244).abs() < 0.005, "serial fraction {serial}");
        // Power-of-two sizes (1 counts as 2^0): serial + pow2 jobs, plus the
        // "other" parallel jobs whose round(2^x) lands on a power of two by
        // chance. That chance is computed from the two-stage uniform.
        let uniform_mass = |lo: f64, hi: f64| {
            let stage = |a: f64, b: f64, w: f64| w * ((hi.min(b) - lo.max(a)).max(0.0) / (b - a));
            stage(p.u_low, p.u_med, p.u_prob) + stage(p.u_med, p.u_hi, 1.0 - p.u_prob)
        };
        let lands_on_pow2: f64 = (1..=7)
            .map(|k| {
                uniform_mass(
                    (f64::from(1 << k) - 0.5).log2(),
                    (f64::from(1 << k) + 0.5).log2(),
                )
            })
            .sum();
        let expected =
            p.serial_prob + p.pow2_prob + (1.0 - p.serial_prob - p.pow2_prob) * lands_on_pow2;
        let pow2 = fraction(&recs, |r| r.allocated_procs.unwrap().count_ones() == 1);
        eprintln!("serial {serial:.4} (0.244); power of two {pow2:.4} (expected {expected:.4})");
        assert!(
            (pow2 - expected).abs() < 0.006,
            "power-of-two fraction {pow2}, expected {expected}"
        );
        assert!(pow2 > 0.244 + 0.576, "at least the designed 82 %: {pow2}");
    }

    #[test]
    fn mean_log_run_time_matches_the_truncated_hyper_gamma() {
        let recs = typeless_128(100_000);
        let p = Params::typeless(128);
        // Mass and mean of Gamma(a, b) below the truncation point 12.
        let below = |a: f64, b: f64| {
            let mass = reg_lower(a, MAX_LN_RUN / b);
            (mass, a * b * reg_lower(a + 1.0, MAX_LN_RUN / b) / mass)
        };
        let (m1, e1) = below(p.a1, p.b1);
        let (m2, e2) = below(p.a2, p.b2);
        let mut expected = 0.0;
        let mut observed = 0.0;
        for r in &recs {
            let mix = (p.pa * r.allocated_procs.unwrap() as f64 + p.pb).clamp(0.0, 1.0);
            let (w1, w2) = (mix * m1, (1.0 - mix) * m2);
            expected += (w1 * e1 + w2 * e2) / (w1 + w2);
            // Run times are ⌊e^x⌋; adding 0.5 undoes the floor's bias on ln.
            observed += (r.run_time.unwrap() as f64 + 0.5).ln();
        }
        let n = recs.len() as f64;
        let (expected, observed) = (expected / n, observed / n);
        eprintln!("mean ln(run time + 0.5) {observed:.4}, expected {expected:.4}");
        assert!(
            (observed - expected).abs() < 0.03,
            "mean ln(run) {observed}, expected {expected}"
        );
        assert!(
            recs.iter()
                .all(|r| (1..=162_754).contains(&r.run_time.unwrap()))
        );
    }

    #[test]
    fn daily_cycle() {
        let recs = typeless_128(100_000);
        let mut slots = [0usize; BUCKETS];
        for r in &recs {
            slots[(r.submit.unwrap() % 86_400 / 1800) as usize] += 1;
        }
        let per_hour = |from: usize, to: usize| {
            slots[from * 2..to * 2].iter().sum::<usize>() as f64 / (to - from) as f64
        };
        let (day, night) = (per_hour(10, 18), per_hour(0, 6));
        let w = Params::typeless(128).daily_weights();
        let weight_ratio =
            w[20..36].iter().sum::<f64>() / 16.0 / (w[0..12].iter().sum::<f64>() / 12.0);
        let ratio = day / night;
        eprintln!("arrivals per hour 10-18h / 0-6h: {ratio:.2} (weights: {weight_ratio:.2})");
        assert!(ratio > 3.0, "10-18h vs 0-6h arrivals per hour: {ratio}");
        assert!(
            (ratio / weight_ratio - 1.0).abs() < 0.15,
            "ratio {ratio}, weights say {weight_ratio}"
        );
        // The arrival rate follows the weights slot by slot.
        let n = recs.len() as f64;
        for (i, (&count, &weight)) in slots.iter().zip(&w).enumerate() {
            let rate = count as f64 / n * BUCKETS as f64;
            assert!(
                (rate - weight).abs() < 0.15,
                "slot {i}: rate {rate:.3}, weight {weight:.3}"
            );
        }
        // The gamma mode, (anum − 1)·bnum ≈ 28.4, is gamma index 28, slot 27
        // (13:30–14:00). The top is flat (slots 24–32 are within 5 % of it),
        // so smooth over seven slots against noise.
        let smooth = |i: usize| {
            (0..7)
                .map(|d| slots[(i + BUCKETS + d - 3) % BUCKETS])
                .sum::<usize>()
        };
        let peak = (0..BUCKETS).max_by_key(|&i| smooth(i)).unwrap();
        eprintln!("peak slot (7-slot smoothing) {peak}");
        assert!((24..=31).contains(&peak), "peak slot {peak}");
        let heaviest = (0..BUCKETS).max_by(|&a, &b| w[a].total_cmp(&w[b])).unwrap();
        assert_eq!(heaviest, 27);
        assert!((w.iter().sum::<f64>() - 48.0).abs() < 1e-9);
    }

    #[test]
    fn two_classes_merge_in_order() {
        let g = Lublin99 {
            procs: 128,
            duration: 30 * 86_400,
            max_jobs: None,
            seed: 7,
            two_class: true,
            ..Default::default()
        };
        let recs = g.generate();
        assert!(recs.windows(2).all(|w| w[0].submit <= w[1].submit));
        assert!(recs.iter().all(|r| r.submit.unwrap() < 30 * 86_400));
        let interactive: Vec<_> = recs.iter().filter(|r| r.queue == Some(0)).collect();
        let batch = recs.len() - interactive.len();
        assert!(!interactive.is_empty() && batch > 0);
        // Interactive sizes stay below round(2^5.5) = 45.
        assert!(interactive.iter().all(|r| r.allocated_procs.unwrap() <= 45));
    }

    #[test]
    fn odd_machines() {
        for procs in [1, 2, 3, 100, 338, 1152] {
            let g = Lublin99 {
                procs,
                duration: i64::MAX,
                max_jobs: Some(3000),
                seed: 1,
                two_class: procs % 2 == 0,
                ..Default::default()
            };
            let recs = g.generate();
            assert_eq!(recs.len(), 3000);
            let max = recs
                .iter()
                .map(|r| r.allocated_procs.unwrap())
                .max()
                .unwrap();
            assert!(max <= i64::from(procs), "procs {procs}: max size {max}");
        }
        let none = Lublin99 {
            procs: 0,
            duration: i64::MAX,
            max_jobs: Some(5),
            seed: 1,
            two_class: false,
            ..Default::default()
        };
        assert!(none.generate().is_empty());
    }
}
