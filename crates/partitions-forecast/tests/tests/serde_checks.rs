//! Configurations read through serde are checked as `Cluster::new` checks
//! them: a TOML file cannot hold a cluster that would be refused later (or
//! one read without a word where the file is far from the cluster built).
//! The error names the field and says what is wrong.

use partitions_forecast::{ClusterConfig, ForecastConfig, ProviderPolicy};
use profile::Time;

/// A valid two-partition cluster with Algorithm 1, with `edit` applied to
/// its TOML text.
const GOOD: &str = r#"
capacity = 8
priority = "arrival"
borrowing = true

[[partitions]]
name = "local"
predicate = { origin = "local" }
size = 4
pivots = 1
lends = true

[[partitions]]
name = "grid"
predicate = { origin = "grid" }
size = 4
pivots = 1
lends = true

[forecast]
window = 25
interval = 3600
checks = 3
train_from = 0
share_from = "forecast"
load = "utilisation"
"#;

/// `GOOD` with `from` replaced by `to` fails to read, naming `message`.
fn refused(from: &str, to: &str, message: &str) {
    assert!(GOOD.contains(from), "{from}");
    let text = GOOD.replacen(from, to, 1);
    let err = toml::from_str::<ClusterConfig>(&text).unwrap_err();
    assert!(err.to_string().contains(message), "{from} -> {to}: {err}");
}

#[test]
fn a_good_configuration_reads_and_round_trips() {
    let config: ClusterConfig = toml::from_str(GOOD).unwrap();
    assert_eq!(
        config,
        ProviderPolicy::ArEbMf.config(8, &ForecastConfig::paper(3600))
    );
    let back: ClusterConfig = toml::from_str(&toml::to_string(&config).unwrap()).unwrap();
    assert_eq!(back, config);
    for policy in ProviderPolicy::ALL {
        let config = policy.config(7, &ForecastConfig::paper(60));
        let back: ClusterConfig = toml::from_str(&toml::to_string(&config).unwrap()).unwrap();
        assert_eq!(back, config, "{policy}");
    }
}

/// Each check of `Cluster::new` on the configuration, by field.
#[test]
fn a_configuration_cluster_new_would_refuse_is_not_read() {
    refused(
        "capacity = 8",
        "capacity = 0",
        "`capacity`: the cluster has 0 processors; give it at least 1",
    );
    refused(
        "size = 4",
        "size = 5",
        "`partitions`: partition sizes add up to 9 processors but the cluster has 8",
    );
    refused(
        "pivots = 1\nlends = true\n\n[forecast]",
        "pivots = 0\nlends = true\n\n[forecast]",
        "`partitions[1].pivots`: partition 'grid' has 0 pivots; give it at least 1",
    );
    refused(
        "lends = true\n\n[forecast]",
        "lends = false\n\n[forecast]",
        "`forecast`: the forecast policy needs exactly one local and one grid partition",
    );
    refused(
        "predicate = { origin = \"grid\" }",
        "predicate = \"any\"",
        "`forecast`: the forecast policy needs",
    );
    refused(
        "borrowing = true",
        "borrowing = false",
        "`forecast`: the forecast policy needs",
    );
}

/// Algorithm 1's settings are checked where the `[forecast]` table is
/// read, alone or inside a cluster.
#[test]
fn forecast_settings_out_of_range_are_not_read() {
    let cases = [
        (
            "window = 25",
            "window = 0",
            "`window`: forecast: forecast window is 0 intervals",
        ),
        (
            "window = 25",
            "window = 25\nsmoothing = 1.5",
            "`smoothing`: forecast: smoothing factor is 1.5, expected a number in (0, 1]",
        ),
        (
            "window = 25",
            "window = 25\nsmoothing = nan",
            "`smoothing`: forecast: smoothing factor is NaN",
        ),
        (
            "interval = 3600",
            "interval = 0",
            "`interval`: the reallocation period is 0 s",
        ),
        (
            "checks = 3",
            "checks = 0",
            "`checks`: the reallocation period is 3600 s",
        ),
        (
            "interval = 3600",
            "interval = 1099511627777",
            "`interval`: the publication interval (s) is 1099511627777, outside [1, 1099511627776]",
        ),
        (
            "checks = 3",
            "checks = 10001",
            "`checks`: the reallocation checks per interval is 10001, outside [1, 10000]",
        ),
    ];
    for (from, to, message) in cases {
        refused(from, to, message);
        let table =
            GOOD[GOOD.find("[forecast]").unwrap() + "[forecast]".len()..].replacen(from, to, 1);
        let err = toml::from_str::<ForecastConfig>(&table).unwrap_err();
        assert!(err.to_string().contains(message), "{to}: {err}");
    }
    let table = &GOOD[GOOD.find("[forecast]").unwrap() + "[forecast]".len()..];
    let fc: ForecastConfig = toml::from_str(table).unwrap();
    assert_eq!(
        fc,
        ForecastConfig {
            train_from: Time(0),
            ..ForecastConfig::paper(3600)
        }
    );
}
