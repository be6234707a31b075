//! With the `serde` feature: the names configs use, both ways.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::DeserializeOwned;
use swf_io::lublin99::Lublin99;
use swf_io::{Estimate, Limits, Mode, SwfHeader, SwfRecord, to_jobs};

/// `value = <toml>` reads as `expected` and writes back as `toml`.
fn check<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(toml: &str, expected: T) {
    let read: BTreeMap<String, T> = toml::from_str(&format!("value = {toml}")).unwrap();
    assert_eq!(read["value"], expected, "{toml}");
    let written = toml::to_string(&read).unwrap();
    assert_eq!(written.trim(), format!("value = {toml}"));
}

/// `value` survives writing and reading back.
fn round_trip<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(value: T) {
    let map = BTreeMap::from([("value".to_string(), value)]);
    let text = toml::to_string(&map).unwrap();
    let back: BTreeMap<String, T> = toml::from_str(&text).unwrap();
    assert_eq!(back, map, "{text}");
}

/// `value = <toml>` does not read as a `T`, with `message` in the error.
fn check_err<T: DeserializeOwned + std::fmt::Debug>(toml: &str, message: &str) {
    let err = toml::from_str::<BTreeMap<String, T>>(&format!("value = {toml}")).unwrap_err();
    assert!(err.to_string().contains(message), "{err}");
}

#[test]
fn estimate_names() {
    check("\"requested\"", Estimate::Requested);
    check("\"actual\"", Estimate::Actual);
    let read: BTreeMap<String, Estimate> =
        toml::from_str("value = { under_estimate = 0.2 }").unwrap();
    assert_eq!(read["value"], Estimate::UnderEstimate(0.2));
    round_trip(Estimate::UnderEstimate(0.2));
    check_err::<Estimate>("\"guess\"", "unknown variant `guess`");
    assert_eq!(Estimate::default(), Estimate::Requested);
}

#[test]
fn modes_and_limits() {
    check("\"strict\"", Mode::Strict);
    check("\"lenient\"", Mode::Lenient);
    round_trip(Limits::default());
}

#[test]
fn records_headers_and_conversions_round_trip() {
    let records = Lublin99 {
        procs: 64,
        duration: i64::MAX,
        max_jobs: Some(20),
        seed: 3,
        two_class: true,
        ..Default::default()
    }
    .generate();
    let mut record = records[0];
    record.avg_cpu_time = Some(12.5);
    round_trip(record);
    round_trip(SwfRecord::default());
    round_trip(SwfHeader {
        version: Some("2.2".into()),
        max_procs: Some(64),
        notes: vec!["a note".into()],
        lines: vec![("Version".into(), "2.2".into())],
        ..SwfHeader::default()
    });
    round_trip(to_jobs(&records, Estimate::Actual));
    round_trip(Lublin99 {
        procs: 128,
        duration: 86_400,
        max_jobs: None,
        seed: 1,
        two_class: false,
        ..Default::default()
    });
}

/// A load or rate the `key=value` spec refuses (0, negative, NaN,
/// infinite) was read from TOML and left the model's arrivals unscaled
/// without a word; it is refused naming the option.
#[test]
fn arrivals_out_of_range_are_not_read() {
    use swf_io::lublin99::Arrivals;
    check("\"model\"", Arrivals::Model);
    let read: BTreeMap<String, Arrivals> = toml::from_str("value = { load = 0.7 }").unwrap();
    assert_eq!(read["value"], Arrivals::Load(0.7));
    round_trip(Arrivals::Load(0.7));
    round_trip(Arrivals::Rate(30.0));
    for (toml, message) in [
        (
            "{ load = 0.0 }",
            "`load` is 0, expected a finite number above 0",
        ),
        ("{ load = -0.5 }", "`load` is -0.5, expected"),
        ("{ load = nan }", "`load` is NaN, expected"),
        (
            "{ rate = inf }",
            "`rate` is inf, expected a finite number above 0",
        ),
    ] {
        check_err::<Arrivals>(toml, message);
    }
    let err = toml::from_str::<Lublin99>(
        "procs = 64\nduration = 100\nseed = 1\ntwo_class = false\narrivals = { load = -1.0 }",
    )
    .unwrap_err();
    assert!(err.to_string().contains("`load` is -1"), "{err}");
}
