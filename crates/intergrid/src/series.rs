//! Series names: a provider policy and a gateway policy, `arcb+earliest-partial`.

use std::fmt;
use std::str::FromStr;

use gateway::{GatewayPolicy, Information};
use partitions_forecast::ProviderPolicy;

use crate::error::IntergridError;

/// The gateway half of a series: a [`GatewayPolicy`] without its
/// publication interval, which is a parameter of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GatewayKind {
    /// `least-load`: to the provider that last reported the lowest utilisation.
    LeastLoad,
    /// `earliest-ask`: the gateway asks every provider for its free time
    /// slots for every job and picks the earliest start.
    EarliestAsk,
    /// `earliest-partial`: providers publish their free time slots every
    /// interval and the gateway plans on its copy.
    EarliestPartial,
}

impl GatewayKind {
    /// Every gateway policy, in the paper's order.
    pub const ALL: [GatewayKind; 3] = [
        GatewayKind::LeastLoad,
        GatewayKind::EarliestAsk,
        GatewayKind::EarliestPartial,
    ];

    /// The name used in series names (`earliest-partial`).
    pub fn name(self) -> &'static str {
        match self {
            GatewayKind::LeastLoad => "least-load",
            GatewayKind::EarliestAsk => "earliest-ask",
            GatewayKind::EarliestPartial => "earliest-partial",
        }
    }

    /// The gateway's policy when providers publish every `interval` seconds
    /// (used by [`GatewayKind::EarliestPartial`] only).
    pub fn policy(self, interval: i64) -> GatewayPolicy {
        match self {
            GatewayKind::LeastLoad => GatewayPolicy::LeastLoaded,
            GatewayKind::EarliestAsk => GatewayPolicy::EarliestStart(Information::Ask),
            GatewayKind::EarliestPartial => {
                GatewayPolicy::EarliestStart(Information::Partial { interval })
            }
        }
    }
}

impl fmt::Display for GatewayKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One curve of the paper's figures: every cluster runs `provider`, the
/// gateway runs `gateway`. Written `<provider>+<gateway>`, e.g.
/// `arcb+earliest-partial` or `arebmf+least-load`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Series {
    /// The policy of every cluster.
    pub provider: ProviderPolicy,
    /// The policy of the gateway.
    pub gateway: GatewayKind,
}

impl fmt::Display for Series {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.provider.name(), self.gateway.name())
    }
}

impl FromStr for Series {
    type Err = IntergridError;

    /// Parses `<provider>+<gateway>`; the provider's name is case-insensitive.
    fn from_str(s: &str) -> Result<Series, IntergridError> {
        let (p, g) = s
            .split_once('+')
            .ok_or_else(|| IntergridError::MalformedSeries { series: s.into() })?;
        let provider = p
            .parse::<ProviderPolicy>()
            .map_err(|_| IntergridError::UnknownProvider { name: p.into() })?;
        let gateway = GatewayKind::ALL
            .into_iter()
            .find(|k| k.name() == g)
            .ok_or_else(|| IntergridError::UnknownGateway {
                series: s.into(),
                name: g.into(),
            })?;
        Ok(Series { provider, gateway })
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Series {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <String as serde::Deserialize>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Series {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}
