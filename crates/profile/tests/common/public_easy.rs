//! EASY written against the scheduler trait's public view only, shared by
//! the test binaries that step a simulation
//! (`#[path = "../common/public_easy.rs"] mod public_easy;`).

use profile::{Context, SimError};

/// Reserve the first job that cannot start, start every other job that
/// fits beside it, lift the reservation when the decision is over: the
/// built-in EASY's schedule, decision for decision.
pub fn easy_decision(ctx: &mut Context<'_>) -> Result<(), SimError> {
    let now = ctx.now();
    let mut head = None;
    let mut k = 0;
    while let Some(w) = ctx.waiting(k) {
        if ctx
            .profile()
            .earliest_start(now, w.job.procs, w.job.estimate)
            == Some(now)
        {
            ctx.start(k)?;
            continue;
        }
        if head.is_none() {
            ctx.reserve_earliest(k)?;
            head = Some(k);
        }
        k += 1;
    }
    if let Some(k) = head {
        ctx.unreserve(k)?;
    }
    Ok(())
}
