//! Integration tests of `profile`: one binary, one module per area.

mod errors;
mod fuzz;
mod limits;
mod props;
mod pyss;
mod pyss_divergences;
mod schedules;
mod step;
mod suite_reach;
mod twin;
mod wrapped;
