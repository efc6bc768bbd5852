//! One suite every game of the catalogue passes, run over `Catalogue::standard()` so a new
//! game is tested by its catalogue line alone. Each game is played computer against computer
//! to its end, twice: on its own (every step's save read back the same, no seat's secret in a
//! public event or board, random words at every state refused or taken without a panic) and
//! through the table (then replayed from its log). Its first board is a picture snapshot,
//! looked at when it was written.

mod common;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use referee::dice::{Dice, Seed};
use referee::games::{
    Ctx, Decision, Event, Game, Level, Options, Phase, Player, Rules, Visibility,
};
use referee::table::Catalogue;

/// More steps than any game takes to its end between computers.
const MOST_STEPS: usize = 5_000;

/// The games on offer.
fn games() -> Vec<&'static dyn Rules> {
    Catalogue::standard().all().to_vec()
}

/// The fewest seats the game plays with (two at least), all computers.
fn computers(rules: &dyn Rules) -> Vec<Player> {
    let seats = rules.players().0.max(2);
    (0..seats)
        .map(|seat| Player {
            seat,
            name: format!("Computer {}", seat + 1),
            symbol: None,
            computer: true,
        })
        .collect()
}

/// A time for the games' context.
fn now() -> chrono::DateTime<chrono::Utc> {
    common::start_time()
}

/// Words thrown at a game: its own commands and orders, with arguments no player should
/// send (numbers huge and negative, a long word, control characters, another script).
fn junk(rules: &dyn Rules, rng: &mut ChaCha8Rng) -> (String, String) {
    let words: Vec<&str> = rules
        .commands()
        .iter()
        .chain(rules.orders())
        .map(|command| command.name)
        .chain(["", "x"])
        .collect();
    let word = words[rng.next_u32() as usize % words.len()].to_string();
    let pieces = [
        "-1",
        "0",
        "99999999999999999999",
        "1",
        "2",
        "3",
        "ne",
        "pass",
        "on",
        "\u{7}\u{0}",
        "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
        "東京",
        "🌈",
        "-3 -3 90",
        "0 1 180",
        "1 5",
        "meeple city",
    ];
    let count = rng.next_u32() % 4;
    let args: Vec<&str> = (0..count)
        .map(|_| pieces[rng.next_u32() as usize % pieces.len()])
        .collect();
    (word, args.join(" "))
}

/// Random words at `game` (on a copy read back from its save): every seat's actions, orders
/// and questions are refused or taken, never a panic.
fn throw_junk(rules: &dyn Rules, game: &dyn Game, seats: usize, rng: &mut ChaCha8Rng) {
    for _ in 0..4 {
        let mut copy = rules.load(&game.save()).unwrap();
        let (word, args) = junk(rules, rng);
        let seat = rng.next_u32() as usize % (seats + 1);
        let mut dice = Dice::new(Seed([7; 32]));
        let mut ctx = Ctx {
            now: now(),
            dice: &mut dice,
            revision: Ctx::NEWEST,
        };
        let _ = copy.query(&word, &args);
        let _ = copy.check_order(seat, &format!("{word} {args}"));
        let _ = copy.act(seat, &word, &args, &mut ctx);
        let _ = copy.choices(seat, Some(&args));
        let _ = copy.private_status(seat.min(seats - 1));
    }
}

/// What each step must keep: the save reads back to the same save, and no event told to one
/// seat (or sealed) is told in public or shown on the board. Returns how many such secrets it
/// looked for.
fn check_step(rules: &dyn Rules, game: &dyn Game, events: &[Event]) -> usize {
    let saved = game.save();
    let again = rules.load(&saved).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        again.save(),
        saved,
        "{}: a save reads back otherwise",
        rules.name()
    );
    let board = game.board().text;
    let public: Vec<&str> = events
        .iter()
        .filter(|event| event.visibility == Visibility::Public)
        .map(|event| event.text.as_str())
        .collect();
    let secrets: Vec<&str> = events
        .iter()
        .filter(|event| event.visibility != Visibility::Public)
        .map(|event| event.text.trim())
        .filter(|text| text.len() > 12)
        .collect();
    for secret in &secrets {
        assert!(
            !public.iter().any(|text| text.contains(secret)) && !board.contains(secret),
            "{}: a seat's or a sealed event is told in public: {secret}",
            rules.name()
        );
    }
    secrets.len()
}

/// What a game played out showed: how many steps it took, how many secrets were kept out
/// of public, and its first board's picture.
struct Played {
    steps: usize,
    secrets: usize,
    first: Option<String>,
}

/// Plays `rules` computer against computer from `seed` to its end, checking every step.
fn play_out(rules: &dyn Rules, seed: u8) -> Played {
    let players = computers(rules);
    let mut dice = Dice::new(Seed([seed; 32]));
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(seed));
    let mut junk_rng = ChaCha8Rng::seed_from_u64(u64::from(seed) + 1);
    let mut ctx = Ctx {
        now: now(),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    let (mut game, mut events) = rules
        .start(&Options::new(), &players, &mut ctx)
        .unwrap_or_else(|refusal| panic!("{}: {refusal}", rules.name()));
    let first = game.board().svg;
    let mut secrets = 0;
    for steps in 0..MOST_STEPS {
        secrets += check_step(rules, game.as_ref(), &events);
        throw_junk(rules, game.as_ref(), players.len(), &mut junk_rng);
        if let Some(search) = game.pending_search() {
            let verdict = (search.work)(1_000_000);
            events = game.verdict(&search.key, &verdict, &mut ctx).unwrap();
            continue;
        }
        events = match game.phase() {
            Phase::Over { ranking } => {
                let ranked: usize = ranking.iter().map(Vec::len).sum();
                assert!(ranked <= players.len() && !ranking.is_empty());
                return Played {
                    steps,
                    secrets,
                    first,
                };
            }
            Phase::Turn { seat } => match game.computer(seat, Level::Normal, &mut rng) {
                Some(Decision::Action(line)) => {
                    let (word, args) = line.split_once(' ').unwrap_or((line.as_str(), ""));
                    game.act(seat, word, args, &mut ctx)
                        .unwrap_or_else(|r| panic!("{}: `{line}` refused: {r}", rules.name()))
                }
                other => panic!("{}: on a turn the computer sent {other:?}", rules.name()),
            },
            Phase::Orders { seats, .. } => {
                let mut orders = std::collections::BTreeMap::new();
                for seat in seats {
                    let Some(Decision::Order(text)) = game.computer(seat, Level::Normal, &mut rng)
                    else {
                        panic!("{}: no order from the computer", rules.name());
                    };
                    let canonical = game
                        .check_order(seat, &text)
                        .unwrap_or_else(|r| panic!("{}: `{text}` refused: {r}", rules.name()));
                    orders.insert(seat, canonical);
                }
                game.resolve(&orders, &mut ctx).unwrap()
            }
        };
    }
    panic!("{} did not end in {MOST_STEPS} steps", rules.name());
}

#[test]
fn every_game_plays_computer_against_computer_to_its_end_keeping_its_secrets() {
    let mut secrets = 0;
    for rules in games() {
        for seed in [1, 2] {
            let played = play_out(rules, seed);
            assert!(
                played.steps > 0,
                "{} ended before anyone played",
                rules.name()
            );
            secrets += played.secrets;
        }
    }
    // The secrets check saw secrets (sealed draws, what one seat is told).
    assert!(secrets > 0);
}

/// The kit starts every game: too few players, or an option the game does not declare, are
/// refused before the game's own set-up.
#[test]
fn every_game_starts_only_with_its_players_and_options() {
    for rules in games() {
        let mut dice = Dice::new(Seed([4; 32]));
        let mut ctx = Ctx {
            now: now(),
            dice: &mut dice,
            revision: Ctx::NEWEST,
        };
        let players = computers(rules);
        let refused = rules
            .start(&Options::new(), &players[..1], &mut ctx)
            .err()
            .unwrap_or_else(|| panic!("{} started with one player", rules.name()));
        assert!(
            refused.0.contains("players, not 1"),
            "{}: {refused}",
            rules.name()
        );
        let unknown = Options::from([("colour".to_string(), "red".to_string())]);
        let refused = rules.start(&unknown, &players, &mut ctx).err();
        // The kit's words, or those of a game that reads its options itself (Parcheesi).
        assert!(
            refused
                .is_some_and(|r| r.0.contains("has no option `colour`")
                    || r.0.contains("no option 'colour'")),
            "{} took an option it does not declare",
            rules.name()
        );
    }
}

/// Every game folder is a game of the catalogue: a folder left out of it would go untested
/// here.
#[test]
fn every_game_folder_is_in_the_catalogue() {
    let mut folders: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src/games"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.is_dir())
            .map(|path| path.file_name().unwrap().to_string_lossy().replace('_', ""))
            .collect();
    folders.sort();
    let mut names: Vec<String> = games()
        .iter()
        .map(|rules| rules.name().to_string())
        .collect();
    names.sort();
    assert_eq!(
        folders, names,
        "the game folders and Catalogue::standard() differ"
    );
}

#[test]
fn every_games_first_board_is_its_snapshot() {
    for rules in games() {
        if let Some(svg) = play_out(rules, 3).first {
            common::check_snapshot(&format!("conformance_{}_start.svg", rules.name()), &svg);
        }
    }
}

#[tokio::test]
async fn every_game_plays_to_its_end_at_the_table_and_replays() {
    for rules in games() {
        let name = rules.name();
        let mut transcript = format!("alice #{name}: !new {name}\n");
        for _ in computers(rules) {
            transcript.push_str(&format!("alice #{name}: !join bot\n"));
        }
        transcript.push_str(&format!("alice #{name}: !start\n"));
        for _ in 0..40 {
            transcript.push_str("clock +2d\n");
        }
        transcript.push_str(&format!("alice #{name}: !status\n"));
        // `play` replays every game it played and fails if one does not match its log.
        let out = common::play(&transcript).await;
        let last = out.lines().last().unwrap_or_default();
        assert!(
            last.contains("The game is over"),
            "{name} did not end at the table: {last}\n{out}"
        );
    }
}
