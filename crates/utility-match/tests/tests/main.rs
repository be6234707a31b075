//! Integration tests of `utility-match`: one binary, one module per area.

mod extremes;
mod grids;
mod props;
