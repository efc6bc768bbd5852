//! 50-Tile Circuit: a race of three laps round a loop of 50 tiles. Each turn every player
//! gets a d6 and secretly chooses to move or stay; tiles ended on are claimed and given an
//! effect from a closed catalogue. Rules: docs/rules/circuit.md.
//!
//! Decisions where the rules page is silent:
//! - Table size: [`Rules::players`] says (2, Some(6)), the seed's default; the table's `max`
//!   option may set another size. Seats beyond the default palette get colours by name.
//! - Colours: any name of letters (normalised: lowercase, single spaces, `gray` = `grey`),
//!   unique. Players who asked for none get the first free colour of the seed's palette
//!   (dark blue, purple, grey, red, dark green, teal, lime green, white, then more) in seat
//!   order. A replacement keeps the leaver's colour unless it asked for a free one.
//! - Phases: a turn is a [`Phase::Orders`] for the players with a real choice; players who are
//!   skipped, anchored, or stayed last turn (rule 16: they must move) owe nothing. A turn where
//!   nobody has a choice resolves at once. Claims open a second [`Phase::Orders`] ("effects for
//!   claimed tiles") for the claimers only, with its own time limit (option `claim`).
//! - Staying activates the tile's effect whatever its trigger (seed rule 1B; `land`/`pass`
//!   is about moving onto or over a tile, not about standing on it).
//! - Laps count net progress round the loop: going back over the start (a `back` effect
//!   from tile 1..N) takes a lap off; a runner with no lap to take off owes it instead
//!   (`Runner::behind`), so its next forward crossing only makes up for it. The counter
//!   shown never goes below 0.
//! - Arrival by a tile's effect (forward, back, start, owner) neither activates nor claims the
//!   tile arrived on (rule 6); only ending one's own die move claims. Tile-caused movement
//!   activates no pass effect on the way either, but forward movement over the start tile
//!   counts the lap and can win.
//! - Claims are settled after every runner has moved; a runner who ended its move on an
//!   unowned tile keeps its claim even if an owner toll moves it later that turn.
//! - Rule 9 ("claims or changes"): an owner changes a tile's effect with its turn's order
//!   (`move change 12 boost pass`, `stay change 12 none`), so only on a turn where it has a
//!   choice; claimed effects come in the claim prompt after the moves, changes apply at the end
//!   of the turn they are ordered in: either way the new effect acts on nobody that turn. The
//!   owner who orders the change is not affected by the tile that turn either (its old effect
//!   still acts on everyone else), and a change must give the tile another effect. A change
//!   keeps the tile's activation count (rule 14 counts the tile's activations), and a tile
//!   whose effect wore out cannot get another.
//! - Effects (claimed or changed) are checked when ordered (rules 5, 7, 8, 10), so a refusal
//!   comes while the player can still choose. Two choices made in the same resolution can
//!   clash only with each other (neighbouring tiles); the stated rule is seat order: the
//!   earlier seat's effect stands, the later tile gets none, and its owner is told why in the
//!   resolution and by DM, with how to give the tile an effect later. The later claimer's
//!   receipt says so when it is sent (the earlier pick is secret until the deadline), so they
//!   can pick again in time.
//! - Rules revisions ([`Rules::revision`]): 2, only the first claim prompt a player gets
//!   explains every effect word; later ones point to `help effects` (before: every one did).
//!   3, the owner who changes a tile is not affected by it that turn, and a change to the
//!   effect the tile has is refused (before: the tile's old effect acted on its owner too,
//!   and such a change was accepted and did nothing).
//! - A claimer who lets the claim prompt pass keeps the tile with no effect (and can give it
//!   one later with a change).
//! - Rule 14: the 12th activation still acts, then the effect is removed.
//! - Boost and slow pending together cancel out; pending boost/slow wait through a skipped
//!   turn for the next roll; an anchor is used up by the turn it applies to, even when rule
//!   16 makes the runner move instead.
//! - A player who leaves with nobody to replace it drops out; when a single player remains it
//!   wins. Ranking: the winner, then the others by laps and tile, leavers last.

pub mod claim;
pub mod colour;
pub mod computer;
pub mod effect;
pub mod parse;
pub mod picture;
pub mod resolve;
pub mod roster;
pub mod state;
pub mod traps;

use self::colour::Colour;
use self::effect::{check_on, wrap};
use self::parse::{canonical, parse_order, Change, Order, OrderError};
use self::state::{Choice, Plan, Runner, Stage, State, LAPS_TO_WIN, MAX_ACTIVATIONS};
use crate::duration::parse_duration;
use crate::games::kit::{GameOption, Kit, A_YEAR};
use crate::games::Happened;
use crate::games::Started;
use crate::games::{
    order_usage, Board, CommandHelp, Ctx, Event, Game, LoadError, Options, Phase, Player, Refusal,
    Rules, Seat,
};
use crate::games::{ranked, Decision, Level};
use chrono::Duration;
use rand_core::RngCore;
use std::collections::BTreeMap;

/// The rules of 50-Tile Circuit, to register with the table.
pub struct Circuit;

/// The registered value: `&referee::games::circuit::CIRCUIT`.
pub static CIRCUIT: Circuit = Circuit;

/// Default length of a turn (move-or-stay choices).
pub const TURN_HOURS: i64 = 48;
/// Default length of the claim prompt.
pub const CLAIM_HOURS: i64 = 24;
/// The label of the claim prompt's orders phase.
pub const CLAIM_LABEL: &str = "effects for claimed tiles";

const OPTIONS: &[GameOption] = &[
    GameOption::duration(
        "turn",
        "how long players have to choose move or stay (default 48h)",
        A_YEAR,
    ),
    GameOption::duration(
        "claim",
        "how long claimers have to pick their tile's effect (default 24h)",
        A_YEAR,
    ),
];

const COMMANDS: &[CommandHelp] = &[CommandHelp {
    name: "tiles",
    usage: "tiles",
    about: "lists every owned tile with its owner, effect and activations left",
    aliases: &[],
}];

/// An order as a prompt or a refusal prints it: its declared usage.
fn sent(name: &str) -> String {
    order_usage(ORDERS, name)
}

const ORDERS: &[CommandHelp] = &[
    CommandHelp {
        name: "move",
        usage: "move",
        about: "advance by this turn's die (the default)",
        aliases: &[],
    },
    CommandHelp {
        name: "stay",
        usage: "stay",
        about: "stay and activate your tile, whatever its trigger (not twice in a row)",
        aliases: &[],
    },
    CommandHelp {
        name: "change",
        usage: "[move|stay] change <tile> <action> [N] <land|pass>",
        about: "with your move or stay, give a tile you own a new effect (or `none`), checked like a claim; it applies at the end of the turn, so it acts on nobody that turn, and the tile does not act on you that turn",
        aliases: &[],
    },
    CommandHelp {
        name: "effect",
        usage: "effect <action> [N] <land|pass>",
        about: "the effect of the tile you claimed, e.g. `effect back 3 land`, `effect boost pass`, `effect none`",
        aliases: &[],
    },
];

/// circuit, described once.
pub(crate) const KIT: Kit = Kit {
    name: "circuit",
    title: "circuit",
    revision: 3,
    about:
        "50-Tile Circuit: race three laps round 50 tiles, claiming tiles and giving them effects",
    summary: include_str!("summary.md"),
    topics: &[(
        "effects",
        concat!(
            "**Effects** a tile's owner may give it (50-Tile Circuit):\n",
            include_str!("effect_words.md")
        ),
    )],
    round_word: "turn",
    players: (2, Some(6)),
    options: OPTIONS,
    commands: COMMANDS,
    orders: ORDERS,
    palette: &colour::NAMES,
    waitlist: true,
};

impl Rules for Circuit {
    fn kit(&self) -> &'static Kit {
        &KIT
    }

    fn check_symbol(&self, wanted: Option<&str>, taken: &[String]) -> Result<(), Refusal> {
        let Some(wanted) = wanted else {
            return Ok(());
        };
        let colour = Colour::parse(wanted).map_err(Refusal::new)?;
        let taken: Vec<Colour> = taken.iter().filter_map(|t| Colour::parse(t).ok()).collect();
        if taken.contains(&colour) {
            let free: Vec<String> = Colour::palette()
                .filter(|c| !taken.contains(c))
                .take(5)
                .map(|c| c.0)
                .collect();
            return Err(Refusal::new(format!(
                "the colour {colour} is taken; free colours include {}",
                free.join(", ")
            )));
        }
        Ok(())
    }

    fn setup(&self, _options: &Options, players: &[Player], ctx: &mut Ctx<'_>) -> Started {
        let colours = assign_colours(players)?;
        let runners = players
            .iter()
            .zip(colours)
            .map(|(player, colour)| Runner::new(player.name.clone(), colour))
            .collect();
        let (mut state, mut events) = State::start(runners, ctx.dice);
        state.effect_words_once = ctx.revision >= EFFECT_WORDS_ONCE_FROM;
        state.changer_spared = ctx.revision >= CHANGER_SPARED_FROM;
        let mut intro = vec![format!(
            "50-Tile Circuit begins: everyone on tile 1 with 0 laps; the first to leave the start tile with {LAPS_TO_WIN} laps wins."
        )];
        for (seat, runner) in state.runners.iter().enumerate() {
            intro.push(format!(
                "{} {}: {}",
                picture::seat_mark(&state, seat),
                runner.name,
                runner.colour
            ));
        }
        events.insert(0, Event::public(intro.join("\n")));
        Ok((Box::new(CircuitGame { state }), events))
    }

    fn load(&self, saved: &serde_json::Value) -> Result<Box<dyn Game>, LoadError> {
        let error = |reason: String| LoadError {
            game: "circuit",
            reason,
        };
        let state: State =
            serde_json::from_value(saved.clone()).map_err(|e| error(e.to_string()))?;
        state.validate().map_err(error)?;
        Ok(Box::new(CircuitGame { state }))
    }
}

/// Colours in seat order: the asked ones (checked unique), then the palette's free ones.
fn assign_colours(players: &[Player]) -> Result<Vec<Colour>, Refusal> {
    let mut asked: Vec<Option<Colour>> = Vec::new();
    for player in players {
        let colour = match &player.symbol {
            Some(text) => Some(Colour::parse(text).map_err(Refusal::new)?),
            None => None,
        };
        if colour.is_some() && asked.contains(&colour) {
            return Err(Refusal::new(format!(
                "{} asked for a colour another player already has; colours are unique",
                player.name
            )));
        }
        asked.push(colour);
    }
    let taken: Vec<Colour> = asked.iter().flatten().cloned().collect();
    let mut free = Colour::palette().filter(|c| !taken.contains(c));
    let mut spare: u8 = 0;
    Ok(asked
        .into_iter()
        .map(|colour| {
            colour.unwrap_or_else(|| {
                free.next().unwrap_or_else(|| {
                    let letter = char::from(b'a' + spare % 26);
                    spare += 1;
                    Colour(format!("spare {letter}"))
                })
            })
        })
        .collect())
}

/// A 50-Tile Circuit game in progress.
pub struct CircuitGame {
    /// The pure state.
    pub state: State,
}

impl CircuitGame {
    /// The `!tiles` listing: every owned tile with owner, effect and activations left.
    pub fn tiles(&self) -> String {
        self.state.tiles_listing()
    }

    /// Checks an owner's change of effect when it is ordered, with the same checks as a
    /// claim: the tile is the runner's, its effect has not worn out, and the new effect keeps
    /// rules 5, 7 and 8 against the board.
    fn check_change(&self, seat: Seat, change: Change) -> Result<(), Refusal> {
        let tile = change.tile;
        let owned = self
            .state
            .tiles
            .get(&tile)
            .filter(|owned| owned.owner == seat)
            .ok_or_else(|| {
                Refusal::new(format!(
                    "tile {tile} is not yours, so you cannot change its effect"
                ))
            })?;
        if owned.uses >= MAX_ACTIVATIONS {
            return Err(Refusal::new(format!(
                "tile {tile} lost its effect for good after {MAX_ACTIVATIONS} activations; it cannot get another"
            )));
        }
        if self.state.changer_spared && owned.effect == change.effect {
            let has = owned
                .effect
                .map_or_else(|| "no effect".to_string(), |effect| effect.to_string());
            return Err(Refusal::new(format!(
                "tile {tile} already has {has}; a change gives it another effect"
            )));
        }
        if let Some(effect) = change.effect {
            check_on(tile, effect, &self.state.tiles)
                .map_err(|error| Refusal::new(error.to_string()))?;
        }
        Ok(())
    }
}

/// The rules revision from which a player's first claim prompt alone explains the effect
/// words.
const EFFECT_WORDS_ONCE_FROM: u32 = 2;

/// The rules revision from which the owner who changes a tile is not affected by it that
/// turn (rule 9), and a change must give the tile another effect.
const CHANGER_SPARED_FROM: u32 = 3;

impl Game for CircuitGame {
    fn phase(&self) -> Phase {
        match &self.state.stage {
            Stage::Choosing => Phase::Orders {
                seats: self.state.choosers().into_iter().collect(),
                label: format!("move or stay for turn {}", self.state.turn),
            },
            Stage::Claiming { claims } => Phase::Orders {
                seats: claims.keys().copied().collect(),
                label: CLAIM_LABEL.to_string(),
            },
            Stage::Over { winner } => Phase::Over {
                ranking: ranking(&self.state, *winner),
            },
        }
    }

    fn marks(&self) -> Vec<crate::games::Mark> {
        self.state
            .runners
            .iter()
            .enumerate()
            .map(|(seat, runner)| crate::games::Mark {
                seat,
                mark: runner.colour.to_string(),
                colour: Some(runner.colour.rgb().to_string()),
            })
            .collect()
    }

    fn round(&self) -> Option<u64> {
        match self.state.stage {
            Stage::Over { .. } => None,
            _ => Some(u64::from(self.state.turn)),
        }
    }

    fn time_limit(&self, options: &Options) -> Option<Duration> {
        let (key, hours) = match self.state.stage {
            Stage::Choosing => ("turn", TURN_HOURS),
            Stage::Claiming { .. } => ("claim", CLAIM_HOURS),
            Stage::Over { .. } => return None,
        };
        Some(
            options
                .get(key)
                .and_then(|value| parse_duration(value))
                .unwrap_or_else(|| Duration::hours(hours)),
        )
    }

    fn check_order(&self, seat: Seat, text: &str) -> Result<String, Refusal> {
        let order = parse_order(text).map_err(|error| match error {
            OrderError::Unknown(words) => Refusal::new(format!(
                "'{words}' is not an order; send {} or {} (optionally followed by `change <tile> <effect>` for a tile you own), or after a claim {}",
                sent("move"),
                sent("stay"),
                sent("effect")
            )),
            OrderError::ChangeTile(word) => Refusal::new(format!(
                "`change` takes the number of a tile you own, then its new effect, like `move change 12 boost pass`; got '{word}'"
            )),
            OrderError::Effect(error) => Refusal::new(error.to_string()),
        })?;
        let runner = self
            .state
            .active(seat)
            .ok_or_else(|| Refusal::new("you are not playing in this game"))?;
        match (&self.state.stage, order) {
            (Stage::Choosing, Order::Turn { choice, change }) => match runner.plan {
                Plan::Free => {
                    if let Some(change) = change {
                        self.check_change(seat, change)?;
                    }
                    Ok(canonical(Order::Turn { choice, change }))
                }
                Plan::MustMove => Err(Refusal::new(
                    "you stayed last turn, so you move this turn; no order is needed",
                )),
                Plan::MustStay => Err(Refusal::new(
                    "an anchor holds you this turn, so you stay; no order is needed",
                )),
                Plan::Skipped => Err(Refusal::new("you lose this turn (skip); no order is needed")),
            },
            (Stage::Choosing, Order::Effect(_)) => Err(Refusal::new(format!(
                "no tile of yours is waiting for an effect; this turn send {} or {}, and to change a tile you own, `move change <tile> <effect>`",
                sent("move"),
                sent("stay")
            ))),
            (Stage::Claiming { claims }, Order::Effect(effect)) => {
                let tile = claims.get(&seat).ok_or_else(|| {
                    Refusal::new("you claimed no tile this turn, so there is no effect to choose")
                })?;
                if let Some(effect) = effect {
                    check_on(*tile, effect, &self.state.tiles)
                        .map_err(|error| Refusal::new(error.to_string()))?;
                }
                Ok(canonical(Order::Effect(effect)))
            }
            (Stage::Claiming { .. }, Order::Turn { .. }) => Err(Refusal::new(format!(
                "claimers are picking their tiles' effects now; the next turn's {} or {} comes after",
                sent("move"),
                sent("stay")
            ))),
            (Stage::Over { .. }, _) => Err(Refusal::new("the game is over")),
        }
    }

    fn order_note(&self, seat: Seat, order: &str) -> Option<String> {
        let Ok(Order::Effect(Some(_))) = parse_order(order) else {
            return None;
        };
        let Stage::Claiming { claims } = &self.state.stage else {
            return None;
        };
        let tile = *claims.get(&seat)?;
        // Picks are settled in seat order at the deadline: an earlier seat's pick for a
        // neighbouring tile, secret until then, may make this one clash.
        let neighbours = [wrap(i16::from(tile) - 1), wrap(i16::from(tile) + 1)];
        let before = claims
            .iter()
            .filter(|(other, claimed)| **other < seat && neighbours.contains(claimed))
            .map(|(_, claimed)| *claimed)
            .min()?;
        Some(format!(
            "Tile {before}, beside yours, is claimed this turn too, and its effect is settled before yours: if the two clash (the same action, or the same destination), yours is dropped and tile {tile} keeps no effect."
        ))
    }

    fn resolve(&mut self, orders: &BTreeMap<Seat, String>, ctx: &mut Ctx<'_>) -> Happened {
        match &self.state.stage {
            Stage::Choosing => {
                let mut choices: BTreeMap<Seat, Choice> = BTreeMap::new();
                let mut changes: BTreeMap<Seat, Change> = BTreeMap::new();
                for (seat, text) in orders {
                    if let Ok(Order::Turn { choice, change }) = parse_order(text) {
                        choices.insert(*seat, choice);
                        if let Some(change) = change {
                            changes.insert(*seat, change);
                        }
                    }
                }
                Ok(self.state.resolve_choices(&choices, &changes, ctx.dice))
            }
            Stage::Claiming { .. } => {
                let effects = orders
                    .iter()
                    .filter_map(|(seat, text)| match parse_order(text) {
                        Ok(Order::Effect(effect)) => Some((*seat, effect)),
                        _ => None,
                    })
                    .collect();
                Ok(self.state.resolve_claims(&effects, ctx.dice))
            }
            Stage::Over { .. } => Err(Refusal::new("the game is over")),
        }
    }

    fn act(&mut self, _seat: Seat, word: &str, _args: &str, _ctx: &mut Ctx<'_>) -> Happened {
        Err(Refusal::new(format!(
            "50-Tile Circuit has no !{} action; `move`, `stay` and `effect ...` go to me by DM",
            word.trim()
        )))
    }

    fn query(&self, word: &str, _args: &str) -> Option<Result<String, Refusal>> {
        word.trim()
            .eq_ignore_ascii_case("tiles")
            .then(|| Ok(self.tiles()))
    }

    fn seat_left(&mut self, seat: Seat, heir: Option<&Player>, ctx: &mut Ctx<'_>) -> Vec<Event> {
        let replacement = heir.map(|player| {
            let taken: Vec<&Colour> = self
                .state
                .runners
                .iter()
                .enumerate()
                .filter(|(other, runner)| *other != seat && runner.active)
                .map(|(_, runner)| &runner.colour)
                .collect();
            let inherited = self
                .state
                .runners
                .get(seat)
                .map_or_else(|| Colour("grey".into()), |runner| runner.colour.clone());
            let colour = player
                .symbol
                .as_deref()
                .and_then(|text| Colour::parse(text).ok())
                .filter(|colour| !taken.contains(&colour))
                .unwrap_or(inherited);
            (player.name.clone(), colour)
        });
        self.state.leave(seat, replacement, ctx.dice)
    }

    fn rename(&mut self, seat: Seat, name: &str) {
        if let Some(runner) = self.state.runners.get_mut(seat) {
            runner.name = name.to_string();
            // Another player took the seat: their first claim explains the effects.
            runner.shown_effects = false;
        }
    }

    fn board(&self) -> Board {
        Board {
            text: picture::text(&self.state),
            svg: Some(picture::svg(&self.state)),
        }
    }

    fn computer(&self, seat: Seat, level: Level, rng: &mut dyn RngCore) -> Option<Decision> {
        computer::decide(&self.state, seat, level, rng).map(crate::games::Decision::Order)
    }

    fn private_status(&self, seat: Seat) -> String {
        let Some(runner) = self.state.active(seat) else {
            return "You are not playing in this game.".into();
        };
        let mut lines = vec![format!(
            "You are {} ({}) on tile {}, laps {}/{LAPS_TO_WIN}.",
            runner.name, runner.colour, runner.tile, runner.laps
        )];
        match &self.state.stage {
            Stage::Choosing => {
                let roll = runner
                    .roll
                    .map_or("no die".to_string(), |r| format!("die {r}"));
                lines.push(match runner.plan {
                    Plan::Free => format!(
                        "Turn {}: {roll}; send {} or {} (no answer = move).",
                        self.state.turn,
                        sent("move"),
                        sent("stay")
                    ),
                    Plan::MustMove => format!(
                        "Turn {}: {roll}; you stayed last turn, so you move.",
                        self.state.turn
                    ),
                    Plan::MustStay => format!(
                        "Turn {}: {roll}; an anchor holds you, so you stay.",
                        self.state.turn
                    ),
                    Plan::Skipped => format!("Turn {}: you lose this turn.", self.state.turn),
                });
            }
            Stage::Claiming { claims } => match claims.get(&seat) {
                Some(tile) => lines.push(format!(
                    "You claimed tile {tile}: send {} or `effect none`.",
                    sent("effect")
                )),
                None => lines.push(
                    "Claimers are choosing effects; your next choice comes with the next turn."
                        .into(),
                ),
            },
            Stage::Over { .. } => lines.push("The game is over.".into()),
        }
        let pending = runner.pending;
        let waiting: Vec<&str> = [
            (pending.skip, "skip"),
            (pending.anchor, "anchor"),
            (pending.boost, "boost"),
            (pending.slow, "slow"),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| name)
        .collect();
        if !waiting.is_empty() {
            lines.push(format!(
                "Waiting for your next turn: {}.",
                waiting.join(", ")
            ));
        }
        let mine: Vec<String> = self
            .state
            .tiles
            .iter()
            .filter(|(_, owned)| owned.owner == seat)
            .map(|(tile, owned)| match owned.effect {
                Some(effect) => format!("{tile} ({effect}, {} left)", owned.uses_left()),
                None => format!("{tile} (no effect)"),
            })
            .collect();
        if !mine.is_empty() {
            lines.push(format!("Your tiles: {}.", mine.join(", ")));
        }
        lines.join("\n")
    }

    fn save(&self) -> serde_json::Value {
        serde_json::to_value(&self.state).unwrap_or(serde_json::Value::Null)
    }
}

/// Final places: the winner, then the others by laps and tile (ties share a place), leavers
/// last.
fn ranking(state: &State, winner: Option<Seat>) -> Vec<Vec<Seat>> {
    let mut ranking: Vec<Vec<Seat>> = winner.map(|seat| vec![vec![seat]]).unwrap_or_default();
    let mut others: Vec<(u32, Seat)> = state
        .active_seats()
        .filter(|seat| Some(*seat) != winner)
        .filter_map(|seat| {
            state
                .runners
                .get(seat)
                .map(|runner| (u32::from(runner.laps) * 100 + u32::from(runner.tile), seat))
        })
        .collect();
    others.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    ranking.extend(ranked(others));
    let left: Vec<Seat> = state
        .runners
        .iter()
        .enumerate()
        .filter(|(seat, runner)| !runner.active && Some(*seat) != winner)
        .map(|(seat, _)| seat)
        .collect();
    if !left.is_empty() {
        ranking.push(left);
    }
    ranking
}
