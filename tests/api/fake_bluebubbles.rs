//! A fake BlueBubbles server for the agent's `bluebubbles` connector, following the facts in
//! `../shared/research/bluebubbles-api.md` (routes, the password in the query, the envelopes and
//! their words, validation order, the synchronous send, the query's filters and defaults, the
//! availability check's address normalisation, the multipart attachment send and the attachment
//! download). It keeps an in-memory `message` table, with attachments, that the test drives:
//! deliver a sent row, read it, fail it, sign Messages out, receive a text or a file (one Messages
//! may not have downloaded yet).

use std::collections::HashSet;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use serde_json::{json, Value};

/// One row of the fake `message` table.
#[derive(Debug, Clone)]
pub struct Row {
    pub rowid: i64,
    pub guid: String,
    pub text: String,
    pub address: String,
    pub service: String,
    pub is_from_me: bool,
    pub date_created: i64,
    pub date_delivered: Option<i64>,
    pub date_read: Option<i64>,
    pub error: i64,
    pub attachments: Vec<Attachment>,
}

/// One row of the fake `attachment` table.
#[derive(Debug, Clone)]
pub struct Attachment {
    pub guid: String,
    pub transfer_name: String,
    pub mime_type: String,
    pub bytes: Vec<u8>,
    /// Whether Messages has downloaded it yet (until then the download answers 500).
    pub downloaded: bool,
}

/// A send as the server received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    pub chat_guid: String,
    pub temp_guid: String,
    /// The text; empty for a file.
    pub message: String,
    /// A file's `name` and bytes.
    pub file: Option<(String, Vec<u8>)>,
}

#[derive(Default)]
struct State {
    password: String,
    rows: Vec<Row>,
    sends: Vec<Sent>,
    in_flight: HashSet<String>,
    /// Addresses with iMessage.
    imessage: HashSet<String>,
    /// Addresses whose sends Messages fails.
    refused: HashSet<String>,
    /// Messages is signed out of iMessage: every send fails before a row is written.
    signed_out: bool,
    /// How long a send's answer takes after its row is written (Messages and the poller).
    answer_after_ms: u64,
    clock_ms: i64,
    /// Attachment guids, once per download.
    downloads: Vec<String>,
}

/// The fake server; its state is the test's to drive.
#[derive(Clone)]
pub struct FakeBlueBubbles {
    pub url: String,
    state: Arc<Mutex<State>>,
}

impl FakeBlueBubbles {
    /// The rows whose guid is `guid`, delivered now.
    pub fn deliver(&self, guid: &str) {
        let mut s = self.state.lock().unwrap();
        let now = s.tick();
        s.rows.iter_mut().filter(|r| r.guid == guid).for_each(|r| r.date_delivered = Some(now));
    }

    /// The rows whose guid is `guid`, read now (a read receipt).
    pub fn read(&self, guid: &str) {
        let mut s = self.state.lock().unwrap();
        let now = s.tick();
        s.rows.iter_mut().filter(|r| r.guid == guid).for_each(|r| r.date_read = Some(now));
    }

    /// A text received from `from`.
    pub fn receive(&self, from: &str, text: &str) {
        let mut s = self.state.lock().unwrap();
        s.insert(text, from, "iMessage", false);
    }

    /// A text received from `from` with `files` (name, type, bytes, whether Messages has
    /// downloaded it yet); the attachments' guids.
    pub fn receive_files(&self, from: &str, text: &str, files: &[(&str, &str, &[u8], bool)]) -> Vec<String> {
        let mut s = self.state.lock().unwrap();
        let rowid = s.insert(text, from, "iMessage", false).rowid;
        let row = s.rows.iter_mut().find(|r| r.rowid == rowid).unwrap();
        for (i, (name, mime, bytes, downloaded)) in files.iter().enumerate() {
            row.attachments.push(Attachment {
                guid: format!("at_{i}_{}", row.guid),
                transfer_name: (*name).to_owned(),
                mime_type: (*mime).to_owned(),
                bytes: bytes.to_vec(),
                downloaded: *downloaded,
            });
        }
        row.attachments.iter().map(|a| a.guid.clone()).collect()
    }

    /// Messages finishes downloading attachment `guid`.
    pub fn download(&self, guid: &str) {
        let mut s = self.state.lock().unwrap();
        s.rows
            .iter_mut()
            .flat_map(|r| &mut r.attachments)
            .filter(|a| a.guid == guid)
            .for_each(|a| a.downloaded = true);
    }

    /// How often attachment `guid` was downloaded from the server.
    pub fn downloads_of(&self, guid: &str) -> usize {
        self.state.lock().unwrap().downloads.iter().filter(|g| *g == guid).count()
    }

    /// Every send received, in order.
    pub fn sends(&self) -> Vec<Sent> {
        self.state.lock().unwrap().sends.clone()
    }

    /// The outgoing row of the send with `temp_guid`.
    pub fn row_of(&self, temp_guid: &str) -> Row {
        let s = self.state.lock().unwrap();
        let i = s.sends.iter().position(|x| x.temp_guid == temp_guid).expect("sent");
        s.rows.iter().filter(|r| r.is_from_me).nth(i).cloned().expect("its row")
    }

    /// `address` has iMessage.
    pub fn has_imessage(&self, address: &str) {
        self.state.lock().unwrap().imessage.insert(address.to_owned());
    }

    /// Sends answer `ms` after their row is written, as when Messages is slow.
    pub fn answer_after(&self, ms: u64) {
        self.state.lock().unwrap().answer_after_ms = ms;
    }

    /// Messages is signed out of iMessage: sends fail as its AppleScript does then.
    pub fn sign_out(&self) {
        self.state.lock().unwrap().signed_out = true;
    }

    /// Messages is signed in again.
    pub fn sign_in(&self) {
        self.state.lock().unwrap().signed_out = false;
    }

    /// Messages fails every send to `address`.
    pub fn refuse(&self, address: &str) {
        self.state.lock().unwrap().refused.insert(address.to_owned());
    }
}

impl State {
    /// A strictly increasing clock in ms since the Unix epoch (dates are compared with `>=`).
    fn tick(&mut self) -> i64 {
        let now =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
        self.clock_ms = now.max(self.clock_ms + 1);
        self.clock_ms
    }

    fn insert(&mut self, text: &str, address: &str, service: &str, is_from_me: bool) -> Row {
        let rowid = self.rows.len() as i64 + 1;
        let row = Row {
            rowid,
            guid: format!("{:08X}-FAKE-4000-8000-{rowid:012}", rowid * 7919),
            text: text.trim().to_owned(),
            address: address.to_owned(),
            service: service.to_owned(),
            is_from_me,
            date_created: self.tick(),
            date_delivered: None,
            date_read: None,
            error: 0,
            attachments: Vec::new(),
        };
        self.rows.push(row.clone());
        row
    }
}

/// A row as `MessageSerializer` writes it into an HTTP answer; its attachments only when the
/// query asks `with` them.
fn serialize(r: &Row, with_attachments: bool) -> Value {
    let attachments: Vec<Value> = r
        .attachments
        .iter()
        .filter(|_| with_attachments)
        .map(|a| {
            json!({"originalROWID": r.rowid * 100, "guid": a.guid, "uti": "public.data", "mimeType": a.mime_type,
                   "transferName": a.transfer_name, "totalBytes": a.bytes.len(),
                   "transferState": if a.downloaded { 5 } else { 0 }, "isOutgoing": r.is_from_me,
                   "hideAttachment": false, "isSticker": false, "originalGuid": a.guid, "hasLivePhoto": false})
        })
        .collect();
    json!({
        "originalROWID": r.rowid, "guid": r.guid, "text": r.text, "attributedBody": null,
        "handle": {"originalROWID": 1, "address": r.address, "service": r.service, "uncanonicalizedId": null, "country": "us"},
        "handleId": 1, "otherHandle": 0, "attachments": attachments, "subject": null, "error": r.error,
        "dateCreated": r.date_created, "dateRead": r.date_read, "dateDelivered": r.date_delivered,
        "isDelivered": r.date_delivered.is_some(), "isFromMe": r.is_from_me, "hasDdResults": false,
        "isArchived": false, "itemType": 0, "groupTitle": null, "groupActionType": 0, "balloonBundleId": null,
        "associatedMessageGuid": null, "associatedMessageType": null, "expressiveSendStyleId": null,
        "threadOriginatorGuid": null, "hasPayloadData": false, "chats": []
    })
}

fn error(status: u16, message: &str, kind: &str, words: &str, data: Option<Value>) -> HttpResponse {
    let mut body = json!({"status": status, "message": message, "error": {"type": kind, "message": words}});
    if let Some(d) = data {
        body["data"] = d;
    }
    HttpResponse::build(actix_web::http::StatusCode::from_u16(status).unwrap()).json(body)
}

fn bad_request(words: &str) -> HttpResponse {
    error(
        400,
        "You've made a bad request! Please check your request params & body",
        "Validation Error",
        words,
        None,
    )
}

fn ok(message: &str, data: Value) -> HttpResponse {
    HttpResponse::Ok().json(json!({"status": 200, "message": message, "data": data}))
}

/// The auth middleware: the first of `guid`, `password`, `token` in the query, trimmed.
fn refused(req: &HttpRequest, state: &State) -> Option<HttpResponse> {
    let q: Vec<(String, String)> = serde_urlencoded::from_str(req.query_string()).unwrap_or_default();
    let get = |k: &str| q.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let Some(given) = get("guid").or_else(|| get("password")).or_else(|| get("token")) else {
        return Some(error(
            401,
            "You are not authorized to access this resource",
            "Authentication Error",
            "Missing server password!",
            None,
        ));
    };
    (given.trim() != state.password.trim()).then(|| {
        error(
            401,
            "You are not authorized to access this resource",
            "Authentication Error",
            "Unauthorized",
            None,
        )
    })
}

/// The JSON body, or `{}` when the request is not JSON (koa-body parses JSON by Content-Type only).
fn body_of(req: &HttpRequest, bytes: &[u8]) -> Value {
    let json_type = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("application/json"));
    if json_type {
        serde_json::from_slice(bytes).unwrap_or(json!({}))
    } else {
        json!({})
    }
}

async fn handle(req: HttpRequest, bytes: web::Bytes, state: web::Data<Arc<Mutex<State>>>) -> HttpResponse {
    let path = req.path().to_owned();
    let method = req.method().as_str().to_owned();
    let known = [
        "/api/v1/ping",
        "/api/v1/server/info",
        "/api/v1/message/text",
        "/api/v1/message/attachment",
        "/api/v1/message/query",
        "/api/v1/handle/availability/imessage",
    ];
    // `/api/v1/attachment/:guid/download` (koa-router decodes the parameter).
    let download = path
        .strip_prefix("/api/v1/attachment/")
        .and_then(|p| p.strip_suffix("/download"))
        .filter(|g| !g.is_empty() && !g.contains('/'))
        .map(percent_decode);
    if !known.contains(&path.as_str()) && download.is_none() {
        return HttpResponse::NotFound().content_type("text/plain").body("Not Found");
    }
    let expected = if path.starts_with("/api/v1/message/") { "POST" } else { "GET" };
    if method != expected {
        return HttpResponse::MethodNotAllowed().finish();
    }
    if let Some(r) = refused(&req, &state.lock().unwrap()) {
        return r;
    }
    if let Some(guid) = download {
        return attachment_download(&mut state.lock().unwrap(), &guid);
    }
    let body = body_of(&req, &bytes);
    match path.as_str() {
        "/api/v1/ping" => ok("Ping received!", json!("pong")),
        "/api/v1/server/info" => ok(
            "Successfully fetched metadata",
            json!({"computer_id": "fake", "os_version": "14.6.1", "server_version": "1.9.9", "private_api": true,
                   "proxy_service": "lan-url", "helper_connected": true, "detected_icloud": "me@icloud.com",
                   "detected_imessage": "me@icloud.com", "macos_time_sync": 0, "local_ipv4s": [], "local_ipv6s": []}),
        ),
        "/api/v1/message/text" => send(&state, &body).await,
        "/api/v1/message/attachment" => send_attachment(&state, &req, &bytes).await,
        "/api/v1/message/query" => query(&state.lock().unwrap(), &body),
        _ => availability(&req, &state.lock().unwrap()),
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match (b[i], s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `AttachmentRouter.download`: the file with its type; 404 for an unknown guid, 500 while
/// Messages has not downloaded it.
fn attachment_download(s: &mut State, guid: &str) -> HttpResponse {
    let found = s.rows.iter().flat_map(|r| &r.attachments).find(|a| a.guid == guid).cloned();
    let Some(a) = found else {
        return error(
            404,
            "The requested resource was not found",
            "Database Error",
            "Attachment does not exist!",
            None,
        );
    };
    if !a.downloaded {
        return error(
            500,
            "The server has encountered an error",
            "Server Error",
            "Attachment does not exist in disk!",
            None,
        );
    }
    s.downloads.push(guid.to_owned());
    HttpResponse::Ok().content_type(a.mime_type).body(a.bytes)
}

/// A form's fields and its files, by name.
type Form = (Vec<(String, String)>, Vec<(String, Vec<u8>)>);

/// The fields and files of a `multipart/form-data` body, as koa-body parses them (none for
/// another type).
fn multipart(req: &HttpRequest, bytes: &[u8]) -> Form {
    let ctype = req.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("");
    let Some(boundary) = ctype
        .strip_prefix("multipart/form-data")
        .and_then(|r| r.split(';').find_map(|p| p.trim().strip_prefix("boundary=")))
    else {
        return (Vec::new(), Vec::new());
    };
    let delimiter = format!("--{}", boundary.trim_matches('"'));
    let (mut fields, mut files) = (Vec::new(), Vec::new());
    let find = |hay: &[u8], needle: &[u8], from: usize| {
        hay.get(from..).and_then(|h| h.windows(needle.len()).position(|w| w == needle)).map(|p| p + from)
    };
    let mut at = match find(bytes, delimiter.as_bytes(), 0) {
        Some(p) => p + delimiter.len(),
        None => return (fields, files),
    };
    while bytes.get(at..at + 2) == Some(b"\r\n") {
        let Some(head_end) = find(bytes, b"\r\n\r\n", at) else { break };
        let head = String::from_utf8_lossy(&bytes[at + 2..head_end]).into_owned();
        let Some(next) = find(bytes, format!("\r\n{delimiter}").as_bytes(), head_end + 4) else { break };
        let content = bytes[head_end + 4..next].to_vec();
        let attr = |k: &str| {
            head.split(';').find_map(|p| {
                p.trim().strip_prefix(&format!("{k}=\"")).map(|v| v.trim_end_matches('"').to_owned())
            })
        };
        match (attr("name"), attr("filename")) {
            (Some(name), Some(_)) => files.push((name, content)),
            (Some(name), None) => fields.push((name, String::from_utf8_lossy(&content).into_owned())),
            _ => {}
        }
        at = next + 2 + delimiter.len();
    }
    (fields, files)
}

async fn send(state: &Arc<Mutex<State>>, body: &Value) -> HttpResponse {
    // validatorjs, in rule order: chatGuid, tempGuid, message, method.
    let Some(chat_guid) = body["chatGuid"].as_str() else {
        return bad_request("The chatGuid field is required.");
    };
    if !body["tempGuid"].is_null() && !body["tempGuid"].is_string() {
        return bad_request("The tempGuid must be a string.");
    }
    let Some(message) = body["message"].as_str() else {
        return bad_request("The message field must be present (but can be empty).");
    };
    let method = body["method"].as_str().unwrap_or("apple-script");
    if !["apple-script", "private-api"].contains(&method) {
        return bad_request("The selected method is invalid.");
    }
    let temp_guid = body["tempGuid"].as_str().unwrap_or("").trim().to_owned();
    if method == "apple-script" && temp_guid.is_empty() {
        return bad_request("A 'tempGuid' is required when sending via AppleScript");
    }
    if method == "apple-script" && message.trim().is_empty() {
        return bad_request("A 'message' is required when sending via AppleScript");
    }
    let sent = Sent { chat_guid: chat_guid.to_owned(), temp_guid, message: message.to_owned(), file: None };
    let queued = format!("Message is already queued to be sent! (Temp GUID: {})", sent.temp_guid);
    deliver(state, sent, &queued).await
}

/// `MessageRouter.sendAttachment`: multipart `chatGuid`, `tempGuid`, `name`, `method`, the file
/// in `attachment`.
async fn send_attachment(state: &Arc<Mutex<State>>, req: &HttpRequest, bytes: &[u8]) -> HttpResponse {
    let (fields, files) = multipart(req, bytes);
    let get = |k: &str| fields.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    // validatorjs, in rule order: chatGuid, tempGuid, method, name.
    let Some(chat_guid) = get("chatGuid") else {
        return bad_request("The chatGuid field is required.");
    };
    let method = get("method").unwrap_or_else(|| "apple-script".into());
    if !["apple-script", "private-api"].contains(&method.as_str()) {
        return bad_request("The selected method is invalid.");
    }
    let Some(name) = get("name").filter(|n| !n.is_empty()) else {
        return bad_request("The name field is required.");
    };
    let temp_guid = get("tempGuid").unwrap_or_default().trim().to_owned();
    if method == "apple-script" && temp_guid.is_empty() {
        return bad_request("A 'tempGuid' is required when sending via AppleScript");
    }
    if state.lock().unwrap().in_flight.contains(&temp_guid) {
        return bad_request("Attachment is already queued to be sent!");
    }
    let Some((_, file)) = files.into_iter().find(|(n, b)| n == "attachment" && !b.is_empty()) else {
        return bad_request("Attachment not provided or was empty!");
    };
    let sent = Sent { chat_guid, temp_guid, message: String::new(), file: Some((name, file)) };
    deliver(state, sent, "Attachment is already queued to be sent!").await
}

/// Messages writes the send's row; the answer comes once the poller has seen it sent (or failed).
async fn deliver(state: &Arc<Mutex<State>>, sent: Sent, queued: &str) -> HttpResponse {
    let (service, address) = match sent.chat_guid.split_once(";-;") {
        Some((s, a)) => (s.to_owned(), a.to_owned()),
        None => return error(500, "Message Send Error", "iMessage Error", "Failed to find chat", None),
    };
    let file = sent.file.is_some();
    let (what, failed) = if file {
        ("Attachment", "Failed to send attachment! See attached message error code.")
    } else {
        ("Message", "Failed to send message! See attached message error code.")
    };
    if state.lock().unwrap().signed_out {
        let words = "Messages got an error: Can’t get account 1 whose service type = iMessage. Invalid index. (-1719)";
        return error(500, &format!("{what} Send Error"), "iMessage Error", words, None);
    }
    let temp_guid = sent.temp_guid.clone();
    let (mut row, wait) = {
        let mut s = state.lock().unwrap();
        if !s.in_flight.insert(temp_guid.clone()) {
            return bad_request(queued);
        }
        let mut row = s.insert(&sent.message, &address, &service, true);
        if let Some((name, bytes)) = &sent.file {
            row.attachments.push(Attachment {
                guid: format!("at_0_{}", row.guid),
                transfer_name: name.clone(),
                mime_type: "application/octet-stream".into(),
                bytes: bytes.clone(),
                downloaded: true,
            });
            s.rows.last_mut().unwrap().attachments = row.attachments.clone();
        }
        s.sends.push(sent);
        if s.refused.contains(&address) {
            row.error = 22;
            s.rows.last_mut().unwrap().error = 22;
        }
        (row, 100 + s.answer_after_ms)
    };
    actix_web::rt::time::sleep(std::time::Duration::from_millis(wait)).await;
    let mut s = state.lock().unwrap();
    s.in_flight.remove(&temp_guid);
    row.date_delivered = s.rows.iter().find(|r| r.rowid == row.rowid).and_then(|r| r.date_delivered);
    let mut data = serialize(&row, true);
    data["tempGuid"] = json!(temp_guid);
    if row.error != 0 {
        return error(500, &format!("{what} Send Error"), "iMessage Error", failed, Some(data));
    }
    ok(if file { "Attachment sent!" } else { "Message sent!" }, data)
}

fn query(s: &State, body: &Value) -> HttpResponse {
    if !body["with"].is_null() && !body["with"].is_array() {
        return bad_request("The with must be an array.");
    }
    let limit = match &body["limit"] {
        Value::Null => 100,
        v => match v.as_i64() {
            Some(n) if (1..=1000).contains(&n) => n as usize,
            _ => return bad_request("The limit must be between 1 and 1000."),
        },
    };
    let offset = body["offset"].as_u64().unwrap_or(0) as usize;
    let mut rows: Vec<&Row> = s.rows.iter().collect();
    for w in body["where"].as_array().map(Vec::as_slice).unwrap_or_default() {
        let (statement, args) = (w["statement"].as_str().unwrap_or(""), &w["args"]);
        // Raw SQL on chat.db's columns: the fake knows the agent's three statements.
        if !["message.ROWID > :rowid", "message.is_from_me = :me", "message.guid = :guid"]
            .contains(&statement)
        {
            return error(
                500,
                "An unhandled error has occurred!",
                "Server Error",
                &format!("SQLITE_ERROR: near {statement:?}"),
                None,
            );
        }
        rows.retain(|r| match statement {
            "message.ROWID > :rowid" => args["rowid"].as_i64().is_some_and(|n| r.rowid > n),
            "message.is_from_me = :me" => args["me"].as_i64().is_some_and(|m| (m == 1) == r.is_from_me),
            "message.guid = :guid" => args["guid"].as_str() == Some(r.guid.as_str()),
            _ => false,
        });
    }
    // `after` and `before` filter the creation date, and only when they are JSON numbers.
    match &body["after"] {
        Value::Null => {}
        Value::Number(n) => rows.retain(|r| r.date_created >= n.as_i64().unwrap_or(i64::MAX)),
        _ => rows.clear(),
    }
    match &body["before"] {
        Value::Null => {}
        Value::Number(n) => rows.retain(|r| r.date_created <= n.as_i64().unwrap_or(i64::MIN)),
        _ => rows.clear(),
    }
    if body["sort"].as_str() == Some("ASC") {
        rows.sort_by_key(|r| r.date_created);
    } else {
        rows.sort_by_key(|r| std::cmp::Reverse(r.date_created));
    }
    let total = rows.len();
    let with = body["with"].as_array().map(Vec::as_slice).unwrap_or_default();
    let with_attachments = with.iter().any(|w| {
        w.as_str().is_some_and(|w| ["attachment", "attachments"].contains(&w.to_lowercase().as_str()))
    });
    let data: Vec<Value> =
        rows.into_iter().skip(offset).take(limit).map(|r| serialize(r, with_attachments)).collect();
    let count = data.len();
    HttpResponse::Ok().json(json!({
        "status": 200, "message": "Successfully fetched messages!", "data": data,
        "metadata": {"offset": offset, "limit": limit, "total": total, "count": count}
    }))
}

fn availability(req: &HttpRequest, s: &State) -> HttpResponse {
    let q: Vec<(String, String)> = serde_urlencoded::from_str(req.query_string()).unwrap_or_default();
    let Some((_, address)) = q.into_iter().find(|(k, _)| k == "address") else {
        return bad_request("The address field is required.");
    };
    // Lower-cased, only digits and `+` kept, E.164 with the Mac's region (US) without a `+`: an
    // unencoded `+` arrives as a space and the number becomes another.
    let digits: String = address.to_lowercase().chars().filter(|c| c.is_ascii_digit() || *c == '+').collect();
    let normalized = if digits.starts_with('+') { digits } else { format!("+1{digits}") };
    ok("Success", json!({"available": s.imessage.contains(&normalized)}))
}

/// Starts the fake on a free loopback port with `password`.
pub fn spawn_fake_bluebubbles(password: &str) -> FakeBlueBubbles {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let state = Arc::new(Mutex::new(State { password: password.to_owned(), ..State::default() }));
    let data = web::Data::new(state.clone());
    let server = HttpServer::new(move || App::new().app_data(data.clone()).default_service(web::to(handle)))
        .workers(1)
        .listen(listener)
        .unwrap()
        .run();
    actix_web::rt::spawn(server);
    FakeBlueBubbles { url: format!("http://127.0.0.1:{port}"), state }
}
