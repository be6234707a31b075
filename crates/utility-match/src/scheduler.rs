//! The Job Scheduler of a local scheduler (Algorithms 2 and 3): the
//! resource of highest utility, local or remote, in the site's own view.

use std::cmp::Ordering;

use profile::Time;

use crate::error::GridError;
use crate::machine::{Machine, ResourceId, ResourceStatus, StatusTable};
use crate::model::{Attribute, Requirement, Resource};
use crate::utility::UtilityFunction;

/// A grid job: who submitted it where and when, how much work it is, and
/// what it requires.
#[derive(Clone, Debug, PartialEq)]
pub struct GridJob {
    /// Its id, its position in the job list.
    pub id: usize,
    /// The submitting user.
    pub user: usize,
    /// The user's site: where the job is submitted.
    pub site: usize,
    /// Submission time.
    pub submit: Time,
    /// Work in million instructions; it runs `⌈length / mips⌉` seconds on
    /// one core of a machine.
    pub length: i64,
    /// The requirements; a requirement on [`Attribute::ExecTime`] is met
    /// against the estimated time from submission to completion.
    pub requirements: Vec<Requirement>,
}

/// How Algorithm 3's `resMatchMaxUtil` chooses among resources of equal
/// utility (the paper does not say).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum TieBreak {
    /// The first in table order (site by site, resource by resource).
    TableOrder,
    /// Local resources first, then table order.
    LocalFirst,
    /// Local resources first, then the fewest jobs per core in the view,
    /// then table order.
    #[default]
    LocalLeastLoaded,
}

/// What a site takes as a resource's [`Attribute::ExecTime`] for a job
/// (the paper's "execution time" requirement, a maximum time for job
/// completion, says no more).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum ExecEstimate {
    /// The estimated time from the job's submission to its completion
    /// there: time already spent, the estimated wait from the view, and
    /// the run time. Load-aware.
    #[default]
    Turnaround,
    /// The job's run time on the resource alone (`⌈length / mips⌉`):
    /// static, blind to queues.
    RunTime,
}

/// Why a job ends without running.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FailReason {
    /// No resource in the view has a positive utility for it
    /// (`SubmissionFail`; matchmaking's rejections).
    NoAcceptableResource,
    /// The best resource is remote and the job's TTL ran out.
    TtlExpired,
}

/// What the Job Scheduler does with a job (one pass of Algorithm 2's loop).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decision {
    /// Submit it to this local resource (`AssignJob`).
    Assign {
        /// The resource.
        resource: ResourceId,
        /// Its utility for the job, as evaluated.
        utility: f64,
    },
    /// Send it to the site of this remote resource (`ForwardJob`).
    Forward {
        /// The resource.
        resource: ResourceId,
        /// Its utility for the job, in this site's view.
        utility: f64,
    },
    /// Every resource of positive utility is full in the view: keep the job
    /// here and decide again when the view changes.
    Wait,
    /// Give up on the job (`SubmissionFail`).
    Fail(FailReason),
}

/// The Job Scheduler of one site and the resource table it decides on.
///
/// A site's view of its own resources is kept current by the caller
/// ([`StatusTable::update_local`]); its view of the others' comes from
/// their status messages ([`StatusTable::apply`]). Static attributes are
/// known for every resource (the Grid Information Service).
#[derive(Clone, Debug)]
pub struct JobScheduler {
    table: StatusTable,
    tie_break: TieBreak,
    local_fallback: bool,
    exec_estimate: ExecEstimate,
    /// Every machine's attributes, with `ExecTime` overwritten per job.
    scratch: Vec<Vec<Resource>>,
}

/// One evaluated candidate.
#[derive(Clone, Copy)]
struct Scored {
    id: ResourceId,
    utility: f64,
    local: bool,
    load: f64,
    room: bool,
}

impl JobScheduler {
    /// The scheduler of `site` in the grid `machines` (site by site).
    pub fn new(site: usize, machines: &[Vec<Machine>], tie_break: TieBreak) -> JobScheduler {
        let sizes: Vec<usize> = machines.iter().map(Vec::len).collect();
        JobScheduler {
            table: StatusTable::new(site, &sizes),
            tie_break,
            local_fallback: false,
            exec_estimate: ExecEstimate::Turnaround,
            scratch: machines
                .iter()
                .map(|v| v.iter().map(|m| m.attributes().clone()).collect())
                .collect(),
        }
    }

    /// The site.
    pub fn site(&self) -> usize {
        self.table.site()
    }

    /// The resource table.
    pub fn table(&self) -> &StatusTable {
        &self.table
    }

    /// The resource table, to update.
    pub fn table_mut(&mut self) -> &mut StatusTable {
        &mut self.table
    }

    /// The utility of `id` for `job` at `now` in this site's view: the
    /// machine's static attributes plus, as [`Attribute::ExecTime`], the
    /// [`ExecEstimate`] (by default the estimated seconds from the job's
    /// submission to its completion there: time already spent, the
    /// estimated wait from the view's status, and the run time).
    ///
    /// In `[0, 1]`, as [`UtilityFunction`]'s contract says.
    ///
    /// # Errors
    ///
    /// [`GridError::Setting`] naming `machines` if they are not the grid the
    /// scheduler was built for (as many sites, each with as many resources),
    /// or naming `resource` if `id` is not one of its resources;
    /// [`GridError::Utility`] if `f` answers outside `[0, 1]` (NaN
    /// included): a user's function that breaks the contract is named, not
    /// clamped into a decision.
    pub fn utility_of<F: UtilityFunction + ?Sized>(
        &mut self,
        f: &F,
        machines: &[Vec<Machine>],
        job: &GridJob,
        id: ResourceId,
        status: &ResourceStatus,
        now: Time,
    ) -> Result<f64, GridError> {
        self.check_grid(machines)?;
        if machines.get(id.site).is_none_or(|v| id.index >= v.len()) {
            return Err(GridError::Setting {
                name: "resource",
                message: format!(
                    "is machine {} of site {}, which the grid does not have",
                    id.index, id.site
                ),
            });
        }
        self.utility_in(f, machines, job, id, status, now)
    }

    /// `machines` is the grid the scheduler was built for, and its site is
    /// one of the grid's.
    fn check_grid(&self, machines: &[Vec<Machine>]) -> Result<(), GridError> {
        let same = machines.len() == self.scratch.len()
            && machines
                .iter()
                .zip(&self.scratch)
                .all(|(m, s)| m.len() == s.len());
        if !same {
            let sizes = |v: Vec<usize>| format!("{v:?}");
            return Err(GridError::Setting {
                name: "machines",
                message: format!(
                    "hold {} resources per site, but the scheduler was built for {}",
                    sizes(machines.iter().map(Vec::len).collect()),
                    sizes(self.scratch.iter().map(Vec::len).collect()),
                ),
            });
        }
        if self.site() >= machines.len() {
            return Err(GridError::Setting {
                name: "site",
                message: format!(
                    "is {}, but the grid has {} sites",
                    self.site(),
                    machines.len()
                ),
            });
        }
        Ok(())
    }

    /// [`JobScheduler::utility_of`] of a resource of the checked grid.
    fn utility_in<F: UtilityFunction + ?Sized>(
        &mut self,
        f: &F,
        machines: &[Vec<Machine>],
        job: &GridJob,
        id: ResourceId,
        status: &ResourceStatus,
        now: Time,
    ) -> Result<f64, GridError> {
        let m = &machines[id.site][id.index];
        let run = m.run_time(job.length);
        let exec = match self.exec_estimate {
            ExecEstimate::Turnaround => (now - job.submit)
                .saturating_add(m.estimated_wait(status))
                .saturating_add(run),
            ExecEstimate::RunTime => run,
        };
        let attrs = &mut self.scratch[id.site][id.index];
        attrs.set(Attribute::ExecTime, exec);
        let u = f.utility(&job.requirements, attrs);
        // A user's function may break the contract: the answer is checked
        // where it is received.
        if (0.0..=1.0).contains(&u) {
            Ok(u)
        } else {
            Err(GridError::Utility {
                job: job.id,
                site: id.site,
                index: id.index,
                value: u,
            })
        }
    }

    /// One pass of Algorithm 2 for `job` at `now`, with `ttl` forwards left.
    /// `target` is the resource a remote site forwarded it to, re-checked
    /// first (`AvailableRes`); then every resource in the view is evaluated
    /// (Algorithm 3) and the best with room in the view, and positive
    /// utility, is chosen.
    ///
    /// # Errors
    ///
    /// [`GridError::Setting`] naming `machines` if they are not the grid the
    /// scheduler was built for (as many sites, each with as many
    /// resources), or naming `site` if the scheduler's site is not one of
    /// the grid's; [`GridError::Utility`] if `f` answers outside `[0, 1]`
    /// for a resource it evaluates.
    pub fn decide<F: UtilityFunction + ?Sized>(
        &mut self,
        f: &F,
        machines: &[Vec<Machine>],
        job: &GridJob,
        ttl: u32,
        target: Option<ResourceId>,
        now: Time,
    ) -> Result<Decision, GridError> {
        self.check_grid(machines)?;
        self.decide_in(f, machines, job, ttl, target, now)
    }

    /// [`JobScheduler::decide`] on the checked grid (the simulation's, built
    /// from the grid it passes).
    pub(crate) fn decide_in<F: UtilityFunction + ?Sized>(
        &mut self,
        f: &F,
        machines: &[Vec<Machine>],
        job: &GridJob,
        ttl: u32,
        target: Option<ResourceId>,
        now: Time,
    ) -> Result<Decision, GridError> {
        let site = self.site();
        if let Some(t) = target.filter(|t| t.site == site)
            && let Some((status, _)) = self.table.get(t)
            && machines[t.site][t.index].has_room(&status)
        {
            let utility = self.utility_in(f, machines, job, t, &status, now)?;
            return Ok(Decision::Assign {
                resource: t,
                utility,
            });
        }
        let known: Vec<(ResourceId, ResourceStatus)> = self.table.known().collect();
        let mut acceptable = false;
        let mut best: Option<Scored> = None;
        let mut best_local: Option<Scored> = None;
        for (id, status) in known {
            let utility = self.utility_in(f, machines, job, id, &status, now)?;
            let m = &machines[id.site][id.index];
            let s = Scored {
                id,
                utility,
                local: id.site == site,
                load: m.load(&status),
                room: m.has_room(&status),
            };
            acceptable |= utility > 0.0;
            if s.room && s.utility > 0.0 {
                if best.is_none_or(|b| self.better(&s, &b)) {
                    best = Some(s);
                }
                if s.local && best_local.is_none_or(|b| self.better(&s, &b)) {
                    best_local = Some(s);
                }
            }
        }
        let assign = |b: Scored| Decision::Assign {
            resource: b.id,
            utility: b.utility,
        };
        Ok(match best {
            _ if !acceptable => Decision::Fail(FailReason::NoAcceptableResource),
            None => Decision::Wait,
            Some(b) if b.local => assign(b),
            Some(_) if ttl == 0 => match best_local.filter(|_| self.local_fallback) {
                Some(b) => assign(b),
                None => Decision::Fail(FailReason::TtlExpired),
            },
            Some(b) => Decision::Forward {
                resource: b.id,
                utility: b.utility,
            },
        })
    }

    /// With `true`, a job whose TTL has run out while the best resource is
    /// remote goes to the best local resource with room, if there is one,
    /// instead of failing (Algorithm 2 as printed fails it; the default).
    pub fn with_local_fallback(mut self, fallback: bool) -> JobScheduler {
        self.local_fallback = fallback;
        self
    }

    /// The same scheduler reading the execution-time requirement as `estimate`.
    pub fn with_exec_estimate(mut self, estimate: ExecEstimate) -> JobScheduler {
        self.exec_estimate = estimate;
        self
    }

    /// Whether `a` beats `b`: higher utility, then the tie-break. Table
    /// order is the order of evaluation, so an equal candidate never beats
    /// the one found first.
    fn better(&self, a: &Scored, b: &Scored) -> bool {
        match a.utility.total_cmp(&b.utility) {
            Ordering::Greater => return true,
            Ordering::Less => return false,
            Ordering::Equal => {}
        }
        let local = a.local && !b.local;
        let same_side = a.local == b.local;
        match self.tie_break {
            TieBreak::TableOrder => false,
            TieBreak::LocalFirst => local,
            TieBreak::LocalLeastLoaded => local || (same_side && a.load < b.load),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::{RemoteView, SiteSummary, StatusMessage};
    use crate::model::{Value, Want};
    use crate::utility::{Matchmaking, PartialUtility};

    fn linux(cores: u32, mips: i64) -> Machine {
        Machine::new(cores, mips, Resource::new().with(Attribute::Os, "Linux"))
            .unwrap()
            .with_capacity(cores)
    }

    fn job(reqs: Vec<Requirement>) -> GridJob {
        GridJob {
            id: 0,
            user: 0,
            site: 0,
            submit: Time(0),
            length: 10_000,
            requirements: reqs,
        }
    }

    fn os(name: &str) -> Requirement {
        Requirement::new(Attribute::Os, 1.0, vec![(Want::Is(Value::from(name)), 1.0)]).unwrap()
    }

    fn fast() -> Requirement {
        Requirement::new(
            Attribute::Speed,
            1.0,
            vec![(Want::AtLeast(2000), 1.0), (Want::AtLeast(1000), 0.5)],
        )
        .unwrap()
    }

    fn busy() -> ResourceStatus {
        ResourceStatus {
            present: 1,
            running: 1,
            backlog: 100,
        }
    }

    #[test]
    fn picks_the_best_remote_resource_and_forwards_it() {
        let grid = vec![vec![linux(1, 1000)], vec![linux(1, 2000)]];
        let mut js = JobScheduler::new(0, &grid, TieBreak::default());
        let j = job(vec![os("Linux"), fast()]);
        assert_eq!(
            js.decide(&PartialUtility, &grid, &j, 1, None, Time(0))
                .unwrap(),
            Decision::Forward {
                resource: ResourceId { site: 1, index: 0 },
                utility: 1.0
            }
        );
        // With no forward left the job fails rather than take the worse local one,
        // unless the local fallback is on.
        assert_eq!(
            js.decide(&PartialUtility, &grid, &j, 0, None, Time(0))
                .unwrap(),
            Decision::Fail(FailReason::TtlExpired)
        );
        let mut fallback = js.clone().with_local_fallback(true);
        assert_eq!(
            fallback
                .decide(&PartialUtility, &grid, &j, 0, None, Time(0))
                .unwrap(),
            Decision::Assign {
                resource: ResourceId { site: 0, index: 0 },
                utility: 0.75
            }
        );
        // Once the remote machine is reported full, the local one is best.
        js.table_mut().apply(
            &StatusMessage {
                from: 1,
                sent: Time(0),
                statuses: vec![busy()],
                summary: SiteSummary::of(1, &grid[1], &[busy()]),
            },
            RemoteView::Full,
        );
        assert_eq!(
            js.decide(&PartialUtility, &grid, &j, 1, None, Time(0))
                .unwrap(),
            Decision::Assign {
                resource: ResourceId { site: 0, index: 0 },
                utility: 0.75
            }
        );
    }

    #[test]
    fn waits_when_every_acceptable_resource_is_full_and_fails_when_none_fits() {
        let grid = vec![vec![linux(1, 1000)]];
        let mut js = JobScheduler::new(0, &grid, TieBreak::default());
        js.table_mut().update_local(0, busy(), Time(0));
        let j = job(vec![os("Linux")]);
        assert_eq!(
            js.decide(&PartialUtility, &grid, &j, 3, None, Time(0))
                .unwrap(),
            Decision::Wait
        );
        let j = job(vec![os("Windows")]);
        assert_eq!(
            js.decide(&PartialUtility, &grid, &j, 3, None, Time(0))
                .unwrap(),
            Decision::Fail(FailReason::NoAcceptableResource)
        );
    }

    #[test]
    fn a_forwarded_job_takes_its_target_if_it_has_room() {
        let grid = vec![vec![linux(1, 1000), linux(1, 1000)]];
        let mut js = JobScheduler::new(0, &grid, TieBreak::TableOrder);
        let j = job(vec![os("Windows")]);
        let target = ResourceId { site: 0, index: 1 };
        // Available: assigned even though its utility is now 0.
        assert_eq!(
            js.decide(&Matchmaking, &grid, &j, 0, Some(target), Time(0))
                .unwrap(),
            Decision::Assign {
                resource: target,
                utility: 0.0
            }
        );
        js.table_mut().update_local(1, busy(), Time(0));
        let j = job(vec![os("Linux")]);
        assert_eq!(
            js.decide(&PartialUtility, &grid, &j, 0, Some(target), Time(0))
                .unwrap(),
            Decision::Assign {
                resource: ResourceId { site: 0, index: 0 },
                utility: 1.0
            }
        );
    }

    #[test]
    fn ties_follow_the_tie_break() {
        let grid = vec![vec![linux(2, 1000), linux(2, 1000)], vec![linux(2, 1000)]];
        let j = job(vec![os("Linux")]);
        let one = ResourceStatus {
            present: 1,
            running: 1,
            backlog: 10,
        };
        let decide = |tie_break, site| {
            let mut js = JobScheduler::new(site, &grid, tie_break);
            if site == 0 {
                js.table_mut().update_local(0, one, Time(0));
            }
            match js
                .decide(&PartialUtility, &grid, &j, 1, None, Time(0))
                .unwrap()
            {
                Decision::Assign { resource, .. } | Decision::Forward { resource, .. } => resource,
                d => panic!("{d:?}"),
            }
        };
        let r = |site, index| ResourceId { site, index };
        assert_eq!(decide(TieBreak::TableOrder, 0), r(0, 0));
        assert_eq!(decide(TieBreak::LocalLeastLoaded, 0), r(0, 1));
        assert_eq!(decide(TieBreak::TableOrder, 1), r(0, 0));
        assert_eq!(decide(TieBreak::LocalFirst, 1), r(1, 0));
    }

    #[test]
    fn execution_time_requirement_sees_the_estimated_turnaround() {
        let grid = vec![vec![linux(1, 1000)]];
        let mut js = JobScheduler::new(0, &grid, TieBreak::default());
        let j = GridJob {
            requirements: vec![
                Requirement::new(
                    Attribute::ExecTime,
                    1.0,
                    vec![(Want::AtMost(15), 1.0), (Want::AtMost(200), 0.5)],
                )
                .unwrap(),
            ],
            submit: Time(0),
            ..job(vec![])
        };
        let id = ResourceId { site: 0, index: 0 };
        let idle = ResourceStatus::default();
        // 10 s of work, submitted at 0: at 3 s the turnaround is 13 s.
        assert_eq!(
            js.utility_of(&PartialUtility, &grid, &j, id, &idle, Time(3))
                .unwrap(),
            1.0
        );
        assert_eq!(
            js.utility_of(&PartialUtility, &grid, &j, id, &idle, Time(6))
                .unwrap(),
            0.5
        );
        // A busy core adds its backlog.
        assert_eq!(
            js.utility_of(&PartialUtility, &grid, &j, id, &busy(), Time(0))
                .unwrap(),
            0.5
        );
        // Read as the run time alone, neither the wait nor the time spent counts.
        let mut static_js = js.clone().with_exec_estimate(ExecEstimate::RunTime);
        assert_eq!(
            static_js
                .utility_of(&PartialUtility, &grid, &j, id, &busy(), Time(6))
                .unwrap(),
            1.0
        );
    }
}
