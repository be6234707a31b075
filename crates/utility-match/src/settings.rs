//! One simulation of §4.2's generated grid as one flat table of settings,
//! with the keys the configurations write.

use crate::error::GridError;
use profile::MAX_DURATION;

use crate::grid::{Delays, GridConfig, MAX_TTL};
use crate::machine::RemoteView;
use crate::manager::{LoadTrigger, UpdatePolicy};
use crate::scenario::Scenario;
use crate::scheduler::{ExecEstimate, TieBreak};
use crate::utility::UtilityKind;

/// One simulation of §4.2's grid, every setting in one flat table: the
/// [`UtilityKind`] the local schedulers use, the [`Scenario`] that generates
/// the grid and its jobs ([`Settings::scenario`]), and the local schedulers'
/// [`GridConfig`] ([`Settings::grid`]). [`Settings::default`] is the
/// paper's setup under its own scheduler: partial utility,
/// [`Scenario::paper`] and [`GridConfig::default`]. To compare schedulers,
/// run the same settings and seed with each `scheduler` (every scheduler
/// then sees the same grid and jobs).
///
/// With the `serde` feature it reads and writes these keys (the defaults
/// shown); a missing key keeps its default and an unknown key is an error.
/// Values are not checked when read, so that a configuration's reader can
/// point at the key at fault (the experiments framework does): call
/// [`Settings::check`] on settings read; [`simulate`](crate::simulate) and
/// [`Scenario::generate`] check what they use in any case.
///
/// ```toml
/// scheduler = "pu"                          # or "bu", "mm"
/// sites = 4
/// resources_per_site = 20
/// users = 70
/// jobs_per_user = 20
/// mean_interarrival = 120                   # s
/// max_options = 4
/// os = ["Linux", "MacOS", "Solaris", "Windows"]
/// arch = [32, 64]
/// speeds = [1000, 2000, 3000, 4000]         # MIPS per core
/// exec_times = [300, 600, 900, 1200]        # s, submission to completion
/// cores = [1, 2, 4, 8]
/// memory = [1024, 2048, 4096, 8192]         # MB
/// length = [200000, 1000000]                # MI, uniform
/// jobs_per_core = 0                         # unbounded resource queues; N: N jobs per core
/// weights = [1.0, 1.0, 1.0, 1.0]            # β of os, arch, exec time, speed
/// max_ttl = 3
/// delay = 1                                 # s between two sites
/// # delays = [[0, 1, ...], ...]             # or one row per site
/// status_period = 60                        # s
/// l_max = 0.8
/// n_max = 4
/// load_trigger = "above"                    # or "drift"
/// remote_view = "full"                      # or "summary"
/// tie_break = "local-least-loaded"          # or "local-first", "table-order"
/// local_fallback = false
/// exec_estimate = "turnaround"              # or "run-time"
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct Settings {
    /// The local schedulers' utility function (`"pu"`, `"bu"` or `"mm"`).
    pub scheduler: UtilityKind,
    /// [`Scenario::sites`].
    pub sites: usize,
    /// [`Scenario::resources_per_site`].
    pub resources_per_site: usize,
    /// [`Scenario::users`].
    pub users: usize,
    /// [`Scenario::jobs_per_user`].
    pub jobs_per_user: usize,
    /// [`Scenario::mean_interarrival`], seconds.
    pub mean_interarrival: f64,
    /// [`Scenario::max_options`].
    pub max_options: usize,
    /// [`Scenario::os`].
    pub os: Vec<String>,
    /// [`Scenario::arch`].
    pub arch: Vec<i64>,
    /// [`Scenario::speeds`], MIPS.
    pub speeds: Vec<i64>,
    /// [`Scenario::exec_times`], seconds.
    pub exec_times: Vec<i64>,
    /// [`Scenario::cores`].
    pub cores: Vec<u32>,
    /// [`Scenario::memory`], MB.
    pub memory: Vec<i64>,
    /// [`Scenario::length`] as `[low, high]` million instructions.
    pub length: [i64; 2],
    /// [`Scenario::jobs_per_core`]; 0 for unbounded queues.
    pub jobs_per_core: u32,
    /// [`Scenario::weights`].
    pub weights: [f64; 4],
    /// [`GridConfig::max_ttl`], at most 64.
    pub max_ttl: u32,
    /// Seconds between any two sites ([`Delays::Uniform`]), unless
    /// `delays` is given.
    pub delay: i64,
    /// `delays[from][to]` seconds, one row per site ([`Delays::Matrix`]);
    /// `None` for `delay` between every two sites.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub delays: Option<Vec<Vec<i64>>>,
    /// [`UpdatePolicy::period`], seconds.
    pub status_period: i64,
    /// [`UpdatePolicy::l_max`].
    pub l_max: f64,
    /// [`UpdatePolicy::n_max`].
    pub n_max: u32,
    /// [`UpdatePolicy::load_trigger`] (`"above"` or `"drift"`).
    pub load_trigger: LoadTrigger,
    /// [`GridConfig::remote_view`] (`"full"` or `"summary"`).
    pub remote_view: RemoteView,
    /// [`GridConfig::tie_break`] (`"table-order"`, `"local-first"` or
    /// `"local-least-loaded"`).
    pub tie_break: TieBreak,
    /// [`GridConfig::local_fallback`].
    pub local_fallback: bool,
    /// [`GridConfig::exec_estimate`] (`"turnaround"` or `"run-time"`).
    pub exec_estimate: ExecEstimate,
}

impl Default for Settings {
    /// The paper's: `pu` on [`Scenario::paper`] with [`GridConfig::default`].
    fn default() -> Settings {
        Settings::new(
            UtilityKind::Partial,
            &Scenario::paper(),
            &GridConfig::default(),
        )
    }
}

impl Settings {
    /// The settings that run `scheduler` on `scenario` with `grid` (the
    /// inverse of [`Settings::scenario`] and [`Settings::grid`]; with a
    /// delay matrix, `delay` is 0).
    pub fn new(scheduler: UtilityKind, scenario: &Scenario, grid: &GridConfig) -> Settings {
        let (delay, delays) = match &grid.delays {
            Delays::Uniform(d) => (*d, None),
            Delays::Matrix(m) => (0, Some(m.clone())),
        };
        Settings {
            scheduler,
            sites: scenario.sites,
            resources_per_site: scenario.resources_per_site,
            users: scenario.users,
            jobs_per_user: scenario.jobs_per_user,
            mean_interarrival: scenario.mean_interarrival,
            max_options: scenario.max_options,
            os: scenario.os.clone(),
            arch: scenario.arch.clone(),
            speeds: scenario.speeds.clone(),
            exec_times: scenario.exec_times.clone(),
            cores: scenario.cores.clone(),
            memory: scenario.memory.clone(),
            length: [scenario.length.0, scenario.length.1],
            jobs_per_core: scenario.jobs_per_core.unwrap_or(0),
            weights: scenario.weights,
            max_ttl: grid.max_ttl,
            delay,
            delays,
            status_period: grid.updates.period,
            l_max: grid.updates.l_max,
            n_max: grid.updates.n_max,
            load_trigger: grid.updates.load_trigger,
            remote_view: grid.remote_view,
            tie_break: grid.tie_break,
            local_fallback: grid.local_fallback,
            exec_estimate: grid.exec_estimate,
        }
    }

    /// The §4.2 scenario these settings describe.
    pub fn scenario(&self) -> Scenario {
        Scenario {
            sites: self.sites,
            resources_per_site: self.resources_per_site,
            users: self.users,
            jobs_per_user: self.jobs_per_user,
            mean_interarrival: self.mean_interarrival,
            max_options: self.max_options,
            os: self.os.clone(),
            arch: self.arch.clone(),
            speeds: self.speeds.clone(),
            exec_times: self.exec_times.clone(),
            cores: self.cores.clone(),
            memory: self.memory.clone(),
            length: (self.length[0], self.length[1]),
            jobs_per_core: (self.jobs_per_core > 0).then_some(self.jobs_per_core),
            weights: self.weights,
        }
    }

    /// The local schedulers' configuration these settings describe.
    pub fn grid(&self) -> GridConfig {
        GridConfig {
            max_ttl: self.max_ttl,
            delays: match &self.delays {
                Some(m) => Delays::Matrix(m.clone()),
                None => Delays::Uniform(self.delay),
            },
            updates: UpdatePolicy {
                period: self.status_period,
                l_max: self.l_max,
                n_max: self.n_max,
                load_trigger: self.load_trigger,
            },
            remote_view: self.remote_view,
            tie_break: self.tie_break,
            local_fallback: self.local_fallback,
            exec_estimate: self.exec_estimate,
        }
    }

    /// Checks every setting: the scenario ([`Scenario::check`]), the
    /// update policy ([`UpdatePolicy::check`]), `max_ttl` (at most 64), and
    /// the delays (at least 0 s; a matrix has one row of `sites` delays
    /// per site). The error names the key.
    pub fn check(&self) -> Result<(), GridError> {
        let bad = |name: &'static str, message: String| Err(GridError::Setting { name, message });
        self.scenario().check()?;
        self.grid().updates.check()?;
        if self.max_ttl > MAX_TTL {
            return bad(
                "max_ttl",
                format!("is {}, expected at most {MAX_TTL}", self.max_ttl),
            );
        }
        let out = |d: &i64| !(0..=MAX_DURATION).contains(d);
        if out(&self.delay) {
            return bad(
                "delay",
                format!("is {} s, expected 0 to 2^40 s", self.delay),
            );
        }
        if let Some(m) = &self.delays {
            if m.len() != self.sites || m.iter().any(|row| row.len() != self.sites) {
                return bad(
                    "delays",
                    format!("must have {0} rows of {0} delays, one per site", self.sites),
                );
            }
            if let Some(d) = m.iter().flatten().find(|d| out(d)) {
                return bad("delays", format!("holds {d} s, expected 0 to 2^40 s"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_papers() {
        let s = Settings::default();
        assert_eq!(s.scheduler, UtilityKind::Partial);
        assert_eq!(s.scenario(), Scenario::paper());
        assert_eq!(s.grid(), GridConfig::default());
        assert_eq!(s.check(), Ok(()));
    }

    #[test]
    fn new_is_the_inverse_of_scenario_and_grid() {
        let scenario = Scenario {
            jobs_per_core: None,
            length: (5, 9),
            users: 3,
            ..Scenario::paper()
        };
        let grid = GridConfig {
            max_ttl: 7,
            delays: Delays::Matrix(vec![vec![0, 2, 3, 4]; 4]),
            updates: UpdatePolicy {
                period: 30,
                l_max: 0.5,
                n_max: 2,
                load_trigger: LoadTrigger::Drift,
            },
            remote_view: RemoteView::Summary,
            tie_break: TieBreak::TableOrder,
            local_fallback: true,
            exec_estimate: ExecEstimate::RunTime,
        };
        let s = Settings::new(UtilityKind::Binary, &scenario, &grid);
        assert_eq!(s.scheduler, UtilityKind::Binary);
        assert_eq!((s.jobs_per_core, s.length, s.delay), (0, [5, 9], 0));
        assert_eq!(s.scenario(), scenario);
        assert_eq!(s.grid(), grid);
        assert_eq!(s.check(), Ok(()));
    }

    /// `check` on the default with `change` applied fails naming `key`,
    /// with `message`.
    fn check(change: impl FnOnce(&mut Settings), key: &str, message: &str) {
        let mut s = Settings::default();
        change(&mut s);
        match s.check() {
            Err(GridError::Setting { name, message: m }) => {
                assert_eq!((name, m.as_str()), (key, message));
            }
            other => panic!("expected an error on {key}, got {other:?}"),
        }
    }

    #[test]
    fn bad_settings_are_named() {
        check(
            |s| s.speeds.clear(),
            "speeds",
            "is empty, expected at least one option",
        );
        check(
            |s| s.status_period = 0,
            "status_period",
            "is 0 s, expected at least 1 s",
        );
        check(|s| s.max_ttl = 65, "max_ttl", "is 65, expected at most 64");
        check(|s| s.delay = -1, "delay", "is -1 s, expected 0 to 2^40 s");
        check(
            |s| s.delay = i64::MAX,
            "delay",
            "is 9223372036854775807 s, expected 0 to 2^40 s",
        );
        check(
            |s| s.status_period = i64::MAX,
            "status_period",
            "is 9223372036854775807 s, expected at most 2^40 s (about 34,800 years)",
        );
        check(
            |s| s.delays = Some(vec![vec![0, 1], vec![1, 0]]),
            "delays",
            "must have 4 rows of 4 delays, one per site",
        );
        check(
            |s| s.delays = Some(vec![vec![0, 1, 1, -2]; 4]),
            "delays",
            "holds -2 s, expected 0 to 2^40 s",
        );
        let unbounded = Settings {
            jobs_per_core: 0,
            ..Settings::default()
        };
        assert_eq!(unbounded.check(), Ok(()));
        assert_eq!(unbounded.scenario().jobs_per_core, None);
    }

    #[cfg(feature = "serde")]
    mod with_serde {
        use super::*;

        const DEFAULTS: &str = r#"
            scheduler = "pu"
            sites = 4
            resources_per_site = 20
            users = 70
            jobs_per_user = 20
            mean_interarrival = 120
            max_options = 4
            os = ["Linux", "MacOS", "Solaris", "Windows"]
            arch = [32, 64]
            speeds = [1000, 2000, 3000, 4000]
            exec_times = [300, 600, 900, 1200]
            cores = [1, 2, 4, 8]
            memory = [1024, 2048, 4096, 8192]
            length = [200000, 1000000]
            jobs_per_core = 0
            weights = [1.0, 1.0, 1.0, 1.0]
            max_ttl = 3
            delay = 1
            status_period = 60
            l_max = 0.8
            n_max = 4
            load_trigger = "above"
            remote_view = "full"
            tie_break = "local-least-loaded"
            local_fallback = false
            exec_estimate = "turnaround"
        "#;

        fn parse(text: &str) -> Result<Settings, String> {
            toml::from_str(text).map_err(|e| e.to_string())
        }

        #[test]
        fn an_empty_table_and_the_written_defaults_are_the_default() {
            assert_eq!(parse(""), Ok(Settings::default()));
            assert_eq!(parse(DEFAULTS), Ok(Settings::default()));
        }

        #[test]
        fn the_default_round_trips_with_every_key_but_delays() {
            let text = toml::to_string(&Settings::default()).unwrap();
            assert_eq!(parse(&text), Ok(Settings::default()));
            let keys: toml::Table = toml::from_str(&text).unwrap();
            let written: toml::Table = toml::from_str(DEFAULTS).unwrap();
            assert_eq!(
                keys.keys().collect::<Vec<_>>(),
                written.keys().collect::<Vec<_>>()
            );
        }

        #[test]
        fn every_name_round_trips() {
            let all = Settings {
                scheduler: UtilityKind::Matchmaking,
                delays: Some(vec![vec![0, 1, 2, 3]; 4]),
                load_trigger: LoadTrigger::Drift,
                remote_view: RemoteView::Summary,
                tie_break: TieBreak::LocalFirst,
                exec_estimate: ExecEstimate::RunTime,
                ..Settings::default()
            };
            let text = toml::to_string(&all).unwrap();
            for line in [
                r#"scheduler = "mm""#,
                r#"load_trigger = "drift""#,
                r#"remote_view = "summary""#,
                r#"tie_break = "local-first""#,
                r#"exec_estimate = "run-time""#,
            ] {
                assert!(
                    text.contains(line),
                    "{line} in
{text}"
                );
            }
            assert_eq!(parse(&text), Ok(all));
            let table_order = parse(r#"tie_break = "table-order""#).unwrap();
            assert_eq!(table_order.tie_break, TieBreak::TableOrder);
            for (long, kind) in ["partial", "binary", "matchmaking"]
                .into_iter()
                .zip(UtilityKind::ALL)
            {
                let s = parse(&format!("scheduler = \"{long}\"")).unwrap();
                assert_eq!(s.scheduler, kind);
            }
        }

        #[test]
        fn bad_keys_and_names_are_errors() {
            let e = parse("sitez = 4").unwrap_err();
            assert!(e.contains("unknown field `sitez`"), "{e}");
            let e = parse(r#"scheduler = "xx""#).unwrap_err();
            assert!(
                e.contains("unknown scheduler 'xx', expected pu, bu or mm"),
                "{e}"
            );
            let e = parse(r#"tie_break = "random""#).unwrap_err();
            assert!(e.contains("unknown variant `random`"), "{e}");
        }
    }
}
