//! The checks `run` makes before a run starts (settings, timer counts and
//! the grid jobs' times) and on the answers of a user's policy and
//! providers as they come (a [`Choice`]'s times, a utilisation), each
//! failing with a [`GatewayError`].

use profile::{Job, MAX_DURATION, Time};

use super::{GatewayConfig, GatewayError, Information, MAX_ATTEMPTS, MAX_TICKS};
use crate::policy::{Choice, Provisioning};

/// Checks the settings of `config`: periods and a horizon of 1 s to
/// 2^40 s, timers within ±2^40 s, at most [`MAX_ATTEMPTS`] attempts.
pub(super) fn check_settings<Q: Provisioning>(
    config: &GatewayConfig<Q>,
) -> Result<(), GatewayError> {
    let limit = Time::LIMIT.secs();
    let setting = |name, value: i64, min: i64, max: i64| {
        if (min..=max).contains(&value) {
            Ok(())
        } else {
            Err(GatewayError::Setting {
                name,
                value,
                min,
                max,
            })
        }
    };
    setting("start", config.start.secs(), -limit, limit)?;
    // A horizon of 0 s or less describes no slot at all: every provider
    // would look full for ever.
    if let Some(h) = config.horizon {
        setting("horizon", h, 1, MAX_DURATION)?;
    }
    if let Some(t) = config.timers_until {
        setting("timers_until", t.secs(), -limit, limit)?;
    }
    setting(
        "max_attempts",
        i64::from(config.max_attempts),
        0,
        i64::from(MAX_ATTEMPTS),
    )?;
    for (name, value, _) in periods(config) {
        if !(1..=MAX_DURATION).contains(&value) {
            return Err(GatewayError::Period { name, value });
        }
    }
    Ok(())
}

/// The periods of `config`, each with its name and whether its policy
/// uses it as a timer.
fn periods<Q: Provisioning>(config: &GatewayConfig<Q>) -> Vec<(&'static str, i64, bool)> {
    let info = config.policy.slot_information();
    let mut periods = vec![
        (
            "report_every",
            config.report_every,
            config.policy.utilisation_reports(),
        ),
        (
            "retry_every",
            config.retry_every,
            info == Some(Information::Ask),
        ),
    ];
    if let Some(Information::Partial { interval }) = info {
        periods.push(("publication interval", interval, true));
    }
    periods
}

/// Checks that no timer the policy of `config` uses fires more than
/// [`MAX_TICKS`] times in a run of `jobs` (whose times are checked).
pub(super) fn check_ticks<Q: Provisioning>(
    config: &GatewayConfig<Q>,
    jobs: &[Job],
) -> Result<(), GatewayError> {
    let until = config
        .timers_until
        .or(jobs.last().map(|j| j.submit))
        .unwrap_or(config.start);
    let span = (until - config.start).max(0);
    for (name, value, used) in periods(config) {
        if used && span / value >= MAX_TICKS {
            return Err(GatewayError::Setting {
                name,
                value,
                min: span / MAX_TICKS + 1,
                max: MAX_DURATION,
            });
        }
    }
    Ok(())
}

/// Checks that a grid job lies in the time domain (its other fields are
/// the providers' to judge).
pub(super) fn check_job(job: &Job) -> Result<(), GatewayError> {
    let limit = Time::LIMIT.secs();
    let field = |field, value: i64, min: i64, max: i64| {
        if (min..=max).contains(&value) {
            Ok(())
        } else {
            Err(GatewayError::Job {
                id: job.id,
                field,
                value,
                min,
                max,
            })
        }
    };
    field("submit", job.submit.secs(), -limit, limit)?;
    if let Some(d) = job.deadline {
        field("deadline", d.secs(), -limit, limit)?;
    }
    field("estimate", job.estimate, i64::MIN, MAX_DURATION)?;
    field("run time", job.run_time, i64::MIN, MAX_DURATION)
}

/// Checks `choice`, the policy's answer for grid job `job` at `now`: a
/// reserved or planned start may not lie before `now` (the provider would
/// refuse the reservation, or every start would count as late, and the run
/// would charge the policy's mistake to the provider), and a rejection must
/// give a reason a policy may answer (a gateway's finding would be a false
/// record); nor may the job, started there, end after [`Time::LATEST`]
/// (no schedule holds it).
pub(crate) fn check_choice(choice: &Choice, grid_job: &Job, now: Time) -> Result<(), GatewayError> {
    let job = grid_job.id;
    let (what, at) = match *choice {
        Choice::Reserve { start, .. } => ("Choice::Reserve start", start),
        Choice::Submit {
            planned: Some(planned),
            ..
        } => ("Choice::Submit planned start", planned),
        Choice::Reject(ref reason) if !reason.policy_may_answer() => {
            return Err(GatewayError::RejectReason {
                job,
                reason: reason.clone(),
            });
        }
        _ => return Ok(()),
    };
    if at < now {
        return Err(GatewayError::ChoiceInThePast { job, what, at, now });
    }
    if at + grid_job.estimate > Time::LATEST {
        return Err(GatewayError::ChoiceBeyondLatest { job, what, at });
    }
    Ok(())
}

/// Checks what provider `provider` reported as its utilisation at `now`:
/// a share in `[0, 1]` (a NaN or negative one would mislead every
/// policy that compares them).
pub(super) fn check_utilisation(
    provider: usize,
    now: Time,
    value: f64,
) -> Result<f64, GatewayError> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(GatewayError::Utilisation {
            provider,
            now,
            value,
        })
    }
}
