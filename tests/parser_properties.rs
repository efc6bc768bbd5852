//! The command parsers never panic, whatever the text: property tests over arbitrary strings
//! (raise the number of cases with PROPTEST_CASES).

mod common;

use proptest::prelude::*;
use referee::local::transcript::parse_line;
use referee::table::commands::{find, game_named, parse_line as parse_channel, read_direct};

/// Strings that look like commands: a prefix, a known word, then noise.
fn commandish() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "new", "join", "leave", "start", "board", "status", "log", "resolve", "deadline", "kick",
        "replace", "pause", "resume", "end", "help", "games", "move", "place", "order", "vacation",
        "setup",
    ]);
    (words, ".{0,40}").prop_map(|(word, rest)| format!("!{word} {rest}"))
}

proptest! {
    #![proptest_config(common::proptest_config(512))]

    #[test]
    fn channel_parser_never_panics(text in "\\PC{0,200}") {
        let _ = parse_channel(&text, "!");
    }

    #[test]
    fn channel_parser_on_command_like_text(text in commandish()) {
        match parse_channel(&text, "!") {
            Ok(Some((word, _))) if find(&word).is_none() => prop_assert!(word == "move" || word == "place"),
            Ok(Some(_)) => {}
            Ok(None) => prop_assert!(false, "a prefixed line is a command"),
            Err(error) => prop_assert!(!error.0.is_empty()),
        }
    }

    #[test]
    fn dm_parser_never_panics(text in "\\PC{0,200}") {
        if let Ok((_, said)) = game_named(&text) {
            let _ = read_direct(said);
        }
    }

    #[test]
    fn dm_parser_on_game_numbers(id in any::<i64>(), rest in "[a-z0-9 ]{0,30}") {
        if let Ok((_, said)) = game_named(&format!("#{id} {rest}")) {
            let _ = read_direct(said);
        }
    }

    #[test]
    fn transcript_lines_never_panic(text in "\\PC{0,120}") {
        let _ = parse_line(&text, 1);
    }

    #[test]
    fn deadlines_never_panic(text in "[0-9dhmsw :TZUC-]{0,30}") {
        let _ = parse_channel(&format!("!deadline {text}"), "!");
    }
}
