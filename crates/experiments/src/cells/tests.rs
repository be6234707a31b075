use super::*;

#[test]
fn shards_parse_and_refuse_nonsense() {
    assert_eq!("1/3".parse::<Shard>(), Ok(Shard { index: 1, count: 3 }));
    assert_eq!(" 0 / 1 ".parse::<Shard>(), Ok(Shard::ALL));
    for (bad, why) in [
        ("3/3", "numbered 0 to 2"),
        ("0/0", "at least 1"),
        ("3", "is not I/N"),
        ("-1/3", "'-1' is not a non-negative integer"),
        ("a/b", "'a'"),
    ] {
        let e = bad.parse::<Shard>().unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

#[test]
fn every_cell_has_exactly_one_shard() {
    for count in 1..6 {
        for cell in 0..20 {
            let owners: Vec<u32> = (0..count)
                .filter(|&i| Shard::new(i, count).unwrap().owns(cell))
                .collect();
            assert_eq!(owners, [Shard::of(cell, count).index]);
        }
    }
}

/// A shard of one cell, one run, whose metric `metric` measured 1.5.
fn one_value(metric: &str) -> ShardCells {
    ShardCells {
        experiment: "t/x".into(),
        config_file: "x.toml".into(),
        config_sha256: "0".into(),
        git_revision: "r".into(),
        shard: Shard::ALL,
        cells: 1,
        notes: Vec::new(),
        workloads: Vec::new(),
        measured: vec![CellRecord {
            index: 0,
            label: "c".into(),
            runs: vec![(
                0,
                "r".into(),
                RunValues::from([(metric.into(), vec![Some(1.5)])]),
            )],
        }],
        source: String::new(),
    }
}

/// A value of the wrong type (a number where the file has text) is
/// placed at its line and named by its key.
#[test]
fn a_value_of_the_wrong_type_names_its_line_and_key() {
    let cells = one_value("p99_wait");
    let text = cells.to_toml();
    let edited = text.replace("p99_wait = \"1.5\"", "p99_wait = 1.5");
    assert_ne!(edited, text);
    let line = edited.lines().position(|l| l.contains("p99_wait")).unwrap() + 1;
    let e = ShardCells::parse(&edited, "c.toml")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!(
            "line {line}, `p99_wait`: invalid type: floating point"
        )),
        "{e}"
    );
    ShardCells::parse(&text, "c.toml").unwrap();
}

/// A measurement edited by hand (still a valid value) is refused: the
/// file's checksum no longer matches; a file written as is reads back.
#[test]
fn a_measurement_edited_by_hand_is_refused() {
    let cells = one_value("m");
    let text = cells.to_toml();
    assert!(text.contains("\nversion = 2\ncells_sha256 = \""), "{text}");
    assert_eq!(
        ShardCells::parse(&text, "c.toml").unwrap().measured,
        cells.measured
    );
    for edited in [
        text.replace("m = \"1.5\"", "m = \"1.25\""),
        text.replace("shard = 0", "shard = 0 # mine"),
        text.replacen("cells_sha256 = \"", "cells_sha256 = \"0", 1),
    ] {
        assert_ne!(edited, text);
        let e = ShardCells::parse(&edited, "c.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("c.toml: the file was changed after its shard wrote it"),
            "{e}"
        );
    }
}

#[test]
fn values_round_trip_bit_for_bit() {
    let values = vec![
        Some(0.1 + 0.2),
        None,
        Some(-0.0),
        Some(f64::NAN),
        Some(f64::INFINITY),
        Some(f64::NEG_INFINITY),
        Some(1e300),
        Some(f64::MIN_POSITIVE / 3.0),
        Some(123_456_789.123_456_78),
    ];
    let back = decode(&encode(&values)).unwrap();
    let bits = |v: &[Option<f64>]| v.iter().map(|x| x.map(f64::to_bits)).collect::<Vec<_>>();
    assert_eq!(bits(&back), bits(&values));
    assert_eq!(decode("").unwrap(), Vec::<Option<f64>>::new());
    assert!(decode("1 x").unwrap_err().contains("'x'"));
}
