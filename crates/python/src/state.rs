//! The state a `Workload` and a `Schedule` are pickled as: plain bytes in
//! a versioned format of this package, read back with the checks a file
//! gets (every job as `Job::check` takes it, the machine, the submit order,
//! distinct ids, the facts against the jobs, a schedule by
//!`profile::validate`), so a damaged or forged state is an error naming
//! what is wrong, never a workload the simulator was not built for.
//!
//! Layout (little-endian): a magic line naming the kind and the format's
//! version, then the fields in order; text as a `u64` length and UTF-8;
//! an optional value as a byte 0 or 1 and then the value; after the last
//! field, the SHA-256 of everything before it, in hex (64 bytes), so a
//! damaged state is refused even where its fields still read as valid
//! ones (a run time, an id changed in place).

use experiments::{Workload as Jobs, WorkloadFacts};
use profile::{Job, Outcome, Status, Time};
use swf_io::{Estimate, SwfRecord};

/// The format this version writes and reads.
const FORMAT: &str = "2";
/// The first bytes of a workload's state (format 2).
const WORKLOAD: &[u8] = b"usched Workload 2\n";
/// The first bytes of a schedule's state (format 2).
const SCHEDULE: &[u8] = b"usched Schedule 2\n";
/// The length of the checksum that ends a state.
const SUM: usize = 64;

/// `state` with its checksum appended.
fn sealed(mut state: Vec<u8>) -> Vec<u8> {
    let sum = experiments::sha256_hex(&state);
    state.extend_from_slice(sum.as_bytes());
    state
}

/// A workload as `usched.load` made it, owned.
pub(crate) struct WorkloadState {
    pub(crate) jobs: Jobs,
    pub(crate) facts: WorkloadFacts,
    pub(crate) records: Option<Vec<SwfRecord>>,
    pub(crate) estimate: Estimate,
}

/// A schedule: its workload's jobs, their outcomes, the policy's name and
/// the bounded slowdown's bound.
pub(crate) struct ScheduleState {
    pub(crate) jobs: Jobs,
    pub(crate) outcomes: Vec<Outcome>,
    pub(crate) policy: String,
    pub(crate) bound: i64,
}

/// The state of a workload, or why it has none (an estimate rule this
/// format does not name).
pub(crate) fn pack_workload(
    jobs: &Jobs,
    facts: &WorkloadFacts,
    records: Option<&[SwfRecord]>,
    estimate: Estimate,
) -> Result<Vec<u8>, String> {
    let mut out = Packer(WORKLOAD.to_vec());
    put_jobs(&mut out, jobs);
    out.text(&estimate_text(estimate).ok_or("its estimate rule has no name in this format")?);
    // The facts are written as TOML, as a summary's are.
    let facts =
        toml::to_string(facts).map_err(|e| format!("its facts do not write as TOML: {e}"))?;
    out.text(&facts);
    match records {
        None => out.0.push(0),
        Some(records) => {
            out.0.push(1);
            out.u64(records.len() as u64);
            for r in records {
                put_record(&mut out, r);
            }
        }
    }
    Ok(sealed(out.0))
}

/// The state of a schedule, or why it has none (a status this format does
/// not name).
pub(crate) fn pack_schedule(
    jobs: &Jobs,
    outcomes: &[Outcome],
    policy: &str,
    bound: i64,
) -> Result<Vec<u8>, String> {
    let mut out = Packer(SCHEDULE.to_vec());
    put_jobs(&mut out, jobs);
    out.u64(outcomes.len() as u64);
    for o in outcomes {
        out.u64(o.id);
        out.i64(o.start.0);
        out.i64(o.end.0);
        out.0.push(match o.status {
            Status::Completed => 0,
            Status::Killed => 1,
            Status::Dropped => 2,
            other => return Err(format!("the status {other:?} has no code in this format")),
        });
    }
    out.text(policy);
    out.i64(bound);
    Ok(sealed(out.0))
}

/// A workload's state read back and checked; the error says what is wrong.
pub(crate) fn unpack_workload(bytes: &[u8]) -> Result<WorkloadState, String> {
    let mut r = Reader::new(bytes, WORKLOAD, "Workload")?;
    let jobs = take_jobs(&mut r)?;
    let estimate = r.text("estimate")?;
    let estimate = cli::options::parse_estimate(&estimate)
        .map_err(|_| format!("the estimate is '{estimate}', which usched.load never gives"))?;
    let facts: WorkloadFacts = toml::from_str(&r.text("facts")?)
        .map_err(|e| format!("the facts do not read: {}", e.message()))?;
    if facts.capacity != jobs.capacity || facts.jobs != jobs.jobs.len() {
        return Err(format!(
            "the facts say {} jobs on {} processors, the jobs are {} on {}",
            facts.jobs,
            facts.capacity,
            jobs.jobs.len(),
            jobs.capacity
        ));
    }
    let records = match r.flag("records")? {
        false => None,
        true => {
            let n = r.count("records", 4)?;
            let mut records = Vec::with_capacity(n);
            for i in 0..n {
                records.push(take_record(&mut r, i)?);
            }
            Some(records)
        }
    };
    r.end()?;
    Ok(WorkloadState {
        jobs,
        facts,
        records,
        estimate,
    })
}

/// A schedule's state read back and checked as any schedule is.
pub(crate) fn unpack_schedule(bytes: &[u8]) -> Result<ScheduleState, String> {
    let mut r = Reader::new(bytes, SCHEDULE, "Schedule")?;
    let jobs = take_jobs(&mut r)?;
    let n = r.count("outcomes", 25)?;
    if n != jobs.jobs.len() {
        return Err(format!("it has {n} outcomes for {} jobs", jobs.jobs.len()));
    }
    let mut outcomes = Vec::with_capacity(n);
    for i in 0..n {
        let id = r.u64("outcome id")?;
        let start = Time(r.i64("outcome start")?);
        let end = Time(r.i64("outcome end")?);
        let status = match r.byte("outcome status")? {
            0 => Status::Completed,
            1 => Status::Killed,
            2 => Status::Dropped,
            b => {
                return Err(format!(
                    "the outcome at position {i} has status {b}, expected 0, 1 or 2"
                ));
            }
        };
        outcomes.push(Outcome {
            id,
            start,
            end,
            status,
        });
    }
    let policy = r.text("policy")?;
    let bound = r.i64("bound")?;
    if !(0..=profile::MAX_DURATION).contains(&bound) {
        return Err(format!(
            "the bounded slowdown's bound is {bound}, outside 0 to {}",
            profile::MAX_DURATION
        ));
    }
    r.end()?;
    profile::validate(jobs.capacity, &jobs.jobs, &outcomes)
        .map_err(|v| format!("the schedule is invalid: {v}"))?;
    Ok(ScheduleState {
        jobs,
        outcomes,
        policy,
        bound,
    })
}

/// `estimate` as `usched.load`'s `estimate` takes it.
fn estimate_text(estimate: Estimate) -> Option<String> {
    Some(match estimate {
        Estimate::Requested => "requested".to_string(),
        Estimate::Actual => "actual".to_string(),
        // `{}` of an f64 reads back as the same value.
        Estimate::UnderEstimate(x) => format!("under-estimate:{x}"),
        _ => return None,
    })
}

/// Bytes being written.
struct Packer(Vec<u8>);

impl Packer {
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn i64(&mut self, v: i64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn text(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn option(&mut self, v: Option<i64>) {
        match v {
            None => self.0.push(0),
            Some(v) => {
                self.0.push(1);
                self.i64(v);
            }
        }
    }
}

/// The machine, the name and the jobs.
fn put_jobs(out: &mut Packer, jobs: &Jobs) {
    out.text(&jobs.label);
    out.u64(jobs.capacity.into());
    out.option(jobs.start_unix);
    out.u64(jobs.jobs.len() as u64);
    for j in &jobs.jobs {
        out.u64(j.id);
        out.i64(j.submit.0);
        out.u64(j.procs.into());
        out.i64(j.estimate);
        out.i64(j.run_time);
        out.option(j.deadline.map(|d| d.0));
    }
}

/// What [`put_jobs`] wrote, checked as a workload: a machine of 1 to
/// `swf_io::MAX_PROCS` processors, every job valid (`Job::check`) and no
/// wider than it, submit times in order, ids distinct.
fn take_jobs(r: &mut Reader<'_>) -> Result<Jobs, String> {
    let label = r.text("name")?;
    let capacity = r.u64("capacity")?;
    if !(1..=u64::from(swf_io::MAX_PROCS)).contains(&capacity) {
        return Err(format!(
            "the machine has {capacity} processors, outside 1 to {}",
            swf_io::MAX_PROCS
        ));
    }
    let capacity = capacity as u32;
    let start_unix = r.option("start time")?;
    let n = r.count("jobs", 41)?;
    let mut jobs: Vec<Job> = Vec::with_capacity(n);
    for i in 0..n {
        let id = r.u64("job id")?;
        let submit = Time(r.i64("job submit")?);
        let procs = r.u64("job procs")?;
        let estimate = r.i64("job estimate")?;
        let run_time = r.i64("job run time")?;
        let deadline = r.option("job deadline")?.map(Time);
        jobs.push(checked_job(
            i,
            Job {
                id,
                submit,
                procs: u32::try_from(procs).unwrap_or(0),
                estimate,
                run_time,
                deadline,
            },
            procs.into(),
            capacity,
            jobs.last(),
        )?);
    }
    distinct_ids(&jobs)?;
    Ok(Jobs {
        label,
        capacity,
        jobs,
        start_unix,
    })
}

/// The job at position `i` of a workload on `capacity` processors, if
/// valid: `procs` (as given, before narrowing) 1 to `capacity`, every
/// field as `Job::check` takes it, and submitted no earlier than
/// `before`, the job before it. The error names the position and the id.
pub(crate) fn checked_job(
    i: usize,
    job: Job,
    procs: i128,
    capacity: u32,
    before: Option<&Job>,
) -> Result<Job, String> {
    let id = job.id;
    // An SWF job number, and an int64 in every id column given back.
    if i64::try_from(id).is_err() {
        return Err(format!(
            "at position {i}, job id {id} is above {}, the largest SWF job number",
            i64::MAX
        ));
    }
    if !(1..=i128::from(capacity)).contains(&procs) {
        return Err(format!(
            "at position {i}, job {id} has {procs} processors, outside 1 to the machine's {capacity}"
        ));
    }
    job.check().map_err(|e| format!("at position {i}, {e}"))?;
    if let Some(before) = before.filter(|b| b.submit > job.submit) {
        return Err(format!(
            "at position {i}, job {id} is submitted at {}, before job {} at position {} ({})",
            job.submit.0,
            before.id,
            i - 1,
            before.submit.0
        ));
    }
    Ok(job)
}

/// No two of `jobs` share an id (records and outcomes name jobs by id).
pub(crate) fn distinct_ids(jobs: &[Job]) -> Result<(), String> {
    match profile::repeated_id(jobs.iter().map(|j| j.id)) {
        Some(r) => Err(format!(
            "the jobs at positions {} and {} both have id {}",
            r.first, r.second, r.id
        )),
        None => Ok(()),
    }
}

/// One record: a mask of the fields present (bit k for field k + 1), then
/// each present field as eight bytes (decimals as their bits).
fn put_record(out: &mut Packer, r: &SwfRecord) {
    let (ints, reals) = record_fields(r);
    let mask = fields_present(&ints, &reals);
    out.0.extend_from_slice(&mask.to_le_bytes());
    for v in ints.iter().flatten() {
        out.i64(*v);
    }
    for v in reals.iter().flatten() {
        out.u64(v.to_bits());
    }
}

/// A record's integer fields and its three decimal ones.
fn record_fields(r: &SwfRecord) -> ([Option<i64>; 15], [Option<f64>; 3]) {
    (
        [
            r.job,
            r.submit,
            r.wait,
            r.run_time,
            r.allocated_procs,
            r.requested_procs,
            r.requested_time,
            r.status,
            r.user,
            r.group,
            r.executable,
            r.queue,
            r.partition,
            r.preceding_job,
            r.think_time,
        ],
        [r.avg_cpu_time, r.used_memory, r.requested_memory],
    )
}

/// Bit k set when the k-th of `ints` then `reals` is present.
fn fields_present(ints: &[Option<i64>; 15], reals: &[Option<f64>; 3]) -> u32 {
    let present = ints
        .iter()
        .map(Option::is_some)
        .chain(reals.iter().map(Option::is_some));
    present
        .enumerate()
        .fold(0, |mask, (k, p)| mask | (u32::from(p) << k))
}

/// What [`put_record`] wrote; a decimal must be finite, as the SWF reader
/// gives them.
fn take_record(r: &mut Reader<'_>, i: usize) -> Result<SwfRecord, String> {
    let mask = u32::from_le_bytes(r.array("record")?);
    if mask >> 18 != 0 {
        return Err(format!(
            "the record at position {i} names fields past the 18th"
        ));
    }
    let mut ints = [None; 15];
    for (k, v) in ints.iter_mut().enumerate() {
        if mask & (1 << k) != 0 {
            *v = Some(r.i64("record field")?);
        }
    }
    let mut reals = [None; 3];
    for (k, v) in reals.iter_mut().enumerate() {
        if mask & (1 << (15 + k)) != 0 {
            let x = f64::from_bits(r.u64("record field")?);
            if !x.is_finite() {
                return Err(format!(
                    "the record at position {i} has a decimal that is not finite"
                ));
            }
            *v = Some(x);
        }
    }
    let [
        job,
        submit,
        wait,
        run_time,
        allocated_procs,
        requested_procs,
        requested_time,
        status,
        user,
        group,
        executable,
        queue,
        partition,
        preceding_job,
        think_time,
    ] = ints;
    let [avg_cpu_time, used_memory, requested_memory] = reals;
    Ok(SwfRecord {
        job,
        submit,
        wait,
        run_time,
        allocated_procs,
        avg_cpu_time,
        used_memory,
        requested_procs,
        requested_time,
        requested_memory,
        status,
        user,
        group,
        executable,
        queue,
        partition,
        preceding_job,
        think_time,
    })
}

/// Bytes being read, each read naming what it reads when they run out.
struct Reader<'a> {
    rest: &'a [u8],
    kind: &'static str,
}

impl<'a> Reader<'a> {
    /// After the magic line `magic`, or an error saying what the bytes are
    /// instead: another kind's state, another format's, or neither.
    fn new(bytes: &'a [u8], magic: &[u8], kind: &'static str) -> Result<Self, String> {
        if let Some(rest) = bytes.strip_prefix(magic) {
            // The fields, if the checksum after them is theirs.
            let Some(fields) = rest.len().checked_sub(SUM).map(|n| &rest[..n]) else {
                return Err("it ends before its checksum".into());
            };
            let sum = &bytes[bytes.len() - SUM..];
            if experiments::sha256_hex(&bytes[..bytes.len() - SUM]).as_bytes() != sum {
                return Err(
                    "its checksum does not match its contents: the state was damaged or \
                     edited"
                        .into(),
                );
            }
            return Ok(Reader { rest: fields, kind });
        }
        // A magic line of this package: `usched <Kind> <format>\n`.
        let line = bytes
            .strip_prefix(b"usched ")
            .and_then(|b| b.split(|&c| c == b'\n').next())
            .and_then(|b| std::str::from_utf8(b).ok())
            .filter(|l| l.len() < 40 && l.chars().all(|c| c.is_ascii_graphic() || c == ' '));
        Err(match line.and_then(|l| l.split_once(' ')) {
            Some((other, _)) if other != kind => {
                format!("this is the state of a {other}, not of a {kind}")
            }
            Some((_, format)) => format!(
                "the state is in format {format}, and this version of usched ({}) reads format \
                 {FORMAT}",
                env!("CARGO_PKG_VERSION")
            ),
            None => format!("this is not the state of a {kind}"),
        })
    }
    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], String> {
        let Some((head, rest)) = self.rest.split_first_chunk::<N>() else {
            return Err(format!("it ends inside the {what}"));
        };
        self.rest = rest;
        Ok(*head)
    }
    fn byte(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.array::<1>(what)?[0])
    }
    fn u64(&mut self, what: &str) -> Result<u64, String> {
        self.array(what).map(u64::from_le_bytes)
    }
    fn i64(&mut self, what: &str) -> Result<i64, String> {
        self.array(what).map(i64::from_le_bytes)
    }
    fn flag(&mut self, what: &str) -> Result<bool, String> {
        match self.byte(what)? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(format!("the {what} flag is {b}, expected 0 or 1")),
        }
    }
    fn option(&mut self, what: &str) -> Result<Option<i64>, String> {
        Ok(match self.flag(what)? {
            false => None,
            true => Some(self.i64(what)?),
        })
    }
    /// A count of items each at least `min_size` bytes long, no more than
    /// the bytes left can hold (so a forged count allocates nothing).
    fn count(&mut self, what: &str, min_size: usize) -> Result<usize, String> {
        let n = self.u64(what)?;
        if n > (self.rest.len() / min_size) as u64 {
            return Err(format!(
                "it counts {n} {what}, more than its {} bytes left can hold",
                self.rest.len()
            ));
        }
        Ok(n as usize)
    }
    fn text(&mut self, what: &str) -> Result<String, String> {
        let n = self.count(what, 1)?;
        let (text, rest) = self.rest.split_at(n);
        self.rest = rest;
        String::from_utf8(text.to_vec()).map_err(|_| format!("the {what} is not UTF-8"))
    }
    /// Nothing left.
    fn end(&self) -> Result<(), String> {
        match self.rest.len() {
            0 => Ok(()),
            n => Err(format!("{n} bytes follow the {}'s last field", self.kind)),
        }
    }
}
