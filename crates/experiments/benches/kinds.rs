//! Criterion benches: one unit of each paper's experiments, the same cells
//! `cargo xtask bench` times in fresh processes (a pricing run on the
//! 5,000-job SDSC-SP2 window, a provisioning round, the adaptive intervals
//! of one series, a utility run), from the committed configurations and
//! traces, each run on one thread through the shard path.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use experiments::{
    Experiment, Provenance, RunOptions, Shard, Source, Traces, cell_labels, run_shard,
};

/// A committed trace, read from the repository's `traces/`.
fn trace(name: &str) -> Source {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../traces")
        .join(format!("{name}.swf.gz"));
    let trace = swf_io::read_trace(&path, swf_io::Mode::Strict)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Source::trace(name.to_string(), String::new(), trace, None)
}

/// `(bench name, configuration, cell label)`.
const CASES: [(&str, &str, &str); 4] = [
    (
        "pricing_libra_dollar_run",
        include_str!("../../../configs/pricing/fig2.toml"),
        "libra+$ on SDSC-SP2 (last 5000 jobs) at arrival_delay = 0.1 (repetition 1)",
    ),
    (
        "provisioning_round",
        include_str!("../../../configs/provisioning/fig5.toml"),
        "reference of arcb+earliest-partial on DAS2-fs1 (months 9-12) at interval_min = 15 (repetition 1)",
    ),
    (
        "adaptive_series_all_intervals",
        include_str!("../../../configs/adaptive/fig4.toml"),
        "mdf-preemptive-moldable on SDSC-SP2 at load_increase = 50",
    ),
    (
        "utility_run",
        include_str!("../../../configs/utility/fig6.toml"),
        "pu on 4 VOs × 20 resources, 70 users × 20 jobs (repetition 1)",
    ),
];

fn kinds(c: &mut Criterion) {
    let mut g = c.benchmark_group("kinds");
    g.sample_size(10).measurement_time(Duration::from_secs(15));
    let mut loaded: BTreeMap<String, Source> = BTreeMap::new();
    for (name, text, label) in CASES {
        let experiment = Experiment::parse(text, name).unwrap_or_else(|e| panic!("{e}"));
        let mut traces = Traces::new();
        for t in experiment.traces() {
            let source = loaded
                .remove(t.name.as_str())
                .unwrap_or_else(|| trace(&t.name));
            traces.insert(t.name, source);
        }
        let labels = cell_labels(&experiment);
        let index = labels
            .iter()
            .position(|l| l == label || l.starts_with(&format!("{label} (+")))
            .unwrap_or_else(|| panic!("{name}: no cell '{label}'"));
        let shard = Shard::new(index as u32, labels.len() as u32).unwrap();
        let options = RunOptions {
            threads: 1,
            ..RunOptions::default()
        };
        let provenance = Provenance {
            git_revision: String::new(),
            config_file: name.to_string(),
        };
        g.bench_function(name, |b| {
            b.iter(|| {
                black_box(run_shard(&experiment, &traces, &options, shard, &provenance).unwrap())
            })
        });
        loaded.extend(traces);
    }
    g.finish();
}

criterion_group!(benches, kinds);
criterion_main!(benches);
