//! The `command` connector: any program that sends a text from a command line (gammu or
//! ModemManager for a USB modem, `termux-sms-send` on an Android phone). The command is split as
//! a shell would split it and run without one; `{to}`, `{body}`, `{channel}` and `{message_id}`
//! are replaced inside single arguments, so no text can become a flag, a second command or a
//! shell expansion. An argument that is exactly `{media}` becomes the job's attachments, one
//! local path per argument (none for a text alone).

use std::process::Stdio;
use std::time::Duration;

use pigeon_protocol::{FailureScope, JobChannel, ReportedStatus, StatusBody, UsedChannel};
use tokio::io::AsyncReadExt;
use tokio::process::Command;

use super::SendJob;

/// The exit status of a command that could not send now (sysexits.h `EX_TEMPFAIL`).
pub const EX_TEMPFAIL: i32 = 75;

/// The argument that becomes the attachments' paths.
const MEDIA: &str = "{media}";

/// Most of a command's stderr kept to find its last line.
const STDERR_KEPT: usize = 64 * 1024;

/// A send command and, optionally, a detection command.
#[derive(Debug, Clone)]
pub struct CommandConnector {
    send: Vec<String>,
    detect: Option<Vec<String>>,
    delivers: bool,
    timeout: Duration,
}

impl CommandConnector {
    /// From the `--send-command` and `--detect-command` lines; an unbalanced quote or an empty
    /// command is refused here, before the agent takes any job.
    pub fn new(send: &str, detect: Option<&str>, delivers: bool, timeout: Duration) -> Result<Self, String> {
        let split = |flag: &str, line: &str| {
            let words = shell_words::split(line).map_err(|e| format!("{flag}: {e}"))?;
            if words.is_empty() {
                return Err(format!("{flag}: empty"));
            }
            Ok(words)
        };
        Ok(Self {
            send: split("--send-command", send)?,
            detect: detect.map(|d| split("--detect-command", d)).transpose()?,
            delivers,
            timeout,
        })
    }

    /// Whether the send command takes attachments (an argument that is exactly `{media}`).
    pub fn takes_media(&self) -> bool {
        self.send.iter().any(|w| w == MEDIA)
    }

    /// The programs it runs (for `--check`).
    pub fn programs(&self) -> Vec<&str> {
        std::iter::once(self.send[0].as_str()).chain(self.detect.as_ref().map(|d| d[0].as_str())).collect()
    }

    /// Runs the send command for `job`: exit 0 is `sent` (`delivered` with `--command-delivers`),
    /// anything else `failed` with the last line the command wrote to stderr. Exit 75
    /// (EX_TEMPFAIL) and a command that cannot be started are the phone's fault (`failure_scope:
    /// phone`: the message goes to another phone); any other exit, and a command killed at its
    /// time-out (it may have sent), the recipient's.
    pub async fn send(&self, job: &SendJob) -> StatusBody {
        let channel = match job.channel {
            JobChannel::Auto => "auto",
            JobChannel::Imessage => "imessage",
            JobChannel::Sms => "sms",
        };
        let vars = [
            ("{to}", job.to.as_str()),
            ("{body}", &job.body),
            ("{channel}", channel),
            ("{message_id}", &job.message_id),
        ];
        let failed = |reason: String, scope: FailureScope| StatusBody {
            status: ReportedStatus::Failed,
            failure_reason: Some(reason),
            channel_used: None,
            failure_scope: Some(scope),
        };
        let scope =
            |code: i32| if code == EX_TEMPFAIL { FailureScope::Phone } else { FailureScope::Recipient };
        let argv: Vec<String> = fill(&self.send, &vars)
            .into_iter()
            .zip(&self.send)
            .flat_map(|(filled, word)| match word.as_str() {
                MEDIA => job.files.iter().map(|p| p.display().to_string()).collect(),
                _ => vec![filled],
            })
            .collect();
        match run(&argv, self.timeout).await {
            Ok((0, _)) => StatusBody {
                status: if self.delivers { ReportedStatus::Delivered } else { ReportedStatus::Sent },
                failure_reason: None,
                channel_used: Some(UsedChannel::Sms),
                failure_scope: None,
            },
            Ok((code, last)) if last.is_empty() => {
                failed(format!("the send command exited with status {code}"), scope(code))
            }
            Ok((code, last)) => failed(last, scope(code)),
            Err(e @ RunError::NotRun(_)) => failed(e.to_string(), FailureScope::Phone),
            // It may have sent: another phone must not send it again.
            Err(e @ RunError::Cut(_)) => failed(e.to_string(), FailureScope::Recipient),
        }
    }

    /// Whether `phone` has iMessage: the detection command's exit 0 says yes; without one, or when
    /// it fails to run, no.
    pub async fn detect(&self, phone: &str) -> bool {
        let Some(cmd) = &self.detect else { return false };
        matches!(run(&fill(cmd, &[("{phone}", phone)]), self.timeout).await, Ok((0, _)))
    }
}

/// `words` with each placeholder replaced inside its argument.
fn fill(words: &[String], vars: &[(&str, &str)]) -> Vec<String> {
    words
        .iter()
        .map(|w| {
            let mut out = String::with_capacity(w.len());
            let mut rest = w.as_str();
            // One pass, left to right: a value that looks like a placeholder stays as it is.
            'scan: while !rest.is_empty() {
                for (name, value) in vars {
                    if let Some(after) = rest.strip_prefix(name) {
                        out.push_str(value);
                        rest = after;
                        continue 'scan;
                    }
                }
                let c = rest.chars().next().expect("not empty");
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
            out
        })
        .collect()
}

/// Runs `argv` without a shell, killed after `timeout`; its exit code and the last line of its
/// stderr.
pub(crate) async fn run(argv: &[String], timeout: Duration) -> Result<(i32, String), RunError> {
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| RunError::NotRun(format!("cannot run {}: {e}", argv[0])))?;
    let mut stderr = child.stderr.take().expect("piped");
    let waited = tokio::time::timeout(timeout, async {
        let mut err = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            match stderr.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    err.extend_from_slice(&buf[..n]);
                    if err.len() > STDERR_KEPT {
                        err.drain(..err.len() - STDERR_KEPT);
                    }
                }
            }
        }
        (child.wait().await, err)
    })
    .await;
    let Ok((status, err)) = waited else {
        let why = format!("the command ran past {} and was killed", humantime::format_duration(timeout));
        return Err(RunError::Cut(why));
    };
    let status = status.map_err(|e| RunError::Cut(format!("{}: {e}", argv[0])))?;
    let text = String::from_utf8_lossy(&err);
    let last = text.lines().rev().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let code = status.code().unwrap_or(-1);
    Ok((code, last.chars().take(500).collect()))
}

/// Why a command gave no exit status.
#[derive(Debug)]
pub(crate) enum RunError {
    /// It could not be started (missing, not executable): nothing was sent.
    NotRun(String),
    /// It ran and was cut short (killed at its time-out): it may have sent.
    Cut(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::NotRun(e) | RunError::Cut(e) => f.write_str(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(to: &str, body: &str) -> SendJob {
        SendJob {
            message_id: "01M".into(),
            to: to.into(),
            body: body.into(),
            channel: JobChannel::Auto,
            media: Vec::new(),
            files: Vec::new(),
        }
    }

    #[actix_rt::test]
    async fn an_argument_that_is_exactly_media_becomes_one_argument_per_file() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("argv");
        let line = format!(
            "sh -c 'printf \"%s|\" \"$@\" > {}' sh {{to}} {{media}} x{{media}} {{body}}",
            out.display()
        );
        let c = CommandConnector::new(&line, None, false, Duration::from_secs(10)).unwrap();
        assert!(c.takes_media());
        let mut j = job("+15551234567", "");
        j.files = vec!["/tmp/a b.png".into(), "/tmp/c.pdf".into()];
        assert_eq!(c.send(&j).await.status, ReportedStatus::Sent);
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "+15551234567|/tmp/a b.png|/tmp/c.pdf|x{media}||");
        j.files.clear();
        c.send(&j).await;
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "+15551234567|x{media}||",
            "a text alone adds none"
        );
        assert!(!CommandConnector::new("send {body}", None, false, Duration::from_secs(1))
            .unwrap()
            .takes_media());
    }

    #[test]
    fn placeholders_fill_inside_one_argument_and_values_are_not_read_again() {
        let words = shell_words::split("modem send --to={to} '{body}' {channel}").unwrap();
        let filled = fill(
            &words,
            &[("{to}", "+1555"), ("{body}", "a {to} $(rm -rf /) `x` \"q\"\nz"), ("{channel}", "sms")],
        );
        assert_eq!(filled, ["modem", "send", "--to=+1555", "a {to} $(rm -rf /) `x` \"q\"\nz", "sms"]);
    }

    #[actix_rt::test]
    async fn exit_zero_is_sent_another_exit_fails_with_the_last_line_of_stderr() {
        let t = Duration::from_secs(10);
        let ok = CommandConnector::new("true", None, false, t).unwrap();
        assert_eq!(ok.send(&job("+15551234567", "hi")).await.status, ReportedStatus::Sent);
        let delivers = CommandConnector::new("true", None, true, t).unwrap();
        assert_eq!(delivers.send(&job("+15551234567", "hi")).await.status, ReportedStatus::Delivered);
        let refuses = CommandConnector::new(
            "sh -c 'echo trying >&2; echo \"number $0 refused\" >&2; exit 3' {to}",
            None,
            false,
            t,
        )
        .unwrap();
        let r = refuses.send(&job("+15550000000", "hi")).await;
        assert_eq!(
            (r.status, r.failure_reason.as_deref()),
            (ReportedStatus::Failed, Some("number +15550000000 refused"))
        );
        let silent = CommandConnector::new("false", None, false, t).unwrap();
        assert_eq!(
            silent.send(&job("+1", "x")).await.failure_reason.as_deref(),
            Some("the send command exited with status 1")
        );
        let missing = CommandConnector::new("/nonexistent/sender {to}", None, false, t).unwrap();
        assert!(missing
            .send(&job("+1", "x"))
            .await
            .failure_reason
            .unwrap()
            .starts_with("cannot run /nonexistent/sender"));
    }

    #[actix_rt::test]
    async fn a_command_past_its_time_is_killed_and_the_message_fails() {
        let slow = CommandConnector::new("sleep 30", None, false, Duration::from_millis(200)).unwrap();
        let started = std::time::Instant::now();
        let r = slow.send(&job("+1", "x")).await;
        assert_eq!(r.status, ReportedStatus::Failed);
        assert!(r.failure_reason.unwrap().contains("was killed"));
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[actix_rt::test]
    async fn detection_is_the_detect_commands_exit_status() {
        let t = Duration::from_secs(10);
        let c = CommandConnector::new("true", Some("sh -c 'test \"$0\" = +15551112222' {phone}"), false, t)
            .unwrap();
        assert!(c.detect("+15551112222").await);
        assert!(!c.detect("+15553334444").await);
        assert!(!CommandConnector::new("true", None, false, t).unwrap().detect("+15551112222").await);
        assert!(CommandConnector::new("'unbalanced", None, false, t).is_err());
        assert!(CommandConnector::new("  ", None, false, t).is_err());
    }
}
