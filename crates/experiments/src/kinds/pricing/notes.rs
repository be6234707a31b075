//! What `summary.md` says about a pricing experiment's workloads.

use crate::workload::Workload;

/// Mean processors, inter-arrival time and run time of a workload, for the
/// summary (the paper reports 17, 1969 s and 8671 s for its 5000 jobs: the
/// log's last 5000 records, whose 466 never-started ones count with a run
/// time of -1 in the mean; docs/pricing.md).
pub(super) fn workload_statistics(workload: &Workload) -> String {
    let jobs = &workload.jobs;
    let n = jobs.len().max(1) as f64;
    let procs = jobs.iter().map(|j| f64::from(j.procs)).sum::<f64>() / n;
    let run = jobs.iter().map(|j| j.run_time as f64).sum::<f64>() / n;
    let gaps = match (jobs.first(), jobs.last()) {
        (Some(a), Some(b)) if jobs.len() > 1 => {
            (b.submit - a.submit) as f64 / (jobs.len() - 1) as f64
        }
        _ => 0.0,
    };
    format!(
        "{}: {} jobs on {} processors; mean {procs:.1} processors, mean inter-arrival time {gaps:.0} s \
         (before the arrival delay factor), mean run time {run:.0} s. The paper's 5000 jobs: 17 \
         processors, 1969 s and 8671 s, over every record of its window, never-started ones \
         included.",
        workload.label,
        jobs.len(),
        workload.capacity
    )
}
