//! Integration tests of `adaptive-requests`: one binary, one module per area.

mod props;
mod schedules;
mod twin;
