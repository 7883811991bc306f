//! The headless frontend behind `--script`: script steps become the same events live keys do.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use ask_engine::{Size, script_steps};
use ask_storage::DurableFlow;
use ask_tui::MemoryTerminal;

/// Reads a script file (`-` = stdin).
pub fn read_script(path: &Path) -> anyhow::Result<String> {
    crate::input::read_text(path).with_context(|| format!("cannot read script {}", path.display()))
}

/// Feeds script steps until the flow completes or the script ends; lines after completion are
/// not read. `@` lookups are awaited after each event, so a script replays the same every time.
///
/// After each event the frame a terminal of the flow's size would show is drawn in memory, and
/// what only the drawing knows (a scroll position clamped at an end, an editor's width) is
/// recorded as the live terminal records it: a script behaves as the same keys typed one at a
/// time into a real terminal of that size.
pub fn run_steps(session: &mut DurableFlow, script: &str, pace: Option<Duration>) -> anyhow::Result<()> {
    if session.state().outcome().is_some() {
        return Ok(());
    }
    let mut screen = Screen::new(session.state().size());
    screen.draw_and_record(session)?;
    for step in script_steps(script) {
        for event in step?.events(session.state().settings())? {
            if let Some(pause) = pace {
                std::thread::sleep(pause);
            }
            session.push(event)?;
            session.settle()?;
            if session.state().outcome().is_some() {
                return Ok(());
            }
            screen.draw_and_record(session)?;
        }
    }
    Ok(())
}

/// The terminal a script's keys are typed into, in memory, at the flow's size.
struct Screen {
    term: MemoryTerminal,
    size: Size,
}

impl Screen {
    fn new(size: Size) -> Screen {
        Screen { term: MemoryTerminal::new(size.width, size.height, None), size }
    }

    fn draw_and_record(&mut self, session: &mut DurableFlow) -> anyhow::Result<()> {
        let size = session.state().size();
        if size != self.size {
            self.term.resize(size.width, size.height);
            self.size = size;
        }
        session.push_all(&self.term.render(&Arc::new(session.state().view())))?;
        Ok(())
    }
}
