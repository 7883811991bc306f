//! A nudge when a form is waiting (issue 13.2): a bell, a desktop notification through the
//! terminal (OSC 9 or OSC 777), or a command of the user's — sent once when the form opens (if
//! the terminal does not have the focus, or always), and again as a reminder after a while.
//! Everything sent is sanitized: payload text never reaches the terminal as control bytes.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a nudge reaches the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Channel {
    /// BEL: every terminal; tmux and multiplexers pass it on.
    Bell,
    /// `ESC ] 9 ; message BEL` (iTerm2, WezTerm, kitty, Ghostty, Windows Terminal).
    Osc9,
    /// `ESC ] 777 ; notify ; title ; message BEL` (foot, rxvt-unicode, Ghostty, WezTerm).
    Osc777,
    /// The configured argv, `{title}` and `{message}` replaced.
    Command(Vec<String>),
}

/// The channel `ui.notify` asks for; `auto` picks one from the terminal's environment, `off`
/// and an unusable choice give none.
pub fn channel(notify: &str, command: &[String], var: impl Fn(&str) -> Option<String>) -> Option<Channel> {
    match notify {
        "bell" => Some(Channel::Bell),
        "osc9" => Some(Channel::Osc9),
        "osc777" => Some(Channel::Osc777),
        "command" if !command.is_empty() => Some(Channel::Command(command.to_vec())),
        "auto" => Some(auto(&var)),
        _ => None,
    }
}

/// Terminals known to show OSC 9 or OSC 777 notifications, recognized by their environment;
/// the bell everywhere else.
fn auto(var: &impl Fn(&str) -> Option<String>) -> Channel {
    let term = var("TERM").unwrap_or_default();
    let program = var("TERM_PROGRAM").unwrap_or_default();
    if term.starts_with("foot") || term.starts_with("rxvt-unicode") {
        return Channel::Osc777;
    }
    let osc9 = matches!(program.as_str(), "iTerm.app" | "WezTerm" | "ghostty")
        || term == "xterm-kitty"
        || term == "xterm-ghostty"
        || var("KITTY_WINDOW_ID").is_some()
        || var("WT_SESSION").is_some();
    if osc9 { Channel::Osc9 } else { Channel::Bell }
}

/// Text fit for a terminal notification: no control characters (an `ESC` or `BEL` in a
/// payload title must not end the sequence early or start another), no `;` (OSC 777's field
/// separator), at most 120 characters.
pub fn clean(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| {
            if c.is_control() {
                ' '
            } else if c == ';' {
                ','
            } else {
                c
            }
        })
        .take(120)
        .collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The bytes a terminal channel writes; inside tmux, wrapped in its passthrough (`ESC P tmux;
/// … ESC \`, every `ESC` doubled) so the outer terminal gets them. `None` for a command.
pub fn bytes(channel: &Channel, title: &str, message: &str, in_tmux: bool) -> Option<Vec<u8>> {
    let (title, message) = (clean(title), clean(message));
    let seq = match channel {
        Channel::Bell => return Some(b"\x07".to_vec()), // tmux passes the bell on by itself
        Channel::Osc9 => format!("\x1b]9;{title}: {message}\x07"),
        Channel::Osc777 => format!("\x1b]777;notify;{title};{message}\x07"),
        Channel::Command(_) => return None,
    };
    if !in_tmux {
        return Some(seq.into_bytes());
    }
    let mut wrapped = b"\x1bPtmux;".to_vec();
    for b in seq.bytes() {
        if b == 0x1b {
            wrapped.push(0x1b);
        }
        wrapped.push(b);
    }
    wrapped.extend_from_slice(b"\x1b\\");
    Some(wrapped)
}

/// Runs the command channel, detached: it never blocks the form. A command that does not start
/// is logged, and what went wrong is returned for the form to say.
pub fn run_command(argv: &[String], title: &str, message: &str) -> Result<(), String> {
    let (title, message) = (clean(title), clean(message));
    let argv: Vec<String> =
        argv.iter().map(|a| a.replace("{title}", &title).replace("{message}", &message)).collect();
    let Some((program, args)) = argv.split_first() else { return Ok(()) };
    let spawned = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match spawned {
        // Reaped by a thread so no zombie is left while the form stays open.
        Ok(mut child) => {
            drop(std::thread::spawn(move || child.wait()));
            Ok(())
        }
        Err(e) => {
            tracing::warn!(error = %e, program = %program, "the notify command did not start");
            Err(format!("ui.notifyCommand did not start ({program}: {e}), so no nudge was sent."))
        }
    }
}

/// When a waiting form nudges: once when it opens (always, or when the terminal reports it
/// does not have the focus before the first key), and once more after `remind_after` without a
/// key while the terminal is not known to have the focus.
pub struct Nudger {
    channel: Option<Channel>,
    always: bool,
    remind_after: Option<Duration>,
    title: String,
    message: String,
    focused: Option<bool>,
    keyed: bool,
    opened_sent: bool,
    reminded: bool,
    idle_since: Instant,
    /// Why the last nudge's command did not start, until the form has said it.
    failed: Option<String>,
}

impl Nudger {
    /// From the `ui` section, for a form with this title and first prompt.
    pub fn new(ui: &ask_storage::UiSettings, title: Option<&str>, prompt: &str) -> Nudger {
        let minutes = ui.remind_after_minutes.as_f64().unwrap_or(0.0);
        Nudger {
            channel: channel(&ui.notify, &ui.notify_command, |k| std::env::var(k).ok()),
            always: ui.notify_when == "always",
            // A wait too long for a `Duration` (1e300 minutes) is a reminder that never comes.
            remind_after: (minutes > 0.0).then(|| Duration::try_from_secs_f64(minutes * 60.0).ok()).flatten(),
            title: title.unwrap_or("ask-user").to_owned(),
            message: format!("A question is waiting for your answer: {prompt}"),
            focused: None,
            keyed: false,
            opened_sent: false,
            reminded: false,
            idle_since: Instant::now(),
            failed: None,
        }
    }

    /// Why a nudge's command did not start, once: the form says it with the config's notices.
    pub fn take_failure(&mut self) -> Option<String> {
        self.failed.take()
    }

    /// The form is on screen.
    pub fn opened(&mut self) -> bool {
        self.always && self.first()
    }

    /// The terminal reported a focus change.
    pub fn focus(&mut self, focused: bool) -> bool {
        self.focused = Some(focused);
        !focused && !self.keyed && self.first()
    }

    /// A key reached the form: someone is there.
    pub fn key(&mut self) {
        self.keyed = true;
        self.idle_since = Instant::now();
    }

    /// Time passed: whether the reminder is due.
    pub fn tick(&mut self) -> bool {
        let due = self.remind_after.is_some_and(|after| self.idle_since.elapsed() >= after);
        if due && !self.reminded && self.focused != Some(true) && self.channel.is_some() {
            self.reminded = true;
            return true;
        }
        false
    }

    /// How long the loop may wait before [`Nudger::tick`] can be due.
    pub fn wait(&self, default: Duration) -> Duration {
        match self.remind_after {
            Some(after) if !self.reminded => {
                default.min(after.saturating_sub(self.idle_since.elapsed()).max(Duration::from_millis(20)))
            }
            _ => default,
        }
    }

    fn first(&mut self) -> bool {
        let send = !self.opened_sent && self.channel.is_some();
        self.opened_sent = true;
        send
    }

    /// Sends the nudge: terminal channels through `write`, the command detached.
    pub fn send(&mut self, write: impl FnOnce(&[u8]) -> std::io::Result<()>) {
        let in_tmux = std::env::var_os("TMUX").is_some();
        match &self.channel {
            Some(Channel::Command(argv)) => self.failed = run_command(argv, &self.title, &self.message).err(),
            Some(c) => {
                if let Some(b) = bytes(c, &self.title, &self.message, in_tmux)
                    && let Err(e) = write(&b)
                {
                    tracing::warn!(error = %e, "the nudge could not be written");
                }
            }
            None => {}
        }
        tracing::info!(channel = ?self.channel, "nudged");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| (*v).to_owned())
    }

    #[test]
    fn auto_picks_the_terminal_s_notification_and_the_bell_elsewhere() {
        let none: &[String] = &[];
        assert_eq!(channel("auto", none, env(&[("TERM_PROGRAM", "iTerm.app")])), Some(Channel::Osc9));
        assert_eq!(channel("auto", none, env(&[("TERM", "xterm-kitty")])), Some(Channel::Osc9));
        assert_eq!(channel("auto", none, env(&[("TERM", "foot")])), Some(Channel::Osc777));
        assert_eq!(channel("auto", none, env(&[("WT_SESSION", "x")])), Some(Channel::Osc9));
        assert_eq!(channel("auto", none, env(&[("TERM", "xterm-256color")])), Some(Channel::Bell));
        assert_eq!(channel("off", none, env(&[])), None);
        assert_eq!(channel("command", none, env(&[])), None, "a command channel needs a command");
    }

    #[test]
    fn payload_text_cannot_break_out_of_the_sequence() {
        let b = bytes(&Channel::Osc777, "Setup\x1b]0;pwned\x07", "a;b\nc", false).unwrap();
        assert_eq!(b, b"\x1b]777;notify;Setup ]0,pwned;a,b c\x07");
        assert_eq!(bytes(&Channel::Osc9, "T", "m", false).unwrap(), b"\x1b]9;T: m\x07");
    }

    #[test]
    fn inside_tmux_the_sequence_goes_through_its_passthrough() {
        let b = bytes(&Channel::Osc9, "T", "m", true).unwrap();
        assert_eq!(b, b"\x1bPtmux;\x1b\x1b]9;T: m\x07\x1b\\");
        assert_eq!(bytes(&Channel::Bell, "T", "m", true).unwrap(), b"\x07");
    }

    /// Each name `ui.notify` takes gives its channel; a command channel needs a command.
    #[rstest::rstest]
    #[case::bell("bell", &[], Some(Channel::Bell))]
    #[case::osc9("osc9", &[], Some(Channel::Osc9))]
    #[case::osc777("osc777", &[], Some(Channel::Osc777))]
    #[case::command("command", &["notify-send", "{title}"], Some(Channel::Command(vec!["notify-send".into(), "{title}".into()])))]
    #[case::command_without_one("command", &[], None)]
    #[case::off("off", &[], None)]
    #[case::unknown("fax", &[], None)]
    fn each_notify_name_gives_its_channel(
        #[case] name: &str,
        #[case] argv: &[&str],
        #[case] wanted: Option<Channel>,
    ) {
        let argv: Vec<String> = argv.iter().map(|a| (*a).to_owned()).collect();
        assert_eq!(channel(name, &argv, env(&[("TERM", "xterm-kitty")])), wanted);
    }

    /// Each terminal `auto` knows by one variable alone.
    #[rstest::rstest]
    #[case::wezterm(&[("TERM_PROGRAM", "WezTerm")], Channel::Osc9)]
    #[case::ghostty_program(&[("TERM_PROGRAM", "ghostty")], Channel::Osc9)]
    #[case::ghostty_term(&[("TERM", "xterm-ghostty")], Channel::Osc9)]
    #[case::kitty_window(&[("KITTY_WINDOW_ID", "1")], Channel::Osc9)]
    #[case::rxvt(&[("TERM", "rxvt-unicode-256color")], Channel::Osc777)]
    #[case::nothing_known(&[], Channel::Bell)]
    fn auto_knows_each_terminal_by_one_variable(
        #[case] vars: &'static [(&'static str, &'static str)],
        #[case] wanted: Channel,
    ) {
        assert_eq!(channel("auto", &[], env(vars)), Some(wanted));
    }

    fn nudger(channel: Option<Channel>, always: bool, remind_after: Option<Duration>) -> Nudger {
        let ui = ask_storage::UiSettings::default();
        Nudger { channel, always, remind_after, ..Nudger::new(&ui, Some("T"), "p") }
    }

    /// What happens to a form, in order, and whether each step nudges.
    #[derive(Clone, Copy, Debug)]
    enum Step {
        Open,
        FocusOut,
        FocusIn,
        Key,
    }

    /// The opening nudge: at most once; on opening when `notifyWhen` is `always`, else when the
    /// terminal says it lost the focus before anyone pressed a key; never without a channel.
    #[rstest::rstest]
    #[case::always_on_opening(true, true, &[Step::Open, Step::FocusOut], &[true, false])]
    #[case::unfocused_not_on_opening(false, true, &[Step::Open, Step::FocusOut, Step::FocusOut], &[false, true, false])]
    #[case::unfocused_after_focus_came_back(false, true, &[Step::Open, Step::FocusIn, Step::FocusOut], &[false, false, true])]
    #[case::not_once_someone_typed(false, true, &[Step::Open, Step::Key, Step::FocusOut], &[false, false, false])]
    #[case::always_not_twice(true, true, &[Step::Open, Step::Open], &[true, false])]
    #[case::no_channel(true, false, &[Step::Open, Step::FocusOut], &[false, false])]
    fn the_opening_nudge_comes_once_when_no_one_is_there(
        #[case] always: bool,
        #[case] has_channel: bool,
        #[case] steps: &[Step],
        #[case] nudged: &[bool],
    ) {
        let mut n = nudger(has_channel.then_some(Channel::Bell), always, None);
        let got: Vec<bool> = steps
            .iter()
            .map(|s| match s {
                Step::Open => n.opened(),
                Step::FocusOut => n.focus(false),
                Step::FocusIn => n.focus(true),
                Step::Key => {
                    n.key();
                    false
                }
            })
            .collect();
        assert_eq!(got, nudged, "{steps:?}");
    }

    const AFTER: Duration = Duration::from_secs(600);

    /// The reminder: once, `remindAfterMinutes` after the last key, unless the terminal has the
    /// focus or there is no channel; a key starts the wait again.
    #[rstest::rstest]
    #[case::due(Some(Channel::Bell), Some(AFTER), 601, None, true)]
    #[case::not_yet(Some(Channel::Bell), Some(AFTER), 590, None, false)]
    #[case::reminders_off(Some(Channel::Bell), None, 10_000, None, false)]
    #[case::focused(Some(Channel::Bell), Some(AFTER), 601, Some(true), false)]
    #[case::focus_lost(Some(Channel::Bell), Some(AFTER), 601, Some(false), true)]
    #[case::no_channel(None, Some(AFTER), 601, None, false)]
    fn the_reminder_comes_after_its_minutes_without_a_key(
        #[case] channel: Option<Channel>,
        #[case] after: Option<Duration>,
        #[case] idle_secs: u64,
        #[case] focused: Option<bool>,
        #[case] due: bool,
    ) {
        let mut n = nudger(channel, true, after);
        n.idle_since = Instant::now() - Duration::from_secs(idle_secs);
        n.focused = focused;
        assert_eq!(n.tick(), due);
        assert!(!n.tick(), "never twice");
        let mut keyed = nudger(Some(Channel::Bell), true, after);
        keyed.idle_since = Instant::now() - Duration::from_secs(idle_secs);
        keyed.key();
        assert!(!keyed.tick(), "a key starts the wait again");
    }

    /// How long the loop may sleep: until the reminder is due (at least 20 ms), never past its
    /// own default, and the default once reminded or with reminders off.
    #[test]
    fn the_loop_wakes_when_the_reminder_is_due() {
        let second = Duration::from_secs(1);
        let mut n = nudger(Some(Channel::Bell), true, Some(AFTER));
        assert_eq!(n.wait(second), second, "the default when the reminder is further off");
        let left = n.wait(Duration::from_secs(3600));
        assert!(left <= AFTER && left > AFTER - second, "{left:?}");
        n.idle_since = Instant::now() - AFTER - second;
        assert_eq!(n.wait(second), Duration::from_millis(20), "overdue: soon, not at once");
        assert!(n.tick());
        assert_eq!(n.wait(second), second, "reminded: the default");
        assert_eq!(nudger(Some(Channel::Bell), true, None).wait(second), second);
    }
}
