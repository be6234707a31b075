//! `describe`: the schema described from the code, `configs/README.md`
//! equal to it, and every key of every shipped configuration in it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use experiments::{DescribeStyle, Registry, describe, documented_keys};

fn configs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs")
}

/// `configs/README.md` is `describe --markdown`, byte for byte.
#[test]
fn configs_readme_is_the_markdown_description() {
    let want = describe(&Registry::builtin(), None, DescribeStyle::Markdown).unwrap();
    let path = configs_dir().join("README.md");
    if std::env::var_os("UPDATE_CONFIGS_README").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let got = std::fs::read_to_string(&path).unwrap();
    assert!(
        got == want,
        "configs/README.md differs from `cargo xtask describe --markdown`: regenerate it with \
         `cargo xtask describe --markdown > configs/README.md` (or run this test with \
         UPDATE_CONFIGS_README=1)"
    );
}

fn tomls(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            tomls(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}

/// The dotted paths of the keys of a kind's `[params]`-like table.
fn params_keys(prefix: &str, table: &toml::Table, out: &mut BTreeSet<String>) {
    for (k, v) in table {
        let path = format!("{prefix}.{k}");
        match v {
            toml::Value::Table(t) => params_keys(&path, t, out),
            _ => {
                out.insert(path);
            }
        }
    }
}

/// The dotted paths of every key written in a configuration: arrays of
/// tables are walked as their tables; values that are data (an estimate
/// model, the sweep's values) stop the walk; `[params]` keys and the
/// overrides of series and of relative panels are kind parameters.
fn keys_of(path: &str, value: &toml::Value, out: &mut BTreeSet<String>) {
    if !path.is_empty() {
        out.insert(path.to_string());
    }
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    match value {
        toml::Value::Table(t) => {
            for (k, v) in t {
                let here = join(k);
                match (here.as_str(), v) {
                    ("params", toml::Value::Table(p)) => {
                        out.insert(here.clone());
                        params_keys("params", p, out);
                    }
                    ("workloads.estimate" | "sweep.values", _) => {
                        out.insert(here);
                    }
                    ("series", toml::Value::Array(items)) => {
                        out.insert(here);
                        for item in items {
                            if let Some(toml::Value::Table(p)) =
                                item.as_table().and_then(|t| t.get("params"))
                            {
                                params_keys("params", p, out);
                            }
                        }
                    }
                    ("panels.gain_over" | "panels.reduction_over", v) => {
                        out.insert(here);
                        if let Some(toml::Value::Table(p)) =
                            v.as_table().and_then(|t| t.get("params"))
                        {
                            params_keys("params", p, out);
                        }
                    }
                    _ => keys_of(&here, v, out),
                }
            }
        }
        toml::Value::Array(items) => {
            for item in items.iter().filter(|i| i.is_table()) {
                keys_of(path, item, out);
            }
        }
        _ => {}
    }
}

/// Every key any shipped configuration writes is one `describe` documents
/// (for that configuration's kind), and appears in its output.
#[test]
fn every_key_of_every_shipped_config_is_described() {
    let registry = Registry::builtin();
    let whole = describe(&registry, None, DescribeStyle::Markdown).unwrap();
    let mut files = Vec::new();
    tomls(&configs_dir(), &mut files);
    assert!(files.len() >= 19, "found only {} configs", files.len());
    let mut missing = Vec::new();
    let mut seen = BTreeSet::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let doc: toml::Table = toml::from_str(&text).unwrap();
        let kind = doc["kind"].as_str().unwrap();
        let documented: BTreeSet<String> = documented_keys(&registry, kind)
            .unwrap()
            .into_iter()
            .collect();
        let mut keys = BTreeSet::new();
        keys_of("", &toml::Value::Table(doc.clone()), &mut keys);
        for key in keys {
            let leaf = key.rsplit('.').next().unwrap();
            // A key inside a documented table (`params.admission.alpha`)
            // is documented with its table.
            let inside = |k: &str| {
                k.char_indices()
                    .filter(|&(_, c)| c == '.')
                    .any(|(i, _)| documented.contains(&k[..i]))
            };
            let listed = documented.contains(&key) || inside(&key);
            if !listed || !whole.contains(&format!("{leaf}`")) {
                missing.push(format!("{}: {key}", file.display()));
            }
            seen.insert(key);
        }
    }
    assert!(
        missing.is_empty(),
        "keys used in configs/ that `describe` does not document:\n  {}",
        missing.join("\n  ")
    );
    // The walk sees the keys it should: predicates, transforms, params.
    for key in [
        "claims.check.rise",
        "claims.check.rises_more.from",
        "workloads.transforms.job_ids",
        "params.table1.preemptive_share",
        "panels.gain_over",
    ] {
        assert!(seen.contains(key), "no shipped config uses {key}");
    }
}

/// `describe KIND` is that kind's part; an unknown kind names the others.
#[test]
fn one_kind_and_an_unknown_kind() {
    let registry = Registry::builtin();
    let text = describe(&registry, Some("pricing"), DescribeStyle::Text).unwrap();
    assert!(text.starts_with("pricing\n"), "{text}");
    assert!(text.contains("base_price") && text.contains("$ per processor-second"));
    assert!(text.contains("libra+$-b<beta>"), "{text}");
    assert!(!text.contains("bsld_bound"), "{text}");
    let e = describe(&registry, Some("nope"), DescribeStyle::Text).unwrap_err();
    assert!(
        e.contains("unknown kind 'nope'") && e.contains("backfilling"),
        "{e}"
    );
}
