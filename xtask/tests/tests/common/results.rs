//! Results written without running anything, consistent with their
//! configuration: what `verify` accepts (data.csv is what samples.csv
//! gives, run.toml records the configuration, its seeds and what it makes
//! of the traces), so tests of `verify` can
//! choose every value and then corrupt one thing at a time.

use std::path::Path;

use experiments::{Experiment, Results, Samples, Unit, WorkloadFacts, aggregate, write_csv};

/// Writes `data.csv`, `samples.csv`, `run.toml`, `figure.svg` and the marker
/// listing them for the
/// configuration at `config` into `dir`: one unit per point, valued
/// `value(panel, series, x)`.
pub fn write_results(config: &Path, dir: &Path, value: &dyn Fn(&str, &str, &str) -> f64) {
    let text = std::fs::read_to_string(config).unwrap();
    let experiment = Experiment::parse(&text, &config.display().to_string()).unwrap();
    let level = experiment.confidence();
    let mut samples = Samples::new(level);
    for row in aggregate(&experiment, &Samples::new(level)) {
        let unit = Unit {
            repetition: 0,
            sample: 0,
            value: value(&row.panel, &row.series, &row.x),
        };
        samples.push(&row.panel, &row.series, &row.x, unit);
    }
    let rows = aggregate(&experiment, &samples);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("data.csv"), write_csv(&rows)).unwrap();
    std::fs::write(dir.join("samples.csv"), samples.csv()).unwrap();
    let spec: toml::Table = text.parse().unwrap();
    let reps = spec
        .get("repetitions")
        .and_then(toml::Value::as_integer)
        .unwrap_or(1);
    let seeds = (0..reps as u32).map(|r| experiment.repetition_seed(r).to_string().into());
    let (facts, notes) = facts(&experiment, config);
    // figure.svg and summary.md as a run with these samples writes them.
    let results = Results::from_samples(&experiment, samples, facts.clone(), notes);
    std::fs::write(dir.join("figure.svg"), results.svg()).unwrap();
    std::fs::write(dir.join("summary.md"), results.summary(&experiment)).unwrap();
    let workloads = toml::Value::try_from(facts).unwrap();
    let mut provenance = toml::Table::new();
    for (k, v) in [
        ("git_revision", "test".into()),
        ("config_file", config.display().to_string().into()),
        ("config_sha256", experiment.config_sha256().into()),
        ("seed", toml::Value::Integer(experiment.seed() as i64)),
        ("repetition_seeds", toml::Value::Array(seeds.collect())),
        ("stand_in", false.into()),
        ("workloads", workloads),
    ] {
        provenance.insert(k.to_string(), v);
    }
    let mut doc = toml::Table::new();
    doc.insert("provenance".into(), provenance.into());
    let config: toml::Table = experiment.resolved_toml().parse().unwrap();
    doc.insert("config".into(), config.into());
    std::fs::write(dir.join("run.toml"), toml::to_string(&doc).unwrap()).unwrap();
    // The marker the tool writes: every file with its sha256.
    let mut files = toml::Table::new();
    for name in [
        "data.csv",
        "samples.csv",
        "figure.svg",
        "summary.md",
        "run.toml",
    ] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        files.insert(name.into(), experiments::sha256_hex(&bytes).into());
    }
    let mut marker = toml::Table::new();
    marker.insert("manifest".into(), 1.into());
    marker.insert("files".into(), files.into());
    std::fs::write(
        dir.join(".usched-results"),
        toml::to_string(&marker).unwrap(),
    )
    .unwrap();
}

/// The workload facts a run of `experiment` records and the kind's notes
/// on them, its traces found as the command line finds them (relative to
/// `config`); none when one cannot be found here (then `verify` fails: the
/// results cannot be checked).
fn facts(experiment: &Experiment, config: &Path) -> (Vec<WorkloadFacts>, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut settings = cli::traces::TraceSettings::from_env(root);
    // Never the network from a test.
    settings.mirror = Some("file:///nonexistent-usched-mirror".into());
    let base = config.parent().unwrap_or(Path::new("."));
    let mut traces = experiments::Traces::new();
    for t in experiment.traces() {
        let Ok(found) = cli::traces::resolve(&t.name, base, &settings) else {
            return (Vec::new(), Vec::new());
        };
        traces.insert(t.name, cli::traces::load(&found, t.lenient).unwrap());
    }
    experiments::workload_facts(experiment, &traces, &experiments::RunOptions::default()).unwrap()
}
