//! A `Stepper`'s simulation, kept on the thread that created it.
//!
//! `profile::Stepper` is not `Send` (its context holds a `dyn Observer`).
//! PyO3's `unsendable` classes panic when used from another thread (a
//! `PanicException`, which `except Exception` does not catch), and the
//! workspace allows no `unsafe` to assert more. So the simulation lives in
//! a slot of its creating thread's table, and the Python object holds the
//! slot's number and the thread: from another thread it raises a
//! `RuntimeError` naming the class, and dropped on another thread it
//! leaves the slot to be freed when its thread ends.

use std::cell::RefCell;
use std::thread::{self, ThreadId};

use pyo3::prelude::*;

use crate::convert::runtime_error;

/// A slot: taken (by a live [`OnThread`]) and its simulation, `None` once
/// finished.
type Slot = (bool, Option<profile::Stepper>);

thread_local! {
    static SIMULATIONS: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
}

/// A simulation in a slot of the thread that created it.
pub(crate) struct OnThread {
    owner: ThreadId,
    slot: usize,
}

impl OnThread {
    /// `sim`, kept on the calling thread.
    pub(crate) fn new(sim: profile::Stepper) -> Self {
        let slot =
            SIMULATIONS.with_borrow_mut(|slots| match slots.iter().position(|(taken, _)| !taken) {
                Some(free) => {
                    slots[free] = (true, Some(sim));
                    free
                }
                None => {
                    slots.push((true, Some(sim)));
                    slots.len() - 1
                }
            });
        OnThread {
            owner: thread::current().id(),
            slot,
        }
    }

    /// `f` of the simulation (`None` once finished), on the thread that
    /// created it; a `RuntimeError` on any other.
    pub(crate) fn with<R>(
        &self,
        f: impl FnOnce(&mut Option<profile::Stepper>) -> PyResult<R>,
    ) -> PyResult<R> {
        if thread::current().id() != self.owner {
            return Err(runtime_error(
                "this Stepper belongs to the thread that created it and was used from another \
                 thread; create one per thread",
            ));
        }
        SIMULATIONS.with(|slots| {
            let mut slots = slots
                .try_borrow_mut()
                .map_err(|_| runtime_error("the Stepper is already in use"))?;
            f(&mut slots[self.slot].1)
        })
    }
}

impl Drop for OnThread {
    fn drop(&mut self) {
        if thread::current().id() == self.owner {
            // Not while the thread's table is being torn down.
            let _ = SIMULATIONS.try_with(|slots| {
                if let Ok(mut slots) = slots.try_borrow_mut() {
                    slots[self.slot] = (false, None);
                }
            });
        }
        // On another thread the slot stays taken; its thread's end frees it.
    }
}
