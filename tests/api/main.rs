//! Black-box tests: each starts pigeon on a free loopback port with a fresh data dir and speaks
//! HTTP to it, as a tenant or an operator would.

mod helpers;

mod agent;
mod agent_bluebubbles;
mod agent_failover;
mod agent_messages;
mod agent_program;
mod auth;
mod backup;
mod browser;
mod campaigns;
mod choices;
mod crash;
mod dashboard;
mod detect;
mod disk;
mod envelope;
mod events;
mod expiry;
mod fake_bluebubbles;
mod fleet;
mod health;
mod identity;
mod keys;
mod life;
mod limits;
mod media;
mod messages;
mod metrics;
mod operator;
mod opt_outs;
mod overload;
mod passivation;
mod postgres;
mod process;
mod queries;
mod records;
mod retention;
mod schedule;
mod security;
mod signatures;
mod tls;
mod webhook_control;
mod webhooks;
