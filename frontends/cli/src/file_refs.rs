//! Paths offered for `@` references: files under the current directory, `.gitignore` respected,
//! ranked by fuzzy match. Read once per flow; what is offered is logged, so replay never walks.

use std::path::Path;

use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;

/// Enough for any project a person can navigate by name; a bigger tree is cut off.
const MAX_FILES: usize = 20_000;
const OFFERED: usize = 8;

/// The files under a directory, relative, with `/` separators.
#[derive(Default)]
pub struct FileIndex {
    files: Option<Vec<String>>,
}

impl FileIndex {
    fn load(root: &Path) -> Vec<String> {
        let walker = ignore::WalkBuilder::new(root).require_git(false).hidden(true).build();
        let mut files: Vec<String> = walker
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
            .filter_map(|e| e.path().strip_prefix(root).ok().map(|p| p.to_string_lossy().replace('\\', "/")))
            .take(MAX_FILES)
            .collect();
        files.sort_by(|a, b| {
            (a.matches('/').count(), a.len(), a.as_str()).cmp(&(b.matches('/').count(), b.len(), b.as_str()))
        });
        files
    }

    /// The best matches for `query` (shallow, short paths first when the query is empty).
    pub fn offer(&mut self, root: &Path, query: &str) -> Vec<String> {
        let files = self.files.get_or_insert_with(|| Self::load(root));
        if query.is_empty() {
            return files.iter().take(OFFERED).cloned().collect();
        }
        let matcher = SkimMatcherV2::default().smart_case();
        let mut scored: Vec<(i64, &String)> =
            files.iter().filter_map(|f| matcher.fuzzy_match(f, query).map(|s| (s, f))).collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.len().cmp(&b.1.len())));
        scored.into_iter().take(OFFERED).map(|(_, f)| f.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitignored_files_are_not_offered_and_fuzzy_queries_rank_paths() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join("target/debug")).unwrap();
        std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
        std::fs::write(root.join("src/main.rs"), "").unwrap();
        std::fs::write(root.join("src/lib.rs"), "").unwrap();
        std::fs::write(root.join("README.md"), "").unwrap();
        std::fs::write(root.join("target/debug/app"), "").unwrap();
        let mut index = FileIndex::default();
        assert_eq!(index.offer(root, "srcmain"), ["src/main.rs"]);
        let all = index.offer(root, "");
        assert_eq!(all, ["README.md", "src/lib.rs", "src/main.rs"], "hidden and ignored files left out");
        assert!(index.offer(root, "app").is_empty());
    }
}
