//! Computer players at the table, on the console's manual clock: computer seats the GM seats
//! (`!join bot`) or hands a seat to (`!replace @p bot`), `nmr=bot` standing in for a silent
//! player at the deadline, and what a computer never sees: another seat's secret order. Every
//! game played here replays from its log.

mod common;

use common::{count, play, play_on_both, play_with};
use proptest::prelude::*;

/// The line of `output` revealing `who`'s order for the first phase resolved.
fn revealed(output: &str, who: &str) -> String {
    output
        .lines()
        .find(|line| line.contains(&format!("- {who}: `")))
        .map(|line| line.split(" (receipt").next().unwrap_or(line).to_string())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_person_and_two_computer_seats_play_tag_to_its_end() {
    let mut transcript = String::from(
        "alice #tag: !new tag seed=7\n\
         alice #tag: !join\n\
         alice #tag: !join bot\n\
         alice #tag: !join bot easy\n\
         alice #tag: !start\n\
         alice dm: bid 1\n",
    );
    for _ in 0..40 {
        transcript.push_str("alice dm: move nothing\n");
    }
    let out = play_on_both(&transcript).await;
    assert_eq!(
        count(&out, "Computer 1 is a computer player (normal level)"),
        1
    );
    assert_eq!(
        count(&out, "Computer 2 is a computer player (easy level)"),
        1
    );
    assert_eq!(count(&out, "Final ranking"), 1, "{out}");
    // The computers bid and moved every round, never left to the game's default.
    assert_eq!(count(&out, "- Computer 1: `bid"), 1);
    assert!(count(&out, "- Computer 2: `move") >= 2);
    assert_eq!(count(&out, "- Computer 1: no order"), 0);
    assert_eq!(count(&out, "- Computer 2: no order"), 0);
    // Nothing is written to a computer.
    assert_eq!(count(&out, "dm Bot"), 0);
    assert_eq!(count(&out, "dm computer"), 0);
}

#[tokio::test]
async fn only_the_gm_seats_a_computer_and_only_during_sign_ups() {
    let out = play(
        "alice #tag: !new tag seed=7\n\
         alice #tag: !join\n\
         bob #tag: !join bot\n\
         alice #tag: !join bot brilliant\n\
         alice #tag: !join bot\n\
         carol #tag: !join\n\
         alice #tag: !start\n\
         alice #tag: !join bot\n\
         alice #tag: !replace carol bot easy\n\
         alice #tag: !replace bob bot\n\
         alice #tag: !kick bot1\n",
    )
    .await;
    assert_eq!(
        count(&out, "The GM names it `bot1` in commands (`!kick bot1`)."),
        1
    );
    assert_eq!(count(&out, "Computer 1 was removed"), 1, "{out}");
    assert_eq!(
        count(
            &out,
            "bob: Only the GM (alice) or a server admin can use `join bot`."
        ),
        1
    );
    assert_eq!(
        count(
            &out,
            "alice: `brilliant` is not a computer level; use easy, normal (the default) or hard"
        ),
        1
    );
    assert_eq!(
        count(&out, "alice: Game #1 has started: a computer takes a seat during sign-ups, or a player's seat with `!replace @player bot`."),
        1
    );
    assert_eq!(
        count(&out, "Computer 2 takes over carol's seat in game #1."),
        1
    );
    assert_eq!(count(&out, "alice: bob is not playing in game #1"), 1);
    // carol is told her seat went to the computer.
    assert_eq!(
        count(
            &out,
            "dm carol <- Game #1: the GM gave your seat in #tag to Computer 2"
        ),
        1
    );
}

#[tokio::test]
async fn a_table_of_computers_plays_parcheesi_to_its_end() {
    let out = play(
        "alice #p: !new parcheesi seed=5\n\
         alice #p: !join bot\n\
         alice #p: !join bot easy\n\
         alice #p: !start\n",
    )
    .await;
    assert_eq!(count(&out, "Final ranking"), 1, "{out}");
    assert!(count(&out, "Turn summary") > 20);
}

/// A 50-Tile Circuit game opened with `options` where alice and carol send their first
/// choices and bob stays silent past the deadline.
fn circuit_with_bob_silent(options: &str, alice: &str, carol: &str) -> String {
    format!(
        "alice #c: !new circuit seed=11{options}\n\
         alice #c: !join\n\
         bob #c: !join\n\
         carol #c: !join\n\
         alice #c: !start\n\
         alice dm: {alice}\n\
         carol dm: {carol}\n\
         clock +5d\n"
    )
}

#[tokio::test]
async fn nmr_bot_sends_a_silent_players_order_when_the_deadline_passes() {
    let out = play(&circuit_with_bob_silent(" nmr=bot", "move", "stay")).await;
    assert_eq!(
        count(&out, "Settings: nmr=bot: when the deadline passes, the computer plays a silent player's turn or order."),
        1
    );
    assert_eq!(
        count(&out, "The deadline passed: the computer sends bob's order for move or stay for turn 1 (nmr=bot)."),
        1
    );
    assert_eq!(
        count(&out, "Orders for move or stay for turn 1 (the deadline passed; the computer sent the silent players' orders):"),
        1
    );
    assert!(!revealed(&out, "bob").is_empty(), "{out}");
    // Without the option, the silent player gets the game's default.
    let plain = play(&circuit_with_bob_silent("", "move", "stay")).await;
    assert_eq!(count(&plain, "the computer"), 0);
    assert!(
        count(&plain, "- bob: no order (the game's default)") >= 1,
        "{plain}"
    );
}

/// A TAG game opened with `options` where alice and carol bid `bids`, bob says nothing, and
/// then comes the line `then`.
fn tag_with_bids(options: &str, (alice, carol): (u32, u32), then: &str) -> String {
    format!(
        "alice #t: !new tag seed=7{options}\n\
         alice #t: !join\n\
         bob #t: !join\n\
         carol #t: !join\n\
         alice #t: !start\n\
         alice dm: bid {alice}\n\
         carol dm: bid {carol}\n\
         {then}\n"
    )
}

/// What the computer sends for silent bob in TAG when alice and carol bid `bids` first.
async fn bobs_stand_in_bid(bids: (u32, u32)) -> String {
    let out = play(&tag_with_bids(" nmr=bot", bids, "clock +5d")).await;
    revealed(&out, "bob")
}

/// What the computer sends for silent bob in 50-Tile Circuit when alice and carol choose
/// first (`true`: move).
async fn bobs_stand_in_choice(choices: (bool, bool)) -> String {
    let word = |moves: bool| if moves { "move" } else { "stay" };
    let out = play(&circuit_with_bob_silent(
        " nmr=bot",
        word(choices.0),
        word(choices.1),
    ))
    .await;
    revealed(&out, "bob")
}

/// What the computer sends as `who` for bob's seat in TAG (`bid`) and 50-Tile Circuit
/// (`choice`) once alice and carol sent one thing is what it sends once they sent `bids`
/// (`choices`).
fn sent_alike<Bid, Choice>(
    who: &str,
    (bid, choice): (impl Fn((u32, u32)) -> Bid, impl Fn((bool, bool)) -> Choice),
    bids: (u32, u32),
    choices: (bool, bool),
) -> Result<(), TestCaseError>
where
    Bid: std::future::Future<Output = String>,
    Choice: std::future::Future<Output = String>,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (tag, tag_again, circuit, circuit_again) = runtime.block_on(async {
        (
            bid((1, 2)).await,
            bid(bids).await,
            choice((false, false)).await,
            choice(choices).await,
        )
    });
    prop_assert!(tag.contains(&format!("- {who}: `bid")), "{}", tag);
    prop_assert_eq!(tag, tag_again);
    prop_assert!(circuit.contains(&format!("- {who}: `")), "{}", circuit);
    prop_assert_eq!(circuit, circuit_again);
    Ok(())
}

/// A `hard` computer's rollouts a decision in these tests: few, and fixed, with time enough
/// for them on the slowest machine, so its decision is the same on any.
const HARD_ROLLOUTS: [(&str, &str); 2] = [
    ("REFEREE_TABLE_COMPUTER_ROLLOUTS", "4"),
    ("REFEREE_TABLE_COMPUTER_THINK", "10m"),
];

/// What a `hard` computer sends for bob's seat in TAG, handed it once alice and carol bid
/// `bids`.
async fn hard_bid_for_bob(bids: (u32, u32)) -> String {
    let transcript = tag_with_bids("", bids, "alice #t: !replace bob bot hard\nclock +5d");
    revealed(&play_with(&transcript, &HARD_ROLLOUTS).await, "Computer 1")
}

/// What a `hard` computer sends for bob's seat in 50-Tile Circuit, handed it once alice and
/// carol chose (`true`: move).
async fn hard_choice_for_bob(choices: (bool, bool)) -> String {
    let word = |moves: bool| if moves { "move" } else { "stay" };
    let transcript = circuit_with_bob_silent("", word(choices.0), word(choices.1)).replace(
        "clock +5d\n",
        "alice #c: !replace bob bot hard\nclock +5d\n",
    );
    revealed(&play_with(&transcript, &HARD_ROLLOUTS).await, "Computer 1")
}

proptest! {
    // Half as many cases as the property below: each plays four games with a search in them.
    #![proptest_config(ProptestConfig::with_cases(common::proptest_config(12).cases.div_ceil(2)))]

    /// alice and carol send secret bids (in 50-Tile Circuit, choices); then the GM hands bob's
    /// seat to a `hard` computer: what it sends, having searched, is the same whatever they
    /// sent.
    #[test]
    fn a_hard_computer_never_sees_another_seats_secret_order(
        bids in (1u32..=35, 1u32..=35),
        choices in (any::<bool>(), any::<bool>()),
    ) {
        sent_alike("Computer 1", (hard_bid_for_bob, hard_choice_for_bob), bids, choices)?;
    }
}

proptest! {
    #![proptest_config(common::proptest_config(12))]

    /// bob is silent; alice and carol send secret bids (in 50-Tile Circuit, choices) before
    /// the deadline: what the computer sends for bob is the same whatever they are.
    #[test]
    fn the_computer_standing_in_never_sees_another_seats_secret_order(
        bids in (1u32..=35, 1u32..=35),
        choices in (any::<bool>(), any::<bool>()),
    ) {
        sent_alike("bob", (bobs_stand_in_bid, bobs_stand_in_choice), bids, choices)?;
    }
}

#[tokio::test]
async fn a_seat_a_person_takes_from_a_computer_is_the_persons() {
    let out = play(
        "alice #t: !new tag seed=7\n\
         alice #t: !join\n\
         alice #t: !join bot\n\
         alice #t: !join bot\n\
         bob #t: !join\n\
         alice #t: !kick bot1\n\
         alice #t: !join bot\n\
         alice #t: !start\n\
         alice #t: !replace bot2 carol\n\
         alice dm: bid 4\n\
         bob dm: bid 4\n\
         clock +5d\n",
    )
    .await;
    // Numbers are never given twice, even after a computer left the list.
    assert_eq!(count(&out, "Computer 3 joins game #1."), 1, "{out}");
    assert_eq!(
        count(&out, "carol takes over Computer 2's seat in game #1."),
        1
    );
    // carol stays silent: her seat gets the game's default, not a computer's order.
    assert_eq!(
        count(&out, "- carol: no order (the game's default)"),
        1,
        "{out}"
    );
    assert_eq!(count(&out, "- Computer 3: `bid"), 1);
}

#[tokio::test]
async fn an_undo_takes_back_a_persons_turn_with_the_computers_turn_after_it() {
    let out = play(
        "alice #p: !new parcheesi seed=7\n\
         alice #p: !join\n\
         alice #p: !join bot\n\
         alice #p: !start\n\
         alice #p: !enter 1\n\
         alice #p: !undo\n",
    )
    .await;
    assert_eq!(count(&out, "The GM took back alice's turn"), 1, "{out}");
    // alice has her dice of that turn again (the computer's turn after it is taken back too,
    // and the computer does not play it again before her).
    assert_eq!(
        count(&out, "Parcheesi · green (alice) to play 4 1"),
        2,
        "{out}"
    );
}

#[tokio::test]
async fn the_people_agree_a_draw_and_the_computers_share_it() {
    let out = play(
        "alice #t: !new tag seed=7\n\
         alice #t: !join\n\
         alice #t: !join bot\n\
         bob #t: !join\n\
         alice #t: !start\n\
         alice #t: !draw\n\
         bob #t: !draw\n",
    )
    .await;
    assert_eq!(
        count(&out, "The game ends in a draw when bob also types `!draw`"),
        1
    );
    assert_eq!(
        count(
            &out,
            "Game #1 ends in a draw: alice and bob agree, and share first place with Computer 1."
        ),
        1,
        "{out}"
    );
}

/// Two TAG games with `nmr=bot` whose bids are due an hour after the start: in `#t` alice and
/// carol have bid and bob is silent; in `#u` dan and fay have bid and eve is silent. Returns
/// the service and the deadline.
async fn tag_with_one_silent(
    url: &str,
) -> (referee::table::Service, chrono::DateTime<chrono::Utc>) {
    let service = common::service(url).await;
    let mut opening = String::new();
    for (channel, [gm, silent, other]) in [
        ("#t", ["alice", "bob", "carol"]),
        ("#u", ["dan", "eve", "fay"]),
    ] {
        opening.push_str(&format!(
            "{gm} {channel}: !new tag seed=7 nmr=bot deadline=1h\n{gm} {channel}: !join\n\
             {silent} {channel}: !join\n{other} {channel}: !join\n{gm} {channel}: !start\n\
             {gm} dm: bid 4\n{other} dm: bid 5\n"
        ));
    }
    common::play_on(&service, &opening, common::start_time(), &[]).await;
    (service, common::start_time() + chrono::Duration::hours(1))
}

/// `who`'s bid of 3, sent at `sent`, reaching the table at `now`.
async fn bids_late(
    service: &referee::table::Service,
    who: &str,
    sent: chrono::DateTime<chrono::Utc>,
    now: chrono::DateTime<chrono::Utc>,
) {
    let envelope = referee::table::Envelope {
        sent: Some(sent),
        ..referee::table::Envelope::id(format!("{who}-{}", sent.timestamp()))
    };
    let inbound = referee::table::Inbound::Direct {
        user: referee::table::User::named(who),
        text: "bid 3".to_string(),
    };
    service.handle(&envelope, &inbound, now).await.unwrap();
}

/// The computer's moves owed now, decided and applied at `now`.
async fn computers_play(service: &referee::table::Service, now: chrono::DateTime<chrono::Utc>) {
    for job in service.pending_work().await.unwrap().moves {
        let decision = (job.work)();
        service.apply_move(&job.owed, decision, now).await.unwrap();
    }
}

/// The reveal of the bids `who` bid in, and `who`'s line in it.
fn reveal_of(said: &[String], who: &str) -> (String, String) {
    let line_of = |text: &str| {
        text.lines()
            .find(|line| line.starts_with(&format!("- {who}: ")))
            .map(str::to_string)
    };
    said.iter()
        .filter(|text| text.starts_with("Orders for bids"))
        .find_map(|text| Some((text.clone(), line_of(text)?)))
        .expect("the bids are revealed")
}

#[tokio::test]
async fn a_silent_players_own_order_after_the_deadline_is_refused_while_the_computer_stands_in() {
    use chrono::Duration;
    let dir = tempfile::tempdir().unwrap();
    for database in common::databases(&common::file_url(dir.path())).await {
        let (service, deadline) = tag_with_one_silent(&database.url).await;
        assert_eq!(service.fire_due(deadline).await.unwrap(), 2);
        // bob's bid, sent 10 seconds after the deadline, reaches the table while the computer
        // stands in for him (the bot lagged); another, sent 20 seconds after it, reaches it
        // once the database has stalled for a minute. Both are refused with the deadline's time.
        let second = Duration::seconds;
        bids_late(
            &service,
            "bob",
            deadline + second(10),
            deadline + second(11),
        )
        .await;
        bids_late(
            &service,
            "bob",
            deadline + second(20),
            deadline + second(80),
        )
        .await;
        // eve's bid, sent a second before the deadline, reaches the table only after the
        // computer began to stand in for her: it is hers.
        bids_late(&service, "eve", deadline - second(1), deadline + second(81)).await;
        computers_play(&service, deadline + second(82)).await;
        let said = common::outbox_texts(&service).await;
        let refusals = said
            .iter()
            .filter(|text| text.contains("after the deadline of bids (2026-01-01 01:00:00.000 UTC), so it was not taken; bids resolves with the computer's move for whoever was silent (nmr=bot)."))
            .count();
        assert_eq!(refusals, 2, "{said:#?}");
        // The computer's bid is the one revealed for bob, as the computer's.
        let (reveal, bob) = reveal_of(&said, "bob");
        assert!(
            reveal.contains("the deadline passed; the computer sent the silent players' orders"),
            "{reveal}"
        );
        assert!(bob.contains("sent by the computer, nmr=bot"), "{bob}");
        // Receipts went to alice, carol, dan, fay and eve, and to bob for the computer's bid
        // only: none for his own.
        let receipts = said
            .iter()
            .filter(|text| text.contains("order received for bids"))
            .count();
        assert_eq!(receipts, 6, "{said:#?}");
        // eve's own bid is revealed as hers, and the round did not wait for the computer.
        let (reveal, eve) = reveal_of(&said, "eve");
        assert!(eve.starts_with("- eve: `bid 3` (receipt"), "{reveal}");
        assert!(!eve.contains("sent by the computer"), "{eve}");
        common::replay_every_game(&service).await;
        service.store().close().await;
    }
}

/// `who` says `text` in channel `#w` at `at`.
async fn says_in_w(
    service: &referee::table::Service,
    who: &str,
    text: &str,
    at: chrono::DateTime<chrono::Utc>,
) {
    let envelope = referee::table::Envelope {
        sent: Some(at),
        ..referee::table::Envelope::id(format!("{who}-{}-{text}", at.timestamp()))
    };
    let inbound = referee::table::Inbound::Channel {
        channel: "w".to_string(),
        user: referee::table::User::named(who),
        admin: false,
        text: text.to_string(),
    };
    service.handle(&envelope, &inbound, at).await.unwrap();
}

#[tokio::test]
async fn a_deadline_the_gm_sets_while_the_computer_stands_in_gives_the_silent_players_their_time_back(
) {
    use chrono::Duration;
    let service = common::service("sqlite::memory:").await;
    common::play_on(
        &service,
        "alice #w: !new tag seed=7 nmr=bot deadline=1h\nalice #w: !join\nbob #w: !join\n\
         carol #w: !join\nalice #w: !start\nalice dm: bid 4\n",
        common::start_time(),
        &[],
    )
    .await;
    let deadline = common::start_time() + Duration::hours(1);
    service.fire_due(deadline).await.unwrap();
    // The computer sends bob's bid, not yet carol's, when the GM sets a new deadline.
    let jobs = service.pending_work().await.unwrap().moves;
    assert_eq!(jobs.len(), 2);
    let first = jobs.into_iter().next().unwrap();
    let decision = (first.work)();
    service
        .apply_move(&first.owed, decision, deadline)
        .await
        .unwrap();
    says_in_w(
        &service,
        "alice",
        "!deadline 1h",
        deadline + Duration::seconds(5),
    )
    .await;
    assert!(
        service.pending_work().await.unwrap().moves.is_empty(),
        "the computer no longer plays: {:#?}",
        common::outbox_texts(&service).await
    );
    // bob and carol bid themselves before the new deadline: their own bids are revealed.
    for (who, at) in [("bob", 10), ("carol", 20)] {
        bids_late(
            &service,
            who,
            deadline + Duration::seconds(at),
            deadline + Duration::seconds(at),
        )
        .await;
    }
    let said = common::outbox_texts(&service).await;
    assert!(
        said.iter().any(|text| text.contains("The computer no longer plays for bob and carol: they may play until then, and the orders it sent for them are withdrawn.")),
        "{said:#?}"
    );
    let (reveal, bob) = reveal_of(&said, "bob");
    assert!(bob.starts_with("- bob: `bid 3` (receipt"), "{reveal}");
    assert!(!reveal.contains("sent by the computer"), "{reveal}");
    assert!(reveal.contains("(every order is in)"), "{reveal}");
    common::replay_every_game(&service).await;
}

/// What Computer 1 did in `out`: the lines in which it places or puts something, and the
/// reveals of its orders (without their receipts).
fn computer_moves(out: &str) -> Vec<String> {
    out.lines()
        .filter(|line| {
            line.contains("<- Computer 1 places")
                || line.contains("<- Computer 1 puts")
                || line.contains("<- - Computer 1: `")
        })
        .map(|line| line.split(" (receipt").next().unwrap_or(line).to_string())
        .collect()
}

/// A game played to where a `hard` computer must decide, three ways (every game replays):
/// - `first`: `opening`, then `brings` (after which it decides), then `then`, the computer
///   thinking one rollout;
/// - `undone`: the same game once the GM has undone it (`again`, a minute later), the computer
///   now thinking 64 rollouts;
/// - `fresh`: `opening` at one rollout, then `brings` and `then` at 64 rollouts.
///
/// What Computer 1 did in each, as [`computer_moves`] says.
async fn moves_around_an_undo(
    (opening, brings, then): (&str, &str, &str),
    again: &str,
) -> [Vec<String>; 3] {
    let thinking = |rollouts: &'static str| {
        [
            ("REFEREE_TABLE_COMPUTER_ROLLOUTS", rollouts),
            ("REFEREE_TABLE_COMPUTER_THINK", "10m"),
        ]
    };
    let start = common::start_time();
    let dir = tempfile::tempdir().unwrap();
    let url = common::file_url(dir.path());
    let quick = common::service_with(&url, &thinking("1")).await;
    let first = common::play_on(&quick, &format!("{opening}{brings}{then}"), start, &[]).await;
    let later = common::service_with(&url, &thinking("64")).await;
    let undone = common::play_on(&later, &format!("clock +1m\n{again}"), start, &[]).await;
    common::replay_every_game(&later).await;
    let dir = tempfile::tempdir().unwrap();
    let url = common::file_url(dir.path());
    let quick = common::service_with(&url, &thinking("1")).await;
    let mut fresh = common::play_on(&quick, opening, start, &[]).await;
    let later = common::service_with(&url, &thinking("64")).await;
    fresh.push_str(&common::play_on(&later, &format!("{brings}{then}"), start, &[]).await);
    common::replay_every_game(&later).await;
    [first, undone, fresh].map(|out| computer_moves(&out))
}

/// `first` and `fresh` of [`moves_around_an_undo`] differ (a second thought at 64 rollouts
/// would be another move), and what the computer did after the undo is what it did first.
fn made_again([first, undone, fresh]: [Vec<String>; 3]) {
    assert_ne!(first, fresh, "a second thought at 64 rollouts would differ");
    assert!(
        !undone.is_empty() && first.ends_with(&undone),
        "after the undo: {undone:?}, first: {first:?}"
    );
}

/// A `hard` computer thinks against the clock, so a second thought at the same position may
/// differ from its first. An undo that takes its move back gets that same move again: here
/// its first thought (one rollout) is made where a fresh one (64 rollouts) would differ.
#[tokio::test]
async fn an_undo_gets_no_second_opinion_from_a_hard_computer() {
    turn_made_again(
        "alice #c: !new carcassonne seed=3\nalice #c: !join\n\
         alice #c: !join bot hard\nalice #c: !start\n",
        "alice #c: !place 0 -1 180 pass",
    )
    .await;
}

/// [`made_again`] in a game of turns: `opening` up to the GM's turn, `placed` her turn (the
/// computer's after it), which she undoes and plays again.
async fn turn_made_again(opening: &str, placed: &str) {
    let channel = placed.split(':').next().unwrap_or_default();
    made_again(
        moves_around_an_undo(
            (opening, &format!("{placed}\n"), ""),
            &format!("{channel}: !undo\n{placed}\n"),
        )
        .await,
    );
}

/// The same in Short Circuit, whose players' clocks have moved on when the GM plays her turn
/// again: the computer's position is the board and the supply, not the time on its clock.
#[tokio::test]
async fn an_undo_gets_no_second_opinion_from_a_hard_computer_whatever_the_clocks_say() {
    turn_made_again(
        "alice #s: !new shortcircuit seed=1\nalice dm: setup board=4x4 first=alice\n\
         alice #s: !join\nalice #s: !join bot hard\nalice #s: !start\n",
        "alice #s: !place a1 turn 90",
    )
    .await;
}

/// The same for a secret order: in TAG the GM takes back two resolutions, the second of which
/// resolved the round the computer had sent its next order for; resolved again (movement
/// draws no dice), that round leaves the computer where it stood, and it sends that order
/// again.
#[tokio::test]
async fn an_undo_gets_no_second_opinion_on_a_hard_computers_secret_order() {
    let moves = "alice dm: move n stride\nbob dm: move s stride\n";
    made_again(
        moves_around_an_undo(
            (
                "alice #t: !new tag seed=3\nalice #t: !join\nbob #t: !join\n\
                 alice #t: !join bot hard\nalice #t: !start\nalice dm: bid 5\nbob dm: bid 5\n\
                 alice dm: move n stride\n",
                "bob dm: move s stride\n",
                moves,
            ),
            &format!("alice #t: !undo\nalice #t: !undo\nalice #t: !resolve\n{moves}"),
        )
        .await,
    );
}

/// A `hard` computer plays 50-Tile Circuit's tiles as weapons: a tile it claims makes
/// whoever passes it lose a turn, and with its moves it sends the `change` every player may
/// send, turning the weapon into a toll before its own die can reach it and back once past.
/// alice never answers, so the deadlines play her turns; the game replays.
#[tokio::test]
async fn a_hard_computer_turns_its_circuit_tiles_into_traps_and_keeps_its_own_die_off_them() {
    let mut transcript = String::from(
        "alice #c: !new circuit seed=11\n\
         alice #c: !join\n\
         alice #c: !join bot hard\n\
         alice #c: !join bot\n\
         alice #c: !start\n",
    );
    for _ in 0..150 {
        transcript.push_str("clock +1d\n");
    }
    let out = play_with(&transcript, &HARD_ROLLOUTS).await;
    assert_eq!(count(&out, "Final ranking"), 1, "{out}");
    // Its first claim, tile 4, is a trap, and alice runs over it on the next turn.
    let at = |line: &str| {
        out.match_indices(line)
            .map(|(index, _)| index)
            .collect::<Vec<_>>()
    };
    let first = |line: &str| at(line).first().copied().unwrap_or(usize::MAX);
    let armed = at("#c <- Computer 1 gives tile 4 the effect skip pass.\n");
    let caught = at(
        "#c <- Tile 4 (Computer 1's skip pass) acts on alice.\n#c <- alice loses its next turn.\n",
    );
    assert_eq!(armed.len(), 2, "claimed, then armed again: {out}");
    assert_eq!(caught.len(), 2, "{out}");
    assert!(armed[0] < caught[0]);
    // Before its own die could reach the tile it made a toll of it; it armed the tile again
    // on the turn it passed it, which spared it (rule 9), and the trap caught alice again.
    let safe = first("#c <- - Computer 1: `move change 4 owner 2 land`");
    let rearmed = first("#c <- - Computer 1: `move change 4 skip pass`");
    let spared = first("#c <- Tile 4 does not act on Computer 1, who changes it this turn.\n");
    assert!(
        caught[0] < safe && safe < rearmed && rearmed < spared,
        "{out}"
    );
    assert!(spared < armed[1] && armed[1] < caught[1], "{out}");
    // Tile 22, a trap its move met all the same, became a toll that turn without acting on
    // it, and paid it when Computer 2 landed there.
    let met = first("#c <- - Computer 1: `move change 22 owner 2 land`");
    let passed = first("#c <- Tile 22 does not act on Computer 1, who changes it this turn.\n");
    let paid = first("#c <- Tile 22 (Computer 1's owner 2 land) acts on Computer 2.\n");
    assert!(met < passed && passed < paid && paid < usize::MAX, "{out}");
    assert_eq!(
        count(&out, "Tile 4 (Computer 1's skip pass) acts on Computer 1"),
        0
    );
    assert_eq!(
        count(&out, "Tile 22 (Computer 1's skip pass) acts on Computer 1"),
        0
    );
    // Its changes ride on its moves, one at a time; the `normal` computer sends none.
    assert!(count(&out, "- Computer 1: `move change") >= 10, "{out}");
    assert_eq!(count(&out, "- Computer 2: `move change"), 0);
    assert_eq!(count(&out, "- Computer 2: `stay change"), 0);
}
