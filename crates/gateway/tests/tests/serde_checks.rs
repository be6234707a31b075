//! Settings read through serde are checked as `run` checks them: a TOML
//! file cannot hold a publication interval, a period, a time or an attempt
//! count a run would refuse. The error names the setting.

use gateway::{EarliestPartial, GatewayConfig, GatewayPolicy, Information};

/// The paper's settings under `earliest-partial` every 600 s, as TOML.
fn good() -> String {
    let config = GatewayConfig::new(GatewayPolicy::EarliestStart(Information::Partial {
        interval: 600,
    }));
    toml::to_string(&config).unwrap()
}

/// `good()` with `from` replaced by `to` fails to read, naming `message`.
fn refused(from: &str, to: &str, message: &str) {
    let text = good();
    assert!(text.contains(from), "{from} not in {text}");
    let err = toml::from_str::<GatewayConfig>(&text.replacen(from, to, 1)).unwrap_err();
    assert!(err.to_string().contains(message), "{to}: {err}");
}

#[test]
fn good_settings_read_and_round_trip() {
    let text = good();
    let config: GatewayConfig = toml::from_str(&text).unwrap();
    assert_eq!(toml::to_string(&config).unwrap(), text);
    let own: GatewayConfig<EarliestPartial> =
        toml::from_str(&text.replace("[policy.earliest_start.partial]", "[policy]")).unwrap();
    assert_eq!(own.policy, EarliestPartial { interval: 600 });
}

/// Every setting `run` checks before it starts, by name.
#[test]
fn settings_a_run_would_refuse_are_not_read() {
    let period = "s; give a number of seconds from 1 to 2^40";
    refused(
        "interval = 600",
        "interval = 0",
        &format!("`interval`: publication interval is 0 {period}"),
    );
    refused(
        "interval = 600",
        "interval = 1099511627777",
        "publication interval is 1099511627777 s",
    );
    refused(
        "report_every = 600",
        "report_every = -1",
        &format!("report_every is -1 {period}"),
    );
    refused(
        "retry_every = 600",
        "retry_every = 0",
        &format!("retry_every is 0 {period}"),
    );
    refused(
        "max_attempts = 10",
        "max_attempts = 1001",
        "max_attempts is 1001, outside [0, 1000]",
    );
    refused(
        "start = 0",
        "start = 1099511627777",
        "start is 1099511627777, outside [-1099511627776, 1099511627776]",
    );
    refused(
        "start = 0",
        "start = 0\ntimers_until = -9223372036854775808",
        "timers_until is -9223372036854775808, outside",
    );
}

/// A policy's interval alone, outside a configuration.
#[test]
fn an_interval_alone_is_checked_too() {
    let err = toml::from_str::<EarliestPartial>("interval = 0").unwrap_err();
    assert!(
        err.to_string()
            .contains("`interval`: publication interval is 0 s"),
        "{err}"
    );
    let err = toml::from_str::<Information>("partial = { interval = -5 }").unwrap_err();
    assert!(
        err.to_string().contains("publication interval is -5 s"),
        "{err}"
    );
    let ok: Information = toml::from_str("partial = { interval = 1 }").unwrap();
    assert_eq!(ok, Information::Partial { interval: 1 });
}
