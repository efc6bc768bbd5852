//! What players are told to type is what the bot takes: every command a prompt, a refusal,
//! `!help` or `!rules` prints parses as printed (with the table's own prefix), and a move
//! typed without the prefix by the player whose turn it is gets the line to type instead of
//! silence. On the console, every game replayed.

mod common;

use common::{assert_says, count, play, play_on, replay_every_game, start_time};
use referee::table::commands::REGISTRY as TABLE_COMMANDS;
use referee::table::commands::{find, parse_line as parse_channel, Place};
use referee::table::Catalogue;

/// The backticked spans of a text: `` `!place 1 0 90` `` gives "!place 1 0 90".
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// Whether `word` is one of the table's commands typed in the channel (the words said by DM,
/// like `setup key=value`, are printed without a prefix).
fn in_the_channel(word: &str) -> bool {
    TABLE_COMMANDS
        .iter()
        .any(|c| c.name == word && c.place() != Place::Direct)
}

#[tokio::test]
async fn every_command_the_games_print_is_one_the_parser_takes() {
    let catalogue = Catalogue::standard();
    let played = [
        (
            "carcassonne",
            include_str!("transcripts/carcassonne_2p_seed3.txt"),
        ),
        (
            "parcheesi",
            include_str!("transcripts/parcheesi_2p_seed7.txt"),
        ),
        (
            "shortcircuit",
            include_str!("transcripts/short_circuit_2p_seed9.txt"),
        ),
        ("circuit", include_str!("transcripts/circuit_3p_seed11.txt")),
        ("tag", include_str!("transcripts/tag_3p_seed7.txt")),
    ];
    for (name, transcript) in played {
        let rules = catalogue.find(name).unwrap();
        let extra = format!("x #help: !help {name}\nx #help: !rules {name}\n");
        let out = play(&format!("{transcript}\n{extra}")).await;
        // The game's declared words: each command's name and its aliases.
        let actions: Vec<&str> = rules
            .commands()
            .iter()
            .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
            .collect();
        let mut prefixed = 0;
        // A refusal of an unknown command quotes what the player typed.
        let said_by_the_bot = out
            .lines()
            .filter(|line| !line.contains("There is no command"));
        for line in said_by_the_bot {
            for span in backticked(line) {
                // Printed with the prefix: the parser reads a command the table or the game has.
                if span.starts_with('!') && span.len() > 1 {
                    prefixed += 1;
                    // A usage form (`!new <game> key=value ...`) names its word; a literal
                    // command must parse whole.
                    let usage = span.contains('<') || span.contains("...");
                    let word = match parse_channel(span, "!") {
                        Ok(Some((word, _))) if find(&word).is_none() => word,
                        Ok(Some(_)) => continue,
                        _ if usage => span[1..]
                            .split_whitespace()
                            .next()
                            .unwrap_or_default()
                            .to_string(),
                        other => panic!("{name}: `{span}` does not parse: {other:?}\n{line}"),
                    };
                    let known = actions.contains(&word.as_str()) || in_the_channel(&word);
                    assert!(known, "{name}: `{span}` names no command\n{line}");
                }
                // An action of this game shown in the channel is shown with its prefix.
                let first = span.split_whitespace().next().unwrap_or_default();
                // (A glossary line, "- `start`: ...", names a game's word, not a command.)
                let glossary = line.contains(" <- - `");
                let table_word = !glossary && in_the_channel(first);
                if line.starts_with('#') && (actions.contains(&first) || table_word) {
                    panic!("{name}: the command `{span}` is printed without its prefix\n{line}");
                }
            }
        }
        assert!(prefixed > 5, "{name}: {prefixed} commands printed\n{out}");
    }
}

#[tokio::test]
async fn carcassonne_prompts_type_as_printed_and_a_move_without_the_prefix_gets_the_line_to_type() {
    let out = play(
        "ann #carc: !new carcassonne seed=3\nann #carc: !join\nbob #carc: !join blue\nann #carc: !start\nann #carc: place -1 0 0\nbob #carc: place -1 0 0\nann #carc: place 9 9 0\nann #carc: placing it now\nann #carc: !place -1 0 0\nann #carc: pass\nann #carc: !pass\n",
    )
    .await;
    assert!(
        out.contains("Answer `!place <x> <y> <rotation>`, then `!meeple <feature>`, `!ringmaster <feature>`, `!acrobat <x> <y>`, `!pyramid <x> <y>` or `!pass` (or both in one line: `!place "),
        "{out}"
    );
    // Only the player whose turn it is, and only for a line that would have been legal.
    assert_says(
        &out,
        &[
            "#carc <- ann: did you mean `!place -1 0 0`? Actions start with `!`; that line was not played.",
            "#carc <- ann: did you mean `!pass`?",
        ],
    );
    assert_eq!(count(&out, "did you mean"), 2, "{out}");
    // The hinted line was not played: the tile is placed once, by the line with the prefix.
    assert_eq!(count(&out, "ann places tile"), 1, "{out}");
    assert!(out.contains("ann places no follower."), "{out}");
}

#[tokio::test]
async fn a_long_line_that_would_be_a_move_is_not_repeated_back_as_the_line_to_type() {
    // Short Circuit's `concede` takes any words after it, so a long line starting with it
    // would be legal; the hint quotes only a line short enough to be one a player meant.
    let long = format!("concede {}", "z".repeat(70));
    let out = play(&format!(
        "gm #duel: !new shortcircuit\ngm dm: setup first=ann\nann #duel: !join\nbob #duel: !join\n\
         gm #duel: !start\nann #duel: {long}\nann #duel: concede\n"
    ))
    .await;
    assert_says(
        &out,
        &["#duel <- ann: did you mean `!concede`? Actions start with `!`"],
    );
    assert_eq!(count(&out, "did you mean"), 1, "{out}");
    assert_eq!(count(&out, "zzzzzzzzzz"), 0, "{out}");
    // Neither line was played: nobody conceded.
    assert_eq!(count(&out, "concedes"), 0, "{out}");
}

#[tokio::test]
async fn a_table_with_another_prefix_prints_its_own_prefix_in_the_games_prompts() {
    let mut config = common::default_config("sqlite::memory:");
    config.table.prefix = "?".to_string();
    let service = common::standard_service(&config).await;
    let out = play_on(
        &service,
        "ann #carc: ?new carcassonne seed=3\nann #carc: ?join\nbob #carc: ?join blue\nann #carc: ?start\nann #carc: place -1 0 0\nann #carc: ?place -1 0 0\n",
        start_time(),
        &[],
    )
    .await;
    replay_every_game(&service).await;
    assert_says(
        &out,
        &[
            "Answer `?place <x> <y> <rotation>`, then `?meeple <feature>`",
            "ann: did you mean `?place -1 0 0`? Actions start with `?`",
            "`?pass`",
        ],
    );
    assert_eq!(count(&out, "`!"), 0, "{out}");
}

#[tokio::test]
async fn a_games_declared_alias_plays_as_its_command_and_help_names_it() {
    let out = play(
        "alice #t: !new parcheesi seed=4\nalice #t: !join\nbob #t: !join\ncarol #t: !join\n\
         alice #t: !start\nbob #t: !e 1\nbob #t: !m 1 6\nalice #t: !help m\n",
    )
    .await;
    assert_eq!(
        count(
            &out,
            "red (bob) brings pawn 1 out of the nest onto 22 with the 5."
        ),
        1,
        "{out}"
    );
    assert_eq!(
        count(&out, "red (bob) moves pawn 1 from 22 to 28 with the 6."),
        1
    );
    assert_eq!(
        count(
            &out,
            "`!move <pawn> <die> [around]` (also `!m`): Moves pawn 1-4"
        ),
        1
    );
}
