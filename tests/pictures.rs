//! Snapshot tests of the pictures players see, as posted: each game's board with the band the
//! table puts above it (round, who is awaited and the deadline, or the result; the legend),
//! at the start, in the middle and at the end of a whole game from tests/transcripts/. The
//! SVG is compared with tests/snapshots/ (looked at as PNG when written): UPDATE_SNAPSHOTS=1
//! rewrites them after an intended change, SNAPSHOT_PNG_DIR=<folder> writes the PNGs to look
//! at again.

mod common;

use common::{assert_says, check_snapshot, start_time};
use sqlx::Row;

/// Plays `transcript` on a database that keeps every picture, and returns the board
/// pictures posted to the channel, in order.
async fn pictures_of(transcript: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let url = format!("sqlite://{}", path.display());
    let mut config = common::default_config(&url);
    config.store.keep_pictures = chrono::Duration::days(3650);
    let service = common::standard_service(&config).await;
    let mut runner = common::runner_on(&service, start_time(), &[], None).await;
    for (index, line) in transcript.lines().enumerate() {
        runner.line(line, index + 1).await.unwrap();
    }
    common::replay_every_game(&service).await;
    service.store().close().await;
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    sqlx::query("SELECT svg FROM outbox_files WHERE svg IS NOT NULL ORDER BY id")
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|row| row.get::<String, _>(0))
        .collect()
}

/// Checks that the game's picture under the band draws nothing outside its own size: the
/// band nests it without clipping (clipping cost a third to half of drawing it), so the
/// PNG must be the very one a clipped nesting draws.
fn drawn_within_its_size(framed: &str) {
    let nested = framed
        .match_indices("<svg")
        .nth(1)
        .map(|(at, _)| at)
        .expect("the game's picture nested under the band");
    let unclipped = framed[nested..]
        .strip_prefix("<svg overflow=\"visible\"")
        .expect("the game's picture nested without clipping");
    let clipped = format!("{}<svg{unclipped}", &framed[..nested]);
    let png = |svg: &str| referee::picture::png_from_svg(svg).unwrap();
    assert!(
        png(framed) == png(&clipped),
        "the game's picture spills out of its size"
    );
}

/// Checks the start, middle and end pictures of `game` against their snapshots, and what
/// each says in its band.
async fn three_pictures(game: &str, transcript: &str, players: &[&str], winner: &str) {
    let pictures = pictures_of(transcript).await;
    assert!(pictures.len() >= 3, "{} pictures", pictures.len());
    let start = &pictures[0];
    let middle = &pictures[pictures.len() / 2];
    let end = &pictures[pictures.len() - 1];
    for picture in [start, middle] {
        assert!(
            picture.contains("Deadline: 2026-")
                || picture.contains("The solver is judging; the clock stands still"),
            "the deadline in the band, or why there is none"
        );
        assert!(
            picture.contains("Waiting for ")
                || picture.contains("&apos;s turn.")
                || picture.contains("The solver is judging"),
            "who (or what) is awaited"
        );
    }
    assert!(end.contains(&format!("Game over. Winner: {winner}.")));
    assert!(end.contains("Final standing: 1. "));
    for picture in [start, middle, end] {
        for name in players {
            assert!(picture.contains(name), "the legend names {name}");
        }
    }
    for picture in [start, middle, end] {
        drawn_within_its_size(picture);
    }
    check_snapshot(&format!("{game}_game_start.svg"), start);
    check_snapshot(&format!("{game}_game_middle.svg"), middle);
    check_snapshot(&format!("{game}_game_end.svg"), end);
}

#[tokio::test]
async fn tag_pictures() {
    let transcript = include_str!("transcripts/tag_3p_seed7.txt");
    three_pictures("tag", transcript, &["alice", "bob", "carol"], "bob").await;
    let pictures = pictures_of(transcript).await;
    // Before the bids are revealed nobody stands anywhere; at the end the winner is not "it".
    assert!(pictures[0].contains("minimum bid 1"));
    assert!(!pictures[0].contains(" on ,"));
    let end = pictures.last().unwrap();
    assert!(end.contains("Game over: bob wins."));
    assert!(!end.contains("it (red ring)"));
    assert!(!end.contains("#d00"), "no red ring at the end");
}

#[tokio::test]
async fn circuit_pictures() {
    let transcript = include_str!("transcripts/circuit_3p_seed11.txt");
    three_pictures("circuit", transcript, &["ann", "ben", "cat"], "ben").await;
}

#[tokio::test]
async fn parcheesi_pictures() {
    let transcript = include_str!("transcripts/parcheesi_2p_seed7.txt");
    three_pictures("parcheesi", transcript, &["alice", "bob"], "bob").await;
}

#[tokio::test]
async fn short_circuit_pictures() {
    let transcript = include_str!("transcripts/short_circuit_2p_seed9.txt");
    three_pictures("short_circuit", transcript, &["ann", "bob"], "bob").await;
    // The game draws no seat, so the band names the players; the picture is wide enough
    // for its longest line.
    let pictures = pictures_of(transcript).await;
    // The call's own board is not posted: the verdict's board follows at once.
    assert!(
        !pictures
            .iter()
            .any(|picture| picture.contains("the solver is judging")),
        "the board was posted twice in a row"
    );
    let middle = pictures
        .iter()
        .find(|picture| picture.contains("bob may place until the circuit is complete, or concede"))
        .expect("the challenge is drawn");
    assert!(middle.contains("Players, in seat order: ann, bob"));
    let line = "ann called impossible; bob may place until the circuit is complete, or concede";
    let width: usize = middle
        .split("width=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .and_then(|w| w.parse().ok())
        .unwrap();
    assert!(
        width >= line.len() * 8,
        "{width} px is too narrow for the line below the board"
    );
}

#[tokio::test]
async fn carcassonne_pictures() {
    let transcript = include_str!("transcripts/carcassonne_2p_seed3.txt");
    three_pictures("carcassonne", transcript, &["ann", "bob"], "bob").await;
    let pictures = pictures_of(transcript).await;
    let middle = &pictures[pictures.len() / 2];
    assert_says(middle, &["Tiles left: ", " followers"]);
    // The final board's footer (every token revealed) fits the picture: each of its lines,
    // drawn with the bundled fonts, ends before the right edge.
    let end = &pictures[pictures.len() - 1];
    let board = &end[end.rfind("<svg").unwrap()..];
    let width: f32 = board
        .split("width=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .and_then(|width| width.parse().ok())
        .unwrap();
    let footer: Vec<&str> = board
        .split("<text x=\"8\" ")
        .skip(1)
        .filter_map(|text| text.split('>').nth(1)?.split("</text").next())
        .collect();
    assert!(
        footer
            .concat()
            .contains("Big Top tokens revealed: monkey 3"),
        "{footer:?}"
    );
    for line in &footer {
        let drawn = 8.0 + referee::picture::text_width(line, 14.0);
        assert!(
            drawn <= width,
            "'{line}' is {drawn} px wide in a {width} px picture"
        );
    }
}

#[tokio::test]
async fn a_sixty_player_board_wraps_its_band_within_what_discord_shows() {
    let names: Vec<String> = (0..60)
        .map(|n| format!("p{n:02}_{}", "longname".repeat(4))[..32].to_string())
        .collect();
    let mut transcript = format!("{} #tag: !new tag seed=5\n", names[0]);
    for name in &names {
        transcript.push_str(&format!("{name} #tag: !join\n"));
    }
    transcript.push_str(&format!("{} #tag: !start\n", names[0]));
    let pictures = pictures_of(&transcript).await;
    let start = pictures.first().expect("the start posts its board");
    let png = referee::picture::png_from_svg(start).expect("the picture is drawn");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert!(width <= referee::table::MAX_BAND_WIDTH, "{width} px wide");
    assert!(height <= referee::picture::MAX_SIDE, "{height} px high");
    // Every player is in the legend, whole, and the band says whom the bids wait for.
    for name in &names {
        assert!(
            start.contains(&format!(" {name}</text>")),
            "{name} in the legend"
        );
    }
    assert!(start.contains("Waiting for bids from"));
}

#[tokio::test]
async fn circuit_colours_are_drawn_as_named() {
    let pictures = pictures_of(
        "ann #race: !new circuit seed=3\nann #race: !join navy\nbob #race: !join gold\nann #race: !start\n",
    )
    .await;
    let start = pictures.first().expect("the start board");
    // Navy and gold, each its own colour, and the palette's values.
    assert!(start.contains("#1b2a6b"), "navy");
    assert!(start.contains("#d4a017"), "gold");
    drawn_within_its_size(start);
    check_snapshot("circuit_navy_and_gold.svg", start);
}

#[tokio::test]
async fn the_follower_prompt_shows_the_letters_on_the_tile_just_placed() {
    let pictures = pictures_of(
        "ann #carc: !new carcassonne seed=3\nann #carc: !join\nbob #carc: !join blue\nann #carc: !start\nann #carc: !place -1 0 0\n",
    )
    .await;
    let prompt = pictures.last().expect("the follower prompt's picture");
    assert!(prompt.contains("font-weight=\"bold\">a</text>"), "letters");
    drawn_within_its_size(prompt);
    check_snapshot("carcassonne_follower_prompt.svg", prompt);
}
