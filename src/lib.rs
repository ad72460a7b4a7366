//! pigeon: a multi-tenant messaging API over an actor-based routing engine. This crate is the
//! HTTP layer: it parses, authenticates, asks an actor and maps the answer. Domain rules live in
//! `pigeon-actors`; persistence in `pigeon-storage`. See ARCHITECTURE.md.

pub mod config;
pub mod dashboard;
pub mod edge;
pub mod error;
pub mod exposition;
pub mod extract;
pub mod fleet;
pub mod limits;
pub mod operate;
pub mod routes;
pub mod server;
pub mod startup;
pub mod telemetry;

pub use pigeon_actors::clock;
