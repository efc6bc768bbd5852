//! Computer players through the real binary on the real clock: a TAG game of one person and
//! two computer seats played to its end, a Carcassonne game whose seats the GM hands to the
//! computer mid-game, `nmr=bot` playing a silent Parcheesi seat's turn after its deadline, an
//! easy computer answering a Short Circuit impossible call in a thread, a `hard` computer
//! thinking in a thread while another game's orders are answered at once, a `hard` computer
//! bidding and moving in a TAG game in a thread beside its GM, no more `hard`
//! computers thinking at once than the machine has cores (and none thinking for a game ended
//! while it waited), and a GM who undoes her turn in a thread to get a `hard` computer's second
//! thought and gets its first move again. Each game replays from its log, and nothing is ever
//! written to a computer.

use crate::bot::{connected, connected_with_env, Bot, Db};
use crate::fake::{FakeDiscord, Posted};
use crate::{count, dm_to, in_channel, open_game, ALICE, BOB, CHANNEL};
use std::time::{Duration, Instant};

/// Outbox rows addressed to a computer player (there must be none).
const TO_COMPUTERS: &str = "SELECT COUNT(*) FROM outbox WHERE audience LIKE '%computer:%'";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_and_two_computer_seats_play_tag_to_its_end() {
    let (fake, _dir, mut db, bot) = connected().await;
    crate::open_game(&fake, ALICE, CHANNEL, "tag seed=7");
    fake.say(ALICE, Some(CHANNEL), "!join");
    fake.say(BOB, Some(CHANNEL), "!join bot");
    fake.say(ALICE, Some(CHANNEL), "!join bot");
    fake.say(ALICE, Some(CHANNEL), "!join bot easy");
    fake.wait_post("the second computer seat", |p| {
        in_channel(p)
            && p.text()
                .contains("Computer 2 is a computer player (easy level)")
    })
    .await;
    // Only the GM seats a computer.
    assert_eq!(
        count(&fake, |p| in_channel(p)
            && p.text().contains(
                "bob: Only the GM (alice) or a server admin can use `join bot`"
            )),
        1
    );
    fake.say(ALICE, Some(CHANNEL), "!start");
    fake.wait_post_in(CHANNEL, "Waiting for bids").await;
    fake.say(ALICE, None, "bid 1");

    // alice stands still every round; the computers bid, chase and flee by themselves, and
    // each round resolves as soon as alice's order is in.
    let mut moved = 0;
    for _ in 0..600 {
        if count(&fake, |p| {
            in_channel(p) && p.text().contains("Final ranking")
        }) > 0
        {
            break;
        }
        let rounds = count(&fake, |p| {
            in_channel(p) && p.text().contains("Send your moves for round")
        });
        let out = count(&fake, |p| {
            in_channel(p) && p.text().contains("alice (A) is out")
        });
        if rounds > moved && out == 0 {
            fake.say(ALICE, None, "move nothing");
            moved = rounds;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let over = fake.wait_post_in(CHANNEL, "Final ranking").await;
    // The game-over post arrives whole, as one message: its ranking, the seed and the way
    // to check every roll.
    assert_eq!(
        count(&fake, |p| in_channel(p)
            && p.text().contains("Final ranking")),
        1
    );
    assert!(over.content.chars().count() <= 2000);
    assert!(
        over.text().contains("Seed: `") && over.text().contains("`!audit` posts"),
        "{}",
        over.text()
    );
    for computer in ["Computer 1", "Computer 2"] {
        assert!(over.text().contains(computer), "{}", over.text());
        // Every reveal shows each computer's own order, sent in time.
        assert!(
            count(&fake, |p| in_channel(p)
                && p.text().contains(&format!("- {computer}: `move")))
                > 0,
            "{computer} sent moves"
        );
        assert!(
            count(&fake, |p| in_channel(p)
                && p.text().contains(&format!("- {computer}: no order")))
                == 0,
            "{computer} never missed an order"
        );
    }
    assert!(moved >= 2, "the game lasted rounds: {moved}");
    assert!(count(&fake, dm_to(ALICE)) > 0);
    stopped(bot, &mut db, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gm_hands_carcassonne_seats_to_the_computer_mid_game() {
    let (fake, _dir, mut db, bot) = connected().await;
    // The first turns of the seed-3 transcript, typed by their players.
    crate::open_game(&fake, ALICE, CHANNEL, "carcassonne seed=3");
    for (who, line) in crate::CARCASSONNE_SEED3_OPENING {
        fake.say(*who, Some(CHANNEL), line);
    }
    fake.wait_post_in(CHANNEL, "bob puts a farmer").await;
    // bob quits; then alice hands over her own seat too: the computers play it out.
    fake.say(ALICE, Some(CHANNEL), "!replace @bob bot");
    fake.wait_post_in(CHANNEL, "Computer 1 takes over bob's seat")
        .await;
    let refused = fake.say(ALICE, Some(CHANNEL), "!replace @alice bot brilliant");
    db.settled(&fake, refused).await;
    assert!(
        fake.posts()
            .iter()
            .any(|p| in_channel(p) && p.text().contains("`brilliant` is not a computer level")),
        "{:#?}",
        fake.posts().last()
    );
    fake.say(ALICE, Some(CHANNEL), "!replace @alice bot easy");
    let over = fake
        .wait_for_post("the end", Duration::from_secs(120), |p| {
            in_channel(p) && p.text().contains("Final ranking")
        })
        .await;
    assert!(over.text().contains("1. Computer"), "{}", over.text());
    // The final scoring arrives as one message, from its first line to the final scores.
    let scoring = fake
        .posts()
        .into_iter()
        .find(|p| in_channel(p) && p.text().contains("Final scoring"))
        .expect("the final scoring");
    assert!(scoring.content.chars().count() <= 2000);
    assert!(
        scoring
            .text()
            .contains("The tiles are all played. Final scoring:")
            && scoring.text().contains("Final scores: "),
        "{}",
        scoring.text()
    );
    // So do the rules of the game.
    let asked = fake.say(BOB, Some(CHANNEL), "!rules carcassonne");
    db.settled(&fake, asked).await;
    let rules = fake
        .wait_post("the rules", |p| {
            in_channel(p) && p.content.starts_with("**carcassonne**")
        })
        .await;
    assert!(
        rules.content.chars().count() < 1500
            && rules
                .content
                .ends_with("`!rules options`: the options every game takes."),
        "{}",
        rules.content
    );
    // bob was told his seat went to the computer; no post went to a computer.
    assert!(
        count(&fake, |p| dm_to(BOB)(p)
            && p.text().contains("the GM gave your seat")
            && p.text().contains("Computer 1"))
            == 1
    );
    stopped(bot, &mut db, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nmr_bot_plays_a_silent_parcheesi_turn_after_its_deadline() {
    let (fake, _dir, mut db, bot) = connected().await;
    crate::open_game(&fake, ALICE, CHANNEL, "parcheesi seed=7 nmr=bot");
    fake.say(ALICE, Some(CHANNEL), "!join");
    fake.say(BOB, Some(CHANNEL), "!join");
    fake.say(ALICE, Some(CHANNEL), "!start");
    // alice's dice are lost; bob's turn comes, and bob stays silent.
    fake.wait_post_in(CHANNEL, "It is bob's turn").await;
    fake.say(ALICE, Some(CHANNEL), "!deadline 3s");
    fake.wait_for_post("the computer standing in", Duration::from_secs(30), |p| {
        in_channel(p)
            && p.text()
                .contains("The deadline passed: the computer plays bob's turn (nmr=bot).")
    })
    .await;
    let summary = fake
        .wait_for_post("bob's turn played", Duration::from_secs(30), |p| {
            in_channel(p) && p.text().contains("Turn summary, red (bob)")
        })
        .await;
    // The computer played bob's 5 and 1: a pawn out of the nest, not the game's default of
    // doing nothing; then it is alice's turn again, with a deadline of her own.
    assert!(
        summary.text().contains("pawn 1 out onto 22"),
        "{}",
        summary.text()
    );
    fake.wait_post_in(CHANNEL, "It is alice's turn").await;
    stopped(bot, &mut db, 1).await;
}

/// The GM, playing in her own match against an easy computer seat in a thread, calls
/// impossible on the empty board at once. The computer answers as a beginner would: one piece
/// at a time at the track's open ends (never the solver's whole completion in one message),
/// until the circuit is complete or nothing fits and it concedes; the match ends either way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_easy_computer_answers_an_impossible_call_piece_by_piece_in_a_thread() {
    let (fake, _dir, mut db, bot) = connected().await;
    let thread = fake.open_thread(ALICE, CHANNEL, "duel");
    open_game(&fake, ALICE, thread, "shortcircuit seed=5");
    fake.say(ALICE, None, "setup first=alice");
    fake.say(ALICE, Some(thread), "!join");
    fake.say(ALICE, Some(thread), "!join bot easy");
    fake.wait_post_in(thread, "is a computer player (easy level)")
        .await;
    fake.say(ALICE, Some(thread), "!start");
    fake.wait_post_in(thread, "alice moves first").await;
    fake.say(ALICE, Some(thread), "!impossible");
    let over = fake
        .wait_for_post("the end of the match", Duration::from_secs(60), |p| {
            p.channel == thread && p.text().contains("Final ranking")
        })
        .await;
    let placements: Vec<String> = fake
        .posts()
        .iter()
        .filter(|p| p.channel == thread && p.text().contains("Computer 1 places"))
        .map(|p| p.text())
        .collect();
    assert!(
        placements.len() >= 2,
        "the computer built on piece by piece: {placements:?}"
    );
    for placement in &placements {
        assert!(!placement.contains("; then "), "{placement}");
    }
    let conceded = count(&fake, |p| {
        p.channel == thread && p.text().contains("Computer 1 concedes")
    }) == 1;
    let completed = count(&fake, |p| {
        p.channel == thread && p.text().contains("the circuit is complete")
    }) > 0;
    assert!(conceded || completed, "{}", over.text());
    stopped_in_thread(&fake, bot, &mut db, 1).await;
}

/// The GM plays Carcassonne in a thread against a `hard` computer that moves first and
/// thinks its 2 s: meanwhile a bid by DM in a TAG game of another channel gets its receipt at
/// once, and the GM's own attempts to move in the computer's turn are refused. The computer's
/// turn comes once it has thought, its budget and no more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_in_another_game_is_answered_at_once_while_a_hard_computer_thinks() {
    // Game #1: TAG in the other channel, its bids open.
    let (fake, _dir, mut db, bot) = crate::commands::bot_beside_tag_bids().await;
    // Game #2: Carcassonne in a thread, the computer seated first.
    let thread = fake.open_thread(ALICE, CHANNEL, "tiles");
    open_game(&fake, ALICE, thread, "carcassonne seed=3");
    fake.say(ALICE, Some(thread), "!join bot hard");
    fake.wait_post_in(thread, "is a computer player (hard level)")
        .await;
    fake.say(ALICE, Some(thread), "!join");
    let start = fake.say(ALICE, Some(thread), "!start");
    db.settled(&fake, start).await;
    let started = Instant::now();
    // The GM tries to move in the computer's turn while it thinks.
    let jumped = fake.say(ALICE, Some(thread), "!place 0 1 0");
    db.settled(&fake, jumped).await;
    assert_eq!(
        count(&fake, |p| p.channel == thread
            && p.text().contains("It is Computer 1's turn, not yours.")),
        1,
        "{:#?}",
        fake.posts().last()
    );
    // While it thinks, a bid in the other game gets its receipt at once.
    let (receipt, waited) = crate::commands::erins_bid_answered(&fake).await;
    let placed = computer_placed_after(&fake, thread, &receipt).await;
    assert!(
        waited < Duration::from_millis(200),
        "the receipt took {waited:?}"
    );
    let thought = placed.at.duration_since(started);
    assert!(
        thought >= Duration::from_millis(1_500) && thought < Duration::from_secs(4),
        "the computer's turn came {thought:?} after the start"
    );
    // The GM's turn now; nothing of it went to the parent channel.
    assert_eq!(count(&fake, in_channel), 0);
    let ended = fake.say(ALICE, Some(thread), "!end");
    db.settled(&fake, ended).await;
    stopped(bot, &mut db, 2).await;
}

/// Opens `games` Carcassonne games, each in a thread of its own, with a hard computer and
/// alice signed up (not started); the threads, once the bot has read them all.
async fn hard_computers_in_threads(fake: &FakeDiscord, db: &mut Db, games: usize) -> Vec<u64> {
    let threads = (0..games)
        .map(|n| {
            let thread = fake.open_thread(ALICE, CHANNEL, &format!("tiles {n}"));
            open_game(fake, ALICE, thread, "carcassonne");
            fake.say(ALICE, Some(thread), "!join bot hard");
            fake.say(ALICE, Some(thread), "!join");
            thread
        })
        .collect();
    let joined = fake.say(BOB, Some(CHANNEL), "!games");
    db.settled(fake, joined).await;
    threads
}

/// One more Carcassonne game with a `hard` computer moving first than the machine has cores,
/// each in its thread, all started at once: no more computers think at once than there are
/// cores (the last waits its turn, then thinks its whole 2 s, so its move comes a round of
/// thinking after the others'), and meanwhile a bid by DM in another game gets its receipt
/// at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_more_hard_computers_think_at_once_than_there_are_cores() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let (fake, _dir, mut db, bot) = crate::commands::bot_beside_tag_bids().await;
    let threads = hard_computers_in_threads(&fake, &mut db, cores + 1).await;
    let started = Instant::now();
    let starts: Vec<u64> = threads
        .iter()
        .map(|&thread| fake.say(ALICE, Some(thread), "!start"))
        .collect();
    db.settled(&fake, *starts.last().unwrap()).await;
    let (receipt, waited) = crate::commands::erins_bid_answered(&fake).await;
    assert!(
        waited < Duration::from_millis(200),
        "the receipt took {waited:?} while {} computers thought",
        cores + 1
    );
    let mut moved: Vec<Duration> = Vec::new();
    for &thread in &threads {
        let placed = computer_placed_after(&fake, thread, &receipt).await;
        moved.push(placed.at.duration_since(started));
    }
    moved.sort();
    // The first `cores` think at once, their 2 s each; the last begins when one of them ends.
    let first_round = &moved[..cores];
    assert!(
        first_round
            .iter()
            .all(|&at| at >= Duration::from_millis(1_900) && at < Duration::from_secs(4)),
        "{moved:?}"
    );
    // It began when one of them ended (2 s after the start at the earliest), and thought 2 s.
    assert!(
        moved[cores] >= Duration::from_millis(3_900) && moved[cores] < Duration::from_secs(8),
        "{moved:?}"
    );
    stopped(bot, &mut db, cores + 2).await;
}

/// The GM plays Carcassonne in a thread against a `hard` computer that thinks its 2 s after
/// her turn. She undoes her turn (which takes the computer's reply back too) and plays it
/// again, twice, hoping for a weaker reply: each time the computer places as it did the first
/// time, at once, without a second thought.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undo_in_a_thread_gets_the_hard_computers_first_move_again() {
    let (fake, _dir, mut db, bot) = connected().await;
    let thread = fake.open_thread(ALICE, CHANNEL, "tiles");
    open_game(&fake, ALICE, thread, "carcassonne seed=3");
    fake.say(ALICE, Some(thread), "!join");
    fake.say(ALICE, Some(thread), "!join bot hard");
    let start = fake.say(ALICE, Some(thread), "!start");
    db.settled(&fake, start).await;
    let placed = |fake: &FakeDiscord| -> Vec<Posted> {
        fake.posts()
            .into_iter()
            .filter(|p| p.channel == thread && p.text().contains("Computer 1 places"))
            .collect()
    };
    let mut replies: Vec<(String, Duration)> = Vec::new();
    for attempt in 0..3 {
        if attempt > 0 {
            let undone = fake.say(ALICE, Some(thread), "!undo");
            db.settled(&fake, undone).await;
            assert_eq!(
                count(&fake, |p| p.channel == thread
                    && p.text().contains("The GM took back alice's turn")),
                attempt,
                "{:#?}",
                fake.posts().last()
            );
        }
        let sent = Instant::now();
        fake.say(ALICE, Some(thread), "!place 0 -1 180 pass");
        fake.wait_for("the computer's reply", Duration::from_secs(60), || {
            placed(&fake).len() > attempt
        })
        .await;
        let reply = placed(&fake).swap_remove(attempt);
        let text = reply.text();
        let tile = text
            .lines()
            .find(|line| line.contains("Computer 1 places"))
            .unwrap_or_default()
            .to_string();
        replies.push((tile, reply.at.duration_since(sent)));
    }
    let (first, thought) = &replies[0];
    assert!(
        *thought >= Duration::from_millis(1_500),
        "the first reply was thought over: {replies:?}"
    );
    for (again, waited) in &replies[1..] {
        assert_eq!(again, first, "{replies:?}");
        assert!(
            *waited < Duration::from_millis(1_000),
            "a remembered move needs no thought: {replies:?}"
        );
    }
    stopped_in_thread(&fake, bot, &mut db, 1).await;
}

/// A game of `words` started in a thread of its own: alice (its GM), bob and a `hard`
/// computer seated, in that order.
fn started_beside_a_hard_computer(fake: &FakeDiscord, words: &str) -> u64 {
    let name = words.split_whitespace().next().unwrap_or(words);
    let thread = fake.open_thread(ALICE, CHANNEL, name);
    open_game(fake, ALICE, thread, words);
    fake.say(ALICE, Some(thread), "!join");
    fake.say(BOB, Some(thread), "!join");
    fake.say(ALICE, Some(thread), "!join bot hard");
    fake.say(ALICE, Some(thread), "!start");
    thread
}

/// A TAG game started beside a `hard` computer (see [`started_beside_a_hard_computer`]) in
/// which alice and bob have sent their bids, 5 each, the computer still to bid: its thread.
async fn people_bid_beside_a_hard_computer(fake: &FakeDiscord) -> u64 {
    let thread = started_beside_a_hard_computer(fake, "tag");
    fake.wait_post_in(thread, "Waiting for bids").await;
    fake.say(ALICE, None, "bid 5");
    fake.say(BOB, None, "bid 5");
    thread
}

/// A GM plays TAG in a thread with bob and a `hard` computer: the computer bids and moves by
/// itself, each round waiting for its order, which comes after its 2 s of thought (it weighs
/// its orders against what `normal` players would send in the others' places, never against
/// theirs); the reveals show its orders beside the people's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hard_computer_plays_tag_in_a_thread_beside_its_gm() {
    let (fake, _dir, mut db, bot) = connected().await;
    let thread = people_bid_beside_a_hard_computer(&fake).await;
    let round = |n: u32| {
        let fake = &fake;
        async move {
            fake.wait_post("a movement round", |p| {
                p.channel == thread && p.text().contains(&format!("Send your moves for round {n}"))
            })
            .await
        }
    };
    for n in 1..=2 {
        let opened = round(n).await;
        fake.say(ALICE, None, "move nothing stride");
        fake.say(BOB, None, "move nothing stride");
        let revealed = fake
            .wait_for_post("the round's reveal", Duration::from_secs(30), |p| {
                p.channel == thread && p.at > opened.at && p.text().contains("- Computer 1: `move")
            })
            .await;
        let waited = revealed.at.duration_since(opened.at);
        assert!(
            waited >= Duration::from_millis(1_900) && waited < Duration::from_secs(4),
            "round {n} was revealed {waited:?} after it opened"
        );
        assert!(revealed.text().contains("- alice: `move nothing stride`"));
    }
    assert_eq!(
        count(&fake, |p| p.channel == thread
            && p.text().contains("- Computer 1: `bid")),
        1
    );
    let ended = fake.say(ALICE, Some(thread), "!end");
    db.settled(&fake, ended).await;
    stopped_in_thread(&fake, bot, &mut db, 1).await;
}

/// A GM who plays cannot hurry a `hard` computer out of its move: while it thinks over its
/// bid, the GM's `!resolve` and a deadline seconds away are refused, saying how long the
/// table waits for it; its bid then comes, and the round resolves with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gm_who_plays_cannot_resolve_the_round_while_a_hard_computer_thinks() {
    let (fake, _dir, mut db, bot) = connected().await;
    let thread = people_bid_beside_a_hard_computer(&fake).await;
    fake.say(ALICE, Some(thread), "!resolve");
    let sooner = fake.say(ALICE, Some(thread), "!deadline 5s");
    db.settled(&fake, sooner).await;
    let refused: Vec<String> = fake
        .posts()
        .into_iter()
        .filter(|p| {
            p.channel == thread && p.content.starts_with("alice: Computer 1 is still deciding")
        })
        .map(|p| p.content)
        .collect();
    assert_eq!(refused.len(), 2, "{:#?}", fake.posts());
    assert!(
        refused[0].contains("the game goes on with its move in a moment. A computer has 1 minute to decide: `!resolve` goes on without it in "),
        "{}",
        refused[0]
    );
    assert!(
        refused[1].contains("a computer has 1 minute to decide: give a deadline at least "),
        "{}",
        refused[1]
    );
    let revealed = fake
        .wait_for_post("the bids revealed", Duration::from_secs(30), |p| {
            p.channel == thread && p.text().contains("- Computer 1: `bid")
        })
        .await;
    assert!(
        revealed.text().contains("- alice: `bid 5`") && !revealed.text().contains("no order"),
        "{}",
        revealed.text()
    );
    let ended = fake.say(ALICE, Some(thread), "!end");
    db.settled(&fake, ended).await;
    stopped_in_thread(&fake, bot, &mut db, 1).await;
}

/// Once `thread` says `asked`, alice and bob send `orders` (hers, then his) by DM.
async fn answer_by_dm(fake: &FakeDiscord, thread: u64, asked: &str, orders: [&str; 2]) {
    fake.wait_post_in(thread, asked).await;
    fake.say(ALICE, None, orders[0]);
    fake.say(BOB, None, orders[1]);
}

/// A Circuit game (seed 11) in a thread, alice and bob beside a `hard` computer, once both
/// people have moved on turn 1: its thread.
async fn circuit_after_the_first_moves(fake: &FakeDiscord) -> u64 {
    let thread = started_beside_a_hard_computer(fake, "circuit seed=11");
    both_move(fake, thread, 1).await;
    thread
}

/// Once `thread` asks for turn `turn`'s orders, alice and bob both move.
async fn both_move(fake: &FakeDiscord, thread: u64, turn: u32) {
    let asked = format!("Waiting for move or stay for turn {turn}");
    answer_by_dm(fake, thread, &asked, ["move", "move"]).await;
}

/// A `hard` computer plays 50-Tile Circuit's tiles as weapons through the real binary, in a
/// thread: the tile it claims on the first turn makes whoever passes it lose a turn, and
/// both people run over it on the second.
#[tokio::test]
async fn a_hard_computer_sets_a_trap_in_circuit_in_a_thread() {
    let (fake, _dir, mut db, bot) = connected().await;
    let thread = circuit_after_the_first_moves(&fake).await;
    let claims = "Computer 1 claims tile 7.";
    answer_by_dm(&fake, thread, claims, ["effect none", "effect none"]).await;
    fake.wait_post_in(thread, "- Computer 1: `effect skip pass`")
        .await;
    fake.wait_post_in(thread, "Computer 1 gives tile 7 the effect skip pass.")
        .await;
    both_move(&fake, thread, 2).await;
    let resolved = fake.wait_post_in(thread, "Turn 2 resolves:").await;
    for caught in [
        "Tile 7 (Computer 1's skip pass) acts on alice.\nalice loses its next turn.",
        "Tile 7 (Computer 1's skip pass) acts on bob.\nbob loses its next turn.",
    ] {
        assert!(resolved.text().contains(caught), "{}", resolved.text());
    }
    let ended = fake.say(ALICE, Some(thread), "!end");
    db.settled(&fake, ended).await;
    stopped_in_thread(&fake, bot, &mut db, 1).await;
}

/// A GM who plays 50-Tile Circuit beside a `hard` computer, in a thread, types a change of
/// her own tile by DM: one that gives the tile the effect it has is refused with the reason
/// and changes nothing; one that modifies it spares her the tile that turn (rule 9), as it
/// would any player. The game replays.
#[tokio::test]
async fn an_owner_who_changes_her_tile_by_dm_is_not_affected_by_it_that_turn_in_a_thread() {
    let (fake, _dir, mut db, bot) = connected().await;
    let thread = circuit_after_the_first_moves(&fake).await;
    let claims = "alice claims tile 3.";
    answer_by_dm(&fake, thread, claims, ["effect skip pass", "effect none"]).await;
    fake.wait_post_in(thread, "alice gives tile 3 the effect skip pass.")
        .await;
    fake.wait_post_in(thread, "Waiting for move or stay for turn 2")
        .await;
    // A change that modifies nothing cannot buy the exemption.
    fake.say(ALICE, None, "stay change 3 skip pass");
    let refused = fake
        .wait_post("the refusal", |p| {
            dm_to(ALICE)(p) && p.text().contains("tile 3 already has skip pass")
        })
        .await;
    assert!(
        refused
            .text()
            .contains("tile 3 already has skip pass; a change gives it another effect"),
        "{}",
        refused.text()
    );
    // Staying fires the tile she stands on; the one she changes spares her this turn.
    fake.say(ALICE, None, "stay change 3 owner 3 land");
    fake.say(BOB, None, "move");
    let resolved = fake.wait_post_in(thread, "Turn 2 resolves:").await;
    let text = resolved.text();
    assert!(
        text.contains("- alice: `stay change 3 owner 3 land`"),
        "{text}"
    );
    assert!(!text.contains("stay change 3 skip pass"), "{text}");
    assert!(
        text.contains(
            "alice stays on tile 3.\nTile 3 does not act on alice, who changes it this turn."
        ),
        "{text}"
    );
    assert!(!text.contains("acts on alice"), "{text}");
    assert!(
        text.contains("alice gives tile 3 the effect owner 3 land."),
        "{text}"
    );
    // The computer's trap acts on bob as ever.
    assert!(
        text.contains("Tile 7 (Computer 1's skip pass) acts on bob.\nbob loses its next turn."),
        "{text}"
    );
    let ended = fake.say(ALICE, Some(thread), "!end");
    db.settled(&fake, ended).await;
    stopped_in_thread(&fake, bot, &mut db, 1).await;
}

/// A `hard` computer waiting for a core whose game ends meanwhile thinks no more: the machine's
/// cores are busy with as many `hard` computers, as many more wait, and their GM ends those
/// games while they wait; a last game started after them gets a core as soon as the first
/// round of thinking is over, not a round later. The computers think 6 s, so that all this
/// is done while the first ones think even when the thinkers leave the table little CPU.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hard_computer_whose_game_ends_while_it_waits_for_a_core_does_not_think() {
    const THINK: Duration = Duration::from_secs(6);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let (fake, _dir, mut db, bot) =
        connected_with_env(&[("REFEREE_TABLE_COMPUTER_THINK", "6s")]).await;
    let opened = hard_computers_in_threads(&fake, &mut db, 2 * cores + 1).await;
    let (busy, rest) = opened.split_at(cores);
    let (ended, last) = rest.split_at(cores);
    // The busy computers think first; then the others queue for a core; then their games end.
    let started = Instant::now();
    for group in [busy, ended] {
        let begun: Vec<u64> = group
            .iter()
            .map(|&thread| fake.say(ALICE, Some(thread), "!start"))
            .collect();
        db.settled(&fake, *begun.last().unwrap()).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let over: Vec<u64> = ended
        .iter()
        .map(|&thread| fake.say(ALICE, Some(thread), "!end"))
        .collect();
    db.settled(&fake, *over.last().unwrap()).await;
    let begun = fake.say(ALICE, Some(last[0]), "!start");
    db.settled(&fake, begun).await;
    assert!(
        started.elapsed() < THINK * 3 / 4,
        "the games were started and ended while the first computers thought (took {:?})",
        started.elapsed()
    );
    let placed = |thread: u64| {
        fake.wait_for_post("a computer's turn", Duration::from_secs(60), move |p| {
            p.channel == thread && p.text().contains("Computer 1 places")
        })
    };
    let first = placed(busy[0]).await.at;
    let moved = placed(last[0]).await.at.duration_since(first);
    // It got the first core that came free, then thought its own 6 s: well after the first
    // move (a core taken at once would have it come with the first ones), and within a round
    // (a core taken a round later would have it come 12 s after). Each move is timed as it
    // reaches Discord, so a delivery that was slower for the first move shortens the gap.
    assert!(
        moved >= THINK / 2 && moved < THINK * 3 / 2,
        "the last computer's move came {moved:?} after the first one's"
    );
    for &thread in ended {
        assert_eq!(
            count(&fake, |p| p.channel == thread
                && p.text().contains("Computer 1 places")),
            0,
            "an ended game gets no move"
        );
    }
    stopped(bot, &mut db, 2 * cores + 1).await;
}

/// Computer 1's first tile placed in `thread`, which must come after `receipt` (the receipt
/// came while it thought).
async fn computer_placed_after(fake: &FakeDiscord, thread: u64, receipt: &Posted) -> Posted {
    let placed = fake
        .wait_for_post("the computer's turn", Duration::from_secs(60), |p| {
            p.channel == thread && p.text().contains("Computer 1 places")
        })
        .await;
    assert!(
        placed.at > receipt.at,
        "the receipt came while the computer was still thinking"
    );
    placed
}

/// [`stopped`], for games played in threads: nothing of them reached the parent channel.
async fn stopped_in_thread(fake: &FakeDiscord, bot: Bot, db: &mut Db, games: usize) {
    assert_eq!(
        count(fake, in_channel),
        0,
        "nothing of the games in the parent channel"
    );
    stopped(bot, db, games).await;
}

/// Stops `bot`, then checks that nothing was ever written to a computer and that its `games`
/// games all replay from their logs.
async fn stopped(bot: Bot, db: &mut Db, games: usize) {
    bot.stop();
    assert_eq!(db.number(TO_COMPUTERS).await, 0);
    assert_eq!(db.replay_all().await, games);
}
