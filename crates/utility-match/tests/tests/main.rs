//! Integration tests of `utility-match`: one binary, one module per area.

mod extremes;
mod finite;
mod grids;
mod hostile;
mod messages;
mod props;
mod suite;
