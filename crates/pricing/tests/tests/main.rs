//! Integration tests of `pricing`: one binary, one module per area.

mod baseline;
mod comparison;
mod examples;
mod props;
mod series;
mod spec;
