//! What `cargo xtask` prints holds no raw control or bidi characters, even
//! when a configuration's text is full of them: progress lines, the
//! Markdown report on stdout, verdicts and error messages.

use super::command_line::{CONFIG, setup, text, xtask};

/// Text with terminal escapes, a carriage return, a bell and bidi controls.
const NASTY: &str = "\u{1b}[31mred\u{1b}[0m\rback\u{7}\u{202e}evil\u{2066}\u{9b}2J";

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
    let config = CONFIG
        .replace(
            "title = \"Tiny end-to-end run\"",
            &format!("title = {q}"),
        )
        .replace("paper = \"none\"", &format!("paper = {q}"))
        .replace(
            "series = [\"fcfs\", \"easy\", \"conservative\"]",
            &format!(
                "series = [\"fcfs\", {{ name = {q}, params = {{ policy = \"easy\" }} }}, \"conservative\"]"
            ),
        )
        .replace("series = \"easy\"", &format!("series = {q}"))
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
