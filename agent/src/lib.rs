//! `pigeon agent`: the program on the phone's side. It long-polls a node's `/phone/v1/` for the
//! jobs of one phone, hands each text to a connector (a send command, Messages.app on this Mac,
//! or a BlueBubbles server), and reports what became of it. It shares the wire types with the server
//! (`pigeon-protocol`) and nothing else: no engine, no store.

pub mod connector;
pub mod journal;
pub mod media;
pub mod node;
pub mod run;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};

use crate::connector::bluebubbles::Server;
use crate::connector::{BlueBubbles, CommandConnector, Connector, Messages};
use crate::journal::Journal;
use crate::node::{Node, NodeError};

/// `pigeon agent`: run the loop, check the setup, or post one inbound text.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct AgentArgs {
    #[command(subcommand)]
    command: Option<AgentCommand>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum AgentCommand {
    /// Post one text the phone received to the node, and exit (for gammu's `RunOnReceive`, a
    /// Termux job, or any script).
    Inbound(InboundArgs),
}

/// The node and the token; every agent command needs both.
#[derive(Args, Debug)]
struct NodeArgs {
    /// The node, e.g. `https://pigeon.example.com`.
    #[arg(long, env = "PIGEON_AGENT_SERVER", required = true)]
    server: Option<String>,
    /// The phone's agent token (`svc_agent_…`), shown once when the operator added the phone.
    #[arg(long, env = "PIGEON_AGENT_TOKEN", hide_env_values = true, required = true)]
    token: Option<String>,
    /// CA certificates (PEM) to trust beside the system's: for a node (or a BlueBubbles server)
    /// whose certificate a private CA signed.
    #[arg(long, env = "PIGEON_AGENT_CA_FILE")]
    ca_file: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct InboundArgs {
    #[command(flatten)]
    node: NodeArgs,
    /// The sender, E.164.
    #[arg(long)]
    from: String,
    /// The text (optional when `--media` gives a file).
    #[arg(long, required_unless_present = "media")]
    body: Option<String>,
    /// A file received with the text, uploaded first; its type from its extension (`.jpg`,
    /// `.png`, `.heic`, `.mov`, `.m4a`, `.pdf`, `.vcf`, …). Repeat for more, in order (up to 10).
    #[arg(long, value_name = "FILE")]
    media: Vec<PathBuf>,
    /// An id of the text, unique for this phone (the modem's or the phone's own): the node records
    /// a text with an id it has seen in the last 24 h once, so a retried call makes no duplicate.
    #[arg(long)]
    id: Option<String>,
}

/// Connectors.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ConnectorName {
    /// Any command line that sends a text (gammu, ModemManager, termux-sms-send, …).
    Command,
    /// A BlueBubbles server on a Mac.
    Bluebubbles,
    /// Messages.app on this Mac: osascript to send, chat.db for receipts and texts received.
    Messages,
}

#[derive(Args, Debug)]
struct RunArgs {
    #[command(flatten)]
    node: NodeArgs,
    /// What sends the texts.
    #[arg(long, env = "PIGEON_AGENT_CONNECTOR", value_enum, required = true)]
    connector: Option<ConnectorName>,
    /// Where the journal lives: what was handed to the connector and what the node has not yet
    /// taken. Keep it across restarts; one directory per phone.
    #[arg(long, env = "PIGEON_AGENT_STATE_DIR", default_value = "./pigeon-agent-state")]
    state_dir: PathBuf,
    /// Sends running at once; at this many the agent stops asking for more.
    #[arg(long, env = "PIGEON_AGENT_CONCURRENCY", default_value_t = 16)]
    concurrency: usize,
    /// How long each poll waits for work (1–30 s; polling keeps the phone online).
    #[arg(long, env = "PIGEON_AGENT_POLL_WAIT", default_value = "25s", value_parser = humantime::parse_duration)]
    poll_wait: Duration,
    /// Check the setup (the node, the token, the state directory, the connector) and exit.
    #[arg(long)]
    check: bool,
    /// Print a launchd property list that runs this agent with these flags (the token in its
    /// environment, not its arguments), for `~/Library/LaunchAgents/`, and exit.
    #[arg(long)]
    print_launchd: bool,
    /// `command`: the send command, split as a shell would and run without one; `{to}`,
    /// `{body}`, `{channel}` and `{message_id}` are replaced inside their argument.
    #[arg(long, env = "PIGEON_AGENT_SEND_COMMAND")]
    send_command: Option<String>,
    /// `command`: exit 0 means delivered, not just sent (for devices without receipts).
    #[arg(long, env = "PIGEON_AGENT_COMMAND_DELIVERS")]
    command_delivers: bool,
    /// `command`: a send (or detection) command running longer is killed and its message fails.
    #[arg(long, env = "PIGEON_AGENT_COMMAND_TIMEOUT", default_value = "60s", value_parser = humantime::parse_duration)]
    command_timeout: Duration,
    /// `command`: tells whether `{phone}` has iMessage (exit 0 yes, else no). Without it: no.
    #[arg(long, env = "PIGEON_AGENT_DETECT_COMMAND")]
    detect_command: Option<String>,
    /// `bluebubbles`: the server, e.g. `http://mac.local:1234`.
    #[arg(long, env = "PIGEON_AGENT_BB_URL")]
    bb_url: Option<String>,
    /// `bluebubbles`: the server's password.
    #[arg(long, env = "PIGEON_AGENT_BB_PASSWORD", hide_env_values = true)]
    bb_password: Option<String>,
    /// `messages`: the osascript program.
    #[arg(long, env = "PIGEON_AGENT_OSASCRIPT", default_value = "/usr/bin/osascript")]
    osascript: PathBuf,
    /// `messages`: Messages' database (default `~/Library/Messages/chat.db`).
    #[arg(long, env = "PIGEON_AGENT_CHAT_DB")]
    chat_db: Option<PathBuf>,
    /// `messages`: a text with no row in chat.db this long after osascript sent it fails.
    #[arg(long, env = "PIGEON_AGENT_SEND_TIMEOUT", default_value = "30s", value_parser = humantime::parse_duration)]
    send_timeout: Duration,
    /// How often receipts and texts received are read (`messages`, `bluebubbles`), in milliseconds.
    #[arg(long, env = "PIGEON_AGENT_POLL_MS", default_value_t = 1000)]
    poll_ms: u64,
}

/// Runs `pigeon agent` with `args`; the process's exit code.
pub fn main(args: AgentArgs) -> ExitCode {
    let node = match &args.command {
        Some(AgentCommand::Inbound(a)) => &a.node,
        None => &args.run.node,
    };
    if let Some(file) = &node.ca_file {
        if let Err(e) = pigeon_protocol::tls::trust_ca_file(file) {
            eprintln!("pigeon agent: {e}");
            return ExitCode::from(2);
        }
    }
    actix_rt::System::new().block_on(async move {
        match args.command {
            Some(AgentCommand::Inbound(a)) => inbound(a).await,
            None if args.run.check => check(&args.run).await,
            None if args.run.print_launchd => {
                print!("{}", launchd_plist(std::env::args().skip(1), args.run.node.token.as_deref()));
                ExitCode::SUCCESS
            }
            None => serve(args.run).await,
        }
    })
}

fn node_of(a: &NodeArgs) -> Node {
    Node::new(a.server.as_deref().unwrap_or_default(), a.token.as_deref().unwrap_or_default())
}

fn command_of(a: &RunArgs) -> Result<CommandConnector, String> {
    let send = a.send_command.as_deref().ok_or("--connector command needs --send-command")?;
    CommandConnector::new(send, a.detect_command.as_deref(), a.command_delivers, a.command_timeout)
}

fn server_of(a: &RunArgs) -> Result<Server, String> {
    let url = a.bb_url.as_deref().ok_or("--connector bluebubbles needs --bb-url")?;
    let password = a.bb_password.as_deref().ok_or("--connector bluebubbles needs --bb-password")?;
    Server::new(url, password)
}

/// The connector the flags name; it reads and keeps its own state in `journal`.
fn connector_of(a: &RunArgs, journal: &Journal) -> Result<Connector, String> {
    match a.connector {
        Some(ConnectorName::Command) | None => Ok(Connector::Command(command_of(a)?)),
        Some(ConnectorName::Bluebubbles) => {
            let poll = Duration::from_millis(a.poll_ms.max(50));
            Ok(Connector::BlueBubbles(BlueBubbles::new(server_of(a)?, poll, journal.clone())))
        }
        Some(ConnectorName::Messages) => Ok(Connector::Messages(messages_of(a, journal)?)),
    }
}

/// `--chat-db`, or Messages' own under the home directory.
fn chat_db_of(a: &RunArgs) -> Result<PathBuf, String> {
    match &a.chat_db {
        Some(p) => Ok(p.clone()),
        None => Ok(PathBuf::from(std::env::var_os("HOME").ok_or("--chat-db: no HOME to find chat.db in")?)
            .join("Library/Messages/chat.db")),
    }
}

fn messages_of(a: &RunArgs, journal: &Journal) -> Result<Messages, String> {
    let chat_db = chat_db_of(a)?;
    let poll = Duration::from_millis(a.poll_ms.max(50));
    Messages::new(a.osascript.clone(), chat_db, &a.state_dir, poll, a.send_timeout, journal.clone())
}

async fn inbound(a: InboundArgs) -> ExitCode {
    let node = node_of(&a.node);
    let mut media = Vec::with_capacity(a.media.len());
    for path in &a.media {
        match upload(&node, path).await {
            Ok(id) => media.push(id),
            Err(e) => {
                eprintln!("pigeon agent inbound: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    match node.inbound(&a.from, a.body.as_deref(), media, a.id.as_deref()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pigeon agent inbound: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Uploads one received file under its own name; its media id.
async fn upload(node: &Node, path: &Path) -> Result<String, String> {
    let Some(content_type) = media::content_type_of(path) else {
        return Err(
            "not a type the node takes (by its extension: .jpg, .png, .heic, .mov, .m4a, .pdf, .vcf, …)"
                .into(),
        );
    };
    let name = path.file_name().and_then(|n| n.to_str()).ok_or("a file name that is not UTF-8")?;
    let bytes = tokio::fs::read(path).await.map_err(|e| e.to_string())?;
    node.upload(bytes, content_type, name).await.map_err(|e| e.to_string())
}

async fn serve(a: RunArgs) -> ExitCode {
    let (journal, unfinished) = match Journal::open(&a.state_dir) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("pigeon agent: cannot open the journal in {}: {e}", a.state_dir.display());
            return ExitCode::from(2);
        }
    };
    let connector = match connector_of(&a, &journal) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pigeon agent: {e}");
            return ExitCode::from(2);
        }
    };
    let media = match media::MediaDir::open(&a.state_dir) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("pigeon agent: cannot keep attachments in {}: {e}", a.state_dir.display());
            return ExitCode::from(2);
        }
    };
    let poll_wait_s = a.poll_wait.as_secs().clamp(1, pigeon_protocol::MAX_POLL_WAIT_S);
    tracing::info!(
        server = a.node.server.as_deref().unwrap_or_default(),
        connector = ?a.connector,
        state_dir = %a.state_dir.display(),
        unsettled = unfinished.attempted.len() + unfinished.unreported.len(),
        "pigeon agent started"
    );
    let cfg = run::Loop {
        node: node_of(&a.node),
        connector,
        journal,
        concurrency: a.concurrency.max(1),
        poll_wait_s,
        media,
    };
    match run::run(cfg, unfinished).await {
        run::Exit::Stopped => {
            tracing::info!("pigeon agent stopped");
            ExitCode::SUCCESS
        }
        run::Exit::TokenRefused(e) => {
            tracing::error!(error = %e, "the node refused the agent token (revoked, or the phone deleted); stopping");
            eprintln!("pigeon agent: the node refused the agent token: {e}");
            ExitCode::from(3)
        }
        run::Exit::Journal(e) => {
            tracing::error!(error = %e, "cannot write the journal; stopping rather than risk sending twice");
            eprintln!("pigeon agent: cannot write the journal: {e}");
            ExitCode::from(4)
        }
    }
}

/// Each check on its own line: `ok` or `FAIL`, and what to do about a failure.
async fn check(a: &RunArgs) -> ExitCode {
    let mut failed = 0;
    let mut say = |pass: bool, what: String, fix: &str| {
        println!("{} {what}", if pass { "ok  " } else { "FAIL" });
        if !pass {
            println!("     {fix}");
            failed += 1;
        }
    };
    let server = a.node.server.as_deref().unwrap_or_default();
    match node_of(&a.node).me().await {
        Ok(p) => say(
            true,
            format!(
                "the node at {server} takes this token: phone {} ({}), {} of {} sent today",
                p.number,
                if p.enabled { "enabled" } else { "disabled by the operator" },
                p.sent_today,
                p.daily_limit
            ),
            "",
        ),
        Err(NodeError::Unauthorized(e)) => say(
            false,
            format!("the node at {server} refuses this token: {e}"),
            "use the phone's agent token (svc_agent_…), shown once when the operator added the phone",
        ),
        Err(e) if e.to_string().contains("certificate") => say(
            false,
            format!("cannot reach the node: {e}"),
            "a certificate a private authority signed needs --ca-file with that authority (PEM)",
        ),
        Err(e) => say(
            false,
            format!("cannot reach the node: {e}"),
            "check --server (scheme, host and port) and that the node answers GET /readyz",
        ),
    }
    match writable(&a.state_dir) {
        Ok(()) => say(true, format!("the state directory {} is writable", a.state_dir.display()), ""),
        Err(e) => say(
            false,
            format!("the state directory {} is not writable: {e}", a.state_dir.display()),
            "choose another with --state-dir, or give this user write access",
        ),
    }
    match a.connector {
        Some(ConnectorName::Bluebubbles) => match server_of(a) {
            Ok(server) => match server.check().await {
                Ok(about) => say(true, about, ""),
                Err(e) => {
                    say(false, e, "check --bb-url, that the BlueBubbles server runs, and --bb-password")
                }
            },
            Err(e) => say(false, e, "see `pigeon agent --help`"),
        },
        Some(ConnectorName::Messages) => {
            let checked = match chat_db_of(a) {
                Ok(chat_db) => connector::messages::check(&a.osascript, &chat_db).await,
                Err(e) => vec![(false, e, "see `pigeon agent --help`")],
            };
            for (pass, what, fix) in checked {
                say(pass, what, fix);
            }
        }
        _ => match command_of(a) {
            Ok(c) => {
                for program in c.programs() {
                    match find_program(program) {
                        Some(path) => say(true, format!("`{program}` is at {}", path.display()), ""),
                        None => say(
                            false,
                            format!("`{program}` is not an executable file, nor found in PATH"),
                            "install it, or give its full path in the command",
                        ),
                    }
                }
            }
            Err(e) => say(false, e, "see `pigeon agent --help`"),
        },
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A LaunchAgent that runs `pigeon ARGS` (without `--print-launchd` and the token, which goes
/// into its environment instead), restarted after a crash but not after an exit: a refused token
/// exits 3 and should not spin. Logs go to `~/Library/Logs/pigeon-agent.log`.
fn launchd_plist(args: impl Iterator<Item = String>, token: Option<&str>) -> String {
    let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let exe = std::env::current_exe().map(|p| p.display().to_string()).unwrap_or_else(|_| "pigeon".into());
    let mut kept = vec![exe];
    let mut args = args.peekable();
    while let Some(a) = args.next() {
        if a == "--print-launchd" || a.starts_with("--token=") {
            continue;
        }
        if a == "--token" {
            args.next();
            continue;
        }
        kept.push(a);
    }
    let home = std::env::var("HOME").unwrap_or_else(|_| "/tmp".into());
    let mut out = String::from(concat!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
        "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n",
        "<plist version=\"1.0\">\n<dict>\n",
        "  <key>Label</key>\n  <string>dev.pigeon.agent</string>\n",
        "  <key>ProgramArguments</key>\n  <array>\n",
    ));
    for a in &kept {
        out.push_str(&format!("    <string>{}</string>\n", esc(a)));
    }
    out.push_str("  </array>\n");
    if let Some(t) = token {
        out.push_str("  <key>EnvironmentVariables</key>\n  <dict>\n");
        out.push_str(&format!(
            "    <key>PIGEON_AGENT_TOKEN</key>\n    <string>{}</string>\n  </dict>\n",
            esc(t)
        ));
    }
    // A relative --state-dir stays where it was meant to be.
    if let Ok(cwd) = std::env::current_dir() {
        out.push_str(&format!(
            "  <key>WorkingDirectory</key>\n  <string>{}</string>\n",
            esc(&cwd.display().to_string())
        ));
    }
    out.push_str("  <key>RunAtLoad</key>\n  <true/>\n");
    out.push_str("  <key>KeepAlive</key>\n  <dict>\n    <key>Crashed</key>\n    <true/>\n  </dict>\n");
    out.push_str("  <key>ThrottleInterval</key>\n  <integer>10</integer>\n");
    out.push_str(&format!(
        "  <key>StandardErrorPath</key>\n  <string>{}/Library/Logs/pigeon-agent.log</string>\n",
        esc(&home)
    ));
    out.push_str("</dict>\n</plist>\n");
    out
}

fn writable(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let probe = dir.join(".check");
    std::fs::write(&probe, b"ok")?;
    std::fs::remove_file(probe)
}

/// `program` as it would run: a path to an executable file, or the first one in `PATH`.
fn find_program(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable =
        |p: &Path| p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    if program.contains('/') {
        let p = PathBuf::from(program);
        return executable(&p).then_some(p);
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(program)).find(|p| executable(p))
}
