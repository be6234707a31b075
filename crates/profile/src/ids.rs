//! The one check for repeated ids in a list of jobs (or requests, or
//! tasks), shared by every entry point that takes such a list.

/// Two items of one list that carry the same id: the first repeat met when
/// reading the list in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RepeatedId {
    /// The id both items carry.
    pub id: u64,
    /// Position (0-based) of the first item with it.
    pub first: usize,
    /// Position (0-based) of the second item with it, `first < second`.
    pub second: usize,
}

/// The first repeated id of `ids` (in list order): the smallest `second`
/// whose id an earlier item carries, with that earlier item's position as
/// `first`; `None` if every id is distinct.
///
/// Linear, with no allocation, while the ids rise strictly (jobs numbered
/// in order, the common case); otherwise it sorts a copy of `(id,
/// position)` pairs, `O(n log n)`. The answer is the same either way.
///
/// ```
/// use profile::{RepeatedId, repeated_id};
///
/// assert_eq!(repeated_id([1, 2, 3].into_iter()), None);
/// assert_eq!(
///     repeated_id([4, 9, 7, 9, 4].into_iter()),
///     Some(RepeatedId { id: 9, first: 1, second: 3 })
/// );
/// ```
pub fn repeated_id<I>(ids: I) -> Option<RepeatedId>
where
    I: Iterator<Item = u64> + Clone,
{
    let mut rising = ids.clone();
    let mut last = rising.next()?;
    if rising.all(|id| {
        let up = id > last;
        last = id;
        up
    }) {
        return None;
    }
    let mut sorted: Vec<(u64, usize)> = ids.enumerate().map(|(i, id)| (id, i)).collect();
    // Positions are distinct: an unstable sort gives one order.
    sorted.sort_unstable();
    let mut best: Option<RepeatedId> = None;
    let mut k = 0;
    while k < sorted.len() {
        let (id, first) = sorted[k];
        let mut end = k + 1;
        while end < sorted.len() && sorted[end].0 == id {
            end += 1;
        }
        if end - k >= 2 {
            let second = sorted[k + 1].1;
            if best.is_none_or(|b| second < b.second) {
                best = Some(RepeatedId { id, first, second });
            }
        }
        k = end;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obviously correct twin: read in order, remember what was seen.
    fn naive(ids: &[u64]) -> Option<RepeatedId> {
        (1..ids.len()).find_map(|second| {
            (0..second)
                .find(|&first| ids[first] == ids[second])
                .map(|first| RepeatedId {
                    id: ids[second],
                    first,
                    second,
                })
        })
    }

    #[test]
    fn the_first_repeat_in_list_order_with_both_positions() {
        let cases: &[&[u64]] = &[
            &[],
            &[5],
            &[1, 2, 3],
            &[1, 1],
            &[3, 2, 1],
            &[2, 1, 2],
            &[7, 7, 7],
            &[5, 1, 9, 1, 5],
            &[9, 5, 1, 5, 9],
            &[0, u64::MAX, 0],
            &[1, 2, 3, 3],
            &[4, 9, 7, 9, 4],
        ];
        for ids in cases {
            assert_eq!(repeated_id(ids.iter().copied()), naive(ids), "{ids:?}");
        }
    }

    #[test]
    fn every_short_list_of_small_ids_agrees_with_the_naive_scan() {
        // Every list of length up to 5 over ids 0..4: 4^5 + ... lists.
        for len in 0..=5u32 {
            for code in 0..4u64.pow(len) {
                let ids: Vec<u64> = (0..len).map(|k| code / 4u64.pow(k) % 4).collect();
                assert_eq!(repeated_id(ids.iter().copied()), naive(&ids), "{ids:?}");
            }
        }
    }
}
