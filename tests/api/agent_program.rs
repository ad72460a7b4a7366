//! `pigeon agent`, the real executable, against a real node: the `command` connector sends each
//! job once and reports it; a `kill -9` mid-send neither repeats the send nor leaves it to the
//! lease; a node that is down for 10 s gets the reports it missed; `inbound`, `--check`, and a
//! revoked token.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::json;

use crate::helpers::*;

/// A running `pigeon agent`.
pub(crate) struct AgentProcess {
    child: Child,
    log: PathBuf,
}

impl AgentProcess {
    /// Runs `pigeon agent` for `token` on `base` with `args` (the connector and its flags), its
    /// journal in `state`, its log beside it.
    pub(crate) fn start(base: &str, token: &str, state: &Path, args: &[&str]) -> Self {
        Self::start_with_env(base, token, state, args, &[])
    }

    /// The same, with environment variables for the agent (and what it runs).
    pub(crate) fn start_with_env(
        base: &str,
        token: &str,
        state: &Path,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Self {
        let log_path = state.with_extension("log");
        let log = std::fs::OpenOptions::new().create(true).append(true).open(&log_path).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_pigeon"))
            .args(["agent", "--server", base, "--token", token, "--state-dir"])
            .arg(state)
            .args(if args.contains(&"--poll-wait") { &[][..] } else { &["--poll-wait", "1s"][..] })
            .args(args)
            .env("PIGEON_AGENT_LOG", "pigeon_agent=debug")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        Self { child, log: log_path }
    }

    pub(crate) fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Its exit code, if it exits within `within`.
    fn exit_within(&mut self, within: Duration) -> Option<i32> {
        let until = std::time::Instant::now() + within;
        while std::time::Instant::now() < until {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            eprintln!("the agent's log:\n{}", std::fs::read_to_string(&self.log).unwrap_or_default());
        }
    }
}

/// A tenant without quiet hours (the manual clock's noon UTC is night in the recipients' zones)
/// and one agent phone: `(tenant, phone id, agent token)`.
pub(crate) async fn tenant_with_agent_phone(app: &TestApp) -> (Tenant, String, String) {
    let t = app.create_tenant("scale").await;
    app.patch_tenant(&t.id, json!({"quiet_hours": {"enabled": false}})).await.expect(200, None);
    let (phone, token) = app.agent_phone(&t.id, "+14155550999").await;
    (t, phone, token)
}

/// Waits until the tenant's phone is online (its agent has polled).
pub(crate) async fn wait_online(app: &TestApp, key: &str) {
    for _ in 0..200 {
        let r = app.call("GET", "/v1/phones", Some(key), None).await.expect(200, None);
        if r.data()[0]["online"] == true {
            return;
        }
        actix_web::rt::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the agent never polled");
}

/// Polls until `f` holds (at most `secs` seconds).
pub(crate) async fn eventually(secs: u64, what: &str, mut f: impl FnMut() -> bool) {
    for _ in 0..secs * 20 {
        if f() {
            return;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never: {what}");
}

/// The lines of `path` (none if it does not exist).
pub(crate) fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path).map(|s| s.lines().map(str::to_owned).collect()).unwrap_or_default()
}

/// A send command that records each call (`calls`: one message id a line), keeps the body it was
/// given in a file named after the message, waits `sleep` seconds, and refuses `+14155550113`.
fn recording_command(out: &Path, sleep: u32) -> String {
    let script = format!(
        r#"echo "$1" >> "$0/calls"; printf "%s" "$3" > "$0/$1"; sleep {sleep}; case "$2" in +14155550113) echo "trying" >&2; echo "number $2 refused by the modem" >&2; exit 2;; esac"#
    );
    shell_quote(&["sh", "-c", &script, out.to_str().unwrap(), "{message_id}", "{to}", "{body}"])
}

/// Joins words into one command line that splits back into them.
pub(crate) fn shell_quote(words: &[&str]) -> String {
    words.iter().map(|w| format!("'{}'", w.replace('\'', r"'\''"))).collect::<Vec<_>>().join(" ")
}

/// Runs `pigeon agent ARGS` to its end: exit code, stdout, stderr.
pub(crate) fn agent_cli(args: Vec<String>) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pigeon")).arg("agent").args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub(crate) fn dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let (out, state) = (d.path().join("out"), d.path().join("state"));
    std::fs::create_dir_all(&out).unwrap();
    (d, out, state)
}

#[actix_web::test]
async fn the_command_connector_sends_each_job_once_byte_for_byte_and_reports_it() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let (_d, out, state) = dirs();
    let cmd = recording_command(&out, 0);
    let _agent = AgentProcess::start(
        &app.api.base,
        &token,
        &state,
        &["--connector", "command", "--send-command", &cmd, "--command-delivers"],
    );
    wait_online(&app, &t.live).await;

    let hostile = "He said \"hi\" & 'bye'\n$(touch /tmp/pigeon-pwned) `id` ; end tell\n-- {to} {body}";
    let mut sent = Vec::new();
    for (to, body) in
        [("+14155550100", "hello"), ("+14155550101", hostile), ("+14155550113", "to a refused number")]
    {
        let r = app.send(&t.live, json!({"to": to, "body": body})).await.expect(202, None);
        sent.push((r.data()["message_id"].as_str().unwrap().to_owned(), body));
    }
    let ok = app.wait_status(&t.live, &sent[0].0, "delivered").await;
    assert_eq!(ok["channel_used"], "sms");
    app.wait_status(&t.live, &sent[1].0, "delivered").await;
    let failed = app.wait_status(&t.live, &sent[2].0, "failed").await;
    assert_eq!(failed["failure_reason"], "number +14155550113 refused by the modem", "{failed}");
    for (id, body) in &sent {
        assert_eq!(std::fs::read_to_string(out.join(id)).unwrap(), *body, "the body arrives byte for byte");
    }
    let mut calls = lines(&out.join("calls"));
    calls.sort();
    let mut ids: Vec<String> = sent.iter().map(|(id, _)| id.clone()).collect();
    ids.sort();
    assert_eq!(calls, ids, "each message handed to the command once");
    assert!(!Path::new("/tmp/pigeon-pwned").exists());

    // The operator sees which agent each phone runs, and when it last called.
    let r = app
        .call("GET", &format!("/admin/v1/phones?tenant_id={}", t.id), Some(ADMIN), None)
        .await
        .expect(200, None);
    let phone = &r.data()[0];
    assert_eq!(phone["agent"], concat!("pigeon-agent/", env!("CARGO_PKG_VERSION")), "{phone}");
    assert_eq!(phone["last_poll_at"], "2026-11-22T12:00:00.000Z", "the node's (manual) clock: {phone}");
}

/// A tenant with an agent phone whose `pigeon agent` runs a recording send command that takes
/// `secs` seconds, and one send that the command has begun. Bind `_dir`: it holds the files.
struct SlowSend {
    t: Tenant,
    token: String,
    agent: AgentProcess,
    state: PathBuf,
    calls: PathBuf,
    id: String,
    _dir: tempfile::TempDir,
}

async fn slow_send(app: &TestApp, secs: u32, delivers: bool) -> SlowSend {
    let (t, _, token) = tenant_with_agent_phone(app).await;
    let (dir, out, state) = dirs();
    let cmd = recording_command(&out, secs);
    let mut args = vec!["--connector", "command", "--send-command", &cmd];
    if delivers {
        args.push("--command-delivers");
    }
    let agent = AgentProcess::start(&app.api.base, &token, &state, &args);
    wait_online(app, &t.live).await;
    let id = app.send_ok(&t.live, "+14155550100").await;
    let calls = out.join("calls");
    eventually(10, "the send command runs", || lines(&calls).len() == 1).await;
    SlowSend { t, token, agent, state, calls, id, _dir: dir }
}

#[actix_web::test]
async fn a_kill_9_mid_send_neither_repeats_the_send_nor_leaves_it_to_the_lease() {
    let app = spawn_app().await;
    let SlowSend { t, token, agent, state, calls, id, _dir } = slow_send(&app, 20, false).await;
    let cmd = recording_command(calls.parent().unwrap(), 20);
    agent.kill9();
    assert_eq!(app.message(&t.live, &id).await["status"], "sending");

    // Restarted on the same journal, it settles the send it was in the middle of at once (the
    // manual clock has not moved: the lease has not run out).
    let _agent = AgentProcess::start(
        &app.api.base,
        &token,
        &state,
        &["--connector", "command", "--send-command", &cmd],
    );
    let m = app.wait_status(&t.live, &id, "failed").await;
    assert!(m["failure_reason"].as_str().unwrap().starts_with("outcome unknown"), "{m}");
    // Past the lease the message stays settled, and the command ran once.
    app.clock.advance(Duration::from_secs(61));
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(app.message(&t.live, &id).await["status"], "failed");
    assert_eq!(lines(&calls), vec![id]);
}

#[actix_web::test]
async fn a_lease_that_runs_out_mid_send_comes_back_and_is_not_sent_again() {
    let app = spawn_app().await;
    let SlowSend { t, state, calls, id, agent: _agent, _dir, .. } = slow_send(&app, 3, true).await;
    // The lease runs out while the command still runs: the node queues the message again and
    // the agent, polling, is handed it a second time.
    app.clock.advance(Duration::from_secs(61));
    app.wait_status(&t.live, &id, "delivered").await;
    actix_web::rt::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(lines(&calls), vec![id], "handed to the command once");
    let log = std::fs::read_to_string(state.with_extension("log")).unwrap();
    assert!(log.contains("already handed to the connector; not again"), "the job came back: {log}");
}

#[actix_web::test]
async fn reports_made_while_the_node_is_down_arrive_when_it_is_back() {
    let app = spawn_app().await;
    let SlowSend { t, calls, id, agent: _agent, _dir, .. } = slow_send(&app, 2, true).await;
    // Down for 10 s: the send finishes meanwhile and its report waits in the journal.
    let app = app.restart_after(Duration::from_secs(10)).await;
    let started = std::time::Instant::now();
    app.wait_status_within(&t.live, &id, "delivered", Duration::from_secs(20)).await;
    wait_online(&app, &t.live).await;
    let next = app.send_ok(&t.live, "+14155550101").await;
    app.wait_status_within(&t.live, &next, "delivered", Duration::from_secs(20)).await;
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    assert_eq!(lines(&calls).len(), 2);
}

#[actix_web::test]
async fn inbound_posts_one_text_and_check_says_what_is_wrong() {
    let app = spawn_app().await;
    let (t, phone, token) = tenant_with_agent_phone(&app).await;
    let base = app.api.base.clone();
    let node =
        |token: &str| vec!["--server".to_owned(), base.clone(), "--token".to_owned(), token.to_owned()];

    let mut args = vec!["inbound".to_owned()];
    args.extend(node(&token));
    args.extend(["--from", "+14155550123", "--body", "Is this the pharmacy?"].map(String::from));
    let (code, _, err) = actix_web::rt::task::spawn_blocking(move || agent_cli(args)).await.unwrap();
    assert_eq!(code, Some(0), "{err}");
    let r = app.call("GET", "/v1/messages?direction=inbound", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()[0]["body"], "Is this the pharmacy?");
    assert_eq!(r.data()[0]["from"], "+14155550123");

    let mut args = vec!["inbound".to_owned()];
    args.extend(node(&token));
    args.extend(["--from", "12345", "--body", "x"].map(String::from));
    let (code, _, err) = actix_web::rt::task::spawn_blocking(move || agent_cli(args)).await.unwrap();
    assert_eq!(code, Some(1));
    assert!(err.contains("INVALID_PHONE_NUMBER"), "{err}");

    let state = tempfile::tempdir().unwrap();
    let check = |token: &str, send: &str| {
        let mut a = vec!["--check".to_owned(), "--connector".to_owned(), "command".to_owned()];
        a.extend(node(token));
        a.extend(["--send-command".to_owned(), send.to_owned(), "--state-dir".to_owned()]);
        a.push(state.path().to_str().unwrap().to_owned());
        a
    };
    let (good, bad_token, bad_cmd) = (
        check(&token, "true {to}"),
        check("svc_agent_nope", "true"),
        check(&token, "/nonexistent/modem {to}"),
    );
    let (good, bad_token, bad_cmd) = actix_web::rt::task::spawn_blocking(move || {
        (agent_cli(good), agent_cli(bad_token), agent_cli(bad_cmd))
    })
    .await
    .unwrap();
    assert_eq!(good.0, Some(0), "{}", good.1);
    assert!(
        good.1.contains("ok   the node at") && good.1.contains("phone +14155550999 (enabled)"),
        "{}",
        good.1
    );
    assert!(good.1.contains("ok   `true` is at"), "{}", good.1);
    assert_eq!(bad_token.0, Some(1));
    assert!(
        bad_token.1.contains("FAIL the node at") && bad_token.1.contains("refuses this token"),
        "{}",
        bad_token.1
    );
    assert_eq!(bad_cmd.0, Some(1));
    assert!(bad_cmd.1.contains("FAIL `/nonexistent/modem` is not an executable file"), "{}", bad_cmd.1);

    // A launchd job for the same flags: the token in its environment, not its arguments.
    let mut args =
        vec!["--print-launchd".to_owned(), "--connector".into(), "command".into(), "--send-command".into()];
    args.push("true {to}".into());
    args.extend(node(&token));
    let (code, plist, _) = actix_web::rt::task::spawn_blocking(move || agent_cli(args)).await.unwrap();
    assert_eq!(code, Some(0));
    let parsed = Command::new("python3")
        .args([
            "-c",
            "import json, plistlib, sys; print(json.dumps(plistlib.loads(sys.stdin.buffer.read())))",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut p| {
            use std::io::Write;
            p.stdin.take().unwrap().write_all(plist.as_bytes())?;
            p.wait_with_output()
        })
        .unwrap();
    let job: serde_json::Value = serde_json::from_slice(&parsed.stdout).expect("a valid property list");
    assert_eq!(job["ProgramArguments"][0], env!("CARGO_BIN_EXE_pigeon"));
    let argv = job["ProgramArguments"].as_array().unwrap();
    assert_eq!(argv[1..5], [json!("agent"), json!("--connector"), json!("command"), json!("--send-command")]);
    assert_eq!(job["EnvironmentVariables"]["PIGEON_AGENT_TOKEN"], token.as_str());
    assert!(!argv.iter().any(|a| a == token.as_str()), "{plist}");
    assert_eq!(job["KeepAlive"], json!({"Crashed": true}));

    // A revoked token (the phone deleted): the running agent stops, non-zero, at once.
    let (_d, _out, state) = dirs();
    let mut agent = AgentProcess::start(
        &app.api.base,
        &token,
        &state,
        &["--connector", "command", "--send-command", "true"],
    );
    wait_online(&app, &t.live).await;
    app.call("DELETE", &format!("/admin/v1/phones/{phone}"), Some(ADMIN), None).await.expect(200, None);
    let code = actix_web::rt::task::spawn_blocking(move || agent.exit_within(Duration::from_secs(10)))
        .await
        .unwrap();
    assert_eq!(code, Some(3));
}

#[actix_web::test]
async fn sigterm_lets_the_send_in_flight_finish_and_report_before_exiting() {
    let app = spawn_app().await;
    let SlowSend { t, mut agent, id, _dir, .. } = slow_send(&app, 2, true).await;
    let pid = agent.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let code = actix_web::rt::task::spawn_blocking(move || agent.exit_within(Duration::from_secs(15)))
        .await
        .unwrap();
    assert_eq!(code, Some(0));
    // It reported before it left.
    assert_eq!(app.message(&t.live, &id).await["status"], "delivered");
}

#[actix_web::test]
async fn a_job_sent_while_the_agent_lies_dead_waits_for_the_next_one_not_for_a_lease() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let (_d, out, state) = dirs();
    let cmd = recording_command(&out, 0);
    let args = ["--connector", "command", "--send-command", &cmd, "--command-delivers", "--poll-wait", "30s"];
    let agent = AgentProcess::start(&app.api.base, &token, &state, &args);
    wait_online(&app, &t.live).await;
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    // Killed while its 30 s poll waits: its connection closes, and the node ends the poll, so
    // the next job is not leased to a poll nobody reads (it would wait out a 60 s lease).
    agent.kill9();
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    let id = app.send_ok(&t.live, "+14155550100").await;
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.message(&t.live, &id).await["status"], "queued");
    let _agent = AgentProcess::start(&app.api.base, &token, &state, &args);
    app.wait_status(&t.live, &id, "delivered").await;
    assert_eq!(lines(&out.join("calls")), vec![id]);
}

#[actix_web::test]
async fn a_restarted_agent_takes_back_the_jobs_answered_to_a_poll_it_never_recorded() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let (_d, out, state) = dirs();
    assert!(app.poll(&token, 0).await.is_empty(), "online, with nothing to do");
    let id = app.send_ok(&t.live, "+14155550100").await;
    // An agent that read its poll's answer and died before it wrote the job to its journal.
    let addr = app.api.base.trim_start_matches("http://").to_owned();
    let mut tcp = std::net::TcpStream::connect(&addr).unwrap();
    let head = format!(
        "GET /phone/v1/jobs?wait=0 HTTP/1.1\r\nhost: {addr}\r\nauthorization: Bearer {token}\r\n\r\n"
    );
    std::io::Write::write_all(&mut tcp, head.as_bytes()).unwrap();
    let mut answer = [0u8; 4096];
    let n = std::io::Read::read(&mut tcp, &mut answer).unwrap();
    assert!(String::from_utf8_lossy(&answer[..n]).contains(&id), "the job was answered");
    drop(tcp);
    assert_eq!(app.message(&t.live, &id).await["status"], "sending");
    // The next agent tells the node which leases it holds (none): the job comes back at once,
    // not after its 60 s lease (the node's clock does not move here).
    let cmd = recording_command(&out, 0);
    let args = ["--connector", "command", "--send-command", &cmd, "--command-delivers", "--poll-wait", "30s"];
    let _agent = AgentProcess::start(&app.api.base, &token, &state, &args);
    app.wait_status(&t.live, &id, "delivered").await;
    assert_eq!(lines(&out.join("calls")), vec![id]);
}
