pub mod sync_hook;
