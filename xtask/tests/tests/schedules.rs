//! `cargo xtask simulate`'s schedule outputs read back and checked against
//! an independent replay: the SWF schedule (every input field kept), Batsim's
//! `jobs.csv` (times and a consistent processor allocation) and the Gantt
//! chart (one rectangle per job and interval, where the job ran).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use cli::options::SimulateOptions;
use cli::settings::Settings;
use cli::simulate::simulate;
use profile::{Job, Outcome, Policy, ProcSet, SchedulerConfig, Status};
use swf_io::{Estimate, Mode, SwfRecord};

/// A temporary directory removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("xtask-schedules-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const SDSC: &str = "SDSC-SP2-1998-4.2-cln.swf.gz";

/// The SDSC-SP2 log: `$TRACES_DIR`, the shared traces beside the
/// repository, or the repository's `traces/`. `None` (with a note) if none
/// has it.
fn sdsc() -> Option<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = std::env::var_os("TRACES_DIR")
        .map(PathBuf::from)
        .into_iter()
        .chain([
            manifest.join("../../shared/traces"),
            manifest.join("../traces"),
        ])
        .map(|d| d.join(SDSC))
        .find(|p| p.is_file());
    if found.is_none() {
        println!("note: {SDSC} not found; skipping the tests on the real log");
    }
    found
}

/// Options for `trace` under `policy` writing every output into `tmp`.
fn options(trace: &Path, policy: Policy, tmp: &TempDir) -> SimulateOptions {
    SimulateOptions {
        trace: trace.to_string_lossy().into_owned(),
        policy,
        estimate: "requested".to_string(),
        lenient: false,
        procs: None,
        seed: 1,
        schedule_out: Some(tmp.join("schedule.swf")),
        jobs_csv: Some(tmp.join("jobs.csv")),
        gantt: Some(tmp.join("gantt.svg")),
        timeline: Some(tmp.join("timeline.svg")),
        window: None,
        force: false,
    }
}

/// What the command should have simulated, replayed here independently:
/// input records, machine size, jobs and outcomes.
struct Replay {
    records: Vec<SwfRecord>,
    capacity: u32,
    jobs: Vec<Job>,
    outcomes: Vec<Outcome>,
}

fn replay(trace: &Path, policy: Policy) -> Replay {
    let trace = swf_io::read_trace(trace, Mode::Strict).unwrap();
    let capacity = u32::try_from(trace.header.max_procs.unwrap()).unwrap();
    let jobs = swf_io::to_jobs(&trace.records, Estimate::Requested).jobs;
    let (jobs, _) = swf_io::cap_procs(jobs, capacity);
    let outcomes = profile::simulate(&SchedulerConfig::new(capacity, policy), &jobs).unwrap();
    Replay {
        records: trace.records,
        capacity,
        jobs,
        outcomes,
    }
}

/// Each job's input record: the one with its id (field 1, or where that is
/// -1 one past the largest job number plus the record's index) and submit
/// time, each used once.
fn input_records<'a>(records: &'a [SwfRecord], jobs: &[Job]) -> Vec<&'a SwfRecord> {
    let mut by_key: BTreeMap<(u64, i64), VecDeque<&SwfRecord>> = BTreeMap::new();
    let past = records
        .iter()
        .filter_map(|r| r.job)
        .map(|j| u64::try_from(j).unwrap() + 1)
        .max()
        .unwrap_or(0);
    for (i, r) in records.iter().enumerate() {
        let id = r.job.map_or(past + i as u64, |j| u64::try_from(j).unwrap());
        if let Some(submit) = r.submit {
            by_key.entry((id, submit)).or_default().push_back(r);
        }
    }
    jobs.iter()
        .map(|j| {
            by_key
                .get_mut(&(j.id, j.submit.0))
                .unwrap()
                .pop_front()
                .unwrap()
        })
        .collect()
}

/// The fields a simulation may change, blanked, so the rest can be compared.
fn unsimulated(r: &SwfRecord) -> SwfRecord {
    SwfRecord {
        wait: None,
        run_time: None,
        allocated_procs: None,
        status: None,
        ..*r
    }
}

/// The SWF schedule has one record per replayed job, each equal to the
/// job's input record in every field but wait, run time, allocated
/// processors and status, and those are the simulation's.
fn check_swf(path: &Path, expected: &Replay) -> Vec<SwfRecord> {
    let out = swf_io::read_trace(path, Mode::Strict).unwrap();
    assert_eq!(out.records.len(), expected.jobs.len());
    assert_eq!(out.header.max_records, Some(expected.jobs.len() as u64));
    let inputs = input_records(&expected.records, &expected.jobs);
    for (((r, job), o), input) in out
        .records
        .iter()
        .zip(&expected.jobs)
        .zip(&expected.outcomes)
        .zip(inputs)
    {
        assert_eq!(unsimulated(r), unsimulated(input), "job {}", job.id);
        assert_eq!(r.wait, Some(o.start.0 - job.submit.0), "job {}", job.id);
        assert_eq!(r.run_time, Some(o.end.0 - o.start.0), "job {}", job.id);
        assert_eq!(r.allocated_procs, Some(i64::from(job.procs)));
        if o.status == Status::Killed {
            assert_eq!(r.status, Some(0), "job {}", job.id);
            assert_eq!(r.run_time, Some(job.estimate), "job {}", job.id);
        } else {
            assert_eq!(r.status, input.status, "job {}", job.id);
            assert_eq!(r.run_time, input.run_time, "job {}", job.id);
        }
    }
    out.records
}

/// One row of jobs.csv by column name.
type CsvRow = BTreeMap<String, String>;

fn read_csv(path: &Path) -> Vec<CsvRow> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header, swf_io::JOBS_CSV_COLUMNS);
    lines
        .map(|line| {
            assert!(!line.contains('"'), "{line}");
            let cells: Vec<&str> = line.split(',').collect();
            assert_eq!(cells.len(), header.len(), "{line}");
            header
                .iter()
                .zip(cells)
                .map(|(h, c)| (h.to_string(), c.to_string()))
                .collect()
        })
        .collect()
}

fn num(row: &CsvRow, column: &str) -> i64 {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column} is '{}'", row[column]))
}

/// jobs.csv has one row per job with the schedule's times and sizes, and
/// its allocation is consistent: every job holds exactly its size in ids
/// below the machine size, and no processor serves two jobs at once.
/// Returns the allocations by job id.
fn check_jobs_csv(path: &Path, expected: &Replay) -> BTreeMap<u64, ProcSet> {
    let rows = read_csv(path);
    assert_eq!(rows.len(), expected.jobs.len());
    let mut alloc = BTreeMap::new();
    // Per processor: the (start, end) of the jobs that ran on it.
    let mut busy: BTreeMap<u32, Vec<(i64, i64, u64)>> = BTreeMap::new();
    for ((row, job), o) in rows.iter().zip(&expected.jobs).zip(&expected.outcomes) {
        assert_eq!(num(row, "job_id"), job.id as i64);
        assert_eq!(num(row, "submission_time"), job.submit.0);
        assert_eq!(
            num(row, "requested_number_of_resources"),
            i64::from(job.procs)
        );
        assert_eq!(num(row, "requested_time"), job.estimate);
        assert_eq!(num(row, "starting_time"), o.start.0);
        assert_eq!(num(row, "finish_time"), o.end.0);
        assert_eq!(num(row, "execution_time"), o.end.0 - o.start.0);
        assert_eq!(num(row, "waiting_time"), o.start.0 - job.submit.0);
        assert_eq!(num(row, "turnaround_time"), o.end.0 - job.submit.0);
        let (success, state) = match o.status {
            Status::Completed => ("1", "COMPLETED_SUCCESSFULLY"),
            _ => ("0", "COMPLETED_WALLTIME_REACHED"),
        };
        assert_eq!(
            (row["success"].as_str(), row["final_state"].as_str()),
            (success, state)
        );
        let set: ProcSet = row["allocated_resources"].parse().unwrap();
        assert_eq!(set.len(), u64::from(job.procs), "job {}", job.id);
        assert!(set.iter().all(|p| p < expected.capacity), "job {}", job.id);
        assert_eq!(set.to_string(), row["allocated_resources"], "canonical");
        for p in set.iter() {
            busy.entry(p)
                .or_default()
                .push((o.start.0, o.end.0, job.id));
        }
        alloc.insert(job.id, set);
    }
    for (p, mut runs) in busy {
        // Jobs that ran zero seconds hold their processors for no time.
        runs.retain(|&(start, end, _)| end > start);
        runs.sort_unstable();
        let mut last: Option<(i64, u64)> = None;
        for (start, end, id) in runs {
            if let Some((until, other)) = last {
                assert!(
                    start >= until,
                    "processor {p} serves jobs {other} and {id} at once"
                );
            }
            if last.is_none_or(|(until, _)| end > until) {
                last = Some((end, id));
            }
        }
    }
    alloc
}

/// The value of attribute `name` in an SVG tag.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

fn attr_nums(tag: &str, name: &str) -> Vec<f64> {
    attr(tag, name)
        .unwrap()
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect()
}

/// The Gantt chart has, for each job that ran in its window and for each
/// interval of the job's allocation, one `<rect data-job>` spanning the
/// job's start to end (clipped to the window, at least 1 px) and exactly
/// the interval's processor rows; and no other job rectangles.
fn check_gantt(path: &Path, expected: &Replay, alloc: &BTreeMap<u64, ProcSet>) -> usize {
    let svg = std::fs::read_to_string(path).unwrap();
    let root = svg.lines().find(|l| l.starts_with("<svg")).unwrap();
    let (t0, t1) = match attr_nums(root, "data-window")[..] {
        [a, b] => (a, b),
        _ => panic!("data-window"),
    };
    let (left, top, right, bottom) = match attr_nums(root, "data-plot")[..] {
        [a, b, c, d] => (a, b, c, d),
        _ => panic!("data-plot"),
    };
    let x_at = |t: f64| left + (t - t0) / (t1 - t0) * (right - left);
    let row_h = (bottom - top) / f64::from(expected.capacity);
    // Drawn: job id -> intervals with their geometry.
    let mut drawn: BTreeMap<u64, Vec<(String, [f64; 4])>> = BTreeMap::new();
    for tag in svg.split('<').filter(|t| t.starts_with("rect ")) {
        let Some(id) = attr(tag, "data-job") else {
            continue;
        };
        let geometry =
            ["x", "y", "width", "height"].map(|k| attr(tag, k).unwrap().parse().unwrap());
        drawn
            .entry(id.parse().unwrap())
            .or_default()
            .push((attr(tag, "data-procs").unwrap().to_string(), geometry));
    }
    let mut shown = 0;
    for (job, o) in expected.jobs.iter().zip(&expected.outcomes) {
        let (s, e) = (o.start.0 as f64, o.end.0 as f64);
        let inside = if e > s {
            s < t1 && e > t0
        } else {
            s >= t0 && s < t1
        };
        let Some(rects) = drawn.remove(&job.id) else {
            assert!(!inside, "job {} ran in the window but is not drawn", job.id);
            continue;
        };
        assert!(
            inside,
            "job {} is drawn but did not run in the window",
            job.id
        );
        shown += 1;
        let set = &alloc[&job.id];
        assert_eq!(rects.len(), set.intervals().len(), "job {}", job.id);
        for ((procs, [x, y, w, h]), &(a, b)) in rects.iter().zip(set.intervals()) {
            let want = if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            };
            assert_eq!(procs, &want, "job {}", job.id);
            let x0 = x_at(s.max(t0));
            let width = (x_at(e.min(t1)) - x0).max(1.0);
            let close = |u: f64, v: f64| (u - v).abs() < 0.011;
            assert!(
                close(*x, x0) && close(*w, width),
                "job {}: x {x} w {w}",
                job.id
            );
            let y_top = bottom - f64::from(b + 1) * row_h;
            let height = f64::from(b - a + 1) * row_h;
            assert!(
                close(*y, y_top) && close(*h, height),
                "job {}: y {y} h {h}",
                job.id
            );
        }
    }
    assert!(
        drawn.is_empty(),
        "rectangles of unknown jobs: {:?}",
        drawn.keys()
    );
    shown
}

/// A small log with every field in use: users, groups, decimals, queues,
/// partitions, dependencies; unreplayable records; a job wider than the
/// machine; a job without allocated processors; jobs killed at their
/// requested time; a job without a requested time.
const FIXTURE: &str = "\
; Version: 2.2
; Computer: test machine
; MaxProcs: 8
; Note: a fixture for the schedule outputs
1 0 5 100 4 95.5 1024 4 200 2048 1 11 3 7 1 1 -1 -1
2 10 0 300 -1 -1 -1 2 100 -1 0 12 3 8 2 1 1 30
3 20 -1 -1 -1 -1 -1 2 100 -1 5 13 4 9 1 1 -1 -1
4 30 0 50 16 40.25 512.5 16 100 -1 1 14 4 9 1 1 -1 -1
5 40 2 60 8 59 100 8 -1 4096.5 1 15 5 10 3 2 4 12
60 50 1 70 1 69 64 1 80 -1 1 11 3 7 1 1 -1 -1
-1 55 0 20 2 18 64 2 30 -1 1 16 3 7 1 1 -1 -1
8 -1 0 20 2 18 64 2 30 -1 1 16 3 7 1 1 -1 -1
9 60 0 500 3 400 32 3 400 -1 0 17 6 11 0 1 6 5
10 61 3 40 2 39 32 2 20 -1 1 17 6 11 0 1 9 1
";

#[test]
fn swf_and_jobs_csv_of_a_fixture_keep_every_field() {
    let tmp = TempDir::new("fixture");
    let trace = tmp.join("fixture.swf");
    std::fs::write(&trace, FIXTURE).unwrap();
    let mut opts = options(&trace, Policy::EASY, &tmp);
    opts.window = Some((0, 2000));
    simulate(&Settings::from_env().unwrap(), &opts).unwrap();
    let expected = replay(&trace, Policy::EASY);
    // Records 3 and 8 are unreplayable, job 4 is wider than the machine.
    assert_eq!(expected.jobs.len(), 7);
    assert!(expected.outcomes.iter().any(|o| o.status == Status::Killed));
    let records = check_swf(&tmp.join("schedule.swf"), &expected);
    let ids: Vec<Option<i64>> = records.iter().map(|r| r.job).collect();
    // The record without a job number keeps -1 (it replays as job 67: one
    // past the largest number, 60, plus its index, 6).
    assert_eq!(
        ids,
        [Some(1), Some(2), Some(5), Some(60), None, Some(9), Some(10)]
    );
    assert_eq!(expected.jobs[4].id, 67);
    // Job 2 had no allocated count: field 5 is its requested 2 now.
    assert_eq!(records[1].allocated_procs, Some(2));
    let header = swf_io::read_trace(&tmp.join("schedule.swf"), Mode::Strict)
        .unwrap()
        .header;
    assert_eq!(header.computer.as_deref(), Some("test machine"));
    assert!(
        header
            .notes
            .iter()
            .any(|n| n == "a fixture for the schedule outputs")
    );
    assert!(
        header.notes.iter().any(|n| n.starts_with(
            "left out: 3 of the 10 input records (2 unreplayable: no submit time, run time or processor count; 1 wider"
        )),
        "{:?}",
        header.notes
    );
    let alloc = check_jobs_csv(&tmp.join("jobs.csv"), &expected);
    assert_eq!(check_gantt(&tmp.join("gantt.svg"), &expected, &alloc), 7);
    let timeline = std::fs::read_to_string(tmp.join("timeline.svg")).unwrap();
    assert_eq!(timeline.matches("<polyline data-series=").count(), 2);
}

#[test]
fn schedules_of_sdsc_sp2_under_easy() {
    let Some(trace) = sdsc() else {
        return;
    };
    let tmp = TempDir::new("sdsc");
    let mut opts = options(&trace, Policy::EASY, &tmp);
    // A week: days 100 to 107 of the log.
    opts.window = Some((8_640_000, 9_244_800));
    simulate(&Settings::from_env().unwrap(), &opts).unwrap();
    let expected = replay(&trace, Policy::EASY);
    let records = check_swf(&tmp.join("schedule.swf"), &expected);
    // Users, groups and queues are kept, not -1.
    let users: BTreeSet<Option<i64>> = records.iter().map(|r| r.user).collect();
    assert!(users.len() > 100, "{} users", users.len());
    assert!(records.iter().all(|r| r.queue.is_some()));
    let alloc = check_jobs_csv(&tmp.join("jobs.csv"), &expected);
    let shown = check_gantt(&tmp.join("gantt.svg"), &expected, &alloc);
    assert!((300..5000).contains(&shown), "{shown} jobs in the week");
    // The timeline's mean utilisation over the whole schedule is the
    // command's utilisation.
    opts.window = None;
    opts.schedule_out = None;
    opts.jobs_csv = None;
    opts.gantt = None;
    simulate(&Settings::from_env().unwrap(), &opts).unwrap();
    let stats =
        profile::ScheduleStats::compute(&expected.jobs, &expected.outcomes, expected.capacity, 10)
            .unwrap();
    let timeline = std::fs::read_to_string(tmp.join("timeline.svg")).unwrap();
    let want = format!("mean {:.1} %", 100.0 * stats.utilization);
    assert!(timeline.contains(&want), "{want}");
}
