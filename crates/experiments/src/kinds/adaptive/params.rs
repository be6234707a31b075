//! The `adaptive` kind's `[params]` keys, documented for `cargo xtask describe`
//! and `configs/README.md`: key, unit, one line (types and defaults come
//! from `Params::default()`; a test checks that every key has a line).

use crate::kind::Param;

/// Every `[params]` key of the `adaptive` kind.
pub(super) const PARAMS: &[Param] = &[
    Param::new(
        "policy",
        "",
        "the scheduler (each series sets it): `fifo` (FIFO with conservative backfilling) or `mdf` (Missing Deadline First)",
    ),
    Param::new(
        "preemptive",
        "",
        "whether requests drawn as preemptive may be split (each series sets it)",
    ),
    Param::new(
        "moldable",
        "",
        "whether requests are moldable (each series sets it)",
    ),
    Param::new(
        "interval_days",
        "days",
        "length of the consecutive intervals the trace is cut into; each interval is one sample",
    ),
    Param::new(
        "load_increase",
        "%",
        "more submissions per unit of time (inter-arrival times compressed); above -100",
    ),
    Param::new(
        "incentive",
        "%",
        "of the price preemptive requests do not pay, 0 to 100",
    ),
    Param::new(
        "budget",
        "",
        "how budgets bind: `limit` (a placement above the budget is not acceptable) or `cap` (the provider charges at most the budget)",
    ),
    Param::new(
        "mdf_fallback",
        "",
        "what MDF does when rescheduling with a new request fails: `reject` the new request, or `append` it as FIFO would",
    ),
    Param::new(
        "mdf_rescheduling",
        "",
        "how MDF places the waiting requests again on an arrival: `full` (the paper's) or `incremental`",
    ),
    Param::new(
        "table1.r_min_percent",
        "% of R^max",
        "`R^min` (rounded up), at most 100",
    ),
    Param::new(
        "table1.rigid_up_to",
        "processors",
        "requests for up to this many processors are not moldable",
    ),
    Param::new(
        "table1.preemptive_share",
        "share, 0 to 1",
        "share of the requests of at least `preemptive_min_run` seconds that get `Sp` (a draw per request)",
    ),
    Param::new(
        "table1.preemptive_min_run",
        "s",
        "requests shorter than this are never split",
    ),
    Param::new(
        "table1.sp_parts",
        "parts",
        "`N` of `Sp`: the most parts a request is split into",
    ),
    Param::new(
        "table1.sp_percent",
        "% of the work",
        "`I` of `Sp`, 1 to 100",
    ),
    Param::new(
        "table1.sp_mold_each",
        "",
        "`M` of `Sp`: whether each part may be molded",
    ),
    Param::new(
        "table1.high_share",
        "share, 0 to 1",
        "share of the requests in the high price profile",
    ),
    Param::new(
        "table1.high_profile",
        "× the low price",
        "the high price profile (the low one is 1)",
    ),
    Param::new(
        "table1.deadline_factor",
        "× T^min",
        "deadline `D = T^min · deadline_factor` (+ `low_extra` for the low profile)",
    ),
    Param::new(
        "table1.low_extra",
        "s",
        "added to the deadline of low-profile requests",
    ),
    Param::new("table1.rate", "$ per processor-hour", "the price rate"),
    Param::new(
        "table1.max_discount",
        "share, 0 to 1",
        "largest share of the price a late completion takes off",
    ),
];
