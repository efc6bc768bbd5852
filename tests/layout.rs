//! The picture of DESIGN.md holds in the source: the games are pure (no game imports the
//! conversation, the table, the store, an adapter, or another game) and the store imports
//! nothing above it (the records it keeps come from `records`, which both table and store
//! use), and the table's handlers do not import the core that routes inputs to them. A line
//! of code that breaks it fails this test with the file and line.

use std::path::{Path, PathBuf};

const GAMES: &[&str] = &[
    "carcassonne",
    "circuit",
    "parcheesi",
    "short_circuit",
    "tag",
];

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// The lines of code (comments left out) of `path` that name one of `modules` through
/// `crate::`, with their numbers.
fn uses_of(path: &Path, modules: &[String]) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .filter(|(_, line)| {
            modules.iter().any(|module| {
                line.contains(&format!("crate::{module}::"))
                    || line.contains(&format!("crate::{module};"))
                    || line.contains(&format!("crate::{module}}}"))
                    || line.contains(&format!("crate::{module},"))
            })
        })
        .map(|(number, line)| format!("{}:{}: {}", path.display(), number + 1, line.trim()))
        .collect()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_game_imports_the_layers_above_it_or_another_game() {
    let above: Vec<String> = [
        "chat", "table", "store", "records", "discord", "local", "config",
    ]
    .iter()
    .map(|m| m.to_string())
    .collect();
    let mut broken = Vec::new();
    for game in GAMES {
        let others: Vec<String> = GAMES
            .iter()
            .filter(|other| *other != game)
            .map(|other| format!("games::{other}"))
            .collect();
        for file in sources(&root().join("games").join(game)) {
            broken.extend(uses_of(&file, &above));
            broken.extend(uses_of(&file, &others));
        }
    }
    assert!(
        broken.is_empty(),
        "games must stay pure:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_store_imports_nothing_above_it() {
    let above: Vec<String> = ["table", "chat", "games", "discord", "local"]
        .iter()
        .map(|m| m.to_string())
        .collect();
    let broken: Vec<String> = sources(&root().join("store"))
        .iter()
        .flat_map(|file| uses_of(file, &above))
        .collect();
    assert!(
        broken.is_empty(),
        "the store must not import the table:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_records_import_neither_table_nor_store() {
    let above: Vec<String> = ["table", "store", "discord", "local"]
        .iter()
        .map(|m| m.to_string())
        .collect();
    let broken: Vec<String> = sources(&root().join("records"))
        .iter()
        .flat_map(|file| uses_of(file, &above))
        .collect();
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The lines of code of `path` that import the table's `apply` (the core that routes an
/// input to its handler), however they name it, with their numbers.
fn imports_of_apply(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .filter(|(_, line)| {
            [
                "super::apply",
                "table::apply",
                "super::{apply",
                "super::super::apply",
            ]
            .iter()
            .any(|name| line.contains(name))
                || line.trim_start().starts_with("use apply::")
        })
        .map(|(number, line)| format!("{}:{}: {}", path.display(), number + 1, line.trim()))
        .collect()
}

/// The table's handlers (rounds, lifecycle, vacations, undo, searches, ...) work on
/// `table::work`; `apply` imports them to route an input, so none of them imports `apply`:
/// the table's modules depend one way. Only the callers of the pure core import it: the
/// service, the replay, and the table's list of what it offers.
#[test]
fn the_tables_handlers_do_not_import_the_core_that_calls_them() {
    let table = root().join("table");
    let callers = ["mod.rs", "apply.rs", "service/mod.rs", "audit/replay.rs"];
    let broken: Vec<String> = sources(&table)
        .iter()
        .filter(|file| {
            let relative = file
                .strip_prefix(&table)
                .unwrap()
                .to_string_lossy()
                .to_string();
            !callers.contains(&relative.as_str())
        })
        .flat_map(|file| imports_of_apply(file))
        .collect();
    assert!(
        broken.is_empty(),
        "a handler imports table::apply (import table::work instead):\n{}",
        broken.join("\n")
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("handler.rs");
    std::fs::write(
        &file,
        "// super::apply in a comment is fine\nuse super::work::Work;\nuse super::apply::Live;\n",
    )
    .unwrap();
    let found = imports_of_apply(&file);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with(":3: use super::apply::Live;"));
}

#[test]
fn the_check_sees_a_forbidden_import() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.rs");
    std::fs::write(
        &file,
        "// crate::table:: in a comment is fine\nuse crate::table::Service;\nuse crate::games::tag::Tag;\n",
    )
    .unwrap();
    let found = uses_of(&file, &["table".to_string(), "games::tag".to_string()]);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].ends_with(":2: use crate::table::Service;"));
}

#[test]
fn every_rules_page_the_sources_and_the_readme_name_is_in_the_repository() {
    let repository = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut texts: Vec<(String, String)> = sources(&root())
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path.display().to_string(), text)
        })
        .collect();
    texts.push((
        "README.md".to_string(),
        std::fs::read_to_string(repository.join("README.md")).unwrap(),
    ));
    let mut named = 0;
    for (file, text) in &texts {
        for (at, _) in text.match_indices("docs/rules/") {
            let path: String = text[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '/' | '-' | '_' | '.'))
                .collect();
            let path = path.trim_end_matches('.');
            named += 1;
            assert!(
                repository.join(path).is_file(),
                "{file} names {path}, which is not in the repository"
            );
        }
    }
    assert!(named >= 6, "{named} rules pages named");
}
