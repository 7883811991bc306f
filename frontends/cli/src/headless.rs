//! The headless frontend behind `--script`: script steps become the same events live keys do.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use ask_engine::{Event, script_steps};
use ask_storage::save_behaviour;

use crate::session::FlowSession;

/// Reads a script file (`-` = stdin).
pub fn read_script(path: &Path) -> anyhow::Result<String> {
    crate::input::read_text(path).with_context(|| format!("cannot read script {}", path.display()))
}

/// Feeds script steps until the flow completes or the script ends; lines after completion are
/// not read. Overlay toggles are saved to `config` (when known); a failed save comes back as an
/// event, as it would live.
pub fn run_steps(
    session: &mut FlowSession,
    script: &str,
    config: Option<&Path>,
    pace: Option<Duration>,
) -> anyhow::Result<()> {
    if session.state().outcome().is_some() {
        return Ok(());
    }
    for step in script_steps(script) {
        for event in step?.events(session.state().settings())? {
            if let Some(pause) = pace {
                std::thread::sleep(pause);
            }
            let before = *session.state().settings();
            let fx = session.push(event)?;
            if let (Some(settings), Some(path)) = (fx.save_settings, config)
                && let Err(e) = save_behaviour(path, &settings)
            {
                tracing::warn!(error = %e, "settings save failed");
                session.push(Event::SettingsSaveFailed { settings: before, message: e.to_string() })?;
            }
            if session.state().outcome().is_some() {
                return Ok(());
            }
        }
    }
    Ok(())
}
