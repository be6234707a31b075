//! Where our schedules and pyss's part on whole traces, each cause as a
//! small hand-computed case (docs/DESIGN-CHOICES.md, "Backfilling against
//! pyss").
//!
//! Given the same jobs, pyss's EASY schedules every job of SDSC-SP2 and
//! KTH-SP2 as we do. The two first divergences on SDSC-SP2 come from how
//! pyss turns an SWF record into a job (src/base/prototype.py,
//! `_job_input_to_job`): a job that ran past its requested time gets that
//! run time as its estimate, yet runs only its requested time. The third
//! case is the one difference in the algorithms: pyss's conservative
//! scheduler compresses the schedule after every termination, we only
//! after one that comes before the job's estimate.

use profile::{Job, Outcome, Policy, SchedulerConfig, Status, Time, simulate, validate};

/// SDSC-SP2's machine.
const SDSC_SP2: u32 = 128;

/// `(id, submit, procs, estimate, run)`; the id is the SWF job number where
/// the job stands for one.
type Spec = (u64, i64, u32, i64, i64);

fn run(capacity: u32, policy: Policy, specs: &[Spec]) -> Vec<Outcome> {
    let jobs: Vec<Job> = specs
        .iter()
        .map(|&(id, s, p, e, r)| Job::new(id, Time(s), p, e, r))
        .collect();
    let out = simulate(&SchedulerConfig::new(capacity, policy), &jobs).unwrap();
    validate(capacity, &jobs, &out).unwrap();
    out
}

fn starts(out: &[Outcome]) -> Vec<i64> {
    out.iter().map(|o| o.start.secs()).collect()
}

/// The jobs as pyss's trace reader makes them: estimate `max(requested,
/// run)`, run `min(requested, run)`. Only a job that ran past its request
/// changes: the scheduler plans with its recorded run time, and the job
/// still ends at its request, ahead of that plan.
fn as_pyss_reads_them(specs: &[Spec]) -> Vec<Spec> {
    specs
        .iter()
        .map(|&(id, s, p, e, r)| (id, s, p, e.max(r), e.min(r)))
        .collect()
}

/// SDSC-SP2 under EASY at t = 1,185,907 (here 1000; every time is shifted
/// by 1,184,907 s). Job 697 (16 processors) asked for 39,000 s and ran
/// 39,099 s; it started at 1,148,022 in both schedules, so its request runs
/// out at 1,187,022 (2115). Job 819 (1 processor) is due by its request at
/// 1,186,556 (1649). Seven other running jobs hold 27 processors past
/// everything below (one job here). 84 processors are free.
const EASY_825: &[Spec] = &[
    (697, 0, 16, 2115, 2214),
    (819, 0, 1, 1649, 1073),
    (1, 0, 27, 20_000, 20_000),
    // The head of the queue: 100 processors. It can start when 697's
    // request runs out (2115, the shadow time): 84 + 1 + 16 = 101 free,
    // one processor to spare.
    (742, 1, 100, 2700, 419),
    // Arrives at 1000: 32 processors, requested 1200 s, runs 111 s.
    (825, 1000, 32, 1200, 111),
];

#[test]
fn easy_holds_a_job_that_would_run_past_the_shadow_time_on_the_request() {
    let out = run(SDSC_SP2, Policy::EASY, EASY_825);
    // 825 would end at 2200 by its estimate, after the shadow time 2115, and
    // needs 32 processors where one is spare: EASY holds it. 697 is killed
    // when its request runs out, 742 starts then and ends at 2534, and 825
    // starts on the processors 742 gives back.
    assert_eq!(starts(&out), [0, 0, 0, 2115, 2534]);
    assert_eq!(out[0].status, Status::Killed);
    assert_eq!(out[0].end, Time(2115));
}

#[test]
fn easy_as_pyss_reads_the_trace_backfills_it() {
    // pyss gives 697 its recorded run time as estimate (2214) and its
    // request as run time (2115). The shadow time becomes 2214, 825's
    // estimated end 2200 comes before it, and 825 starts at once, as pyss
    // starts it. Our EASY, given pyss's jobs, decides as pyss does: the
    // divergence is in reading the trace, not in the algorithm.
    let out = run(SDSC_SP2, Policy::EASY, &as_pyss_reads_them(EASY_825));
    assert_eq!(starts(&out), [0, 0, 0, 2115, 1000]);
    // 697 still ends when its request runs out, ahead of pyss's plan.
    assert_eq!(out[0].end, Time(2115));
    assert_eq!(out[0].status, Status::Completed);
}

/// SDSC-SP2 under conservative backfilling at t = 1,186,331 (here 1000;
/// shifted by 1,185,331 s). Job 697 started at 1,148,521 in both schedules;
/// its request runs out at 1,187,521 (2190), its recorded run at 1,187,620
/// (2289). Seven other running jobs hold 27 processors; 85 are free.
const CONSERVATIVE_830: &[Spec] = &[
    (697, 0, 16, 2190, 2289),
    (1, 0, 27, 20_000, 20_000),
    // 100 processors, reserved when 697's request runs out (2190).
    (746, 1, 100, 2700, 287),
    // Arrives at 1000: 4 processors, requested 1200 s, runs 90 s.
    (830, 1000, 4, 1200, 90),
];

#[test]
fn conservative_keeps_a_job_off_a_reservation_it_would_overlap_by_ten_seconds() {
    let out = run(SDSC_SP2, Policy::Conservative, CONSERVATIVE_830);
    // Started now, 830 would hold 4 processors until 2200, 10 s into 746's
    // reservation at 2190, where 85 + 16 - 100 = 1 processor is spare. Its
    // earliest slot is after 746 (4890); 746 ends early at 2477 and the
    // compression then moves 830 there.
    assert_eq!(starts(&out), [0, 0, 2190, 2477]);
    assert_eq!(out[0].status, Status::Killed);
}

#[test]
fn conservative_as_pyss_reads_the_trace_starts_it_at_once() {
    // With 697 planned to 2289, 746 is reserved at 2289 and 830's slot
    // [1000, 2200) is clear of it: 830 starts at once, as in pyss. 697 then
    // ends at 2190, "early" by pyss's plan, and the compression moves 746
    // to 2190.
    let out = run(
        SDSC_SP2,
        Policy::Conservative,
        &as_pyss_reads_them(CONSERVATIVE_830),
    );
    assert_eq!(starts(&out), [0, 0, 2190, 1000]);
}

/// A compression pass visits the waiting jobs once, in queue order, so a
/// later job that moves up can free room an earlier job could have used.
/// On a 10-processor machine:
/// 1: 5 procs, estimate 100, ends early at 10.
/// 2: 5 procs, estimate 30 (or 31), ends at 30.
/// 3 (A): 8 procs, 50 s; reserved at 100 on arrival.
/// 4 (B): 4 procs, 20 s; reserved on arrival at 2's predicted end.
const ONE_PASS: &[Spec] = &[
    (1, 0, 5, 100, 10),
    (2, 0, 5, 30, 30),
    (3, 1, 8, 50, 50),
    (4, 2, 4, 20, 20),
];

#[test]
fn conservative_compresses_after_an_early_end_only() {
    // At 10 job 1 ends early. The pass moves A from 100 to 50 (B holds 4 of
    // 10 over [30, 50)), then B from 30 to 10, where it starts. B's old slot
    // is now free and A would fit at 30, but the pass has gone past A. At 30
    // jobs 2 and B end exactly at their estimates: nothing is freed, so we
    // do not compress, and A starts at its reservation, 50. pyss compresses
    // after every termination (conservative_scheduler.py,
    // `new_events_on_job_termination` calls `_reschedule_jobs`), and its
    // second pass moves A to 30.
    let out = run(10, Policy::Conservative, ONE_PASS);
    assert_eq!(starts(&out), [0, 0, 50, 10]);

    // Had job 2 asked for 31 s, its end at 30 would be early: we compress
    // then too, and A starts at 30, as in pyss.
    let mut early = ONE_PASS.to_vec();
    early[1].3 = 31;
    let out = run(10, Policy::Conservative, &early);
    assert_eq!(starts(&out), [0, 0, 30, 10]);
}
