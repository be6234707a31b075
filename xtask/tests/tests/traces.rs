//! Trace lookup, verification by content, the one download per process and
//! the stand-in, on the logs committed in `traces/` and temporary
//! directories, offline (mirrors are `file://` URLs).
//!
//! Tests run in parallel in one process and share its download memory, so
//! each uses its own directories and therefore its own mirror URLs.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use cli::traces::{
    Found, TraceSettings, content_sha256, download_attempts, download_url, load, resolve, verify,
};
use experiments::{Experiment, KnownTrace, RunOptions, Traces, known_trace};

const KTH: &str = "KTH-SP2-1996-2.1-cln";

/// A temporary directory removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("xtask-traces-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    /// A subdirectory, created.
    fn dir(&self, name: &str) -> PathBuf {
        let d = self.0.join(name);
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The repository's committed copy of a trace.
fn committed(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../traces")
        .join(format!("{name}.swf.gz"))
}

fn kth() -> &'static KnownTrace {
    known_trace(KTH).unwrap()
}

/// The SWF text of the committed KTH log.
fn kth_text() -> Vec<u8> {
    let mut text = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(committed(KTH)).unwrap()),
        &mut text,
    )
    .unwrap();
    text
}

/// `text` gzipped at the fastest level (the archive's copy is not).
fn gzip_fast(text: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(text).unwrap();
    enc.finish().unwrap()
}

/// Settings with every place in `tmp` and a mirror that does not exist.
fn settings(tmp: &TempDir) -> TraceSettings {
    TraceSettings {
        traces_dir: Some(tmp.dir("traces-dir")),
        repo_traces: Some(tmp.dir("repo-traces")),
        cache: tmp.0.join("cache"),
        mirror: Some(format!("file://{}", tmp.0.join("no-mirror").display())),
        no_stand_in: false,
    }
}

fn file(path: PathBuf) -> Found {
    Found::File {
        path,
        known: Some(kth()),
    }
}

#[test]
fn lookup_order_is_traces_dir_repository_cache_download_stand_in() {
    let tmp = TempDir::new("order");
    let mut s = settings(&tmp);
    let mirror = tmp.dir("mirror");
    s.mirror = Some(format!("file://{}", mirror.display()));
    let text = kth_text();
    // A different, correct copy in each place: plain, recompressed, the archive's.
    let in_dir = s.traces_dir.clone().unwrap().join(format!("{KTH}.swf"));
    let in_repo = s.repo_traces.clone().unwrap().join(format!("{KTH}.swf.gz"));
    let in_cache = s.cache.join(format!("{KTH}.swf.gz"));
    std::fs::write(&in_dir, &text).unwrap();
    std::fs::write(&in_repo, gzip_fast(&text)).unwrap();
    std::fs::create_dir_all(&s.cache).unwrap();
    std::fs::copy(committed(KTH), &in_cache).unwrap();
    std::fs::copy(committed(KTH), mirror.join(format!("{KTH}.swf.gz"))).unwrap();

    assert_eq!(resolve(KTH, &tmp.0, &s).unwrap(), file(in_dir.clone()));
    std::fs::remove_file(&in_dir).unwrap();
    assert_eq!(resolve(KTH, &tmp.0, &s).unwrap(), file(in_repo.clone()));
    std::fs::remove_file(&in_repo).unwrap();
    assert_eq!(resolve(KTH, &tmp.0, &s).unwrap(), file(in_cache.clone()));
    std::fs::remove_file(&in_cache).unwrap();
    let url = download_url(kth(), s.mirror.as_deref());
    assert_eq!(download_attempts(&url), 0);
    assert_eq!(resolve(KTH, &tmp.0, &s).unwrap(), file(in_cache.clone()));
    assert_eq!(download_attempts(&url), 1);
    assert_eq!(content_sha256(&in_cache).unwrap(), kth().content_sha256);
    // Nothing anywhere and no mirror: the stand-in.
    std::fs::remove_file(&in_cache).unwrap();
    s.mirror = Some(format!("file://{}", tmp.0.join("no-mirror").display()));
    assert_eq!(resolve(KTH, &tmp.0, &s).unwrap(), Found::StandIn(kth()));
}

#[test]
fn any_copy_with_the_same_swf_text_verifies() {
    let tmp = TempDir::new("content");
    let text = kth_text();
    let plain = tmp.0.join("plain.swf");
    let fast = tmp.0.join("fast.swf.gz");
    std::fs::write(&plain, &text).unwrap();
    std::fs::write(&fast, gzip_fast(&text)).unwrap();
    let archive_file_sha = experiments::sha256_hex(&std::fs::read(committed(KTH)).unwrap());
    assert_eq!(archive_file_sha, kth().file_sha256);
    for path in [committed(KTH), plain.clone(), fast.clone()] {
        verify(&path, kth()).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
    }
    assert_ne!(
        experiments::sha256_hex(&std::fs::read(&fast).unwrap()),
        kth().file_sha256,
        "the recompressed copy differs as a file"
    );
    // The outputs carry the content checksum, and the file's for provenance.
    let source = load(&file(fast.clone()), false).unwrap();
    let (_, facts) = experiments::workload_from(&source, KTH, swf_io::Estimate::Requested, 1);
    assert_eq!(facts.sha256.as_deref(), Some(kth().content_sha256));
    assert_ne!(facts.file_sha256.as_deref(), Some(kth().file_sha256));
    assert_eq!(facts.records, kth().jobs);
    // The file's checksum is streamed too, over every byte of the file.
    let fast_sha = experiments::sha256_hex(&std::fs::read(&fast).unwrap());
    assert_eq!(facts.file_sha256.as_deref(), Some(fast_sha.as_str()));
    let source = load(&file(committed(KTH)), false).unwrap();
    let (_, facts) = experiments::workload_from(&source, KTH, swf_io::Estimate::Requested, 1);
    assert_eq!(facts.file_sha256.as_deref(), Some(kth().file_sha256));
}

#[test]
fn a_copy_with_other_content_is_refused_and_the_search_goes_on() {
    let tmp = TempDir::new("wrong");
    let mut s = settings(&tmp);
    // The real text with one comment line more: close, but not the log.
    let mut text = kth_text();
    text.extend_from_slice(b"; edited\n");
    let wrong = s.traces_dir.clone().unwrap().join(format!("{KTH}.swf.gz"));
    std::fs::write(&wrong, gzip_fast(&text)).unwrap();
    let e = format!("{:#}", verify(&wrong, kth()).unwrap_err());
    assert!(
        e.contains("sha256 of its SWF text") && e.contains(kth().content_sha256),
        "{e}"
    );
    let good = s.repo_traces.clone().unwrap().join(format!("{KTH}.swf"));
    std::fs::write(&good, kth_text()).unwrap();
    assert_eq!(resolve(KTH, &tmp.0, &s).unwrap(), file(good.clone()));
    // With only the wrong copy, and stand-ins refused, the error says why.
    std::fs::remove_file(&good).unwrap();
    s.no_stand_in = true;
    let e = format!("{:#}", resolve(KTH, &tmp.0, &s).unwrap_err());
    assert!(
        e.contains(&wrong.display().to_string()) && e.contains("sha256 of its SWF text"),
        "{e}"
    );
}

#[test]
fn a_download_never_replaces_a_file_in_the_cache_that_is_not_the_trace() {
    let tmp = TempDir::new("cache-kept");
    let mut s = settings(&tmp);
    let mirror = tmp.dir("mirror");
    s.mirror = Some(format!("file://{}", mirror.display()));
    std::fs::copy(committed(KTH), mirror.join(format!("{KTH}.swf.gz"))).unwrap();
    // One's own edited copy, under the trace's name in the cache.
    std::fs::create_dir_all(&s.cache).unwrap();
    let mine = s.cache.join(format!("{KTH}.swf.gz"));
    std::fs::write(&mine, "my own edited trace\n").unwrap();
    s.no_stand_in = true;
    let e = format!("{:#}", resolve(KTH, &tmp.0, &s).unwrap_err());
    assert!(
        e.contains("a download would replace it") && e.contains(&mine.display().to_string()),
        "{e}"
    );
    assert_eq!(std::fs::read(&mine).unwrap(), b"my own edited trace\n");
    assert_eq!(
        download_attempts(&download_url(kth(), s.mirror.as_deref())),
        0
    );
}

#[test]
fn a_download_is_tried_once_per_process() {
    let tmp = TempDir::new("once");
    let mut s = settings(&tmp);
    let mirror = tmp.dir("empty-mirror");
    s.mirror = Some(format!("file://{}", mirror.display()));
    let url = download_url(kth(), s.mirror.as_deref());
    assert_eq!(resolve(KTH, &tmp.0, &s).unwrap(), Found::StandIn(kth()));
    assert_eq!(download_attempts(&url), 1);
    // The file appears on the mirror, but this run does not try again.
    std::fs::copy(committed(KTH), mirror.join(format!("{KTH}.swf.gz"))).unwrap();
    assert_eq!(resolve(KTH, &tmp.0, &s).unwrap(), Found::StandIn(kth()));
    s.no_stand_in = true;
    let e = format!("{:#}", resolve(KTH, &tmp.0, &s).unwrap_err());
    assert!(e.contains("not tried again"), "{e}");
    assert_eq!(download_attempts(&url), 1);
}

#[test]
fn refusing_stand_ins_lists_every_place_looked_at() {
    let tmp = TempDir::new("refuse");
    let s = TraceSettings {
        no_stand_in: true,
        traces_dir: None,
        ..settings(&tmp)
    };
    let e = format!("{:#}", resolve(KTH, &tmp.0, &s).unwrap_err());
    for needle in [
        "stand-ins are refused",
        "TRACES_DIR: not set",
        &s.repo_traces.as_ref().unwrap().display().to_string(),
        &s.cache.display().to_string(),
        "download from file://",
        "set TRACES_DIR",
    ] {
        assert!(e.contains(needle), "'{needle}' missing from: {e}");
    }
    // A TRACES_DIR that is mistyped says so, not only that the trace is not
    // in it.
    let file = tmp.0.join("a-file");
    std::fs::write(&file, "").unwrap();
    for (dir, why) in [
        (tmp.0.join("no-such-dir"), "which does not exist"),
        (file, "which is not a directory"),
        (tmp.0.clone(), "): no KTH"),
    ] {
        let s = TraceSettings {
            no_stand_in: true,
            traces_dir: Some(dir.clone()),
            ..settings(&tmp)
        };
        let e = format!("{:#}", resolve(KTH, &tmp.0, &s).unwrap_err());
        let line = e
            .lines()
            .find(|l| l.contains("TRACES_DIR ("))
            .unwrap_or_default();
        assert!(line.contains(why), "{}: {e}", dir.display());
    }
}

#[test]
fn provisioning_runs_on_a_stand_in_for_das2() {
    // Months 9 to 12 of DAS2-fs1-2003-1 must exist in its stand-in.
    let tmp = TempDir::new("provisioning");
    let s = settings(&tmp);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("configs/provisioning/fig4.toml"))
        .unwrap()
        .replace("repetitions = 5", "repetitions = 1");
    // One series, one repetition and no claims keep it short.
    let text = &text[..text.find("[[claims]]").unwrap()];
    let series_start = text.find("series = [").unwrap();
    let series_end = series_start + text[series_start..].find(']').unwrap() + 1;
    let text = format!(
        "{}series = [\"arcb+least-load\"]{}",
        &text[..series_start],
        &text[series_end..]
    );
    let experiment = Experiment::parse(&text, "fig4.toml").unwrap();
    let mut traces = Traces::new();
    for t in experiment.traces() {
        let found = resolve(&t.name, &tmp.0, &s).unwrap();
        assert!(matches!(found, Found::StandIn(_)), "{found:?}");
        traces.insert(t.name, load(&found, false).unwrap());
    }
    let options = RunOptions {
        threads: 1,
        progress: None,
        cache: None,
    };
    let results = experiments::run(&experiment, &traces, &options)
        .unwrap_or_else(|e| panic!("provisioning on the stand-in: {e}"));
    assert!(results.stand_in());
    assert!(!results.rows.is_empty());
    assert!(
        results.rows.iter().all(|r| r.y.is_finite()),
        "{:?}",
        results.rows
    );
}
