//! Partition predicates and specifications.

use std::fmt;

use profile::Job;

/// The run-time classes of Lawson & Smirni that choose a job's partition
/// (Assunção & Buyya, eq. 1): `p = 1` for `0 < t_r < 1000`, `p = 2` for
/// `1000 <= t_r < 10000`, `p = 3` for `t_r >= 10000`, with `t_r` in seconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RunTimeClass {
    /// `p = 1`: shorter than 1000 s.
    Short,
    /// `p = 2`: at least 1000 s and shorter than 10000 s.
    Medium,
    /// `p = 3`: 10000 s or longer.
    Long,
}

impl RunTimeClass {
    /// The first run time of [`RunTimeClass::Medium`], in seconds.
    pub const MEDIUM_FROM: i64 = 1000;
    /// The first run time of [`RunTimeClass::Long`], in seconds.
    pub const LONG_FROM: i64 = 10_000;
    /// The three classes in partition order.
    pub const ALL: [RunTimeClass; 3] = [
        RunTimeClass::Short,
        RunTimeClass::Medium,
        RunTimeClass::Long,
    ];

    /// The class of a job with run time `t_r` seconds (eq. 1).
    ///
    /// Eq. 1 leaves `t_r <= 0` undefined; such a job is short (partition 1).
    /// A scheduler knows estimates, not run times: the paper's setup uses
    /// run times as estimates, so callers pass the estimate.
    pub fn of(t_r: i64) -> RunTimeClass {
        if t_r < Self::MEDIUM_FROM {
            RunTimeClass::Short
        } else if t_r < Self::LONG_FROM {
            RunTimeClass::Medium
        } else {
            RunTimeClass::Long
        }
    }

    /// The partition number `p ∈ {1, 2, 3}` of eq. 1.
    pub fn partition(self) -> u8 {
        match self {
            RunTimeClass::Short => 1,
            RunTimeClass::Medium => 2,
            RunTimeClass::Long => 3,
        }
    }
}

/// Where a job comes from: the provider's own users, or the grid gateway.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Origin {
    /// Submitted by the provider's local users.
    Local,
    /// Submitted (or reserved) by the grid gateway.
    Grid,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Local => "local",
            Origin::Grid => "grid",
        })
    }
}

/// Which jobs a partition takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Predicate {
    /// Every job.
    Any,
    /// Jobs whose estimate falls in a run-time class (eq. 1).
    RunTime(RunTimeClass),
    /// Jobs of one origin (local or grid).
    Origin(Origin),
}

impl Predicate {
    /// Whether a job of `origin` belongs here. Run-time classes look at the
    /// estimate, the only duration a scheduler knows.
    pub fn accepts(&self, job: &Job, origin: Origin) -> bool {
        match *self {
            Predicate::Any => true,
            Predicate::RunTime(class) => RunTimeClass::of(job.estimate) == class,
            Predicate::Origin(o) => o == origin,
        }
    }
}

/// The number of pivots meaning "every waiting job" (conservative backfilling).
pub const UNLIMITED: u32 = u32::MAX;

/// One resource partition: its predicate, its size in processors and its
/// number of pivots (`1` = EASY backfilling, [`UNLIMITED`] = conservative).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PartitionSpec {
    /// A short name for reports (`short`, `grid`, ...).
    pub name: String,
    /// Which jobs the partition takes; a job goes to the first partition
    /// whose predicate accepts it.
    pub predicate: Predicate,
    /// Processors the partition owns; the sizes of a cluster add up to its
    /// capacity.
    pub size: u32,
    /// Waiting jobs of the partition that hold a reservation at most (at
    /// least 1).
    pub pivots: u32,
    /// Whether jobs of other partitions may borrow its idle processors
    /// (never at the expense of its pivots).
    pub lends: bool,
}

impl PartitionSpec {
    /// A partition named `name` taking the jobs `predicate` accepts.
    pub fn new(
        name: impl Into<String>,
        predicate: Predicate,
        size: u32,
        pivots: u32,
    ) -> PartitionSpec {
        PartitionSpec {
            name: name.into(),
            predicate,
            size,
            pivots,
            lends: true,
        }
    }

    /// The same partition, lending its idle processors or not.
    pub fn lending(mut self, lends: bool) -> PartitionSpec {
        self.lends = lends;
        self
    }
}

/// Splits `capacity` processors into `parts` shares that differ by at most
/// one, the larger ones first (Lawson & Smirni start from equal partitions).
pub fn equal_sizes(capacity: u32, parts: u32) -> Vec<u32> {
    if parts == 0 {
        return Vec::new();
    }
    let (base, extra) = (capacity / parts, capacity % parts);
    (0..parts).map(|i| base + u32::from(i < extra)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use profile::Time;

    #[test]
    fn equation_1() {
        let check =
            |t_r: i64, p: u8| assert_eq!(RunTimeClass::of(t_r).partition(), p, "t_r = {t_r}");
        check(1, 1);
        check(999, 1);
        check(1000, 2);
        check(9999, 2);
        check(10_000, 3);
        check(i64::MAX, 3);
        // Outside eq. 1's domain: treated as short.
        check(0, 1);
        check(-1, 1);
    }

    #[test]
    fn classes_are_ordered_like_run_times() {
        let classes: Vec<RunTimeClass> = (0..20_000).step_by(7).map(RunTimeClass::of).collect();
        assert!(
            classes.windows(2).all(|w| w[0] <= w[1]),
            "longer never means a shorter class"
        );
        let three = [5, 5000, 50_000].map(RunTimeClass::of);
        assert_eq!(three, RunTimeClass::ALL);
    }

    #[test]
    fn predicates() {
        let job = Job::new(1, Time(0), 4, 5000, 10);
        assert!(Predicate::Any.accepts(&job, Origin::Local));
        assert!(Predicate::RunTime(RunTimeClass::Medium).accepts(&job, Origin::Grid));
        assert!(!Predicate::RunTime(RunTimeClass::Short).accepts(&job, Origin::Grid));
        assert!(Predicate::Origin(Origin::Grid).accepts(&job, Origin::Grid));
        assert!(!Predicate::Origin(Origin::Local).accepts(&job, Origin::Grid));
    }

    #[test]
    fn equal_sizes_add_up() {
        assert_eq!(equal_sizes(64, 3), vec![22, 21, 21]);
        assert_eq!(equal_sizes(144, 3), vec![48, 48, 48]);
        assert_eq!(equal_sizes(2, 3), vec![1, 1, 0]);
        assert!(equal_sizes(5, 0).is_empty());
    }
}
