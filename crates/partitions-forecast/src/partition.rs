//! Partition predicates.

/// The run-time classes of Lawson & Smirni that choose a job's partition
/// (Assunção & Buyya, eq. 1): `p = 1` for `0 < t_r < 1000`, `p = 2` for
/// `1000 <= t_r < 10000`, `p = 3` for `t_r >= 10000`, with `t_r` in seconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            three,
            [
                RunTimeClass::Short,
                RunTimeClass::Medium,
                RunTimeClass::Long
            ]
        );
    }
}
