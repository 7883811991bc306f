//! The headless frontend behind `--script`: script steps become the same events live keys do.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use ask_engine::script_steps;
use ask_storage::DurableFlow;

/// Reads a script file (`-` = stdin).
pub fn read_script(path: &Path) -> anyhow::Result<String> {
    crate::input::read_text(path).with_context(|| format!("cannot read script {}", path.display()))
}

/// Feeds script steps until the flow completes or the script ends; lines after completion are
/// not read. `@` lookups are awaited after each event, so a script replays the same every time.
pub fn run_steps(session: &mut DurableFlow, script: &str, pace: Option<Duration>) -> anyhow::Result<()> {
    if session.state().outcome().is_some() {
        return Ok(());
    }
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
        }
    }
    Ok(())
}
