//! Results written without running anything, consistent with their
//! configuration: what `verify` accepts (data.csv is what samples.csv
//! gives, run.toml records the configuration), so tests of `verify` can
//! choose every value and then corrupt one thing at a time.

use std::path::Path;

use experiments::{Experiment, Samples, Unit, aggregate, write_csv};

/// Writes `data.csv`, `samples.csv`, `run.toml` and `figure.svg` for the
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
    std::fs::write(dir.join("figure.svg"), "<svg/>").unwrap();
    let spec: toml::Table = text.parse().unwrap();
    let reps = spec
        .get("repetitions")
        .and_then(toml::Value::as_integer)
        .unwrap_or(1);
    let mut provenance = toml::Table::new();
    for (k, v) in [
        ("git_revision", "test".into()),
        ("config_file", config.display().to_string().into()),
        ("config_sha256", experiment.config_sha256().into()),
        ("seed", toml::Value::Integer(experiment.seed() as i64)),
        (
            "repetition_seeds",
            toml::Value::Array((0..reps).map(|r| r.to_string().into()).collect()),
        ),
        ("stand_in", false.into()),
        ("workloads", toml::Value::Array(Vec::new())),
    ] {
        provenance.insert(k.to_string(), v);
    }
    let mut doc = toml::Table::new();
    doc.insert("provenance".into(), provenance.into());
    let config: toml::Table = experiment.resolved_toml().parse().unwrap();
    doc.insert("config".into(), config.into());
    std::fs::write(dir.join("run.toml"), toml::to_string(&doc).unwrap()).unwrap();
}
