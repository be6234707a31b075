//! Grid resources: static description, dynamic status, the summary a site
//! sends the others, and the status table each local scheduler keeps.

use profile::Time;

use crate::error::GridError;
use crate::model::{Attribute, Resource, Value};

/// Where a resource is: its site (virtual organisation) and its index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ResourceId {
    /// The site (virtual organisation), 0-based.
    pub site: usize,
    /// The resource's index in its site, 0-based.
    pub index: usize,
}

/// A grid resource as the Grid Information Service knows it: static
/// attributes, processing elements (cores) of one speed, and how many jobs
/// it accepts at once (running plus waiting in its queue).
///
/// The attributes always hold [`Attribute::Cores`] and [`Attribute::Speed`]
/// as given to [`Machine::new`], so requirements on them see the same
/// numbers the simulation uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    attributes: Resource,
    cores: u32,
    mips: i64,
    capacity: Option<u32>,
}

impl Machine {
    /// A machine of `cores` processing elements of `mips` million
    /// instructions per second each, with the other static `attributes`
    /// (operating system, architecture, memory, ...). Its queue is unbounded
    /// until [`Machine::with_capacity`].
    pub fn new(cores: u32, mips: i64, attributes: Resource) -> Result<Machine, GridError> {
        if cores == 0 {
            return Err(GridError::Setting {
                name: "cores",
                message: "a machine has 0 cores, expected at least 1".into(),
            });
        }
        if mips <= 0 {
            return Err(GridError::Setting {
                name: "mips",
                message: format!("a machine's speed is {mips} MIPS, expected a positive number"),
            });
        }
        let mut attributes = attributes;
        attributes.set(Attribute::Cores, i64::from(cores));
        attributes.set(Attribute::Speed, mips);
        Ok(Machine {
            attributes,
            cores,
            mips,
            capacity: None,
        })
    }

    /// The same machine accepting at most `jobs` jobs at once (running plus
    /// queued); at least its core count.
    pub fn with_capacity(mut self, jobs: u32) -> Machine {
        self.capacity = Some(jobs.max(self.cores));
        self
    }

    /// The static attributes, with cores and speed.
    pub fn attributes(&self) -> &Resource {
        &self.attributes
    }

    /// Processing elements.
    pub fn cores(&self) -> u32 {
        self.cores
    }

    /// Speed of one processing element, MIPS.
    pub fn mips(&self) -> i64 {
        self.mips
    }

    /// The most jobs it holds at once, `None` for an unbounded queue.
    pub fn capacity(&self) -> Option<u32> {
        self.capacity
    }

    /// Whether a resource in state `status` can take one more job.
    pub fn has_room(&self, status: &ResourceStatus) -> bool {
        self.capacity.is_none_or(|c| status.present < c)
    }

    /// Seconds a job of `length` million instructions runs on one of its
    /// cores: `⌈length / mips⌉`, at least 1 (at most `length`).
    pub fn run_time(&self, length: i64) -> i64 {
        // ⌈a/b⌉ = (a − 1)/b + 1 for a >= 1: no overflow for any length.
        (length.max(1) - 1) / self.mips + 1
    }

    /// CPU occupation in `status`: running jobs over cores, in `[0, 1]`.
    pub fn occupation(&self, status: &ResourceStatus) -> f64 {
        f64::from(status.running.min(self.cores)) / f64::from(self.cores)
    }

    /// Jobs held per core in `status` (running and queued); the load used
    /// to break ties and to find the least-loaded resource.
    pub fn load(&self, status: &ResourceStatus) -> f64 {
        f64::from(status.present) / f64::from(self.cores)
    }

    /// Estimated seconds before a job sent now would start, from `status`:
    /// 0 while a core is free, else the outstanding work spread over the
    /// cores, `⌈backlog / cores⌉`. Never negative: a `status` built by
    /// hand with a negative backlog (outstanding work cannot be) waits 0.
    pub fn estimated_wait(&self, status: &ResourceStatus) -> i64 {
        if status.running < self.cores {
            0
        } else {
            let cores = i64::from(self.cores);
            status.backlog.max(0).saturating_add(cores - 1) / cores
        }
    }

    /// The memory attribute in MB, 0 if the machine has none.
    pub fn memory(&self) -> i64 {
        match self.attributes.get(&Attribute::Memory) {
            Some(Value::Int(mb)) => *mb,
            _ => 0,
        }
    }
}

/// The dynamic state of one resource, as its site's Resource Manager
/// reports it: jobs present (running or queued), jobs running, and the
/// outstanding work in core-seconds (the remaining time of the running jobs
/// plus the run times of the queued ones).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResourceStatus {
    /// Jobs running or waiting on the resource.
    pub present: u32,
    /// Jobs running.
    pub running: u32,
    /// Outstanding work, core-seconds.
    pub backlog: i64,
}

/// What one site tells the others about itself besides the per-resource
/// table: average utilisation, the least-loaded resource and the resource
/// with the most memory (§3.2.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SiteSummary {
    /// The site.
    pub site: usize,
    /// Mean CPU occupation of its resources, in `[0, 1]`.
    pub utilisation: f64,
    /// The resource with the fewest jobs per core (first on ties).
    pub least_loaded: ResourceId,
    /// The resource with the most memory (first on ties).
    pub most_memory: ResourceId,
}

impl SiteSummary {
    /// The summary of `site` whose machines are in `statuses`.
    /// `machines` and `statuses` have the same length, at least 1.
    pub fn of(site: usize, machines: &[Machine], statuses: &[ResourceStatus]) -> SiteSummary {
        let mut utilisation = 0.0;
        let mut least = 0;
        let mut most = 0;
        for (i, (m, s)) in machines.iter().zip(statuses).enumerate() {
            utilisation += m.occupation(s);
            if m.load(s) < machines[least].load(&statuses[least]) {
                least = i;
            }
            if m.memory() > machines[most].memory() {
                most = i;
            }
        }
        SiteSummary {
            site,
            utilisation: utilisation / machines.len().max(1) as f64,
            least_loaded: ResourceId { site, index: least },
            most_memory: ResourceId { site, index: most },
        }
    }
}

/// A status message: one site's whole resource table and its summary, as
/// sent by the Resource Manager (Algorithm 1, `SendResStatusMsg`).
#[derive(Clone, Debug, PartialEq)]
pub struct StatusMessage {
    /// The sending site.
    pub from: usize,
    /// When the snapshot was taken.
    pub sent: Time,
    /// The status of each of its resources, by index.
    pub statuses: Vec<ResourceStatus>,
    /// The summary.
    pub summary: SiteSummary,
}

/// What a site learns about the others' resources from their messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum RemoteView {
    /// The whole resource table (Algorithms 1 and 3: `resTable[v, All]`).
    #[default]
    Full,
    /// Only the resources the summary names (least loaded, most memory),
    /// as the text of §3.2.2 describes the exchange.
    Summary,
}

/// The resource table of one local scheduler (Algorithm 1's `resTable`):
/// the status of its own resources, always current, and the last status
/// received of the other sites' resources, with when it was taken.
/// Unknown resources (with [`RemoteView::Summary`]) are not candidates.
#[derive(Clone, Debug, PartialEq)]
pub struct StatusTable {
    site: usize,
    entries: Vec<Vec<Option<(ResourceStatus, Time)>>>,
    summaries: Vec<Option<SiteSummary>>,
    received: Vec<Option<Time>>,
}

impl StatusTable {
    /// The table of `site` in a grid whose sites have `sizes[v]` resources:
    /// every resource known and idle at time 0 (the sites exchange their
    /// tables when they join).
    pub fn new(site: usize, sizes: &[usize]) -> StatusTable {
        StatusTable {
            site,
            entries: sizes
                .iter()
                .map(|&n| vec![Some((ResourceStatus::default(), Time::ZERO)); n])
                .collect(),
            summaries: vec![None; sizes.len()],
            received: vec![None; sizes.len()],
        }
    }

    /// The owning site.
    pub fn site(&self) -> usize {
        self.site
    }

    /// The status of `id` and when it was taken, if known.
    pub fn get(&self, id: ResourceId) -> Option<(ResourceStatus, Time)> {
        self.entries.get(id.site)?.get(id.index).copied().flatten()
    }

    /// Records the current status of local resource `index` (Algorithm 1,
    /// `UpdateResTable(resTable[Local, res])`).
    pub fn update_local(&mut self, index: usize, status: ResourceStatus, now: Time) {
        if let Some(slot) = self
            .entries
            .get_mut(self.site)
            .and_then(|v| v.get_mut(index))
        {
            *slot = Some((status, now));
        }
    }

    /// Applies a message from another site (Algorithm 1,
    /// `UpdateResTable(resTable[remoteVO, All])`). A message older than
    /// what the table holds is ignored; with [`RemoteView::Summary`] only
    /// the resources the summary names become known.
    pub fn apply(&mut self, message: &StatusMessage, view: RemoteView) {
        let from = message.from;
        if from == self.site || from >= self.entries.len() {
            return;
        }
        if self.received[from].is_some_and(|t| message.sent < t) {
            return;
        }
        self.received[from] = Some(message.sent);
        self.summaries[from] = Some(message.summary);
        let named = [message.summary.least_loaded, message.summary.most_memory];
        for (index, slot) in self.entries[from].iter_mut().enumerate() {
            let status = message.statuses.get(index).copied().unwrap_or_default();
            let known = match view {
                RemoteView::Full => true,
                RemoteView::Summary => named.iter().any(|r| r.index == index),
            };
            *slot = known.then_some((status, message.sent));
        }
    }

    /// The last summary received from `site`.
    pub fn summary(&self, site: usize) -> Option<&SiteSummary> {
        self.summaries.get(site)?.as_ref()
    }

    /// Every known resource with its status, site by site in index order
    /// (the order of Algorithm 3's loops).
    pub fn known(&self) -> impl Iterator<Item = (ResourceId, ResourceStatus)> + '_ {
        self.entries.iter().enumerate().flat_map(|(site, v)| {
            v.iter().enumerate().filter_map(move |(index, e)| {
                e.map(|(status, _)| (ResourceId { site, index }, status))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(cores: u32, mips: i64, memory: i64) -> Machine {
        Machine::new(cores, mips, Resource::new().with(Attribute::Memory, memory)).unwrap()
    }

    #[test]
    fn machines_check_their_numbers() {
        assert_eq!(
            Machine::new(0, 100, Resource::new())
                .unwrap_err()
                .to_string(),
            "cores: a machine has 0 cores, expected at least 1"
        );
        assert!(Machine::new(1, 0, Resource::new()).is_err());
        let m = machine(4, 1000, 2048).with_capacity(2);
        assert_eq!(m.capacity(), Some(4), "capacity is at least the cores");
        assert_eq!(m.attributes().get(&Attribute::Cores), Some(&Value::Int(4)));
        assert_eq!(
            m.attributes().get(&Attribute::Speed),
            Some(&Value::Int(1000))
        );
    }

    #[test]
    fn estimated_wait_is_never_negative() {
        let m = machine(4, 1000, 0);
        let at = |running, backlog| {
            m.estimated_wait(&ResourceStatus {
                present: running,
                running,
                backlog,
            })
        };
        assert_eq!(at(3, 100), 0, "a core is free");
        assert_eq!(at(4, 10), 3, "⌈10 / 4⌉");
        assert_eq!(at(4, i64::MAX), i64::MAX / 4, "saturating");
        assert_eq!(at(4, -40), 0, "a negative backlog waits 0, not -10");
        assert_eq!(at(4, i64::MIN), 0);
    }

    #[test]
    fn run_time_rounds_up() {
        let m = machine(1, 1000, 0);
        assert_eq!(m.run_time(1000), 1);
        assert_eq!(m.run_time(1001), 2);
        assert_eq!(m.run_time(0), 1);
        assert_eq!(m.run_time(250_000), 250);
    }

    #[test]
    fn wait_estimate_and_room() {
        let m = machine(2, 1000, 0).with_capacity(4);
        let s = |present, running, backlog| ResourceStatus {
            present,
            running,
            backlog,
        };
        assert_eq!(m.estimated_wait(&s(1, 1, 50)), 0);
        assert_eq!(m.estimated_wait(&s(3, 2, 101)), 51);
        assert!(m.has_room(&s(3, 2, 0)));
        assert!(!m.has_room(&s(4, 2, 0)));
        assert_eq!(m.occupation(&s(3, 2, 0)), 1.0);
        assert_eq!(m.load(&s(3, 2, 0)), 1.5);
    }

    #[test]
    fn summary_names_least_loaded_and_most_memory() {
        let ms = [machine(1, 1, 512), machine(4, 1, 4096), machine(2, 1, 4096)];
        let st = [
            ResourceStatus {
                present: 1,
                running: 1,
                backlog: 9,
            },
            ResourceStatus {
                present: 2,
                running: 2,
                backlog: 9,
            },
            ResourceStatus::default(),
        ];
        let s = SiteSummary::of(3, &ms, &st);
        assert_eq!(s.least_loaded, ResourceId { site: 3, index: 2 });
        assert_eq!(s.most_memory, ResourceId { site: 3, index: 1 });
        assert!((s.utilisation - (1.0 + 0.5 + 0.0) / 3.0).abs() < 1e-12);
    }

    #[test]
    fn table_applies_messages_by_view() {
        let mut t = StatusTable::new(0, &[2, 3]);
        assert_eq!(t.known().count(), 5);
        let busy = ResourceStatus {
            present: 1,
            running: 1,
            backlog: 10,
        };
        let msg = StatusMessage {
            from: 1,
            sent: Time(5),
            statuses: vec![busy, busy, ResourceStatus::default()],
            summary: SiteSummary {
                site: 1,
                utilisation: 2.0 / 3.0,
                least_loaded: ResourceId { site: 1, index: 2 },
                most_memory: ResourceId { site: 1, index: 0 },
            },
        };
        t.apply(&msg, RemoteView::Full);
        assert_eq!(
            t.get(ResourceId { site: 1, index: 1 }),
            Some((busy, Time(5)))
        );
        t.apply(&msg, RemoteView::Summary);
        assert_eq!(t.get(ResourceId { site: 1, index: 1 }), None);
        assert_eq!(t.known().count(), 4);
        // An older message does not overwrite a newer one.
        let old = StatusMessage {
            sent: Time(1),
            ..msg.clone()
        };
        t.apply(&old, RemoteView::Full);
        assert_eq!(t.get(ResourceId { site: 1, index: 1 }), None);
        // Messages about itself are ignored: its own view is always current.
        t.update_local(1, busy, Time(7));
        t.apply(&StatusMessage { from: 0, ..msg }, RemoteView::Full);
        assert_eq!(
            t.get(ResourceId { site: 0, index: 1 }),
            Some((busy, Time(7)))
        );
    }
}
