//! Integration tests of `profile`: one binary, one module per area.

mod props;
mod pyss;
mod schedules;
mod twin;
