//! TAG: a game of secret bids and simultaneous secret moves on a square grid, where the
//! player who is "it" bleeds points until it tags someone by stomping into them.
//!
//! The rules are docs/rules/tag.md; this module is the [`Rules`]/[`Game`] glue, the
//! engine lives in [`state`] (data, setup, bids), [`resolve`] (movement rounds), [`parse`]
//! (DM words) and [`render`] (text and pictures).
//!
//! Decisions where the rules page is silent:
//! - Phases: "bids", then "moves for round N" (N from 1) for every living player; orders
//!   are DMs, checked when they arrive (minimum bid, number of moves, teleport eligibility)
//!   and replaceable until the round resolves. There are no public commands.
//! - Minimum bids are public: they are posted at the start (they decide ties in the queue).
//! - Missing or unreadable stored orders get the defaults of the rules page: the minimum bid;
//!   nothing on every move, striding.
//! - Symbols: at most 8 characters, no spaces or backticks, unique ignoring case; the game's
//!   own symbols (the underworld and the rainbow: `🌈`, `♇`, and the words rainbow and
//!   underworld) are refused. A player who gives none gets the first letter of their name
//!   as a capital (dan: `D`), or its first two (`Da`) when that is taken, or else the first
//!   free capital letter (A, B, ..., then A1, B1, ...).
//! - Rules revisions ([`Rules::revision`]): 2, a player without a symbol is marked by their
//!   name's initial (before: the first free letter, so a fourth player dan was `C`); 3, the
//!   reports say "Next to be it, in order" for the itness queue and what a collision was
//!   ("two players trading places") for "kind 1"; 4, a computer seat without a symbol is
//!   marked by its number ("Computer 2": `2`), which no person's initial can be.
//! - A player who leaves (or is removed) is eliminated at once and takes the next place
//!   down; if it was it, the hand-over rule applies. A leaver's stored order is ignored.
//! - Options: `bid_deadline` and `move_deadline` (like `36h`, `2d`, `90m`; at most 30 days)
//!   change the default 4 days for bids and 2 days for moves.
//! - No order is refused for lack of points (the rules page: points may dip to 0 or below
//!   during a round); orders are refused only for a bid under the minimum, the wrong number
//!   of moves, a teleport without eligibility, or words that do not parse.
//! - Players knocked out by their bids are ranked among themselves in itness-queue order
//!   (lower bid first: they kept more points). Bids that leave one player (or none) end the
//!   game at once.
//! - Rotations of three or more players all succeed (see [`resolve`] for this and the other
//!   resolution decisions).

pub mod computer;
pub mod parse;
pub mod picture;
pub mod resolve;
pub mod state;
pub mod text;

use self::parse::{parse_order, Order};
use self::picture::{board_svg, board_text, who};
use self::state::{Move, Stage, TagState};
use self::text::{bids_lines, pack, ranking_lines, round_lines};
use crate::duration::parse_duration;
use crate::games::kit::{GameOption, Kit};
use crate::games::Happened;
use crate::games::Started;
use crate::games::{
    order_usage, Board, Choice, CommandHelp, Ctx, Event, Game, LoadError, Options, Phase, Player,
    Refusal, Rules, Seat,
};
use crate::games::{Decision, Level};
use chrono::Duration;
use rand_core::RngCore;
use std::collections::{BTreeMap, HashSet};

/// The rules of TAG, to register with the table.
pub struct Tag;

/// The registered value of TAG.
pub static TAG_RULES: Tag = Tag;

const OPTIONS: &[GameOption] = &[
    GameOption::duration(
        "bid_deadline",
        "how long the bid round lasts, like 4d or 36h (default 4d)",
        30,
    ),
    GameOption::duration(
        "move_deadline",
        "how long each movement round lasts, like 2d or 36h (default 2d)",
        30,
    ),
];

const ORDERS: &[CommandHelp] = &[
    CommandHelp {
        name: "bid",
        usage: "bid <number>",
        about: "Your secret bid (at least your minimum); it is paid from your points.",
        aliases: &[],
    },
    CommandHelp {
        name: "move",
        usage: "move <n|ne|e|se|s|sw|w|nw|nothing|teleport>... [stomp|stride] [upgrade]",
        about: "One direction per move you have, one mode for the round (stride if omitted), optionally buy an extra move.",
        aliases: &[],
    },
    CommandHelp {
        name: "upgrade",
        usage: "upgrade",
        about: "Stand still this round and pay 5 points for one more move in every later round.",
        aliases: &[],
    },
];

const RESERVED: &[&str] = &[
    "🌈",
    "♇",
    "rainbow",
    ":rainbow:",
    "underworld",
    ":underworld:",
];

/// The orders in `orders` that read as the kind `pick` takes (a bid, or moves); any other
/// order is not for this round and is left out.
fn orders_of<T>(
    orders: &BTreeMap<Seat, String>,
    pick: impl Fn(Order) -> Option<T>,
) -> BTreeMap<Seat, T> {
    orders
        .iter()
        .filter_map(|(&seat, text)| Some((seat, pick(parse_order(text).ok()?)?)))
        .collect()
}

/// TAG, described once.
pub(crate) const KIT: Kit = Kit {
    name: "tag",
    title: "TAG",
    revision: 4,
    about: "TAG: bid to avoid being it, then move secretly on a grid, stomp or stride, and tag someone before your points run out (3+ players).",
    summary: include_str!("summary.md"),
    players: (3, None),
    options: OPTIONS,
    orders: ORDERS,
    ..Kit::PLAIN
};

impl Rules for Tag {
    fn kit(&self) -> &'static Kit {
        &KIT
    }

    fn check_symbol(&self, wanted: Option<&str>, taken: &[String]) -> Result<(), Refusal> {
        let Some(wanted) = wanted.map(str::trim) else {
            return Ok(());
        };
        if wanted.is_empty()
            || wanted.chars().count() > 8
            || wanted.contains(char::is_whitespace)
            || wanted.contains('`')
        {
            return Err(Refusal::new(
                "a symbol is 1 to 8 characters (an emoji or short text) without spaces or backticks",
            ));
        }
        let lower = wanted.to_lowercase();
        if RESERVED.iter().any(|r| lower.contains(r)) {
            return Err(Refusal::new(
                "the underworld and rainbow symbols are reserved for the game; pick another symbol",
            ));
        }
        if taken.iter().any(|t| t.to_lowercase() == lower) {
            return Err(Refusal::new(format!(
                "the symbol {wanted} is taken; pick another one"
            )));
        }
        Ok(())
    }

    fn setup(&self, _options: &Options, players: &[Player], ctx: &mut Ctx<'_>) -> Started {
        let mut taken: HashSet<String> = players
            .iter()
            .filter_map(|p| p.symbol.as_ref().map(|s| s.trim().to_lowercase()))
            .collect();
        let mut next_default = 0usize;
        let mut named = Vec::with_capacity(players.len());
        for p in players {
            if p.computer && p.symbol.is_none() && ctx.revision >= COMPUTER_NUMBERS_FROM {
                let symbol = computer_number(&p.name, &taken);
                taken.insert(symbol.clone());
                named.push((p.name.clone(), symbol));
                continue;
            }
            let by_name = (ctx.revision >= 2)
                .then(|| initials(&p.name).find(|symbol| !taken.contains(&symbol.to_lowercase())))
                .flatten();
            let symbol = match (&p.symbol, by_name) {
                (Some(s), _) => s.trim().to_string(),
                (None, Some(symbol)) => {
                    taken.insert(symbol.to_lowercase());
                    symbol
                }
                (None, None) => loop {
                    let n = next_default;
                    next_default += 1;
                    let letter = char::from(b'A' + (n % 26) as u8);
                    let symbol = if n < 26 {
                        letter.to_string()
                    } else {
                        format!("{letter}{}", n / 26)
                    };
                    if taken.insert(symbol.to_lowercase()) {
                        break symbol;
                    }
                },
            };
            named.push((p.name.clone(), symbol));
        }
        let state = TagState::new_game(&named, ctx.dice);
        let mut lines = vec![format!(
            "TAG begins with {} players, each with 35 points, on a {}x{} grid. Minimum bids:",
            players.len(),
            state.side,
            state.side
        )];
        for (seat, p) in state.players.iter().enumerate() {
            lines.push(format!("{}: minimum bid {}", who(&state, seat), p.min_bid));
        }
        lines.push(format!(
            "Send your secret bid by DM: {} (at least your minimum; the bid is paid from your points; lowest bid is it).",
            order_usage(ORDERS, "bid")
        ));
        let events = pack(lines).into_iter().map(Event::public).collect();
        Ok((Box::new(TagGame { state }), events))
    }

    fn load(&self, saved: &serde_json::Value) -> Result<Box<dyn Game>, LoadError> {
        let state: TagState = serde_json::from_value(saved.clone()).map_err(|e| LoadError {
            game: "tag",
            reason: e.to_string(),
        })?;
        validate(&state).map_err(|reason| LoadError {
            game: "tag",
            reason,
        })?;
        Ok(Box::new(TagGame { state }))
    }
}

/// Checks that a loaded state refers only to its own seats and squares.
/// The rules revision from which a computer seat is marked by a number, never a letter a
/// person's initial could be.
const COMPUTER_NUMBERS_FROM: u32 = 4;

/// A computer seat's mark: the number its name ends with ("Computer 2": `2`) when free,
/// else the first free number.
fn computer_number(name: &str, taken: &HashSet<String>) -> String {
    let digits: String = name
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    if !digits.is_empty() && digits.len() <= 8 && !taken.contains(&digits) {
        return digits;
    }
    (1..)
        .map(|n: u64| n.to_string())
        .find(|number| !taken.contains(number))
        .unwrap_or_default()
}

/// The marks a player without a symbol may get from their name, best first: its first
/// letter as a capital (`D` for dan), then its first two (`Da`).
fn initials(name: &str) -> impl Iterator<Item = String> {
    let letters: Vec<char> = name
        .chars()
        .filter(char::is_ascii_alphabetic)
        .take(2)
        .collect();
    let first = letters.first().map(|c| c.to_ascii_uppercase().to_string());
    let two = (letters.len() == 2).then(|| {
        letters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == 0 {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect::<String>()
    });
    first.into_iter().chain(two)
}

fn validate(state: &TagState) -> Result<(), String> {
    let n = state.players.len();
    let seat_ok = |s: usize| s < n;
    if state.side == 0 || state.side > 1_000_000 {
        return Err(format!("grid side {} is out of range", state.side));
    }
    let mut seats: Vec<usize> = state.queue.clone();
    seats.extend(state.it);
    seats.extend(state.out.iter().flatten().copied());
    if let Stage::Over { ranking } = &state.stage {
        seats.extend(ranking.iter().copied());
    }
    if let Some(bad) = seats.into_iter().find(|&s| !seat_ok(s)) {
        return Err(format!("seat {bad} does not exist"));
    }
    for p in &state.players {
        if let Some(q) = p.square {
            if q.col >= state.side || q.row >= state.side {
                return Err(format!("{} stands off the grid", p.name));
            }
        }
    }
    Ok(())
}

/// A TAG game in progress.
pub struct TagGame {
    state: TagState,
}

impl TagGame {
    fn over_lines(&self) -> Vec<String> {
        match &self.state.stage {
            Stage::Over { ranking } => ranking_lines(&self.state, ranking),
            _ => Vec::new(),
        }
    }
}

impl Game for TagGame {
    fn phase(&self) -> Phase {
        match &self.state.stage {
            Stage::Bids => Phase::Orders {
                seats: self.state.living().into_iter().collect(),
                label: "bids".to_string(),
            },
            Stage::Moves { round } => Phase::Orders {
                seats: self.state.living().into_iter().collect(),
                label: format!("moves for round {round}"),
            },
            Stage::Over { ranking } => Phase::Over {
                ranking: ranking.iter().map(|&s| vec![s]).collect(),
            },
        }
    }

    fn marks(&self) -> Vec<crate::games::Mark> {
        self.state
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| crate::games::Mark {
                seat,
                mark: p.symbol.clone(),
                colour: Some(picture::seat_fill(seat)),
            })
            .collect()
    }

    fn round(&self) -> Option<u64> {
        match self.state.stage {
            Stage::Bids => Some(0),
            Stage::Moves { round } => Some(u64::from(round)),
            Stage::Over { .. } => None,
        }
    }

    fn time_limit(&self, options: &Options) -> Option<Duration> {
        let (key, default) = match self.state.stage {
            Stage::Bids => ("bid_deadline", Duration::days(4)),
            Stage::Moves { .. } => ("move_deadline", Duration::days(2)),
            Stage::Over { .. } => return None,
        };
        Some(
            options
                .get(key)
                .and_then(|v| parse_duration(v))
                .unwrap_or(default),
        )
    }

    fn check_order(&self, seat: Seat, text: &str) -> Result<String, Refusal> {
        let alive = self.state.players.get(seat).is_some_and(|p| p.alive);
        if !alive {
            return Err(Refusal::new("you are not a player still in this game"));
        }
        match parse_order(text).map_err(Refusal::new)? {
            Order::Bid(bid) => {
                self.state
                    .check_bid(seat, bid)
                    .map_err(|e| Refusal::new(e.to_string()))?;
                Ok(format!("bid {bid}"))
            }
            Order::Moves(mut order) => {
                if order.moves.is_empty() {
                    let moves = self.state.players.get(seat).map_or(1, |p| p.moves);
                    order.moves = vec![Move::Nothing; moves];
                }
                self.state
                    .check_move_order(seat, &order)
                    .map_err(|e| Refusal::new(e.to_string()))?;
                Ok(order.to_string())
            }
        }
    }

    fn order_note(&self, seat: Seat, order: &str) -> Option<String> {
        let Ok(Order::Bid(bid)) = parse_order(order) else {
            return None;
        };
        let points = self.state.players.get(seat)?.points;
        (i64::try_from(bid).unwrap_or(i64::MAX) >= points).then(|| {
            format!(
                "Careful: this bid is at least your {points} points, so paying it puts you out of the game when the bids are revealed."
            )
        })
    }

    fn resolve(&mut self, orders: &BTreeMap<Seat, String>, ctx: &mut Ctx<'_>) -> Happened {
        let lines = match self.state.stage {
            Stage::Bids => {
                let bids = orders_of(orders, |order| match order {
                    Order::Bid(bid) => Some(bid),
                    Order::Moves(_) => None,
                });
                let report = self.state.resolve_bids(&bids, ctx.dice);
                let mut lines = bids_lines(&self.state, &report, ctx.revision);
                lines.extend(self.over_lines());
                lines
            }
            Stage::Moves { .. } => {
                let moves = orders_of(orders, |order| match order {
                    Order::Moves(moves) => Some(moves),
                    Order::Bid(_) => None,
                });
                let report = self.state.resolve_moves(&moves, ctx.dice);
                round_lines(&self.state, &report, ctx.revision)
            }
            Stage::Over { .. } => {
                return Err(Refusal::new(
                    "the game is over; there is nothing to resolve",
                ))
            }
        };
        Ok(pack(lines).into_iter().map(Event::public).collect())
    }

    fn seat_left(&mut self, seat: Seat, heir: Option<&Player>, _ctx: &mut Ctx<'_>) -> Vec<Event> {
        if let Some(newcomer) = heir {
            self.rename(seat, &newcomer.name);
            return vec![Event::public(format!(
                "{} takes over the seat.",
                who(&self.state, seat)
            ))];
        }
        let handover = self.state.remove(seat);
        let mut lines = Vec::new();
        if self.state.players.get(seat).is_some_and(|p| !p.alive) {
            lines.push(format!("{} leaves the game.", who(&self.state, seat)));
        }
        if let Some(h) = handover {
            lines.push(format!("{} is now it.", who(&self.state, h)));
        }
        lines.extend(self.over_lines());
        pack(lines).into_iter().map(Event::public).collect()
    }

    fn rename(&mut self, seat: Seat, name: &str) {
        if let Some(p) = self.state.players.get_mut(seat) {
            p.name = name.to_string();
        }
    }

    fn board(&self) -> Board {
        Board {
            text: board_text(&self.state),
            svg: Some(board_svg(&self.state)),
        }
    }

    fn choices(&self, seat: Seat, order: Option<&str>) -> Vec<Choice> {
        let alive = self.state.players.get(seat).is_some_and(|p| p.alive);
        let (Stage::Moves { .. }, true, Some(order)) = (&self.state.stage, alive, order) else {
            return Vec::new();
        };
        if !order.starts_with("move") {
            return Vec::new();
        }
        ["stomp", "stride"]
            .into_iter()
            .map(|mode| {
                let mut words: Vec<&str> = order
                    .split_whitespace()
                    .filter(|w| *w != "stomp" && *w != "stride")
                    .collect();
                let at = words
                    .iter()
                    .position(|w| *w == "upgrade")
                    .unwrap_or(words.len());
                words.insert(at, mode);
                Choice {
                    label: mode.to_string(),
                    command: words.join(" "),
                    secret: true,
                }
            })
            .collect()
    }

    fn computer(&self, seat: Seat, level: Level, rng: &mut dyn RngCore) -> Option<Decision> {
        computer::decide(&self.state, seat, level, rng).map(crate::games::Decision::Order)
    }

    fn private_status(&self, seat: Seat) -> String {
        let state = &self.state;
        let Some(p) = state.players.get(seat) else {
            return "You are not in this game.".to_string();
        };
        if !p.alive {
            return format!("You ({}) are out of the game.", p.symbol);
        }
        let mut text = format!(
            "You are {} with {}, minimum bid {}",
            who(state, seat),
            crate::games::count(p.points, "point"),
            p.min_bid
        );
        if let Some(q) = p.square {
            text.push_str(&format!(
                ", on {q}, {} per round",
                crate::games::count(p.moves, "move")
            ));
        }
        match state.queue.iter().position(|&s| s == seat) {
            Some(i) => text.push_str(&format!(
                "; {} of {} in the order of who is it next",
                i + 1,
                state.queue.len()
            )),
            None => text.push_str("; bids are not revealed yet"),
        }
        if state.it == Some(seat) {
            text.push_str("; YOU ARE IT");
        }
        if matches!(state.stage, Stage::Moves { .. }) {
            text.push_str(if state.may_teleport(seat) {
                "; you may teleport this round."
            } else {
                "; you may not teleport this round."
            });
        } else {
            text.push('.');
        }
        text
    }

    fn save(&self) -> serde_json::Value {
        serde_json::to_value(&self.state).unwrap_or(serde_json::Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Seed};

    fn players(n: usize) -> Vec<Player> {
        (0..n)
            .map(|seat| Player::person(seat, format!("p{seat}")))
            .collect()
    }

    fn start(n: usize, dice: &mut Dice) -> Box<dyn Game> {
        let mut ctx = Ctx {
            now: Default::default(),
            dice,
            revision: Ctx::NEWEST,
        };
        match TAG_RULES.setup(&Options::new(), &players(n), &mut ctx) {
            Ok((game, _)) => game,
            Err(e) => panic!("setup refused: {e}"),
        }
    }

    fn resolve(game: &mut Box<dyn Game>, orders: &[(Seat, &str)], dice: &mut Dice) -> Vec<Event> {
        let mut ctx = Ctx {
            now: Default::default(),
            dice,
            revision: Ctx::NEWEST,
        };
        let orders = orders.iter().map(|&(s, t)| (s, t.to_string())).collect();
        game.resolve(&orders, &mut ctx)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn bids_then_moves_with_checked_orders() {
        let mut dice = Dice::new(Seed([1; 32]));
        let mut ctx = Ctx {
            now: Default::default(),
            dice: &mut dice,
            revision: Ctx::NEWEST,
        };
        assert!(TAG_RULES
            .start(&Options::new(), &players(2), &mut ctx)
            .is_err());
        let mut game = start(4, &mut dice);
        assert_eq!(
            game.phase(),
            Phase::Orders {
                seats: (0..4).collect(),
                label: "bids".into()
            }
        );
        let refusal = game.check_order(0, "bid 0").unwrap_err().0;
        assert!(refusal.contains("below your minimum bid"), "{refusal}");
        assert_eq!(game.check_order(0, " BID  30 "), Ok("bid 30".to_string()));
        assert!(game.check_order(0, "move n stomp").is_err());
        let events = resolve(&mut game, &[(0, "bid 30")], &mut dice);
        assert!(events.iter().any(|e| e.text.contains("p0 (P): bid 30")));
        assert_eq!(
            game.phase(),
            Phase::Orders {
                seats: (0..4).collect(),
                label: "moves for round 1".into()
            }
        );
        assert_eq!(
            game.check_order(1, "MOVE n  Stomp"),
            Ok("move n stomp".into())
        );
        assert_eq!(game.check_order(1, "move se"), Ok("move se stride".into()));
        assert_eq!(
            game.check_order(1, "upgrade"),
            Ok("move nothing stride upgrade".into())
        );
        assert!(game
            .check_order(1, "move n e stomp")
            .unwrap_err()
            .0
            .contains("1 move"));
        assert!(game
            .check_order(1, "move teleport")
            .unwrap_err()
            .0
            .contains("teleport"));
        assert!(game.check_order(1, "bid 5").is_err());
        let events = resolve(&mut game, &[(1, "move n stomp upgrade")], &mut dice);
        let text: String = events.iter().map(|e| e.text.as_str()).collect();
        assert!(text.contains("Round 1 resolved"), "{text}");
        assert!(text.contains("upgrades (-5)"), "{text}");
        assert!(game.private_status(1).contains("2 moves per round"));
    }

    #[test]
    fn symbols_options_and_time_limits() {
        let taken = vec!["Frog".to_string()];
        assert!(TAG_RULES.check_symbol(None, &taken).is_ok());
        assert!(TAG_RULES.check_symbol(Some("🦊"), &taken).is_ok());
        assert!(TAG_RULES.check_symbol(Some("frog"), &taken).is_err());
        assert!(TAG_RULES
            .check_symbol(Some("🌈"), &taken)
            .unwrap_err()
            .0
            .contains("reserved"));
        assert!(TAG_RULES.check_symbol(Some("Underworld"), &taken).is_err());
        assert!(TAG_RULES
            .check_symbol(Some("much too long"), &taken)
            .is_err());
        let mut options = Options::new();
        options.insert("speed".into(), "1".into());
        assert!(TAG_RULES
            .check_options(&options)
            .unwrap_err()
            .0
            .contains("speed"));
        options.clear();
        options.insert("move_deadline".into(), "soon".into());
        assert!(TAG_RULES.check_options(&options).is_err());
        options.insert("move_deadline".into(), "36h".into());
        assert!(TAG_RULES.check_options(&options).is_ok());
        let mut dice = Dice::new(Seed([2; 32]));
        let mut game = start(3, &mut dice);
        assert_eq!(game.time_limit(&options), Some(Duration::days(4)));
        resolve(&mut game, &[], &mut dice);
        assert_eq!(game.time_limit(&options), Some(Duration::hours(36)));
        assert_eq!(game.time_limit(&Options::new()), Some(Duration::days(2)));
    }

    #[test]
    fn save_load_and_corrupt_rows() {
        let mut dice = Dice::new(Seed([3; 32]));
        let mut game = start(5, &mut dice);
        resolve(&mut game, &[], &mut dice);
        let saved = game.save();
        let loaded = TAG_RULES.load(&saved).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.board(), game.board());
        assert!(TAG_RULES.load(&serde_json::json!({"players": 3})).is_err());
        let mut bad = saved.clone();
        bad["queue"] = serde_json::json!([99]);
        assert!(TAG_RULES.load(&bad).is_err());
    }

    #[test]
    fn leaving_players_hand_over_and_can_end_the_game() {
        let mut dice = Dice::new(Seed([4; 32]));
        let mut game = start(3, &mut dice);
        resolve(&mut game, &[], &mut dice);
        let mut ctx = Ctx {
            now: Default::default(),
            dice: &mut dice,
            revision: Ctx::NEWEST,
        };
        let it = (0..3)
            .find(|&s| game.private_status(s).contains("YOU ARE IT"))
            .unwrap_or_else(|| panic!("nobody is it"));
        let events = game.seat_left(it, None, &mut ctx);
        assert!(events.iter().any(|e| e.text.contains("is now it")));
        let other = (0..3).find(|&s| s != it).unwrap_or(0);
        game.seat_left(other, None, &mut ctx);
        match game.phase() {
            Phase::Over { ranking } => {
                assert_eq!(ranking.len(), 3);
                assert_eq!(ranking[1], vec![other]);
                assert_eq!(ranking[2], vec![it]);
            }
            phase => panic!("not over: {phase:?}"),
        }
        assert!(game.act(0, "move", "n", &mut ctx).is_err());
    }

    #[test]
    fn boards_fit_a_message_for_any_size() {
        for n in [3, 30, 100, 2000] {
            let mut dice = Dice::new(Seed([5; 32]));
            let mut game = start(n, &mut dice);
            resolve(&mut game, &[], &mut dice);
            let board = game.board();
            assert!(
                board.text.chars().count() <= 2000,
                "{n}: {}",
                board.text.len()
            );
            assert!(board.svg.is_some_and(|s| s.starts_with("<svg")));
        }
    }
}
