//! Integration tests of `profile`: one binary, one module per area.

mod fuzz;
mod limits;
mod props;
mod pyss;
mod schedules;
mod twin;
