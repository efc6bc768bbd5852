//! What players read, on the console: the rules and help they can ask for, the first DM, the
//! receipts, the deadlines written out, the settings said back at sign-up, and the wording
//! of the games' own prompts. Each assertion is a sentence a player would see.

mod common;

use common::{assert_says, count, play, play_on, service, start_time};

#[tokio::test]
async fn rules_games_and_help_explain_each_game_and_its_options() {
    let out = play(
        "ann #lobby: !games\nann #lobby: !rules tag\nann #lobby: !rules\nann #lobby: !rules chess\nann #lobby: !help parcheesi\nann dm: !help\nann dm: rules circuit\nann dm: help carcassonne\nann #lobby: !rules options\nann #lobby: !help effects\nann dm: help effects\n",
    )
    .await;
    // `!games` names every game's options.
    assert_says(
        &out,
        &[
            "`tag`: TAG: bid to avoid being it",
            "Options: `bid_deadline`, `move_deadline`.",
            "Options: `board`, `straight`, `turn`, `turns`, `cross`, `thunder`, `first`, `impossible`, `clocks`, `turntime`, `reserve`, `window`.",
        ],
    );
    // `!rules tag`: the summary, then its own options with their defaults; the table's are
    // behind `!rules options`.
    assert_says(
        &out,
        &[
            "#lobby <- **tag** (3 or more players).",
            "#lobby <- - `bid_deadline=`: how long the bid round lasts, like 4d or 36h (default 4d)",
            "#lobby <- `!rules options`: the options every game takes.",
        ],
    );
    assert!(out.contains(&format!("#lobby <- ann: `!rules` takes a game, like `!rules tag`; the games are {}. `!rules options` lists the options every game takes.", common::game_names())));
    assert!(out.contains("#lobby <- ann: There is no game called 'chess'."));
    // `!help <game>`: that game's commands.
    assert_says(
        &out,
        &[
            "#lobby <- parcheesi commands:",
            "#lobby <- `!rules parcheesi` explains the game.",
        ],
    );
    // By DM: `!help` as typed in a channel, and the rules of a game.
    assert!(
        out.contains("dm ann <- By direct message to me, no prefix: your secret orders, `status`")
    );
    assert_says(
        &out,
        &[
            "dm ann <- **circuit** (2 to 6 players).",
            "dm ann <- - `skip`: the activator loses its next turn",
            "dm ann <- **carcassonne** (2 to 6 players).",
        ],
    );
    // `!rules options`: the table's options with their defaults on this bot.
    assert_says(
        &out,
        &[
            "#lobby <- - `early=`: on or off: a round of secret orders resolves once every order is in (default on)",
            "#lobby <- - `reminder=`: how long before a deadline the awaited players get a reminder by DM (default 12 hours)",
        ],
    );
    // Circuit's effects are explained once, behind `!help effects`, in the channel or by DM.
    assert_eq!(
        count(
            &out,
            "**Effects** a tile's owner may give it (50-Tile Circuit):"
        ),
        2,
        "{out}"
    );
}

#[tokio::test]
async fn sign_up_says_the_settings_as_they_will_apply_and_welcomes_by_dm() {
    let out = play(
        "ann #race: !new circuit seed=3 turn=3h claim=2h deadline=1h early=off\nbob #race: !join\nann #dice: !new parcheesi seed=2 turn=2h\ncat #dice: !join\n",
    )
    .await;
    assert_says(
        &out,
        &[
            "Settings: deadline=1h: every phase lasts 1 hour, so claim=2h, turn=3h do not apply; early=off: a round resolves only at its deadline.",
            "Settings: turn=2h.",
        ],
    );
    // The first DM a player gets says what goes by DM, for games with and without orders.
    assert_says(
        &out,
        &[
            "dm bob <- Welcome to game #1 (circuit) in #race. I take your secret orders here, by direct message.",
            "dm cat <- Welcome to game #2 (parcheesi) in #dice. You play in the channel with `!` commands; I write to you here with reminders.",
            "dm cat <- By direct message to me, no prefix: `status` (where you stand and what you have sent), `help`, `rules <game>`.",
        ],
    );
}

#[tokio::test]
async fn receipts_reminders_and_deadlines_read_as_sentences() {
    let out = play(
        "ann #tag: !new tag seed=7\nann #tag: !join\nbob #tag: !join\ncat #tag: !join\nann #tag: !start\nann dm: bid 5\nann #tag: !status\nclock +84h\nbob dm: bid 4\ncat dm: bid 3\nclock +10m\n",
    )
    .await;
    assert_says(
        &out,
        &[
            "Receipt `",
            ": keep this code, the reveal will show the same one with your order. You can replace it until the deadline, in 4 days (2026-01-05 00:00 UTC).",
        ],
    );
    // Only the players still awaited are named.
    assert!(out.contains("Waiting for bids by direct message from bob and cat. Deadline: in 4 days (2026-01-05 00:00 UTC)."), "{out}");
    // The reminder names the channel as a reader finds it, with the time left in words.
    assert!(out.contains("dm bob <- Reminder for game #1 in #tag: your order for bids is still missing. Deadline: in 12 hours (2026-01-05 00:00 UTC)."), "{out}");
    assert_eq!(count(&out, "<t:"), 0, "no raw timestamps on the console");
}

#[tokio::test]
async fn a_late_deadline_says_the_bot_was_down_only_when_it_was() {
    // The clock moves on while the bot runs: the deadline fires at its time.
    let out = play(
        "ann #tag: !new tag seed=7\nann #tag: !join\nbob #tag: !join\ncat #tag: !join\nann #tag: !start\nclock +5d\n",
    )
    .await;
    assert!(
        out.contains("#tag <- Orders for bids (the deadline passed):"),
        "{out}"
    );
    assert!(!out.contains("not running"), "{out}");
    // Started after the deadline: it was not running.
    let dir = tempfile::tempdir().unwrap();
    let url = common::file_url(dir.path());
    let first = service(&url).await;
    play_on(
        &first,
        "ann #tag: !new tag seed=7\nann #tag: !join\nbob #tag: !join\ncat #tag: !join\nann #tag: !start\n",
        start_time(),
        &[],
    )
    .await;
    first.store().close().await;
    let later = start_time() + chrono::Duration::days(6);
    let second = service(&url).await.running_since(later);
    let out = play_on(&second, "", later, &[]).await;
    assert!(out.contains("the deadline, 2026-01-05 00:00 UTC, passed while the bot was not running; resolved on its return"), "{out}");
}

#[tokio::test]
async fn game_texts_count_in_words_and_name_features_and_effects() {
    let tag = play(include_str!("transcripts/tag_3p_seed7.txt")).await;
    assert!(tag.contains("TAG, game over, 1 player left"), "{tag}");
    assert!(!tag.contains("1 players"));
    let circuit = play(include_str!("transcripts/circuit_3p_seed11.txt")).await;
    assert_says(
        &circuit,
        &[
            "Choose its effect: `effect <action> [N] <land|pass>`, like `effect back 3 land`, or `effect none`. The words:",
            "- `anchor`: the activator must stay on its next turn",
        ],
    );
    let carcassonne = play(include_str!("transcripts/carcassonne_2p_seed3.txt")).await;
    assert_says(
        &carcassonne,
        &[
            "`a` (the city to the north), `b` (the road from east to west)",
            "bob puts a farmer on the field to the north-east (d).",
        ],
    );
    assert!(!carcassonne.contains("city-nesw"));
    let duel = play(
        "ann #duel: !new shortcircuit seed=4\nann #duel: !join\nbob #duel: !join\nann #duel: !start\n",
    )
    .await;
    assert!(
        duel.contains(
            "Clocks: 1 day per turn plus a reserve of 2 days; 1 day to answer an impossible call."
        ),
        "{duel}"
    );
}

#[tokio::test]
async fn circuit_turns_and_table_rounds_share_one_number() {
    let transcript = "gm #circuit: !new circuit seed=11 max=3\nann #circuit: !join blue\nben #circuit: !join purple\ncat #circuit: !join grey\nann dm: move\nben dm: move\ncat dm: move\nann dm: effect back 3 land\nben dm: effect boost pass\ncat dm: effect skip land\nann #circuit: !status\ngm #circuit: !log 0\ngm #circuit: !log 1\n";
    let out = play(transcript).await;
    // Turn 2 is turn 2 in `!status`, as in the game's own text.
    assert!(
        out.contains("#circuit <- Game #1 (circuit), GM gm, turn 2. Players: ann, ben, cat. Waiting for move or stay for turn 2"),
        "{out}"
    );
    // `!log 0` holds the sign-up, `!log 1` turn 1's moves and claims.
    let log0 = &out[out.find("#circuit <- Game #1, round 0:").expect("log 0")..];
    assert!(log0.contains("- game started; seed commitment"));
    let log1 = &out[out.find("#circuit <- Game #1, round 1:").expect("log 1")..];
    assert_says(log1, &["- Turn 1 resolves:", "ann claims tile 3."]);
    assert!(!log0[..log0.find("round 1:").unwrap_or(log0.len())].contains("Turn 1 resolves"));
}

#[tokio::test]
async fn colours_come_from_the_games_palette_offered_at_sign_up_and_in_the_rules() {
    let out = play(
        "ann #race: !new circuit seed=3\nbob #race: !join salmonella\nbob #race: !join navy\ncat #race: !join Gold\ndan #race: !join 🐸\nann #race: !rules circuit\nann #carc: !new carcassonne\nbob #carc: !join navy\n",
    )
    .await;
    let circuit_colours = "dark blue, purple, grey, red, dark green, teal, lime green, white, orange, yellow, pink, brown, blue, green, black, navy, gold, salmon";
    assert!(out.contains(&format!("Type `!join` to play (`!join <colour>` picks one of {circuit_colours}; without one you get the first free)")), "{out}");
    assert!(out.contains(&format!("#race <- bob: 'salmonella' is not one of the colours of circuit; choose one of {circuit_colours}.")), "{out}");
    assert_says(
        &out,
        &[
            "#race <- dan: '🐸' is not one of the colours of circuit",
            "bob joins game #1 as navy",
            "cat joins game #1 as Gold",
        ],
    );
    assert!(
        out.contains(&format!(
            "**Colours** (`!join <colour>`): {circuit_colours}."
        )),
        "{out}"
    );
    assert!(out.contains("#carc <- bob: 'navy' is not one of the colours of carcassonne; choose one of red, blue, green, yellow, black, grey."), "{out}");
}

#[tokio::test]
async fn base_carcassonne_seats_five_and_the_big_top_six() {
    let joins = |channel: &str| {
        ["bob", "cat", "dan", "eve", "fay"]
            .iter()
            .map(|name| format!("{name} #{channel}: !join\n"))
            .collect::<String>()
    };
    let out = play(&format!(
        "ann #base: !new carcassonne bigtop=off\nann #base: !join\n{}ann #big: !new carcassonne\nann #big: !join\n{}ann #max: !new carcassonne bigtop=off max=6\nann #big: !start\n",
        joins("base"),
        joins("big")
    ))
    .await;
    assert_says(
        &out,
        &[
            "#base <- fay: Game #1 is full (5 players).",
            "fay joins game #2",
            "#max <- ann: `max` is a number of players from 2 to 5; got '6'",
            "Carcassonne with Under the Big Top begins",
        ],
    );
}

#[tokio::test]
async fn an_ended_game_still_answers_who_deadline_and_undo_and_shows_its_final_board() {
    let out = play(
        "ann #tag: !new tag seed=7\nann #tag: !join\nbob #tag: !join\ncat #tag: !join\nann #tag: !start\nann #tag: !draw\nbob #tag: !draw\ncat #tag: !draw\nann #tag: !who\nann #tag: !deadline 2d\nann #tag: !undo\nann #tag: !join\nbob #tag: !concede\ncat #tag: !draw\nbob #tag: !leave\n",
    )
    .await;
    // Every command that would change it says, the same way, that it is over and what still
    // answers: ending it again, a deadline, a join.
    let over = "Game #1 (tag) is over: `!audit` posts its page, `!who` says who played and how each left, and `!new <game>` opens another here.";
    for who in ["bob", "cat"] {
        assert!(out.contains(&format!("#tag <- {who}: {over}")), "{out}");
    }
    assert_eq!(count(&out, over), 5, "{out}");
    let ended = out.find("ends in a draw").expect(&out);
    let after = &out[ended..];
    // The final board follows the ranking, picture and all.
    assert!(after.contains("#tag <- [picture:"), "{out}");
    assert!(out.contains(&format!("#tag <- ann: {over}")), "{out}");
    assert!(
        out.contains(
            "#tag <- ann: Game #1 is over and its seed is revealed, so nothing can be taken back."
        ),
        "{out}"
    );
    assert_eq!(count(&out, "There is no game in this channel"), 0, "{out}");
}

#[tokio::test]
async fn a_question_gets_no_buttons_and_the_board_gets_the_players_steps() {
    let service = common::service("sqlite::memory:").await;
    play_on(
        &service,
        "alice #p: !new parcheesi seed=7\nalice #p: !join\nbob #p: !join\nalice #p: !start\nbob #p: !status\nbob #p: !who\nbob #p: !board\n",
        start_time(),
        &[],
    )
    .await;
    common::replay_every_game(&service).await;
    let cards = |like: &str| {
        let service = &service;
        let sql =
            format!("SELECT COALESCE(card, '') FROM outbox WHERE body LIKE '{like}' ORDER BY id");
        async move { common::texts(service, &sql).await }
    };
    let status = cards("Game #1 (parcheesi), GM%").await;
    assert!(!status.is_empty());
    assert!(
        status.iter().all(|card| !card.contains("\"label\"")),
        "{status:?}"
    );
    // `!board`, the last thing asked, offers bob his steps.
    let board = common::texts(
        &service,
        "SELECT COALESCE(card, '') FROM outbox ORDER BY id DESC LIMIT 1",
    )
    .await;
    assert!(board[0].contains("\"text\":\"!enter 1\""), "{board:?}");
    assert!(board[0].contains("\"only\":\"bob\""), "{board:?}");
}

#[tokio::test]
async fn wording_a_player_meets_says_what_it_means() {
    let out = play(
        "ann dm: rules\nann #tag: !new tag seed=7\nben #tag: !leave\nann #tag: !help\nann #tag: !help gm\nann #tag: !join\nbob #tag: !join\ncat #tag: !join\nann #tag: !start\nann dm: vacation 14d\nann dm: vacation off\n",
    )
    .await;
    assert_says(
        &out,
        &[
            "dm ann <- `rules` takes a game, like `rules tag`",
            "#tag <- ben: you are not playing in game #1, so there is nothing to leave.",
        ],
    );
    // `!help`: the players' commands, then the GM's named in one line; `!help gm` explains those.
    assert!(out.contains("The GM's: `!start`, `!resolve`, `!deadline`, `!kick`, `!replace`, `!pause`, `!resume`, `!end`, `!home`, `!undo`, `!nudge` (`!help gm` explains them)."), "{out}");
    assert!(
        !out.contains("`!start`: GM: starts the game with the players signed up\n#tag <- `!board`"),
        "{out}"
    );
    assert_says(
        &out,
        &[
            "#tag <- The GM's commands (the GM of the game, or a server admin):\n#tag <- `!start`: GM: starts the game",
            "no vacation left in this game",
        ],
    );
    assert!(!out.contains("none of vacation"), "{out}");
}

/// The lines of `out` said in `channel` (without the `#channel <- ` head).
fn said_in<'a>(out: &'a str, channel: &str) -> Vec<&'a str> {
    let head = format!("#{channel} <- ");
    out.lines()
        .filter_map(|line| line.strip_prefix(head.as_str()))
        .collect()
}

#[tokio::test]
async fn times_are_written_in_the_games_zone_and_durations_one_way() {
    let out = play(concat!(
        "ann #tag: !new tag seed=7 tz=Europe/Rome vacation=10d
ann #tag: !join
ben #tag: !join
cat #tag: !join 🐱
dan #tag: !join
ann #tag: !start
ben dm: vacation 7d
ann dm: bid 5
",
        game_started!(new "tag seed=7" in "#utc" by "ann", joined by "ann", "ben", "cat"),
        game_started!(new "short-circuit turn=5m reserve=90m" in "#sc" by "ann", joined by "ann", "ben"),
    ))
    .await;
    // In the game's zone (Rome keeps CET in January); elsewhere in UTC, as before.
    assert_says(
        &out,
        &[
            "#tag <- Waiting for bids by direct message from ann, ben, cat and dan. Deadline: in 4 days (2026-01-05 01:00 CET).",
            "#utc <- Waiting for bids by direct message from ann, ben and cat. Deadline: in 4 days (2026-01-05 00:00 UTC).",
            "#tag <- ben is on vacation for 7 days, until 2026-01-08 01:00 CET (in 7 days); 3 days of vacation left in this game.",
            "You can replace it until the deadline, in 7 days (2026-01-08 01:00 CET).",
        ],
    );
    // One way to write a duration, whatever wrote it: the table, a game, a clock.
    assert_says(
        &out,
        &[
            "#sc <- Game #3: shortcircuit is open for sign-ups. GM: ann. Settings: reserve=90m: a reserve of 1 hour 30 minutes per player; turn=5m: 5 minutes per turn (the same as turntime=5m).",
            "Clocks: 5 minutes per turn plus a reserve of 1 hour 30 minutes; 1 day to answer an impossible call.",
            "#sc <- # ann: reserve 1 hour 30 minutes (turn time 5 minutes)",
            "Deadline: in 1 hour 35 minutes (2026-01-01 01:35 UTC).",
        ],
    );
    for said in out.lines() {
        let compact = said
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|word| word == "90m" || word == "5m" || word == "10d");
        // Only an option as typed (`turn=5m`) or a command to type keeps the short form.
        assert!(
            !compact || said.contains("=") || said.contains('`'),
            "{said}"
        );
    }
}

#[tokio::test]
async fn players_are_marked_by_their_initials_computers_by_numbers_and_refusals_name_who_they_mean()
{
    let out = play(
        "ann #tag: !new tag seed=7
ann #tag: !join
ben #tag: !join
cat #tag: !join 🐱
dan #tag: !join
ann #tag: !start
ann #tag: !kick zed
ann #x: !new tag seed=7
ben #x: !join
ann #x: !kick ann
ann #x: !replace ann cat
cal #c: !new tag seed=7
cal #c: !join
cal #c: !join bot
cal #c: !join bot
cal #c: !start
",
    )
    .await;
    // Computer seats are numbers, which no person's initial can be (not C, then Co).
    assert_says(
        &out,
        &[
            "#c <- cal (C): minimum bid",
            "#c <- Computer 1 (1): minimum bid",
            "#c <- Computer 2 (2): minimum bid",
        ],
    );
    // dan is D (not the first free letter, C), beside cat's own 🐱.
    assert_says(
        &out,
        &[
            "#tag <- ann (A): minimum bid",
            "#tag <- dan (D): minimum bid",
            "#tag <- cat (🐱): minimum bid",
            "#tag <- ann: zed is not playing in game #1; `!who` lists who is.",
        ],
    );
    // The GM who does not play is told "you", never "ann: ann is not playing".
    assert_eq!(
        count(
            &out,
            "#x <- ann: you are not playing in game #2; name a player who is."
        ),
        2,
        "{out}"
    );
    assert!(!out.contains("ann: ann is"), "{out}");
}

#[tokio::test]
async fn carcassonne_reads_at_a_glance_and_a_silent_turn_is_played_with_care() {
    let transcript = include_str!("transcripts/carcassonne_2p_seed3.txt");
    let out = play(transcript).await;
    let said = said_in(&out, "carc");
    // The drawn tile's prompt lists at most ten squares; the picture marks the rest.
    let prompts: Vec<&&str> = said.iter().filter(|l| l.contains(" is drawn (")).collect();
    assert!(prompts.len() > 40, "{}", prompts.len());
    for prompt in &prompts {
        assert!(prompt.matches(") at ").count() <= 10, "{prompt}");
    }
    assert!(
        prompts
            .iter()
            .any(|p| p.contains("more, marked on the picture")),
        "{prompts:?}"
    );
    // Tiles are named as players know them, never by the tile list's ids.
    assert!(said.iter().any(|l| l.contains("circus tile ")), "{out}");
    assert!(said.iter().any(|l| l.contains("acrobat tile ")), "{out}");
    for line in &said {
        assert!(
            !line.contains("tile BT") && !line.contains("tile AC"),
            "{line}"
        );
        assert!(
            !line.contains("(circus)") && !line.contains("(acrobats)"),
            "{line}"
        );
    }
    // After a placement, each feature is named once, and the board does not repeat it.
    let chosen: Vec<&&str> = said
        .iter()
        .filter(|l| l.contains("Features of the new tile: "))
        .collect();
    assert!(chosen.len() > 20, "{}", chosen.len());
    for line in &chosen {
        for letter in 'a'..='h' {
            assert!(
                line.matches(&format!("`{letter}` (")).count() <= 1,
                "{line}"
            );
        }
    }
    assert!(
        said.iter()
            .any(|l| l.starts_with("ann to place tile ") && l.ends_with("legal placements)")),
        "{out}"
    );
    assert!(
        said.contains(&"bob to choose a follower for the new tile, or pass"),
        "{out}"
    );

    // Nobody plays: each tile goes where it scores most for its seat, nearest the centre
    // among equals, so the map grows round the start tile instead of into a spine.
    let mut silent = String::from("ann #c: !new carcassonne seed=5 bigtop=off turn=1h\nann #c: !join\nbob #c: !join\nann #c: !start\n");
    for _ in 0..24 {
        silent.push_str("clock +1h\n");
    }
    silent.push_str("ann #c: !status\n");
    let out = play(&silent).await;
    assert_eq!(
        count(&out, "ran out of time: the tile goes where it scores most for them (nearest the centre among equals), with no follower."),
        24
    );
    let placed: Vec<(i32, i32)> = said_in(&out, "c")
        .iter()
        .filter(|line| line.contains(" places tile "))
        .filter_map(|line| line.split(" at (").nth(1)?.split(')').next())
        .filter_map(|xy| {
            let (x, y) = xy.split_once(',')?;
            Some((x.parse().ok()?, y.parse().ok()?))
        })
        .collect();
    assert_eq!(placed.len(), 24, "{out}");
    assert!(
        placed.iter().all(|(x, y)| x.abs() <= 4 && y.abs() <= 4),
        "{placed:?}"
    );
    // Two seats, 24 turns: the 25th, ann's, is in round 13.
    assert!(
        out.contains("#c <- Game #1 (carcassonne), GM ann, round 13."),
        "{out}"
    );
}

#[tokio::test]
async fn a_round_is_every_seats_turn() {
    let mut transcript = String::from("ann #p: !new parcheesi seed=4 turn=1h\nann #p: !join\nbob #p: !join\ncat #p: !join\nann #p: !start\n");
    for _ in 0..9 {
        transcript.push_str("clock +1h\n");
    }
    transcript.push_str("ann #p: !status\n");
    let out = play(&transcript).await;
    // 28 turns played (some by themselves, when no die could be used) by three players: the
    // 29th, bob's, is in round 10, not "round 28".
    assert_eq!(count(&out, "#p <- Turn summary, "), 28, "{out}");
    assert!(
        out.contains("#p <- Game #1 (parcheesi), GM ann, round 10. Players: ann, bob, cat. It is bob's turn."),
        "{out}"
    );
}

#[tokio::test]
async fn the_audit_page_draws_emoji_as_the_pictures_do() {
    let service = service("sqlite::memory:").await;
    play_on(
        &service,
        "ann #tag: !new tag seed=7\nann #tag: !join 🐸\nben #tag: !join\ncat #tag: !join\nann #tag: !start\n",
        start_time(),
        &[],
    )
    .await;
    let page = referee::table::audit::audit_page(&service, 1)
        .await
        .unwrap();
    let body = &page[page.find("<body").unwrap()..];
    let text_only: String = body
        .split("<script")
        .next()
        .unwrap()
        .split("<svg")
        .enumerate()
        .map(|(index, part)| match index {
            0 => part,
            _ => part.split("</svg>").nth(1).unwrap_or(""),
        })
        .collect();
    // The frog is a picture in the text (labelled with itself), drawn once for the page.
    let outside_tags: String = text_only
        .split('<')
        .map(|part| part.split_once('>').map_or(part, |(_, text)| text))
        .collect();
    assert!(!outside_tags.contains("🐸"), "{outside_tags}");
    assert!(
        text_only.contains("ann (<span class=\"emoji e0\" role=\"img\" aria-label=\"🐸\""),
        "{text_only}"
    );
    assert_eq!(
        page.matches(".e0{background-image:url(data:image/png;base64,")
            .count(),
        1
    );
}

/// Where `turns` silent turns put the tiles of a 2-player base game (seed 5), under the
/// game's rules revision `revision`.
fn silent_placements(revision: u32) -> Vec<(i32, i32)> {
    use referee::dice::{Dice, Seed};
    use referee::games::{Ctx, Options, Rules};
    let players = common::seated(&["ann", "bob"]);
    let mut dice = Dice::new(Seed::parse("5").unwrap());
    let mut ctx = Ctx {
        now: start_time(),
        dice: &mut dice,
        revision,
    };
    let options = Options::from([("bigtop".to_string(), "off".to_string())]);
    let rules = &referee::games::carcassonne::CARCASSONNE_RULES;
    let (mut game, _) = rules.setup(&options, &players, &mut ctx).unwrap();
    let mut placed = Vec::new();
    for _ in 0..24 {
        for event in game.timeout(&mut ctx) {
            let Some(xy) = event.text.split(" at (").nth(1) else {
                continue;
            };
            let (x, y) = xy.split(')').next().unwrap().split_once(',').unwrap();
            placed.push((x.parse().unwrap(), y.parse().unwrap()));
        }
    }
    placed
}

#[test]
fn a_game_keeps_the_rules_of_the_revision_it_was_opened_under() {
    // Carcassonne's revision 1 put a silent turn's tile on the first legal placement in
    // reading order, which grows a spine to the north; revision 2 keeps round the centre.
    let old = silent_placements(1);
    let new = silent_placements(referee::games::Ctx::NEWEST);
    assert_eq!((old.len(), new.len()), (24, 24));
    assert!(old.iter().any(|(_, y)| *y <= -8), "{old:?}");
    assert!(
        new.iter().all(|(x, y)| x.abs() <= 4 && y.abs() <= 4),
        "{new:?}"
    );
}

#[tokio::test]
async fn every_hint_names_something_that_works() {
    let out = play(
        "ann #c: !new carcassonne seed=3\nann #c: !join\nbob #c: !join\nann #c: !start\n\
         ann #t: !new tag seed=7\nann #t: !join\nbob #t: !join\ncat #t: !join\nann #t: !start\n\
         bob dm: bid 3\nbob dm: #2 !bid 3\nann #c: !place 0 -1\n\
         gm #sc: !new shortcircuit seed=9\n\
         gm dm: setup board=4x4 straight=4 turn=4 cross=0 thunder=0 first=ann impossible=challenge turntime=5m reserve=5m\n\
         ann #sc: !join\nbob #sc: !join\ngm #sc: !start\nann #sc: !place a1 turn 90\nbob #sc: !impossible\n",
    )
    .await;
    // A DM without a game number names the game that awaits that order.
    assert!(out.contains("dm bob <- You are in several games (#1, #2). Put the game's number first, like `#2 bid 3` (game #2 awaits your bids)."), "{out}");
    // The channel's spelling is taken by DM.
    assert!(
        out.contains("dm bob <- Game #2: order received for bids: `bid 3`"),
        "{out}"
    );
    // A malformed placement is answered with the form, not a spot that may not fit.
    assert!(out.contains("#c <- ann: write `!place <x> <y> <rotation>`: the x and y of a square and a rotation (0, 90, 180 or 270), one of the legal placements the turn post lists"), "{out}");
    // Short Circuit's turns say how to move, and a challenge's verdict is sealed.
    assert_says(
        &out,
        &[
            "ann moves first (chosen by the GM). To move: `!place <square> <piece> <rotation>`",
            "bob to move. To move: `!place <square> <piece> <rotation>`",
            "#sc <- The solver is judging the call; its verdict stays sealed until the game ends",
        ],
    );
    assert_eq!(count(&out, "its verdict follows"), 0, "{out}");
}

#[tokio::test]
async fn a_game_the_gm_ended_says_so_and_never_whose_turn_it_was() {
    let out = play(
        "ann #p: !new parcheesi seed=7\nann #p: !join\nbob #p: !join\nann #p: !start\nann #p: !end\nbob #p: !status\nbob #p: !board\nbob #p: !move 1 5\n",
    )
    .await;
    let after = &out[out.find("The GM ended game #1.").expect(&out)..];
    assert!(
        after.contains("The game is over: the GM ended it."),
        "{out}"
    );
    assert!(
        after.contains("#p <- The GM ended this game; its board as it stood then:"),
        "{out}"
    );
    // Nothing says it is anyone's turn now (the board itself is shown as it stood).
    assert!(!after.contains("'s turn"), "{after}");
    assert!(!after.contains("!enter"), "{after}");
    assert!(
        after.contains("#p <- bob: Game #1 (parcheesi) is over: `!audit` posts its page"),
        "{after}"
    );
}
