//! Names and columns: the policy, order, overrun and estimate names the
//! command line takes, errors as Python exceptions, and job columns.

use profile::{Job, Outcome, Overrun, Policy, QueueOrder, Status};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use swf_io::Estimate;

create_exception!(
    _usched,
    UschedError,
    PyValueError,
    "A bad input or a failed run; the message names the file, line and field as the command line does. A subclass of ValueError, as the range errors of numeric options are."
);

/// `e` (an [`anyhow::Error`] too) with its chain of causes, as the command
/// line prints it (`experiments::encode::terminal_message`): a control
/// character it quotes from a file or argument (an escape sequence, a
/// carriage return) made visible, a long name or value shortened.
pub(crate) fn error(e: impl std::fmt::Display) -> PyErr {
    UschedError::new_err(experiments::encode::terminal_message(&format!("{e:#}")))
}

/// Where the toolkit's lines for a human go in Python (a lenient read's
/// skipped lines, a stand-in's banner, a download, a note): a Python
/// `UserWarning` each, which a notebook shows and `warnings` filters, not
/// the process's stderr, which a notebook does not show. A warning a filter
/// turns into an error cannot be raised from here (the call that made it
/// goes on); it is written to stderr instead.
pub(crate) fn python_message(line: &str) {
    if line.trim().is_empty() {
        return;
    }
    let text = line.strip_prefix("warning: ").unwrap_or(line);
    // `terminal_message` made every control character visible: no NUL.
    let Ok(message) = std::ffi::CString::new(text) else {
        eprintln!("{line}");
        return;
    };
    Python::attach(|py| {
        let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
        if PyErr::warn(py, category.as_any(), &message, 1).is_err() {
            eprintln!("{line}");
        }
    });
}

/// A `TypeError` with `message`, a long quoted run shortened as
/// [`error`] shortens one. Every exception the binding builds comes from
/// here, [`value_error`], [`runtime_error`] or [`error`].
pub(crate) fn type_error(message: impl Into<String>) -> PyErr {
    pyo3::exceptions::PyTypeError::new_err(experiments::encode::terminal_message(&message.into()))
}

/// The `TypeError` pickling a simulation in progress raises (a
/// `Stepper`, an environment): its state lives in Rust. `what` is what
/// the user holds, `instead` what to pickle.
pub(crate) fn not_picklable(what: &str, instead: &str) -> PyErr {
    type_error(format!(
        "a {what} cannot be pickled: its simulation in progress lives in Rust; {instead}"
    ))
}

/// What to pickle instead of an environment.
pub(crate) const PICKLE_THE_WORKLOAD: &str = "pickle its Workload (or give a trace name) and \
     build the environment where it is unpickled, as AsyncVectorEnv's env_fns do";

/// A `ValueError` with `message`, as [`type_error`].
pub(crate) fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(experiments::encode::terminal_message(&message.into()))
}

/// A `RuntimeError` with `message`, as [`type_error`].
pub(crate) fn runtime_error(message: impl Into<String>) -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(experiments::encode::terminal_message(
        &message.into(),
    ))
}

/// A Python value quoted in a message: its `repr()`, shortened as a whole
/// (`experiments::encode::shorten`), since the `repr` of a long list or
/// dict holds spaces that [`error`]'s shortening keeps. An `int` past
/// Python's limit on digits turned into text (4,300 by default) shows its
/// sign and size in bits; any other `repr` that fails, the value's type and the
/// failure.
pub(crate) fn shown(value: &Bound<'_, PyAny>) -> String {
    let text = match value.repr() {
        Ok(r) => r.to_string(),
        Err(e) => {
            let bits = value
                .is_instance_of::<pyo3::types::PyInt>()
                .then(|| value.call_method0("bit_length").ok()?.extract::<u64>().ok())
                .flatten();
            match bits {
                Some(bits) if value.lt(0).unwrap_or(false) => {
                    format!("<a negative int of {bits} bits>")
                }
                Some(bits) => format!("<an int of {bits} bits>"),
                None => {
                    let ty = value
                        .get_type()
                        .name()
                        .map_or_else(|_| "?".to_string(), |n| n.to_string());
                    format!("<{ty} whose repr() failed: {}>", e.value(value.py()))
                }
            }
        }
    };
    experiments::encode::shorten(&text)
}

/// [`shown`] for the package's Python modules, which quote values in
/// their own errors the same way.
#[pyfunction]
#[pyo3(name = "shown")]
pub(crate) fn shown_py(value: &Bound<'_, PyAny>) -> String {
    shown(value)
}

/// A policy name: `fcfs`, `easy`, `easy-kN`, `easy-kinf`, `conservative`.
pub(crate) fn policy(name: &str) -> PyResult<Policy> {
    name.parse::<Policy>().map_err(error)
}

/// A queue order name: `arrival` or `shortest-estimate`. A workload's jobs
/// carry no deadline (neither a trace's nor columns' give one), so
/// `earliest-deadline` would run arrival order under its name: refused.
pub(crate) fn order(name: &str) -> PyResult<QueueOrder> {
    match name.parse::<QueueOrder>() {
        Err(_) => Err(error(format!(
            "unknown queue order '{}', expected arrival or shortest-estimate",
            experiments::encode::terminal(name)
        ))),
        Ok(QueueOrder::EarliestDeadline) => Err(error(
            "order 'earliest-deadline' orders jobs by deadline, and a workload's jobs have none \
             (every run would be in arrival order); expected arrival or shortest-estimate",
        )),
        Ok(order) => Ok(order),
    }
}

/// `kill` or `continue`.
pub(crate) fn overrun(name: &str) -> PyResult<Overrun> {
    match name {
        "kill" => Ok(Overrun::Kill),
        "continue" => Ok(Overrun::Continue),
        other => Err(error(format!(
            "overrun is '{other}', expected kill or continue"
        ))),
    }
}

/// `requested`, `actual` or `under-estimate:F`, as `simulate --estimate`.
/// Errors name the Python argument `estimate=`, not the flag.
pub(crate) fn estimate(name: &str) -> PyResult<Estimate> {
    cli::options::parse_estimate(name).map_err(|e| {
        let text = format!("{e:#}");
        error(match text.strip_prefix("--estimate") {
            Some(rest) => format!("estimate{rest}"),
            None => text,
        })
    })
}

/// The file parameter `name`: a `str`, `bytes` or `os.PathLike`, as
/// `open` takes one. Anything else is a `TypeError`, and a NUL character,
/// which no path can hold, a `ValueError`, each naming it.
fn path(name: &str, value: &Bound<'_, PyAny>) -> PyResult<std::path::PathBuf> {
    let py = value.py();
    // As text, bytes that are not UTF-8 escaped as the file system's
    // encoding does (and PathBuf's extraction undoes).
    let Ok(text) = py.import("os")?.getattr("fsdecode")?.call1((value,)) else {
        return Err(type_error(format!(
            "{name} is {}, expected a path (a str, bytes or os.PathLike)",
            shown(value)
        )));
    };
    if text.to_string().is_empty() {
        return Err(value_error(format!("{name} is empty, expected a path")));
    }
    // Shown lossily (a lone surrogate as U+FFFD), which keeps a NUL.
    if text.to_string().contains('\0') {
        return Err(value_error(format!(
            "{name} is {}, but a path cannot hold a NUL character",
            shown(value)
        )));
    }
    text.extract::<std::path::PathBuf>()
}

/// [`path`], as UTF-8 text: the toolkit reads and writes file names as
/// UTF-8 (`cli::output` refuses others). A path that is not is a
/// `UschedError` naming the parameter.
pub(crate) fn text_path(name: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    path(name, value)?
        .into_os_string()
        .into_string()
        .map_err(|_| {
            error(format!(
                "{name} is {}, which is not UTF-8; the toolkit reads trace names and paths \
             as UTF-8: rename the file or give another path to it",
                shown(value)
            ))
        })
}

/// A status as a word.
pub(crate) fn status(s: Status) -> &'static str {
    match s {
        Status::Completed => "completed",
        Status::Killed => "killed",
        Status::Dropped => "dropped",
        _ => "other",
    }
}

/// The jobs' columns: `id`, `submit`, `procs`, `run_time`, `estimate`.
pub(crate) fn job_columns<'py>(py: Python<'py>, jobs: &[Job]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("id", jobs.iter().map(|j| j.id).collect::<Vec<_>>())?;
    d.set_item(
        "submit",
        jobs.iter().map(|j| j.submit.0).collect::<Vec<_>>(),
    )?;
    d.set_item("procs", jobs.iter().map(|j| j.procs).collect::<Vec<_>>())?;
    d.set_item(
        "run_time",
        jobs.iter().map(|j| j.run_time).collect::<Vec<_>>(),
    )?;
    d.set_item(
        "estimate",
        jobs.iter().map(|j| j.estimate).collect::<Vec<_>>(),
    )?;
    Ok(d)
}

/// The jobs' columns with their outcomes: also `start`, `end`, `wait`,
/// `bsld` (bounded slowdown with `bound` seconds) and `status`.
pub(crate) fn outcome_columns<'py>(
    py: Python<'py>,
    jobs: &[Job],
    outcomes: &[Outcome],
    bound: i64,
) -> PyResult<Bound<'py, PyDict>> {
    let d = job_columns(py, jobs)?;
    d.set_item(
        "start",
        outcomes.iter().map(|o| o.start.0).collect::<Vec<_>>(),
    )?;
    d.set_item("end", outcomes.iter().map(|o| o.end.0).collect::<Vec<_>>())?;
    d.set_item(
        "wait",
        jobs.iter()
            .zip(outcomes)
            .map(|(j, o)| o.wait(j))
            .collect::<Vec<_>>(),
    )?;
    d.set_item(
        "bsld",
        jobs.iter()
            .zip(outcomes)
            .map(|(j, o)| o.bounded_slowdown(j, bound))
            .collect::<Vec<_>>(),
    )?;
    d.set_item(
        "status",
        outcomes
            .iter()
            .map(|o| status(o.status))
            .collect::<Vec<_>>(),
    )?;
    Ok(d)
}

/// Refuses a `bool` (or a numpy bool) given for the numeric parameter
/// `name`: a `TypeError` naming it, `expected` saying what it takes.
/// Python's `bool` is an `int`, so the extractions below would take
/// `True` as 1. Cheap enough for a per-decision call: an `int` or a
/// `float` passes on a type check, anything else costs a type lookup.
pub(crate) fn not_bool(name: &str, value: &Bound<'_, PyAny>, expected: &str) -> PyResult<()> {
    use pyo3::types::{PyBool, PyFloat, PyInt};
    if value.is_exact_instance_of::<PyInt>() || value.is_exact_instance_of::<PyFloat>() {
        return Ok(());
    }
    let numpy_bool = || -> PyResult<bool> {
        let ty = value.get_type();
        Ok(ty.module()? == "numpy" && (ty.name()? == "bool" || ty.name()? == "bool_"))
    };
    if value.is_instance_of::<PyBool>() || numpy_bool()? {
        return Err(type_error(format!(
            "{name} is {}, expected {expected}",
            shown(value)
        )));
    }
    Ok(())
}

/// An integer type's range, for messages in Python's terms (the numbers,
/// never the Rust type).
pub(crate) trait IntRange {
    /// The least value.
    const LOW: i128;
    /// The greatest value.
    const HIGH: i128;
}

macro_rules! int_range {
    ($($t:ty),*) => {$(
        impl IntRange for $t {
            const LOW: i128 = <$t>::MIN as i128;
            const HIGH: i128 = <$t>::MAX as i128;
        }
    )*};
}
int_range!(u8, u16, u32, u64, usize, i32, i64);

/// The integer parameter `name` as a `T`, strictly: an `int` or a numpy
/// integer (anything `operator.index` takes) but never a `bool`, a float
/// or a string (`TypeError` naming it); a value `T` cannot hold is a
/// `ValueError` naming it, its value and the range accepted, as
/// [`int_in`] words it.
pub(crate) fn int<'a, 'py, T: FromPyObject<'a, 'py> + IntRange>(
    name: &str,
    value: &'a Bound<'py, PyAny>,
) -> PyResult<T>
where
    T::Error: Into<PyErr>,
{
    not_bool(name, value, "an integer")?;
    value.extract::<T>().map_err(|e| {
        let (py, e): (_, PyErr) = (value.py(), e.into());
        let text = shown(value);
        if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) {
            value_error(format!(
                "{name} is {text}, expected {} to {}",
                T::LOW,
                T::HIGH
            ))
        } else {
            type_error(format!("{name} is {text}, expected an integer"))
        }
    })
}

/// The real-number parameter `name`, strictly: an `int`, a `float` or a
/// numpy number, never a `bool` or a string (`TypeError` naming it).
pub(crate) fn real(name: &str, value: &Bound<'_, PyAny>) -> PyResult<f64> {
    not_bool(name, value, "a real number")?;
    if value.is_instance_of::<pyo3::types::PyString>() {
        return Err(type_error(format!(
            "{name} is {}, expected a real number",
            shown(value)
        )));
    }
    value.extract::<f64>().map_err(|_| {
        type_error(format!(
            "{name} is {}, expected a real number",
            shown(value)
        ))
    })
}

/// The integer `name` from Python, strictly, as [`int`] takes it: the
/// value if it fits a `u64`, else its text for an error message (negative
/// or huge: [`shown`], so past Python's limit on digits, its size in
/// bits). Nothing is allocated for a value that fits.
pub(crate) fn strict_u64(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Result<u64, String>> {
    not_bool(name, value, "an integer")?;
    if let Ok(v) = value.extract::<u64>() {
        return Ok(Ok(v));
    }
    let py = value.py();
    let Ok(int) = py.import("operator")?.getattr("index")?.call1((value,)) else {
        return Err(type_error(format!(
            "{name} is {}, expected an integer",
            shown(value)
        )));
    };
    Ok(int.extract::<u64>().map_err(|_| shown(&int)))
}

/// The integer option `name` from Python, strictly, as [`int`] takes it.
/// Returns the value if it fits a `u64`, and its text for a message
/// either way.
pub(crate) fn strict_int(name: &str, value: &Bound<'_, PyAny>) -> PyResult<(Option<u64>, String)> {
    Ok(match strict_u64(name, value)? {
        Ok(v) => (Some(v), v.to_string()),
        Err(text) => (None, text),
    })
}

/// [`strict_int`] within `low..=high`: out of range is a `ValueError`
/// naming the option, its value and the range, followed by `hint`.
pub(crate) fn int_in(
    name: &str,
    value: &Bound<'_, PyAny>,
    low: u64,
    high: u64,
    hint: &str,
) -> PyResult<u64> {
    match strict_u64(name, value)? {
        Ok(v) if (low..=high).contains(&v) => Ok(v),
        Ok(v) => Err(out_of_range(name, &v.to_string(), low, high, hint)),
        Err(text) => Err(out_of_range(name, &text, low, high, hint)),
    }
}

/// The `ValueError` of an integer `name` given as `text`, outside `low..=high`.
fn out_of_range(name: &str, text: &str, low: u64, high: u64, hint: &str) -> PyErr {
    value_error(format!("{name} is {text}, expected {low} to {high}{hint}"))
}

/// [`int_in`] with no hint.
pub(crate) fn int_arg(name: &str, value: &Bound<'_, PyAny>, low: u64, high: u64) -> PyResult<u64> {
    int_in(name, value, low, high, "")
}

/// An action as an integer, as `Discrete.contains` takes one: a Python
/// or numpy integer, or a numpy integer array of one element (what an
/// agent's `predict` returns). A float, even a whole one, a bool array or
/// an array of several actions is refused (`TypeError`), never truncated.
pub(crate) fn action_index(action: &Bound<'_, PyAny>, window: usize) -> PyResult<usize> {
    if let Ok(a) = action.extract::<i64>() {
        return usize::try_from(a)
            .ok()
            .filter(|&a| a < window)
            .ok_or_else(|| value_error(format!("action {a} is outside Discrete({window})")));
    }
    // An int beyond 64 bits, a numpy integer beyond i64 or an array.
    let py = action.py();
    let int = match py.import("operator")?.getattr("index")?.call1((action,)) {
        Ok(int) => int,
        Err(_) => {
            let np = py.import("numpy")?;
            // A ragged sequence or an object numpy cannot read is refused
            // as any other non-integer.
            let array = np.getattr("asarray")?.call1((action,)).ok();
            let integers = |array: &Bound<'_, PyAny>| -> PyResult<bool> {
                let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
                let size: usize = array.getattr("size")?.extract()?;
                Ok(matches!(kind.as_str(), "i" | "u") && size == 1)
            };
            let array = match array {
                Some(array) if integers(&array)? => array,
                _ => {
                    return Err(type_error(format!(
                        "action {} is not an integer of Discrete({window}) (give an int, a \
                         numpy integer or a one-element integer array)",
                        shown(action)
                    )));
                }
            };
            array.call_method0("item")?
        }
    };
    match int.extract::<u64>() {
        Ok(a) if a < window as u64 => Ok(a as usize),
        _ => Err(value_error(format!(
            "action {} is outside Discrete({window})",
            shown(&int)
        ))),
    }
}

/// A run's statistics as the market environment's `score` gives them.
pub(crate) fn stats_dict<'py>(
    py: Python<'py>,
    s: &pricing::RunStats,
) -> PyResult<Bound<'py, PyDict>> {
    let m = &s.metrics;
    let d = PyDict::new(py);
    d.set_item("qos_satisfaction", m.qos_satisfaction())?;
    d.set_item("profitability", m.profitability().map_err(error)?)?;
    d.set_item("submitted", m.submitted)?;
    d.set_item("accepted", m.accepted)?;
    d.set_item("rejected", s.rejected.total())?;
    d.set_item("qos_met", m.qos_met)?;
    d.set_item("earned", m.earned)?;
    d.set_item("budgets", m.budgets)?;
    d.set_item("late", s.late)?;
    d.set_item("rejected_resources", s.rejected.resources)?;
    d.set_item("rejected_deadline", s.rejected.deadline)?;
    d.set_item("rejected_budget", s.rejected.budget)?;
    d.set_item("rejected_custom", s.rejected.custom)?;
    Ok(d)
}
