//! A time-shared cluster's configuration: its nodes and the settings of the
//! mechanisms' open cases.

use crate::control::JobControl;
use crate::error::{PricingError, amount, factor};

/// The most nodes a time-shared cluster may have: 1,000,000.
///
/// A node is a processor of the modelled machine, and the cluster keeps
/// state for every node and scans them all at each arrival, so memory and
/// time grow with the machine size given, not with the workload. The cap
/// is far beyond the largest machine of the Parallel Workloads Archive logs
/// the toolkit uses (SDSC Blue Horizon, 1,152 processors) and keeps a
/// cluster under a few hundred MB; [`Cluster::new`](crate::Cluster::new) and
/// [`RunConfig::cluster`](crate::RunConfig::cluster) refuse more with
/// [`PricingError::TooManyNodes`] before allocating anything.
pub const MAX_NODES: usize = 1_000_000;

/// One compute node: a single processor with a SPEC-style rating, local
/// memory and disk, and a base price.
///
/// With the `serde` feature a node read from a configuration is checked as
/// a cluster's nodes are (a rating of at least 1, a finite `base_price`
/// `>= 0`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(remote = "Self", deny_unknown_fields))]
pub struct NodeSpec {
    /// Processor rating (SPEC); run times scale with `reference / rating`.
    pub rating: u32,
    /// Local memory in MB.
    pub memory_mb: u64,
    /// Local disk in MB.
    pub disk_mb: u64,
    /// `PBase_j`: price of one second of this node's processor time.
    pub base_price: f64,
}

impl NodeSpec {
    /// A node with the given rating and base price, and more memory and
    /// disk than any job asks for (they are not modelled).
    pub fn new(rating: u32, base_price: f64) -> NodeSpec {
        NodeSpec {
            rating,
            memory_mb: u64::MAX,
            disk_mb: u64::MAX,
            base_price,
        }
    }

    /// A rating of at least 1 and a finite base price `>= 0`.
    pub(crate) fn check(&self) -> Result<(), PricingError> {
        amount(
            "node rating",
            i64::from(self.rating),
            1,
            "a positive rating",
        )?;
        factor("PBase", self.base_price)?;
        Ok(())
    }
}

#[cfg(feature = "serde")]
checked_serde!(NodeSpec, NodeSpec::check);

/// Which processor time counts as committed to other jobs in a job's window
/// `[AT_i, DT_i]` (the sum in eq. 6).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Committed {
    /// The whole estimate `RE_kj` of each job executing on the node, as
    /// eq. 6 prints it. The default.
    #[default]
    Estimate,
    /// The remaining estimated work `RE_kj − clockCPU_kj` of each executing job.
    Remaining,
    /// The processor time each executing job is due in the window at its
    /// current partition: `Partition_kj · min(DT_k − AT_i, D_i)` (a late job
    /// claims its partition over the whole window). With it, a node that
    /// passes the share test always has `RESFree ≥ 0`.
    Window,
}

/// A cluster: its nodes and the mechanisms' settings.
///
/// With the `serde` feature a configuration read is checked as
/// [`Cluster::new`](crate::Cluster::new) checks it: at least one and at most
/// [`MAX_NODES`] nodes, each valid, a positive `reference_rating`, and a
/// `control` under which every job runs.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(remote = "Self", deny_unknown_fields))]
pub struct ClusterConfig {
    /// The compute nodes.
    pub nodes: Vec<NodeSpec>,
    /// The rating that runtime estimates and run times refer to.
    pub reference_rating: u32,
    /// Algorithm 2's open cases.
    #[cfg_attr(feature = "serde", serde(default))]
    pub control: JobControl,
    /// How eq. 6 counts committed processor time.
    #[cfg_attr(feature = "serde", serde(default))]
    pub committed: Committed,
}

impl ClusterConfig {
    /// `count` identical nodes of `rating`, each at `base_price` per second,
    /// with the default job control and committed-time reading.
    pub fn homogeneous(count: usize, rating: u32, base_price: f64) -> ClusterConfig {
        ClusterConfig {
            nodes: vec![NodeSpec::new(rating, base_price); count],
            reference_rating: rating,
            control: JobControl::default(),
            committed: Committed::default(),
        }
    }

    pub(crate) fn check(&self) -> Result<(), PricingError> {
        amount("nodes", self.nodes.len() as i64, 1, "at least one node")?;
        if self.nodes.len() > MAX_NODES {
            return Err(PricingError::TooManyNodes {
                nodes: self.nodes.len() as u64,
                max: MAX_NODES,
            });
        }
        amount(
            "reference rating",
            i64::from(self.reference_rating),
            1,
            "a positive rating",
        )?;
        for n in &self.nodes {
            n.check()?;
        }
        self.control.check()
    }

    /// Seconds on node `j` of `secs` seconds on a reference node, rounded up.
    pub(crate) fn on_node(&self, secs: i64, j: usize) -> i64 {
        self.on_rating(secs, self.nodes[j].rating)
    }

    /// Seconds on a node of `rating` of `secs` seconds on a reference node,
    /// rounded up.
    pub(crate) fn on_rating(&self, secs: i64, rating: u32) -> i64 {
        let r = i128::from(rating.max(1));
        let v = (i128::from(secs) * i128::from(self.reference_rating) + r - 1) / r;
        i64::try_from(v).unwrap_or(i64::MAX)
    }
}

#[cfg(feature = "serde")]
checked_serde!(ClusterConfig, ClusterConfig::check);
