//! The job submission specification as a file format (the `serde` feature).
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
