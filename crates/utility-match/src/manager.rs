//! The Resource Manager of a local scheduler (Algorithm 1): when a site
//! sends its resource table to the others.

use profile::{MAX_DURATION, ShortFloat, Time};

use crate::error::GridError;
use crate::machine::{Machine, ResourceStatus, SiteSummary, StatusMessage};

/// How the load limit `lMax` of Algorithm 1 is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum LoadTrigger {
    /// As printed (`load > lMax`): a message is due after every local
    /// change while the site's utilisation is above `lMax`.
    #[default]
    Above,
    /// A message is due when the site's utilisation has moved by more than
    /// `lMax` since the last message.
    Drift,
}

/// When the Resource Manager sends its table: periodically, when the load
/// exceeds a limit, or when the number of jobs submitted to one resource
/// since the last message exceeds a limit (§3.2.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UpdatePolicy {
    /// Seconds between periodic messages (the `timeout`), 1 to 2^40.
    pub period: i64,
    /// The load limit `lMax`, a utilisation in `[0, 1]`.
    pub l_max: f64,
    /// The job-count limit `nMax`: more jobs than this submitted to one
    /// resource since the last message make one due.
    pub n_max: u32,
    /// How `lMax` is read.
    pub load_trigger: LoadTrigger,
}

impl Default for UpdatePolicy {
    /// Every 60 s, `lMax` = 0.8 as printed, `nMax` = 4 (the paper gives no
    /// values; see the crate README).
    fn default() -> UpdatePolicy {
        UpdatePolicy {
            period: 60,
            l_max: 0.8,
            n_max: 4,
            load_trigger: LoadTrigger::Above,
        }
    }
}

impl UpdatePolicy {
    /// Checks the ranges.
    pub fn check(&self) -> Result<(), GridError> {
        if self.period < 1 {
            return Err(GridError::Setting {
                name: "status_period",
                message: format!("is {} s, expected at least 1 s", self.period),
            });
        }
        if self.period > MAX_DURATION {
            return Err(GridError::Setting {
                name: "status_period",
                message: format!(
                    "is {} s, expected at most 2^40 s (about 34,800 years)",
                    self.period
                ),
            });
        }
        if !(0.0..=1.0).contains(&self.l_max) {
            return Err(GridError::Setting {
                name: "l_max",
                message: format!(
                    "is {}, expected a utilisation in [0, 1]",
                    ShortFloat(self.l_max)
                ),
            });
        }
        Ok(())
    }
}

/// A change of a local resource the Resource Manager hears about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalEvent {
    /// A job was submitted to the resource.
    Submit,
    /// A job completed on it.
    Complete,
}

/// The Resource Manager of one site: counts submissions per resource and
/// watches the site's load to decide when a status message is due; builds
/// the message.
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceManager {
    site: usize,
    policy: UpdatePolicy,
    submitted: Vec<u32>,
    sent_utilisation: f64,
}

impl ResourceManager {
    /// The manager of `site`, which has `resources` resources.
    pub fn new(site: usize, resources: usize, policy: UpdatePolicy) -> ResourceManager {
        ResourceManager {
            site,
            policy,
            submitted: vec![0; resources],
            sent_utilisation: 0.0,
        }
    }

    /// Its policy.
    pub fn policy(&self) -> &UpdatePolicy {
        &self.policy
    }

    /// After `event` on local resource `index`, with the site's utilisation
    /// now `utilisation`: whether a status message is due (`load > lMax ||
    /// nJobs > nMax`).
    pub fn on_change(&mut self, index: usize, event: LocalEvent, utilisation: f64) -> bool {
        let mut count = 0;
        if let Some(n) = self.submitted.get_mut(index) {
            if event == LocalEvent::Submit {
                *n += 1;
            }
            count = *n;
        }
        let load = match self.policy.load_trigger {
            LoadTrigger::Above => utilisation > self.policy.l_max,
            LoadTrigger::Drift => (utilisation - self.sent_utilisation).abs() > self.policy.l_max,
        };
        load || count > self.policy.n_max
    }

    /// The status message of this site at `now` (its whole table and its
    /// summary); resets the counters. `machines` and `statuses` are the
    /// site's, by index.
    pub fn message(
        &mut self,
        now: Time,
        machines: &[Machine],
        statuses: Vec<ResourceStatus>,
    ) -> StatusMessage {
        let summary = SiteSummary::of(self.site, machines, &statuses);
        self.sent_utilisation = summary.utilisation;
        self.submitted.iter_mut().for_each(|n| *n = 0);
        StatusMessage {
            from: self.site,
            sent: now,
            statuses,
            summary,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Resource;

    #[test]
    fn job_count_limit_is_per_resource_and_resets() {
        let mut rm = ResourceManager::new(
            0,
            2,
            UpdatePolicy {
                n_max: 2,
                ..UpdatePolicy::default()
            },
        );
        assert!(!rm.on_change(0, LocalEvent::Submit, 0.1));
        assert!(!rm.on_change(0, LocalEvent::Submit, 0.1));
        assert!(!rm.on_change(1, LocalEvent::Submit, 0.1));
        assert!(!rm.on_change(0, LocalEvent::Complete, 0.1));
        assert!(rm.on_change(0, LocalEvent::Submit, 0.1), "3 > nMax = 2");
        let m = Machine::new(1, 1, Resource::new()).unwrap();
        let msg = rm.message(Time(9), &[m.clone(), m], vec![ResourceStatus::default(); 2]);
        assert_eq!((msg.from, msg.sent), (0, Time(9)));
        assert!(!rm.on_change(0, LocalEvent::Submit, 0.1), "counters reset");
    }

    #[test]
    fn load_limit_as_printed_and_as_drift() {
        let mut above = ResourceManager::new(0, 1, UpdatePolicy::default());
        assert!(!above.on_change(0, LocalEvent::Complete, 0.8));
        assert!(above.on_change(0, LocalEvent::Complete, 0.81));
        let mut drift = ResourceManager::new(
            0,
            1,
            UpdatePolicy {
                l_max: 0.25,
                load_trigger: LoadTrigger::Drift,
                ..UpdatePolicy::default()
            },
        );
        assert!(!drift.on_change(0, LocalEvent::Complete, 0.2));
        assert!(drift.on_change(0, LocalEvent::Complete, 0.3));
        let m = Machine::new(2, 1, Resource::new()).unwrap();
        let busy = ResourceStatus {
            present: 1,
            running: 1,
            backlog: 5,
        };
        drift.message(Time(1), &[m], vec![busy]);
        assert!(
            !drift.on_change(0, LocalEvent::Complete, 0.7),
            "0.7 − 0.5 ≤ 0.25"
        );
        assert!(drift.on_change(0, LocalEvent::Complete, 0.2));
    }

    #[test]
    fn policy_ranges() {
        let p = UpdatePolicy {
            period: 0,
            ..UpdatePolicy::default()
        };
        assert_eq!(
            p.check().unwrap_err().to_string(),
            "status_period: is 0 s, expected at least 1 s"
        );
        let p = UpdatePolicy {
            l_max: 1.5,
            ..UpdatePolicy::default()
        };
        assert!(p.check().is_err());
        assert!(UpdatePolicy::default().check().is_ok());
    }
}
