//! Media on messages: a tenant's upload named on a send, carried to the record, the phone's job
//! and the events with links a receiver fetches without a key; what a send's `media` refuses; and
//! a phone forwarding a file it received. On both stores.

use serde_json::{json, Value};

use crate::helpers::*;
use crate::media::{fetch, link_path, png, sha, upload};

/// Uploads `bytes` as a PNG named `name`; its media id.
async fn uploaded(app: &Api, key: &str, name: &str, bytes: &[u8]) -> String {
    let r =
        upload(app, key, &format!("?filename={name}"), "image/png", bytes.to_vec()).await.expect(201, None);
    r.data()["media_id"].as_str().unwrap().to_owned()
}

/// The bytes behind an attachment's signed link, fetched with no key.
async fn through_link(app: &Api, attachment: &Value) -> Vec<u8> {
    let (status, body, _, _) = fetch(app, &link_path(attachment["url"].as_str().unwrap()), None).await;
    assert_eq!(status, 200, "the link of {attachment} serves its bytes");
    body
}

#[actix_web::test]
async fn media_on_a_send_reaches_the_record_the_job_and_the_events() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let rx = spawn_receiver().await;
    app.register_webhook(&t.live, &rx.url, json!(["message.sent"])).await;
    let (_, token) = app.agent_phone(&t.id, "+14155550999").await;
    let (_, other_token) = app.agent_phone(&t.id, "+14155550998").await;
    assert!(app.poll(&token, 0).await.is_empty() && app.poll(&other_token, 0).await.is_empty());
    let (a, b) = (png(40_000, 3), png(9_000, 4));
    let (ida, idb) = (uploaded(&app, &t.live, "a.png", &a).await, uploaded(&app, &t.live, "b.png", &b).await);

    // Media alone: the record's body is null and its attachments keep their order.
    let r = app.send(&t.live, json!({"to": "+14155550100", "media": [ida, idb]})).await.expect(202, None);
    let id = r.data()["message_id"].as_str().unwrap().to_owned();
    let m = app.message(&t.live, &id).await;
    assert_eq!(m["body"], Value::Null, "{m}");
    let got: Vec<&str> =
        m["media"].as_array().unwrap().iter().map(|x| x["media_id"].as_str().unwrap()).collect();
    assert_eq!(got, [ida.as_str(), idb.as_str()]);
    assert_eq!(
        (
            m["media"][0]["content_type"].as_str(),
            m["media"][0]["size"].as_u64(),
            m["media"][0]["filename"].as_str()
        ),
        (Some("image/png"), Some(a.len() as u64), Some("a.png"))
    );
    assert!(through_link(&app, &m["media"][1]).await == b);

    // The job names the files with their sha256; the phone holding it downloads them, another
    // phone of the same tenant cannot.
    let (mut jobs, mut token, mut other_token) = (app.poll(&token, 0).await, token, other_token);
    if jobs.is_empty() {
        std::mem::swap(&mut token, &mut other_token);
        jobs = app.poll(&token, 0).await;
    }
    assert_eq!(jobs.len(), 1, "one phone holds the job");
    let job = &jobs[0];
    assert_eq!((job["message_id"].as_str(), &job["body"]), (Some(id.as_str()), &Value::Null), "{job}");
    assert_eq!(job["media"][0]["sha256"], sha(&a));
    assert_eq!(job["media"][1]["media_id"], idb.as_str());
    let path = format!("/phone/v1/media/{ida}");
    let (status, body, ctype, _) = fetch(&app, &path, Some(&token)).await;
    assert!(status == 200 && body == a && ctype.as_deref() == Some("image/png"), "{status} {ctype:?}");
    assert_eq!(fetch(&app, &path, Some(&other_token)).await.0, 404, "not the other phone's job");
    assert_eq!(fetch(&app, &path, Some(&t.live)).await.0, 401, "a tenant key is not an agent token");

    // The event carries the attachments too, and once the job is done the phone's right goes.
    app.report(&token, &id, json!({"status": "sent"})).await.expect(200, None);
    let p = rx.wait_for(1).await[0].json();
    assert_eq!((p["event"].as_str(), p["message_id"].as_str()), (Some("message.sent"), Some(id.as_str())));
    assert_eq!(p["media"].as_array().unwrap().len(), 2, "{p}");
    assert!(through_link(&app, &p["media"][0]).await == a);
    assert_eq!(fetch(&app, &path, Some(&token)).await.0, 404, "no job holds it now");

    // Text and media together; a text alone has `media: []`, in the record and in the job.
    let r = app.send(&t.live, json!({"to": "+14155550100", "body": "look", "media": [idb]})).await;
    let both = r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    let m = app.message(&t.live, &both).await;
    assert_eq!((m["body"].as_str(), m["media"].as_array().unwrap().len()), (Some("look"), 1));
    let plain = app.send_ok(&t.live, "+14155550100").await;
    assert_eq!(app.message(&t.live, &plain).await["media"], json!([]));
    let jobs = app.poll(&token, 0).await;
    let by = |mid: &str| jobs.iter().find(|j| j["message_id"] == mid).cloned().unwrap();
    assert_eq!((by(&both)["body"].as_str(), by(&both)["media"].as_array().unwrap().len()), (Some("look"), 1));
    assert_eq!(by(&plain)["media"], json!([]));
}

#[actix_web::test]
async fn a_sends_media_is_checked_by_count_id_and_owner_and_covered_by_its_key() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let other = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let mine = uploaded(&app, &t.live, "mine.png", &png(1_000, 1)).await;
    let theirs = uploaded(&app, &other.live, "theirs.png", &png(1_000, 2)).await;
    let to = "+14155550100";
    let refused = [
        (json!({"to": to, "media": []}), "VALIDATION_ERROR", "media"),
        (json!({"to": to, "media": vec![mine.clone(); 11]}), "VALIDATION_ERROR", "media"),
        (json!({"to": to, "media": [mine, "nope"]}), "INVALID_MEDIA", "media[1]"),
        (json!({"to": to, "media": [mine, theirs]}), "INVALID_MEDIA", "media[1]"),
        (json!({"to": to, "media": ["01J00000000000000000000000"]}), "INVALID_MEDIA", "media[0]"),
        (json!({"to": to}), "VALIDATION_ERROR", "body"),
        (json!({"to": to, "media": [mine], "data": {"a": "b"}}), "VALIDATION_ERROR", "data"),
    ];
    for (body, code, names) in refused {
        let r = app.send(&t.live, body.clone()).await.expect(400, Some(code));
        let error = r.body["error"].as_str().unwrap();
        assert!(error.starts_with(names), "{body} → {error}");
    }
    let listed = app.call("GET", "/v1/messages", Some(&t.live), None).await.expect(200, None);
    assert_eq!(listed.data().as_array().unwrap().len(), 0, "a refused send records nothing");

    // The idempotency key covers media: the same send is the same message, other media a reuse.
    let one = json!({"to": to, "body": "hi", "media": [mine]});
    let (s1, first) = app.send_idem(&t.live, "k-1", one.clone()).await;
    let (s2, again) = app.send_idem(&t.live, "k-1", one).await;
    assert_eq!((s1, s2), (202, 202));
    assert_eq!(first["data"]["message_id"], again["data"]["message_id"]);
    let second = uploaded(&app, &t.live, "second.png", &png(1_000, 5)).await;
    let (s3, reused) =
        app.send_idem(&t.live, "k-1", json!({"to": to, "body": "hi", "media": [second]})).await;
    assert_eq!((s3, reused["code"].as_str()), (409, Some("IDEMPOTENCY_KEY_REUSED")));
    // A sim phone delivers media.
    let id = first["data"]["message_id"].as_str().unwrap();
    let m = app.wait_status(&t.live, id, "delivered").await;
    assert_eq!(m["media"][0]["media_id"], mine.as_str());
}

#[actix_web::test]
async fn a_phone_forwards_a_file_it_received_with_or_without_text() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let rx = spawn_receiver().await;
    app.register_webhook(&t.live, &rx.url, json!(["message.received"])).await;
    let (_, token) = app.agent_phone(&t.id, "+14155550999").await;
    let (_, other_token) = app.agent_phone(&t.id, "+14155550998").await;
    let photo = png(30_000, 9);
    let r = app
        .api
        .raw("POST", "/phone/v1/media?filename=IMG_1.png", Some(&token), "image/png", photo.clone())
        .await;
    let media_id = r.expect(201, None).data()["media_id"].as_str().unwrap().to_owned();
    let (status, body, _, _) = fetch(&app, &format!("/phone/v1/media/{media_id}"), Some(&token)).await;
    assert!(status == 200 && body == photo, "the phone reads back its own upload: {status}");
    // The same rules as a tenant's upload.
    let r = app.api.raw("POST", "/phone/v1/media", Some(&token), "image/png", b"GIF89a....".to_vec()).await;
    r.expect(400, Some("INVALID_MEDIA"));

    let from = "+14155550123";
    let inbound = |tok: String, body: Value| {
        let api = app.api.clone();
        async move { api.call("POST", "/phone/v1/inbound", Some(&tok), Some(body)).await }
    };
    let r = inbound(token.clone(), json!({"from": from, "media": [media_id]})).await.expect(201, None);
    assert_eq!((&r.data()["body"], r.data()["direction"].as_str()), (&Value::Null, Some("inbound")));
    let p = rx.wait_for(1).await[0].json();
    assert_eq!((p["event"].as_str(), &p["body"]), (Some("message.received"), &Value::Null), "{p}");
    assert_eq!(p["media"][0]["filename"], "IMG_1.png");
    assert!(through_link(&app, &p["media"][0]).await == photo);

    // Only this phone's uploads: not another phone's, not the tenant's; and something to say.
    let tenants = uploaded(&app, &t.live, "t.png", &png(100, 1)).await;
    for (tok, body, code) in [
        (&other_token, json!({"from": from, "media": [media_id]}), "INVALID_MEDIA"),
        (&token, json!({"from": from, "body": "x", "media": [tenants]}), "INVALID_MEDIA"),
        (&token, json!({"from": from}), "VALIDATION_ERROR"),
        (&token, json!({"from": from, "media": []}), "VALIDATION_ERROR"),
    ] {
        inbound(tok.clone(), body).await.expect(400, Some(code));
    }
    // Messages' attachment placeholder (U+FFFC) is dropped from the text: the file is in `media`.
    let r =
        inbound(token.clone(), json!({"from": from, "body": "\u{fffc}and this", "media": [media_id]})).await;
    let m = r.expect(201, None).data().clone();
    assert_eq!(
        (m["body"].as_str(), m["media"][0]["media_id"].as_str()),
        (Some("and this"), Some(media_id.as_str()))
    );
    let r = inbound(token.clone(), json!({"from": from, "body": "\u{fffc}", "media": [media_id]})).await;
    assert_eq!(r.expect(201, None).data()["body"], Value::Null, "the placeholder alone is no text");
}
