//! One SWF data line: the 18 fields, parsed from bytes without allocating.

use std::io::{self, Write};

use crate::error::{SwfError, excerpt};

/// The names of the 18 SWF fields, index 0 is field 1. Used in messages.
pub const FIELD_NAMES: [&str; 18] = [
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user ID",
    "group ID",
    "executable number",
    "queue number",
    "partition number",
    "preceding job number",
    "think time",
];

/// Whether 1-based field `field` may hold a decimal number (fields 6, 7, 10).
pub(crate) fn is_decimal_field(field: usize) -> bool {
    matches!(field, 6 | 7 | 10)
}

/// One job (one data line) of an SWF file. `-1` in the file is `None` here.
///
/// Field numbers in the docs are the 1-based SWF field numbers. Integer
/// fields other than -1 are kept as they are, negative ones included, so a
/// consumer can decide what a value like -2 means; [`to_jobs`](crate::to_jobs)
/// applies the usual replay rules. `Some(-1)` is indistinguishable from
/// `None` once written.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SwfRecord {
    /// Field 1: job number.
    pub job: Option<i64>,
    /// Field 2: submit time, seconds from the start of the log.
    pub submit: Option<i64>,
    /// Field 3: wait time in seconds.
    pub wait: Option<i64>,
    /// Field 4: run time in seconds.
    pub run_time: Option<i64>,
    /// Field 5: number of allocated processors.
    pub allocated_procs: Option<i64>,
    /// Field 6: average CPU time used per processor, seconds (may be decimal).
    pub avg_cpu_time: Option<f64>,
    /// Field 7: used memory per processor, kilobytes (may be decimal).
    pub used_memory: Option<f64>,
    /// Field 8: requested number of processors.
    pub requested_procs: Option<i64>,
    /// Field 9: requested time (the user's estimate), seconds.
    pub requested_time: Option<i64>,
    /// Field 10: requested memory per processor, kilobytes (may be decimal).
    pub requested_memory: Option<f64>,
    /// Field 11: status (1 completed, 0 failed, 5 cancelled, 2-4 partial runs).
    pub status: Option<i64>,
    /// Field 12: user ID.
    pub user: Option<i64>,
    /// Field 13: group ID.
    pub group: Option<i64>,
    /// Field 14: executable (application) number.
    pub executable: Option<i64>,
    /// Field 15: queue number (0 is interactive by convention).
    pub queue: Option<i64>,
    /// Field 16: partition number.
    pub partition: Option<i64>,
    /// Field 17: preceding job number.
    pub preceding_job: Option<i64>,
    /// Field 18: think time from the preceding job, seconds.
    pub think_time: Option<i64>,
}

/// Parses an integer field; `-1` is `None`. Accepts an optional sign.
#[inline]
fn parse_int(b: &[u8]) -> Result<Option<i64>, ()> {
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() {
        return Err(());
    }
    let mut v: i64 = 0;
    for &c in digits {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return Err(());
        }
        // Accumulate negatively so i64::MIN parses too.
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_sub(i64::from(d)))
            .ok_or(())?;
    }
    let v = if neg { v } else { v.checked_neg().ok_or(())? };
    Ok(if v == -1 { None } else { Some(v) })
}

/// Parses a decimal field; `-1` is `None`. Rejects `inf`, `NaN` and the like.
#[inline]
fn parse_float(b: &[u8]) -> Result<Option<f64>, ()> {
    if b.is_empty()
        || !b
            .iter()
            .all(|c| matches!(c, b'0'..=b'9' | b'.' | b'+' | b'-' | b'e' | b'E'))
    {
        return Err(());
    }
    // All bytes are ASCII, so this cannot fail; map it to an error anyway.
    let s = std::str::from_utf8(b).map_err(|_| ())?;
    let v: f64 = s.parse().map_err(|_| ())?;
    if !v.is_finite() {
        return Err(());
    }
    Ok(if v == -1.0 { None } else { Some(v) })
}

/// What is wrong with a data line, before it is dressed as an [`SwfError`]
/// (which allocates): lenient mode only dresses the lines it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineError {
    /// The line has this many fields, not 18.
    FieldCount(usize),
    /// Field `i` (0-based) is not a number.
    BadField(usize),
}

impl LineError {
    /// The full error for `line`, line number `line_no` of `source`.
    pub(crate) fn to_swf(self, line: &[u8], source: &str, line_no: u64) -> SwfError {
        match self {
            LineError::FieldCount(found) => SwfError::FieldCount {
                source_name: source.to_owned(),
                line: line_no,
                found,
            },
            LineError::BadField(i) => SwfError::BadField {
                source_name: source.to_owned(),
                line: line_no,
                field: i + 1,
                name: FIELD_NAMES[i],
                text: excerpt(fields(line).nth(i).unwrap_or_default()),
            },
        }
    }
}

/// The whitespace-separated fields of a line.
fn fields(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(u8::is_ascii_whitespace)
        .filter(|f| !f.is_empty())
}

/// Parses one data line (without requiring the line terminator to be
/// stripped), without allocating.
pub(crate) fn parse_fields(line: &[u8]) -> Result<SwfRecord, LineError> {
    let mut f: [&[u8]; 18] = [&[]; 18];
    let mut count = 0usize;
    for field in fields(line) {
        if count < 18 {
            f[count] = field;
        }
        count += 1;
    }
    if count != 18 {
        // A control character (a NUL, say) inside a field joins two
        // fields: that field, not the count, is what is wrong.
        if let Some(i) = f[..count.min(18)]
            .iter()
            .position(|field| field.iter().any(|&b| b < 0x20 || b == 0x7f))
        {
            return Err(LineError::BadField(i));
        }
        return Err(LineError::FieldCount(count));
    }
    let int = |i: usize| parse_int(f[i]).map_err(|()| LineError::BadField(i));
    let float = |i: usize| parse_float(f[i]).map_err(|()| LineError::BadField(i));
    // Struct literal fields are evaluated in the order written: the first
    // bad field (in field order) is the one reported.
    Ok(SwfRecord {
        job: int(0)?,
        submit: int(1)?,
        wait: int(2)?,
        run_time: int(3)?,
        allocated_procs: int(4)?,
        avg_cpu_time: float(5)?,
        used_memory: float(6)?,
        requested_procs: int(7)?,
        requested_time: int(8)?,
        requested_memory: float(9)?,
        status: int(10)?,
        user: int(11)?,
        group: int(12)?,
        executable: int(13)?,
        queue: int(14)?,
        partition: int(15)?,
        preceding_job: int(16)?,
        think_time: int(17)?,
    })
}

/// [`parse_fields`] with the full error. `source` and `line_no` only feed
/// error messages.
#[cfg(test)]
pub(crate) fn parse_line(line: &[u8], source: &str, line_no: u64) -> Result<SwfRecord, SwfError> {
    parse_fields(line).map_err(|e| e.to_swf(line, source, line_no))
}

/// Writes an integer field, `-1` for `None`.
fn put_int<W: Write>(w: &mut W, v: Option<i64>) -> io::Result<()> {
    match v {
        Some(v) => write!(w, "{v}"),
        None => w.write_all(b"-1"),
    }
}

/// Writes a decimal field, `-1` for `None` and for non-finite values.
/// The text parses back to the identical `f64`.
fn put_float<W: Write>(w: &mut W, v: Option<f64>) -> io::Result<()> {
    match v {
        Some(v) if v.is_finite() => {
            let a = v.abs();
            if a == 0.0 || (1e-4..1e15).contains(&a) {
                write!(w, "{v}")
            } else {
                write!(w, "{v:e}")
            }
        }
        _ => w.write_all(b"-1"),
    }
}

/// Writes one record as a data line, fields separated by one space.
pub(crate) fn write_record<W: Write>(w: &mut W, r: &SwfRecord) -> io::Result<()> {
    let ints_a = [r.job, r.submit, r.wait, r.run_time, r.allocated_procs];
    for v in ints_a {
        put_int(w, v)?;
        w.write_all(b" ")?;
    }
    put_float(w, r.avg_cpu_time)?;
    w.write_all(b" ")?;
    put_float(w, r.used_memory)?;
    w.write_all(b" ")?;
    put_int(w, r.requested_procs)?;
    w.write_all(b" ")?;
    put_int(w, r.requested_time)?;
    w.write_all(b" ")?;
    put_float(w, r.requested_memory)?;
    let ints_b = [
        r.status,
        r.user,
        r.group,
        r.executable,
        r.queue,
        r.partition,
        r.preceding_job,
        r.think_time,
    ];
    for v in ints_b {
        w.write_all(b" ")?;
        put_int(w, v)?;
    }
    w.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_int(b"42"), Ok(Some(42)));
        assert_eq!(parse_int(b"-1"), Ok(None));
        assert_eq!(parse_int(b"+7"), Ok(Some(7)));
        assert_eq!(parse_int(b"-2"), Ok(Some(-2)));
        assert_eq!(parse_int(b"9223372036854775807"), Ok(Some(i64::MAX)));
        assert_eq!(parse_int(b"-9223372036854775808"), Ok(Some(i64::MIN)));
        for bad in [
            &b"9223372036854775808"[..],
            b"",
            b"-",
            b"1.5",
            b"abc",
            b"1e3",
            b"--1",
        ] {
            assert_eq!(
                parse_int(bad),
                Err(()),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn decimals() {
        assert_eq!(parse_float(b"1.5"), Ok(Some(1.5)));
        assert_eq!(parse_float(b"-1"), Ok(None));
        assert_eq!(parse_float(b"-1.00"), Ok(None));
        assert_eq!(parse_float(b"3"), Ok(Some(3.0)));
        assert_eq!(parse_float(b"2e3"), Ok(Some(2000.0)));
        for bad in [&b"inf"[..], b"NaN", b"", b".", b"1e999", b"1,5"] {
            assert_eq!(
                parse_float(bad),
                Err(()),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn line_with_tabs_and_crlf() {
        let r = parse_line(
            b"1\t0  5 10 4 1.5 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\r\n",
            "t",
            1,
        )
        .unwrap();
        assert_eq!(r.job, Some(1));
        assert_eq!(r.wait, Some(5));
        assert_eq!(r.avg_cpu_time, Some(1.5));
        assert_eq!(r.used_memory, None);
        assert_eq!(r.think_time, None);
    }

    #[test]
    fn floats_written_back_exactly() {
        for v in [
            0.1,
            1.0 / 3.0,
            1e300,
            5e-324,
            123456.789,
            -0.0,
            1e15,
            9.99e14,
        ] {
            let mut out = Vec::new();
            put_float(&mut out, Some(v)).unwrap();
            assert_eq!(
                parse_float(&out),
                Ok(Some(v)),
                "{}",
                String::from_utf8_lossy(&out)
            );
        }
    }
}
