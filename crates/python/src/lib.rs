//! `usched._usched`: the Rust side of the `usched` Python package.
//!
//! A front end like `xtask`: it reads traces as the command line does
//! (`cli::traces`, generated workloads as `cli::generated`), simulates with
//! `profile`, checks schedules with `profile::validate`, and runs
//! experiments with `experiments` — returning plain columns (lists) and
//! text that the Python layer (`python/usched/`) turns into numpy arrays
//! and tables. Errors become Python exceptions carrying the same text as
//! the command line's (file, line and field).
//!
//! Layers, bottom up: `convert` (names, columns and strict numbers),
//! `state` (a workload's and a schedule's pickled state, checked on the
//! way back in) under `workload` (traces), `owned` (a `Stepper`'s simulation, kept on the
//! thread that created it) under `schedule` (simulations and the stepping
//! API), `study` (experiments), `env_jobs` (the scheduling environment's
//! jobs) under `batch_env` (its core) under `vec_env` (its vector form),
//! `market_rule` (the market's admission rule, a `pricing::Admission`)
//! and `market_options` (its options, checked) under `market_env` (the
//! market environment's core), `papers` (one run of each paper crate as
//! tables, over `workload` and `convert`); this file registers them.
//! Environments return numpy arrays made in Rust (`numpy`).

use pyo3::prelude::*;

mod batch_env;
mod convert;
mod env_jobs;
mod market_env;
mod market_options;
mod market_rule;
mod owned;
mod papers;
mod schedule;
mod state;
mod study;
mod vec_env;
mod workload;

/// The extension module.
#[pymodule]
fn _usched(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Warnings and notes become Python warnings, not stderr lines.
    cli::exit::send_messages_to(convert::python_message);
    m.add("UschedError", m.py().get_type::<convert::UschedError>())?;
    m.add_class::<workload::Workload>()?;
    m.add_class::<schedule::Schedule>()?;
    m.add_class::<schedule::Stepper>()?;
    m.add_class::<batch_env::BatchCore>()?;
    m.add_class::<vec_env::BatchVec>()?;
    m.add_class::<market_env::MarketCore>()?;
    m.add_function(wrap_pyfunction!(workload::load, m)?)?;
    m.add_function(wrap_pyfunction!(schedule::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(study::run_config, m)?)?;
    m.add_function(wrap_pyfunction!(study::config_of, m)?)?;
    m.add_function(wrap_pyfunction!(convert::shown_py, m)?)?;
    papers::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
