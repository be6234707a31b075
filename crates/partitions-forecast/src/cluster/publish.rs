//! Publishing free time slots, and Algorithm 1: `getFreeTimeSlots`, the
//! `reallocationEvent`s, and the integral of the local load they observe.

use profile::{FreeSlot, Time};

use super::config::forecast_partitions;
use super::{Cluster, ForecastConfig, ForecastState, LoadMeasure, Notice, ShareFrom};
use crate::error::ClusterError;
use crate::forecast::LoadForecast;
use crate::partition::{PartitionSpec, UNLIMITED};

impl Cluster {
    /// The maximal free time slots from `from` (at least now) up to
    /// `horizon` ([`Time::MAX`] for none), as conservative backfilling
    /// exports them (Fig. 2a).
    pub fn free_slots(&self, from: Time, horizon: Time) -> Vec<FreeSlot> {
        self.profiles.global.free_slots(from.max(self.now), horizon)
    }

    /// Algorithm 1, `getFreeTimeSlots`: for a cluster with a forecast, makes
    /// every partition conservative and schedules (lines 3–4), returns to
    /// its base pivots (line 5), observes the local load of the interval
    /// just ended, forecasts the next (lines 6–7), offers the share
    /// `percToProvide = max(0, 1 − load)` (line 8) by resizing the grid
    /// partition to it and the free time slots to that share of their
    /// processors (lines 9–10), and returns them if the share is positive
    /// (lines 11–12), scheduling the reallocation checks of the interval.
    ///
    /// Without a forecast it returns the free time slots as they stand.
    pub fn publish(
        &mut self,
        now: Time,
        horizon: Time,
    ) -> Result<Option<Vec<FreeSlot>>, ClusterError> {
        self.advance(now)?;
        let Some(fs) = &self.forecast else {
            return Ok(Some(self.free_slots(now, horizon)));
        };
        let (local, grid) = (fs.local, fs.grid);
        // Lines 3–5.
        let base = fs.base_pivots.clone();
        self.layout.pivots.iter_mut().for_each(|p| *p = UNLIMITED);
        self.pass();
        self.layout.pivots.copy_from_slice(&base);
        // Lines 6–7.
        self.touch();
        let actual = (self.accounts.all_demand as f64 / f64::from(self.layout.cap)).min(1.0);
        let instant_local = self.local_level() as f64 / f64::from(self.layout.cap);
        let (integral, cap) = (self.accounts.integral, self.layout.cap);
        let fs = self.forecast.as_mut().expect("checked above");
        if let Some((t0, i0)) = fs.last_publish
            && now > t0
            && t0 >= fs.config.train_from
        {
            let load = (integral - i0) as f64 / (f64::from(cap) * (now - t0) as f64);
            fs.forecast
                .observe(load)
                .expect("a load is a finite non-negative ratio");
        }
        fs.last_publish = Some((now, integral));
        let forecast = fs.forecast.forecast().unwrap_or(instant_local);
        fs.current = forecast;
        fs.horizon = horizon;
        // Line 8, with max for the printed min.
        let load = match fs.config.share_from {
            ShareFrom::Forecast => forecast,
            ShareFrom::Actual => actual,
        };
        let perc = (1.0 - load).clamp(0.0, 1.0);
        let grid_size = ((perc * f64::from(cap)).round() as u32).min(cap);
        let interval = fs.config.interval;
        let checks = fs.config.checks;
        fs.checks = if perc > 0.0 {
            (1..=i64::from(checks))
                .map(|k| now + interval * k / (i64::from(checks) + 1))
                .filter(|&t| t > now)
                .collect()
        } else {
            Vec::new()
        };
        self.resize_two(local, grid, cap - grid_size);
        // Lines 9–12.
        if perc <= 0.0 {
            return Ok(None);
        }
        let slots = resize_slots(&self.free_slots(now, horizon), perc);
        Ok(Some(slots))
    }

    /// Algorithm 1's state for a cluster of partitions `parts`, once the
    /// configuration is checked ([`ClusterConfig::check`](super::ClusterConfig::check)).
    pub(super) fn forecast_state(
        config: ForecastConfig,
        parts: &[PartitionSpec],
        borrowing: bool,
        origin: Time,
    ) -> Result<ForecastState, ClusterError> {
        let forecast = match config.smoothing {
            None => LoadForecast::new(config.window),
            Some(a) => LoadForecast::with_smoothing(config.window, a),
        }
        .map_err(|error| ClusterError::Forecast { error })?;
        let (local, grid) = forecast_partitions(parts, borrowing)?;
        Ok(ForecastState {
            config,
            forecast,
            local,
            grid,
            base_pivots: parts.iter().map(|p| p.pivots).collect(),
            last_publish: None,
            last_resize: (origin, 0),
            current: 0.0,
            horizon: Time::MAX,
            checks: Vec::new(),
        })
    }

    /// Algorithm 1, `reallocationEvent`.
    pub(super) fn reallocation_event(&mut self) {
        self.touch();
        let (integral, cap, now) = (self.accounts.integral, self.layout.cap, self.now);
        let Some(fs) = self.forecast.as_mut() else {
            return;
        };
        let (t0, i0) = fs.last_resize;
        if now <= t0 {
            return;
        }
        let local_load = (integral - i0) as f64 / (f64::from(cap) * (now - t0) as f64);
        if local_load <= fs.current {
            return; // line 27: the next check is already scheduled
        }
        // Lines 20–25: resize to the load since the last resizing, local
        // partition conservative and schedule, grid partition conservative
        // and schedule, publish.
        fs.checks.clear();
        let (local, grid, horizon) = (fs.local, fs.grid, fs.horizon);
        let local_size = ((local_load * f64::from(cap)).ceil() as u32).min(cap);
        self.resize_two(local, grid, local_size);
        self.layout.pivots[local] = UNLIMITED;
        self.pass();
        self.layout.pivots[grid] = UNLIMITED;
        self.pass();
        let slots = self.free_slots(now, horizon);
        self.notices.push(Notice::Published { at: now, slots });
    }

    fn resize_two(&mut self, local: usize, grid: usize, local_size: u32) {
        self.touch();
        self.layout.sizes[local] = local_size;
        self.layout.sizes[grid] = self.layout.cap - local_size;
        let integral = self.accounts.integral;
        if let Some(fs) = self.forecast.as_mut() {
            fs.last_resize = (self.now, integral);
        }
        self.compress();
        self.pass();
    }

    /// The local load now, in processors, as the forecast measures it.
    fn local_level(&self) -> u64 {
        match self.forecast.as_ref().map(|f| f.config.load) {
            Some(LoadMeasure::Demand) => self.accounts.local_demand.min(u64::from(self.layout.cap)),
            _ => self.accounts.local_running,
        }
    }

    /// Adds the integral of the local load up to now.
    pub(super) fn touch(&mut self) {
        let dt = (self.now - self.accounts.integral_time).max(0) as u128;
        self.accounts.integral += u128::from(self.local_level()) * dt;
        self.accounts.integral_time = self.now;
    }
}

/// Free time slots resized to a share of their processors (Algorithm 1,
/// line 10): each slot keeps `floor(procs × share)` processors; slots left
/// with none are dropped.
pub fn resize_slots(slots: &[FreeSlot], share: f64) -> Vec<FreeSlot> {
    let share = if share.is_finite() {
        share.clamp(0.0, 1.0)
    } else {
        0.0
    };
    slots
        .iter()
        .filter_map(|s| {
            // The tolerance keeps 10 × (1 − 0.8) = 1.9999999999999996 at 2.
            let procs = (f64::from(s.procs) * share + 1e-9).floor() as u32;
            (procs > 0).then_some(FreeSlot { procs, ..*s })
        })
        .collect()
}
