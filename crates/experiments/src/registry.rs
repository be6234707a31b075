//! The registry: every kind and every scheduling policy a configuration can
//! name. [`Registry::builtin`] holds the papers' kinds and `profile`'s
//! built-in policies; a user adds their own kinds ([`Registry::with`]) and
//! schedulers ([`Registry::with_policy`]) and parses experiments against it
//! ([`Registry::parse`]). The pipeline sees kinds and policies only
//! through here, so a user's are handled exactly as the papers' are.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use profile::Scheduler;
use serde::{Deserialize, Serialize};

use crate::encode::{check_name, terminal_name};
use crate::kind::{Kind, KindEntry, ParamError, Setup, Workloads, entry};

/// Builds a fresh scheduler for one run.
type Factory = Arc<dyn Fn() -> Box<dyn Scheduler> + Send + Sync>;

/// Scheduling policies registered by name: schedulers implementing
/// [`profile::Scheduler`] that a configuration can name wherever a
/// backfilling policy is named (the `backfilling` kind's `policy`, the
/// `pricing` kind's baselines). The built-in names (`fcfs`, `easy`,
/// `easy-k<N>`, `conservative`, and pricing's `fcfs-bf`, ...) are the
/// kinds' own and cannot be taken.
#[derive(Clone, Default)]
pub struct Policies {
    custom: Vec<(String, Factory)>,
}

impl Policies {
    /// The registered names, in registration order.
    pub fn names(&self) -> Vec<&str> {
        self.custom.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// Whether `name` is registered.
    pub fn contains(&self, name: &str) -> bool {
        self.custom.iter().any(|(n, _)| n == name)
    }

    /// A fresh scheduler of the policy registered as `name`.
    pub fn scheduler(&self, name: &str) -> Option<Box<dyn Scheduler>> {
        self.factory(name).map(|make| make())
    }

    /// The builder of the policy registered as `name`.
    pub fn factory(&self, name: &str) -> Option<Arc<dyn Fn() -> Box<dyn Scheduler> + Send + Sync>> {
        self.custom
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, make)| Arc::clone(make))
    }

    /// The error for a policy name that is neither built in nor registered:
    /// what the built-in parser said, and the registered names.
    pub fn unknown(&self, builtin: &str) -> String {
        let names = self.names();
        if names.is_empty() {
            builtin.to_string()
        } else {
            format!(
                "{builtin}; registered policies: {}",
                names
                    .iter()
                    .map(|n| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    }
}

impl fmt::Debug for Policies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

/// Every kind and policy a configuration can name.
///
/// ```
/// use experiments::Registry;
///
/// let registry = Registry::builtin()
///     .with_policy("fcfs-again", || profile::builtin::Fcfs);
/// assert!(registry.kinds().contains(&"backfilling"));
/// assert_eq!(registry.policies().names(), ["fcfs-again"]);
/// ```
#[derive(Clone, Default)]
pub struct Registry {
    kinds: Vec<KindEntry>,
    policies: Policies,
    /// Tests for names the kinds parse themselves (built-in policies).
    reserved: Vec<fn(&str) -> bool>,
}

impl Registry {
    /// A registry without kinds or registered policies; see
    /// [`Registry::builtin`] for the papers'.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// This registry with kind `K` added.
    ///
    /// # Panics
    ///
    /// If [`Registry::try_with`] refuses `K` (a kind of the same name is
    /// registered already, or its name or metrics are not usable: a
    /// programming error, found the first time the program runs).
    #[must_use]
    pub fn with<K: Kind>(self) -> Registry {
        self.try_with::<K>().unwrap_or_else(|e| panic!("{e}"))
    }

    /// This registry with kind `K` added, or why `K` cannot be: a kind of
    /// the same name is registered already; its `NAME` or a metric's name
    /// is empty or holds a character outputs write escaped
    /// ([`check_name`]); it has no metrics; two metrics share a name (a
    /// panel would show the values of one under the other's name); or an
    /// [`AT_MOST`](Kind::AT_MOST) pair names a metric it does not have.
    /// The error gives the registry back as it was
    /// ([`RegistryError::into_registry`]).
    ///
    /// ```
    /// use experiments::{Input, Kind, Metric, Registry, RunError};
    ///
    /// struct Twice;
    /// impl Kind for Twice {
    ///     const NAME: &'static str = "twice";
    ///     type Params = ();
    ///     type Sample = f64;
    ///     const METRICS: &'static [Metric<f64>] = &[
    ///         Metric::new("wait", "Wait", "wait (s)", |w| Some(*w)),
    ///         Metric::new("wait", "Wait again", "wait (s)", |w| Some(*w)),
    ///     ];
    ///     fn series(_: &str) -> Result<toml::Table, String> { Ok(toml::Table::new()) }
    ///     fn run(_: &(), _: &Input<'_>, _: Option<&[f64]>) -> Result<Vec<f64>, RunError> {
    ///         Ok(vec![1.0])
    ///     }
    /// }
    ///
    /// let err = Registry::builtin().try_with::<Twice>().unwrap_err();
    /// assert_eq!(err.name(), "twice");
    /// assert!(err.to_string().contains("metric 'wait' twice"), "{err}");
    /// // Nothing is lost: the registry comes back as it was.
    /// let registry = err.into_registry();
    /// assert!(registry.kinds().contains(&"backfilling"));
    /// ```
    pub fn try_with<K: Kind>(self) -> Result<Registry, RegistryError> {
        match self.kind_fault::<K>() {
            Some(reason) => Err(RegistryError::Kind {
                name: K::NAME.to_string(),
                reason,
                registry: Box::new(self),
            }),
            None => {
                let mut registry = self;
                registry.kinds.push(entry::<K>());
                Ok(registry)
            }
        }
    }

    /// Why kind `K` cannot be added, if it cannot ([`Registry::try_with`]).
    fn kind_fault<K: Kind>(&self) -> Option<String> {
        if self.kind(K::NAME).is_some() {
            return Some("a kind of this name is registered already".into());
        }
        if let Err(e) = check_name(K::NAME) {
            return Some(format!("its NAME {e}"));
        }
        if K::METRICS.is_empty() {
            return Some("it has no METRICS; a panel needs at least one to show".into());
        }
        for (i, m) in K::METRICS.iter().enumerate() {
            if let Err(e) = check_name(m.name) {
                return Some(format!("the name of metric {} {e}", i + 1));
            }
            if K::METRICS[..i].iter().any(|o| o.name == m.name) {
                return Some(format!(
                    "it has metric '{}' twice; give every metric its own name",
                    terminal_name(m.name)
                ));
            }
        }
        K::AT_MOST.iter().find_map(|(a, b)| {
            [a, b]
                .into_iter()
                .find(|m| !K::METRICS.iter().any(|x| x.name == **m))
                .map(|m| {
                    format!(
                        "AT_MOST pair ('{}', '{}') names metric '{}', which the kind does not \
                         have",
                        terminal_name(a),
                        terminal_name(b),
                        terminal_name(m)
                    )
                })
        })
    }

    /// This registry with the scheduler `make` builds registered as policy
    /// `name`; each run builds a fresh one.
    ///
    /// # Panics
    ///
    /// If [`Registry::try_with_policy`] refuses `name` (a programming
    /// error, found the first time the program runs).
    #[must_use]
    pub fn with_policy<S, F>(self, name: &str, make: F) -> Registry
    where
        S: Scheduler + 'static,
        F: Fn() -> S + Send + Sync + 'static,
    {
        self.try_with_policy(name, make)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// This registry with the scheduler `make` builds registered as policy
    /// `name`, or why it cannot be: `name` is registered already, is a
    /// built-in policy's name, is empty or blank, or holds a character
    /// outputs write escaped ([`check_name`]: a configuration naming it
    /// would not read back as written). The error gives the registry back
    /// as it was ([`RegistryError::into_registry`]).
    ///
    /// ```
    /// use experiments::Registry;
    ///
    /// let err = Registry::new()
    ///     .with_policy("mine", || profile::builtin::Fcfs)
    ///     .try_with_policy("my\u{202e}easy", || profile::builtin::Fcfs)
    ///     .unwrap_err();
    /// assert!(err.to_string().contains("U+202E"), "{err}");
    /// assert_eq!(err.into_registry().policies().names(), ["mine"]);
    /// ```
    pub fn try_with_policy<S, F>(self, name: &str, make: F) -> Result<Registry, RegistryError>
    where
        S: Scheduler + 'static,
        F: Fn() -> S + Send + Sync + 'static,
    {
        let reason = if name.trim().is_empty() {
            Some("a policy name cannot be empty".to_string())
        } else if let Err(e) = check_name(name) {
            Some(format!("its name {e}"))
        } else if self.policies.contains(name) {
            Some("a policy of this name is registered already".to_string())
        } else if self.reserved.iter().any(|taken| taken(name)) {
            Some("it is a built-in policy's name".to_string())
        } else {
            None
        };
        if let Some(reason) = reason {
            return Err(RegistryError::Policy {
                name: name.to_string(),
                reason,
                registry: Box::new(self),
            });
        }
        let mut registry = self;
        let factory: Factory = Arc::new(move || Box::new(make()) as Box<dyn Scheduler>);
        registry.policies.custom.push((name.to_string(), factory));
        Ok(registry)
    }

    /// The names of every registered kind, in registration order.
    pub fn kinds(&self) -> Vec<&'static str> {
        self.kinds.iter().map(|k| k.name).collect()
    }

    /// The registered policies.
    pub fn policies(&self) -> &Policies {
        &self.policies
    }

    /// Checks `params`, one run's `[params]` of kind `kind`, as a
    /// configuration's are checked: deserialised with the kind's defaults
    /// for absent keys, then the kind's [`Kind::check`] for a single run
    /// (no sweep: the `workload` axis, one workload, the load unscaled).
    ///
    /// For a front end that builds a kind's runs itself, as the Python
    /// package's `usched.papers` does: a value the kind refuses is then
    /// refused there too, in the same words, from one copy of the ranges.
    /// A key the kind cannot read is named in the error
    /// ([`ParamError::key`]) where one key alone is at fault.
    ///
    /// ```
    /// use experiments::Registry;
    ///
    /// let registry = Registry::builtin();
    /// let mut params = toml::Table::new();
    /// params.insert("interval_days".into(), 0.into());
    /// let e = registry.check_params("adaptive", params).unwrap_err();
    /// assert_eq!(e.key.as_deref(), Some("interval_days"));
    /// assert!(registry.check_params("adaptive", toml::Table::new()).is_ok());
    /// ```
    pub fn check_params(&self, kind: &str, params: toml::Table) -> Result<(), ParamError> {
        let Some(entry) = self.kind(kind) else {
            return Err(ParamError::general(format!(
                "no kind '{kind}'; the kinds are {}",
                self.kinds().join(", ")
            )));
        };
        let resolved = (entry.resolve)(params.clone()).map_err(|message| {
            match at_fault(entry.resolve, &params) {
                Some(key) => ParamError::key(&key, message),
                None => ParamError::general(message),
            }
        })?;
        let setup = Setup {
            axis: "workload",
            workloads: 1,
            generated: entry.workloads == Workloads::Generated,
            load: false,
            policies: &self.policies,
        };
        resolved.check(&setup)
    }

    /// The `[params]` a series named `series` of kind `kind` sets (what a
    /// configuration's `series = [...]` entry sets on its runs:
    /// `"mdf-preemptive"` sets the adaptive kind's `policy`, `preemptive`
    /// and `moldable`), for a front end that builds one run's `[params]`
    /// itself and checks them with [`Registry::check_params`]. The error
    /// says why the name is not a series of the kind.
    ///
    /// ```
    /// use experiments::Registry;
    ///
    /// let set = Registry::builtin().series_params("adaptive", "mdf-preemptive").unwrap();
    /// assert_eq!(set["policy"].as_str(), Some("mdf"));
    /// assert_eq!(set["preemptive"].as_bool(), Some(true));
    /// assert!(Registry::builtin().series_params("adaptive", "sjf").is_err());
    /// ```
    pub fn series_params(&self, kind: &str, series: &str) -> Result<toml::Table, ParamError> {
        let Some(entry) = self.kind(kind) else {
            return Err(ParamError::general(format!(
                "no kind '{kind}'; the kinds are {}",
                self.kinds().join(", ")
            )));
        };
        (entry.series)(series).map_err(|message| {
            ParamError::general(format!("series '{series}' of kind '{kind}': {message}"))
        })
    }

    /// Marks the names `taken` accepts as built-in policy names, which
    /// [`Registry::with_policy`] refuses.
    pub(crate) fn reserve(mut self, taken: fn(&str) -> bool) -> Registry {
        self.reserved.push(taken);
        self
    }

    /// The kind called `name`.
    pub(crate) fn kind(&self, name: &str) -> Option<&KindEntry> {
        self.kinds.iter().find(|k| k.name == name)
    }
}

/// The first key of `params` that `resolve` refuses on its own, if one
/// is, dotted down to the first entry of a table that it refuses on its own
/// (`table1.sp_parts`, not `table1`).
fn at_fault(
    resolve: fn(toml::Table) -> Result<Box<dyn crate::kind::Resolved>, String>,
    params: &toml::Table,
) -> Option<String> {
    // `path` = `value`, alone in otherwise empty tables.
    let alone = |path: &[String], value: &toml::Value| {
        let mut v = value.clone();
        for key in path.iter().rev() {
            v = toml::Value::Table(toml::Table::from_iter([(key.clone(), v)]));
        }
        match v {
            toml::Value::Table(t) => resolve(t).is_err(),
            _ => false,
        }
    };
    let mut path: Vec<String> = Vec::new();
    let mut at = params;
    loop {
        let found = at.iter().find(|(k, v)| {
            let mut p = path.clone();
            p.push((*k).clone());
            alone(&p, v)
        });
        match found {
            Some((k, v)) => {
                path.push(k.clone());
                match v {
                    toml::Value::Table(inner) => at = inner,
                    _ => break,
                }
            }
            None => break,
        }
    }
    (!path.is_empty()).then(|| path.join("."))
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("kinds", &self.kinds())
            .field("policies", &self.policies)
            .finish()
    }
}

/// Why [`Registry::try_with`] or [`Registry::try_with_policy`] refused a
/// kind or a policy: its name and the reason, with the registry as it was
/// before the call ([`RegistryError::into_registry`]), so a caller can
/// carry on without it.
#[non_exhaustive]
pub enum RegistryError {
    /// A kind was refused.
    Kind {
        /// Its [`Kind::NAME`].
        name: String,
        /// Why, as a clause ("it has no METRICS; ...").
        reason: String,
        /// The registry as it was.
        registry: Box<Registry>,
    },
    /// A policy was refused.
    Policy {
        /// The name it was to be registered under.
        name: String,
        /// Why, as a clause ("it is a built-in policy's name").
        reason: String,
        /// The registry as it was.
        registry: Box<Registry>,
    },
}

impl RegistryError {
    /// The name of the kind or policy refused.
    pub fn name(&self) -> &str {
        match self {
            RegistryError::Kind { name, .. } | RegistryError::Policy { name, .. } => name,
        }
    }

    /// Why it was refused.
    pub fn reason(&self) -> &str {
        match self {
            RegistryError::Kind { reason, .. } | RegistryError::Policy { reason, .. } => reason,
        }
    }

    /// The registry as it was before the refused call.
    pub fn registry(&self) -> &Registry {
        match self {
            RegistryError::Kind { registry, .. } | RegistryError::Policy { registry, .. } => {
                registry
            }
        }
    }

    /// The registry as it was before the refused call, to carry on with.
    pub fn into_registry(self) -> Registry {
        match self {
            RegistryError::Kind { registry, .. } | RegistryError::Policy { registry, .. } => {
                *registry
            }
        }
    }
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            RegistryError::Kind { .. } => "kind",
            RegistryError::Policy { .. } => "policy",
        };
        write!(
            f,
            "{what} '{}' cannot be registered: {}",
            terminal_name(self.name()),
            self.reason()
        )
    }
}

impl fmt::Debug for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let variant = match self {
            RegistryError::Kind { .. } => "Kind",
            RegistryError::Policy { .. } => "Policy",
        };
        f.debug_struct(variant)
            .field("name", &self.name())
            .field("reason", &self.reason())
            .field("registry", self.registry())
            .finish()
    }
}

impl std::error::Error for RegistryError {}

/// A policy as a configuration names it: one a kind knows itself (`T`,
/// parsed from the name) or one registered in [`Policies`]. Written and
/// read as the bare name, so a configuration cannot tell them apart.
#[derive(Clone, Debug, PartialEq)]
pub enum PolicyName<T> {
    /// A name `T` parses.
    BuiltIn(T),
    /// Any other name: a policy registered under it, once checked with
    /// [`PolicyName::check`].
    Registered(String),
}

impl<T: FromStr + fmt::Display> PolicyName<T>
where
    T::Err: fmt::Display,
{
    /// The name as written.
    pub fn name(&self) -> String {
        match self {
            PolicyName::BuiltIn(t) => t.to_string(),
            PolicyName::Registered(n) => n.clone(),
        }
    }

    /// That a registered name is registered in `policies`; the error says
    /// what the built-in names are and which are registered.
    pub fn check(&self, policies: &Policies) -> Result<(), String> {
        match self {
            PolicyName::Registered(n) if !policies.contains(n) => {
                let builtin = match n.parse::<T>() {
                    Ok(_) => format!("unknown policy '{n}'"),
                    Err(e) => e.to_string(),
                };
                Err(policies.unknown(&builtin))
            }
            _ => Ok(()),
        }
    }
}

impl<T: FromStr> FromStr for PolicyName<T> {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.parse::<T>() {
            Ok(t) => PolicyName::BuiltIn(t),
            Err(_) => PolicyName::Registered(s.to_string()),
        })
    }
}

impl<T: FromStr + fmt::Display> Serialize for PolicyName<T>
where
    T::Err: fmt::Display,
{
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de, T: FromStr> Deserialize<'de> for PolicyName<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Ok(match name.parse() {
            Ok(p) => p,
            Err(never) => match never {},
        })
    }
}
