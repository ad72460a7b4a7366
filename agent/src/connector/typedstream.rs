//! The text of a Messages `attributedBody`: since macOS 13 many rows of `chat.db` leave `text`
//! NULL and keep the text only there, as an `NSAttributedString` archived in NeXTSTEP's
//! typedstream format. The string's bytes follow its class name: `NSString`, then `01 94|95 84 01
//! 2B` (`+`, a string with a length), then the length (one byte under 0x80; `0x81` and two bytes
//! little-endian; `0x82` and four), then UTF-8. Only that is read; the attributes are not.
//! (The crates that read whole typedstreams are GPL; pigeon is Apache-2.0, so this is ours.)

/// The text of `blob`, if it holds one.
pub fn text(blob: &[u8]) -> Option<String> {
    const CLASS: &[u8] = b"NSString";
    let at = blob.windows(CLASS.len()).position(|w| w == CLASS)? + CLASS.len();
    let rest = &blob[at..];
    // The string's type tag `+` comes within the next few bytes (`01 94 84 01 2B`).
    let plus = rest.iter().take(8).position(|&b| b == b'+')?;
    let rest = &rest[plus + 1..];
    let (len, rest) = match *rest.first()? {
        0x81 => (u16::from_le_bytes(rest.get(1..3)?.try_into().ok()?) as usize, &rest[3..]),
        0x82 => (u32::from_le_bytes(rest.get(1..5)?.try_into().ok()?) as usize, &rest[5..]),
        n if n < 0x80 => (n as usize, &rest[1..]),
        _ => return None,
    };
    String::from_utf8(rest.get(..len)?.to_vec()).ok()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An attributed string archived as Messages archives it, with each length encoding.
    pub(crate) fn archive(s: &str) -> Vec<u8> {
        let raw = s.as_bytes();
        let mut out = b"\x04\x0bstreamtyped\x81\xe8\x03\x84\x01@\x84\x84\x84\x12NSAttributedString\x00\x84\x84\x08NSObject\x00\x85\x92\x84\x84\x84\x08NSString\x01\x94\x84\x01+".to_vec();
        match raw.len() {
            n if n < 0x80 => out.push(n as u8),
            n if n <= 0xffff => {
                out.push(0x81);
                out.extend_from_slice(&(n as u16).to_le_bytes());
            }
            n => {
                out.push(0x82);
                out.extend_from_slice(&(n as u32).to_le_bytes());
            }
        }
        out.extend_from_slice(raw);
        out.extend_from_slice(b"\x86\x84\x02iI\x01\x05\x92\x84\x84\x84\x0cNSDictionary\x00\x94\x84\x01i\x01\x92\x84\x96\x96\x1d__kIMMessagePartAttributeName\x86");
        out
    }

    #[test]
    fn each_length_encoding_reads_back() {
        for s in ["hi", "é ✓ 😀 \"quoted\"\nline", &"x".repeat(200), &"y".repeat(70_000)] {
            assert_eq!(text(&archive(s)).as_deref(), Some(s));
        }
    }

    #[test]
    fn what_is_not_an_archived_string_reads_as_none() {
        assert_eq!(text(b""), None);
        assert_eq!(text(b"streamtyped without the class"), None);
        let mut cut = archive("a longer text than what is left");
        cut.truncate(cut.len() - 80);
        assert_eq!(text(&cut), None);
    }
}
