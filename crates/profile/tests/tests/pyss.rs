//! The scenario suite of pyss, the Feitelson lab's reference simulator
//! (../shared/peer-tests/pyss): all 126 (policy, file) pairs must match.

use std::path::PathBuf;

use profile::{Job, Policy, SchedulerConfig, Time, simulate_observed, validate};

use crate::fuzz::Steps;

/// Machine size of every pyss scenario.
const CAPACITY: u32 = 100;

fn pyss_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/peer-tests/pyss");
    if dir.join("manifest.toml").exists() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("REQUIRE_SHARED").is_none(),
        "REQUIRE_SHARED is set but {} is missing",
        dir.display()
    );
    eprintln!("note: {} not found; pyss scenarios skipped", dir.display());
    None
}

/// A scenario job and the finish time pyss expects (the integer part of its id).
struct Case {
    job: Job,
    id_text: String,
    expected_end: i64,
}

fn parse(text: &str, file: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        assert!(f.len() >= 5, "{file}:{}: expected at least 5 fields", n + 1);
        let int = |k: usize| -> i64 {
            f[k].parse()
                .unwrap_or_else(|_| panic!("{file}:{}: field {} is '{}'", n + 1, k + 1, f[k]))
        };
        let expected_end: i64 = f[1].split('.').next().unwrap().parse().unwrap();
        let index = cases.len() as u64;
        cases.push(Case {
            job: Job::new(index, Time(int(0)), int(3) as u32, int(2), int(4)),
            id_text: f[1].to_string(),
            expected_end,
        });
    }
    // Queue order is file order for equal submit times: a stable sort keeps it.
    cases.sort_by_key(|c| c.job.submit);
    cases
}

/// Runs one scenario and returns the mismatches (empty when pyss agrees).
fn run(dir: &std::path::Path, file: &str, policy: Policy) -> Vec<String> {
    let path = dir.join("scenarios").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cases = parse(&text, file);
    let jobs: Vec<Job> = cases.iter().map(|c| c.job.clone()).collect();
    let config = SchedulerConfig::new(CAPACITY, policy);
    let mut steps = Steps::default();
    let outcomes = simulate_observed(&config, &jobs, &mut steps).unwrap();
    let mut errors = Vec::new();
    // No job outruns its estimate under the default kill: 3n steps at most.
    if steps.0 > 3 * jobs.len() as u64 {
        errors.push(format!(
            "{file} under {}: {} event steps for {} jobs",
            policy.name(),
            steps.0,
            jobs.len()
        ));
    }
    if let Err(v) = validate(CAPACITY, &jobs, &outcomes) {
        errors.push(format!(
            "{file} under {}: invalid schedule: {v}",
            policy.name()
        ));
    }
    for (c, o) in cases.iter().zip(&outcomes) {
        if o.end.secs() != c.expected_end {
            errors.push(format!(
                "{file} under {}: job {} ends at {} (started {}), pyss expects {}",
                policy.name(),
                c.id_text,
                o.end.secs(),
                o.start.secs(),
                c.expected_end
            ));
        }
    }
    errors
}

#[test]
fn every_pyss_scenario_matches() {
    let Some(dir) = pyss_dir() else { return };
    let manifest: toml::Table = std::fs::read_to_string(dir.join("manifest.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let mut pairs = 0;
    let mut failures = Vec::new();
    for (key, policy) in [
        ("fcfs", Policy::Fcfs),
        ("easy", Policy::EASY),
        ("conservative", Policy::Conservative),
    ] {
        let files = manifest[key].as_array().unwrap();
        for file in files {
            pairs += 1;
            let errs = run(&dir, file.as_str().unwrap(), policy);
            if !errs.is_empty() {
                failures.push(errs.join("\n"));
            }
        }
    }
    assert_eq!(pairs, 126, "the manifest lists 126 (policy, file) pairs");
    assert!(
        failures.is_empty(),
        "{} of {pairs} pairs differ from pyss:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
