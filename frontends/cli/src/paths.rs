//! Where the config file and the store live.

use std::path::{Path, PathBuf};

use crate::cli::FlowArgs;

fn dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "ask-user")
}

/// `--config`, else `$ASK_USER_CONFIG`, else `<config dir>/ask-user/config.json`.
pub fn config_path(flow: &FlowArgs) -> Option<PathBuf> {
    flow.config.clone().or_else(default_config_path)
}

/// A path from the environment; set but empty reads as unset (`ASK_USER_STORE= cmd`), as it
/// does for `PATH`-like variables, instead of naming no file at all.
pub fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// `$ASK_USER_CONFIG`, else `<config dir>/ask-user/config.json`.
pub fn default_config_path() -> Option<PathBuf> {
    env_path("ASK_USER_CONFIG").or_else(|| dirs().map(|d| d.config_dir().join("config.json")))
}

/// The store file: `--store`, else `$ASK_USER_STORE`, else `<data dir>/ask-user/store.redb`.
pub fn store_path(explicit: Option<&Path>) -> anyhow::Result<PathBuf> {
    explicit
        .map(Path::to_path_buf)
        .or_else(|| env_path("ASK_USER_STORE"))
        .or_else(|| dirs().map(|d| d.data_dir().join("store.redb")))
        .ok_or_else(|| anyhow::anyhow!("no home directory to keep the store in; pass --store FILE"))
}

/// Opens the store (see [`store_path`]).
pub fn open_store(explicit: Option<&Path>) -> anyhow::Result<ask_storage::Store> {
    Ok(ask_storage::Store::open(&store_path(explicit)?)?)
}

/// The settings for a command that shows no form: what loading them found wrong (a file moved
/// aside for a bad value, a migration) is said on stderr, as a form would show it in its footer.
/// Without this, a command that loaded the config first — `answer` before its form, `log prune`
/// — was the one that moved a broken file aside, and nothing ever told the user why their
/// settings had gone.
pub fn load_settings_saying_why(config: Option<&Path>) -> ask_storage::LoadedConfig {
    let loaded = ask_storage::load_settings(config);
    for notice in &loaded.notices {
        errln!("ask-user: {notice}");
    }
    loaded
}

/// Refuses, before the command runs, an output file that is the store itself (`log export -o`,
/// `--frame-out` given the store's path by a slip of tab completion): writing it would truncate
/// every flow kept there.
pub fn refuse_store_as_output(command: &crate::cli::Command) -> anyhow::Result<()> {
    let Some((output, store)) = command.output_beside_store() else { return Ok(()) };
    let Ok(store) = store_path(store) else { return Ok(()) };
    if ask_storage::files::same_file(output, &store) {
        anyhow::bail!("{} is the store itself; write the output to another file", output.display());
    }
    Ok(())
}
