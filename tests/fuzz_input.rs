//! Fuzzing every game's words and apply step at reachable states: a game of each kind is
//! played some way into one of its whole-game transcripts, then random lines are thrown at it
//! (the game's own command words and orders with random arguments: numbers huge and
//! negative, long words, control characters, other scripts), by its players and a stranger,
//! in the channel and by DM. Nothing may panic, no reply may echo a control character or more
//! than 60 characters of a player's word, and every game must still replay from its log.
//! The corpus is the transcripts in tests/transcripts/ (a game without one is still fuzzed at
//! the states its computers reach: tests/conformance.rs); PROPTEST_CASES raises the cases
//! (32 by default).

mod common;

use proptest::prelude::*;
use referee::local::transcript::{parse_line, Line};
use referee::table::audit::replay;
use referee::table::{Envelope, Inbound, User};

const CORPUS: &[&str] = &[
    include_str!("transcripts/tag_3p_seed7.txt"),
    include_str!("transcripts/circuit_3p_seed11.txt"),
    include_str!("transcripts/parcheesi_2p_seed7.txt"),
    include_str!("transcripts/short_circuit_2p_seed9.txt"),
    include_str!("transcripts/carcassonne_2p_seed3.txt"),
];

/// A word of a command or order: the table's vocabulary (its registry) and every game's
/// commands, their aliases and orders (its catalogue), so a new game's words are thrown too.
fn verb() -> impl Strategy<Value = String> {
    let table = referee::table::commands::REGISTRY
        .iter()
        .flat_map(|command| std::iter::once(command.name).chain(command.aliases.iter().copied()))
        .flat_map(|word| [format!("!{word}"), word.to_string()]);
    let catalogue = referee::table::Catalogue::standard();
    let games = catalogue.all().iter().flat_map(|rules| {
        let commands = rules
            .commands()
            .iter()
            .flat_map(|command| {
                std::iter::once(command.name).chain(command.aliases.iter().copied())
            })
            .map(|word| format!("!{word}"));
        let orders = rules.orders().iter().map(|order| order.name.to_string());
        commands.chain(orders).collect::<Vec<_>>()
    });
    let others = ["hint", "#1", "#99999999999999999999", ""].map(str::to_string);
    let mut words: Vec<String> = table.chain(games).chain(others).collect();
    words.sort();
    words.dedup();
    prop::sample::select(words)
}

/// An argument: numbers of every size and sign, the games' words, long words, control
/// characters, other scripts.
fn argument() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        (0u8..10).prop_map(|n| n.to_string()),
        Just("18446744073709551616".to_string()),
        Just("-0".to_string()),
        prop::sample::select(vec![
            "n",
            "ne",
            "e",
            "se",
            "s",
            "sw",
            "w",
            "nw",
            "nothing",
            "teleport",
            "stomp",
            "stride",
            "around",
            "skip",
            "city",
            "road",
            "field",
            "monastery",
            "none",
            "land",
            "pass",
            "forward",
            "back",
            "boost",
            "slow",
            "anchor",
            "start",
            "owner",
            "a1",
            "p9",
            "turn",
            "straight",
            "cross",
            "thunder",
            "90",
            "270",
            "board=4x4",
            "seed=x",
        ])
        .prop_map(str::to_string),
        (1usize..3000).prop_map(|n| "z".repeat(n)),
        Just("\u{1b}[2J\u{7}\u{0}".to_string()),
        "[ -~]{0,12}",
        "\\PC{0,8}",
    ]
}

/// A line as someone types it.
fn typed() -> impl Strategy<Value = String> {
    (verb(), prop::collection::vec(argument(), 0..6)).prop_map(|(verb, args)| {
        let line = format!("{verb} {}", args.join(" "));
        line.replace(['\n', '\r'], " ")
    })
}

/// Who types where: a player of the transcript or a stranger, in the game's channel, another
/// channel, or by DM.
fn speaker() -> impl Strategy<Value = (usize, usize)> {
    (0usize..4, 0usize..3)
}

proptest! {
    #![proptest_config(common::proptest_config(32))]

    #[test]
    fn junk_at_reachable_states_breaks_nothing(
        game in 0..CORPUS.len(),
        depth in any::<prop::sample::Index>(),
        junk in prop::collection::vec((speaker(), typed()), 1..16),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let service = common::service("sqlite::memory:").await;
            let lines: Vec<Line> = CORPUS[game]
                .lines()
                .enumerate()
                .map(|(n, text)| parse_line(text, n + 1).unwrap())
                .filter(|line| *line != Line::Blank)
                .collect();
            let played = depth.index(lines.len() + 1);
            let mut names = Vec::new();
            let mut channel = String::new();
            let now = common::start_time();
            for (n, line) in lines.iter().take(played).enumerate() {
                let inbound = match line {
                    Line::Channel { user, channel: place, text, .. } => {
                        channel = place.clone();
                        if !names.contains(user) { names.push(user.clone()); }
                        Inbound::Channel { channel: place.clone(), user: User::named(user), admin: false, text: text.clone() }
                    }
                    Line::Direct { user, text, .. } => Inbound::Direct { user: User::named(user), text: text.clone() },
                    _ => continue,
                };
                service.handle(&Envelope::id(format!("play-{n}")), &inbound, now).await.unwrap();
            }
            let before = service.store().last_outbox_id().await.unwrap();
            for (n, ((who, place), text)) in junk.iter().enumerate() {
                let user = names.get(*who).cloned().unwrap_or_else(|| "mallory".to_string());
                let inbound = match place {
                    0 => Inbound::Channel { channel: channel.clone(), user: User::named(&user), admin: false, text: text.clone() },
                    1 => Inbound::Channel { channel: "elsewhere".to_string(), user: User::named(&user), admin: false, text: text.clone() },
                    _ => Inbound::Direct { user: User::named(&user), text: text.clone() },
                };
                service.handle(&Envelope::id(format!("junk-{n}")), &inbound, now).await.unwrap();
            }
            for row in service.store().undelivered_after(before).await.unwrap() {
                prop_assert!(
                    !row.body.chars().any(|c| c.is_control() && c != '\n'),
                    "a control character was echoed: {:?}", row.body
                );
                prop_assert!(!row.body.contains(&"z".repeat(61)), "a long word echoed: {}", row.body);
            }
            let mut id = 1;
            while service.store().game(id).await.unwrap().is_some() {
                let report = replay(&service, id).await.unwrap();
                prop_assert!(report.matches(), "game #{id}: {:?}", report.differences);
                id += 1;
            }
            Ok(())
        })?;
    }
}
