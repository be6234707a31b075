//! `cargo xtask simulate`: one trace, one policy, the usual metrics.

use crate::exit::{say, say_err};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use experiments::encode::{terminal_name, terminal_path};
use experiments::{
    ScheduleView, Source, Workload, WorkloadFacts, derive_seed, known_trace, replay, workload_from,
};
use profile::Outcome;

use crate::generated;
use crate::options::{SimulateOptions, parse_estimate};
use crate::output::{self, Made};
use crate::progress;
use crate::schedules;
use crate::settings::Settings;
use crate::traces::{Found, load, resolve};

/// The bounded-slowdown threshold, seconds.
const BOUND: i64 = 10;

/// Runs the command.
pub fn simulate(settings: &Settings, opts: &SimulateOptions) -> Result<ExitCode> {
    let start = Instant::now();
    let trace = opts.trace.as_str();
    let policy = opts.policy;
    let estimate = parse_estimate(&opts.estimate)?;
    let seed = opts.seed;
    let outputs = [
        ("--schedule-out", &opts.schedule_out),
        ("--jobs-csv", &opts.jobs_csv),
        ("--gantt", &opts.gantt),
        ("--timeline", &opts.timeline),
    ];
    let made = [Made::Schedule, Made::Unmarked, Made::Picture, Made::Picture];
    // Before any work: every output can be written.
    for (flag, out) in outputs {
        if let Some(out) = out {
            output::check_name_lengths(out, flag)?;
            output::check_file_target(out, flag)?;
        }
    }
    // A generated workload (`lublin99:...`) is made here, as `generate`
    // would write it; anything else is a trace to find.
    let source = match generated::source(trace) {
        Some(source) => source?,
        None => {
            let found = resolve(trace, Path::new("."), &settings.traces)?;
            if let Found::File { path, .. } = &found {
                for (flag, out) in outputs {
                    if let Some(out) = out {
                        output::refuse_input_file(out, flag, &[path])?;
                    }
                }
            }
            load(&found, opts.lenient)?
        }
    };
    // Still before any work: no output replaces a file of the user's (an
    // output over the trace itself was refused above, naming it).
    for ((flag, out), made) in outputs.into_iter().zip(made) {
        if let Some(out) = out {
            output::check_replace(out, flag, made, opts.force)?;
        }
    }
    let source = with_machine_size(source, opts.procs)?;
    // The trace's name, also for a path: it labels jobs.csv and the pictures.
    let file_name = if trace.starts_with(generated::PREFIX) {
        "lublin99"
    } else {
        Path::new(trace)
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or(trace)
    };
    let name = known_trace(file_name).map_or_else(
        || file_name.trim_end_matches(".gz").trim_end_matches(".swf"),
        |k| k.name,
    );
    let (workload, facts) = workload_from(
        &source,
        name,
        estimate,
        derive_seed(seed, &format!("stand-in/{name}")),
    );
    if workload.jobs.is_empty() {
        let out_of_range = match &source {
            Source::Trace { trace, .. } => swf_io::to_jobs(&trace.records, estimate).out_of_range,
            _ => 0,
        };
        bail!("{}", no_job_message(&facts, out_of_range));
    }
    if let (Source::Trace { file, .. }, None) = (&source, source.machine_size()) {
        bail!(
            "{}: the header gives no machine size (MaxProcs and MaxNodes are missing, -1 \
             or 0); give it with --procs N",
            terminal_name(file)
        );
    }
    if let (Source::Trace { file, trace, .. }, None) = (&source, opts.procs)
        && trace.header.max_procs.is_none_or(|p| p < 1)
        && let Some(nodes) = trace.header.machine_size()
    {
        say_err!(
            "note: {} gives no MaxProcs; its MaxNodes ({nodes}) is the machine size, as if \
             field 5 counted nodes; give --procs N if the jobs count processors",
            terminal_name(file)
        );
    }
    let sim_start = Instant::now();
    let (outcomes, stats) = replay(&workload, policy, BOUND)?;
    let sim_secs = sim_start.elapsed().as_secs_f64();

    let sha = facts
        .sha256
        .as_deref()
        // The checksum that identifies a trace (traces/README.md): of its SWF
        // text, not of the `.gz` file `sha256sum` would read.
        .map(|s| format!(" (sha256 of its SWF text {s})"))
        .unwrap_or_default();
    say!(
        "trace                  {}{sha}",
        terminal_name(&facts.source)
    );
    if facts.stand_in {
        say!("                       STAND-IN: NOT comparable to published results");
    }
    say!(
        "machine                {}",
        progress::count(facts.capacity, "processor")
    );
    say!(
        "policy                 {} (estimate: {})",
        policy.name(),
        opts.estimate
    );
    say!(
        "jobs simulated         {} ({} records dropped as unreplayable, {} wider than the machine, {} without a requested time)",
        stats.jobs,
        facts.unreplayable,
        facts.too_wide,
        facts.no_estimate
    );
    if let (true, Some(note)) = (trace.starts_with(generated::PREFIX), &facts.note) {
        say!(
            "note                   {}",
            experiments::encode::terminal(note)
        );
    }
    say!("mean wait              {:.1} s", stats.mean_wait);
    say!(
        "mean bounded slowdown  {:.2} ({BOUND} s bound)",
        stats.mean_bounded_slowdown
    );
    say!("utilisation            {:.1} %", 100.0 * stats.utilization);
    say!("killed at estimate     {}", stats.killed);
    say!(
        "wall time              {sim_secs:.3} s simulation, {:.3} s in all",
        start.elapsed().as_secs_f64()
    );

    let outputs = Outputs {
        opts,
        source: &source,
        name,
        workload: &workload,
        facts: &facts,
        outcomes: &outcomes,
    };
    outputs.write()?;
    Ok(ExitCode::SUCCESS)
}

/// The source with the machine size `--procs` gives, if any, written into
/// the trace's header (so `--schedule-out` says it). Without `--procs` the
/// header's size is used, and a trace whose header gives none is refused
/// once the workload is known to hold jobs.
fn with_machine_size(mut source: Source, procs: Option<u32>) -> Result<Source> {
    match (&mut source, procs) {
        (Source::Trace { trace, .. }, Some(procs)) => trace.header.max_procs = Some(procs.into()),
        (Source::StandIn { known }, Some(_)) => bail!(
            "--procs sets the machine of a trace file, but {} was not found and a stand-in \
             on its {}-processor machine replaces it; drop --procs or give the trace",
            known.file_name(),
            known.procs
        ),
        _ => {}
    }
    Ok(source)
}

/// Why a trace left nothing to simulate. `out_of_range` counts the
/// unreplayable records with a value outside the accepted ranges.
fn no_job_message(facts: &WorkloadFacts, out_of_range: usize) -> String {
    let mut why = Vec::new();
    let plain = facts.unreplayable - out_of_range;
    if plain > 0 {
        why.push(format!(
            "{plain} unreplayable (no submit time, run time or processor count)"
        ));
    }
    if out_of_range > 0 {
        why.push(format!(
            "{out_of_range} with a time or size outside the accepted range (times and \
             durations up to 2^40 s, sizes up to 2^32 - 1)"
        ));
    }
    if facts.too_wide > 0 {
        why.push(format!(
            "{} wider than the {}-processor machine",
            facts.too_wide, facts.capacity
        ));
    }
    let records = match facts.records {
        0 => "no data records".to_string(),
        1 => "1 record, dropped because ".to_string() + &why.join(", "),
        n => format!("{n} records, all dropped because {}", why.join(", ")),
    };
    let skipped = match facts.skipped {
        0 => String::new(),
        1 => "; 1 malformed line skipped (--lenient)".to_string(),
        n => format!("; {n} malformed lines skipped (--lenient)"),
    };
    format!(
        "no replayable job in {}: {records}{skipped}",
        terminal_name(&facts.source)
    )
}

/// Jobs in a picture's window above which the Gantt chart gets hard to read.
const GANTT_READABLE: usize = 5000;

/// What one simulation writes besides its report: the schedule as SWF and
/// as Batsim's `jobs.csv`, the Gantt chart and the timeline.
struct Outputs<'a> {
    opts: &'a SimulateOptions,
    source: &'a Source,
    name: &'a str,
    workload: &'a Workload,
    facts: &'a WorkloadFacts,
    outcomes: &'a [Outcome],
}

impl Outputs<'_> {
    fn write(&self) -> Result<()> {
        let opts = self.opts;
        if let Some(out) = &opts.schedule_out {
            self.swf(out)?;
        }
        let allocation = if opts.jobs_csv.is_some() || opts.gantt.is_some() {
            profile::first_fit(self.workload.capacity, &self.workload.jobs, self.outcomes)
                .context("cannot give the schedule processor ids")?
        } else {
            Vec::new()
        };
        if let Some(out) = &opts.jobs_csv {
            let workload_name = if self.facts.stand_in {
                format!("stand-in-for-{}", self.name)
            } else {
                self.name.to_string()
            };
            let text = schedules::jobs_csv(
                &workload_name,
                &self.workload.jobs,
                self.outcomes,
                &allocation,
            )?;
            output::write_output(
                out,
                text.as_bytes(),
                "--jobs-csv",
                Made::Unmarked,
                opts.force,
            )?;
            say!(
                "jobs.csv               {} ({}, first-fit processor ids)",
                terminal_path(out),
                progress::count(self.workload.jobs.len() as u64, "job")
            );
        }
        if opts.gantt.is_none() && opts.timeline.is_none() {
            if opts.window.is_some() {
                say_err!(
                    "warning: --window only restricts --gantt and --timeline, and neither was given"
                );
            }
            return Ok(());
        }
        let title = format!(
            "{}{} under {} (estimate: {})",
            if self.facts.stand_in {
                "STAND-IN for "
            } else {
                ""
            },
            self.name,
            self.opts.policy.name(),
            self.opts.estimate
        );
        let view = ScheduleView {
            title: &title,
            capacity: self.workload.capacity,
            jobs: &self.workload.jobs,
            outcomes: self.outcomes,
        };
        let window = match opts.window {
            Some((start, end)) if start >= end => {
                bail!("--window is {start}:{end}, expected START < END (seconds)")
            }
            Some(w) => w,
            None => view.span(),
        };
        let shown = view.jobs_in(window);
        if let Some(out) = &opts.gantt {
            if shown > GANTT_READABLE {
                say_err!(
                    "warning: {shown} jobs ran in the window {}:{}; a Gantt chart of more than \
                     about {GANTT_READABLE} is hard to read, narrow it with --window START:END",
                    window.0,
                    window.1
                );
            }
            let svg = view.gantt_svg(&allocation, window);
            output::write_output(out, svg.as_bytes(), "--gantt", Made::Picture, opts.force)?;
            say!(
                "gantt                  {} ({} in {}:{} s)",
                terminal_path(out),
                progress::count(shown as u64, "job"),
                window.0,
                window.1
            );
        }
        if let Some(out) = &opts.timeline {
            let svg = view.timeline_svg(window);
            output::write_output(out, svg.as_bytes(), "--timeline", Made::Picture, opts.force)?;
            say!(
                "timeline               {} ({}:{} s)",
                terminal_path(out),
                window.0,
                window.1
            );
        }
        Ok(())
    }

    /// The schedule as SWF: each job's input record with only the fields
    /// the simulation decides changed.
    fn swf(&self, out: &Path) -> Result<()> {
        let (jobs, facts) = (&self.workload.jobs, self.facts);
        let (records, header) = match self.source {
            Source::Trace { trace, .. } => (
                swf_io::schedule_records_from(&trace.records, jobs, self.outcomes),
                trace.header.clone(),
            ),
            _ => (
                swf_io::schedule_records(jobs, self.outcomes),
                swf_io::SwfHeader::default(),
            ),
        };
        let mut notes = Vec::new();
        notes.push(format!(
            "simulated schedule: {} on {} (estimate: {})",
            self.opts.policy.name(),
            facts.source,
            self.opts.estimate
        ));
        notes.push(
            "set by the simulation: field 3 (wait time); fields 4 (run time) and 11 (status 0) \
             for jobs killed at their estimate; field 5 (allocated processors) where it was -1"
                .to_string(),
        );
        if self.source.is_stand_in() {
            notes.push("generated stand-in: fields the generator does not set are -1".to_string());
        } else {
            notes.push("every other field as in the input log".to_string());
        }
        let left_out = facts.records.saturating_sub(records.len());
        notes.push(format!(
            "left out: {left_out} of the {} input records ({} unreplayable: no submit time, \
             run time or processor count; {} wider than the machine)",
            facts.records, facts.unreplayable, facts.too_wide
        ));
        if facts.skipped > 0 {
            notes.push(format!(
                "malformed input lines skipped (--lenient): {}",
                facts.skipped
            ));
        }
        let text = schedules::swf(header, &records, self.workload.capacity, &notes)?;
        // A name ending in .gz gets gzip, as `generate`'s does.
        let bytes = crate::files::gzip_if_named(out, text.into_bytes())?;
        let force = self.opts.force;
        output::write_output(out, &bytes, "--schedule-out", Made::Schedule, force)?;
        say!(
            "schedule               {} ({} records, {left_out} input records left out)",
            terminal_path(out),
            records.len()
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use profile::Policy;

    use super::*;

    #[test]
    fn under_estimates_take_what_configs_take() {
        assert!(parse_estimate("under-estimate:0").is_ok());
        assert!(parse_estimate("under-estimate:0.5").is_ok());
        for bad in [
            "under-estimate:1",
            "under-estimate:5",
            "under-estimate:-1e300",
            "under-estimate:NaN",
            "under-estimate:inf",
            "guess",
        ] {
            let e = parse_estimate(bad).unwrap_err().to_string();
            assert!(e.contains("fraction in [0, 1)"), "{bad}: {e}");
        }
    }

    const LINE: &str = "1 0 -1 50 4 -1 -1 4 100 -1 1 7 2 3 1 -1 -1 -1\n";

    /// Runs `simulate` on `text` written to a scratch file; the error's
    /// text, or the machine size the simulation ran on.
    fn run(name: &str, text: &str, lenient: bool, procs: Option<u32>) -> Result<u32, String> {
        let dir = std::env::temp_dir().join(format!(
            "xtask-simulate-{}-{}",
            std::process::id(),
            name.replace(' ', "-")
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let schedule = dir.join(format!("{name}.out.swf"));
        let opts = SimulateOptions {
            trace: path.to_string_lossy().into_owned(),
            policy: Policy::EASY,
            estimate: "requested".into(),
            lenient,
            procs,
            seed: 1,
            schedule_out: Some(schedule.clone()),
            jobs_csv: None,
            gantt: None,
            timeline: None,
            window: None,
            force: false,
        };
        let result = simulate(&Settings::from_env().unwrap(), &opts)
            .map(|_| {
                let out = swf_io::read_trace(&schedule, swf_io::Mode::Strict).unwrap();
                out.header.machine_size().unwrap()
            })
            .map_err(|e| format!("{e:#}").replace(&format!("{}/", terminal_path(&dir)), ""));
        let _ = std::fs::remove_dir_all(&dir);
        result
    }

    #[test]
    fn the_machine_size_comes_from_the_header_or_procs() {
        let no_size = "no size: the header gives no machine size (MaxProcs and MaxNodes are \
                       missing, -1 or 0); give it with --procs N";
        for header in ["; MaxProcs: 0\n", "; Computer: x\n", "; MaxProcs: -1\n", ""] {
            let text = format!("{header}{LINE}");
            assert_eq!(
                run("no size", &text, false, None),
                Err(no_size.into()),
                "{header}"
            );
            assert_eq!(run("no size", &text, false, Some(8)), Ok(8), "{header}");
        }
        let text = format!("; MaxProcs: 16\n{LINE}");
        assert_eq!(run("sized", &text, false, None), Ok(16));
        assert_eq!(run("sized", &text, false, Some(4)), Ok(4));
        let text = format!("; MaxProcs: 0\n; MaxNodes: 6\n{LINE}");
        assert_eq!(run("nodes", &text, false, None), Ok(6));
        // Past the cap: the header line is named; never clamped.
        let text = format!("; MaxProcs: 4294967295\n{LINE}");
        let e = run("huge", &text, false, None).unwrap_err();
        assert!(
            e.starts_with("huge:1: header MaxProcs is 4294967295, out of range"),
            "{e}"
        );
        let e = run("huge", &text, true, None).unwrap_err();
        assert!(e.contains("gives no machine size"), "{e}");
        // A byte order mark is skipped.
        let text = format!("\u{feff}; MaxProcs: 16\n{LINE}");
        assert_eq!(run("bom", &text, false, None), Ok(16));
    }

    #[test]
    fn a_trace_without_a_replayable_job_is_an_error() {
        let header = "; MaxProcs: 4\n";
        assert_eq!(
            run("empty", header, false, None),
            Err("no replayable job in empty: no data records".into())
        );
        // Without a machine size too: the lack of jobs is what to fix first.
        assert_eq!(
            run("bad line", "x\n", true, None),
            Err(
                "no replayable job in bad line: no data records; 1 malformed line skipped \
                 (--lenient)"
                    .into()
            )
        );
        let text = format!("{header}x\ny\n");
        assert_eq!(
            run("bad", &text, true, None),
            Err(
                "no replayable job in bad: no data records; 2 malformed lines skipped \
                 (--lenient)"
                    .into()
            )
        );
        // Job numbers are unique.
        let (second, third) = (
            LINE.replace(" 0 -1 50 ", " 9223372036854775800 -1 50 "),
            LINE.replace(" 4 -1 -1 4 ", " 8 -1 -1 8 "),
        );
        let text = format!(
            "{header}{}2{}3{}",
            LINE.replace(" 0 -1 50 ", " -1 -1 50 "),
            &second[1..],
            &third[1..]
        );
        assert_eq!(
            run("dropped", &text, false, None),
            Err(
                "no replayable job in dropped: 3 records, all dropped because 1 unreplayable \
                 (no submit time, run time or processor count), 1 with a time or size outside \
                 the accepted range (times and durations up to 2^40 s, sizes up to 2^32 - 1), \
                 1 wider than the 4-processor machine"
                    .into()
            )
        );
    }
}
