//! Media a send names by URL: fetched by the node before it answers, in its place among the
//! attachments, under the webhook address rules and the upload's rules; every way a fetch can
//! fail answers `INVALID_MEDIA` naming the item, and records nothing. On both stores.

use std::collections::HashMap;
use std::net::TcpListener;

use pigeon_actors::webhook::PrivateNetworks;
use serde_json::{json, Value};

use crate::helpers::*;
use crate::media::{fetch, link_path, png, sha};

/// What an origin answers on one path: status, headers, bytes.
type Answer = (u16, Vec<(&'static str, String)>, Vec<u8>);

/// A local web server answering each path as told (404 for the rest); its base URL.
fn spawn_origin(answers: HashMap<&'static str, Answer>) -> String {
    use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let answers = std::sync::Arc::new(answers);
    let server = HttpServer::new(move || {
        let answers = answers.clone();
        App::new().default_service(web::to(move |req: HttpRequest| {
            let answers = answers.clone();
            async move {
                let Some((status, headers, body)) = answers.get(req.path()) else {
                    return HttpResponse::NotFound().finish();
                };
                let mut res = HttpResponse::build(actix_web::http::StatusCode::from_u16(*status).unwrap());
                for (k, v) in headers {
                    res.insert_header((*k, v.as_str()));
                }
                res.body(body.clone())
            }
        }))
    })
    .workers(1)
    .listen(listener)
    .unwrap()
    .run();
    actix_web::rt::spawn(server);
    base
}

fn file(ctype: &str, body: Vec<u8>) -> Answer {
    (200, vec![("content-type", ctype.to_owned())], body)
}

#[actix_web::test]
async fn a_send_fetches_media_by_url_in_its_place_and_a_retry_is_the_same_send() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let (cat, pdf) = (png(50_000, 21), b"%PDF-1.4\n%%EOF\n".to_vec());
    let origin = spawn_origin(HashMap::from([
        ("/img/cat.png", file("image/png", cat.clone())),
        ("/doc.pdf", file("application/pdf; charset=binary", pdf.clone())),
    ]));
    let up = app.raw("POST", "/v1/media?filename=up.png", Some(&t.live), "image/png", png(2_000, 3)).await;
    let up = up.expect(201, None).data()["media_id"].as_str().unwrap().to_owned();

    let send = json!({"to": "+14155550100", "body": "three", "media": [
        {"url": format!("{origin}/img/cat.png?w=2")}, up, {"url": format!("{origin}/doc.pdf")}]});
    let (status, first) = app.send_idem(&t.live, "k-url", send.clone()).await;
    assert_eq!(status, 202, "{first}");
    let id = first["data"]["message_id"].as_str().unwrap();
    let m = app.message(&t.live, id).await;
    let got: Vec<(&str, &str)> = m["media"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["filename"].as_str().unwrap_or("-"), a["content_type"].as_str().unwrap()))
        .collect();
    assert_eq!(got, [("cat.png", "image/png"), ("up.png", "image/png"), ("doc.pdf", "application/pdf")]);
    assert_eq!(m["media"][1]["media_id"], up.as_str());
    let (status, body, _, _) = fetch(&app, &link_path(m["media"][0]["url"].as_str().unwrap()), None).await;
    assert!(status == 200 && body == cat, "the fetched file is served whole: {status}");
    // It is the tenant's media like any upload.
    let fetched = m["media"][2]["media_id"].as_str().unwrap();
    let r = app.call("GET", &format!("/v1/media/{fetched}"), Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()["sha256"], sha(&pdf));

    // The retry fetches again, and is the same send: the files are compared by their bytes.
    let (status, again) = app.send_idem(&t.live, "k-url", send).await;
    assert_eq!((status, &again["data"]["message_id"]), (202, &first["data"]["message_id"]));
    let listed = app.call("GET", "/v1/messages", Some(&t.live), None).await.expect(200, None);
    assert_eq!(listed.data().as_array().unwrap().len(), 1);
}

#[actix_web::test]
async fn a_url_the_node_cannot_take_is_invalid_media_naming_its_place() {
    let app = spawn_app_configured(|s| {
        s.webhook_allow_private = PrivateNetworks::Allowed;
        s.media_max_bytes = 100_000;
    })
    .await;
    let t = app.create_tenant("starter").await;
    app.patch_tenant(&t.id, json!({"quiet_hours": {"enabled": false}})).await.expect(200, None);
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let origin = spawn_origin(HashMap::from([
        ("/ok.png", file("image/png", png(1_000, 1))),
        ("/moved.png", (302, vec![("location", "/ok.png".to_owned())], Vec::new())),
        ("/gone.png", (410, Vec::new(), Vec::new())),
        ("/page", file("text/html", b"<html></html>".to_vec())),
        ("/fake.png", file("image/png", b"GIF89a not a png".to_vec())),
        ("/big.png", file("image/png", png(200_000, 2))),
        ("/untyped", (200, Vec::new(), png(1_000, 1))),
    ]));
    let ok = json!({"url": format!("{origin}/ok.png")});
    for (path, says) in [
        ("/moved.png", "redirects are not followed"),
        ("/gone.png", "410"),
        ("/page", "text/html"),
        ("/fake.png", "image/png"),
        ("/big.png", "larger than 100000 bytes"),
        ("/untyped", "Content-Type"),
    ] {
        let body = json!({"to": "+14155550100", "media": [ok, {"url": format!("{origin}{path}")}]});
        let r = app.send(&t.live, body).await.expect(400, Some("INVALID_MEDIA"));
        let error = r.body["error"].as_str().unwrap();
        assert!(error.starts_with("media[1]: ") && error.contains(says), "{path}: {error}");
    }
    for (url, says) in [("ftp://127.0.0.1/x.png", "http"), ("https://user:pw@127.0.0.1/x.png", "credentials")]
    {
        let r = app.send(&t.live, json!({"to": "+14155550100", "media": [{"url": url}]})).await;
        let error = r.expect(400, Some("INVALID_MEDIA")).body["error"].as_str().unwrap().to_owned();
        assert!(error.starts_with("media[0]: ") && error.contains(says), "{url}: {error}");
    }
    for item in [json!({"file": "x"}), json!({"url": "https://a.example/x.png", "x": 1}), json!(7)] {
        let r = app.send(&t.live, json!({"to": "+14155550100", "media": [item]})).await;
        let error = r.expect(400, Some("VALIDATION_ERROR")).body["error"].as_str().unwrap().to_owned();
        assert!(
            error.starts_with("media[0]") && error.contains(r#"a media id or {"url""#),
            "{item}: {error}"
        );
    }
    let listed = app.call("GET", "/v1/messages", Some(&t.live), None).await.expect(200, None);
    assert_eq!(listed.data(), &Value::Array(vec![]), "nothing recorded");

    // A node that keeps webhooks off private networks fetches nothing from them either.
    let strict = spawn_app_with(START, false).await;
    let s = strict.create_tenant("starter").await;
    strict.sim_phone(&s.id, "+14155550999", 0).await;
    let r = strict.send(&s.live, json!({"to": "+14155550100", "media": [ok]})).await;
    let error = r.expect(400, Some("INVALID_MEDIA")).body["error"].as_str().unwrap().to_owned();
    assert!(error.starts_with("media[0]: ") && error.contains("private"), "{error}");
}

#[actix_web::test]
async fn a_campaign_fetches_its_media_once_and_every_message_carries_it() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let flyer = png(8_000, 31);
    let origin = spawn_origin(HashMap::from([("/flyer.png", file("image/png", flyer.clone()))]));
    let card = app
        .raw("POST", "/v1/media?filename=us.vcf", Some(&t.live), "text/vcard", b"BEGIN:VCARD\r\n".to_vec())
        .await;
    let card = card.expect(201, None).data()["media_id"].as_str().unwrap().to_owned();
    let phones = ["+14155550100", "+14155550101"];
    let key = t.live.clone();
    let create = |media: Value| {
        let (api, key) = (app.api.clone(), key.clone());
        async move {
            let body = json!({"name": "flyers", "phones": phones, "media": media});
            api.call("POST", "/v1/campaigns", Some(&key), Some(body)).await
        }
    };
    create(json!([])).await.expect(400, Some("VALIDATION_ERROR"));
    let r = create(json!(["01J00000000000000000000000"])).await.expect(400, Some("INVALID_MEDIA"));
    assert!(r.body["error"].as_str().unwrap().starts_with("media[0]"));
    let r = create(json!([{"url": format!("{origin}/flyer.png")}, card])).await.expect(201, None);
    let c = r.data().clone();
    let names: Vec<&str> =
        c["media"].as_array().unwrap().iter().map(|m| m["filename"].as_str().unwrap()).collect();
    assert_eq!((names, &c["body"]), (vec!["flyer.png", "us.vcf"], &Value::Null), "{c}");

    let id = c["id"].as_str().unwrap();
    app.call("POST", &format!("/v1/campaigns/{id}/launch"), Some(&t.live), None).await.expect(202, None);
    let mut delivered = Vec::new();
    for _ in 0..100 {
        let r = app.call("GET", "/v1/messages?status=delivered", Some(&t.live), None).await.expect(200, None);
        delivered = r.data().as_array().unwrap().clone();
        if delivered.len() == 2 {
            break;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(delivered.len(), 2, "both recipients: {delivered:?}");
    for m in &delivered {
        assert_eq!(
            (&m["body"], &m["media"][0]["media_id"]),
            (&Value::Null, &c["media"][0]["media_id"]),
            "{m}"
        );
        assert_eq!(m["media"][1]["media_id"], card.as_str());
    }
    let (status, body, _, _) =
        fetch(&app, &link_path(delivered[1]["media"][0]["url"].as_str().unwrap()), None).await;
    assert!(status == 200 && body == flyer, "fetched once, served to each: {status}");
}

#[actix_web::test]
async fn a_key_that_may_not_send_makes_the_node_fetch_nothing() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let rx = spawn_receiver().await;
    let r = app.create_key(&t.live, json!({"name": "reader", "scopes": ["read"]})).await.expect(201, None);
    let reader = r.data()["key"].as_str().unwrap().to_owned();
    let body = json!({"to": "+14155550100", "media": [{"url": format!("{}/cat.png", rx.url)}]});
    app.send(&reader, body.clone()).await.expect(403, Some("INSUFFICIENT_SCOPE"));
    app.call("POST", "/v1/messages", Some("svc_live_nope"), Some(body.clone()))
        .await
        .expect(401, Some("INVALID_API_KEY"));
    actix_web::rt::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(rx.hits().is_empty(), "nothing fetched for a caller that may not send");
    // A key that may send does make the fetch (the receiver's answer is no image).
    app.send(&t.live, body).await.expect(400, Some("INVALID_MEDIA"));
    assert_eq!(rx.hits().len(), 1);
}
