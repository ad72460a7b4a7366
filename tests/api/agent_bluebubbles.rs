//! `pigeon agent --connector bluebubbles`, the real executable, between a real node and the fake
//! BlueBubbles server (`fake_bluebubbles.rs`): sends go out once each on the right service, their
//! receipts come back as `delivered` and `read`, texts received arrive once, across an agent restart too.

use std::time::Duration;

use serde_json::json;

use crate::agent_program::{agent_cli, dirs, tenant_with_agent_phone, wait_online, AgentProcess};
use crate::fake_bluebubbles::spawn_fake_bluebubbles;
use crate::helpers::*;

/// A password that must be percent-encoded in a query.
const PASSWORD: &str = "p&ss #1+x=y";

#[actix_web::test]
async fn bluebubbles_sends_follows_receipts_and_forwards_texts_once_across_a_restart() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let bb = spawn_fake_bluebubbles(PASSWORD);
    bb.has_imessage("+14155550101");
    bb.refuse("+14155550113");
    // Texts received before the agent ever ran are not forwarded.
    bb.receive("+14155550199", "from before the agent");
    let (_d, _out, state) = dirs();
    let args =
        ["--connector", "bluebubbles", "--bb-url", &bb.url, "--bb-password", PASSWORD, "--poll-ms", "100"];
    let agent = AgentProcess::start(&app.api.base, &token, &state, &args);
    wait_online(&app, &t.live).await;

    let hostile = "tell application \"Messages\" to quit\n$(rm -rf ~) `id` 'q'";
    let mut ids = Vec::new();
    for (to, body) in
        [("+14155550101", hostile), ("+14155550102", "hello by SMS"), ("+14155550113", "refused")]
    {
        let r = app.send(&t.live, json!({"to": to, "body": body})).await.expect(202, None);
        ids.push(r.data()["message_id"].as_str().unwrap().to_owned());
    }
    let imessage = app.wait_status(&t.live, &ids[0], "sent").await;
    assert_eq!(imessage["channel_used"], "imessage");
    let sms = app.wait_status(&t.live, &ids[1], "sent").await;
    assert_eq!(sms["channel_used"], "sms");
    let failed = app.wait_status(&t.live, &ids[2], "failed").await;
    assert_eq!(
        failed["failure_reason"], "Failed to send message! See attached message error code.",
        "{failed}"
    );

    // What the server got: each once, the right chat, the text byte for byte, our temp guid. The
    // agent sends a poll's jobs side by side, so the order they reach the server is not fixed.
    let sends = bb.sends();
    assert_eq!(sends.len(), 3, "{sends:?}");
    let sent = |id: &str| {
        let guid = format!("pigeon-{id}");
        let mut of = sends.iter().filter(|s| s.temp_guid == guid);
        let one = of.next().unwrap_or_else(|| panic!("{guid} not sent: {sends:?}"));
        assert!(of.next().is_none(), "{guid} sent twice: {sends:?}");
        one
    };
    assert_eq!(sent(&ids[0]).chat_guid, "iMessage;-;+14155550101");
    assert_eq!(sent(&ids[0]).message, hostile);
    assert_eq!(sent(&ids[1]).chat_guid, "SMS;-;+14155550102");
    assert_eq!(sent(&ids[2]).chat_guid, "SMS;-;+14155550113");

    // The receipt of the first comes back as `delivered`.
    bb.deliver(&bb.row_of(&format!("pigeon-{}", ids[0])).guid);
    app.wait_status(&t.live, &ids[0], "delivered").await;
    // A text received is forwarded once.
    bb.receive("+14155550123", "Is this the pharmacy?");
    let inbound = |app: &TestApp| {
        let (api, key) = (app.api.clone(), t.live.clone());
        async move {
            let r =
                api.call("GET", "/v1/messages?direction=inbound", Some(&key), None).await.expect(200, None);
            r.data()
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["body"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    for _ in 0..200 {
        if !inbound(&app).await.is_empty() {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(inbound(&app).await, vec!["Is this the pharmacy?".to_owned()]);

    // While the agent is down the second is delivered and another text arrives; after the
    // restart both reach the node, and nothing is forwarded or sent twice.
    agent.kill9();
    bb.deliver(&bb.row_of(&format!("pigeon-{}", ids[1])).guid);
    bb.receive("+14155550124", "Second text");
    let _agent = AgentProcess::start(&app.api.base, &token, &state, &args);
    let delivered = app.wait_status(&t.live, &ids[1], "delivered").await;
    assert_eq!(delivered["channel_used"], "sms");
    // The first's read receipt, followed on from the journal after the restart: `read`.
    bb.read(&bb.row_of(&format!("pigeon-{}", ids[0])).guid);
    let read = app.wait_status(&t.live, &ids[0], "read").await;
    assert!(read["read_at"].is_string(), "{read}");
    let mut got = Vec::new();
    for _ in 0..200 {
        got = inbound(&app).await;
        if got.len() >= 2 {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    actix_web::rt::time::sleep(Duration::from_millis(500)).await;
    got.sort();
    assert_eq!(inbound(&app).await.len(), 2);
    assert_eq!(got, vec!["Is this the pharmacy?".to_owned(), "Second text".to_owned()]);
    assert_eq!(bb.sends().len(), 3);
}

#[actix_web::test]
async fn check_asks_bluebubbles_and_names_a_wrong_password() {
    let app = spawn_app().await;
    let (_, _, token) = tenant_with_agent_phone(&app).await;
    let bb = spawn_fake_bluebubbles(PASSWORD);
    let (_d, _out, state) = dirs();
    let args = |password: &str| {
        [
            "--check",
            "--server",
            &app.api.base,
            "--token",
            &token,
            "--connector",
            "bluebubbles",
            "--bb-url",
            &bb.url,
        ]
        .iter()
        .map(|s| s.to_string())
        .chain(["--bb-password".into(), password.into(), "--state-dir".into(), state.display().to_string()])
        .collect::<Vec<String>>()
    };
    let (good, bad) = (args(PASSWORD), args("wrong"));
    let (good, bad) =
        actix_web::rt::task::spawn_blocking(move || (agent_cli(good), agent_cli(bad))).await.unwrap();
    assert_eq!(good.0, Some(0), "{}", good.1);
    assert!(good.1.contains("ok   BlueBubbles 1.9.9 on macOS 14.6.1, private API on"), "{}", good.1);
    assert_eq!(bad.0, Some(1));
    assert!(bad.1.contains("FAIL BlueBubbles refused the password (--bb-password)"), "{}", bad.1);
}

#[actix_web::test]
async fn a_kill_9_mid_send_is_settled_from_the_servers_rows_and_not_sent_again() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let bb = spawn_fake_bluebubbles(PASSWORD);
    // Messages writes the row at once but the server answers only 20 s later.
    bb.answer_after(20_000);
    let (_d, _out, state) = dirs();
    let args =
        ["--connector", "bluebubbles", "--bb-url", &bb.url, "--bb-password", PASSWORD, "--poll-ms", "100"];
    let agent = AgentProcess::start(&app.api.base, &token, &state, &args);
    wait_online(&app, &t.live).await;
    let id = app.send_ok(&t.live, "+14155550102").await;
    crate::agent_program::eventually(10, "the server takes the send", || bb.sends().len() == 1).await;
    agent.kill9();
    let _agent = AgentProcess::start(&app.api.base, &token, &state, &args);
    let settled = app.wait_status(&t.live, &id, "sent").await;
    assert_eq!(settled["channel_used"], "sms");
    bb.deliver(&bb.row_of(&format!("pigeon-{id}")).guid);
    app.wait_status(&t.live, &id, "delivered").await;
    assert_eq!(bb.sends().len(), 1, "not sent again");
}
