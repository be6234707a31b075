//! The resource provider's side of multiple-site provisioning, after
//! Assunção & Buyya, "Performance Analysis of Multiple Site Resource
//! Provisioning: Effects of the Precision of Availability Information":
//! how a cluster splits its processors into partitions, what free time slots
//! it publishes to a grid gateway, and how it forecasts its own load.
//!
//! **Implemented now**: the Lawson & Smirni run-time partition predicate of
//! eq. 1 ([`RunTimeClass`]), and the load forecast by weighted exponential
//! moving average over a window of intervals ([`LoadForecast`], 25 in the
//! paper), with bounded memory.
//!
//! **Planned** (issue 5): multiple resource partitions over one cluster, each
//! with its own queue, predicate (run-time class, or local versus grid jobs),
//! number of pivots (1 = EASY, unlimited = conservative), optional priority
//! order and borrowing of idle processors that never delays another
//! partition's pivot; the free time slots exported from `profile`'s
//! availability profile up to a horizon, also resized to a share of the
//! processors; advance reservations with a two-phase protocol (request,
//! tentative hold, commit or abort); the forecast-based policy of
//! Algorithm 1 (getFreeTimeSlots, reallocationEvent); the provider policies
//! ArCb, ArEb, ArCbM, ArEbM and ArEbMf.
//!
//! Invariants: time is whole seconds; every run time has exactly one
//! partition; a forecast lies between the smallest and largest load in its
//! window, and memory never grows past the window; bad input is an error,
//! never a panic. `partitions-forecast` knows nothing about gateways,
//! traces or experiments: it depends on `profile` alone.
//!
//! ```
//! use partitions_forecast::{LoadForecast, RunTimeClass};
//!
//! assert_eq!(RunTimeClass::of(600).partition(), 1);
//! assert_eq!(RunTimeClass::of(3600).partition(), 2);
//! assert_eq!(RunTimeClass::of(86_400).partition(), 3);
//!
//! let mut forecast = LoadForecast::new(LoadForecast::PAPER_WINDOW)?;
//! for load in [0.50, 0.55, 0.60, 0.90] {
//!     forecast.observe(load)?;
//! }
//! let next = forecast.forecast().expect("four observations");
//! assert!(next > 0.6375, "above the plain mean: the newest interval weighs most");
//! assert!(next < 0.90);
//! # Ok::<(), partitions_forecast::ForecastError>(())
//! ```
#![deny(missing_docs)]

mod error;
mod forecast;
mod partition;

pub use error::ForecastError;
pub use forecast::LoadForecast;
pub use partition::RunTimeClass;

/// The README's examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
