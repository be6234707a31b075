//! The job numbers a reader has seen, so a repeated one is refused.

use std::collections::HashMap;

/// The job numbers (SWF field 1) seen so far, each with the line that has
/// it. Logs number their jobs in increasing order, so the common case
/// appends to a sorted vector (16 bytes a record, a fraction of what the
/// caller keeps per record); the first number out of order moves them
/// into a map. Unknown numbers (-1, read as `None`) may repeat; every
/// other one, negative or not, names one job.
#[derive(Debug, Default)]
pub(crate) struct JobNumbers {
    /// Sorted by number while every number was above the ones before.
    sorted: Vec<(i64, u64)>,
    /// Every number with its line, once one came out of order.
    map: Option<HashMap<i64, u64>>,
}

impl JobNumbers {
    /// Records `job` at `line`; `Err(first_line)` if an earlier line has it.
    pub(crate) fn insert(&mut self, job: Option<i64>, line: u64) -> Result<(), u64> {
        // Only -1 (`None`) is unknown: any other number, negative ones
        // included, names one job, as the writer reads it.
        let Some(job) = job else {
            return Ok(());
        };
        if let Some(map) = self.map.as_mut() {
            return match map.insert(job, line) {
                None => Ok(()),
                Some(first) => {
                    map.insert(job, first);
                    Err(first)
                }
            };
        }
        match self.sorted.last() {
            Some(&(last, _)) if job <= last => {
                if let Ok(i) = self.sorted.binary_search_by_key(&job, |&(j, _)| j) {
                    return Err(self.sorted[i].1);
                }
                let mut map: HashMap<i64, u64> = self.sorted.drain(..).collect();
                self.sorted = Vec::new();
                map.insert(job, line);
                self.map = Some(map);
                Ok(())
            }
            _ => {
                self.sorted.push((job, line));
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeat_is_refused_with_the_first_line_in_order_or_not() {
        let mut seen = JobNumbers::default();
        assert_eq!(seen.insert(Some(1), 10), Ok(()));
        assert_eq!(seen.insert(Some(3), 11), Ok(()));
        assert_eq!(seen.insert(Some(3), 12), Err(11));
        assert_eq!(seen.insert(Some(1), 13), Err(10));
        // Out of order but new: the numbers move to the map.
        assert_eq!(seen.insert(Some(2), 14), Ok(()));
        assert!(seen.map.is_some());
        assert_eq!(seen.insert(Some(3), 15), Err(11));
        assert_eq!(seen.insert(Some(2), 16), Err(14));
        assert_eq!(seen.insert(Some(7), 17), Ok(()));
        assert_eq!(seen.insert(Some(7), 18), Err(17));
    }

    #[test]
    fn unknown_numbers_may_repeat() {
        let mut seen = JobNumbers::default();
        for line in 1..5 {
            assert_eq!(seen.insert(None, line), Ok(()));
        }
        assert!(seen.sorted.is_empty());
    }

    #[test]
    fn a_negative_number_other_than_unknown_names_one_job() {
        // The reader reads -1 as `None`; -2 is a number, as the writer
        // reads it, so a second -2 is refused there and here alike.
        let mut seen = JobNumbers::default();
        assert_eq!(seen.insert(Some(-2), 1), Ok(()));
        assert_eq!(seen.insert(Some(-2), 2), Err(1));
    }
}
