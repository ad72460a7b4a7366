//! `pigeon agent --connector messages`, the real executable, between a real node and a fake Mac:
//! a fake `osascript` that writes the rows Messages would into a fixture `chat.db` with macOS 14's
//! schema (`tests/fixtures/messages/`). Sends run the program once each with the text as an
//! argument; rows become `sent`, `delivered`, `read`, `failed`; texts received arrive once, also when only
//! `attributedBody` holds them, and across a restart; a `kill -9` mid-send is settled from chat.db.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};

use crate::agent_program::{
    agent_cli, dirs, eventually, lines, tenant_with_agent_phone, wait_online, AgentProcess,
};
use crate::helpers::*;

pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/messages")
}

/// Runs `chatdb.py ARGS`; its stdout.
pub(crate) fn chatdb(args: &[&str]) -> String {
    let out =
        Command::new("python3").arg(fixtures().join("chatdb.py")).args(args).output().expect("python3 runs");
    assert!(out.status.success(), "chatdb.py {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// Inbound texts the tenant has, oldest first.
async fn inbound(app: &TestApp, key: &str) -> Vec<String> {
    let r = app.call("GET", "/v1/messages?direction=inbound", Some(key), None).await.expect(200, None);
    let mut v: Vec<String> =
        r.data().as_array().unwrap().iter().map(|m| m["body"].as_str().unwrap().to_owned()).collect();
    v.reverse();
    v
}

#[actix_web::test]
async fn messages_sends_by_osascript_reads_chat_db_and_survives_a_kill_9() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let (d, _out, state) = dirs();
    let db = d.path().join("chat.db");
    let log = d.path().join("osascript.log");
    let db_s = db.to_str().unwrap().to_owned();
    chatdb(&["create", &db_s]);
    chatdb(&["receive", &db_s, "+14155550199", "from before the agent"]);
    let osascript = fixtures().join("osascript");
    let args = [
        "--connector",
        "messages",
        "--osascript",
        osascript.to_str().unwrap(),
        "--chat-db",
        &db_s,
        "--poll-ms",
        "100",
        "--send-timeout",
        "5s",
    ];
    let env = [
        ("FAKE_CHAT_DB", db_s.as_str()),
        ("FAKE_OSASCRIPT_LOG", log.to_str().unwrap()),
        ("FAKE_REFUSE", "+14155550113"),
        ("FAKE_ROW_ERROR", "+14155550114"),
    ];
    let agent = AgentProcess::start_with_env(&app.api.base, &token, &state, &args, &env);
    wait_online(&app, &t.live).await;

    let hostile = "\" & (do shell script \"touch /tmp/pigeon-pwned\") & \"\nend tell\n$(id) `id` ✓";
    let mut ids = Vec::new();
    for (to, body) in [("+14155550101", hostile), ("+14155550113", "refused"), ("+14155550114", "row error")]
    {
        let r = app.send(&t.live, json!({"to": to, "body": body})).await.expect(202, None);
        ids.push(r.data()["message_id"].as_str().unwrap().to_owned());
    }
    let sent = app.wait_status(&t.live, &ids[0], "sent").await;
    assert_eq!(sent["channel_used"], "imessage");
    let refused = app.wait_status(&t.live, &ids[1], "failed").await;
    assert!(
        refused["failure_reason"].as_str().unwrap().contains("Messages got an error: Can’t get participant"),
        "{refused}"
    );
    let row_error = app.wait_status(&t.live, &ids[2], "failed").await;
    assert_eq!(row_error["failure_reason"], "Messages could not send it (error 22)");
    // The program ran once per send (the sends run at once), with the text as one argument, byte
    // for byte.
    let calls: Vec<Value> = lines(&log).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(calls.len(), 3, "{calls:?}");
    assert!(calls.contains(&json!(["+14155550101", hostile, "iMessage"])), "{calls:?}");
    assert!(!Path::new("/tmp/pigeon-pwned").exists());
    let program = std::fs::read_to_string(state.join("send.applescript")).unwrap();
    assert!(program.contains("on run argv") && !program.contains("touch"));

    // Its receipt: `delivered`.
    let first_row = chatdb(&["rowid", &db_s, "+14155550101"]);
    chatdb(&["deliver", &db_s, &first_row]);
    app.wait_status(&t.live, &ids[0], "delivered").await;

    // A text received whose words are only in attributedBody; the one from before is not forwarded.
    chatdb(&["receive", &db_s, "+14155550123", "Où est la pharmacie ? ✓", "--attributed"]);
    let (a, key) = (&app, t.live.clone());
    for _ in 0..200 {
        if !inbound(a, &key).await.is_empty() {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(inbound(&app, &t.live).await, vec!["Où est la pharmacie ? ✓".to_owned()]);

    // `kill -9` while osascript is still running (the row is already in chat.db): the restarted
    // agent settles the send from chat.db as `sent`, and does not send it again.
    // The killed agent's poll ends with its connection, so the next job is not leased to it.
    drop(agent);
    let slow = [env.as_slice(), &[("FAKE_SLOW", "20")]].concat();
    let agent = AgentProcess::start_with_env(&app.api.base, &token, &state, &args, &slow);
    wait_online(&app, &t.live).await;
    let id = app.send(&t.live, json!({"to": "+14155550102", "body": "slow one"})).await.expect(202, None);
    let id = id.data()["message_id"].as_str().unwrap().to_owned();
    eventually(10, "osascript writes the row", || !chatdb(&["rowid", &db_s, "+14155550102"]).is_empty())
        .await;
    agent.kill9();
    chatdb(&["receive", &db_s, "+14155550124", "while the agent was down"]);
    let _agent = AgentProcess::start_with_env(&app.api.base, &token, &state, &args, &env);
    let settled = app.wait_status(&t.live, &id, "sent").await;
    assert_eq!(settled["channel_used"], "imessage");
    let rowid = chatdb(&["rowid", &db_s, "+14155550102"]);
    chatdb(&["deliver", &db_s, &rowid]);
    app.wait_status(&t.live, &id, "delivered").await;
    // Read receipts: one settled from chat.db after the restart, and one delivered before it
    // (the restarted agent follows it on from the journal).
    chatdb(&["read", &db_s, &rowid]);
    let read = app.wait_status(&t.live, &id, "read").await;
    assert!(read["read_at"].is_string() && read["delivered_at"].is_string(), "{read}");
    chatdb(&["read", &db_s, &first_row]);
    app.wait_status(&t.live, &ids[0], "read").await;
    for _ in 0..200 {
        if inbound(&app, &t.live).await.len() >= 2 {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    let mut got = inbound(&app, &t.live).await;
    got.sort();
    assert_eq!(got, vec!["Où est la pharmacie ? ✓".to_owned(), "while the agent was down".to_owned()]);
    assert_eq!(lines(&log).len(), 4, "each send ran osascript once");
}

#[actix_web::test]
async fn check_names_a_chat_db_it_cannot_read() {
    let app = spawn_app().await;
    let (_, _, token) = tenant_with_agent_phone(&app).await;
    let (d, _out, state) = dirs();
    let db = d.path().join("chat.db");
    chatdb(&["create", db.to_str().unwrap()]);
    let osascript = fixtures().join("osascript");
    let args = |chat_db: &Path| {
        vec![
            "--check".to_owned(),
            "--server".into(),
            app.api.base.clone(),
            "--token".into(),
            token.clone(),
            "--connector".into(),
            "messages".into(),
            "--osascript".into(),
            osascript.display().to_string(),
            "--chat-db".into(),
            chat_db.display().to_string(),
            "--state-dir".into(),
            state.display().to_string(),
        ]
    };
    let (good, bad) = (args(&db), args(&d.path().join("missing/chat.db")));
    let (good, bad) =
        actix_web::rt::task::spawn_blocking(move || (agent_cli(good), agent_cli(bad))).await.unwrap();
    assert_eq!(good.0, Some(0), "{}", good.1);
    assert!(
        good.1.contains("is readable (0 messages)") && good.1.contains("may control Messages"),
        "{}",
        good.1
    );
    assert_eq!(bad.0, Some(1));
    assert!(bad.1.contains("FAIL cannot read") && bad.1.contains("Full Disk Access"), "{}", bad.1);
}
