//! The integration tests, one module per area, in one test binary: every test binary
//! links the library and its dependencies (about 100 MB with debug info), so one binary is one
//! link where a binary per file was fifteen, and the harness runs all the tests on its threads
//! at once instead of one binary after another. A new area is a module here: a file directly
//! in `tests/` would be a binary of its own again.
//!
//! One process runs them all, in parallel: a test must leave process-wide state alone (the
//! current directory, environment variables) and name its temporary files so that no other
//! test's collide. `planner_memory` installs the binary's global allocator; it counts only
//! on the thread of the test that asks it to, so the other tests pass through it uncounted.

mod aliased_graphs;
mod aliasing;
mod api;
mod async_threshold;
mod authoring;
mod back_buffer_uav;
mod barrier_tables;
mod bundles;
mod calibration;
mod clean_scenes;
mod cli;
mod commands;
mod common;
mod compute_context;
mod contexts;
mod determinism;
mod device;
mod fast_binding;
mod faults;
mod fence_values;
mod formats;
mod frames;
mod generated;
mod heaps;
mod hostile;
mod indirect;
mod locations;
mod orders;
mod pass_barriers;
mod pass_costs;
mod pictures;
mod plan_errors;
mod planner_memory;
mod ports;
mod ports_compute;
mod ports_frame_resources;
mod ports_histogram;
mod queries;
mod random_graphs;
mod real_aliasing;
mod real_detroit;
mod real_frame_faults;
mod real_frames;
mod real_history_on_two_queues;
mod real_mutations;
mod reliability;
mod report_numbers;
mod resize;
mod rules;
mod scene_errors;
mod scene_roundtrip;
mod script_errors;
mod scripts;
mod simulation;
mod snippets;
mod soak;
mod submissions;
mod summary_schema;
mod timing;
mod trace_file;
#[cfg(feature = "tracy")]
mod tracy_capture;
mod tracy_zones;
mod transients;
mod use_ranges;
mod worked_examples;
