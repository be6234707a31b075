//! A parallel map over a slice with a shared counter as the queue: results
//! are stored by index, so the output never depends on which thread
//! finished first.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Maps `f` over `items` on `threads` threads; results come back in input
/// order. The first error (by index) wins, and stops further items.
///
/// A panic in `f` stops further items too; once every worker has finished,
/// it is resumed on the calling thread (the first panic, by index), so the
/// caller can catch it as the failure of this one call (`cargo xtask`
/// reports it as that experiment's error and goes on with the batch).
pub(crate) fn try_par_map<T: Sync, R: Send, E: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> Result<R, E> + Sync,
) -> Result<Vec<R>, E> {
    /// An item's result, or the payload of the panic it caused.
    type Caught<R, E> = std::thread::Result<Result<R, E>>;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let slots: Mutex<Vec<Option<Caught<R, E>>>> =
        Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= items.len() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    // `f` is not called again after a panic, so no broken
                    // state it may have left is observed.
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&items[i])));
                    if !matches!(r, Ok(Ok(_))) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    let mut slots = slots.lock().unwrap_or_else(|p| p.into_inner());
                    slots[i] = Some(r);
                }
            });
        }
    });
    let slots = slots
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut out = Vec::with_capacity(items.len());
    let mut skipped = false;
    for slot in slots {
        match slot {
            Some(Ok(Ok(r))) => out.push(r),
            Some(Ok(Err(e))) => return Err(e),
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => skipped = true,
        }
    }
    debug_assert!(!skipped, "items are skipped only after an error");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn par_map_keeps_order_and_reports_errors() {
        let items: Vec<u32> = (0..100).collect();
        let out = try_par_map(&items, 4, |&i| Ok::<u32, String>(i * 2)).unwrap();
        assert_eq!(out, items.iter().map(|i| i * 2).collect::<Vec<_>>());
        let err = try_par_map(&items, 4, |&i| {
            if i == 7 {
                Err(format!("bad {i}"))
            } else {
                Ok(i)
            }
        });
        assert_eq!(err, Err("bad 7".to_string()));
    }

    #[test]
    fn a_panic_in_a_worker_stops_the_map_and_reaches_the_caller() {
        let items: Vec<u32> = (0..100).collect();
        let calls = AtomicUsize::new(0);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            try_par_map(&items, 1, |&i| {
                calls.fetch_add(1, Ordering::Relaxed);
                assert!(i != 5, "item {i} is bad");
                Ok::<u32, String>(i)
            })
        }));
        let payload = caught.expect_err("the panic reaches the caller");
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert_eq!(message, "item 5 is bad");
        // One thread: items 0..=5 ran, nothing after the panic.
        assert_eq!(calls.load(Ordering::Relaxed), 6);
        // Several threads: the panic still reaches the caller.
        let caught = std::panic::catch_unwind(|| {
            try_par_map(&items, 4, |&i| {
                assert!(i % 17 != 3, "bad");
                Ok::<u32, String>(i)
            })
        });
        assert!(caught.is_err());
    }
}
