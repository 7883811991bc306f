//! The real terminal: drawn on `/dev/tty` (stdout stays free for the result), raw mode,
//! alternate screen, bracketed paste, kitty keyboard flags when supported — and always put
//! back: on drop, on panic, when SIGTERM or SIGHUP arrives, and while the process is suspended.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ask_engine::{Event, Size, ViewModel};
use crossterm::event::{
    DisableBracketedPaste, DisableFocusChange, EnableBracketedPaste, EnableFocusChange,
    KeyboardEnhancementFlags, PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use crossterm::{cursor, execute};
use tuirealm::ratatui::Terminal;
use tuirealm::ratatui::backend::CrosstermBackend;

use crate::frame_writer::FrameWriter;
use crate::screen::Screen;

/// What came from the terminal.
pub enum Input {
    /// An event for the flow's log.
    Event(Event),
    /// SIGTERM, SIGHUP, SIGINT or SIGQUIT: stop now (the terminal is restored on drop).
    Signal,
    /// The terminal hung up (its window closed, its ssh link dropped) and no SIGHUP came — the
    /// host blocks or ignores it: stop now instead of polling a dead terminal forever.
    Gone,
    /// The program that started the form has ended and the shell has taken the terminal back:
    /// the form is in a background process group nobody will bring back, and its keys go to the
    /// shell now. Stop instead of staying on the screen until a key ends it with an I/O error.
    Abandoned,
    /// The process was suspended (SIGTSTP, or a SIGSTOP it could not see) and has been
    /// continued: the terminal is taken over again and must be drawn whole, at the size it has
    /// now.
    Resumed,
    /// The terminal window gained (`true`) or lost the focus (not logged: it only decides
    /// whether a waiting form nudges the user).
    Focus(bool),
    /// Nothing within the timeout, or input the flow does not record.
    Nothing,
}

static KITTY_PUSHED: AtomicBool = AtomicBool::new(false);

/// The kitty keyboard flags pushed on terminals that have the protocol.
const KITTY_FLAGS: KeyboardEnhancementFlags = KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES;

/// Whether the terminal is taken over: set before [`claim`] changes anything, cleared by the
/// [`restore`] that puts it back.
static CLAIMED: AtomicBool = AtomicBool::new(false);

/// Puts the terminal back as it was. Safe to call more than once and from a panic hook: only the
/// first call after the terminal was taken over writes anything. A second "leave the alternate screen" would
/// move the cursor back to where the form started (terminals restore the saved cursor even on
/// the main screen), and the shell would write over what was printed since (a panic's line).
pub fn restore() {
    if !CLAIMED.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = disable_raw_mode();
    if let Ok(mut tty) = OpenOptions::new().write(true).open("/dev/tty") {
        if KITTY_PUSHED.swap(false, Ordering::SeqCst) {
            let _ = execute!(tty, PopKeyboardEnhancementFlags);
        }
        let _ = execute!(tty, DisableFocusChange, DisableBracketedPaste, LeaveAlternateScreen, cursor::Show);
        let _ = tty.flush();
    }
}

/// Raw mode, the alternate screen, bracketed paste and focus reports: the terminal as a form
/// needs it ([`restore`] undoes it).
fn claim(out: &mut impl Write) -> io::Result<()> {
    CLAIMED.store(true, Ordering::SeqCst);
    enable_raw_mode()?;
    execute!(out, EnterAlternateScreen, EnableBracketedPaste, EnableFocusChange)
}

/// The terminal a flow is drawn on.
pub struct LiveTerminal {
    /// Never dropped: ratatui's drop prints "Failed to show the cursor" to stderr when the
    /// terminal has gone away, breaking the one-line promise; [`restore`] does its work instead,
    /// and the process ends soon after.
    terminal: std::mem::ManuallyDrop<Terminal<CrosstermBackend<FrameWriter<File>>>>,
    screen: Screen,
    stop: Arc<AtomicBool>,
    /// SIGTSTP arrived: give the terminal back, then stop.
    suspend: Arc<AtomicBool>,
    /// SIGCONT arrived: the process was stopped (perhaps by a SIGSTOP it could not see, and the
    /// shell has had the terminal meanwhile).
    continued: Arc<AtomicBool>,
    /// The same terminal, only asked whether it has hung up or gone to another process group.
    probe: File,
    /// The parent process when the terminal was taken over: another one now means it ended.
    parent: Option<rustix::process::Pid>,
}

static CAUGHT_ELSEWHERE: std::sync::OnceLock<fn(&std::panic::PanicHookInfo) -> bool> =
    std::sync::OnceLock::new();

thread_local! {
    /// Whether this thread took the terminal over (the one that draws and reads it).
    static OWNS_TERMINAL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether another thread of this process has the terminal taken over: a panic on this one
/// must neither restore it (the form goes on, or ends and restores it itself) nor print on it
/// (the alternate screen would swallow the line).
pub fn taken_elsewhere() -> bool {
    CLAIMED.load(Ordering::SeqCst) && !OWNS_TERMINAL.with(std::cell::Cell::get)
}

impl LiveTerminal {
    /// Tells the panic hook which panics are caught by the code around them (e.g. the storage
    /// layer containing a panic from a damaged file): those do not restore the terminal, since
    /// the program goes on and reports them in its own words. The hook that was installed
    /// before a form took the terminal is still called for them, and must print nothing then.
    pub fn panics_caught_when(caught: fn(&std::panic::PanicHookInfo) -> bool) {
        let _ = CAUGHT_ELSEWHERE.set(caught);
    }

    /// Takes over `/dev/tty`. Fails when there is no terminal.
    pub fn open(config_path: Option<&str>) -> io::Result<LiveTerminal> {
        let mut tty = OpenOptions::new().read(true).write(true).open("/dev/tty")?;
        crate::style::set_colourless(crate::style::no_color_env());
        let probe = tty.try_clone()?;
        let stop = Arc::new(AtomicBool::new(false));
        // Raw mode turns Ctrl+C into a key, so these come only from outside (a host forwarding
        // Ctrl+C, `timeout -s INT`, a closed terminal): all of them restore and leave it resumable.
        for signal in [
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGHUP,
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGQUIT,
        ] {
            signal_hook::flag::register(signal, Arc::clone(&stop))?;
        }
        // Raw mode also turns Ctrl+Z into a key (undo), so a suspension comes from outside too.
        let suspend = Arc::new(AtomicBool::new(false));
        let continued = Arc::new(AtomicBool::new(false));
        signal_hook::flag::register(signal_hook::consts::SIGTSTP, Arc::clone(&suspend))?;
        signal_hook::flag::register(signal_hook::consts::SIGCONT, Arc::clone(&continued))?;
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // A panic the code around it catches and reports keeps the screen; the hook below
            // (the one that said which panics are caught) still logs it.
            if !CAUGHT_ELSEWHERE.get().is_some_and(|caught| caught(info)) && !taken_elsewhere() {
                restore();
            }
            previous(info);
        }));
        OWNS_TERMINAL.with(|owns| owns.set(true));
        if let Err(e) = claim(&mut tty) {
            restore(); // raw mode may be on already, and no drop will take it off
            return Err(e);
        }
        // crossterm starts watching for resizes (SIGWINCH) when its input is first polled; until
        // then a resize is lost. The first poll would otherwise come only after the first frame
        // and the opening commit (and the store's opening) — a resize in between went unseen.
        let _ = crossterm::event::poll(Duration::ZERO);
        // A fixed viewport, resized by hand to a clamped size: a terminal reporting 65535×65535
        // must not make ratatui allocate buffers for it.
        let (w, h) = crossterm::terminal::size().unwrap_or((80, 24));
        let (w, h) = crate::drawn_size(w, h);
        let options = tuirealm::ratatui::TerminalOptions {
            viewport: tuirealm::ratatui::Viewport::Fixed(tuirealm::ratatui::layout::Rect::new(0, 0, w, h)),
        };
        let terminal = std::mem::ManuallyDrop::new(Terminal::with_options(
            CrosstermBackend::new(FrameWriter::new(tty)),
            options,
        )?);
        let parent = rustix::process::getppid();
        Ok(LiveTerminal {
            terminal,
            screen: Screen::new(config_path),
            stop,
            suspend,
            continued,
            probe,
            parent,
        })
    }

    /// Turns on the kitty keyboard protocol when the terminal has it: known kitty-protocol
    /// terminals are recognized by their environment; otherwise the terminal is asked. The query
    /// waits for an answer (at most two seconds on a terminal that never answers), so this runs
    /// after the first frame is on screen. crossterm writes that query to stdout when it cannot
    /// write `/dev/tty`, which would corrupt a redirected result, so it is only asked when stdin
    /// and stdout are the terminal. `ASK_USER_KEYBOARD_PROBE=0` turns all of this off.
    pub fn enable_kitty_keys(&mut self) {
        use std::io::IsTerminal;
        if std::env::var("ASK_USER_KEYBOARD_PROBE").is_ok_and(|v| v == "0") {
            return;
        }
        let supported = known_kitty_terminal(|k| std::env::var(k).ok())
            || (io::stdout().is_terminal()
                && io::stdin().is_terminal()
                && matches!(crossterm::terminal::supports_keyboard_enhancement(), Ok(true)));
        if supported
            && execute!(self.terminal.backend_mut(), PushKeyboardEnhancementFlags(KITTY_FLAGS)).is_ok()
            && self.terminal.backend_mut().writer_mut().send().is_ok()
        {
            KITTY_PUSHED.store(true, Ordering::SeqCst);
        }
    }

    /// The terminal's size now.
    pub fn size(&self) -> Size {
        terminal_size()
    }

    /// Draws a frame and sends it in one write; returns the events the frame asks the flow to
    /// record ([`crate::Screen::draw`]).
    pub fn draw(&mut self, view: &Arc<ViewModel>) -> io::Result<Vec<Event>> {
        let screen = &mut self.screen;
        let mut drawn = Vec::new();
        self.terminal.draw(|f| drawn = screen.draw(f, view))?;
        self.terminal.backend_mut().writer_mut().send()?;
        Ok(drawn)
    }

    /// Writes bytes straight to the terminal (a bell, a notification sequence), at once.
    pub fn write_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        let out = self.terminal.backend_mut().writer_mut();
        out.write_all(bytes)?;
        out.send()
    }

    /// Waits up to `timeout` for input.
    pub fn next(&mut self, timeout: Duration) -> io::Result<Input> {
        if self.stop.load(Ordering::SeqCst) {
            return Ok(Input::Signal);
        }
        if self.suspend.swap(false, Ordering::SeqCst) {
            // With its starter gone nobody is left to continue a stopped form: the stop is
            // ignored, as the kernel ignores a terminal's stop signals in an orphaned group.
            if self.starter_gone() {
                return Ok(if self.abandoned() { Input::Abandoned } else { Input::Nothing });
            }
            // The shell gets its terminal back as it was, as from any program that stops.
            let kitty = KITTY_PUSHED.load(Ordering::SeqCst);
            restore();
            signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGTSTP)?;
            return self.resumed(kitty);
        }
        if self.continued.swap(false, Ordering::SeqCst) {
            return self.resumed(KITTY_PUSHED.load(Ordering::SeqCst));
        }
        // A hung-up terminal makes every poll return at once: without this check the loop
        // would spin at full speed forever when SIGHUP does not reach us.
        let ready = crossterm::event::poll(crate::wait::sleepable(timeout));
        if self.hung_up() {
            return Ok(Input::Gone);
        }
        // Keys come only to the foreground, so being left behind is looked for while none do.
        if !ready? {
            return Ok(if self.abandoned() { Input::Abandoned } else { Input::Nothing });
        }
        let event = match crossterm::event::read() {
            Ok(event) => event,
            Err(_) if self.hung_up() => return Ok(Input::Gone),
            Err(_) if self.abandoned() => return Ok(Input::Abandoned),
            Err(e) => return Err(e),
        };
        match event {
            crossterm::event::Event::FocusGained => return Ok(Input::Focus(true)),
            crossterm::event::Event::FocusLost => return Ok(Input::Focus(false)),
            _ => {}
        }
        if let crossterm::event::Event::Resize(w, h) = event {
            let (w, h) = crate::drawn_size(w, h);
            let _ = self.terminal.resize(tuirealm::ratatui::layout::Rect::new(0, 0, w, h));
        }
        // Ctrl+L draws every cell again, as in most terminal programs: another program's output
        // (a shell's job notice, a background job) can scribble over the form. The key still
        // goes to the flow like any other (a keymap may bind it).
        let redraw = ask_engine::KeyPress::new(ask_engine::KeyCode::Char('l'), ask_engine::Modifiers::CTRL);
        if let crossterm::event::Event::Key(k) = &event
            && crate::input::key_press(k) == Some(redraw)
        {
            self.forget_frame()?;
            return Ok(self.screen.on(event).map_or(Input::Resumed, Input::Event));
        }
        Ok(self.screen.on(event).map_or(Input::Nothing, Input::Event))
    }
}

impl LiveTerminal {
    /// Reads, without waiting, the input that has already arrived: its events (up to `max` in
    /// all in `events`) go into `events`, and the first input of another kind (a focus change,
    /// a signal, a hang-up) ends the read and is returned, to be handled next.
    pub fn waiting(&mut self, events: &mut Vec<Event>, max: usize) -> io::Result<Option<Input>> {
        // crossterm's poll with a zero timeout never looks at the events it has already parsed
        // from an earlier read (its loop runs only while time is left), so a burst that came in
        // one read would look like nothing waiting: a few microseconds make it look.
        const PEEK: Duration = Duration::from_micros(20);
        while events.len() < max {
            if !self.stop.load(Ordering::SeqCst) && !crossterm::event::poll(PEEK)? {
                return Ok(None);
            }
            match self.next(PEEK)? {
                Input::Event(event) => events.push(event),
                Input::Nothing => {} // input the flow does not record
                other => return Ok(Some(other)),
            }
        }
        Ok(None)
    }

    /// [`Input::Resumed`] once the terminal is taken over again; [`Input::Gone`] if it hung up
    /// while the process was stopped.
    fn resumed(&mut self, kitty: bool) -> io::Result<Input> {
        match self.take_over(kitty) {
            Ok(()) => Ok(Input::Resumed),
            Err(_) if self.hung_up() => Ok(Input::Gone),
            Err(e) => Err(e),
        }
    }

    /// Takes the terminal over again after the process was continued, as [`LiveTerminal::open`]
    /// did (with the kitty keyboard flags if they were on), and makes the next frame draw every
    /// cell at the size the terminal has now.
    fn take_over(&mut self, kitty: bool) -> io::Result<()> {
        self.continued.store(false, Ordering::SeqCst);
        let out = self.terminal.backend_mut();
        claim(out)?;
        if kitty {
            // Our flags may still be on the terminal's stack: after a SIGSTOP we never saw, or
            // when this runs twice for one continue (SIGCONT's handler can run on another thread
            // after the first take-over cleared its flag). A pop first (harmless on an empty
            // stack) keeps exactly one entry of ours, so the one pop on exit leaves none behind.
            if KITTY_PUSHED.load(Ordering::SeqCst) {
                execute!(out, PopKeyboardEnhancementFlags)?;
            }
            execute!(out, PushKeyboardEnhancementFlags(KITTY_FLAGS))?;
            KITTY_PUSHED.store(true, Ordering::SeqCst);
        }
        out.writer_mut().send()?;
        // The cursor was shown for the shell, and ratatui must know it. What the screen holds
        // is unknown: a resize (even to the same size) clears the viewport and forgets the last
        // frame, so the next draw sends every cell. (`Terminal::clear` would ask the terminal
        // where its cursor is, and wait for keys typed meanwhile to be read past.)
        self.terminal.hide_cursor()?;
        self.forget_frame()
    }

    /// Makes the next frame draw every cell, at the size the terminal has now: a resize (even to
    /// the same size) clears the viewport and forgets the last frame.
    fn forget_frame(&mut self) -> io::Result<()> {
        let (w, h) = crossterm::terminal::size().unwrap_or((80, 24));
        let (w, h) = crate::drawn_size(w, h);
        self.terminal.resize(tuirealm::ratatui::layout::Rect::new(0, 0, w, h))?;
        self.terminal.backend_mut().writer_mut().send()
    }

    /// Whether the form was left behind: its parent has ended (a host killed while it showed the
    /// form) and the terminal's foreground is another process group (the shell took it back).
    /// A form put in the background by job control keeps its parent, and waits to be brought
    /// back as before.
    fn abandoned(&self) -> bool {
        let foreground = rustix::termios::tcgetpgrp(&self.probe);
        self.starter_gone() && foreground.is_ok_and(|fg| fg != rustix::process::getpgrp())
    }

    /// Whether the program that started the form has ended: the form's parent is another
    /// process than when the terminal was taken over.
    fn starter_gone(&self) -> bool {
        rustix::process::getppid() != self.parent
    }

    /// Whether the terminal has hung up, asked without waiting.
    fn hung_up(&self) -> bool {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        let mut fds = [PollFd::new(&self.probe, PollFlags::IN)];
        let now = Timespec { tv_sec: 0, tv_nsec: 0 };
        match poll(&mut fds, Some(&now)) {
            Ok(_) => fds[0].revents().intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL),
            Err(_) => false,
        }
    }
}

impl Drop for LiveTerminal {
    fn drop(&mut self) {
        let _ = self.terminal.show_cursor();
        restore();
    }
}

/// Terminals known to speak the kitty keyboard protocol, recognized by their environment.
pub fn known_kitty_terminal(var: impl Fn(&str) -> Option<String>) -> bool {
    let term = var("TERM").unwrap_or_default();
    let program = var("TERM_PROGRAM").unwrap_or_default();
    var("KITTY_WINDOW_ID").is_some()
        || term == "xterm-kitty"
        || term.starts_with("foot")
        || term == "xterm-ghostty"
        || matches!(program.as_str(), "WezTerm" | "ghostty")
}

/// The controlling terminal's size (80×24 when it cannot be asked), read without taking the
/// terminal over: a flow opened with it needs no resize event before its first frame.
pub fn terminal_size() -> Size {
    let (width, height) = crossterm::terminal::size().unwrap_or((80, 24));
    Size { width, height }
}

#[cfg(test)]
mod tests {
    use super::known_kitty_terminal;

    #[test]
    fn kitty_terminals_are_recognized_by_their_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| (*v).to_owned())
        };
        assert!(known_kitty_terminal(env(&[("TERM", "xterm-kitty")])));
        assert!(known_kitty_terminal(env(&[("TERM", "foot-extra")])));
        assert!(known_kitty_terminal(env(&[("TERM_PROGRAM", "WezTerm")])));
        assert!(!known_kitty_terminal(env(&[("TERM", "xterm-256color"), ("TERM_PROGRAM", "tmux")])));
        assert!(!known_kitty_terminal(env(&[])));
    }
}
