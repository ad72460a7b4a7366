//! `pigeon agent` with attachments: the real executable downloads each one with its token,
//! checks it against the job's sha256, and hands the `command` connector local files in place
//! of `{media}`, and the `messages` connector AppleScript's `POSIX file`s whose chat.db rows it
//! follows; bytes that are not the job's are never sent; a connector that cannot send
//! attachments fails the message and says why; `pigeon agent inbound --media` forwards files a
//! phone received, once however often it is retried; `bluebubbles` sends files multipart; files
//! received through `messages` and `bluebubbles` wait until the phone has them whole.

use std::path::Path;

use serde_json::json;

use crate::agent_messages::{chatdb, fixtures};
use crate::agent_program::{
    agent_cli, dirs, lines, shell_quote, tenant_with_agent_phone, wait_online, AgentProcess,
};
use crate::helpers::*;
use crate::media::{png, sha};

/// A send command that keeps the body it was given in `out/body`, copies each file after it
/// into `out/` under its own name, and writes how many there were to `out/count`.
fn copying_command(out: &Path) -> String {
    let script = r#"printf "%s" "$1" > "$0/body"; shift; for f in "$@"; do cp "$f" "$0/"; done; echo "$#" > "$0/count""#;
    shell_quote(&["sh", "-c", script, out.to_str().unwrap(), "{body}", "{media}"])
}

async fn upload_as(app: &Api, key: &str, query: &str, ctype: &str, bytes: &[u8]) -> String {
    let r = app.raw("POST", &format!("/v1/media{query}"), Some(key), ctype, bytes.to_vec()).await;
    r.expect(201, None).data()["media_id"].as_str().unwrap().to_owned()
}

#[actix_web::test]
async fn the_command_connector_gets_each_attachment_as_a_checked_local_file() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let (_d, out, state) = dirs();
    let _agent = AgentProcess::start(
        &app.api.base,
        &token,
        &state,
        &["--connector", "command", "--send-command", &copying_command(&out)],
    );
    wait_online(&app, &t.live).await;
    let photo = png(300_000, 6);
    let pdf = b"%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n".to_vec();
    let photo_id = upload_as(&app, &t.live, "?filename=cat.png", "image/png", &photo).await;
    let pdf_id = upload_as(&app, &t.live, "", "application/pdf", &pdf).await;

    let r =
        app.send(&t.live, json!({"to": "+14155550100", "body": "look", "media": [photo_id, pdf_id]})).await;
    let id = r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    app.wait_status(&t.live, &id, "sent").await;
    assert_eq!(std::fs::read_to_string(out.join("count")).unwrap().trim(), "2");
    assert_eq!(std::fs::read_to_string(out.join("body")).unwrap(), "look");
    assert!(std::fs::read(out.join("cat.png")).unwrap() == photo, "the photo arrives whole, under its name");
    assert!(
        std::fs::read(out.join(format!("{pdf_id}.pdf"))).unwrap() == pdf,
        "no name: the id and the type's extension"
    );

    // Media alone: `{body}` is empty.
    let r = app.send(&t.live, json!({"to": "+14155550100", "media": [pdf_id]})).await;
    let id = r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    app.wait_status(&t.live, &id, "sent").await;
    assert_eq!(std::fs::read_to_string(out.join("body")).unwrap(), "");
    assert_eq!(std::fs::read_to_string(out.join("count")).unwrap().trim(), "1");

    // Bytes gone bad on the node's disk are refused by the agent and never reach the command.
    if !on_postgres() {
        let bad = png(5_000, 8);
        let bad_id = upload_as(&app, &t.live, "?filename=rot.png", "image/png", &bad).await;
        let file = app.data_dir().join("media").join(sha(&bad));
        let mut perms = std::fs::metadata(&file).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        std::fs::set_permissions(&file, perms).unwrap();
        std::fs::write(&file, png(5_000, 10)).unwrap();
        let r = app.send(&t.live, json!({"to": "+14155550100", "media": [bad_id]})).await;
        let id = r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
        let m = app.wait_status(&t.live, &id, "failed").await;
        assert!(m["failure_reason"].as_str().unwrap().contains("sha256"), "{m}");
        assert!(!out.join("rot.png").exists(), "the command never saw it");
    }
}

#[actix_web::test]
async fn a_connector_that_cannot_send_attachments_fails_the_message_and_says_why() {
    let app = spawn_app().await;
    let (t, phone, token) = tenant_with_agent_phone(&app).await;
    let (_d, out, state) = dirs();
    let text_only =
        shell_quote(&["sh", "-c", r#"printf "%s" "$1" > "$0/body""#, out.to_str().unwrap(), "{body}"]);
    let _agent = AgentProcess::start(
        &app.api.base,
        &token,
        &state,
        &["--connector", "command", "--send-command", &text_only],
    );
    wait_online(&app, &t.live).await;
    let media = upload_as(&app, &t.live, "", "image/png", &png(1_000, 1)).await;
    let r = app.send(&t.live, json!({"to": "+14155550100", "body": "hi", "media": [media]})).await;
    let id = r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    let m = app.wait_status(&t.live, &id, "failed").await;
    assert!(m["failure_reason"].as_str().unwrap().contains("{media}"), "{m}");
    assert!(!out.join("body").exists(), "the text did not go without its attachment");
    // Not the phone's fault: it stays enabled and sends the next text.
    let p = app.call("GET", &format!("/admin/v1/phones?tenant_id={}", t.id), Some(ADMIN), None).await;
    let p = p.expect(200, None).data()[0].clone();
    assert_eq!((p["id"].as_str(), &p["enabled"]), (Some(phone.as_str()), &json!(true)), "{p}");
    let id = app.send_ok(&t.live, "+14155550100").await;
    app.wait_status(&t.live, &id, "sent").await;
}

#[actix_web::test]
async fn inbound_with_media_uploads_each_file_and_a_retry_records_the_text_once() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let dir = tempfile::tempdir().unwrap();
    let (photo, card) = (dir.path().join("IMG_0042.PNG"), dir.path().join("Ann.vcf"));
    let photo_bytes = png(20_000, 12);
    std::fs::write(&photo, &photo_bytes).unwrap();
    std::fs::write(&card, "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nEND:VCARD\r\n").unwrap();
    let base = app.api.base.clone();
    let run = |extra: Vec<String>| {
        let mut args =
            vec!["inbound".to_owned(), "--server".into(), base.clone(), "--token".into(), token.clone()];
        args.extend(["--from".to_owned(), "+14155550123".to_owned()]);
        args.extend(extra);
        actix_web::rt::task::spawn_blocking(move || agent_cli(args))
    };
    let files = |v: &[&Path]| {
        v.iter().flat_map(|p| ["--media".to_owned(), p.display().to_string()]).collect::<Vec<_>>()
    };

    // Files alone, retried with the same id: one message, its files in order.
    for _ in 0..2 {
        let mut extra = files(&[&photo, &card]);
        extra.extend(["--id".to_owned(), "mms-7".to_owned()]);
        let (code, _, err) = run(extra).await.unwrap();
        assert_eq!(code, Some(0), "{err}");
    }
    let r = app.call("GET", "/v1/messages?direction=inbound", Some(&t.live), None).await.expect(200, None);
    let got = r.data().as_array().unwrap().clone();
    assert_eq!(got.len(), 1, "a retried forward is the same text: {got:?}");
    let m = &got[0];
    assert_eq!(m["body"], serde_json::Value::Null);
    let media: Vec<(&str, &str)> = m["media"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["filename"].as_str().unwrap(), a["content_type"].as_str().unwrap()))
        .collect();
    assert_eq!(media, [("IMG_0042.PNG", "image/png"), ("Ann.vcf", "text/vcard")]);
    let (status, body, _, _) =
        crate::media::fetch(&app, &crate::media::link_path(m["media"][0]["url"].as_str().unwrap()), None)
            .await;
    assert!(status == 200 && body == photo_bytes);

    // A file of a type the node does not take is refused before anything is sent.
    let exe = dir.path().join("setup.exe");
    std::fs::write(&exe, b"MZ").unwrap();
    let mut extra = files(&[&exe]);
    extra.extend(["--body".to_owned(), "x".to_owned()]);
    let (code, _, err) = run(extra).await.unwrap();
    assert_eq!(code, Some(1));
    assert!(err.contains("setup.exe") && err.contains("extension"), "{err}");
    let r = app.call("GET", "/v1/messages?direction=inbound", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 1);
}

#[actix_web::test]
async fn messages_sends_attachments_as_posix_files_and_follows_their_rows() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let (d, out, state) = dirs();
    let (db, log) = (d.path().join("chat.db"), d.path().join("osascript.log"));
    let db_s = db.to_str().unwrap().to_owned();
    chatdb(&["create", &db_s]);
    let osascript = fixtures().join("osascript");
    let args = ["--connector", "messages", "--osascript", osascript.to_str().unwrap(), "--chat-db", &db_s];
    let args = [&args[..], &["--poll-ms", "100", "--send-timeout", "5s"]].concat();
    let env = [
        ("FAKE_CHAT_DB", db_s.as_str()),
        ("FAKE_OSASCRIPT_LOG", log.to_str().unwrap()),
        ("FAKE_SENT_FILES", out.to_str().unwrap()),
    ];
    let _agent = AgentProcess::start_with_env(&app.api.base, &token, &state, &args, &env);
    wait_online(&app, &t.live).await;
    let photo = png(60_000, 14);
    let id = upload_as(&app, &t.live, "?filename=cat.png", "image/png", &photo).await;

    let send = |to: &str, body: serde_json::Value| {
        let (api, key, to) = (app.api.clone(), t.live.clone(), to.to_owned());
        async move {
            let mut b = body;
            b["to"] = json!(to);
            let r = api.send(&key, b).await.expect(202, None);
            r.data()["message_id"].as_str().unwrap().to_owned()
        }
    };
    let with_text = send("+14155550101", json!({"body": "look", "media": [id]})).await;
    let alone = send("+14155550102", json!({"media": [id]})).await;
    app.wait_status(&t.live, &with_text, "sent").await;
    app.wait_status(&t.live, &alone, "sent").await;
    let calls: Vec<Vec<String>> = lines(&log).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let call = |to: &str| calls.iter().find(|c| c[0] == to).cloned().unwrap();
    let (a, b) = (call("+14155550101"), call("+14155550102"));
    assert_eq!((&a[1..3], a.len()), (&["look".to_owned(), "iMessage".to_owned()][..], 4), "{a:?}");
    assert_eq!((b[1].as_str(), b.len()), ("", 4), "a file alone has an empty text: {b:?}");
    assert!(a[3].starts_with(state.to_str().unwrap()) && a[3].ends_with("/cat.png"), "{a:?}");
    assert!(std::fs::read(out.join("cat.png")).unwrap() == photo, "Messages got the file whole");

    // The file alone is followed by its attachment's row: that row's receipt is the message's.
    let row = chatdb(&["rowid", &db_s, "+14155550102"]);
    chatdb(&["deliver", &db_s, &row]);
    app.wait_status(&t.live, &alone, "delivered").await;
}

/// The inbound messages the tenant has, oldest first.
async fn inbound_records(app: &TestApp, key: &str) -> Vec<serde_json::Value> {
    let r = app.call("GET", "/v1/messages?direction=inbound", Some(key), None).await.expect(200, None);
    let mut v = r.data().as_array().unwrap().clone();
    v.reverse();
    v
}

/// Waits until the tenant has `n` inbound messages; them, oldest first.
async fn wait_inbound(app: &TestApp, key: &str, n: usize) -> Vec<serde_json::Value> {
    for _ in 0..200 {
        let got = inbound_records(app, key).await;
        if got.len() >= n {
            return got;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("fewer than {n} inbound messages: {:?}", inbound_records(app, key).await);
}

#[actix_web::test]
async fn bluebubbles_sends_files_by_multipart_and_forwards_files_once_downloaded() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let bb = crate::fake_bluebubbles::spawn_fake_bluebubbles("pw");
    bb.has_imessage("+14155550101");
    let (_d, _out, state) = dirs();
    let args = ["--connector", "bluebubbles", "--bb-url", &bb.url, "--bb-password", "pw", "--poll-ms", "100"];
    let agent = AgentProcess::start(&app.api.base, &token, &state, &args);
    wait_online(&app, &t.live).await;

    // Out: the text, then each file as its own multipart send named as it was uploaded.
    let photo = png(40_000, 21);
    let id = upload_as(&app, &t.live, "?filename=cat%20photo.png", "image/png", &photo).await;
    let card = b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nEND:VCARD\r\n".to_vec();
    let card_id = upload_as(&app, &t.live, "?filename=Ann.vcf", "text/vcard", &card).await;
    let r = app.send(&t.live, json!({"to": "+14155550101", "body": "look", "media": [id, card_id]})).await;
    let with_text = r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    app.wait_status(&t.live, &with_text, "sent").await;
    let r = app.send(&t.live, json!({"to": "+14155550102", "media": [id]})).await;
    let alone = r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    app.wait_status(&t.live, &alone, "sent").await;
    let sends = bb.sends();
    let of = |to: &str| sends.iter().filter(|s| s.chat_guid.ends_with(to)).cloned().collect::<Vec<_>>();
    let a = of("+14155550101");
    assert_eq!(a.len(), 3, "{a:?}");
    assert_eq!((a[0].message.as_str(), a[0].file.is_none()), ("look", true));
    assert_eq!(a[0].temp_guid, format!("pigeon-{with_text}"));
    assert_eq!(
        a[1].file,
        Some(("cat photo.png".to_owned(), photo.clone())),
        "the file whole, under its name"
    );
    assert_eq!(a[2].file, Some(("Ann.vcf".to_owned(), card.clone())));
    assert_ne!(a[1].temp_guid, a[2].temp_guid, "each send its own temp guid");
    let b = of("+14155550102");
    assert_eq!((b.len(), b[0].chat_guid.as_str()), (1, "SMS;-;+14155550102"), "a file alone: {b:?}");
    // The file alone is followed by its own row.
    bb.deliver(&bb.row_of(&b[0].temp_guid).guid);
    app.wait_status(&t.live, &alone, "delivered").await;

    // In: a photo Messages has not downloaded yet waits, and the text after it goes on.
    let pic = png(30_000, 22);
    let guids = bb.receive_files("+14155550123", "", &[("IMG_0007.PNG", "image/png", &pic, false)]);
    bb.receive("+14155550123", "did you get the photo?");
    let got = wait_inbound(&app, &t.live, 1).await;
    assert_eq!(got[0]["body"], "did you get the photo?");
    // Held across a restart: downloaded while the agent is down, it is forwarded once after.
    agent.kill9();
    bb.download(&guids[0]);
    let _agent = AgentProcess::start(&app.api.base, &token, &state, &args);
    let got = wait_inbound(&app, &t.live, 2).await;
    let m = got.iter().find(|m| m["body"].is_null()).unwrap_or_else(|| panic!("{got:?}"));
    assert_eq!(m["media"][0]["filename"], "IMG_0007.PNG");
    assert_eq!(m["media"][0]["content_type"], "image/png");
    let url = crate::media::link_path(m["media"][0]["url"].as_str().unwrap());
    let (status, bytes, _, _) = crate::media::fetch(&app, &url, None).await;
    assert!(status == 200 && bytes == pic, "the file as the phone received it");
    actix_web::rt::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(inbound_records(&app, &t.live).await.len(), 2);
    assert_eq!(bb.downloads_of(&guids[0]), 1);
}

#[actix_web::test]
async fn messages_forwards_files_from_chat_db_once_messages_has_downloaded_them_whole() {
    let app = spawn_app().await;
    let (t, _, token) = tenant_with_agent_phone(&app).await;
    let (d, _out, state) = dirs();
    let (db, home) = (d.path().join("chat.db"), d.path().join("home"));
    let (db_s, home_s) = (db.to_str().unwrap().to_owned(), home.to_str().unwrap().to_owned());
    chatdb(&["create", &db_s]);
    let osascript = fixtures().join("osascript");
    let args = ["--connector", "messages", "--osascript", osascript.to_str().unwrap(), "--chat-db", &db_s];
    let args = [&args[..], &["--poll-ms", "100"]].concat();
    let _agent = AgentProcess::start_with_env(&app.api.base, &token, &state, &args, &[("HOME", &home_s)]);
    wait_online(&app, &t.live).await;

    let (photo, card) = (d.path().join("IMG_0101.png"), d.path().join("Ann.vcf"));
    let photo_bytes = png(50_000, 31);
    std::fs::write(&photo, &photo_bytes).unwrap();
    std::fs::write(&card, "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nEND:VCARD\r\n").unwrap();
    // The photo is still downloading when its row appears; the text after it goes on.
    let kept =
        chatdb(&["receive-file", &db_s, "+14155550123", "", photo.to_str().unwrap(), &home_s, "--later"]);
    assert!(kept.starts_with(&format!("{home_s}/Library/Messages/Attachments/")), "{kept}");
    chatdb(&["receive-file", &db_s, "+14155550123", "here is Ann", card.to_str().unwrap(), &home_s]);
    let got = wait_inbound(&app, &t.live, 1).await;
    assert_eq!(got[0]["body"], "here is Ann", "the placeholder is dropped: {}", got[0]);
    assert_eq!(got[0]["media"][0]["filename"], "Ann.vcf");
    assert_eq!(got[0]["media"][0]["content_type"], "text/vcard");

    // Half of it on disk is not the file: it waits on.
    std::fs::create_dir_all(Path::new(&kept).parent().unwrap()).unwrap();
    std::fs::write(&kept, &photo_bytes[..25_000]).unwrap();
    actix_web::rt::time::sleep(std::time::Duration::from_millis(600)).await;
    assert_eq!(inbound_records(&app, &t.live).await.len(), 1);
    std::fs::write(&kept, &photo_bytes).unwrap();
    let got = wait_inbound(&app, &t.live, 2).await;
    let m = got.iter().find(|m| m["body"].is_null()).unwrap_or_else(|| panic!("{got:?}"));
    assert_eq!(m["media"][0]["filename"], "IMG_0101.png");
    let url = crate::media::link_path(m["media"][0]["url"].as_str().unwrap());
    let (status, bytes, _, _) = crate::media::fetch(&app, &url, None).await;
    assert!(status == 200 && bytes == photo_bytes, "the whole file");
    actix_web::rt::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(inbound_records(&app, &t.live).await.len(), 2, "each once");
}
