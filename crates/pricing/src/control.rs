//! Job control on a time-shared node (Algorithm 2): each executing job gets
//! the processor time partition `(RE_i − clockCPU_ij) / (D_i − clockWall_i)`,
//! the share that finishes its remaining estimated work exactly at its
//! deadline; the node's proportional-share scheduler then turns the
//! partitions into rates that never sum to more than the one processor.
//!
//! The paper leaves two cases open, and this module names a choice for each
//! (see `docs/pricing.md`):
//!
//! * **Spare time** — what the node does with `1 − Σ partitions`
//!   ([`Spare`]).
//! * **Late jobs** — a job still running at its deadline, where the formula
//!   divides by zero or less ([`Late`]). A job whose estimate is used up
//!   before its deadline gets partition 0 by the formula itself.

use crate::error::PricingError;

/// Below this much processor time (seconds), work counts as done.
pub(crate) const WORK_EPS: f64 = 1e-6;

/// What a node does with processor time no partition claims.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Spare {
    /// Partitions are weights: each job gets `partition / Σ partitions` of
    /// the processor (the proportional-share allocation the paper adopts
    /// from Libra, work-conserving); jobs with partition 0 run only when
    /// every partition on the node is 0. The default.
    #[default]
    Proportional,
    /// Each job gets its partition, and the unclaimed time is split equally
    /// among the node's executing jobs (a guaranteed-share scheduler that
    /// round-robins idle cycles).
    Equal,
    /// Each job gets exactly its partition; unclaimed time is lost
    /// (Algorithm 2 read literally).
    Idle,
}

/// The partition of a job still executing at (or after) its deadline.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Late {
    /// The whole processor (partition 1): the limit of Algorithm 2 as
    /// `clockWall → D` with work left. A late job competes with the others,
    /// which delays them. The default.
    #[default]
    Full,
    /// Partition 0: a late job runs only on time no other job claims.
    Zero,
}

/// The job-control settings of a node.
///
/// `spare = idle` with `late = zero` is refused (by a cluster, and with the
/// `serde` feature when read): a job whose partition is 0 would never run
/// again.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(remote = "Self", deny_unknown_fields))]
pub struct JobControl {
    /// Unclaimed processor time.
    #[cfg_attr(feature = "serde", serde(default))]
    pub spare: Spare,
    /// Jobs past their deadline.
    #[cfg_attr(feature = "serde", serde(default))]
    pub late: Late,
}

impl JobControl {
    /// `Err` for the one combination under which a job may never finish.
    pub(crate) fn check(&self) -> Result<(), PricingError> {
        if self.spare == Spare::Idle && self.late == Late::Zero {
            return Err(PricingError::InvalidControl {
                reason: "with spare = idle and late = zero a job whose partition is 0 never runs \
                         again; choose another spare or late setting",
            });
        }
        Ok(())
    }
}

#[cfg(feature = "serde")]
checked_serde!(JobControl, JobControl::check);

/// Algorithm 2, line 4: the processor time partition of a job with estimate
/// `estimate` (`RE_ij`, seconds) and relative deadline `deadline` (`D_i`)
/// that has received `cpu_done` seconds of processor time (`clockCPU_ij`)
/// in `wall` seconds since it started (`clockWall_i`).
///
/// The result lies in `[0, 1]` for every input, NaN and infinities
/// included (a NaN or infinite remainder counts as work left): at most the whole processor; 0 once the
/// estimate is used up before the deadline; [`Late`] decides at or after the
/// deadline.
///
/// ```
/// use pricing::{partition, Late};
/// // One hour of work in a four-hour window: a quarter of the processor.
/// assert_eq!(partition(3600.0, 0.0, 14_400, 0, Late::Full), 0.25);
/// // Half of it done after one hour: 1800 s left in 3 h.
/// assert_eq!(partition(3600.0, 1800.0, 14_400, 3600, Late::Full), 1800.0 / 10_800.0);
/// // Past the deadline with work left.
/// assert_eq!(partition(3600.0, 3000.0, 14_400, 14_400, Late::Full), 1.0);
/// ```
pub fn partition(estimate: f64, cpu_done: f64, deadline: i64, wall: i64, late: Late) -> f64 {
    partition_left(estimate, cpu_done, deadline.saturating_sub(wall), late)
}

/// [`partition`] with `left = deadline − wall` seconds to the deadline: the
/// cluster's hot path, which knows each task's absolute deadline.
///
/// Every case is computed and one is selected, without branches: the
/// cluster sums these over a node's tasks at every arrival, and branches
/// there cost the loop its registers. The same number as testing the cases
/// in turn (a division by a `left` of 0 or less is made and discarded).
#[inline]
pub(crate) fn partition_left(estimate: f64, cpu_done: f64, left: i64, late: Late) -> f64 {
    let late = match late {
        Late::Full => 1.0,
        Late::Zero => 0.0,
    };
    let remaining = estimate - cpu_done;
    let share = capped(remaining / left as f64, 1.0);
    let share = if remaining <= WORK_EPS { 0.0 } else { share };
    if left <= 0 { late } else { share }
}

/// `x.min(cap)` for a `cap` that is never NaN: the same number for every
/// `x` (a NaN `x` gives `cap`, as `min` does), without `min`'s NaN case.
#[inline]
pub(crate) fn capped(x: f64, cap: f64) -> f64 {
    if x < cap { x } else { cap }
}

/// The rates at which the node's processor serves jobs with the given
/// `partitions`: never more than one processor in total, and (when the
/// partitions sum to at most 1) never less than each job's partition.
///
/// Over-committed nodes (partitions summing to more than 1, which only late
/// or under-estimated jobs cause) scale every partition down by the sum.
///
/// ```
/// use pricing::{rates, Spare};
/// let p = [0.5, 0.25, 0.0];
/// assert_eq!(rates(&p, Spare::Equal)?, vec![0.5 + 0.25 / 3.0, 0.25 + 0.25 / 3.0, 0.25 / 3.0]);
/// assert_eq!(rates(&p, Spare::Proportional)?, vec![2.0 / 3.0, 1.0 / 3.0, 0.0]);
/// assert_eq!(rates(&p, Spare::Idle)?, vec![0.5, 0.25, 0.0]);
/// assert_eq!(rates(&[1.0, 1.0], Spare::Idle)?, vec![0.5, 0.5]);
/// # Ok::<(), pricing::PricingError>(())
/// ```
///
/// # Errors
///
/// [`PricingError::InvalidFactor`] (named `partition`) for a partition that
/// is negative, infinite or NaN, or (named `sum of the partitions`) for
/// partitions whose sum overflows; [`partition`] never gives one. The rates
/// of valid partitions are finite.
pub fn rates(partitions: &[f64], spare: Spare) -> Result<Vec<f64>, PricingError> {
    for &p in partitions {
        crate::error::factor("partition", p)?;
    }
    // Huge partitions overflow their sum, which then scaled every rate to 0.
    let sum: f64 = partitions.iter().sum();
    crate::error::factor("sum of the partitions", sum)?;
    Ok(spread(partitions, spare))
}

/// [`rates`] of partitions known to be valid (from [`partition`]): the
/// cluster's hot path, unchecked.
pub(crate) fn spread(partitions: &[f64], spare: Spare) -> Vec<f64> {
    let mut rates = Vec::with_capacity(partitions.len());
    spread_into(partitions, spare, &mut rates);
    rates
}

/// [`spread`] into `rates` (cleared first), reusing its allocation.
pub(crate) fn spread_into(partitions: &[f64], spare: Spare, rates: &mut Vec<f64>) {
    rates.clear();
    let n = partitions.len();
    let sum: f64 = partitions.iter().sum();
    if sum > 1.0 {
        rates.extend(partitions.iter().map(|p| p / sum));
        return;
    }
    match spare {
        Spare::Idle => rates.extend_from_slice(partitions),
        Spare::Equal => {
            let extra = (1.0 - sum) / n.max(1) as f64;
            rates.extend(partitions.iter().map(|p| p + extra));
        }
        Spare::Proportional if sum > 0.0 => rates.extend(partitions.iter().map(|p| p / sum)),
        Spare::Proportional => rates.resize(n, 1.0 / n.max(1) as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`partition_left`] as the paper's cases read, one after the other.
    fn partition_in_turn(estimate: f64, cpu_done: f64, left: i64, late: Late) -> f64 {
        if left <= 0 {
            return match late {
                Late::Full => 1.0,
                Late::Zero => 0.0,
            };
        }
        let remaining = estimate - cpu_done;
        if remaining <= WORK_EPS {
            return 0.0;
        }
        capped(remaining / left as f64, 1.0)
    }

    #[test]
    fn partition_selected_is_partition_in_turn_bit_for_bit() {
        let values = profile::testing::EDGE_F64
            .iter()
            .copied()
            .chain([0.0, 1e-7, 1e-6, 2e-6, 0.5, 1.0, 3600.0, 1e12]);
        let values: Vec<f64> = values.collect();
        let lefts = [i64::MIN, -7200, -1, 0, 1, 2, 3600, 1 << 40, i64::MAX];
        for &estimate in &values {
            for &cpu in &values {
                for left in lefts {
                    for late in [Late::Full, Late::Zero] {
                        let got = partition_left(estimate, cpu, left, late);
                        let want = partition_in_turn(estimate, cpu, left, late);
                        assert_eq!(
                            got.to_bits(),
                            want.to_bits(),
                            "{estimate} {cpu} {left} {late:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn partition_cases() {
        // Exactly enough: finishes at the deadline at this share.
        assert_eq!(partition(100.0, 0.0, 400, 0, Late::Full), 0.25);
        // Behind schedule, capped at one processor.
        assert_eq!(partition(100.0, 0.0, 400, 350, Late::Full), 1.0);
        // Estimate used up before the deadline.
        assert_eq!(partition(100.0, 100.0, 400, 200, Late::Full), 0.0);
        assert_eq!(partition(100.0, 120.0, 400, 200, Late::Zero), 0.0);
        // At and after the deadline.
        assert_eq!(partition(100.0, 100.0, 400, 400, Late::Full), 1.0);
        assert_eq!(partition(100.0, 50.0, 400, 500, Late::Zero), 0.0);
    }

    #[test]
    fn rates_never_exceed_one_processor() {
        for spare in [Spare::Equal, Spare::Proportional, Spare::Idle] {
            for p in [
                vec![],
                vec![0.0],
                vec![0.3, 0.3],
                vec![1.0, 0.5, 0.25],
                vec![0.0, 0.0, 0.0],
            ] {
                let r = rates(&p, spare).unwrap();
                assert_eq!(r.len(), p.len());
                assert!(
                    r.iter().sum::<f64>() <= 1.0 + 1e-12,
                    "{spare:?} {p:?} {r:?}"
                );
                if p.iter().sum::<f64>() <= 1.0 {
                    assert!(r.iter().zip(&p).all(|(r, p)| r >= p), "{spare:?} {p:?}");
                }
            }
        }
        // A lone job whose partition is 0 still runs, except when time is lost.
        assert_eq!(rates(&[0.0], Spare::Equal), Ok(vec![1.0]));
        assert_eq!(rates(&[0.0], Spare::Proportional), Ok(vec![1.0]));
        assert_eq!(rates(&[0.0], Spare::Idle), Ok(vec![0.0]));
    }
}
