//! Integration tests of `utility-match`: one binary, one module per area.

mod grids;
mod props;
