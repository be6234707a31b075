//! The job submission specification and a cluster's configuration as a file
//! format (the `serde` feature).
#![cfg(feature = "serde")]

use pricing::{JobSpec, NoExtension, Objective};
use serde::{Deserialize, Serialize};

const FULL: &str = r#"
[job_details]
runtime_estimate = 8671

[resource_requirements]
processors = 17
memory_mb = 256
disk_mb = 1024

[qos_constraints]
deadline = 69368
budget = 17342.0

[qos_optimization]
optimize = ["finish_time", "cost"]
"#;

/// Parses `text`, or returns the error message.
fn parse<X: for<'de> Deserialize<'de>>(text: &str) -> Result<JobSpec<X>, String> {
    toml::from_str(text).map_err(|e| e.message().to_string())
}

#[test]
fn all_four_segments_round_trip() {
    let spec: JobSpec = parse(FULL).unwrap();
    assert_eq!(spec.job_details.runtime_estimate, 8671);
    assert_eq!(spec.resource_requirements.processors, 17);
    assert_eq!(
        spec.qos_optimization.as_ref().unwrap().optimize,
        [Objective::FinishTime, Objective::Cost]
    );
    let again: JobSpec = parse(&toml::to_string(&spec).unwrap()).unwrap();
    assert_eq!(again, spec);
}

#[test]
fn optional_segments_and_fields_have_defaults() {
    let spec: JobSpec = parse(
        "[job_details]\nruntime_estimate = 60\n[resource_requirements]\nprocessors = 1\n\
         [qos_constraints]\ndeadline = 120\nbudget = 60.0\n",
    )
    .unwrap();
    assert_eq!(spec, JobSpec::new(60, 1, 120, 60.0));
    assert_eq!(spec.extension, NoExtension {});
}

#[test]
fn misspelt_names_are_errors() {
    for (from, to, expect) in [
        ("memory_mb", "memory", "unknown field `memory`"),
        (
            "[qos_optimization]",
            "[qos_optimisation]",
            "unknown segment `qos_optimisation`",
        ),
        ("\"cost\"", "\"price\"", "unknown variant `price`"),
    ] {
        let err = parse::<NoExtension>(&FULL.replace(from, to)).unwrap_err();
        assert!(err.contains(expect), "{to}: {err}");
    }
    let err = parse::<NoExtension>(&FULL.replace("[job_details]\nruntime_estimate = 8671\n", ""))
        .unwrap_err();
    assert!(err.contains("missing field `job_details`"), "{err}");
}

#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DataSegments {
    data_dependency: Dependency,
}

#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Dependency {
    inputs: Vec<String>,
}

#[test]
fn other_segments_extend_the_specification() {
    let text = format!("{FULL}\n[data_dependency]\ninputs = [\"a.dat\"]\n");
    let spec: JobSpec<DataSegments> = parse(&text).unwrap();
    assert_eq!(spec.extension.data_dependency.inputs, ["a.dat"]);
    assert_eq!(spec.resource_requirements.disk_mb, 1024);
    // A plain specification refuses the segment it does not know.
    let err = parse::<NoExtension>(&text).unwrap_err();
    assert!(err.contains("unknown segment `data_dependency`"), "{err}");
    let again: JobSpec<DataSegments> = parse(&toml::to_string(&spec).unwrap()).unwrap();
    assert_eq!(again, spec);
}

/// A value read is checked as `JobSpec::check` checks it: the error names
/// the field and the reason, and the segment's line.
#[test]
fn out_of_range_values_are_refused_where_read() {
    for (from, to, expect) in [
        (
            "runtime_estimate = 8671",
            "runtime_estimate = 0",
            "runtime estimate is 0, expected a positive number of seconds",
        ),
        (
            "runtime_estimate = 8671",
            "runtime_estimate = 1099511627777",
            "runtime estimate is 1099511627777, expected at most 2^40 s",
        ),
        (
            "processors = 17",
            "processors = 0",
            "processors is 0, expected at least 1",
        ),
        (
            "deadline = 69368",
            "deadline = -5",
            "deadline is -5, expected a positive number of seconds",
        ),
        (
            "budget = 17342.0",
            "budget = nan",
            "budget is NaN, expected a finite number >= 0",
        ),
        (
            "budget = 17342.0",
            "budget = -1.0",
            "budget is -1, expected a finite number >= 0",
        ),
        (
            "budget = 17342.0",
            "budget = inf",
            "budget is inf, expected a finite number >= 0",
        ),
    ] {
        let err = parse::<NoExtension>(&FULL.replace(from, to)).unwrap_err();
        assert!(err.contains(expect), "{to}: {err}");
    }
    // The extension's segments do not excuse the basic ones.
    let text = format!("{FULL}\n[data_dependency]\ninputs = []\n")
        .replace("processors = 17", "processors = 0");
    let err = parse::<DataSegments>(&text).unwrap_err();
    assert!(err.contains("processors is 0"), "{err}");
}

/// A cluster read is checked as `Cluster::new` checks it.
#[test]
fn cluster_configs_are_checked_where_read() {
    use pricing::{ClusterConfig, JobControl, NodeSpec};
    let read = |text: &str| toml::from_str::<ClusterConfig>(text).map_err(|e| e.to_string());
    let node = "[[nodes]]\nrating = 168\nmemory_mb = 1024\ndisk_mb = 1024\nbase_price = 1.0\n";
    let good = format!("reference_rating = 168\n{node}");
    let config = read(&good).unwrap();
    assert_eq!(
        config.nodes[0],
        NodeSpec {
            memory_mb: 1024,
            disk_mb: 1024,
            ..NodeSpec::new(168, 1.0)
        }
    );
    assert_eq!(read(&toml::to_string(&config).unwrap()).unwrap(), config);
    for (text, expect) in [
        (
            "reference_rating = 168\nnodes = []".to_string(),
            "nodes is 0, expected at least one node",
        ),
        (
            good.replace("reference_rating = 168", "reference_rating = 0"),
            "reference rating is 0",
        ),
        (
            good.replace("rating = 168\nmemory", "rating = 0\nmemory"),
            "node rating is 0",
        ),
        (
            good.replace("base_price = 1.0", "base_price = -2.5"),
            "PBase is -2.5, expected a finite number >= 0",
        ),
        (
            good.replace("base_price = 1.0", "base_price = nan"),
            "PBase is NaN",
        ),
        (
            format!("{good}[control]\nspare = \"idle\"\nlate = \"zero\"\n"),
            "with spare = idle and late = zero a job whose partition is 0 never runs again",
        ),
    ] {
        let err = read(&text).unwrap_err();
        assert!(err.contains(expect), "{text}: {err}");
    }
    // The parts read alone are checked too.
    let err =
        toml::from_str::<NodeSpec>("rating = 1\nmemory_mb = 0\ndisk_mb = 0\nbase_price = inf")
            .unwrap_err();
    assert!(err.to_string().contains("PBase is inf"), "{err}");
    let err = toml::from_str::<JobControl>("spare = \"idle\"\nlate = \"zero\"").unwrap_err();
    assert!(err.to_string().contains("invalid job control"), "{err}");
    let idle: JobControl = toml::from_str("spare = \"idle\"").unwrap();
    assert_eq!(idle.spare, pricing::Spare::Idle);
}
