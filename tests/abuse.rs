//! What a stranger who wants an edge tries, played through the real table (parser, table,
//! store, outbox) on the console, each asserting that it gains nothing: reading an order from
//! its receipt, stalling every round with a vacation taken and given back, playing in a
//! paused game, ordering for another seat or a game one is not in, a huge vacation, a stale
//! order, a GM of another game giving orders here, opening game after game, and what a kicked
//! player is told. Every game played here is replayed from its log.

mod common;

use common::{assert_says, play, play_on, replay_every_game, service, start_time, TAG_SIGNUP};
use hmac::{Hmac, Mac};
use referee::dice::Seed;
use referee::table::{Inbound, User};
use sha2::{Digest, Sha256};

/// The receipt a DM of `out` gives for `order`.
fn receipt_of(out: &str, who: &str, order: &str) -> String {
    let line = out
        .lines()
        .find(|line| {
            line.starts_with(&format!("dm {who} <- "))
                && line.contains(&format!("`{order}`. Receipt `"))
        })
        .unwrap_or_else(|| panic!("{who}'s receipt for {order} in:\n{out}"));
    line.split("Receipt `").nth(1).unwrap()[..16].to_string()
}

/// The hex commitment the start post gives.
fn commitment_of(out: &str) -> String {
    out.split("Seed commitment: `").nth(1).unwrap()[..64].to_string()
}

fn hmac_hex(key: &[u8], message: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap();
    mac.update(message.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

#[tokio::test]
async fn a_receipt_gives_no_order_away_before_the_reveal_and_checks_after_it() {
    let out = play(&format!("{TAG_SIGNUP}alice dm: bid 6\n")).await;
    let receipt = receipt_of(&out, "alice", "bid 6");
    assert_eq!(receipt.len(), 16, "64 bits");
    let commitment = hex::decode(commitment_of(&out)).unwrap();
    // Everything public before the reveal: the game, the rounds, the seats, the commitment.
    // Every bid the vocabulary allows, from every seat, in every early round, under every
    // key the public facts give: none gives the receipt.
    let keys: Vec<Vec<u8>> = vec![
        Vec::new(),
        commitment.clone(),
        Sha256::new()
            .chain_update(b"referee receipt key ")
            .chain_update(&commitment)
            .finalize()
            .to_vec(),
        b"1".to_vec(),
    ];
    let mut tried = 0;
    for round in 0..3 {
        for seat in 0..3 {
            for bid in 0..=1000 {
                let message = format!("1:{round}:{seat}:bid {bid}");
                let plain = hex::encode(Sha256::digest(&message));
                assert_ne!(&plain[..16], receipt, "{message}");
                assert_ne!(&plain[..8], &receipt[..8], "{message}");
                for key in &keys {
                    assert_ne!(&hmac_hex(key, &message)[..16], receipt, "{message}");
                }
                tried += 1;
            }
        }
    }
    assert!(tried > 9_000);
    // Once the seed is out, anyone checks it: it is alice's bid, and no other order fits.
    let seed = Seed::parse("7").unwrap();
    assert_eq!(seed.receipt("1:0:0:bid 6"), receipt);
    let fits = (0..=1000)
        .filter(|bid| seed.receipt(&format!("1:0:0:bid {bid}")) == receipt)
        .count();
    assert_eq!(fits, 1);
}

#[tokio::test]
async fn taking_a_long_vacation_and_coming_back_at_once_holds_nothing() {
    let out = play(&format!(
        "{TAG_SIGNUP}alice dm: bid 5\ncarol dm: bid 3\nbob dm: vacation 14d\nbob dm: vacation off\n"
    ))
    .await;
    assert_says(
        &out,
        &[
            "The deadline moves to 2026-01-15 00:00 UTC (in 14 days) for bob's vacation.",
            "#tag <- bob is back from vacation (14 days of vacation left in this game). The deadline moves back to 2026-01-05 00:00 UTC (in 4 days).",
        ],
    );
    // The allowance is spent by what was taken: nothing, and it works no second time.
    let again = play(&format!(
        "{TAG_SIGNUP}alice dm: bid 5\ncarol dm: bid 3\nbob dm: vacation 14d\nbob dm: vacation off\nbob dm: vacation 14d\nbob dm: vacation off\nbob #tag: !status\n"
    ))
    .await;
    assert_eq!(again.matches("The deadline moves to").count(), 1, "{again}");
    assert!(
        again.contains("Waiting for bids by direct message from bob. Deadline: in 4 days (2026-01-05 00:00 UTC)."),
        "{again}"
    );
}

#[tokio::test]
async fn twenty_vacations_taken_and_given_back_never_hold_the_game() {
    let service = service("sqlite::memory:").await;
    let mut transcript = game_started!(
        new "dicey seed=7 to=1000" in "#dice" by "alice", joined by "bob", "carol", "alice"
    )
    .to_string();
    play_on(&service, &transcript, start_time(), &[]).await;
    let store = service.store();
    let rollers = ["bob", "carol", "alice"];
    for round in 0..20 {
        let original = store.game(1).await.unwrap().unwrap().record.deadline;
        // Two guesses in; bob goes away for nearly a fortnight, and is back an hour later.
        let steps =
            "carol dm: guess 1\nalice dm: guess 1\nbob dm: vacation 13d\nclock +1h\nbob dm: vacation off\n";
        let said = play_on(&service, steps, start_time(), &[]).await;
        assert!(
            said.contains("bob is on vacation for 13 days"),
            "round {round}: {said}"
        );
        let record = store.game(1).await.unwrap().unwrap().record;
        assert_eq!(
            record.deadline, original,
            "round {round}: the deadline came back\n{said}"
        );
        let roller = rollers[round % 3];
        play_on(
            &service,
            &format!("bob dm: guess 1\n{roller} #dice: !roll\n"),
            start_time(),
            &[],
        )
        .await;
        transcript.push_str(steps);
    }
    // Bob spent what he took: an hour a time, and never the deadlines of anyone else.
    let record = store.game(1).await.unwrap().unwrap().record;
    let bob = record.seats.iter().find(|s| s.user.name == "bob").unwrap();
    assert_eq!(bob.away_taken, chrono::Duration::hours(20));
    replay_every_game(&service).await;
}

#[tokio::test]
async fn a_paused_game_still_takes_secret_orders_and_refuses_public_moves() {
    let out = play(&format!(
        "{TAG_SIGNUP}alice #tag: !pause\nbob dm: bid 4\nalice dm: bid 5\ncarol dm: bid 3\nalice #tag: !resume\n"
    ))
    .await;
    assert_says(
        &out,
        &[
            "Secret orders by direct message are still taken and can be changed meanwhile.",
            "dm bob <- Game #1: order received for bids: `bid 4`.",
        ],
    );
    // The last bid came in while paused: the round resolves when the GM resumes, not before.
    let resumed = out.find("#tag <- Game #1 resumes.").expect("resumed");
    let resolved = out
        .find("#tag <- Orders for bids (every order is in):")
        .expect("resolved");
    assert!(resolved > resumed, "{out}");

    let parcheesi = concat!(
        game_started!(new "parcheesi seed=7" in "#p" by "alice", joined by "alice", "bob"),
        "alice #p: !pause\nalice #p: !move 1 2\n",
    );
    let out = play(parcheesi).await;
    assert!(
        out.contains("#p <- alice: Game #1 is paused by alice: nothing is played or resolved until the GM types `!resume`. `!status` and `!board` still answer."),
        "{out}"
    );
}

#[tokio::test]
async fn a_kicked_player_is_told_and_the_board_counts_who_is_left() {
    let out = play(&format!(
        "{TAG_SIGNUP}alice #tag: !kick carol\ncarol dm: bid 3\nalice #tag: !board\n"
    ))
    .await;
    assert_says(
        &out,
        &[
            "dm carol <- Game #1: the GM removed you from the game in #tag; nothing you send for it is taken any more.",
            "Waiting for bids by direct message from alice and bob.",
        ],
    );
    let after = out.split("carol was removed by the GM.").nth(1).unwrap();
    assert!(after.contains("TAG, bids, 2 players, 5x5 grid."), "{out}");
    assert!(!after.contains("TAG, bids, 3 players"), "{out}");
    assert!(
        out.contains("dm carol <- You are not playing in any game, so 'bid 3' was not taken"),
        "{out}"
    );
}

#[tokio::test]
async fn orders_for_another_seat_or_another_game_gain_nothing() {
    let out = play(&format!(
        "{TAG_SIGNUP}dave dm: bid 3\ndave dm: #1 bid 3\nbob dm: #2 bid 3\nbob dm: bid 3 for carol\nerin #other: !new tag seed=8\nerin dm: #1 bid 1\nalice dm: vacation 400d\nbob dm: vacation 15d\n"
    ))
    .await;
    for refused in [
        "dm dave <- You are not playing in any game, so 'bid 3' was not taken as an order.",
        "dm dave <- You are not playing in game #1.",
        "dm bob <- There is no game #2.",
        "dm bob <- a bid is one whole number, like `bid 12`",
        "dm alice <- a vacation is at most a year; got '400d'",
        "dm erin <- You are not playing in game #1.",
        "dm bob <- Game #1 allows 14 days of vacation per player and you have 14 days left; send `vacation 14d` or less.",
    ] {
        assert!(out.contains(refused), "{refused}\n{out}");
    }
    // Nothing of it was taken: no receipt went out.
    assert!(!out.contains("order received"), "{out}");
}

#[tokio::test]
async fn an_order_sent_for_a_phase_that_has_passed_is_refused_however_it_comes() {
    // A button pressed, or a message read, after the round it was meant for resolved.
    let service = service("sqlite::memory:").await;
    let out = play_on(
        &service,
        &format!("{TAG_SIGNUP}alice dm: bid 5\nbob dm: bid 5\ncarol dm: bid 3\n"),
        start_time(),
        &[],
    )
    .await;
    assert!(out.contains("Waiting for moves for round 1"), "{out}");
    let inbound = Inbound::Direct {
        user: User::named("bob"),
        text: "move n stomp".to_string(),
    };
    let sent = start_time() - chrono::Duration::minutes(1);
    let said = common::handle_sent_at(&service, "stale", &inbound, sent, start_time()).await;
    assert_eq!(said.len(), 1);
    assert!(
        said[0].contains("before the current phase (moves for round 1) began"),
        "{}",
        said[0]
    );
    replay_every_game(&service).await;
}

#[tokio::test]
async fn one_account_opens_no_more_games_than_the_cap() {
    let mut transcript = String::new();
    for n in 1..=6 {
        transcript.push_str(&format!("mallory #c{n}: !new tag seed={n}\n"));
    }
    let out = play(&transcript).await;
    assert_eq!(out.matches("is open for sign-ups").count(), 5, "{out}");
    assert!(
        out.contains("#c6 <- mallory: you already run 5 games not over (#1, #2, #3, #4, #5), the most one account may run at once; end one with `!end` in its channel before opening another."),
        "{out}"
    );
}

#[tokio::test]
async fn a_gm_of_another_game_has_no_power_here_and_a_second_game_takes_no_channel() {
    let out = play(&format!(
        "{TAG_SIGNUP}erin #other: !new tag seed=8\nerin #tag: !resolve\nerin #tag: !kick bob\nerin #tag: !pause\nerin #tag: !new parcheesi\nalice #tag: !status\n"
    ))
    .await;
    for refused in [
        "#tag <- erin: Only the GM (alice) or a server admin can use `resolve`.",
        "#tag <- erin: Only the GM (alice) or a server admin can use `kick`.",
        "#tag <- erin: Only the GM (alice) or a server admin can use `pause`.",
        "#tag <- erin: There is already a game in this channel (#1, tag). One game per channel: the GM can `!end` it first.",
    ] {
        assert!(out.contains(refused), "{refused}\n{out}");
    }
    // bob still plays, the bids are still open and nothing was resolved.
    assert!(!out.contains("bob was removed"), "{out}");
    assert!(!out.contains("is paused"), "{out}");
    assert!(!out.contains("Orders for bids"), "{out}");
}
