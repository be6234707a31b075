//! The papers from Python: one run of each paper crate's policy, built from
//! a workload (or a generated scenario) exactly as the experiments' kinds
//! build it (`experiments/src/kinds/`: the same names, defaults, derived
//! seeds and input construction), returned as tables and the run's
//! metrics.
//!
//! * [`pricing`]: Libra, Libra+$ and the EDF/SJF/FCFS backfilling
//!   baselines over a trace given deadlines and budgets
//!   (`pricing::run_policy`).
//! * [`adaptive`]: moldable and preemptive requests with deadlines under
//!   FIFO or MDF with conservative backfilling, interval by interval
//!   (`adaptive_requests::schedule`).
//! * [`provisioning`]: providers publishing free time slots to an InterGrid
//!   gateway, one round measured against a base run (`intergrid::simulate`).
//! * [`utility`]: the decentralised grid scheduled by partial utility,
//!   binary utility or matchmaking (`utility_match::simulate`).
//!
//! A run takes the seed of a configuration and a repetition: its random
//! draws are those of that repetition of an experiment with that seed, so
//! its metrics equal the ones `usched.run` reports for the same setting.
//! Each function returns `(tables, summary)`: every table a list of
//! `(column, dtype, values)` that the Python layer turns into numpy arrays,
//! the summary the run's metrics by the crate's names.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::convert::{error, int, not_bool, shown, type_error};

mod adaptive;
mod pricing;
mod provisioning;
mod utility;

/// Registers the papers' functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(pricing::paper_pricing, m)?)?;
    m.add_function(wrap_pyfunction!(adaptive::paper_adaptive, m)?)?;
    m.add_function(wrap_pyfunction!(provisioning::paper_provisioning, m)?)?;
    m.add_function(wrap_pyfunction!(utility::paper_utility, m)?)?;
    Ok(())
}

/// What a paper's function returns: `(tables, summary)`.
type Output<'py> = (Bound<'py, PyDict>, Bound<'py, PyDict>);

/// The seed of repetition `repetition` of a configuration whose seed is
/// `seed`: what `experiments::Experiment::repetition_seed` derives, the
/// seed a kind's run gets.
/// Both are integers (a `bool` is a `TypeError` naming it).
fn repetition_seed(seed: &Bound<'_, PyAny>, repetition: &Bound<'_, PyAny>) -> PyResult<u64> {
    let seed: u64 = int("seed", seed)?;
    let repetition: u32 = int("repetition", repetition)?;
    Ok(experiments::derive_seed(
        seed,
        &format!("repetition/{repetition}"),
    ))
}

/// A `bool` given for an option other than the boolean ones `flags`, or
/// inside a sequence or table option, is a `TypeError` naming it (Python's
/// `True` is also the integer 1).
fn refuse_bools(options: &Bound<'_, PyDict>, flags: &[&str]) -> PyResult<()> {
    for (key, value) in options.iter() {
        let key: String = key.extract()?;
        if flags.contains(&key.as_str()) {
            continue;
        }
        if let Ok(table) = value.cast::<PyDict>() {
            for (k, v) in table.iter() {
                not_bool(&format!("{key}.{k}"), &v, "a number")?;
            }
        } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
            // The sequence options hold numbers (`clusters`, `grid_months`,
            // the utility paper's `weights`) or names (its `os`).
            for (i, v) in value.try_iter()?.enumerate() {
                let v = v?;
                let name = format!("{key}[{i}]");
                not_bool(&name, &v, "a number")?;
                if v.is_instance_of::<PyInt>() {
                    int::<i64>(&name, &v)?;
                }
            }
        } else {
            not_bool(&key, &value, "a number")?;
        }
    }
    Ok(())
}

/// The kind of a numpy scalar (`b`, `i`, `u`, `f`, ...), `None` for
/// anything else.
fn numpy_kind(value: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let ty = value.get_type();
    if ty.module()? != "numpy" || ty.name()? == "ndarray" || !value.hasattr("dtype")? {
        return Ok(None);
    }
    Ok(Some(value.getattr("dtype")?.getattr("kind")?.extract()?))
}

/// The option `name`'s Python value as a TOML value: `None` for Python's
/// `None` (the key is left out, so it keeps its default). A numpy scalar
/// is its Python twin, a dict a table (the table options, such as
/// provisioning's `admission`, which the functions read as dicts before);
/// an integer beyond 64 bits is a `ValueError`, a value of another type a
/// `TypeError`, each naming the option.
pub(super) fn to_toml(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Option<toml::Value>> {
    let kind = numpy_kind(value)?;
    let kind = kind.as_deref();
    let v = if value.is_none() {
        return Ok(None);
    } else if value.is_instance_of::<PyBool>() || kind == Some("b") {
        toml::Value::Boolean(value.is_truthy()?)
    } else if value.is_instance_of::<PyInt>() || matches!(kind, Some("i" | "u")) {
        toml::Value::Integer(int::<i64>(name, value)?)
    } else if value.is_instance_of::<PyFloat>() || kind == Some("f") {
        toml::Value::Float(value.extract()?)
    } else if value.is_instance_of::<PyString>() {
        toml::Value::String(value.extract()?)
    } else if let Ok(dict) = value.cast::<PyDict>() {
        let mut table = toml::Table::new();
        for (k, item) in dict.iter() {
            let k: String = k.extract()?;
            if let Some(v) = to_toml(&format!("{name}.{k}"), &item)? {
                table.insert(k, v);
            }
        }
        toml::Value::Table(table)
    } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let mut items = Vec::new();
        for (i, item) in value.try_iter()?.enumerate() {
            let name = format!("{name}[{i}]");
            items.push(to_toml(&name, &item?)?.ok_or_else(|| {
                type_error(format!("{name} is None, expected a number or a string"))
            })?);
        }
        toml::Value::Array(items)
    } else {
        return Err(type_error(format!(
            "{name} is {}, expected a number, a string, a bool or a list",
            shown(value)
        )));
    };
    Ok(Some(v))
}

/// The options `options` as a kind's `[params]` table: each key with its
/// value ([`to_toml`]), keys whose value is `None` left out (they keep the
/// kind's default), keys in `rename` moved (`"rate"` to `"table1.rate"`).
fn params_table(options: &Bound<'_, PyDict>, rename: &[(&str, &str)]) -> PyResult<toml::Table> {
    let mut table = toml::Table::new();
    for (key, value) in options.iter() {
        let key: String = key.extract()?;
        let Some(value) = to_toml(&key, &value)? else {
            continue;
        };
        let path = rename
            .iter()
            .find(|(from, _)| *from == key)
            .map_or(key.as_str(), |(_, to)| to);
        let mut at = &mut table;
        let mut parts: Vec<&str> = path.split('.').collect();
        let last = parts.pop().unwrap_or_default();
        for part in parts {
            at = at
                .entry(part)
                .or_insert_with(|| toml::Value::Table(toml::Table::new()))
                .as_table_mut()
                .ok_or_else(|| error(format!("{part} is not a table")))?;
        }
        at.insert(last.to_string(), value);
    }
    Ok(table)
}

/// `options`, with what the series `series` sets
/// (`experiments::Registry::series_params`), as the `[params]` of one run
/// of kind `kind`, checked as the kind checks a configuration's
/// (`experiments::Registry::check_params`): one copy of every range, the
/// kind's, so a value `usched.run` refuses is refused here in the same
/// words. The error names the option (`rename` read backwards).
fn kind_check(
    kind: &str,
    series: Option<&str>,
    options: &Bound<'_, PyDict>,
    rename: &[(&str, &str)],
) -> PyResult<toml::Table> {
    let registry = experiments::Registry::builtin();
    let mut table = params_table(options, rename)?;
    if let Some(series) = series {
        let set = registry
            .series_params(kind, series)
            .map_err(|e| error(e.message))?;
        table.extend(set);
    }
    registry.check_params(kind, table.clone()).map_err(|e| {
        let Some(key) = &e.key else {
            return error(e.message);
        };
        let option = rename
            .iter()
            .find(|(_, to)| to == key)
            .map_or(key.as_str(), |(from, _)| from);
        // serde's names of Rust types, in words.
        let message = [
            ("expected usize", "expected a whole number of at least 0"),
            ("expected u64", "expected a whole number of at least 0"),
            ("expected u32", "expected a whole number of at least 0"),
            ("expected i64", "expected a whole number"),
            ("expected f64", "expected a number"),
        ]
        .iter()
        .fold(e.message.clone(), |m, (rust, words)| m.replace(rust, words));
        let text = if message.starts_with("is ") {
            format!("{option} {message}")
        } else {
            // serde's words name the value's type, not the value.
            match options.get_item(option).ok().flatten() {
                Some(v) => format!("{option} is {}: {message}", shown(&v)),
                None => format!("{option}: {message}"),
            }
        };
        // serde's words for a value of another type (a string for a
        // number): Python's `TypeError`, as `to_toml` gives for a value
        // no option takes.
        if e.message.starts_with("invalid type: ") {
            type_error(text)
        } else {
            error(text)
        }
    })?;
    Ok(table)
}

/// A time that may be absent, as a float (NaN when absent), so that pandas
/// reads it as a missing value.
fn maybe_time(t: Option<profile::Time>) -> f64 {
    t.map_or(f64::NAN, |t| t.0 as f64)
}

/// A table under construction: named columns, one dtype each.
struct Table<'py> {
    py: Python<'py>,
    columns: Vec<Bound<'py, PyTuple>>,
}

impl<'py> Table<'py> {
    fn new(py: Python<'py>) -> Self {
        Table {
            py,
            columns: Vec::new(),
        }
    }

    fn push<T: IntoPyObject<'py>>(
        &mut self,
        name: &str,
        dtype: &str,
        values: impl IntoIterator<Item = T>,
    ) -> PyResult<()> {
        let values = PyList::new(self.py, values)?;
        self.columns
            .push((name, dtype, values).into_pyobject(self.py)?);
        Ok(())
    }

    /// An integer column.
    fn int(&mut self, name: &str, values: impl IntoIterator<Item = i64>) -> PyResult<()> {
        self.push(name, "int64", values)
    }

    /// A float column (NaN for a missing value).
    fn float(&mut self, name: &str, values: impl IntoIterator<Item = f64>) -> PyResult<()> {
        self.push(name, "float64", values)
    }

    /// A boolean column.
    fn flag(&mut self, name: &str, values: impl IntoIterator<Item = bool>) -> PyResult<()> {
        self.push(name, "bool", values)
    }

    /// A column of words.
    fn text<S: AsRef<str>>(
        &mut self,
        name: &str,
        values: impl IntoIterator<Item = S>,
    ) -> PyResult<()> {
        let values: Vec<String> = values.into_iter().map(|s| s.as_ref().to_string()).collect();
        self.push(name, "object", values)
    }

    fn into_list(self) -> PyResult<Bound<'py, PyList>> {
        PyList::new(self.py, self.columns)
    }
}

/// The tables `tables` (name, table) as one dict.
fn tables<'py>(
    py: Python<'py>,
    tables: impl IntoIterator<Item = (&'static str, Table<'py>)>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, table) in tables {
        d.set_item(name, table.into_list()?)?;
    }
    Ok(d)
}
