//! The `pricing` kind's `[params]` keys, documented for `cargo xtask describe`
//! and `configs/README.md`: key, unit, one line (types and defaults come
//! from `Params::default()`; a test checks that every key has a line).

use crate::kind::Param;

/// Every `[params]` key of the `pricing` kind.
pub(super) const PARAMS: &[Param] = &[
    Param::new(
        "policy",
        "",
        "the policy (each series sets it): `fcfs-bf`, `sjf-bf`, `edf-bf` (EASY with that queue order, space-shared), `libra`, `libra+$` (time-shared), or a registered policy's name (run as a backfilling baseline)",
    ),
    Param::new("alpha", "", "Libra+$'s static pricing factor α, >= 0"),
    Param::new("beta", "", "Libra+$'s dynamic pricing factor β, >= 0"),
    Param::new("gamma", "", "Libra's static cost factor γ, >= 0"),
    Param::new("delta", "", "Libra's dynamic cost factor δ, >= 0"),
    Param::new(
        "base_price",
        "$ per processor-second",
        "`PBase`, on any node; a job's base cost is f(R) = R · PBase",
    ),
    Param::new(
        "arrival_delay",
        "factor",
        "the trace's inter-arrival times are multiplied by this (0.5 doubles the load); > 0",
    ),
    Param::new(
        "high_urgency",
        "% of jobs",
        "jobs in the high-urgency class, 0 to 100",
    ),
    Param::new(
        "inaccuracy",
        "%",
        "runtime under-estimation: the estimate is RE = R · (1 − x/100), R the job's run time (the kind reads no workload `estimate`)",
    ),
    Param::new(
        "deadline_low_mean",
        "× run time",
        "mean of the low deadline factor D/R (the high-urgency class)",
    ),
    Param::new("deadline_ratio", "", "high:low ratio of the D/R means"),
    Param::new(
        "budget_low_mean",
        "× f(R)",
        "mean of the low budget factor B/f(R) (the low-urgency class)",
    ),
    Param::new("budget_ratio", "", "high:low ratio of the B/f(R) means"),
    Param::new(
        "spread",
        "fraction of the mean",
        "standard deviation of a factor within its class",
    ),
    Param::new(
        "rating",
        "SPEC rating",
        "of every node (and of the trace's run times)",
    ),
    Param::new(
        "spare",
        "",
        "Algorithm 2's unclaimed processor time: `proportional` (partitions as weights), `equal` (split equally) or `idle` (lost)",
    ),
    Param::new(
        "late",
        "",
        "a late job's partition: `full` (the whole processor) or `zero` (only time no other job claims)",
    ),
    Param::new(
        "committed",
        "",
        "eq. 6's committed processor time: `estimate` (as printed), `remaining` or `window`",
    ),
    Param::new(
        "drop",
        "",
        "when the backfilling baselines drop a waiting job: `hopeless` (once it cannot finish by its deadline) or `lapsed` (once its deadline has passed)",
    ),
];
