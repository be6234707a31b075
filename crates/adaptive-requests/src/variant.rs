//! A scheduler with a request flexibility, named `<policy>-<flexibility>`.

use std::fmt;
use std::str::FromStr;

use crate::error::VariantError;
use crate::sched::Policy;

/// A scheduler and the flexibility of the requests it receives: one series
/// of the paper's figures, named `<policy>-<flexibility>`.
///
/// The policy is `fifo` or `mdf`; the flexibility is `rigid`, `preemptive`,
/// `moldable` or `preemptive-moldable`. [`Display`](fmt::Display) writes the
/// name and [`FromStr`] reads it back; with the `serde` feature a variant is
/// (de)serialised as its name.
///
/// ```
/// use adaptive_requests::{Policy, Variant};
///
/// let v: Variant = "mdf-preemptive-moldable".parse()?;
/// assert_eq!(v, Variant { policy: Policy::Mdf, preemptive: true, moldable: true });
/// assert_eq!(v.to_string(), "mdf-preemptive-moldable");
/// assert!("mdf-flexible".parse::<Variant>().is_err());
/// # Ok::<(), adaptive_requests::VariantError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant {
    /// FIFO or MDF.
    pub policy: Policy,
    /// Whether requests drawn as preemptive may be split (`Sp` is kept).
    pub preemptive: bool,
    /// Whether requests are moldable (`R^min < R^max` above Table 1's
    /// rigid size) rather than rigid at `R^max`.
    pub moldable: bool,
}

impl Variant {
    /// `fifo-rigid`: the paper's traditional approach, its baseline.
    pub const FIFO_RIGID: Variant = Variant {
        policy: Policy::Fifo,
        preemptive: false,
        moldable: false,
    };

    /// The flexibility part of the name: `rigid`, `preemptive`, `moldable`
    /// or `preemptive-moldable`.
    pub fn flexibility(&self) -> &'static str {
        match (self.preemptive, self.moldable) {
            (false, false) => "rigid",
            (true, false) => "preemptive",
            (false, true) => "moldable",
            (true, true) => "preemptive-moldable",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.policy.name(), self.flexibility())
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, VariantError> {
        let bad = || VariantError::Unknown { name: s.to_owned() };
        let (policy, flex) = s.split_once('-').ok_or_else(bad)?;
        let policy = match policy {
            "fifo" => Policy::Fifo,
            "mdf" => Policy::Mdf,
            _ => return Err(bad()),
        };
        let (preemptive, moldable) = match flex {
            "rigid" => (false, false),
            "preemptive" => (true, false),
            "moldable" => (false, true),
            "preemptive-moldable" => (true, true),
            _ => return Err(bad()),
        };
        Ok(Variant {
            policy,
            preemptive,
            moldable,
        })
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Variant {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Variant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
