//! The serde mirrors of the checked settings: read as plain data, then
//! checked (`TryFrom`) as [`run`](super::run) checks them, so a
//! configuration file cannot hold settings a run would refuse.

use profile::{MAX_DURATION, Time};

use super::GatewayError;
use super::check::check_settings;
use crate::policy::Provisioning;

/// A publication interval: 1 s to 2^40 s, else the error `run` gives.
fn interval(value: i64) -> Result<i64, String> {
    if (1..=MAX_DURATION).contains(&value) {
        return Ok(value);
    }
    let name = "publication interval";
    Err(format!(
        "`interval`: {}",
        GatewayError::Period { name, value }
    ))
}

/// [`super::Information`] before its check.
#[derive(serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Information {
    Ask,
    Partial { interval: i64 },
}

impl TryFrom<Information> for super::Information {
    type Error = String;
    fn try_from(raw: Information) -> Result<Self, String> {
        Ok(match raw {
            Information::Ask => super::Information::Ask,
            Information::Partial { interval: i } => super::Information::Partial {
                interval: interval(i)?,
            },
        })
    }
}

/// [`crate::EarliestPartial`] before its check.
#[derive(serde::Deserialize)]
pub struct EarliestPartial {
    interval: i64,
}

impl TryFrom<EarliestPartial> for crate::EarliestPartial {
    type Error = String;
    fn try_from(raw: EarliestPartial) -> Result<Self, String> {
        Ok(crate::EarliestPartial {
            interval: interval(raw.interval)?,
        })
    }
}

/// [`super::GatewayConfig`] before its check.
#[derive(serde::Deserialize)]
pub struct GatewayConfig<Q> {
    policy: Q,
    report_every: i64,
    horizon: Option<i64>,
    tolerance: u32,
    track_allocations: bool,
    max_attempts: u32,
    retry_every: i64,
    start: Time,
    timers_until: Option<Time>,
    measure_from: Time,
}

impl<Q: Provisioning> TryFrom<GatewayConfig<Q>> for super::GatewayConfig<Q> {
    type Error = String;
    fn try_from(raw: GatewayConfig<Q>) -> Result<Self, String> {
        let config = super::GatewayConfig {
            policy: raw.policy,
            report_every: raw.report_every,
            horizon: raw.horizon,
            tolerance: raw.tolerance,
            track_allocations: raw.track_allocations,
            max_attempts: raw.max_attempts,
            retry_every: raw.retry_every,
            start: raw.start,
            timers_until: raw.timers_until,
            measure_from: raw.measure_from,
        };
        check_settings(&config).map_err(|e| e.to_string())?;
        Ok(config)
    }
}
