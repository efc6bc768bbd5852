//! The picture of DESIGN.md holds in the source: the games are pure (no game imports the
//! conversation, the table, the store, an adapter, or another game, and none reads a clock,
//! a file or a global random source); the store and the records reach nothing above them,
//! even through another module (the records hold what was said and game states as data);
//! the table's handlers do not import the core that routes inputs to them; and DESIGN's
//! other "never"s that the sources can show. A line of code that breaks it fails a test here
//! with the file and line (or the chain of imports).

mod common;

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};

/// The games: every folder of `src/games/` (so a new game is checked without a list to
/// remember).
fn games() -> Vec<String> {
    let mut games: Vec<String> = std::fs::read_dir(root().join("games"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .map(|path| path.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    games.sort();
    games
}

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
    let games = games();
    for game in &games {
        let others: Vec<String> = games
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

/// The top-level module a source file belongs to: `store` for `src/store/tx.rs`, `dice` for
/// `src/dice.rs`.
fn top_module(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap();
    let first = relative.components().next().unwrap().as_os_str();
    first.to_string_lossy().trim_end_matches(".rs").to_string()
}

/// The top-level modules each top-level module names through `crate::` (and the places it
/// does), from every line of code of its files.
fn import_graph(src: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for file in sources(src) {
        let from = top_module(src, &file);
        let text = std::fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for (at, _) in line.match_indices("crate::") {
                let name: String = line[at + "crate::".len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != from {
                    graph
                        .entry(from.clone())
                        .or_default()
                        .entry(name)
                        .or_insert_with(|| {
                            format!("{}:{}: {}", file.display(), number + 1, line.trim())
                        });
                }
            }
        }
    }
    graph
}

/// Every module `start` reaches through imports, each with the chain that reaches it.
fn reached(
    graph: &BTreeMap<String, BTreeMap<String, String>>,
    start: &str,
) -> BTreeMap<String, Vec<String>> {
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut queue: VecDeque<(String, Vec<String>)> = VecDeque::from([(start.to_string(), vec![])]);
    while let Some((module, chain)) = queue.pop_front() {
        for (next, place) in graph.get(&module).into_iter().flatten() {
            if next != start && !found.contains_key(next) {
                let mut longer = chain.clone();
                longer.push(place.clone());
                found.insert(next.clone(), longer.clone());
                queue.push_back((next.clone(), longer));
            }
        }
    }
    found
}

/// The modules of `forbidden` that `module` reaches, directly or through others, each with
/// the lines of the chain.
fn reaches_any(src: &Path, module: &str, forbidden: &[&str]) -> Vec<String> {
    reached(&import_graph(src), module)
        .into_iter()
        .filter(|(name, _)| forbidden.contains(&name.as_str()))
        .map(|(name, chain)| format!("{module} reaches {name}:\n  {}", chain.join("\n  ")))
        .collect()
}

/// The store and the records reach nothing above them, even through another module: the
/// records hold inputs as said and game states as data, so neither the conversation nor the
/// games are below the store.
#[test]
fn the_store_and_the_records_reach_nothing_above_them() {
    let above = ["table", "chat", "games", "discord", "local", "config"];
    for module in ["store", "records"] {
        let broken = reaches_any(&root(), module, &above);
        assert!(broken.is_empty(), "{}", broken.join("\n"));
    }
}

/// The check sees an import two steps away: a file of `records` naming `dice`, and `dice`
/// naming `games`, is `records` reaching `games`.
#[test]
fn the_transitive_check_sees_a_forbidden_import_through_another_module() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("records")).unwrap();
    std::fs::write(src.join("records/log.rs"), "use crate::dice::Draw;\n").unwrap();
    std::fs::write(
        src.join("dice.rs"),
        "// crate::games in a comment\nuse crate::games::Seat;\n",
    )
    .unwrap();
    let broken = reaches_any(src, "records", &["games"]);
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(
        broken[0].starts_with("records reaches games:"),
        "{broken:?}"
    );
    assert!(
        broken[0].ends_with("dice.rs:2: use crate::games::Seat;"),
        "{broken:?}"
    );
    assert!(reaches_any(src, "dice", &["records"]).is_empty());
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

/// The table's handlers (rounds, seats, vacations, undo, searches, ...) work on
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
    let (_dir, file) = common::temp_file(
        "handler.rs",
        "// super::apply in a comment is fine\nuse super::work::Work;\nuse super::apply::Live;\n",
    );
    let found = imports_of_apply(&file);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with(":3: use super::apply::Live;"));
}

#[test]
fn the_check_sees_a_forbidden_import() {
    let (_dir, file) = common::temp_file(
        "bad.rs",
        "// crate::table:: in a comment is fine\nuse crate::table::Service;\nuse crate::games::tag::Tag;\n",
    );
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

/// Lines of code of `files` (comments left out) that contain one of `words`, with their
/// places; SQL is matched with its whitespace collapsed and in lowercase, across lines.
fn code_containing(files: &[PathBuf], words: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let code: Vec<&str> = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect();
        let flat = code
            .join(" ")
            .to_lowercase()
            .replace(['"', '\\'], " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for word in words {
            if flat.contains(&word.to_lowercase()) {
                found.push(format!("{}: {word}", file.display()));
            }
        }
    }
    found
}

/// The "never"s of DESIGN.md that the sources can show, each checked here; the others are
/// behaviours that tests play (a search's verdict is never recomputed on replay:
/// `replay_command::an_impossible_call_replays_the_same_whatever_the_solver_may_search_later`;
/// an order is never judged by when the bot got round to it: the `busy` Discord tests).
#[test]
fn designs_nevers_hold_in_the_sources() {
    let all = sources(&root());
    // "the table never needs to know which game it runs": outside the games, only the
    // catalogue (the games on offer) and the binary's `solve` command name one.
    let outside: Vec<PathBuf> = all
        .iter()
        .filter(|file| {
            let relative = file
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .to_string();
            !relative.starts_with("games/")
                && relative != "table/catalogue.rs"
                && relative != "main.rs"
        })
        .cloned()
        .collect();
    let named: Vec<String> = games()
        .iter()
        .map(|game| format!("games::{game}::"))
        .collect();
    let named: Vec<&str> = named.iter().map(String::as_str).collect();
    let broken = code_containing(&outside, &named);
    assert!(
        broken.is_empty(),
        "a module names a game:\n{}",
        broken.join("\n")
    );
    // "an undo adds inputs and marks what it took back; it never deletes": no statement
    // deletes or rewrites a logged input or event, or a game.
    let broken = code_containing(
        &all,
        &[
            "delete from inputs",
            "delete from events",
            "delete from games",
            "update inputs set input",
            "update events set body",
        ],
    );
    assert!(
        broken.is_empty(),
        "the log is rewritten:\n{}",
        broken.join("\n")
    );
    // The games are pure: "no I/O, no clock, no global RNG, no async".
    let games = sources(&root().join("games"));
    let broken = code_containing(
        &games,
        &[
            "utc::now",
            "systemtime",
            "instant::now",
            "thread_rng",
            "rand::random",
            "async fn",
            ".await",
            "std::fs",
            "std::net",
            "std::env",
            "tokio::",
            "println!",
        ],
    );
    assert!(
        broken.is_empty(),
        "a game is not pure:\n{}",
        broken.join("\n")
    );
    // The check sees what it looks for.
    let (_dir, file) = common::temp_file(
        "bad.rs",
        "// DELETE FROM inputs in a comment is fine\nlet sql = \"DELETE\n  FROM inputs WHERE seq > ?\";\n",
    );
    assert_eq!(code_containing(&[file], &["delete from inputs"]).len(), 1);
}

/// Every game folder has one layout (see `src/games/mod.rs`): the same file for the same idea,
/// and none of the names the games used before it.
#[test]
fn every_game_folder_has_one_layout() {
    for game in games() {
        let folder = root().join("games").join(&game);
        let has = |name: &str| folder.join(name).is_file();
        for name in ["mod.rs", "parse.rs", "picture.rs", "summary.md"] {
            assert!(has(name), "{game} has no {name}");
        }
        assert!(
            has("act.rs") || has("resolve.rs"),
            "{game} has neither act.rs (turns) nor resolve.rs (orders)"
        );
        for old in [
            "render.rs",
            "words.rs",
            "texts.rs",
            "play.rs",
            "turn.rs",
            "game.rs",
        ] {
            assert!(!has(old), "{game} still has {old}");
        }
    }
}

/// The table's modules, top to bottom, one row a layer: the entry (the service and its
/// group commit), the audit (it replays through the core), the core that routes an input,
/// the commands, their handlers and the phase engine's hooks, the seats the commands share
/// (seating, leaving), the phase engine, the helpers it draws on, and what every module works
/// with. A module imports those below it; an import of one above is an upward arrow.
const TABLE_LAYERS: &[&[&str]] = &[
    &["group_commit"],
    &["service"],
    &["audit"],
    &["apply"],
    &["commands"],
    &[
        "undo",
        "computers",
        "private_threads",
        "searches",
        "vacation",
        "endings",
        "attendance",
    ],
    &["seats"],
    &["rounds"],
    &[
        "frame",
        "card",
        "chatter",
        "legacy",
        "ratings",
        "quiet_hours",
        "lookup",
        "options",
    ],
    &["work", "outcome", "catalogue", "flood"],
];

/// The modules of the table folder `table`: its files and folders but `mod.rs`.
fn table_modules(table: &Path) -> Vec<String> {
    let mut modules: Vec<String> = std::fs::read_dir(table)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir() || path.extension().is_some_and(|e| e == "rs"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().to_string())
        .filter(|name| name != "mod")
        .collect();
    modules.sort();
    modules
}

/// The first names of the paths written at `at` in `text`: one (`rounds::act`) or each of
/// a group in braces (`{work::Work, rounds}`).
fn names_at(text: &str, at: usize) -> Vec<String> {
    let rest = &text[at..];
    let first = |item: &str| -> String {
        item.trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    if !rest.starts_with('{') {
        return vec![first(rest)];
    }
    let (mut depth, mut item, mut items) = (0, String::new(), Vec::new());
    for c in rest.chars() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    continue;
                }
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    items.push(item);
    items.iter().map(|item| first(item)).collect()
}

/// The names the table's root (`mod.rs`) re-exports from its modules (`Env` from `work`), each
/// with the module it comes from.
fn reexports(table: &Path, modules: &[String]) -> BTreeMap<String, String> {
    let root = std::fs::read_to_string(table.join("mod.rs")).unwrap_or_default();
    let mut found = BTreeMap::new();
    for (at, _) in root.match_indices("pub use ") {
        let path = &root[at + "pub use ".len()..];
        let module: String = path
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !modules.contains(&module) {
            continue;
        }
        let rest = &path[module.len()..];
        let rest = rest.strip_prefix("::").unwrap_or(rest);
        let statement = &rest[..rest.find(';').unwrap_or(rest.len())];
        for name in statement.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !name.is_empty() {
                found.insert(name.to_string(), module.clone());
            }
        }
    }
    found
}

/// Which table modules each table module names (through `crate::table::`, or `super::` from
/// inside the table, `super::super::` from a folder's file, or a name the table's root
/// re-exports), each with the first line that does: the arrows between the modules of the
/// folder `table`.
fn table_graph(table: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let modules = table_modules(table);
    let reexported = reexports(table, &modules);
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for file in sources(table) {
        let relative = file.strip_prefix(table).unwrap().with_extension("");
        let mut path: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().to_string())
            .collect();
        if path.last().is_some_and(|last| last == "mod") {
            path.pop();
        }
        let Some(from) = path.first().cloned() else {
            continue;
        };
        let original = std::fs::read_to_string(&file).unwrap();
        // Comments blanked, lines kept, so an offset still tells its line.
        let text: String = original
            .lines()
            .map(|line| match line.trim_start().starts_with("//") {
                true => "",
                false => line,
            })
            .collect::<Vec<_>>()
            .join("\n");
        let mut found: Vec<(usize, String)> = Vec::new();
        for (at, _) in text.match_indices("crate::table::") {
            let names = names_at(&text, at + "crate::table::".len());
            found.extend(names.into_iter().map(|name| (at, name)));
        }
        let mut at = 0;
        while let Some(offset) = text[at..].find("super::") {
            let start = at + offset;
            let before = text[..start].chars().last();
            let mut end = start;
            let mut ups = 0;
            while text[end..].starts_with("super::") {
                end += "super::".len();
                ups += 1;
            }
            at = end;
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            // `super::` from `rounds/change.rs` is `rounds` itself; only a path that climbs
            // to the table's root names another module of the table.
            if ups == path.len() {
                found.extend(names_at(&text, end).into_iter().map(|name| (start, name)));
            }
        }
        for (at, name) in found {
            let name = reexported.get(&name).cloned().unwrap_or(name);
            if name != from && modules.contains(&name) {
                let line = text[..at].matches('\n').count();
                let shown = original.lines().nth(line).unwrap_or_default().trim();
                graph
                    .entry(from.clone())
                    .or_default()
                    .entry(name)
                    .or_insert_with(|| format!("{}:{}: {shown}", file.display(), line + 1));
            }
        }
    }
    graph
}

/// The modules of `graph` that reach themselves through imports, each with the lines of one
/// way round.
fn cycles(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<String> {
    let mut found = Vec::new();
    for (module, arrows) in graph {
        for (next, place) in arrows {
            if let Some(back) = reached(graph, next).remove(module) {
                found.push(format!(
                    "{module} reaches itself:\n  {place}\n  {}",
                    back.join("\n  ")
                ));
                break;
            }
        }
    }
    found
}

/// The arrows of `graph` that point to a module in a layer above their own in `layers`.
fn upward_arrows(
    graph: &BTreeMap<String, BTreeMap<String, String>>,
    layers: &[&[&str]],
) -> Vec<String> {
    let layer = |module: &str| layers.iter().position(|row| row.contains(&module));
    let mut found = Vec::new();
    for (module, arrows) in graph {
        for (next, place) in arrows {
            if layer(next) < layer(module) {
                found.push(format!("{module} -> {next}: {place}"));
            }
        }
    }
    found
}

/// DESIGN's inside of the table: no import cycle between its modules, and they import
/// downward (the issue that set the order allowed five arrows up; none is), the phase engine
/// never importing a hook. Every module has its layer, so a new one is placed on purpose.
#[test]
fn the_tables_modules_import_downward_without_a_cycle() {
    let table = root().join("table");
    let unplaced: Vec<String> = table_modules(&table)
        .into_iter()
        .filter(|module| {
            !TABLE_LAYERS
                .iter()
                .any(|row| row.contains(&module.as_str()))
        })
        .collect();
    assert!(
        unplaced.is_empty(),
        "modules of the table with no layer in TABLE_LAYERS: {unplaced:?}"
    );
    let graph = table_graph(&table);
    let cycles = cycles(&graph);
    assert!(
        cycles.is_empty(),
        "table modules in an import cycle:\n{}",
        cycles.join("\n")
    );
    let upward = upward_arrows(&graph, TABLE_LAYERS);
    assert!(
        upward.is_empty(),
        "{} imports point up inside the table:\n{}",
        upward.len(),
        upward.join("\n")
    );
    let hooks = ["attendance", "searches", "vacation", "endings"];
    let engine: Vec<&String> = graph
        .get("rounds")
        .into_iter()
        .flat_map(|arrows| arrows.keys())
        .filter(|module| hooks.contains(&module.as_str()))
        .collect();
    assert!(
        engine.is_empty(),
        "the phase engine imports hooks: {engine:?}"
    );
}

/// The graph check sees imports however they are written, a cycle through three modules,
/// and an arrow pointing up.
#[test]
fn the_table_check_sees_a_cycle_and_an_upward_arrow() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path();
    std::fs::create_dir(table.join("engine")).unwrap();
    std::fs::write(
        table.join("mod.rs"),
        "pub mod top;\npub use engine::{Engine, run};\n",
    )
    .unwrap();
    std::fs::write(
        table.join("top.rs"),
        "// use super::nothing;\nuse crate::table::{engine::run, base};\n",
    )
    .unwrap();
    std::fs::write(table.join("engine/mod.rs"), "mod step;\n").unwrap();
    std::fs::write(
        table.join("engine/step.rs"),
        "use super::run;\nfn f() { super::super::base::g() }\n",
    )
    .unwrap();
    std::fs::write(table.join("base.rs"), "use super::top::Thing;\n").unwrap();
    std::fs::write(table.join("side.rs"), "use crate::table::Engine;\n").unwrap();
    let graph = table_graph(table);
    let arrows: Vec<(String, String)> = graph
        .iter()
        .flat_map(|(from, to)| to.keys().map(move |to| (from.clone(), to.clone())))
        .collect();
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        arrows,
        pairs(&[
            ("base", "top"),
            ("engine", "base"),
            ("side", "engine"),
            ("top", "base"),
            ("top", "engine")
        ])
    );
    assert_eq!(cycles(&graph).len(), 3, "{:?}", cycles(&graph));
    let upward = upward_arrows(&graph, &[&["top"], &["engine"], &["base", "side"]]);
    assert_eq!(upward.len(), 2, "{upward:?}");
    assert!(upward[0].starts_with("base -> top: "), "{upward:?}");
    assert!(upward[1].starts_with("side -> engine: "), "{upward:?}");
}

/// DESIGN's adapters: Discord gets words and cards through the table's API, never from the
/// conversation (`chat`) or the records directly; and the time of day enters the table only
/// as `now`, passed in, never read from the calendar clock inside the table or a game (the
/// service times its own work with `Instant`, which no game or record sees).
#[test]
fn discord_reads_no_words_or_records_directly_and_the_table_reads_no_clock() {
    let mut broken = Vec::new();
    for file in sources(&root().join("discord")) {
        broken.extend(uses_of(&file, &["chat".to_string(), "records".to_string()]));
    }
    assert!(
        broken.is_empty(),
        "Discord imports chat or records directly:\n{}",
        broken.join("\n")
    );
    let mut inside = sources(&root().join("table"));
    inside.extend(sources(&root().join("games")));
    let broken = code_containing(&inside, &["utc::now", "local::now"]);
    assert!(
        broken.is_empty(),
        "the table or a game reads the clock:\n{}",
        broken.join("\n")
    );
}

/// The methods of `impl Service` blocks in `text` that are public beyond the service (`pub`,
/// `pub(crate)`, `pub(in ...)`; not `pub(super)`), by name.
fn public_service_methods(text: &str) -> Vec<String> {
    let mut inside = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.starts_with("impl Service {") {
            inside = true;
        } else if line == "}" {
            inside = false;
        } else if inside {
            // Public to the crate or beyond: `pub`, or `pub(...)` but the service's own.
            let Some(rest) = line.strip_prefix("    pub") else {
                continue;
            };
            if rest.starts_with("(super)") || rest.starts_with("(self)") {
                continue;
            }
            let rest = rest.split_once(')').map_or(rest, |(_, after)| after);
            let declared = rest
                .trim_start()
                .strip_prefix("async fn ")
                .or_else(|| rest.trim_start().strip_prefix("fn "));
            if let Some(name) = declared {
                found.push(name.split('(').next().unwrap_or(name).to_string());
            }
        }
    }
    found
}

/// The service has one public face: every method a caller may use is declared in
/// `service/mod.rs`, and the files behind it keep their work private to the service.
#[test]
fn the_service_declares_its_public_methods_in_one_place() {
    let service = root().join("table/service");
    let mut elsewhere = Vec::new();
    for file in sources(&service) {
        if file.file_name().is_some_and(|name| name == "mod.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for method in public_service_methods(&text) {
            elsewhere.push(format!("{}: {method}", file.display()));
        }
    }
    assert!(
        elsewhere.is_empty(),
        "public methods of the service outside service/mod.rs:\n{}",
        elsewhere.join("\n")
    );
    let face = std::fs::read_to_string(service.join("mod.rs")).unwrap();
    assert!(public_service_methods(&face).contains(&"handle_batch".to_string()));
    // The check sees a public method, and only in the service's own blocks.
    let text = "impl Service {\n    pub async fn handle(\n    pub(crate) fn wide(\n    pub(super) fn inner(\n    fn quiet() {}\n}\nimpl Other {\n    pub fn not_it() {}\n}\n";
    assert_eq!(public_service_methods(text), ["handle", "wide"]);
}
