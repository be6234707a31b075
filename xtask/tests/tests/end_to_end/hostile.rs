//! What `cargo xtask` prints holds no raw control or bidi characters, even
//! when a configuration's text is full of them: progress lines, the
//! Markdown report on stdout, verdicts and error messages. Names that an
//! output could only write escaped are refused where they are written;
//! the TOML files the tool writes hold no such character raw; the
//! commands it prints for pasting are quoted for the shell.

use super::command_line::{CONFIG, setup, text, xtask};

/// Text with terminal escapes, a carriage return, a bell and bidi controls.
const NASTY: &str = "\u{1b}[31mred\u{1b}[0m\rback\u{7}\u{202e}evil\u{2066}\u{9b}2J";

/// `s` without the characters no name may hold.
fn name(s: &str) -> String {
    s.chars()
        .filter(|&c| !experiments::encode::is_escaped(c))
        .collect()
}

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn assert_clean(what: &str, out: &str) {
    if let Some(c) = out
        .chars()
        .find(|&c| c == '\r' || experiments::encode::is_unsafe(c))
    {
        panic!("{what} holds a raw {c:?}:\n{out}");
    }
}

#[test]
fn hostile_text_never_reaches_the_terminal_raw() {
    let tmp = setup("hostile-terminal");
    let q = toml_string(NASTY);
    let n = toml_string(&name(NASTY));
    let config = CONFIG
        .replace(
            "title = \"Tiny end-to-end run\"",
            &format!("title = {q}"),
        )
        .replace("paper = \"none\"", &format!("paper = {q}"))
        .replace(
            "series = [\"fcfs\", \"easy\", \"conservative\"]",
            &format!(
                "series = [\"fcfs\", {{ name = {n}, params = {{ policy = \"easy\" }} }}, \"conservative\"]"
            ),
        )
        .replace("series = \"easy\"", &format!("series = {n}"))
        .replace(
            "text = \"utilisation is a percentage\"",
            &format!("text = {q}"),
        );
    assert!(config.contains("evil"), "{config}");
    std::fs::write(tmp.path().join("hostile.toml"), &config).unwrap();
    for args in [
        &["run", "hostile.toml", "--out", "res"][..],
        &["-v", "run", "hostile.toml", "--out", "res2"][..],
    ] {
        let out = xtask(&tmp, args);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert!(stdout.contains("evil"), "{stdout}");
        assert_clean("stdout", &stdout);
        assert_clean("stderr", &stderr);
    }
    // An error quoting the configuration's text.
    let broken = config.replace("[sweep]", &format!("[sweep]\n{} = 1", toml_string(NASTY)));
    std::fs::write(tmp.path().join("broken.toml"), broken).unwrap();
    let out = xtask(&tmp, &["run", "broken.toml", "--out", "res3"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("evil"), "{stderr}");
    assert_clean("stderr", &stderr);
    // Usage errors quote the argument at fault (clap's messages too).
    let flag = format!("--{NASTY}");
    let usage: [&[&str]; 4] = [
        &["reproduce", NASTY],
        &["run", "hostile.toml", &flag],
        &["simulate", "--trace", "t", "--policy", NASTY],
        &[
            "slurm",
            "all",
            "--cells",
            "c",
            "--out",
            "o",
            "--time",
            NASTY,
            "--dry-run",
        ],
    ];
    for args in usage {
        let out = xtask(&tmp, args);
        assert!(matches!(out.status.code(), Some(1 | 2)), "{args:?}");
        assert_clean("stdout", &text(&out.stdout));
        assert_clean("stderr", &text(&out.stderr));
    }
}

/// A name that an output could only write escaped (so it would not read
/// back, and `verify` would fail on untouched results, or two names would
/// read alike) is refused where it is written, before anything runs; so is
/// an id that a command line would read as an option.
#[test]
fn names_outputs_would_escape_and_ids_like_options_are_refused_in_place() {
    let tmp = setup("hostile-names");
    let cases = [
        (
            "series = [\"fcfs\", \"easy\", \"conservative\"]",
            "series = [\"fcfs\", { name = \"a\\u202eb\", params = { policy = \"easy\" } }]",
            "h.toml:7:",
            "series 'a\\u{202e}b' holds U+202E (a bidirectional control)",
        ),
        (
            "label = \"tiny\"",
            "label = \"t\\u0085\"",
            "h.toml:10:",
            "workload label 't\\u{85}' holds U+0085 (a control character)",
        ),
        (
            "id = \"util\"",
            "id = \"u\\tl\"",
            "h.toml:18:",
            "panel id 'u\\u{9}l' holds U+0009",
        ),
        (
            "id = \"test/tiny\"",
            "id = \"-x/y\"",
            "h.toml:2:",
            "no part starting with '.' or '-'",
        ),
    ];
    for (from, to, place, needle) in cases {
        assert!(CONFIG.contains(from), "{from}");
        std::fs::write(tmp.path().join("h.toml"), CONFIG.replacen(from, to, 1)).unwrap();
        let out = xtask(&tmp, &["run", "h.toml", "--out", "res"]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{to}: {stderr}");
        assert!(
            stderr.contains(place) && stderr.contains(needle),
            "{to}: {stderr}"
        );
        assert_clean("stderr", &stderr);
        assert!(
            !tmp.path().join("res").exists(),
            "{to}: something was written"
        );
    }
}

/// Every file under `dir`, recursively.
fn files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Free text full of controls and bidi characters, and a configuration
/// file named with one: every TOML file the tool writes (run.toml, the
/// marker, a cells directory's experiment.toml, config.toml and shards)
/// holds none raw, reads back to the same text, and `verify` passes the
/// untouched results.
#[test]
fn toml_files_written_hold_no_raw_control_or_bidi_and_read_back() {
    let tmp = setup("hostile-toml");
    let q = toml_string(NASTY);
    let config = CONFIG
        .replace("title = \"Tiny end-to-end run\"", &format!("title = {q}"))
        .replace("paper = \"none\"", &format!("paper = {q}"))
        .replace(
            "text = \"utilisation is a percentage\"",
            &format!("text = {q}"),
        );
    let file = "h\u{202e}x.toml";
    std::fs::write(tmp.path().join(file), &config).unwrap();
    let run = |args: &[&str]| {
        let out = xtask(&tmp, args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    };
    run(&["run", file, "--out", "res"]);
    run(&["verify", "--out", "res"]);
    run(&["run", file, "--shard", "0/2", "--cells", "cells"]);
    run(&["run", file, "--shard", "1/2", "--cells", "cells"]);
    run(&["merge", "cells", "--out", "merged"]);
    run(&["verify", "--out", "merged"]);
    let mut tomls = 0;
    for dir in ["res", "cells", "merged"] {
        for f in files(&tmp.path().join(dir)) {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            if !(name.ends_with(".toml") || name == ".usched-results") {
                continue;
            }
            tomls += 1;
            let body = std::fs::read_to_string(&f).unwrap();
            assert_clean(&f.display().to_string(), &body);
            body.parse::<toml::Table>()
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        }
    }
    assert!(tomls >= 8, "{tomls} TOML files");
    let run_toml: toml::Table = std::fs::read_to_string(tmp.path().join("res/test/tiny/run.toml"))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(run_toml["config"]["title"].as_str(), Some(NASTY));
    // A configuration outside the repository is recorded by its absolute
    // path, read back exactly.
    let recorded = tmp.path().join(file).display().to_string();
    assert_eq!(
        run_toml["provenance"]["config_file"].as_str(),
        Some(recorded.as_str())
    );
}

/// The commands `merge` prints for pasting are quoted for the shell:
/// `config_path` comes from the cells directory, which anyone may have
/// edited, and a paste runs exactly `xtask` with those values.
#[test]
fn merge_hints_are_shell_quoted() {
    let tmp = setup("hostile-hint");
    for shard in ["0/3", "1/3"] {
        let out = xtask(
            &tmp,
            &["run", "exp.toml", "--shard", shard, "--cells", "c d"],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let identity = tmp.path().join("c d/test/tiny/experiment.toml");
    let doc = std::fs::read_to_string(&identity).unwrap();
    let line = doc
        .lines()
        .find(|l| l.starts_with("config_path"))
        .unwrap()
        .to_string();
    // Beside the real configuration, so the trace is still found.
    let hostile = format!(
        "{}/x.toml; touch PWNED #\u{1b}[2J $(id) `id` 'q'",
        tmp.path().display()
    );
    let forged = format!("config_path = {}", toml_string(&hostile));
    std::fs::write(&identity, doc.replace(&line, &forged)).unwrap();
    let out = xtask(&tmp, &["merge", "c d", "--out", "merged"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_clean("stderr", &stderr);
    let hint = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("cargo xtask "))
        .unwrap_or_else(|| panic!("no command in:\n{stderr}"));
    // What a shell makes of the pasted command.
    let words = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("printf '%s\\0' {hint}"))
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let words: Vec<String> = text(&words.stdout)
        .split('\0')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    assert_eq!(
        words,
        [
            "run",
            "--shard",
            "2/3",
            "--cells",
            "c d",
            "--",
            hostile.as_str()
        ],
        "{hint}"
    );
    assert!(!tmp.path().join("PWNED").exists());
}

/// A name or value quoted from a user's file or command line is shortened
/// in a message on stderr, whatever quotes it: a 100,000-character series
/// name in a claim made an error of 100,000 characters. The report on
/// stdout and the files written keep every character.
#[test]
fn long_quoted_values_are_shortened_on_stderr() {
    let tmp = setup("hostile-long");
    let long = "x".repeat(100_000);
    // A claim naming an unknown series: the configuration's own error.
    let config = CONFIG.replace("series = \"easy\"", &format!("series = \"{long}\""));
    assert!(config.contains(&long));
    std::fs::write(tmp.path().join("long.toml"), &config).unwrap();
    let flag = format!("--{long}");
    let cases: [&[&str]; 3] = [
        &["run", "long.toml", "--out", "res"],
        // A usage error (clap's message) and an unknown experiment id.
        &["run", "long.toml", &flag],
        &["reproduce", &long],
    ];
    for args in cases {
        let out = xtask(&tmp, args);
        let stderr = text(&out.stderr);
        assert!(matches!(out.status.code(), Some(1 | 2)), "{stderr}");
        assert!(
            stderr.len() < 5_000,
            "{} bytes: {}",
            stderr.len(),
            &stderr[..500]
        );
        assert!(stderr.contains("characters left out]"), "{stderr}");
    }
}
