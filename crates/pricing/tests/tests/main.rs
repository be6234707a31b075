//! Integration tests of `pricing`: one binary, one module per area.

mod baseline;
mod cluster;
mod common;
mod comparison;
mod examples;
mod extremes;
mod finite;
mod messages;
mod props;
mod series;
mod spec;
mod suite;
