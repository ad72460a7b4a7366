//! A send job's attachments on the agent's side: downloaded with its token into the state
//! directory, checked against the job's sha256 before any connector sees them, and kept a day
//! (a retried job finds them there) before they are swept.

use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};

use pigeon_protocol::JobMedia;
use sha2::{Digest, Sha256};
use tokio::io::AsyncWrite;

use crate::node::{Node, NodeError};

/// How long a downloaded attachment stays.
const KEPT: Duration = Duration::from_secs(24 * 3600);

/// The attachments' directory, `media/` under the state directory.
#[derive(Debug, Clone)]
pub struct MediaDir(PathBuf);

/// Why a job's attachments are not here.
#[derive(Debug)]
pub enum FetchError {
    /// The node could not serve them now; another phone may.
    Node(NodeError),
    /// The bytes are not what the job names (length or sha256).
    Corrupt(String),
    /// This machine could not keep them.
    Disk(io::Error),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::Node(e) => write!(f, "could not download an attachment: {e}"),
            FetchError::Corrupt(e) => write!(f, "{e}"),
            FetchError::Disk(e) => write!(f, "could not keep an attachment: {e}"),
        }
    }
}

impl MediaDir {
    /// `media/` under `state_dir`, made if need be, its day-old files swept.
    pub fn open(state_dir: &Path) -> io::Result<Self> {
        let dir = state_dir.join("media");
        std::fs::create_dir_all(&dir)?;
        let me = Self(dir);
        me.sweep();
        Ok(me)
    }

    /// The local files of `media`, in order, each checked against its length and sha256.
    pub async fn fetch(&self, node: &Node, media: &[JobMedia]) -> Result<Vec<PathBuf>, FetchError> {
        self.sweep();
        let mut files = Vec::with_capacity(media.len());
        for m in media {
            files.push(self.one(node, m).await?);
        }
        Ok(files)
    }

    async fn one(&self, node: &Node, m: &JobMedia) -> Result<PathBuf, FetchError> {
        let (home, name) = (self.0.join(&m.media_id), local_name(m));
        let path = home.join(&name);
        if tokio::fs::try_exists(&path).await.unwrap_or(false) {
            return Ok(path);
        }
        // Two jobs may carry the same file at once: each downloads into a part of its own, and the
        // second rename replaces the first's identical file.
        static PARTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = PARTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let part = self.0.join(format!("{}.{n}.part", m.media_id));
        let file = tokio::fs::File::create(&part).await.map_err(FetchError::Disk)?;
        let mut out = Hashing { inner: file, hash: Sha256::new() };
        let got = node.media(&m.media_id, m.size, &mut out).await;
        let got = match got {
            Ok(n) => n,
            Err(e) => {
                let _ = tokio::fs::remove_file(&part).await;
                return Err(FetchError::Node(e));
            }
        };
        tokio::io::AsyncWriteExt::flush(&mut out).await.map_err(FetchError::Disk)?;
        out.inner.sync_all().await.map_err(FetchError::Disk)?;
        let sha = hex::encode(out.hash.finalize());
        if got != m.size || sha != m.sha256 {
            let _ = tokio::fs::remove_file(&part).await;
            return Err(FetchError::Corrupt(format!(
                "attachment {} came as {got} bytes with sha256 {sha}; the job says {} bytes, {}",
                m.media_id, m.size, m.sha256
            )));
        }
        tokio::fs::create_dir_all(&home).await.map_err(FetchError::Disk)?;
        tokio::fs::rename(&part, &path).await.map_err(FetchError::Disk)?;
        Ok(path)
    }

    /// Removes what was downloaded more than a day ago.
    fn sweep(&self) {
        let Ok(entries) = std::fs::read_dir(&self.0) else { return };
        let old = SystemTime::now() - KEPT;
        for e in entries.flatten() {
            let stale = e.metadata().and_then(|m| m.modified()).is_ok_and(|t| t < old);
            if stale {
                let p = e.path();
                let _ = if p.is_dir() { std::fs::remove_dir_all(&p) } else { std::fs::remove_file(&p) };
            }
        }
    }
}

/// The file's name on disk: the name given at upload where it is a plain one, else the id with
/// the type's usual extension (a recipient's phone shows the name).
fn local_name(m: &JobMedia) -> String {
    match m.filename.as_deref() {
        Some(n) if !n.is_empty() && n != "." && n != ".." && !n.contains(['/', '\\', '\0']) => n.to_owned(),
        _ => format!("{}.{}", m.media_id, extension(&m.content_type)),
    }
}

use pigeon_protocol::MEDIA_TYPES as TYPES;

/// The usual extension of `content_type`.
fn extension(content_type: &str) -> &'static str {
    TYPES.iter().find(|(t, _)| *t == content_type).map_or("bin", |(_, e)| e[0])
}

/// The type of a file the phone received, by its extension (any case); `None` for one the node
/// does not take.
pub fn content_type_of(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    TYPES.iter().find(|(_, e)| e.contains(&ext.as_str())).map(|(t, _)| *t)
}

/// A file that hashes what is written to it.
struct Hashing {
    inner: tokio::fs::File,
    hash: Sha256,
}

impl AsyncWrite for Hashing {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        let written = Pin::new(&mut me.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = written {
            me.hash.update(&buf[..n]);
        }
        written
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(filename: Option<&str>, content_type: &str) -> JobMedia {
        JobMedia {
            media_id: "01J0000000000000000000000A".into(),
            content_type: content_type.into(),
            size: 1,
            sha256: String::new(),
            filename: filename.map(str::to_owned),
        }
    }

    #[test]
    fn a_file_keeps_its_given_name_unless_it_could_leave_its_directory() {
        assert_eq!(local_name(&job(Some("cat photo.png"), "image/png")), "cat photo.png");
        for bad in [None, Some(""), Some(".."), Some("a\\b"), Some("../x")] {
            assert_eq!(local_name(&job(bad, "video/quicktime")), "01J0000000000000000000000A.mov", "{bad:?}");
        }
    }

    #[test]
    fn a_received_files_type_comes_from_its_extension() {
        assert_eq!(content_type_of(Path::new("/in/IMG_0001.JPEG")), Some("image/jpeg"));
        assert_eq!(content_type_of(Path::new("card.vcf")), Some("text/vcard"));
        assert_eq!(content_type_of(Path::new("memo.caf")), Some("audio/x-caf"));
        assert_eq!(content_type_of(Path::new("setup.exe")), None);
        assert_eq!(content_type_of(Path::new("README")), None);
        for (t, _) in TYPES {
            assert_eq!(content_type_of(Path::new(&format!("f.{}", extension(t)))), Some(*t), "{t}");
        }
    }
}
