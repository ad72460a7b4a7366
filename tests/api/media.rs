//! Media as a tenant uploads and reads it, and as a receiver fetches it by a signed link: the
//! types and first bytes taken, the size refused while the bytes still arrive, the account's
//! bound, other tenants' ids, and a file acknowledged surviving `kill -9`. On both stores.

use std::io::{Read, Write};
use std::time::Duration;

use serde_json::json;
use sha2::{Digest, Sha256};

use crate::helpers::*;

/// A PNG's signature followed by `len` bytes that compress badly.
pub(crate) fn png(len: usize, seed: u8) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut x = (seed as u32) << 1 | 1;
    b.extend((0..len).map(|_| {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x as u8
    }));
    b
}

pub(crate) fn sha(b: &[u8]) -> String {
    hex::encode(Sha256::digest(b))
}

pub(crate) async fn upload(api: &Api, key: &str, query: &str, ctype: &str, body: Vec<u8>) -> Resp {
    api.raw("POST", &format!("/v1/media{query}"), Some(key), ctype, body).await
}

/// Bytes, content type and ETag of a GET, with or without a key.
pub(crate) async fn fetch(
    api: &Api,
    path: &str,
    key: Option<&str>,
) -> (u16, Vec<u8>, Option<String>, Option<String>) {
    let mut req = api.client.get(format!("{}{path}", api.base));
    if let Some(k) = key {
        req = req.insert_header(("Authorization", format!("Bearer {k}")));
    }
    let mut res = req.send().await.expect("request sent");
    let header = |n: &str| res.headers().get(n).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let (ctype, etag) = (header("content-type"), header("etag"));
    let body = res.body().limit(64 << 20).await.unwrap().to_vec();
    (res.status().as_u16(), body, ctype, etag)
}

/// The path and query of a record's signed link.
pub(crate) fn link_path(url: &str) -> String {
    url.split_once("/v1/").map(|(_, rest)| format!("/v1/{rest}")).unwrap()
}

#[actix_web::test]
async fn an_upload_is_served_whole_by_key_and_by_a_signed_link_until_it_expires() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let bytes = png(700_000, 7);
    let r = upload(&app, &t.live, "?filename=cat%20photo.png", "image/png", bytes.clone())
        .await
        .expect(201, None);
    let m = r.data().clone();
    assert_eq!(
        (m["content_type"].as_str(), m["size"].as_u64(), m["filename"].as_str()),
        (Some("image/png"), Some(bytes.len() as u64), Some("cat photo.png"))
    );
    assert_eq!(m["sha256"], sha(&bytes));
    let id = m["media_id"].as_str().unwrap().to_owned();
    let got = app.call("GET", &format!("/v1/media/{id}"), Some(&t.live), None).await.expect(200, None);
    assert_eq!((&got.data()["sha256"], &got.data()["created_at"]), (&m["sha256"], &m["created_at"]));

    let (status, body, ctype, etag) = fetch(&app, &format!("/v1/media/{id}/content"), Some(&t.live)).await;
    assert_eq!((status, ctype.as_deref()), (200, Some("image/png")));
    assert!(body == bytes, "the bytes come back as they went in");
    assert_eq!(etag, Some(format!("\"{}\"", sha(&bytes))));
    let cached = app
        .client
        .get(format!("{}/v1/media/{id}/content", app.base))
        .insert_header(("Authorization", format!("Bearer {}", t.live)))
        .insert_header(("If-None-Match", etag.clone().unwrap()))
        .send()
        .await
        .unwrap();
    assert_eq!(cached.status(), 304);

    // Another tenant's id is not found, by record or by content; no key and no link is a 401.
    let other = app.create_tenant("starter").await;
    app.call("GET", &format!("/v1/media/{id}"), Some(&other.live), None).await.expect(404, Some("NOT_FOUND"));
    assert_eq!(fetch(&app, &format!("/v1/media/{id}/content"), Some(&other.live)).await.0, 404);
    app.call("GET", &format!("/v1/media/{id}/content"), None, None)
        .await
        .expect(401, Some("INVALID_API_KEY"));

    // The link needs no key, and is good for this id, this expiry, this signature only.
    let url = m["url"].as_str().unwrap();
    assert!(url.starts_with(&app.base), "{url} names the node");
    let link = link_path(url);
    let (status, body, _, _) = fetch(&app, &link, None).await;
    assert!(status == 200 && body == bytes, "the link serves the bytes: {status}");
    let sig = link.rsplit_once("signature=").unwrap().1.to_owned();
    let flipped = format!("{}{}", if sig.starts_with('0') { '1' } else { '0' }, &sig[1..]);
    let expires: i64 = link.split("expires=").nth(1).unwrap().split('&').next().unwrap().parse().unwrap();
    for bad in [
        link.replace(&sig, &flipped),
        link.replace(&format!("expires={expires}"), &format!("expires={}", expires + 60)),
        format!("/v1/media/{id}/content?expires={expires}"),
        link.replace(&id, other.id.as_str()),
    ] {
        let r = app.call("GET", &bad, None, None).await;
        r.expect(403, Some("INVALID_SIGNATURE"));
    }
    // Seven days on it has expired; the record gives a fresh one.
    app.clock.advance(Duration::from_secs(7 * 24 * 3600 + 1));
    app.call("GET", &link, None, None).await.expect(403, Some("INVALID_SIGNATURE"));
    let fresh = app.call("GET", &format!("/v1/media/{id}"), Some(&t.live), None).await.expect(200, None);
    let fresh = link_path(fresh.data()["url"].as_str().unwrap());
    assert_eq!(fetch(&app, &fresh, None).await.0, 200);

    // The same bytes again are a record of their own, stored once.
    let again = upload(&app, &t.live, "", "image/png", bytes.clone()).await.expect(201, None);
    assert_ne!(again.data()["media_id"], m["media_id"]);
    assert_eq!(again.data()["sha256"], m["sha256"]);
    assert_eq!(app.stored_media(), vec![sha(&bytes)], "one file for both records");
}

#[actix_web::test]
async fn uploads_are_refused_by_type_bytes_and_size_and_leave_nothing() {
    let app = spawn_app_configured(|s| s.media_max_bytes = 1 << 20).await;
    let t = app.create_tenant("starter").await;
    let key = t.live.as_str();
    let jpeg = [&[0xff, 0xd8, 0xff, 0xe0][..], &[0u8; 64]].concat();
    for (ctype, body, says) in [
        ("application/zip", b"PK\x03\x04....".to_vec(), "application/zip"),
        ("", png(10, 1), "Content-Type"),
        ("image/png", jpeg.clone(), "not image/png"),
        ("application/pdf", png(10, 1), "not application/pdf"),
        ("text/plain", Vec::new(), "empty"),
    ] {
        let r = upload(&app, key, "", ctype, body).await.expect(400, Some("INVALID_MEDIA"));
        assert!(r.body["error"].as_str().unwrap().contains(says), "{ctype}: {}", r.body);
    }
    upload(&app, key, "", "image/jpeg; charset=binary", jpeg).await.expect(201, None);
    upload(&app, key, "?filename=a/b.png", "image/png", png(10, 1))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    upload(&app, key, "?name=x", "image/png", png(10, 1)).await.expect(400, Some("VALIDATION_ERROR"));
    // Announced too large: refused before a byte is read.
    let r = upload(&app, key, "", "image/png", png(2 << 20, 2)).await.expect(413, Some("PAYLOAD_TOO_LARGE"));
    assert!(r.body["error"].as_str().unwrap().contains("1048576"), "{}", r.body);

    // Streamed without a length: the answer comes while the client is still sending.
    let addr = app.base.trim_start_matches("http://").to_owned();
    let key_owned = key.to_owned();
    let answer = actix_web::rt::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(
            s,
            "POST /v1/media HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key_owned}\r\nContent-Type: image/png\r\n\
             Transfer-Encoding: chunked\r\n\r\n"
        )
        .unwrap();
        let chunk = png(64 * 1024 - 8, 3);
        // 1.5 MiB of the 3 MiB announced by nothing: the node refuses once it passes 1 MiB.
        for _ in 0..24 {
            write!(s, "{:x}\r\n", chunk.len()).unwrap();
            s.write_all(&chunk).unwrap();
            s.write_all(b"\r\n").unwrap();
        }
        let mut head = [0u8; 512];
        let n = s.read(&mut head).unwrap();
        String::from_utf8_lossy(&head[..n]).into_owned()
    })
    .await
    .unwrap();
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("PAYLOAD_TOO_LARGE"), "{answer}");
    assert_eq!(app.stored_media().len(), 1, "only the JPEG is kept");
    if !on_postgres() {
        let spools = std::fs::read_dir(app.data_dir().join("media/spool")).unwrap().count();
        assert_eq!(spools, 0, "no spool is left behind");
    }
}

#[actix_web::test]
async fn the_media_bound_is_the_plans_unless_the_operator_sets_one() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    assert_eq!(t.record["media_bytes_limit"], 100 * 1024 * 1024);
    let r = app.patch_tenant(&t.id, json!({"media_bytes_limit": 100_000})).await.expect(200, None);
    assert_eq!(r.data()["media_bytes_limit"], 100_000);
    upload(&app, &t.live, "", "image/png", png(60_000, 1)).await.expect(201, None);
    // The second would pass the bound: refused whether announced or not, and nothing is counted.
    let r = upload(&app, &t.live, "", "image/png", png(60_000, 2)).await.expect(409, Some("LIMIT_REACHED"));
    assert!(r.body["error"].as_str().unwrap().contains("39992 bytes are left"), "{}", r.body);
    upload(&app, &t.live, "", "image/png", png(39_000, 3)).await.expect(201, None);
    // Test keys count against the same bound.
    upload(&app, &t.test, "", "image/png", png(1_000, 4)).await.expect(409, Some("LIMIT_REACHED"));
    let r = app.patch_tenant(&t.id, json!({"media_bytes_limit": null})).await.expect(200, None);
    assert_eq!(r.data()["media_bytes_limit"], 100 * 1024 * 1024);
    upload(&app, &t.test, "", "image/png", png(60_000, 5)).await.expect(201, None);
    // A key that may only read cannot upload.
    let ro = app.create_key(&t.live, json!({"name": "ro", "scopes": ["read"]})).await.expect(201, None);
    let ro = ro.data()["key"].as_str().unwrap().to_owned();
    upload(&app, &ro, "", "image/png", png(10, 6)).await.expect(403, Some("INSUFFICIENT_SCOPE"));
}

/// A 201 means the file and its record are on disk: `kill -9` right after it loses neither.
#[actix_web::test]
async fn a_file_acknowledged_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    let node = spawn_binary(&data, Some(ADMIN), &log);
    let t = node.create_tenant("growth").await;
    let mut pdf = b"%PDF-1.7\n".to_vec();
    pdf.extend(png(3 << 20, 9));
    let r = upload(&node, &t.live, "?filename=invoice.pdf", "application/pdf", pdf.clone())
        .await
        .expect(201, None);
    let id = r.data()["media_id"].as_str().unwrap().to_owned();
    node.kill9();
    let node = spawn_binary(&data, Some(ADMIN), &log);
    let (status, body, ctype, _) = fetch(&node, &format!("/v1/media/{id}/content"), Some(&t.live)).await;
    assert_eq!((status, ctype.as_deref()), (200, Some("application/pdf")));
    assert!(body == pdf, "the bytes after the kill are the bytes acknowledged");
    let r = node.call("GET", &format!("/v1/media/{id}"), Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()["filename"], "invoice.pdf");
}

/// A fleet keeps media in its database: an upload through a node that does not own the tenant
/// is passed on as it streams, and each node serves the bytes, by key and by link, to tenants
/// and agents, also after the owner's `kill -9`.
#[actix_web::test]
async fn every_node_of_a_fleet_serves_media_through_the_owner_moving() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let (mut nodes, _dir) = crate::fleet::fleet(2, &[("PIGEON_LEASE", "2s")]);
    let owner = nodes.remove(0);
    let other = &nodes[0];
    let t = owner.create_tenant("scale").await;
    let bytes = png(2 << 20, 11);
    let r = upload(other, &t.live, "?filename=big.png", "image/png", bytes.clone()).await.expect(201, None);
    let id = r.data()["media_id"].as_str().unwrap().to_owned();
    let (status, body, _, _) = fetch(&owner, &format!("/v1/media/{id}/content"), Some(&t.live)).await;
    assert!(status == 200 && body == bytes, "the owner serves what the other node took: {status}");
    let link = link_path(r.data()["url"].as_str().unwrap());
    let (status, body, _, _) = fetch(other, &link, None).await;
    assert!(status == 200 && body == bytes, "the link works on a node that does not own it: {status}");

    // An agent whose requests land on the node that does not own its tenant: its job's files
    // download there, and a file it received uploads there and names the inbound text.
    let (_, token) = owner.agent_phone(&t.id, "+14155550999").await;
    assert!(other.poll(&token, 0).await.is_empty(), "a first poll brings the phone online");
    let r = other.send(&t.live, json!({"to": "+14155550100", "media": [id]})).await.expect(202, None);
    let sent = r.data()["message_id"].as_str().unwrap().to_owned();
    let jobs = other.poll(&token, 5).await;
    assert_eq!(jobs[0]["message_id"], sent.as_str(), "{jobs:?}");
    let (status, body, _, _) = fetch(other, &format!("/phone/v1/media/{id}"), Some(&token)).await;
    assert!(status == 200 && body == bytes, "the job's file downloads from the other node: {status}");
    let photo = png(30_000, 13);
    let r = other
        .raw("POST", "/phone/v1/media?filename=IMG_2.png", Some(&token), "image/png", photo.clone())
        .await;
    let received = r.expect(201, None).data()["media_id"].as_str().unwrap().to_owned();
    let inbound = json!({"from": "+14155550123", "media": [received]});
    let r = other.call("POST", "/phone/v1/inbound", Some(&token), Some(inbound)).await.expect(201, None);
    let (status, body, _, _) =
        fetch(&owner, &link_path(r.data()["media"][0]["url"].as_str().unwrap()), None).await;
    assert!(
        status == 200 && body == photo,
        "the owner serves the file the phone sent the other node: {status}"
    );
    owner.kill9();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (status, body, _, _) = fetch(other, &format!("/v1/media/{id}/content"), Some(&t.live)).await;
        if status == 200 {
            assert!(body == bytes);
            break;
        }
        assert!(status == 503 && std::time::Instant::now() < deadline, "{status}");
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
    let r = upload(other, &t.live, "", "image/png", png(1000, 12)).await.expect(201, None);
    assert_eq!(r.data()["size"], 1008);
}
