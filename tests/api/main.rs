//! Black-box tests: each starts pigeon on a free loopback port with a fresh data dir and speaks
//! HTTP to it, as a tenant or an operator would.

mod helpers;

mod auth;
mod envelope;
mod keys;
mod limits;
mod operator;
mod process;
