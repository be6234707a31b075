//! Each node's next event and the soonest of them all: a tournament tree
//! over the nodes, updated in place when a node's event changes.
//!
//! A node has at most one pending event at a time (a recomputation
//! replaces it), so the cluster's events are totally ordered by `(time,
//! node)`: the tree's root is the next one. Unlike a heap of every event
//! ever scheduled, superseded events are overwritten, never stored and
//! popped.

use profile::Time;

/// No event: above every real one (events lie at or before
/// [`Time::LATEST`]).
const NONE: (Time, usize) = (Time(i64::MAX), usize::MAX);

/// Every node's pending event, `(time, node)`, and their minimum.
#[derive(Clone, Debug)]
pub(crate) struct NodeEvents {
    /// `tree[1]` is the minimum; node `k`'s children are `2k` and `2k + 1`;
    /// node `j`'s event is the leaf `leaves + j`.
    tree: Vec<(Time, usize)>,
    leaves: usize,
}

impl NodeEvents {
    /// No event on any of `nodes` nodes.
    pub(crate) fn new(nodes: usize) -> NodeEvents {
        let leaves = nodes.max(1).next_power_of_two();
        NodeEvents {
            tree: vec![NONE; 2 * leaves],
            leaves,
        }
    }

    /// Node `j`'s pending event becomes `at` (`None`: it has none).
    pub(crate) fn set(&mut self, j: usize, at: Option<Time>) {
        debug_assert!(at.is_none_or(|t| t <= Time::LATEST));
        let mut k = self.leaves + j;
        self.tree[k] = at.map_or(NONE, |t| (t, j));
        while k > 1 {
            k /= 2;
            let least = self.tree[2 * k].min(self.tree[2 * k + 1]);
            if self.tree[k] == least {
                // Every ancestor already holds what it would be recomputed to.
                break;
            }
            self.tree[k] = least;
        }
    }

    /// The soonest pending event, `(time, node)`, ties by the lower node.
    pub(crate) fn first(&self) -> Option<(Time, usize)> {
        Some(self.tree[1]).filter(|&e| e != NONE)
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Against a heap of `(time, node, version)` with superseded events
    /// skipped (what the cluster used before): the same event first after
    /// every update, over random updates on several sizes.
    #[test]
    fn the_first_event_is_the_heaps() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for nodes in [1, 2, 3, 5, 8, 13, 128] {
            let mut tree = NodeEvents::new(nodes);
            let mut heap: BinaryHeap<Reverse<(Time, usize, u64)>> = BinaryHeap::new();
            let mut version = vec![0u64; nodes];
            for _ in 0..2000 {
                let j = rng.random_range(0..nodes);
                // Few distinct times, so that ties between nodes are common.
                let at = rng.random_bool(0.8).then(|| Time(rng.random_range(0..20)));
                version[j] += 1;
                if let Some(t) = at {
                    heap.push(Reverse((t, j, version[j])));
                }
                tree.set(j, at);
                while heap.peek().is_some_and(|e| e.0.2 != version[e.0.1]) {
                    heap.pop();
                }
                assert_eq!(tree.first(), heap.peek().map(|e| (e.0.0, e.0.1)));
            }
        }
    }

    #[test]
    fn an_event_at_the_latest_time_is_kept() {
        let mut tree = NodeEvents::new(3);
        assert_eq!(tree.first(), None);
        tree.set(2, Some(Time::LATEST));
        assert_eq!(tree.first(), Some((Time::LATEST, 2)));
        tree.set(0, Some(Time::LATEST));
        assert_eq!(tree.first(), Some((Time::LATEST, 0)));
        tree.set(0, None);
        tree.set(2, None);
        assert_eq!(tree.first(), None);
    }
}
