#![doc = include_str!("../README.md")]

pub mod barrier;
pub mod graph;
pub mod device;
pub mod model;
