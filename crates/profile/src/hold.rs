//! Ids shared by the crates that reserve processors in two phases.

/// A tentative hold on a provider's processors: phase one of the two-phase
/// advance-reservation protocol (request, then commit or abort).
///
/// The provider that grants the hold chooses the number; whoever asked
/// names the hold back when it commits or aborts. Defined here once so the
/// gateway (`gateway::HoldId`) and the clusters that serve it
/// (`partitions_forecast::HoldId`) speak of the same id without converting.
///
/// ```
/// use profile::HoldId;
///
/// let hold = HoldId(7);
/// assert_eq!(hold.0, 7);
/// assert!(HoldId(1) < hold);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct HoldId(pub u64);
