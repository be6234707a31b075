//! Integration tests of `pricing`: one binary, one module per area.

mod examples;
mod props;
mod spec;
