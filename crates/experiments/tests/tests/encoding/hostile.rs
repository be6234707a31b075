//! Hostile text through the real writers: a configuration whose title,
//! paper, axis label, panel and claim text hold newlines, markup, HTML,
//! formulas, control and bidi characters, and whose series and workload
//! names hold all of that a name may hold (markup, formulas, quotes; no
//! control or bidi character, which [`encode::check_name`] refuses), still
//! renders a `summary.md` with the structure of a benign one, a well-formed
//! `figure.svg`, and a `data.csv` / `samples.csv` that parse back to the
//! same rows with the names exactly as written. Each format has a table-driven test over
//! [`HOSTILE`] and a property test of its encoder over arbitrary strings.

use experiments::{DocEntry, Experiment, RunOptions, Samples, Traces, encode, parse_csv, run};
use proptest::prelude::*;

/// The hostile strings every writer must survive.
pub const HOSTILE: &[&str] = &[
    "two\nlines",
    "carriage\rreturn",
    "crlf\r\n## injected heading",
    "| a | b |",
    "# heading",
    "> quote",
    "- item",
    "1. item",
    "<script>alert(1)</script>",
    "</text><script>x</script>",
    "]]><!-- x -->",
    "\u{1b}[31mred\u{1b}[0m",
    "bell\u{7}",
    "\u{202e}evil",
    "\u{2066}isolate\u{2069}",
    "nul\0byte",
    "=HYPERLINK(\"http://x\",\"y\")",
    "+1",
    "-cmd",
    "@SUM(A1)",
    "\tTAB-prefixed",
    "'=quoted formula",
    "\"quotes\" and 'apostrophes'",
    "commas, here, and there",
    "[link](javascript:alert(1))",
    "![image](x.png)",
    "*bold* _it_ `code` ~strike~ \\",
    "&amp; &lt; entity",
    "é日本 ünïcödé",
    "\u{85}next line\u{9b}csi\u{7f}",
    "\u{fffe}\u{ffff}",
    // Shrunk failures of the property tests, kept as cases.
    "](",
    "`>`",
    "=a",
    "=¹",
    "`a\\|b`",
    "`<img src=x alt=\"`\">`",
];

/// A very long hostile string.
fn long() -> String {
    "| <b>\n=x ".repeat(500)
}

fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// `text` as a name: without the characters no name may hold, and never
/// empty.
pub fn name(text: &str) -> String {
    let kept: String = text.chars().filter(|&c| !encode::is_escaped(c)).collect();
    if kept.is_empty() { "x".into() } else { kept }
}

/// A tiny backfilling experiment with `text` in every free-text field, and
/// as much of it as a name may hold in every name.
fn config(text: &str) -> String {
    let q = quote(text);
    let n = quote(&name(text));
    format!(
        r#"version = 2
id = "test/hostile"
title = {q}
paper = {q}
kind = "backfilling"
seed = 3
series = ["fcfs", {{ name = {n}, params = {{ policy = "easy" }} }}]
repetitions = 2

[[workloads]]
label = {n}
lublin99 = {{ procs = 16, jobs = 60 }}

[sweep]
axis = "workload"
label = {q}

[[panels]]
id = "bsld"
metric = "mean_bsld"
title = {q}
y_label = {q}

[[claims]]
text = {q}
paper_value = {q}
check.below = {{ panel = "bsld", series = {n}, than = "fcfs" }}
"#
    )
}

/// The outputs of the experiment with `text` everywhere.
struct Outputs {
    summary: String,
    svg: String,
    csv: String,
    samples: String,
}

fn outputs(text: &str) -> Outputs {
    let experiment = Experiment::parse(&config(text), "hostile.toml")
        .unwrap_or_else(|e| panic!("{text:?}: {e}"));
    let results = run(&experiment, &Traces::new(), &RunOptions::default()).unwrap();
    Outputs {
        summary: results.summary(&experiment),
        svg: results.svg(),
        csv: results.csv(),
        samples: results.samples.csv(),
    }
}

fn benign() -> Outputs {
    outputs("benign")
}

fn cases() -> Vec<String> {
    HOSTILE
        .iter()
        .map(|s| s.to_string())
        .chain([long()])
        .collect()
}

/// No character that may not be written raw.
fn assert_clean(what: &str, text: &str, input: &str) {
    if let Some(c) = text.chars().find(|&c| encode::is_unsafe(c)) {
        panic!("{input:?}: {what} holds a raw {c:?}");
    }
}

/// The unescaped `|` of a Markdown line.
fn pipes(line: &str) -> usize {
    let mut n = 0;
    let mut escaped = false;
    for c in line.chars() {
        match c {
            '\\' if !escaped => escaped = true,
            '|' if !escaped => n += 1,
            _ => escaped = false,
        }
        if c != '\\' {
            escaped = false;
        }
    }
    n
}

/// What a Markdown document's block structure is: per line, its kind
/// (heading level, table row with its cell count, quote, list, other).
/// The note on intervals of no width depends on the data (the labels seed
/// the workloads), not on the text, and is left out with its blank line.
fn structure(md: &str) -> Vec<String> {
    let md = md
        .split("\n\n")
        .filter(|block| !block.contains(" point(s) show an interval of no width"))
        .collect::<Vec<_>>()
        .join("\n\n");
    md.split('\n')
        .map(|line| {
            let hashes = line.chars().take_while(|&c| c == '#').count();
            if hashes > 0 && line[hashes..].starts_with(' ') {
                format!("h{hashes}")
            } else if line.starts_with('|') {
                format!("row{}", pipes(line))
            } else if line.starts_with('>') {
                "quote".into()
            } else if line.starts_with("- ") || line.starts_with("+ ") || line.starts_with("* ") {
                "list".into()
            } else if line.is_empty() {
                "blank".into()
            } else {
                "text".into()
            }
        })
        .collect()
}

/// How often `pat` occurs in `md` without a backslash escaping it.
fn unescaped(md: &str, pat: &str) -> usize {
    md.match_indices(pat)
        .filter(|(i, _)| {
            let slashes = md[..*i].chars().rev().take_while(|&c| c == '\\').count();
            slashes % 2 == 0
        })
        .count()
}

/// Markdown markup that user text must never add: HTML, inline links.
fn assert_no_markup(md: &str, base: &str, input: &str) {
    for bad in ["<", "](", "\r"] {
        assert_eq!(
            unescaped(md, bad),
            unescaped(base, bad),
            "{input:?}: a raw {bad:?} was added:\n{md}"
        );
    }
}

#[test]
fn summary_md_keeps_its_structure() {
    let base = benign();
    let expected = structure(&base.summary);
    for input in cases() {
        let out = outputs(&input);
        assert_eq!(
            structure(&out.summary),
            expected,
            "{input:?}:\n{}",
            out.summary
        );
        assert_clean("summary.md", &out.summary, &input);
        assert_no_markup(&out.summary, &base.summary, &input);
    }
}

/// A name is written as it is, its backticks too: a series and the
/// workload it is compared at, each with one backtick, do not pair into a
/// code span across the claim's value between them (nor in a table).
#[test]
fn backticks_in_names_pair_with_nothing() {
    let base = benign();
    for input in ["x`y", "a``b"] {
        let out = outputs(input);
        assert_eq!(
            unescaped(&out.summary, "`"),
            unescaped(&base.summary, "`"),
            "{input:?}: a name's backtick was left to pair:\n{}",
            out.summary
        );
    }
}

#[test]
fn reproduction_doc_keeps_its_structure() {
    let entry = |text: &str| {
        let experiment = Experiment::parse(&config(text), "hostile.toml").unwrap();
        let results = run(&experiment, &Traces::new(), &RunOptions::default()).unwrap();
        DocEntry {
            id: text.to_string(),
            title: text.to_string(),
            paper: Some(text.to_string()),
            figure: format!("../results/{text}/figure.svg"),
            verdicts: results.verdicts,
            stand_in: false,
            notes: Some(format!("{text}.md")),
        }
    };
    let doc = |text: &str| experiments::reproduction_doc(&[entry(text)], &[text.to_string()]);
    let base = doc("benign");
    let expected = structure(&base);
    for input in cases() {
        let out = doc(&input);
        assert_eq!(structure(&out), expected, "{input:?}:\n{out}");
        assert_clean("REPRODUCTION.md", &out, &input);
        assert_no_markup(&out, &base, &input);
    }
}

/// A small checker of XML well-formedness: one root, tags nested and
/// closed, attributes quoted, entities known, no character XML 1.0 forbids.
pub fn check_xml(doc: &str) -> Result<(), String> {
    fn name_end(s: &str) -> usize {
        s.find(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.')))
            .unwrap_or(s.len())
    }
    fn text(t: &str) -> Result<(), String> {
        if t.contains('>') && t.contains("]]>") {
            return Err("']]>' in text".into());
        }
        let mut rest = t;
        while let Some(i) = rest.find('&') {
            let after = &rest[i + 1..];
            let end = after.find(';').ok_or("'&' without ';'")?;
            let entity = &after[..end];
            let ok = matches!(entity, "amp" | "lt" | "gt" | "quot" | "apos")
                || entity
                    .strip_prefix("#x")
                    .is_some_and(|h| u32::from_str_radix(h, 16).is_ok())
                || entity
                    .strip_prefix('#')
                    .is_some_and(|d| d.parse::<u32>().is_ok());
            if !ok {
                return Err(format!("unknown entity &{entity};"));
            }
            rest = &after[end + 1..];
        }
        Ok(())
    }
    if let Some(c) = doc.chars().find(|&c| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}')
    }) {
        return Err(format!("forbidden character {c:?}"));
    }
    let mut stack: Vec<&str> = Vec::new();
    let mut roots = 0;
    let mut rest = doc;
    while let Some(lt) = rest.find('<') {
        let before = &rest[..lt];
        if stack.is_empty() && !before.trim().is_empty() {
            return Err(format!("text outside the root: {before:?}"));
        }
        text(before)?;
        rest = &rest[lt + 1..];
        if let Some(r) = rest.strip_prefix("?") {
            let end = r.find("?>").ok_or("unterminated <?")?;
            rest = &r[end + 2..];
            continue;
        }
        if let Some(r) = rest.strip_prefix("!--") {
            let end = r.find("-->").ok_or("unterminated comment")?;
            rest = &r[end + 3..];
            continue;
        }
        if let Some(r) = rest.strip_prefix('/') {
            let n = name_end(r);
            let name = &r[..n];
            let after = r[n..].trim_start();
            let after = after.strip_prefix('>').ok_or("bad end tag")?;
            match stack.pop() {
                Some(open) if open == name => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
            rest = after;
            continue;
        }
        let n = name_end(rest);
        if n == 0 {
            return Err(format!("bad tag start {:?}", &rest[..rest.len().min(20)]));
        }
        let name = &rest[..n];
        let mut r = &rest[n..];
        let mut seen: Vec<&str> = Vec::new();
        loop {
            let trimmed = r.trim_start();
            if let Some(after) = trimmed.strip_prefix("/>") {
                r = after;
                if stack.is_empty() {
                    roots += 1;
                }
                break;
            }
            if let Some(after) = trimmed.strip_prefix('>') {
                if stack.is_empty() {
                    roots += 1;
                }
                stack.push(name);
                r = after;
                break;
            }
            if trimmed.len() == r.len() {
                return Err(format!("<{name}>: attributes need white space"));
            }
            let a = name_end(trimmed);
            if a == 0 {
                return Err(format!(
                    "<{name}>: bad attribute {:?}",
                    &trimmed[..trimmed.len().min(20)]
                ));
            }
            let attr = &trimmed[..a];
            if seen.contains(&attr) {
                return Err(format!("<{name}>: attribute {attr} twice"));
            }
            seen.push(attr);
            let v = trimmed[a..]
                .trim_start()
                .strip_prefix('=')
                .ok_or("attribute without =")?;
            let v = v.trim_start();
            let q = v
                .chars()
                .next()
                .filter(|c| matches!(c, '"' | '\''))
                .ok_or("unquoted attribute")?;
            let end = v[1..].find(q).ok_or("unterminated attribute")?;
            let value = &v[1..1 + end];
            if value.contains('<') {
                return Err(format!("<{name}>: '<' in attribute {attr}"));
            }
            text(value)?;
            r = &v[end + 2..];
        }
        rest = r;
    }
    if !rest.trim().is_empty() {
        return Err(format!("text after the root: {rest:?}"));
    }
    match (stack.last(), roots) {
        (Some(open), _) => Err(format!("<{open}> is not closed")),
        (None, 1) => Ok(()),
        (None, n) => Err(format!("{n} root elements")),
    }
}

#[test]
fn the_xml_checker_catches_breakage() {
    assert_eq!(check_xml("<a x=\"1\"><b/>t &amp; u</a>"), Ok(()));
    for bad in [
        "<a><b></a></b>",
        "<a>&bogus;</a>",
        "<a x=1/>",
        "<a>\u{1b}</a>",
        "<a></a><b/>",
        "<a>x</text><script>y</script></a>",
        "<a x=\"1\" x=\"2\"/>",
    ] {
        assert!(check_xml(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn figure_svg_is_well_formed() {
    check_xml(&benign().svg).unwrap();
    for input in cases() {
        let out = outputs(&input);
        if let Err(e) = check_xml(&out.svg) {
            panic!("{input:?}: {e}\n{}", out.svg);
        }
        assert_clean("figure.svg", &out.svg, &input);
    }
}

/// An RFC 4180 reader, separate from the crate's: records of fields.
pub fn read_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                c => field.push(c),
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            ',' => record.push(std::mem::take(&mut field)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            c => field.push(c),
        }
    }
    assert!(!quoted, "unterminated quoted field");
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

/// What a text field holds once written: unsafe characters made visible.
fn visible(s: &str) -> String {
    s.chars()
        .map(|c| {
            if encode::is_unsafe(c) {
                format!("\\u{{{:x}}}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Checks one CSV file against the benign one: same shape, the text
/// columns neutralised, the name of `input` found, exactly, where expected.
fn check_csv(what: &str, text: &str, base: &str, text_columns: usize, input: &str) {
    let records = read_csv(text);
    let expected = read_csv(base);
    assert_eq!(
        records.len(),
        expected.len(),
        "{input:?}: {what} rows\n{text}"
    );
    for (r, e) in records.iter().zip(&expected) {
        assert_eq!(r.len(), e.len(), "{input:?}: {what} columns in {r:?}");
        for field in &r[..text_columns] {
            if let Some(c) = field.chars().next() {
                assert!(
                    !matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r'),
                    "{input:?}: {what} text field {field:?} starts a formula"
                );
            }
        }
    }
    assert_clean(what, text, input);
    let wanted = name(input);
    assert!(
        records
            .iter()
            .any(|r| encode::csv_text_decode(&r[1]) == wanted),
        "{input:?}: {what} lost the series name"
    );
}

#[test]
fn data_and_samples_csv_parse_back() {
    let base = benign();
    for input in cases() {
        let out = outputs(&input);
        check_csv("data.csv", &out.csv, &base.csv, 3, &input);
        check_csv("samples.csv", &out.samples, &base.samples, 3, &input);
        // The crate's own readers give the text back.
        let rows = parse_csv(&out.csv).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert!(rows.iter().any(|r| r.series == name(&input)), "{input:?}");
        assert!(rows.iter().all(|r| r.x == name(&input)), "{input:?}");
        let samples = Samples::parse(&out.samples, 0.95).unwrap();
        assert_eq!(samples.csv(), out.samples, "{input:?}");
    }
}

/// Invariants of each encoder over one string.
fn check_encoders(s: &str) -> Result<(), TestCaseError> {
    let md = encode::markdown(s);
    prop_assert!(
        !md.chars()
            .any(|c| encode::is_unsafe(c) || matches!(c, '\n' | '\r' | '<' | '>'))
    );
    prop_assert_eq!(pipes(&md), 0, "{:?}", md);
    prop_assert_eq!(unescaped(&md, "]("), 0, "{:?}", md);
    prop_assert!(!md.starts_with(['#', '[', '>']), "{:?}", md);
    if md.starts_with(['+', '-', '=']) {
        prop_assert!(
            md.chars().nth(1).is_some_and(char::is_alphanumeric),
            "{:?}",
            md
        );
    }
    let code = encode::markdown_code(s);
    prop_assert!(
        !code
            .chars()
            .any(|c| encode::is_unsafe(c) || matches!(c, '\n' | '\r'))
    );
    let url = encode::markdown_url(s);
    prop_assert!(
        url.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._~/%".contains(c))
    );
    let x = encode::xml(s);
    let doc = format!("<t a=\"{x}\" b='{x}'>{x}</t>");
    prop_assert_eq!(check_xml(&doc), Ok(()), "{:?}", doc);
    let field = encode::csv_text(s);
    let records = read_csv(&format!("{field},end\n"));
    prop_assert_eq!(records.len(), 1);
    prop_assert_eq!(records[0].len(), 2);
    prop_assert_eq!(encode::csv_text_decode(&records[0][0]), visible(s));
    if let Some(c) = records[0][0].chars().next() {
        prop_assert!(!matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r'));
    }
    let plain = read_csv(&format!("{},end\n", encode::csv_field(s)));
    prop_assert_eq!(&plain[0][0], &visible(s));
    let t = encode::terminal(s);
    prop_assert!(!t.chars().any(|c| encode::is_unsafe(c) || c == '\r'));
    Ok(())
}

#[test]
fn encoders_hold_on_the_hostile_list() {
    for s in cases() {
        check_encoders(&s).unwrap();
    }
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(512))]

    #[test]
    fn encoders_hold_on_any_string(s in any::<String>()) {
        check_encoders(&s)?;
    }

    #[test]
    fn encoders_hold_on_markup_heavy_strings(s in "[\\x00-\\x1f\\x7f\\u{80}-\\u{9f}\\u{202a}-\\u{202e}\\u{2066}-\\u{2069}|#<>&\"'=+@`*_\\[\\]()!\\\\ a-z0-9.,-]{0,40}") {
        check_encoders(&s)?;
    }
}

/// `swf_io::write_jobs_csv` encodes the workload's name as [`encode::csv_text`]
/// does (swf-io cannot depend on this crate, so the rules live twice; this
/// keeps them one).
#[test]
fn jobs_csv_encodes_the_workload_like_the_pipeline() {
    use profile::{Job, Outcome, ProcSet, Status, Time};
    let jobs = [Job::new(1, Time(0), 1, 10, 10)];
    let outcomes = [Outcome {
        id: 1,
        start: Time(0),
        end: Time(10),
        status: Status::Completed,
    }];
    let alloc: Vec<ProcSet> = vec!["0".parse().unwrap()];
    for input in cases() {
        let mut bytes = Vec::new();
        swf_io::write_jobs_csv(&mut bytes, &input, &jobs, &outcomes, &alloc).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let records = read_csv(&text);
        assert_eq!(records.len(), 2, "{input:?}: {text}");
        let line = text.split_once('\n').unwrap().1;
        assert!(
            line.starts_with(&format!("1,{},", encode::csv_text(&input))),
            "{input:?}: {line}"
        );
        assert_clean("jobs.csv", &text, &input);
    }
}

/// The Gantt chart and the timeline of a schedule stay well-formed whatever
/// its title (a trace's file name, a policy).
#[test]
fn schedule_svgs_are_well_formed() {
    use profile::{Job, Outcome, ProcSet, Status, Time};
    let jobs = [
        Job::new(1, Time(0), 2, 10, 10),
        Job::new(2, Time(5), 1, 5, 5),
    ];
    let outcomes = [
        Outcome {
            id: 1,
            start: Time(0),
            end: Time(10),
            status: Status::Completed,
        },
        Outcome {
            id: 2,
            start: Time(10),
            end: Time(15),
            status: Status::Completed,
        },
    ];
    let alloc: Vec<ProcSet> = vec!["0-1".parse().unwrap(), "0".parse().unwrap()];
    for input in cases() {
        let view = experiments::ScheduleView {
            title: &input,
            capacity: 4,
            jobs: &jobs,
            outcomes: &outcomes,
        };
        let window = view.span();
        for svg in [view.gantt_svg(&alloc, window), view.timeline_svg(window)] {
            if let Err(e) = check_xml(&svg) {
                panic!("{input:?}: {e}\n{svg}");
            }
            assert_clean("schedule svg", &svg, &input);
        }
    }
}
