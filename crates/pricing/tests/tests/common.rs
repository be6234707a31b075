//! Fixtures shared by the test modules.

use pricing::{NodeLoad, Quote};

/// Node `node`, idle (nothing committed, share 0) and without memory or
/// disk, quoting a job of `runtime_estimate` seconds with a relative
/// `deadline` at a base price of 1 per second (`res_max` = the deadline).
pub(crate) fn idle_node(node: usize, runtime_estimate: i64, deadline: i64) -> NodeLoad {
    NodeLoad {
        node,
        memory_mb: 0,
        disk_mb: 0,
        free_memory_mb: 0,
        free_disk_mb: 0,
        share: 0.0,
        quote: Quote {
            runtime_estimate,
            deadline,
            base_price: 1.0,
            res_max: deadline,
            committed: 0,
        },
    }
}
