//! The operator's store commands besides `serve`: `pigeon backup` (saves a running node's
//! `GET /admin/v1/backup`), `pigeon restore` and `pigeon migrate`. Each returns what it prints on
//! success, or the one line that says why it failed.

use std::io::Write;
use std::path::{Path, PathBuf};

use futures_util::StreamExt;
use pigeon_actors::storage::{self, backup::Manifest};

/// How long the node may take to answer before the first byte: it copies the whole store first.
const FIRST_BYTE: std::time::Duration = std::time::Duration::from_secs(3_600);

/// Saves a backup of the node at `server` into `out`: written to `<out>.partial`, checked to end
/// with its manifest, synced, then renamed, so `out` is always a whole archive.
pub fn backup(server: &str, token: &str, out: &Path, ca_file: Option<&Path>) -> Result<String, String> {
    if let Some(ca) = ca_file {
        pigeon_protocol::tls::trust_ca_file(ca)?;
    }
    let partial = with_ext(out, "partial");
    let res = actix_web::rt::System::new().block_on(download(server, token, &partial));
    let bytes = match res {
        Ok(n) => n,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    let manifest = match read_manifest(&partial) {
        Ok(m) => m,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, out)
        .map_err(|e| format!("cannot move the archive to {}: {e}", out.display()))?;
    sync_dir_of(out);
    Ok(format!(
        "saved {}: {:.1} MiB, {} records, taken at {}",
        out.display(),
        bytes as f64 / (1024.0 * 1024.0),
        manifest.records,
        manifest.taken_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    ))
}

async fn download(server: &str, token: &str, to: &Path) -> Result<u64, String> {
    let client = awc::Client::builder()
        .connector(awc::Connector::new().rustls_0_23(pigeon_protocol::tls::client_config()))
        .timeout(FIRST_BYTE)
        .finish();
    let url = format!("{}/admin/v1/backup", server.trim_end_matches('/'));
    let mut res =
        client.get(&url).bearer_auth(token).send().await.map_err(|e| format!("cannot reach {url}: {e}"))?;
    if !res.status().is_success() {
        let body = res.body().await.unwrap_or_default();
        let why = serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| Some(format!("{} ({})", v["error"].as_str()?, v["code"].as_str()?)))
            .unwrap_or_else(|| String::from_utf8_lossy(&body).into_owned());
        return Err(format!("{url} answered {}: {why}", res.status()));
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(to)
        .map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let mut n = 0u64;
    while let Some(chunk) = res.next().await {
        let chunk = chunk.map_err(|e| format!("the archive was cut short after {n} bytes: {e}"))?;
        file.write_all(&chunk).map_err(|e| format!("cannot write {}: {e}", to.display()))?;
        n += chunk.len() as u64;
    }
    file.sync_all().map_err(|e| format!("cannot sync {}: {e}", to.display()))?;
    Ok(n)
}

/// The manifest at the end of a saved archive (an archive without one was cut short).
fn read_manifest(path: &Path) -> Result<Manifest, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    storage::backup::manifest_of(std::io::BufReader::new(file)).map_err(|e| e.to_string())
}

/// Unpacks the backup `file` into `data_dir` (new or empty) and opens the store once to check it.
pub fn restore(file: &Path, data_dir: &Path) -> Result<String, String> {
    let archive = std::fs::File::open(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let restored =
        storage::backup::restore(std::io::BufReader::new(archive), data_dir).map_err(|e| e.to_string())?;
    storage::private::restrict(data_dir)
        .map_err(|e| format!("cannot make {} private: {e}", data_dir.display()))?;
    drop(storage::Store::open(data_dir).map_err(|e| format!("the restored store does not open: {e}"))?);
    let m = &restored.manifest;
    Ok(format!(
        "restored {} from {}: {} records taken at {} by pigeon {}; start a node with --data-dir {}",
        data_dir.display(),
        file.display(),
        m.records,
        m.taken_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        m.version,
        data_dir.display()
    ))
}

/// Copies the stopped sled store in `data_dir` into the empty database at `url`; the lines to
/// print name each table and its records.
pub fn migrate(data_dir: &Path, url: &str) -> Result<String, String> {
    let m = storage::migrate(data_dir, url).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for (tree, n) in &m.trees {
        out.push_str(&format!("{tree:<20} {n:>10}\n"));
    }
    out.push_str(&format!("{:<20} {:>10}\n", "media_files", m.files));
    out.push_str(&format!(
        "{:<20} {:>10}\ncopied {} into the database in {:.1} s; start nodes with --database-url",
        "total",
        m.records(),
        data_dir.display(),
        m.took.as_secs_f64()
    ));
    Ok(out)
}

fn with_ext(path: &Path, ext: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(ext);
    PathBuf::from(name)
}

fn sync_dir_of(path: &Path) {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}
