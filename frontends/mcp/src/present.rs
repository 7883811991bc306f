//! Where the form is shown when an MCP client owns the terminal: the first rung that applies.

use std::path::Path;
use std::process::Stdio;

/// One way of showing the form, in the order `mcp.presentation` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rung {
    /// The full terminal form in a tmux popup (inside tmux 3.2 or later).
    Tmux,
    /// The client's own form (MCP elicitation), answers fed through the engine.
    Elicitation,
    /// Another terminal: the user runs `ask-user attach`; the call waits for the outcome.
    Terminal,
}

impl Rung {
    /// Parses a `mcp.presentation` entry.
    pub fn parse(name: &str) -> Option<Rung> {
        match name {
            "tmux" => Some(Rung::Tmux),
            "elicitation" => Some(Rung::Elicitation),
            "terminal" => Some(Rung::Terminal),
            _ => None,
        }
    }
}

/// Whether this server runs inside tmux 3.2 or later (display-popup exists from 3.2).
pub fn tmux_available() -> bool {
    if std::env::var_os("TMUX").is_none_or(|t| t.is_empty()) {
        return false;
    }
    let Ok(out) = std::process::Command::new("tmux").arg("-V").stderr(Stdio::null()).output() else {
        return false;
    };
    has_popups(&String::from_utf8_lossy(&out.stdout))
}

/// Whether `tmux -V` printed a version with `display-popup` ("tmux 3.2a", "tmux next-3.5").
fn has_popups(version_line: &str) -> bool {
    let version = version_line.split_whitespace().nth(1).unwrap_or("");
    let mut parts = version.split(|c: char| !c.is_ascii_digit()).filter_map(|p| p.parse::<u32>().ok());
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    (major, minor) >= (3, 2)
}

/// Single-quotes `s` for the shell tmux runs the popup command with.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The popup showing flow `id`: `tmux display-popup -E` running `ask-user attach`.
pub fn popup_command(bin: &Path, id: &str, store: &Path, config: Option<&Path>) -> tokio::process::Command {
    let mut inner = format!(
        "{} attach {} --store {}",
        quote(&bin.display().to_string()),
        quote(id),
        quote(&store.display().to_string())
    );
    if let Some(config) = config {
        inner.push_str(&format!(" --config {}", quote(&config.display().to_string())));
    }
    let mut cmd = tokio::process::Command::new("tmux");
    cmd.args(["display-popup", "-E", "-w", "90%", "-h", "90%", "-T", " ask_user ", &inner]);
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).kill_on_drop(true);
    cmd
}

/// The bytes that make the user's terminal ring and, where the terminal shows desktop
/// notifications for OSC 9 (iTerm2, WezTerm, kitty, foot, Windows Terminal, Ghostty), say why.
/// The message is reduced to printable ASCII, so it can never carry a control sequence.
pub fn nudge_bytes(message: &str, term: &str, term_program: &str, wt_session: bool) -> Vec<u8> {
    let osc9 = wt_session
        || matches!(term_program, "iTerm.app" | "WezTerm" | "ghostty")
        || term.contains("kitty")
        || term.starts_with("foot");
    let mut out = vec![0x07];
    if osc9 {
        let clean: String = message.chars().filter(|c| c.is_ascii() && !c.is_ascii_control()).collect();
        out.extend_from_slice(format!("\x1b]9;{clean}\x07").as_bytes());
    }
    out
}

/// Rings the terminal this server was started from, if it has one (an MCP client started in a
/// terminal usually shares it): a form is waiting in another terminal.
pub fn nudge(message: &str) {
    use std::io::Write;
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    let bytes =
        nudge_bytes(message, &var("TERM"), &var("TERM_PROGRAM"), std::env::var_os("WT_SESSION").is_some());
    if let Ok(mut tty) = std::fs::OpenOptions::new().write(true).open("/dev/tty") {
        let _ = tty.write_all(&bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::{Rung, has_popups, nudge_bytes, popup_command};
    use rstest::rstest;
    use std::path::Path;

    #[rstest]
    #[case("tmux", Some(Rung::Tmux))]
    #[case("elicitation", Some(Rung::Elicitation))]
    #[case("terminal", Some(Rung::Terminal))]
    #[case("Tmux", None)]
    #[case("popup", None)]
    fn each_presentation_name_is_its_rung(#[case] name: &str, #[case] rung: Option<Rung>) {
        assert_eq!(Rung::parse(name), rung);
    }

    #[rstest]
    #[case("tmux 3.2", true)]
    #[case("tmux 3.2a", true)]
    #[case("tmux 3.4\n", true)]
    #[case("tmux 10.0", true)]
    #[case("tmux next-3.5", true)]
    #[case("tmux 3.1c", false)]
    #[case("tmux 2.9a", false)]
    #[case("tmux master", false)]
    #[case("", false)]
    fn popups_need_tmux_3_2_or_later(#[case] version_line: &str, #[case] popups: bool) {
        assert_eq!(has_popups(version_line), popups, "{version_line:?}");
    }

    /// The popup's command line is run by tmux's shell: a path with a space, a quote or a `$`
    /// must reach `ask-user attach` as written, not split or expanded.
    #[test]
    fn the_popup_command_survives_the_shell_with_any_path() {
        let bin = Path::new("/opt/it's here/ask-user");
        let store = Path::new("/home/o'brien/$HOME `x`/store.redb");
        let config = Path::new("/tmp/a b/c'd.toml");
        let cmd = popup_command(bin, "flow'1", store, Some(config));
        let args: Vec<String> = cmd.as_std().get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        let inner = args.last().expect("the popup runs a command");
        // Each word the shell makes of it, one per line (printf's format repeats per argument).
        let words = std::process::Command::new("sh")
            .args(["-c", &format!("printf '%s\\n' {}", inner)])
            .output()
            .expect("sh runs");
        let printed = String::from_utf8(words.stdout).unwrap();
        let expected = [
            bin.to_str().unwrap(),
            "attach",
            "flow'1",
            "--store",
            store.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
        ];
        assert_eq!(printed.lines().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn a_plain_terminal_gets_a_bell_and_a_notifying_one_a_sanitized_osc9_too() {
        assert_eq!(nudge_bytes("hi", "xterm-256color", "", false), b"\x07");
        assert_eq!(
            nudge_bytes("run \x1b]0;x\x07 it", "xterm-kitty", "", false),
            b"\x07\x1b]9;run ]0;x it\x07"
        );
        assert_eq!(nudge_bytes("a", "xterm", "iTerm.app", false), b"\x07\x1b]9;a\x07");
        assert_eq!(nudge_bytes("a", "xterm", "", true), b"\x07\x1b]9;a\x07", "Windows Terminal");
    }

    #[test]
    fn without_tmux_in_the_environment_there_is_no_popup() {
        // $TMUX is what says this process runs inside tmux, whatever tmux is installed.
        if std::env::var_os("TMUX").is_none() {
            assert!(!super::tmux_available());
        }
    }
}
