//! The request-head limit. actix-http buffers a head of up to 128 KiB before it answers 431 and
//! offers no setting; with 20,000 connections that is 2.5 GB a client can make the node hold. So
//! the connection wrapper (`wire.rs`) follows each request's framing on the bytes it reads (head
//! lines, then a `Content-Length` or chunked body, then the next head) and stops a head at
//! [`MAX_HEAD`](crate::limits::MAX_HEAD). It reads as actix-http does (`Transfer-Encoding` only
//! from HTTP/1.1, `chunked` or `identity`); where it cannot follow (an upgrade, a header line too
//! long to read) it stops counting rather than refuse a request it misread.

use crate::limits::MAX_HEAD;

/// The first bytes of a header line kept to read it: enough for any valid `Content-Length`,
/// `Transfer-Encoding` or `Upgrade`.
const LINE: usize = 96;

/// Where the reader is in the request stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// In a head, `seen` bytes into it.
    Head { seen: usize },
    /// In a body of known length: this many bytes to go.
    Body(u64),
    /// In a chunk-size line.
    ChunkSize,
    /// In a chunk's data: this many bytes to go, then its line end.
    ChunkData(u64),
    /// After a chunk's data, up to its line end.
    ChunkEnd,
    /// In the trailer section after the last chunk.
    Trailer,
    /// Not following any more (an upgrade, or a line it could not read).
    Opaque,
}

/// A head passed [`MAX_HEAD`].
#[derive(Debug, PartialEq, Eq)]
pub struct TooLarge;

/// One connection's reading position (see the module docs).
pub struct Framing {
    state: State,
    /// The start of the current line, and its full length so far.
    line: [u8; LINE],
    line_len: usize,
    /// What the current head said about its body.
    http10: bool,
    length: Option<u64>,
    chunked: bool,
    upgrade: bool,
    unreadable: bool,
}

impl Default for Framing {
    fn default() -> Self {
        Self {
            state: State::Head { seen: 0 },
            line: [0; LINE],
            line_len: 0,
            http10: false,
            length: None,
            chunked: false,
            upgrade: false,
            unreadable: false,
        }
    }
}

impl Framing {
    /// Follows `bytes`, the next ones read from the client.
    pub fn feed(&mut self, mut bytes: &[u8]) -> Result<(), TooLarge> {
        while !bytes.is_empty() {
            match self.state {
                State::Opaque => return Ok(()),
                State::Body(left) | State::ChunkData(left) => {
                    let n = left.min(bytes.len() as u64);
                    bytes = &bytes[n as usize..];
                    self.state = match (self.state, left - n) {
                        (State::Body(_), 0) => self.next_head(),
                        (State::Body(_), rest) => State::Body(rest),
                        (_, 0) => State::ChunkEnd,
                        (_, rest) => State::ChunkData(rest),
                    };
                }
                State::Head { seen } => {
                    let (taken, ended) = self.take_line(bytes);
                    bytes = &bytes[taken..];
                    let seen = seen + taken;
                    if seen > MAX_HEAD {
                        return Err(TooLarge);
                    }
                    self.state = State::Head { seen };
                    if ended {
                        self.head_line(seen);
                    }
                }
                State::ChunkSize | State::ChunkEnd | State::Trailer => {
                    let (taken, ended) = self.take_line(bytes);
                    bytes = &bytes[taken..];
                    if ended {
                        self.body_line();
                    }
                }
            }
        }
        Ok(())
    }

    /// Takes bytes up to and including the next `\n`; says how many and whether the line ended.
    fn take_line(&mut self, bytes: &[u8]) -> (usize, bool) {
        let (taken, ended) = match bytes.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (bytes.len(), false),
        };
        let keep = taken.min(LINE.saturating_sub(self.line_len));
        self.line[self.line_len.min(LINE)..self.line_len.min(LINE) + keep].copy_from_slice(&bytes[..keep]);
        self.line_len += taken;
        (taken, ended)
    }

    /// The length of the current line without its line end, if it was short enough to keep.
    fn kept(&self) -> Option<usize> {
        let line = self.line.get(..self.line_len)?;
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        Some(line.strip_suffix(b"\r").unwrap_or(line).len())
    }

    /// A line of a head ended, `seen` bytes into it.
    fn head_line(&mut self, seen: usize) {
        let (len, kept) = (self.line_len, self.kept());
        self.line_len = 0;
        if kept == Some(0) && seen == len {
            // Empty lines before a request line are skipped, and not counted.
            self.state = State::Head { seen: 0 };
        } else if kept == Some(0) {
            self.state = self.body_of_head();
        } else if seen == len {
            // The request line: its version decides whether `Transfer-Encoding` counts.
            self.http10 = kept.is_some_and(|n| self.line[..n].ends_with(b" HTTP/1.0"));
        } else {
            self.header(kept, len);
        }
    }

    /// Reads a header line of `len` bytes, `kept` of them without the line end (`None`: it was
    /// longer than [`LINE`]).
    fn header(&mut self, kept: Option<usize>, len: usize) {
        let start = &self.line[..len.min(LINE)];
        let Some(colon) = start.iter().position(|&b| b == b':') else { return };
        let name = &start[..colon];
        let is = |n: &str| name.eq_ignore_ascii_case(n.as_bytes());
        if !(is("content-length") || is("transfer-encoding") || is("upgrade")) {
            return;
        }
        let Some(end) = kept else {
            self.unreadable = true;
            return;
        };
        let value = std::str::from_utf8(&self.line[colon + 1..end]).map(str::trim).unwrap_or("");
        if is("content-length") {
            self.length = value.parse().ok();
        } else if is("transfer-encoding") && !self.http10 {
            self.chunked = value.eq_ignore_ascii_case("chunked");
        } else if is("upgrade") {
            self.upgrade |= value.eq_ignore_ascii_case("websocket");
        }
    }

    /// The head ended: what follows it.
    fn body_of_head(&mut self) -> State {
        if self.unreadable || self.upgrade {
            State::Opaque
        } else if self.chunked {
            State::ChunkSize
        } else {
            match self.length {
                Some(n) if n > 0 => State::Body(n),
                _ => self.next_head(),
            }
        }
    }

    /// Ready for the next request's head.
    fn next_head(&mut self) -> State {
        *self = Self::default();
        self.state
    }

    /// A line of a chunked body ended.
    fn body_line(&mut self) {
        let kept = self.kept();
        self.line_len = 0;
        self.state = match (self.state, kept) {
            (_, None) => State::Opaque,
            (State::ChunkEnd, Some(_)) => State::ChunkSize,
            (State::ChunkSize, Some(n)) => {
                let digits = self.line[..n].iter().take_while(|b| b.is_ascii_hexdigit()).count();
                let size = std::str::from_utf8(&self.line[..digits])
                    .ok()
                    .and_then(|d| u64::from_str_radix(d, 16).ok());
                match size {
                    Some(0) => State::Trailer,
                    Some(n) => State::ChunkData(n),
                    None => State::Opaque,
                }
            }
            (State::Trailer, Some(0)) => self.next_head(),
            (state, Some(_)) => state,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed_all(f: &mut Framing, bytes: &[u8], step: usize) -> Result<(), TooLarge> {
        bytes.chunks(step).try_for_each(|c| f.feed(c))
    }

    fn head_of(size: usize) -> Vec<u8> {
        let mut h = b"GET / HTTP/1.1\r\nhost: x\r\nx-pad: ".to_vec();
        h.resize(size - 4, b'a');
        h.extend_from_slice(b"\r\n\r\n");
        assert_eq!(h.len(), size);
        h
    }

    #[test]
    fn a_head_of_the_limit_passes_and_one_byte_more_does_not() {
        for step in [1, 7, 4096, 1 << 20] {
            let mut f = Framing::default();
            assert_eq!(feed_all(&mut f, &head_of(MAX_HEAD), step), Ok(()));
            assert_eq!(feed_all(&mut f, &head_of(MAX_HEAD + 1), step), Err(TooLarge), "step {step}");
        }
    }

    #[test]
    fn bodies_are_skipped_and_the_next_head_is_counted_afresh() {
        let mut stream = Vec::new();
        // A body of 100 KiB, then a chunked one with a trailer, then an HTTP/1.0 request whose
        // `Transfer-Encoding` does not count, each followed by a head near the limit.
        stream.extend_from_slice(b"POST /v1/messages HTTP/1.1\r\nContent-Length: 102400\r\n\r\n");
        stream.resize(stream.len() + 102_400, b'\n');
        stream.extend_from_slice(&head_of(MAX_HEAD));
        stream.extend_from_slice(b"POST / HTTP/1.1\r\ntransfer-encoding:  Chunked \r\n\r\n");
        stream.extend_from_slice(b"8000;ext=1\r\n");
        stream.resize(stream.len() + 0x8000, b'\n');
        stream.extend_from_slice(b"\r\n0\r\nx-trailer: y\r\n\r\n");
        stream.extend_from_slice(&head_of(MAX_HEAD));
        stream.extend_from_slice(
            b"POST / HTTP/1.0\r\ntransfer-encoding: chunked\r\ncontent-length: 3\r\n\r\nabc",
        );
        stream.extend_from_slice(&head_of(MAX_HEAD));
        for step in [1, 13, 65536] {
            let mut f = Framing::default();
            assert_eq!(feed_all(&mut f, &stream, step), Ok(()), "step {step}");
            assert_eq!(f.state, State::Head { seen: 0 });
            assert_eq!(feed_all(&mut f, &head_of(MAX_HEAD + 1), step), Err(TooLarge));
        }
    }

    #[test]
    fn what_it_cannot_follow_it_stops_counting() {
        let mut long = b"POST / HTTP/1.1\r\ncontent-length:".to_vec();
        long.resize(long.len() + LINE, b' ');
        long.extend_from_slice(b"5\r\n\r\n");
        for opening in [&long[..], b"GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n"] {
            let mut f = Framing::default();
            f.feed(opening).unwrap();
            assert_eq!(f.state, State::Opaque);
            assert_eq!(f.feed(&head_of(MAX_HEAD * 2)), Ok(()));
        }
    }
}
