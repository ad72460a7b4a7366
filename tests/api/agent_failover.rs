//! Each connector says whose fault a failure is, between a real node and its fake: a failure that
//! is the phone's moves the message to the tenant's other phone (here a sim, which delivers it),
//! one that is the recipient's fails it where it is.

use std::path::Path;

use serde_json::json;

use crate::agent_program::{dirs, tenant_with_agent_phone, wait_online, AgentProcess};
use crate::fake_bluebubbles::spawn_fake_bluebubbles;
use crate::helpers::*;

/// The tenant's second phone, a sim that delivers at once.
const SIM: &str = "+14155550998";

/// Sends to `to`; its id.
async fn send(app: &TestApp, key: &str, to: &str) -> String {
    let r = app.send(key, json!({"to": to, "body": "hello"})).await.expect(202, None);
    r.data()["message_id"].as_str().unwrap().to_owned()
}

/// The phone-scoped one (sent first: on a tie the older phone, the agent, takes it) ends
/// delivered by the sim, the recipient-scoped one (the phones tied again) failed on the agent.
async fn moved_and_failed(app: &TestApp, key: &str, moved: &str, failed: &str, reason: &str) {
    let m = app.wait_status(key, moved, "delivered").await;
    assert_eq!(m["from"], SIM, "{m}");
    let f = app.wait_status(key, failed, "failed").await;
    assert_eq!(
        (f["from"].as_str(), f["error_code"].as_str()),
        (Some("+14155550999"), Some("DELIVERY_FAILED"))
    );
    assert!(f["failure_reason"].as_str().unwrap().contains(reason), "{f}");
}

#[actix_web::test]
async fn command_exit_75_is_the_phones_and_any_other_exit_the_recipients() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let (_d, _out, state) = dirs();
    let script = r#"if [ "$1" = "+14155550175" ]; then echo "modem offline" >&2; exit 75; fi; echo "number refused" >&2; exit 1"#;
    let cmd = format!("sh -c '{script}' sh {{to}}");
    let _agent = AgentProcess::start(
        &app.api.base,
        &token,
        &state,
        &["--connector", "command", "--send-command", &cmd],
    );
    wait_online(&app, &t.live).await;
    app.sim_phone(&t.id, SIM, 0).await;
    let moved = send(&app, &t.live, "+14155550175").await;
    app.wait_status(&t.live, &moved, "delivered").await;
    let failed = send(&app, &t.live, "+14155550101").await;
    moved_and_failed(&app, &t.live, &moved, &failed, "number refused").await;
}

#[actix_web::test]
async fn messages_not_running_is_the_phones_and_an_unknown_buddy_the_recipients() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let (d, _out, state) = dirs();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/messages");
    let db = d.path().join("chat.db");
    let db_s = db.to_str().unwrap();
    let made =
        std::process::Command::new("python3").arg(fixtures.join("chatdb.py")).args(["create", db_s]).status();
    assert!(made.unwrap().success());
    let osascript = fixtures.join("osascript");
    let args = [
        "--connector",
        "messages",
        "--osascript",
        osascript.to_str().unwrap(),
        "--chat-db",
        db_s,
        "--poll-ms",
        "100",
    ];
    let env = [("FAKE_CHAT_DB", db_s), ("FAKE_REFUSE", "+14155550113"), ("FAKE_NOT_RUNNING", "+14155550114")];
    let _agent = AgentProcess::start_with_env(&app.api.base, &token, &state, &args, &env);
    wait_online(&app, &t.live).await;
    app.sim_phone(&t.id, SIM, 0).await;
    let moved = send(&app, &t.live, "+14155550114").await;
    app.wait_status(&t.live, &moved, "delivered").await;
    let failed = send(&app, &t.live, "+14155550113").await;
    moved_and_failed(&app, &t.live, &moved, &failed, "Can’t get participant").await;
}

#[actix_web::test]
async fn bluebubbles_signed_out_is_the_phones_and_a_failed_row_the_recipients() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let bb = spawn_fake_bluebubbles("pw");
    bb.refuse("+14155550113");
    let (_d, _out, state) = dirs();
    let args = ["--connector", "bluebubbles", "--bb-url", &bb.url, "--bb-password", "pw", "--poll-ms", "100"];
    let _agent = AgentProcess::start(&app.api.base, &token, &state, &args);
    wait_online(&app, &t.live).await;
    app.sim_phone(&t.id, SIM, 0).await;
    bb.sign_out();
    let moved = send(&app, &t.live, "+14155550114").await;
    app.wait_status(&t.live, &moved, "delivered").await;
    bb.sign_in();
    let failed = send(&app, &t.live, "+14155550113").await;
    moved_and_failed(&app, &t.live, &moved, &failed, "Failed to send message").await;
}
