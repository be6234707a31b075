//! The policies of the paper's comparison, and their names as series.
//!
//! A [`Series`] is a name, as a configuration or a figure legend writes it,
//! parsed into a [`Policy`]:
//!
//! | name | policy |
//! |---|---|
//! | `fcfs-bf`, `sjf-bf`, `edf-bf` | [`Policy::Backfill`] with that [`Baseline`] |
//! | `libra` | [`Policy::Libra`] |
//! | `libra+$` | [`Policy::LibraDollar`] with `β` left to the run's settings |
//! | `libra+$-b<β>` (`libra+$-b0.5`) | [`Policy::LibraDollar`] with a fixed `β ≥ 0` |
//!
//! A series keeps its name as written (`libra+$-b1.0` stays `libra+$-b1.0`,
//! though its `β` prints as `1`), so a legend shows what the user wrote.

use std::fmt;
use std::str::FromStr;

#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::baseline::Baseline;
use crate::error::{ParseSeriesError, PricingError, factor};

/// A policy of the comparison.
#[derive(Copy, Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Policy {
    /// A backfilling baseline on the space-shared machine.
    Backfill(Baseline),
    /// Libra: proportional share, static cost.
    Libra,
    /// Libra+$: proportional share, demand-based price.
    LibraDollar {
        /// `β` fixed by the series, or `None` for the run's own.
        beta: Option<f64>,
    },
}

impl Policy {
    /// The `β` this policy fixes, if any: a finite number `>= 0`.
    ///
    /// # Errors
    ///
    /// [`PricingError::InvalidFactor`] (named `β`) if the policy was built
    /// with a negative, infinite or NaN `β` (parsing a [`Series`] never
    /// gives one).
    pub fn beta(&self) -> Result<Option<f64>, PricingError> {
        match self {
            Policy::LibraDollar { beta: Some(beta) } => factor("β", *beta).map(Some),
            Policy::LibraDollar { beta: None } | Policy::Backfill(_) | Policy::Libra => Ok(None),
        }
    }

    /// Whether the policy runs on the time-shared cluster (Libra and
    /// Libra+$) rather than the space-shared machine.
    pub fn is_time_shared(&self) -> bool {
        !matches!(self, Policy::Backfill(_))
    }
}

impl fmt::Display for Policy {
    /// The canonical series name: `libra+$-b0.5`, say.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::Backfill(b) => write!(f, "{b}"),
            Policy::Libra => f.write_str("libra"),
            Policy::LibraDollar { beta: None } => f.write_str("libra+$"),
            Policy::LibraDollar { beta: Some(beta) } => write!(f, "libra+$-b{beta}"),
        }
    }
}

/// A series of the comparison: a policy with the name it was written as.
///
/// ```
/// use pricing::{Baseline, Policy, Series};
///
/// let s: Series = "libra+$-b0.5".parse()?;
/// assert_eq!(s.policy(), Policy::LibraDollar { beta: Some(0.5) });
/// assert_eq!(s.policy().beta(), Ok(Some(0.5)));
/// assert_eq!(s.to_string(), "libra+$-b0.5");
/// assert_eq!("edf-bf".parse::<Series>()?.policy(), Policy::Backfill(Baseline::EdfBf));
/// assert!("libra+$-b-1".parse::<Series>().is_err());
/// # Ok::<(), pricing::ParseSeriesError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    name: String,
    policy: Policy,
}

impl Series {
    /// The name as written.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }
}

impl From<Policy> for Series {
    /// The series of `policy`, named canonically.
    fn from(policy: Policy) -> Self {
        Series {
            name: policy.to_string(),
            policy,
        }
    }
}

impl FromStr for Series {
    type Err = ParseSeriesError;

    fn from_str(s: &str) -> Result<Self, ParseSeriesError> {
        let policy = match s {
            "fcfs-bf" => Policy::Backfill(Baseline::FcfsBf),
            "sjf-bf" => Policy::Backfill(Baseline::SjfBf),
            "edf-bf" => Policy::Backfill(Baseline::EdfBf),
            "libra" => Policy::Libra,
            "libra+$" => Policy::LibraDollar { beta: None },
            _ => {
                let beta = s
                    .strip_prefix("libra+$-b")
                    .and_then(|b| b.parse::<f64>().ok())
                    .filter(|b| b.is_finite() && *b >= 0.0)
                    .ok_or_else(|| ParseSeriesError {
                        text: s.to_string(),
                    })?;
                Policy::LibraDollar { beta: Some(beta) }
            }
        };
        Ok(Series {
            name: s.to_string(),
            policy,
        })
    }
}

impl fmt::Display for Series {
    /// The name as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

#[cfg(feature = "serde")]
impl Serialize for Series {
    /// As its name.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for Series {
    /// From a name, with the parse error as the message.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_names_round_trip() {
        for p in [
            Policy::Backfill(Baseline::SjfBf),
            Policy::Libra,
            Policy::LibraDollar { beta: None },
            Policy::LibraDollar { beta: Some(0.25) },
        ] {
            let s = Series::from(p);
            assert_eq!(s.name().parse::<Series>().unwrap(), s);
        }
        assert!(!Policy::Backfill(Baseline::FcfsBf).is_time_shared());
        assert!(Policy::Libra.is_time_shared());
    }
}
