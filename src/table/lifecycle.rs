//! A game's life around its rounds: sign-ups, the start, players leaving or being replaced,
//! pausing, and the end.

use super::outcome::Outcome;
use super::rounds;
use super::work::{Env, Work};
use crate::chat::mention;
use crate::dice::{Dice, Seed};
use crate::duration::{
    a_year, duration_as_typed, format_duration, parse_duration, parse_duration_within,
};
use crate::games::{Options, Player, Refusal, Rules};
use crate::records::Phase;
use crate::records::{
    Attendance, AwayRule, Departure, GameRecord, NoMoveRule, Parting, Seat, SeatRecord, Settings,
    Status, User, STAND_IN_APART_FROM,
};
use std::collections::BTreeMap;

/// The longest symbol or colour a player may ask for at `!join` (every game may set less).
const MAX_SYMBOL: usize = 20;

/// Option keys the table reads itself; every other key goes to the game.
pub const TABLE_OPTIONS: &[&str] = &[
    "seed", "deadline", "early", "reminder", "max", "vacation", "away", "nmr", "quiet", "tz",
    "forum", "orders",
];

/// The table's rules revision from which the GM may choose a game's seed by DM (`setup
/// seed=`), which makes it a practice game.
const PRIVATE_SEED_FROM: u32 = 6;

/// Why a `seed=` typed in a channel everyone reads is refused, and where to give one.
pub fn seed_in_public(prefix: &str) -> String {
    format!(
        "a seed typed here would let everyone at the table foresee every die, so I do not take one in a channel. Open the game without it (I draw a seed nobody knows), or, for a practice game that is not rated, send me `setup seed=<number>` by direct message before `{prefix}start`."
    )
}

/// The table's own options of `!new` in words, each with its default on this bot.
pub fn table_option_help(defaults: &super::TableDefaults) -> Vec<(&'static str, String)> {
    let on_off = |on: bool| if on { "on" } else { "off" };
    vec![
        (
            "seed",
            "fixes the dice for a practice game, not rated; given only to me by DM before the start, `setup seed=7` (default: a seed nobody knows)".to_string(),
        ),
        (
            "forum",
            "a forum channel, like forum=#games: the game opens as a new post there, its tags showing the game's state".to_string(),
        ),
        (
            "deadline",
            format!(
                "one length for every phase, like 36h (default: {})",
                defaults
                    .deadline
                    .map_or("the game's own times".to_string(), format_duration)
            ),
        ),
        (
            "early",
            format!(
                "on or off: a round of secret orders resolves once every order is in (default {})",
                on_off(defaults.early)
            ),
        ),
        (
            "reminder",
            format!(
                "how long before a deadline the awaited players get a reminder by DM (default {})",
                format_duration(defaults.reminder)
            ),
        ),
        ("max", "the most players (default: the game's most)".to_string()),
        (
            "vacation",
            format!(
                "the vacation each player may take (`vacation 5d` by DM), or 0 for none (default {})",
                format_duration(crate::records::default_vacation())
            ),
        ),
        (
            "away",
            "extend or default: a deadline during a player's vacation moves to its end, once, or their default order is used (default extend)".to_string(),
        ),
        (
            "nmr",
            "default or bot: a silent player's turn is the game's default, or the computer plays it for them (default: the game's default)".to_string(),
        ),
        (
            "orders",
            "dm or thread: secret orders by DM, or in a private thread I open for each player (default dm)".to_string(),
        ),
        (
            "grace",
            format!(
                "the time a player back early from vacation has before a deadline held for them falls (default {})",
                format_duration(crate::records::default_grace())
            ),
        ),
        (
            "quiet",
            "hours with no deadlines or reminders (one falling in them moves to their end), like 23:00-08:00 (default: none)".to_string(),
        ),
        (
            "tz",
            "the game's time zone for the times I write, like Europe/Rome (default UTC)".to_string(),
        ),
    ]
}

fn on_off(key: &str, value: &str) -> Result<bool, Refusal> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => Err(Refusal::new(format!("`{key}` is on or off; got '{value}'"))),
    }
}

fn duration_option(key: &str, value: &str) -> Result<chrono::Duration, Refusal> {
    parse_duration_within(value, a_year()).map_err(|e| Refusal::new(e.sentence(key, value)))
}

/// The table's rules revision, logged with every `!new` (as `revision=`, which the table
/// sets, never the GM): raised whenever a change would make an older game's log give other
/// events on replay, so each game keeps the rules it began under.
/// - 1: receipts are keyed commitments (64 bits of HMAC-SHA-256 under a key of the seed) in
///   place of 32 bits of a plain SHA-256 of the order, which anyone could try orders against.
/// - 2: the most seats follow the game's options ([`Rules::players_with`]: base Carcassonne
///   takes a fifth sign-up, not a sixth it could not start with).
/// - 3: a round of a game of turns is every seat's turn (Parcheesi's three players' 60th
///   turn is round 20, not round 60); texts reworded (durations in words, times in the
///   game's zone, Carcassonne's prompts).
/// - 4: computer players: `!join bot` and `!replace @player bot` seat one (before, `bot` was
///   a symbol asked for, or a console user's name).
/// - 5: the record keeps who left a running game and how, and how long each player took to
///   answer each phase (for the ratings and `!stats`).
/// - 6: the computer standing in for silent players (`nmr=bot`) has a time of its own and
///   leaves the deadline where it passed, so a player's order sent after it is refused and
///   one sent before it is the player's; a turn that comes back to the same player after
///   the others' turns played themselves is a new turn, with its own deadline and post.
/// - 7: a computer player is called "Computer 1" (before: "Bot 1 (computer)", whose brackets
///   nested inside the games' own: "green (Bot 1 (computer))").
/// - 8: one rule ranks those who left, in the final ranking and in the ratings alike: a
///   conceder is placed below everyone still in when it conceded; whoever left otherwise
///   (left, removed by the GM) shares the last place, whatever the game's own ranking said;
///   two computer seats of one level are rated once, as the better of them, never against
///   each other.
pub const REVISION: u32 = 8;

/// Refuses a colour outside the game's palette, naming the colours there are (a game with
/// no palette takes any symbol its own check allows).
fn in_palette(rules: &dyn Rules, wanted: Option<&str>) -> Result<(), Refusal> {
    let palette = rules.palette();
    let Some(wanted) = wanted.filter(|_| !palette.is_empty()) else {
        return Ok(());
    };
    let name = wanted
        .split_whitespace()
        .map(|word| word.to_lowercase().replace("gray", "grey"))
        .collect::<Vec<_>>()
        .join(" ");
    if palette.contains(&name.as_str()) {
        return Ok(());
    }
    Err(Refusal::new(format!(
        "'{}' is not one of the colours of {}; choose one of {}.",
        crate::chat::parse::quote(wanted),
        rules.name(),
        palette.join(", ")
    )))
}

/// The fewest and most players of a game under `options`, as its rules revision counts them.
fn seats_allowed(rules: &dyn Rules, options: &Options, revision: u32) -> (usize, Option<usize>) {
    match revision {
        0 | 1 => rules.players(),
        _ => rules.players_with(options),
    }
}

/// `!new <game> [options]`: a new game in sign-up, with this user as GM.
pub fn new_game(
    id: i64,
    channel: &str,
    gm: &User,
    game: &str,
    options: &[(String, String)],
    env: &Env<'_>,
) -> Result<(GameRecord, Outcome), Refusal> {
    let prefix = &env.defaults.prefix;
    let rules = env.catalogue.find(game).ok_or_else(|| {
        let names: Vec<&str> = env.catalogue.all().iter().map(|r| r.name()).collect();
        Refusal::new(format!(
            "There is no game called '{game}'. Games: {}.",
            names.join(", ")
        ))
    })?;
    let seed = options
        .iter()
        .find(|(key, _)| key == "seed")
        .ok_or_else(|| {
            Refusal::new("A new game needs a seed; the table draws one when none is given.")
        })
        .and_then(|(_, value)| Seed::parse(value).map_err(|e| Refusal::new(e.to_string())))?;
    let mut settings = Settings {
        seed,
        practice: false,
        salt: None,
        early: env.defaults.early,
        reminder: env.defaults.reminder,
        deadline: env.defaults.deadline,
        max_players: None,
        orders_in_threads: false,
        vacation: crate::records::default_vacation(),
        away: AwayRule::Extend,
        nmr: NoMoveRule::Default,
        quiet: None,
        tz: None,
        grace: crate::records::default_grace(),
        revision: 0,
        game_revision: 0,
    };
    let given = |wanted: &str| {
        options
            .iter()
            .find(|(key, _)| key == wanted)
            .map(|(_, v)| v.as_str())
    };
    if let Some(tz) = given("tz") {
        settings.tz = Some(super::quiet_hours::zone(tz)?.name().to_string());
    }
    if let Some(window) = given("quiet") {
        settings.quiet = Some(super::quiet_hours::parse(
            window,
            settings.tz.as_deref().unwrap_or("UTC"),
        )?);
    }
    let mut game_options = Options::new();
    let mut server = None;
    // A game opened as a forum post lives, until its post is made, at a place named after
    // the forum and the game (see [`forum_home`]).
    let mut home = channel.to_string();
    let mut forum = None;
    for (key, value) in options {
        match key.as_str() {
            "seed" => {}
            "forum" => {
                let (place, id_of_forum) = forum_home(value, id)?;
                home = place;
                forum = Some(id_of_forum);
            }
            "practice" => settings.practice = on_off(key, value)?,
            "server" => server = Some(value.clone()),
            "revision" => {
                settings.revision = value
                    .parse()
                    .ok()
                    .filter(|revision| *revision <= REVISION)
                    .ok_or_else(|| {
                        Refusal::new(format!("This bot knows rules revisions up to {REVISION}."))
                    })?
            }
            "game_revision" => {
                settings.game_revision = value
                    .parse()
                    .ok()
                    .filter(|revision| *revision <= rules.revision())
                    .ok_or_else(|| {
                        Refusal::new(format!(
                            "This bot knows the rules of {} up to revision {}.",
                            rules.name(),
                            rules.revision()
                        ))
                    })?
            }
            "deadline" => settings.deadline = Some(duration_option(key, value)?),
            "early" => settings.early = on_off(key, value)?,
            "reminder" => settings.reminder = duration_option(key, value)?,
            "grace" => settings.grace = duration_option(key, value)?,
            "vacation" if value == "0" => settings.vacation = chrono::Duration::zero(),
            "vacation" => settings.vacation = duration_option(key, value)?,
            "away" => {
                settings.away = match value.to_ascii_lowercase().as_str() {
                    "extend" => AwayRule::Extend,
                    "default" => AwayRule::Default,
                    _ => {
                        return Err(Refusal::new(format!(
                            "`away` is extend or default; got '{}'",
                            crate::chat::parse::quote(value)
                        )))
                    }
                }
            }
            "orders" => {
                settings.orders_in_threads = match value.to_ascii_lowercase().as_str() {
                    "dm" => false,
                    "thread" => true,
                    _ => {
                        return Err(Refusal::new(format!(
                            "`orders` is dm or thread; got '{}'",
                            crate::chat::parse::quote(value)
                        )))
                    }
                }
            }
            "nmr" => {
                settings.nmr = match value.to_ascii_lowercase().as_str() {
                    "default" => NoMoveRule::Default,
                    "bot" => NoMoveRule::Bot,
                    _ => {
                        return Err(Refusal::new(format!(
                            "`nmr` is default or bot; got '{}'",
                            crate::chat::parse::quote(value)
                        )))
                    }
                }
            }
            "quiet" | "tz" => {}
            "max" => {}
            _ => {
                game_options.insert(key.clone(), value.clone());
            }
        }
    }
    if forum.is_some() && settings.orders_in_threads {
        return Err(Refusal::new(
            "`orders=thread` opens private threads, which a forum post cannot hold: open the game in a text channel (or one of its threads) for that, or leave `orders` out.",
        ));
    }
    rules.check_options(&game_options)?;
    // The most seats follow the game's options (base Carcassonne seats 5, the Big Top 6).
    let (least, most) = seats_allowed(rules, &game_options, settings.revision);
    settings.max_players = match given("max") {
        None => most,
        Some(value) => Some(
            value
                .parse::<usize>()
                .ok()
                .filter(|max| *max >= least && most.is_none_or(|most| *max <= most))
                .ok_or_else(|| {
                    Refusal::new(format!(
                        "`max` is a number of players from {least} to {}; got '{}'",
                        most.map_or("any number".to_string(), |m| m.to_string()),
                        crate::chat::parse::quote(value)
                    ))
                })?,
        ),
    };
    let record = GameRecord {
        id,
        channel: home.clone(),
        game: rules.name().to_string(),
        gm: gm.clone(),
        settings,
        options: game_options,
        secret_options: Options::new(),
        status: Status::SignUp,
        seats: Vec::new(),
        waitlist: Vec::new(),
        round: 0,
        turns_this_round: Vec::new(),
        phase: None,
        phase_started: None,
        turns_begun: None,
        deadline: None,
        remind_at: None,
        orders: BTreeMap::new(),
        first_deadline: None,
        excused: Default::default(),
        held: false,
        extended: false,
        extended_from: None,
        searches: Vec::new(),
        standing_in: Default::default(),
        stand_in_until: None,
        conceded: Vec::new(),
        draw_votes: Default::default(),
        once_a_phase: BTreeMap::new(),
        departed: Vec::new(),
        forum,
        server,
        dice_position: 0,
        state: None,
    };
    let mut outcome = Outcome::default();
    let settings = settings_in_words(rules, &record, options);
    let practice = match record.settings.practice {
        true => format!("\n{}", rounds::PRACTICE),
        false => String::new(),
    };
    outcome.channel(
        &home,
        format!(
            "Game #{id}: {} is open for sign-ups. GM: {}.{settings} Type `{prefix}join` to play{}; the GM starts with `{prefix}start`. `{prefix}rules {}` explains the game.{practice}",
            rules.name(),
            gm.name,
            match (rules.palette(), rules.check_symbol(None, &[]).is_err()) {
                (palette, _) if !palette.is_empty() => format!(
                    " (`{prefix}join <colour>` picks one of {}; without one you get the first free)",
                    palette.join(", ")
                ),
                (_, true) => " (with a symbol or colour)".to_string(),
                (_, false) => String::new(),
            },
            rules.name(),
        ),
    );
    outcome.table_event(
        0,
        format!("{} opened game #{id} ({})", gm.name, rules.name()),
    );
    Ok((record, outcome))
}

/// Where game `id`, opened as a post of the forum `value` (`<#123>` as a mention is typed, or
/// its id), lives until the post is made: `forum:123:id`, a place of its own, so the
/// platform makes one post for it and tells the table where ([`homed`]); and the forum.
fn forum_home(value: &str, id: i64) -> Result<(String, String), Refusal> {
    let forum = value
        .trim()
        .trim_start_matches("<#")
        .trim_end_matches('>')
        .trim_start_matches('#');
    match forum.parse::<u64>().ok().filter(|forum| *forum != 0) {
        Some(forum) => Ok((mention::forum_place(forum, id), forum.to_string())),
        None => Err(Refusal::new(format!(
            "`forum` names a forum channel, like `forum=#games` (typed so that it becomes a link); got '{}'",
            crate::chat::parse::quote(value)
        ))),
    }
}

/// The game opened as a forum post has its post, `to`: it lives there from now on.
pub fn homed(work: &mut Work<'_>, to: &str) -> Result<bool, Refusal> {
    if mention::forum_of_place(&work.record.channel).is_none() {
        return Ok(false);
    }
    work.record.channel = to.to_string();
    work.outcome.table_event(
        work.record.round,
        format!("the game's post is {}", mention::channel(to)),
    );
    Ok(true)
}

/// The options of a new game as they will apply, in one sentence (empty when none was given):
/// a table `deadline=` is said to replace the game's own times (`turn=3h`).
fn settings_in_words(rules: &dyn Rules, record: &GameRecord, given: &[(String, String)]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let game_times: Vec<String> = record
        .options
        .iter()
        .filter(|(_, value)| parse_duration(value).is_some())
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    for (key, value) in &record.options {
        if parse_duration(value).is_none() || record.settings.deadline.is_none() {
            parts.push(match rules.option_meaning(key, value) {
                Some(meaning) => format!("{key}={value}: {meaning}"),
                None => format!("{key}={value}"),
            });
        }
    }
    let given_key = |wanted: &str| given.iter().any(|(key, _)| key == wanted);
    if let Some(deadline) = record.settings.deadline {
        let instead = if game_times.is_empty() {
            "instead of the game's own times".to_string()
        } else {
            format!(
                "so {} {} not apply",
                game_times.join(", "),
                if game_times.len() == 1 { "does" } else { "do" }
            )
        };
        let source = if given_key("deadline") {
            "deadline"
        } else {
            "this bot's deadline"
        };
        parts.push(format!(
            "{source}={}: every phase lasts {}, {instead}",
            duration_as_typed(deadline),
            format_duration(deadline)
        ));
    }
    if given_key("early") {
        parts.push(if record.settings.early {
            "early=on: a round resolves as soon as every order is in".to_string()
        } else {
            "early=off: a round resolves only at its deadline".to_string()
        });
    }
    if given_key("reminder") {
        parts.push(format!(
            "reminder={}: reminders go out that long before a deadline",
            duration_as_typed(record.settings.reminder)
        ));
    }
    if given_key("vacation") {
        parts.push(if record.settings.vacation > chrono::Duration::zero() {
            format!(
                "vacation={}: each player may be away that long in all, with `vacation 5d` by DM",
                duration_as_typed(record.settings.vacation)
            )
        } else {
            "vacation=0: no vacations".to_string()
        });
    }
    if given_key("away") {
        parts.push(match record.settings.away {
            AwayRule::Extend => "away=extend: a deadline that falls while an awaited player is on vacation moves once to its end".to_string(),
            AwayRule::Default => "away=default: a player on vacation plays by the game's default".to_string(),
        });
    }
    if given_key("nmr") {
        parts.push(match record.settings.nmr {
            NoMoveRule::Bot => "nmr=bot: when the deadline passes, the computer plays a silent player's turn or order".to_string(),
            NoMoveRule::Default => "nmr=default: a silent player gets the game's default".to_string(),
        });
    }
    if let Some(tz) = record.settings.tz.as_deref().filter(|_| given_key("tz")) {
        parts.push(format!("tz={tz}: clock times are written in {tz} time"));
    }
    if let Some(quiet) = &record.settings.quiet {
        parts.push(format!(
            "quiet={}: no deadline falls and no reminder goes out in those hours",
            super::quiet_hours::describe(quiet)
        ));
    }
    if let (true, Some(max)) = (given_key("max"), record.settings.max_players) {
        parts.push(format!(
            "max={max}: at most {}",
            crate::games::count(max, "player")
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" Settings: {}.", parts.join("; "))
    }
}

/// The GM's secret setup by DM, before the start.
pub fn secret_setup(
    work: &mut Work<'_>,
    user: &User,
    options: &[(String, String)],
) -> Result<bool, Refusal> {
    let record = &work.record;
    if user.id != record.gm.id {
        return Err(Refusal::new(format!(
            "Only the GM of game #{} ({}) can send its secret setup.",
            record.id, record.gm.name
        )));
    }
    if record.status != Status::SignUp {
        return Err(Refusal::new(format!(
            "Game #{} has already started; its setup is fixed.",
            record.id
        )));
    }
    let rules = work
        .env
        .catalogue
        .find(&record.game)
        .ok_or_else(|| Refusal::new(format!("Game #{} has an unknown game.", record.id)))?;
    let mut secret = record.secret_options.clone();
    let (mut seed, mut salt) = (None, None);
    for (key, value) in options {
        // Games opened before rules revision 6 refuse it, as they did; the salt is the
        // table's, logged with the seed.
        if record.settings.revision >= PRIVATE_SEED_FROM {
            let read = || Seed::parse(value).map_err(|e| Refusal::new(e.to_string()));
            match key.as_str() {
                "seed" => {
                    seed = Some(read()?);
                    continue;
                }
                "salt" => {
                    salt = Some(read()?);
                    continue;
                }
                _ => {}
            }
        }
        if TABLE_OPTIONS.contains(&key.as_str()) {
            return Err(Refusal::new(format!(
                "`{key}` is a table option: set it in the channel with `!new`, not in the secret setup."
            )));
        }
        secret.insert(key.clone(), value.clone());
    }
    let mut merged = record.options.clone();
    merged.extend(secret.clone());
    rules.check_options(&merged)?;
    let shown: Vec<String> = secret.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let (id, gm) = (work.record.id, work.record.gm.id.clone());
    let newly_practice = seed.is_some() && !work.record.settings.practice;
    if let Some(seed) = seed {
        work.record.settings.seed = seed;
        work.record.settings.salt = salt;
        work.record.settings.practice = true;
    }
    work.record.secret_options = secret;
    let mut stored = Vec::new();
    if !shown.is_empty() {
        stored.push(format!(
            "{}. Nobody else sees it until `!start`",
            shown.join(" ")
        ));
    }
    if seed.is_some() {
        stored.push("the dice seed you chose, which stays secret until the end. Since you can foresee the dice, the game is a practice game: the channel is told, and it is not rated".to_string());
    }
    work.outcome.direct(
        &gm,
        format!("Secret setup for game #{id} stored: {}.", stored.join("; ")),
    );
    if newly_practice {
        let channel = work.record.channel.clone();
        work.outcome.channel(
            &channel,
            format!(
                "Game #{id}: the GM chose the dice seed privately. {}",
                rounds::PRACTICE
            ),
        );
    }
    let logged: Vec<String> = shown
        .into_iter()
        .chain(seed.map(|seed| format!("seed={}", seed.to_hex())))
        .collect();
    work.outcome.events.push(crate::records::LogEvent {
        round: 0,
        visibility: crate::records::LogVisibility::Sealed,
        body: crate::records::EventBody::Table(format!("secret setup: {}", logged.join(" "))),
    });
    Ok(true)
}

/// `!join [symbol]`.
pub fn join(
    work: &mut Work<'_>,
    user: &User,
    symbol: Option<&str>,
    dm_help: DmHelpText,
) -> Result<bool, Refusal> {
    let prefix = work.env.defaults.prefix.clone();
    let record = &work.record;
    let rules = work
        .env
        .catalogue
        .find(&record.game)
        .ok_or_else(|| Refusal::new(format!("Game #{} has an unknown game.", record.id)))?;
    let listed = |list: &[SeatRecord]| list.iter().any(|s| s.present && s.user.id == user.id);
    if listed(&record.seats) || listed(&record.waitlist) {
        return Err(Refusal::new(format!(
            "You are already signed up for game #{}.",
            record.id
        )));
    }
    let running = matches!(record.status, Status::Running | Status::Paused { .. });
    match record.status {
        Status::Over => return Err(rounds::over(record, &prefix)),
        Status::Running | Status::Paused { .. } if !rules.waitlist() => {
            return Err(Refusal::new(format!(
                "Game #{} has already started; wait for the next one.",
                record.id
            )))
        }
        _ => {}
    }
    let taken: Vec<String> = record
        .seats
        .iter()
        .chain(record.waitlist.iter())
        .filter(|s| s.present)
        .filter_map(|s| s.symbol.clone())
        .collect();
    if let Some(symbol) = symbol.filter(|s| s.chars().count() > MAX_SYMBOL) {
        return Err(Refusal::new(format!(
            "a symbol or colour is at most {MAX_SYMBOL} characters; '{}' is longer",
            crate::chat::parse::quote(symbol)
        )));
    }
    if record.settings.revision >= 2 {
        in_palette(rules, symbol)?;
    }
    rules.check_symbol(symbol, &taken)?;
    let seated = record.seats.iter().filter(|s| s.present).count();
    let full = record.settings.max_players.is_some_and(|max| seated >= max);
    let entry = SeatRecord::new(user.clone(), symbol.map(str::to_string));
    let id = record.id;
    let channel = record.channel.clone();
    let with = symbol.map(|s| format!(" as {s}")).unwrap_or_default();
    if full || running {
        if !rules.waitlist() {
            return Err(Refusal::new(format!(
                "Game #{id} is full ({}).",
                crate::games::count(seated, "player")
            )));
        }
        welcome(work, rules, user, dm_help);
        work.record.waitlist.push(entry);
        let place = work.record.waitlist.len();
        work.outcome.channel(
            &channel,
            format!(
                "{} is on the waitlist for game #{id}{with} (number {place}).",
                user.name
            ),
        );
        work.outcome.table_event(
            work.record.round,
            format!("{} joined the waitlist", user.name),
        );
        return Ok(true);
    }
    welcome(work, rules, user, dm_help);
    work.record.seats.push(entry);
    let seated = seated + 1;
    work.outcome.channel(
        &channel,
        format!(
            "{} joins game #{id}{with}. {seated} player{} signed up. The GM starts with `{prefix}start`.",
            user.name,
            if seated == 1 { "" } else { "s" }
        ),
    );
    work.outcome
        .table_event(0, format!("{} joined{with}", user.name));
    // Games with a waitlist start by themselves when the table is full (50-Tile Circuit:
    // "the game will begin when 6 players are in"); others wait for the GM's `!start`.
    let full_now = work
        .record
        .settings
        .max_players
        .is_some_and(|max| seated >= max);
    if rules.waitlist() && full_now {
        return start(work);
    }
    Ok(true)
}

/// A player who signs up is written to at once: the welcome says what goes by DM (secret
/// orders, `status`, `help`), and a player whose DMs are closed is found now (the platform
/// then tells the channel), not when the first secret phase or reminder comes.
fn welcome(work: &mut Work<'_>, rules: &dyn Rules, user: &User, dm_help: DmHelpText) {
    // A player whose private thread is coming is welcomed there.
    if work.record.settings.orders_in_threads {
        return;
    }
    let how = if rules.orders().is_empty() {
        format!(
            "You play in the channel with `{}` commands; I write to you here with reminders.",
            work.env.defaults.prefix
        )
    } else {
        "I take your secret orders here, by direct message.".to_string()
    };
    let text = format!(
        "Welcome to game #{} ({}) in {}. {how}\n{}",
        work.record.id,
        rules.name(),
        mention::channel(&work.record.channel),
        dm_help(Some(rules))
    );
    work.outcome.direct(&user.id, text);
}

/// The help by direct message for a game's player (the registry's, `commands::dm_help`),
/// handed in by the command that welcomes one.
pub type DmHelpText = fn(Option<&dyn Rules>) -> String;

/// `!leave`.
pub fn leave(work: &mut Work<'_>, user: &User) -> Result<bool, Refusal> {
    let who = user.id.clone();
    if work.record.seat_of(&who).is_none()
        && !work
            .record
            .waitlist
            .iter()
            .any(|s| s.present && s.user.id == who)
    {
        return Err(Refusal::new(format!(
            "you are not playing in game #{}, so there is nothing to leave.",
            work.record.id
        )));
    }
    remove(work, &who, user, ("left", Parting::Left), true)
}

/// Notes that the player in `seat` leaves the running game, as `how`, with their seat as it
/// was (the ratings and `!stats` count it though the seat may pass to someone else).
fn depart(record: &mut GameRecord, seat: Seat, how: Parting) {
    if record.settings.revision < 5 {
        return;
    }
    if let Some(was) = record.seats.get(seat) {
        record.departed.push(Departure {
            seat,
            was: was.clone(),
            how,
        });
    }
}

/// `!kick @player`: out of the game (or its sign-up or waitlist), and told so by DM.
pub fn kick(work: &mut Work<'_>, who: &str, by: &User) -> Result<bool, Refusal> {
    let id = work.record.id;
    let gone = work
        .record
        .seats
        .iter()
        .chain(work.record.waitlist.iter())
        .find(|s| s.present && (s.user.id == who || s.user.name.eq_ignore_ascii_case(who)))
        .map(|s| s.user.id.clone());
    remove(
        work,
        who,
        by,
        ("was removed by the GM", Parting::Kicked),
        true,
    )?;
    if let Some(gone) = gone {
        work.outcome.direct(
            &gone,
            format!(
                "Game #{id}: the GM removed you from the game in {}; nothing you send for it is taken any more.",
                mention::channel(&work.record.channel)
            ),
        );
    }
    Ok(true)
}

/// Takes a player out of the game (`how` they went, for the channel); a seat of a running
/// game with a waitlist goes to the next on it when `refill`.
pub(super) fn remove(
    work: &mut Work<'_>,
    who: &str,
    by: &User,
    (how, parting): (&str, Parting),
    refill: bool,
) -> Result<bool, Refusal> {
    let id = work.record.id;
    let channel = work.record.channel.clone();
    if work.record.status == Status::Over {
        return Err(rounds::over(&work.record, &work.env.defaults.prefix));
    }
    if let Some(place) = work
        .record
        .waitlist
        .iter()
        .position(|s| s.user.id == who || s.user.name.eq_ignore_ascii_case(who))
    {
        let gone = work.record.waitlist.remove(place);
        work.outcome.channel(
            &channel,
            format!("{} {how}: off the waitlist of game #{id}.", gone.user.name),
        );
        work.outcome.table_event(
            work.record.round,
            format!("{} {how} (waitlist)", gone.user.name),
        );
        return Ok(true);
    }
    let seat = work
        .record
        .seat_of(who)
        .ok_or_else(|| not_playing(who, by, id))?;
    let name = work.record.name(seat);
    if work.record.status == Status::SignUp {
        work.record.seats.remove(seat);
        work.outcome.channel(
            &channel,
            format!("{name} {how}: off the sign-up list of game #{id}."),
        );
        work.outcome
            .table_event(0, format!("{name} {how} before the start"));
        return Ok(true);
    }
    let mut live = work.live()?;
    depart(&mut work.record, seat, parting);
    let replacement = if refill && live.rules.waitlist() && !work.record.waitlist.is_empty() {
        let next = work.record.waitlist.remove(0);
        work.record.seats[seat] = next.clone();
        Some(Player {
            seat,
            name: next.user.name,
            symbol: next.symbol,
            computer: next.computer.is_some(),
        })
    } else {
        if let Some(record) = work.record.seats.get_mut(seat) {
            record.present = false;
        }
        None
    };
    work.record.orders.remove(&seat);
    let mut ctx = work.ctx(&mut live.dice);
    let events = live.game.seat_left(seat, replacement.as_ref(), &mut ctx);
    let mut text = format!("{name} {how}.");
    if let Some(player) = &replacement {
        text.push_str(&format!(
            " {} takes the seat from the waitlist.",
            player.name
        ));
    }
    work.outcome.table_event(work.record.round, text.clone());
    rounds::after_change(work, &mut live, events, Some(text), false)?;
    rounds::resolve_if_all_in(work, &mut live)?;
    Ok(true)
}

/// The players as the game sees them: each present seat with its name and the symbol or
/// colour asked for.
fn seated(record: &GameRecord) -> Vec<Player> {
    record
        .seats
        .iter()
        .enumerate()
        .filter(|(_, seat)| seat.present)
        .map(|(seat, sat)| Player {
            seat,
            name: sat.user.name.clone(),
            symbol: sat.symbol.clone(),
            computer: sat.computer.is_some(),
        })
        .collect()
}

/// `!start`: the game is set up with the players signed up, and the seed's commitment posted.
pub fn start(work: &mut Work<'_>) -> Result<bool, Refusal> {
    let id = work.record.id;
    if work.record.status != Status::SignUp {
        return Err(Refusal::new(format!("Game #{id} has already started.")));
    }
    let rules = work
        .env
        .catalogue
        .find(&work.record.game)
        .ok_or_else(|| Refusal::new(format!("Game #{id} has an unknown game.")))?;
    let players = seated(&work.record);
    let (least, most) = seats_allowed(
        rules,
        &work.record.all_options(),
        work.record.settings.revision,
    );
    if players.len() < least {
        return Err(Refusal::new(format!(
            "{} needs at least {least} players; {} signed up.",
            rules.name(),
            players.len()
        )));
    }
    if let Some(most) = most.filter(|most| players.len() > *most) {
        return Err(Refusal::new(format!(
            "{} takes at most {most} players; {} signed up.",
            rules.name(),
            players.len()
        )));
    }
    let mut dice = Dice::new(work.record.settings.seed);
    let options = work.record.all_options();
    let mut ctx = work.ctx(&mut dice);
    let (game, events) = rules.setup(&options, &players, &mut ctx)?;
    work.record.status = Status::Running;
    // What setup says belongs to the first round in the game's own numbering (50-Tile
    // Circuit's "Turn 1: the dice are rolled" is in `!log 1`).
    work.record.round = game.round().unwrap_or(0);
    let mut live = super::work::Live { rules, game, dice };
    let mut text = format!(
        "Game #{id} ({}) starts with {}.\nSeed commitment: `{}`, the SHA-256 of {}. The seed is revealed at the end so anyone can check it against this; then `{prefix}audit` posts a page that checks every roll.",
        rules.name(),
        players.iter().map(|p| match &p.symbol {
            Some(symbol) => format!("{} ({symbol})", p.name),
            None => p.name.clone(),
        }).collect::<Vec<_>>().join(", "),
        work.record.settings.commitment(),
        work.record.settings.committed_bytes(),
        prefix = work.env.defaults.prefix,
    );
    if !work.record.secret_options.is_empty() {
        let shown: Vec<String> = work
            .record
            .secret_options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        text.push_str(&format!("\nThe GM's secret setup: {}.", shown.join(" ")));
    }
    if work.record.settings.practice {
        text.push_str(&format!("\n{}", rounds::PRACTICE));
    }
    work.outcome.table_event(
        0,
        format!(
            "game started; seed commitment {}",
            work.record.settings.commitment()
        ),
    );
    rounds::after_change(work, &mut live, events, Some(text), false)?;
    Ok(true)
}

/// The refusal of a `!kick` or `!replace` naming `who`, who has no seat in game `id`, said to
/// `by` (who typed it): "you" when they named themselves, never "ben: ben is not playing".
fn not_playing(who: &str, by: &User, id: i64) -> Refusal {
    if who == by.id || who.eq_ignore_ascii_case(&by.name) {
        Refusal::new(format!(
            "you are not playing in game #{id}; name a player who is."
        ))
    } else {
        Refusal::new(format!(
            "{} is not playing in game #{id}; `!who` lists who is.",
            mention::user(who)
        ))
    }
}

/// `!replace @old @new`: the seat goes to another user; the game keeps its state. The new
/// player is told by DM what they now hold.
pub fn replace(
    work: &mut Work<'_>,
    old: &str,
    user: &User,
    by: &User,
    dm_help: DmHelpText,
) -> Result<bool, Refusal> {
    let id = work.record.id;
    let seat = work
        .record
        .seat_of(old)
        .ok_or_else(|| not_playing(old, by, id))?;
    if work.record.seat_of(&user.id).is_some() {
        return Err(Refusal::new(format!(
            "{} already plays in game #{id}.",
            user.name
        )));
    }
    let old_name = work.record.name(seat);
    let departs = work.record.status != Status::SignUp;
    if departs {
        depart(&mut work.record, seat, Parting::Replaced);
    }
    // The new player's deadlines are their own (from rules revision 5 on).
    let fresh = departs && work.record.settings.revision >= 5;
    let symbol = work.record.seats.get(seat).and_then(|s| s.symbol.clone());
    let replaced = work.record.seats.get(seat).map(|s| s.user.id.clone());
    if let Some(record) = work.record.seats.get_mut(seat) {
        record.user = user.clone();
        record.computer = None;
        if fresh {
            record.attendance = Attendance::default();
        }
    }
    work.record.standing_in.remove(&seat);
    // The new player makes the seat's secret order: one the old player left is not theirs
    // (from rules revision 1 on).
    if work.record.settings.revision > 0 {
        work.record.orders.remove(&seat);
    }
    let mut situation = String::new();
    if work.record.state.is_some() {
        let mut live = work.live()?;
        live.game.rename(seat, &user.name);
        situation = format!("\n{}", live.game.private_status(seat));
        work.keep(&live);
    }
    let channel = work.record.channel.clone();
    let text = format!("{} takes over {old_name}'s seat in game #{id}.", user.name);
    work.outcome.table_event(work.record.round, text.clone());
    match work.record.state.is_some() {
        true => {
            let live = work.live()?;
            let text = format!("{text}\n{}", rounds::describe_phase(&work.record));
            rounds::post_board(work, &live, text);
        }
        false => work.outcome.channel(&channel, text),
    }
    if let Some(before) = replaced {
        work.outcome.direct(
            &before,
            format!(
                "Game #{id}: the GM gave your seat in {} to {}; nothing you send for it is taken any more.",
                mention::channel(&channel),
                user.name
            ),
        );
    }
    let rules = work.env.catalogue.find(&work.record.game);
    let owed = if work.record.awaited().contains(&seat) {
        match &work.record.phase {
            Some(Phase::Orders { label, .. }) => {
                format!(" Your order for {label} is awaited: send it to me here.")
            }
            _ => format!(" It is your turn: play in {}.", mention::channel(&channel)),
        }
    } else {
        String::new()
    };
    work.outcome.direct(
        &user.id,
        format!(
            "The GM gave you {old_name}'s seat (seat {}{}) in game #{id} ({}) in {}. {}{owed}{situation}\n{}",
            seat + 1,
            symbol.map(|s| format!(", {s}")).unwrap_or_default(),
            work.record.game,
            mention::channel(&channel),
            rounds::describe_phase(&work.record),
            dm_help(rules),
        ),
    );
    Ok(true)
}

/// `!pause`: the deadline stops; the time left is kept.
pub fn pause(work: &mut Work<'_>, user: &User) -> Result<bool, Refusal> {
    let id = work.record.id;
    if work.record.status != Status::Running {
        return Err(Refusal::new(format!(
            "Game #{id} is not running, so it cannot be paused."
        )));
    }
    let remaining = work.record.deadline.map(|at| at - work.env.now);
    // A computer standing in for silent players stops with the clock: at `!resume` the
    // deadline has passed, and it stands in again for whoever is still silent.
    let remaining = match work.record.settings.revision >= STAND_IN_APART_FROM {
        true => remaining.map(|left| left.max(chrono::Duration::zero())),
        false => remaining,
    };
    work.record.stand_in_until = None;
    if work.record.settings.revision >= STAND_IN_APART_FROM {
        work.record.standing_in.clear();
    }
    let by = (work.record.settings.revision > 0).then(|| user.name.clone());
    work.record.status = Status::Paused { remaining, by };
    work.record.deadline = None;
    work.record.remind_at = None;
    let channel = work.record.channel.clone();
    let orders = match &work.record.phase {
        Some(Phase::Orders { .. }) => {
            " Secret orders by direct message are still taken and can be changed meanwhile."
        }
        _ => "",
    };
    let text = format!(
        "The GM paused game #{id}{}. Nothing resolves until `{}resume`.{orders}",
        remaining
            .map(|r| format!(" with {} left on the clock", format_duration(r)))
            .unwrap_or_default(),
        work.env.defaults.prefix
    );
    work.outcome.table_event(work.record.round, "paused");
    work.outcome.channel(&channel, text);
    Ok(true)
}

/// `!resume`: the deadline runs again with the time that was left.
pub fn resume(work: &mut Work<'_>) -> Result<bool, Refusal> {
    let id = work.record.id;
    let Status::Paused { remaining, .. } = work.record.status else {
        return Err(Refusal::new(format!("Game #{id} is not paused.")));
    };
    work.record.status = Status::Running;
    let deadline = remaining.and_then(|r| {
        work.env
            .now
            .checked_add_signed(r.max(chrono::Duration::zero()))
    });
    rounds::schedule(work, deadline);
    work.outcome.table_event(work.record.round, "resumed");
    let text = format!(
        "Game #{id} resumes. {}",
        rounds::describe_phase(&work.record)
    );
    let channel = work.record.channel.clone();
    work.outcome.channel(&channel, text);
    // Orders may have come in while it was paused: the last one may complete the round.
    if matches!(work.record.phase, Some(Phase::Orders { .. })) {
        let mut live = work.live()?;
        rounds::resolve_if_all_in(work, &mut live)?;
    }
    Ok(true)
}

/// `!home <number>`: the GM brings the game to the channel it is typed in (its own was deleted
/// or locked): it goes on there as it stood, and says so there with its board.
pub fn move_home(
    work: &mut Work<'_>,
    by: &User,
    admin: bool,
    here: Option<&str>,
) -> Result<bool, Refusal> {
    work.require_gm(by, admin, "home")?;
    let id = work.record.id;
    let Some(here) = here else {
        return Err(Refusal::new(
            "`home` is typed in the channel the game goes to.",
        ));
    };
    if work.record.status == Status::Over {
        return Err(rounds::over(&work.record, &work.env.defaults.prefix));
    }
    if work.record.channel == here {
        return Err(Refusal::new(format!("Game #{id} already lives here.")));
    }
    let from = std::mem::replace(&mut work.record.channel, here.to_string());
    // A forum post's tags and the old channel's private threads stay behind: the players
    // owed a thread get one beside the new home.
    work.record.forum = None;
    for seat in work
        .record
        .seats
        .iter_mut()
        .chain(work.record.waitlist.iter_mut())
    {
        seat.thread = None;
    }
    // A game whose forum post was never made comes from the forum.
    let was = match mention::forum_of_place(&from) {
        Some(forum) => mention::channel(&forum.to_string()),
        None => mention::channel(&from),
    };
    let text = format!(
        "Game #{id} ({}) lives here now: the GM brought it from {was}, where it can no longer be played. It goes on as it stood. {}",
        work.record.game,
        rounds::describe_phase(&work.record)
    );
    work.outcome.table_event(
        work.record.round,
        format!(
            "the GM brought the game from {was} to {}",
            mention::channel(here)
        ),
    );
    match work.record.state {
        Some(_) => {
            let live = work.live()?;
            rounds::post_board(work, &live, text);
        }
        None => work.outcome.channel(here, text),
    }
    Ok(true)
}

/// `!end`: the GM ends the game now; the seed is revealed.
pub fn end(work: &mut Work<'_>) -> Result<bool, Refusal> {
    let id = work.record.id;
    if work.record.status == Status::Over {
        return Err(Refusal::new(format!("Game #{id} is already over.")));
    }
    let channel = work.record.channel.clone();
    let mut text = format!("The GM ended game #{id}.");
    if work.record.state.is_some() {
        text.push(' ');
        text.push_str(&rounds::seed_reveal(
            &work.record,
            &work.env.defaults.prefix,
        ));
    }
    work.record.status = Status::Over;
    work.record.deadline = None;
    work.record.remind_at = None;
    work.record.end_stand_in();
    // A game that had begun counts in the players' records, unrated.
    work.outcome.ended = work.record.state.is_some();
    work.outcome
        .table_event(work.record.round, "ended by the GM");
    work.outcome.channel(&channel, text);
    Ok(true)
}
