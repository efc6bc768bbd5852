//! Ratings and records kept per server: thirty finished games of every kind on two servers,
//! rated live as each ends, give exactly what `referee ratings --rebuild` works out from the
//! logs alone, and each server's `!stats` and `!leaderboard` see only its own games. Every
//! game played here replays from its log.

mod common;

use common::{
    assert_says, count, databases, play_on, referee, replay_every_game, service, start_time,
};
use referee::records::{Finish, Parting};

/// The players of each server (ann plays on both).
const EAST: [&str; 4] = ["ann", "ben", "cat", "dan"];
const WEST: [&str; 4] = ["ann", "wes", "xia", "yul"];

/// Thirty games, alternating between the servers `east` and `west`, five kinds of ending:
/// a concession in Short Circuit; Parcheesi won by the last player left after a kick and a
/// leave; TAG played to its end by computers that took the people's seats; Carcassonne
/// drawn by its people with a computer seated; Parcheesi with a turn forced and taken back,
/// then conceded or ended by the GM (unrated).
fn thirty_games() -> String {
    let mut transcript = String::new();
    for i in 0..30 {
        let (server, pool) = match i % 2 {
            0 => ("east", EAST),
            _ => ("west", WEST),
        };
        let [p1, p2, p3] = [pool[i % 4], pool[(i + 1) % 4], pool[(i + 2) % 4]];
        let at = format!("#g{i}@{server}");
        let lines = match i % 5 {
            // The same two players each time: ann and ben on east, ann and wes on west.
            0 => format!(
                "{a} {at}: !new shortcircuit\n{a} {at}: !join\n{b} {at}: !join\n\
                 {a} {at}: !start\nclock +1h\n{} {at}: !concede\n",
                if i % 4 == 0 { pool[1] } else { pool[0] },
                a = pool[0],
                b = pool[1],
            ),
            1 => format!(
                "{p1} {at}: !new parcheesi\n{p1} {at}: !join\n{p2} {at}: !join\n\
                 {p3} {at}: !join\n{p1} {at}: !start\nclock +1h\n{p1} {at}: !kick {p3}\n\
                 {p2} {at}: !leave\n"
            ),
            2 => format!(
                "{p1} {at}: !new tag\n{p2} {at}: !join\n{p3} {at}: !join\n\
                 {p1} {at}: !join bot\n{p1} {at}: !join bot easy\n{p1} {at}: !start\n\
                 {p1} {at}: !replace {p2} bot easy\n{p1} {at}: !replace {p3} bot\n"
            ),
            3 => format!(
                "{p1} {at}: !new carcassonne\n{p1} {at}: !join\n{p2} {at}: !join\n\
                 {p1} {at}: !join bot\n{p1} {at}: !start\n{p1} {at}: !draw\n{p2} {at}: !draw\n"
            ),
            _ => format!(
                "{p1} {at}: !new parcheesi\n{p1} {at}: !join\n{p2} {at}: !join\n\
                 {p1} {at}: !start\nclock +1h\n{p1} {at}: !resolve\n{p1} {at}: !undo\n\
                 clock +1h\n{}\n",
                match i % 10 {
                    4 => format!("{p1} {at}: !end"),
                    _ => format!("{p2} {at}: !concede"),
                }
            ),
        };
        transcript.push_str(&lines);
        transcript.push_str("clock +1d\n");
    }
    transcript
}

/// The game numbers a `!stats` answer lists as its last games.
fn listed_games(answer: &str) -> Vec<i64> {
    answer
        .split("Last games: ")
        .nth(1)
        .unwrap_or_default()
        .split("; ")
        .filter_map(|entry| entry.strip_prefix('#')?.split(' ').next()?.parse().ok())
        .collect()
}

/// The lines of `out` from the first one containing `from` to the next containing `to`.
fn answer_between(out: &str, from: &str, to: &str) -> String {
    let lines: Vec<&str> = out.lines().collect();
    let Some(start) = lines.iter().position(|line| line.contains(from)) else {
        return String::new();
    };
    let end = lines[start..]
        .iter()
        .position(|line| line.contains(to))
        .map_or(lines.len(), |at| start + at + 1);
    lines[start..end]
        .iter()
        .map(|line| line.split("<- ").nth(1).unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn thirty_games_on_two_servers_rate_live_exactly_as_the_rebuild_and_each_server_sees_its_own()
{
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("referee.db");
    for database in databases(&common::file_url(dir.path())).await {
        let service = service(&database.url).await;
        let out = play_on(&service, &thirty_games(), start_time(), &[]).await;
        replay_every_game(&service).await;

        // Every game ended; the 27 with a ranking were rated in their game-over post.
        assert_eq!(count(&out, "Final ranking:"), 27, "{out}");
        assert_eq!(count(&out, "The GM ended game #"), 3);
        assert_eq!(count(&out, "Ratings in "), 27);
        assert_eq!(count(&out, "Ratings in tag on this server"), 6);
        let results = service.store().every_result().await.unwrap();
        assert_eq!(results.len(), 30);
        for result in &results {
            let server = if result.game_id % 2 == 1 {
                "east"
            } else {
                "west"
            };
            assert_eq!(result.server, server, "game #{}", result.game_id);
        }
        // The kicked and the leaver of each three-player Parcheesi lose; the last one wins.
        let parcheesi = &results[1];
        let finishes: Vec<Finish> = parcheesi.players.iter().map(|p| p.finish).collect();
        assert_eq!(
            finishes,
            [
                Finish::Departed(Parting::Kicked),
                Finish::Departed(Parting::Left),
                Finish::Placed(1)
            ]
        );
        // TAG: the people whose seats the computers took are counted as replaced; both
        // computer levels were rated under their own names.
        let tag = &results[2];
        assert_eq!(
            tag.players
                .iter()
                .filter(|p| p.finish == Finish::Departed(Parting::Replaced))
                .count(),
            2
        );
        assert!(tag.players.iter().any(|p| p.id == "computer:easy"));
        assert!(tag.players.iter().any(|p| p.id == "computer:normal"));
        // The draw: everyone, the computer too, shares first place.
        assert!(results[3]
            .players
            .iter()
            .all(|p| p.finish == Finish::Placed(1)));
        // The turn forced by `!resolve` was taken back by `!undo`: nobody missed one.
        for result in results.iter().filter(|r| r.game_id % 5 == 0) {
            assert!(
                result.players.iter().all(|p| p.missed == 0),
                "game #{}: {:?}",
                result.game_id,
                result.players
            );
        }

        // The rebuild from the logs alone gives every rating and result to the last bit.
        let live = service.store().every_rating().await.unwrap();
        assert!(live.len() > 10);
        assert!(live.iter().any(|(server, _)| server == "east"));
        assert!(live.iter().any(|(server, _)| server == "west"));
        common::execute(&service, "DELETE FROM ratings").await;
        if database.url.starts_with("sqlite") {
            let (ok, said, err) = referee(
                &["ratings", "--rebuild", "--db", file.to_str().unwrap()],
                None,
            );
            assert!(ok, "{said}{err}");
            assert!(said.starts_with("replayed 30 finished games in "), "{said}");
            assert!(said.contains(": 27 rated, "), "{said}");
        } else {
            let rebuilt = service.rebuild_ratings().await.unwrap();
            assert_eq!((rebuilt.games, rebuilt.rated), (30, 27));
            assert!(rebuilt.unreadable.is_empty());
        }
        assert_eq!(service.store().every_rating().await.unwrap(), live);
        assert_eq!(service.store().every_result().await.unwrap(), results);

        // Each server sees its own games: ann played on both.
        let asked = play_on(
            &service,
            "ann #lobby@east: !stats\n\
             ann #lobby@west: !stats\n\
             ben #lobby@east: !stats @wes\n\
             ben #lobby@east: !leaderboard shortcircuit\n\
             wes #lobby@west: !leaderboard shortcircuit\n\
             wes #lobby@west: !audit 1\n",
            start_time() + chrono::Duration::days(60),
            &[],
        )
        .await;
        let east = answer_between(&asked, "ann's record on this server:", "Last games:");
        let east_games = listed_games(&east);
        assert_eq!(east_games.len(), 5, "{east}");
        assert!(east_games.iter().all(|id| id % 2 == 1), "{east}");
        let west = answer_between(
            &asked,
            "#lobby@west <- ann's record on this server:",
            "Last games:",
        );
        let west_games = listed_games(&west);
        assert_eq!(west_games.len(), 5, "{west}");
        assert!(west_games.iter().all(|id| id % 2 == 0), "{west}");
        assert_eq!(
            count(&asked, "wes has not finished a game on this server yet."),
            1
        );
        let east_board = answer_between(&asked, "#lobby@east <- Leaderboard of", "[picture");
        let west_board = answer_between(&asked, "#lobby@west <- Leaderboard of", "[picture");
        let figure = |board: &str, who: &str| {
            board
                .lines()
                .find(|line| line.contains(&format!(". {who} ")))
                .map(|line| line.split(' ').nth(2).unwrap_or_default().to_string())
        };
        // ann won two of three on east and lost all three on west.
        assert!(figure(&east_board, "ben").is_some(), "{east_board}");
        assert!(figure(&west_board, "wes").is_some(), "{west_board}");
        assert!(figure(&east_board, "wes").is_none(), "{east_board}");
        assert!(figure(&west_board, "ben").is_none(), "{west_board}");
        let ann_east: f64 = figure(&east_board, "ann").unwrap().parse().unwrap();
        let ann_west: f64 = figure(&west_board, "ann").unwrap().parse().unwrap();
        assert!(ann_east > ann_west, "{east_board}\n{west_board}");
        // A game's log is posted only in its own channel.
        assert_eq!(
            count(
                &asked,
                "wes: there is no game #1 in this channel; a game's audit page is posted in its own channel."
            ),
            1
        );
        let page = play_on(
            &service,
            "wes #g0@east: !audit 1
",
            start_time() + chrono::Duration::days(61),
            &[],
        )
        .await;
        assert_eq!(count(&page, "game-1-audit.html"), 1, "{page}");
        // Nothing the table writes for itself reaches a player.
        let bodies = common::texts(&service, "SELECT body FROM outbox").await;
        assert!(bodies.iter().all(|body| !body.contains('\u{1}')));
        service.store().close().await;
    }
}

#[tokio::test]
async fn a_game_that_ended_before_one_already_rated_has_the_ratings_worked_out_again_in_order() {
    // Two processes can commit game ends out of order: here the clock goes back so the second
    // game to be rated ended first. Weng-Lin depends on the order, so rating it on top of the
    // first would give other figures than the rebuild.
    let dir = tempfile::tempdir().unwrap();
    for database in databases(&common::file_url(dir.path())).await {
        let service = service(&database.url).await;
        let out = play_on(
            &service,
            "ann #a@east: !new shortcircuit\nann #a@east: !join\nben #a@east: !join\n\
             ann #a@east: !start\n\
             ann #b@east: !new shortcircuit\nann #b@east: !join\ncat #b@east: !join\n\
             ann #b@east: !start\n\
             ann #c@east: !new shortcircuit\nann #c@east: !join\nben #c@east: !join\n\
             ann #c@east: !start\n\
             clock 2026-01-01T02:00:00Z\nben #a@east: !concede\n\
             clock 2026-01-01T04:00:00Z\nann #c@east: !concede\n\
             clock 2026-01-01T01:00:00Z\ncat #b@east: !concede\n",
            start_time(),
            &[],
        )
        .await;
        replay_every_game(&service).await;
        assert_eq!(
            count(&out, "Ratings in shortcircuit on this server"),
            3,
            "{out}"
        );
        let live = service.store().every_rating().await.unwrap();
        service.rebuild_ratings().await.unwrap();
        assert_eq!(service.store().every_rating().await.unwrap(), live);
        service.store().close().await;
    }
}

#[tokio::test]
async fn stats_count_deadlines_kept_and_the_median_time_to_answer() {
    // TAG's bids: alice answers after 1 hour, carol after 2, bob never (the deadline the GM
    // set at 4 hours resolves them). The moves begin then: bob answers after 1 hour, alice
    // and carol never. Then a draw.
    let out = common::play(
        "alice #t: !new tag\nalice #t: !join\nbob #t: !join\ncarol #t: !join\n\
         alice #t: !start\nalice #t: !deadline 4h\n\
         clock +1h\nalice dm: bid 2\nclock +1h\ncarol dm: bid 3\n\
         clock +3h\nbob dm: move nothing\nclock +3d\n\
         alice #t: !draw\nbob #t: !draw\ncarol #t: !draw\n\
         bob #t: !stats\nalice #t: !stats @carol\n",
    )
    .await;
    let bob = answer_between(&out, "bob's record on this server:", "Last games:");
    assert!(
        bob.contains("- tag: 1 played, 0 won, 1 drawn, 0 conceded, 0 abandoned; 50% of 2 orders and turns on time;"),
        "{out}"
    );
    assert!(bob.contains("Median time to answer: 1 hour."), "{bob}");
    let carol = answer_between(&out, "carol's record on this server:", "Last games:");
    assert_says(
        &carol,
        &[
            "50% of 2 orders and turns on time",
            "Median time to answer: 2 hours.",
        ],
    );
}

#[tokio::test]
async fn a_computer_the_gm_takes_off_its_seat_loses_nothing_and_a_person_replaced_does() {
    let service = service("sqlite::memory:").await;
    let out = play_on(
        &service,
        "alice #t: !new tag\nalice #t: !join\nbob #t: !join\nalice #t: !join bot\n\
         alice #t: !start\nalice #t: !replace bot1 @carol\nalice #t: !replace bob @dave\n\
         alice #t: !draw\ncarol #t: !draw\ndave #t: !draw\n",
        start_time(),
        &[],
    )
    .await;
    replay_every_game(&service).await;
    assert_eq!(count(&out, "Final ranking:"), 1, "{out}");
    let results = service.store().every_result().await.unwrap();
    let players: Vec<(&str, Finish)> = results[0]
        .players
        .iter()
        .map(|p| (p.id.as_str(), p.finish))
        .collect();
    assert_eq!(
        players,
        [
            ("bob", Finish::Departed(Parting::Replaced)),
            ("alice", Finish::Placed(1)),
            ("dave", Finish::Placed(1)),
            ("carol", Finish::Placed(1)),
        ]
    );
}

#[tokio::test]
async fn a_game_whose_seed_was_chosen_is_practice_everywhere_and_never_rated() {
    // On the console the seed typed with `!new` is the operator's own; by DM the GM gives
    // one with `setup seed=`. Either way someone could foresee the dice.
    let service = service("sqlite::memory:").await;
    let out = play_on(
        &service,
        "ann #a@east: !new shortcircuit seed=1\nann #a@east: !join\nben #a@east: !join\n\
         ann #a@east: !start\nben #a@east: !status\n\
         cat #b@east: !new shortcircuit\ncat dm: setup seed=5\ncat #b@east: !join\n\
         dan #b@east: !join\ncat #b@east: !start\nclock +1h\n\
         ann #a@east: !concede\ndan #b@east: !concede\n\
         ann #c@east: !new shortcircuit\nann #c@east: !join\nben #c@east: !join\n\
         ann #c@east: !start\nben #c@east: !concede\n",
        start_time(),
        &[],
    )
    .await;
    replay_every_game(&service).await;
    let practice = "Practice game: its dice seed was chosen at the table, not drawn by me, so its dice can be known in advance; it is not rated.";
    // Game #1: its sign-up post, its start post, `!status` and its last post say so.
    for heading in [
        "is open for sign-ups",
        "starts with",
        "Game #1 (shortcircuit), GM ann",
        "Final ranking:",
    ] {
        assert!(
            post_with(&out, "#a@east <- ", heading).contains(practice),
            "{heading}: {out}"
        );
    }
    // Game #2 became practice when its GM chose the seed by DM: the channel is told, the GM
    // is told it stays secret, and its start post says so.
    assert!(out.contains(&format!(
        "#b@east <- Game #2: the GM chose the dice seed privately. {practice}"
    )));
    assert!(out.contains("dm cat <- Secret setup for game #2 stored: the dice seed you chose, which stays secret until the end."), "{out}");
    assert_eq!(count(&out, "Ratings in "), 1, "{out}");
    assert_eq!(count(&out, practice), 2 + 4 + 1, "{out}");
    // Only game #3, whose seed nobody chose, left a result.
    let results = service.store().every_result().await.unwrap();
    assert_eq!(
        results.iter().map(|r| r.game_id).collect::<Vec<_>>(),
        [3],
        "{out}"
    );
    let live = service.store().every_rating().await.unwrap();
    let rebuilt = service.rebuild_ratings().await.unwrap();
    assert_eq!(rebuilt.rated, 1);
    assert_eq!(service.store().every_rating().await.unwrap(), live);
}

/// The lines said to `place` (like `#a@east <- `) from the first that contains `needle` on,
/// up to the first said elsewhere: the post it begins (each line of a post is printed with
/// its place) and what followed it there.
fn post_with(out: &str, place: &str, needle: &str) -> String {
    let lines: Vec<&str> = out.lines().collect();
    let Some(start) = lines
        .iter()
        .position(|line| line.starts_with(place) && line.contains(needle))
    else {
        return String::new();
    };
    lines[start..]
        .iter()
        .take_while(|line| line.starts_with(place))
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}
