//! The duration of a share of a request's work on one shape: the
//! arithmetic that splitting a request into subrequests conserves work by.

use profile::MAX_DURATION;

use crate::error::ReqError;

/// The time the share `[from, to)` percent of a request takes on a shape
/// whose whole usage time is `time`: `⌈to·time/100⌉ − ⌈from·time/100⌉`.
///
/// The shares of one shape add up to `time` exactly, so splitting a request
/// into subrequests of one shape conserves its work; subrequests molded on
/// their own each run their share of `f_mol` at their own `R`.
///
/// ```
/// use adaptive_requests::{share_duration, ReqError};
/// assert_eq!(share_duration(3600, 0, 10), Ok(360));
/// assert_eq!(share_duration(100, 50, 10), Err(ReqError::Share { from: 50, to: 10 }));
/// ```
///
/// # Errors
///
/// [`ReqError::Share`] unless `0 <= from <= to <= 100`, and
/// [`ReqError::Duration`] or [`ReqError::TooLong`] (naming `time`) for a
/// `time` outside `[1, 2^40]` s, which no `f_mol` gives.
pub fn share_duration(time: i64, from: u32, to: u32) -> Result<i64, ReqError> {
    let name = "time";
    if time <= 0 {
        return Err(ReqError::Duration { name, value: time });
    }
    if time > MAX_DURATION {
        return Err(ReqError::TooLong { name, value: time });
    }
    if from > to || to > 100 {
        return Err(ReqError::Share { from, to });
    }
    Ok(share_of(time, from, to))
}

/// [`share_duration`] for any arguments, unchecked: the search's own, on
/// shapes and boundaries it has checked. Inlined as it was in `place.rs`:
/// a call here costs the splitter's fragment search 3% of its instructions.
#[inline]
pub(crate) fn share_of(time: i64, from: u32, to: u32) -> i64 {
    // In i64 when nothing can overflow (any real request: |time| < 2^55 s,
    // percents up to 255), else in i128; the same numbers either way.
    const SMALL: i64 = 1 << 55;
    if (-SMALL..SMALL).contains(&time) && from < 256 && to < 256 {
        let at = |p: u32| (time * i64::from(p) + 99).div_euclid(100);
        return at(to) - at(from);
    }
    let at = |p: u32| (i128::from(time) * i128::from(p) + 99).div_euclid(100);
    i64::try_from(at(to) - at(from)).unwrap_or(i64::MAX)
}

/// Appends [`share_of`]`(time, from, to)` for every `to` in `ends`,
/// in order: the same numbers, with `⌈from·time/100⌉` computed once where
/// nothing can overflow.
#[inline]
pub(crate) fn push_share_durations(out: &mut Vec<i64>, time: i64, from: u32, ends: &[u32]) {
    const SMALL: i64 = 1 << 55;
    if (-SMALL..SMALL).contains(&time) && from < 256 && ends.iter().all(|&to| to < 256) {
        let at = |p: u32| (time * i64::from(p) + 99).div_euclid(100);
        let start = at(from);
        out.extend(ends.iter().map(|&to| at(to) - start));
    } else {
        out.extend(ends.iter().map(|&to| share_of(time, from, to)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_add_up() {
        for time in [1, 7, 99, 100, 101, 3599, 86_400] {
            let bounds = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
            let total: i64 = bounds
                .windows(2)
                .map(|w| share_duration(time, w[0], w[1]).unwrap())
                .sum();
            assert_eq!(total, time);
            assert_eq!(share_duration(time, 0, 100), Ok(time));
        }
        assert_eq!(share_duration(3600, 0, 10), Ok(360));
        assert_eq!(share_duration(95, 10, 20), Ok(9));
        // The row of shares from one boundary is share_of's, also at
        // the ends of the domain.
        for time in [0, 1, 95, 3599, -7, i64::MAX, i64::MIN, 1 << 55, -(1 << 55)] {
            for (from, ends) in [(0, &[10, 50, 100][..]), (30, &[40, 100]), (10, &[300, 20])] {
                let mut row = Vec::new();
                push_share_durations(&mut row, time, from, ends);
                let expected: Vec<i64> = ends.iter().map(|&to| share_of(time, from, to)).collect();
                assert_eq!(row, expected, "time {time}, from {from}");
            }
        }
    }
}
