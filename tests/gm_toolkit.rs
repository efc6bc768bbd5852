//! The GM's toolkit on the console, each game replayed from its log afterwards: `!undo` of a
//! TAG round with a teleport, of a Parcheesi turn and of a Carcassonne placement with a sealed
//! draw; vacations (`vacation 5d`, both rules) and quiet hours across a daylight-saving
//! change; `!who`; `!concede` and `!draw`. Each runs on PostgreSQL too when a test server is
//! set, and must say the same there.

mod common;

use common::{
    assert_says, count, databases, file_url, play_on, play_on_both, replay_every_game, service,
    TAG_SIGNUP,
};
use referee::records::{EventBody, Input};
use referee::store::StoredEvent;

/// Plays `transcript` from `start` on a file database, and again on PostgreSQL when a test
/// server is set (both must say the same); returns what was posted and the SQLite service
/// (for reading the logs). Every game is replayed on both.
async fn play_kept(
    dir: &tempfile::TempDir,
    transcript: &str,
    start: &str,
) -> (String, referee::table::Service) {
    let start = chrono::DateTime::parse_from_rfc3339(start)
        .unwrap()
        .with_timezone(&chrono::Utc);
    let mut kept = None;
    for database in databases(&file_url(dir.path())).await {
        let service = service(&database.url).await;
        let out = play_on(&service, transcript, start, &[]).await;
        replay_every_game(&service).await;
        match &kept {
            None => kept = Some((out, service)),
            Some((first, _)) => {
                assert_eq!(*first, out, "SQLite and PostgreSQL said different things");
                service.store().close().await;
            }
        }
    }
    kept.expect("SQLite is always there")
}

fn rolls<'a>(events: &'a [StoredEvent], purpose: &str) -> Vec<(&'a StoredEvent, u32)> {
    events
        .iter()
        .filter_map(|e| match &e.event.body {
            EventBody::Roll(draw) if draw.purpose.contains(purpose) => Some((e, draw.result)),
            _ => None,
        })
        .collect()
}

const TAG_TO_ROUND_TWO: &str = concat!(
    tag_signup!(),
    "\
alice dm: bid 5
bob dm: bid 5
carol dm: bid 3
alice dm: move n stomp
bob dm: move n stomp
carol dm: move se stomp
"
);

#[tokio::test]
async fn undo_of_a_tag_round_with_a_teleport_draws_a_fresh_square() {
    let dir = tempfile::tempdir().unwrap();
    // Round 1 tags alice, so round 2 allows teleports; alice teleports; the GM takes the
    // round back; carol changes her order; the round resolves again.
    let transcript = format!(
        "{TAG_TO_ROUND_TWO}alice dm: move teleport stomp\nbob dm: move w stride\ncarol dm: move n stomp\nbob #tag: !undo\nalice #tag: !undo\ncarol dm: move e stomp\nalice #tag: !resolve\nalice #tag: !log 2\n"
    );
    let (out, service) = play_kept(&dir, &transcript, "2026-01-01T00:00:00Z").await;
    assert_says(
        &out,
        &[
            "Step 1: alice (A) teleports from b5 to c5 (-5).",
            "#tag <- bob: Only the GM (alice) or a server admin can use `undo`.",
            "#tag <- The GM took back the resolution of moves for round 2: game #1 is back where it was before.",
            "The orders sent for moves for round 2 are back in force; you can change them until the deadline, when the round resolves.",
        ],
    );
    // carol's change does not resolve the round at once: the others may change theirs too.
    assert!(
        out.contains("dm carol <- Game #1: order replaced for moves for round 2: `move e stomp`.")
    );
    assert_eq!(
        count(&out, "Orders for moves for round 2 (forced by the GM)"),
        1
    );
    // The fresh draw puts alice elsewhere, and the log shows both squares.
    assert_says(
        &out,
        &[
            "Step 1: alice (A) teleports from b5 to e3 (-5).",
            "#tag <- - (undone by the GM) roll d25 for teleport of alice: 23",
            "#tag <- - roll d25 for teleport of alice: 15",
            "#tag <- - undo: the GM took back the resolution of moves for round 2",
        ],
    );
    let events = service.store().events(1, None).await.unwrap();
    let teleports = rolls(&events, "teleport of alice");
    assert_eq!(teleports.len(), 2);
    assert!(teleports[0].0.undone && !teleports[1].0.undone);
    // The undone inputs stay in the log, marked with the undo's number.
    let inputs = service.store().inputs(1).await.unwrap();
    let undo = inputs
        .iter()
        .find(|i| matches!(i.input, Input::Undo { .. }))
        .unwrap();
    let undone: Vec<i64> = inputs
        .iter()
        .filter(|i| i.undone_by == Some(undo.seq))
        .map(|i| i.seq)
        .collect();
    assert_eq!(undone, vec![14], "the order that resolved round 2");
}

#[tokio::test]
async fn undo_of_a_parcheesi_turn_goes_back_to_its_roll_and_then_further() {
    let out = play_on_both(
        "alice #p: !new parcheesi seed=7\nalice #p: !join\nbob #p: !join\nalice #p: !start\nbob #p: !enter 1\nbob #p: !move 1 1\nalice #p: !enter 1\nbob #p: !move 1 2\nalice #p: !undo\nalice #p: !undo\nalice #p: !undo\nalice #p: !board\n",
    )
    .await;
    // bob's half-played turn, then alice's turn, then bob's first turn are taken back.
    assert!(
        out.contains("#p <- The GM took back bob's turn: game #1 is back where it was before."),
        "{out}"
    );
    assert!(
        out.contains("#p <- The GM took back alice's turn: game #1 is back where it was before.")
    );
    assert_eq!(count(&out, "The GM took back"), 3);
    // Back at bob's first roll: 5 and 1, with his pawns in the nest.
    assert_says(
        &out,
        &[
            "#p <- Parcheesi · red (bob) to play 5 1",
            "red    bob          1 nest · 2 nest · 3 nest · 4 nest",
        ],
    );
}

#[tokio::test]
async fn undo_of_a_carcassonne_circus_placement_draws_its_sealed_token_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let head: String = include_str!("transcripts/carcassonne_2p_seed3.txt")
        .lines()
        .take(14)
        .map(|l| format!("{l}\n"))
        .collect();
    let transcript =
        format!("{head}ann #carc: !undo\nbob #carc: !place -2 -1 90\nbob #carc: !meeple d\n");
    let (out, service) = play_kept(&dir, &transcript, "2026-01-01T00:00:00Z").await;
    assert!(
        out.contains("#carc <- The GM took back bob's turn"),
        "{out}"
    );
    assert_eq!(
        count(&out, "The Big Top stands on the circus tile at (-2,-1) now"),
        2
    );
    // The token under the Big Top is a sealed draw: the undone one stays in the log, and the
    // placement made again draws the next number of the stream.
    let events = service.store().events(1, None).await.unwrap();
    let tokens = rolls(&events, "animal token under the Big Top");
    assert_eq!(tokens.len(), 2);
    assert!(tokens[0].0.undone && !tokens[1].0.undone);
    assert!(tokens[1].0.seq > tokens[0].0.seq);
    assert_ne!(tokens[0].1, tokens[1].1, "seed 3 draws 15 then 9");
}

#[tokio::test]
async fn nothing_to_undo_before_play_and_nothing_after_the_seed_is_out() {
    let out = play_on_both(
        "alice #tag: !new tag seed=7\nalice #tag: !undo\nalice #tag: !join\nbob #tag: !join\ncarol #tag: !join\nalice #tag: !start\nalice #tag: !undo\nalice #tag: !end\nalice #tag: !undo\n",
    )
    .await;
    assert_says(
        &out,
        &[
            "#tag <- alice: Game #1 has not started yet.",
            "#tag <- alice: There is nothing to undo in game #1 yet: no round has been resolved and no turn played.",
            "#tag <- alice: Game #1 is over and its seed is revealed, so nothing can be taken back.",
        ],
    );
}

#[tokio::test]
async fn a_vacation_moves_a_deadline_once_out_of_the_quiet_hours_across_summer_time() {
    let dir = tempfile::tempdir().unwrap();
    // 25 March 2026, 23:30 in Rome (CET, UTC+1). Summer time begins on the 29th.
    let transcript = concat!(
        game_started!(
            new "tag seed=7 quiet=23:00-08:00 tz=Europe/Rome vacation=7d" in "#tag" by "alice",
            joined by "alice", "bob", "carol"
        ),
        "\
bob dm: vacation 9d
bob dm: vacation 6d
alice dm: bid 5
carol dm: bid 3
alice #tag: !status
bob dm: vacation 2d
clock +7d
alice #tag: !who
",
    );
    let (out, _) = play_kept(&dir, transcript, "2026-03-25T22:30:00Z").await;
    assert!(out.contains("Settings: vacation=7d: each player may be away that long in all, with `vacation 5d` by DM; tz=Europe/Rome: clock times are written in Europe/Rome time; quiet=23:00-08:00 Europe/Rome: no deadline falls and no reminder goes out in those hours."), "{out}");
    // The bids' 4 days end at 00:30 on 30 March, summer time: moved to 08:00 CEST, 06:00 UTC
    // (a fixed offset would say 07:00).
    assert_says(
        &out,
        &[
            "Waiting for bids by direct message from alice, bob and carol. Deadline: in 4 days 8 hours (2026-03-30 08:00 CEST).",
            "dm bob <- Game #1 allows 7 days of vacation per player and you have 7 days left; send `vacation 7d` or less.",
        ],
    );
    // bob's vacation ends at 00:30 CEST on 1 April: the deadline moves once, to 08:00.
    assert_says(
        &out,
        &[
            "#tag <- bob is on vacation for 6 days, until 2026-04-01 00:30 CEST (in 6 days); 1 day of vacation left in this game.",
            "The deadline moves to 2026-04-01 08:00 CEST (in 6 days 8 hours) for bob's vacation.",
            "Waiting for bids by direct message from bob. Deadline: in 6 days 8 hours (2026-04-01 08:00 CEST).",
        ],
    );
    // A vacation sent while away replaces the rest of the current one; the deadline, moved
    // once, stays.
    assert_says(
        &out,
        &[
            "#tag <- bob is on vacation for 2 days, until 2026-03-27 23:30 CET (in 2 days); 5 days of vacation left in this game.",
            "#tag <- Orders for bids (the deadline passed):",
        ],
    );
    // The reminder went out before the quiet hours, not in them.
    assert_says(
        &out,
        &[
            "dm bob <- Reminder for game #1 in #tag: your order for bids is still missing. Deadline: in 12 hours (2026-04-01 08:00 CEST).",
            "- bob: 0 on time, 0 late, 1 missed; no action yet.",
        ],
    );
}

#[tokio::test]
async fn a_quiet_night_deadline_of_a_turn_moves_to_the_morning() {
    let dir = tempfile::tempdir().unwrap();
    // Parcheesi turns last a day: a turn begun at 23:30 on 28 March in Rome (CET) would end
    // at 00:30 on the 30th, summer time since the night before; it moves to 08:00 CEST.
    let (out, _) = play_kept(
        &dir,
        "alice #p: !new parcheesi seed=7 quiet=23:00-08:00 tz=Europe/Rome\nalice #p: !join\nbob #p: !join\nalice #p: !start\n",
        "2026-03-28T22:30:00Z",
    )
    .await;
    assert!(
        out.contains("It is bob's turn. Deadline: in 1 day 8 hours (2026-03-30 08:00 CEST)."),
        "{out}"
    );
    let refused = play_on_both("alice #p: !new parcheesi quiet=23-8\nalice #q: !new parcheesi tz=Mars/Olympus quiet=23:00-08:00\nalice #r: !new parcheesi tz=Europe/Rome\n").await;
    assert_says(
        &refused,
        &[
            "#p <- alice: `quiet` takes two clock times, like quiet=23:00-08:00; got '23-8'",
            "#q <- alice: `tz` takes a time zone name like Europe/Rome, America/New_York or UTC; got 'Mars/Olympus'",
        ],
    );
    // A time zone alone is the game's zone for the times it writes out.
    assert!(
        refused.contains("Settings: tz=Europe/Rome: clock times are written in Europe/Rome time."),
        "{refused}"
    );
}

#[tokio::test]
async fn clock_times_are_written_in_the_games_time_zone() {
    let out = play_on_both(concat!(
        game_started!(new "tag seed=7 tz=Europe/Rome" in "#tag" by "alice", joined by "alice", "bob", "carol"),
        "alice #tag: !deadline 2026-01-01 00:00 UTC\n",
        game_started!(new "tag seed=7" in "#utc" by "alice", joined by "alice", "bob", "carol"),
        "alice #utc: !deadline 2026-01-01 00:00 UTC\n",
    ))
    .await;
    assert_says(
        &out,
        &[
            "#tag <- alice: 2026-01-01 01:00 CET is already past; give a later time.",
            "#utc <- alice: 2026-01-01 00:00 UTC is already past; give a later time.",
        ],
    );
}

#[tokio::test]
async fn under_away_default_a_player_on_vacation_plays_by_the_default() {
    let out = play_on_both(
        "alice #tag: !new tag seed=7 away=default\nalice #tag: !join\nbob #tag: !join\ncarol #tag: !join\nalice #tag: !start\nbob dm: vacation 3d\nalice dm: bid 5\ncarol dm: bid 4\nbob dm: vacation off\nbob dm: vacation off\ndan dm: vacation 2d\n",
    )
    .await;
    assert_says(
        &out,
        &[
            "Settings: away=default: a player on vacation plays by the game's default.",
            "Meanwhile their default order is used and their turns are played by the game's default.",
        ],
    );
    // The bids resolve once alice and carol are in: bob's default is his minimum bid.
    assert_says(
        &out,
        &[
            "#tag <- Orders for bids (every order is in):",
            "#tag <- - bob: no order (on vacation: the game's default)",
            "#tag <- bob on vacation: the game's default plays for them.",
            "Waiting for moves for round 1 by direct message from alice and carol.",
            "#tag <- bob is back from vacation (",
            "dm bob <- You are not on vacation in game #1.",
            "dm dan <- You are not playing in any game, so 'vacation 2d' was not taken as an order.",
        ],
    );
}

#[tokio::test]
async fn who_counts_orders_on_time_late_and_missed() {
    let out = play_on_both(&format!(
        "{TAG_SIGNUP}alice dm: bid 5\nalice #tag: !who\nclock +3d\nalice #tag: !deadline 2d\nclock +36h\ncarol dm: bid 3\nclock +1d\nalice #tag: !who\n"
    ))
    .await;
    assert_says(
        &out,
        &[
            "#tag <- Game #1: orders and turns on time, late (after the first deadline) and missed:",
            "No phase has ended yet.",
        ],
    );
    // alice bid in time; carol after the first deadline (the GM had extended it); bob never.
    assert_says(
        &out,
        &[
            "#tag <- - alice: 1 on time, 0 late, 0 missed; last action 5 days 12 hours ago (2026-01-01 00:00 UTC): order for bids.",
            "#tag <- - bob: 0 on time, 0 late, 1 missed; no action yet.",
            "#tag <- - carol: 0 on time, 1 late, 0 missed; last action 1 day ago (2026-01-05 12:00 UTC): order for bids.",
        ],
    );
}

#[tokio::test]
async fn concede_ranks_last_among_those_still_in_and_a_unanimous_draw_ends_the_game() {
    let out = play_on_both(&format!(
        "{TAG_TO_ROUND_TWO}bob #tag: !concede\nbob #tag: !draw\nalice #tag: !draw\nalice #tag: !draw\ncarol #tag: !draw no\ncarol #tag: !draw\nalice #p: !new parcheesi seed=2\nalice #p: !join\nbob #p: !join\nalice #p: !start\nbob #p: !concede\n"
    ))
    .await;
    assert_says(
        &out,
        &[
            "#tag <- bob concedes: they leave the game and rank last among the players still in.",
            "#tag <- bob: You are not playing in game #1.",
            "#tag <- alice votes for a draw in game #1 (1 of 2). The game ends in a draw when carol also types `!draw`; `!draw no` takes a vote back.",
            "#tag <- alice: You have already voted for a draw in game #1; `!draw no` takes the vote back.",
            "#tag <- carol: You have not voted for a draw in game #1.",
            "#tag <- Game #1 ends in a draw: alice and carol agree, and share first place.\n#tag <- Final ranking:\n#tag <- 1. alice, carol\n#tag <- 2. bob\n",
            "#tag <- Seed: `07",
        ],
    );
    // Two players: the one left wins.
    assert!(
        out.contains("#p <- Final ranking:\n#p <- 1. alice\n#p <- 2. bob\n"),
        "{out}"
    );
}

#[tokio::test]
async fn a_nudge_is_once_a_phase_even_when_a_player_leaves_in_between() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _service) = play_kept(
        &dir,
        "ann #tag: !new tag seed=7\nann #tag: !join\nbob #tag: !join\ncat #tag: !join\ndan #tag: !join\nann #tag: !start\nbob dm: bid 3\nann #tag: !nudge\nann #tag: !kick dan\nann #tag: !nudge\nann dm: bid 4\ncat dm: bid 5\nann #tag: !nudge\n",
        "2026-01-01T00:00:00Z",
    )
    .await;
    // The first nudge writes to those whose bid is missing, not to bob.
    assert!(
        out.contains("#tag <- Nudged by DM: ann, cat and dan."),
        "{out}"
    );
    assert_eq!(
        count(&out, "nudges you: your order for bids is awaited"),
        3,
        "{out}"
    );
    // dan leaving does not begin another phase, so the second is refused.
    assert!(
        out.contains(
            "#tag <- ann: `!nudge` was already used in this phase; it can be used once a phase."
        ),
        "{out}"
    );
    // The bids resolved, the moves are a new phase: the GM may nudge again.
    assert!(
        out.contains("#tag <- Nudged by DM: ann, bob and cat."),
        "{out}"
    );
    assert_eq!(
        count(&out, "nudges you: your order for moves for round 1"),
        3,
        "{out}"
    );
}
