//! One Chrome trace event, as serde writes it (the fields the trace uses).

use serde::Serialize;
use serde_json::Value;

use crate::report::summary::Us;

/// One trace event.
#[derive(Serialize)]
pub(super) struct Event<'a> {
    pub name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub cat: &'a str,
    pub ph: &'a str,
    pub pid: u32,
    pub tid: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ts: Option<Us>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dur: Option<Us>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bp: Option<&'a str>,
    #[serde(skip_serializing_if = "Value::is_null")]
    pub args: Value,
}

pub(super) fn us(ns: u64) -> Us {
    Us(ns as f64 / 1000.0)
}
