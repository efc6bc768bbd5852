//! Carcassonne's rules entry: the options and colours checked at `!new` and `!join`, the
//! set-up (the deck shuffled with sealed draws, the animal tokens), and loading a save.

use super::act::{Happening, Match};
use super::circus::Animal;
use super::tiles::{to_deal, BASE, KINDS};
use super::{Carcassonne, CarcassonneGame, Saved, COLOURS};
use crate::games::kit::{on_off, GameOption, Kit, A_YEAR};
use crate::games::Started;
use crate::games::{CommandHelp, Ctx, Event, Game, LoadError, Options, Player, Refusal, Rules};

const OPTIONS: &[GameOption] = &[
    GameOption::on_off(
        "bigtop",
        "on (default: Under the Big Top, up to 6 players) or off (the base game, up to 5)",
    ),
    GameOption::duration(
        "turn",
        "time for one turn, like 90m or 2d (default 24h)",
        A_YEAR,
    ),
];

/// The game's commands in the channel, declared once: `!help` lists them and the prompts
/// print them from here.
pub(super) const COMMANDS: &[CommandHelp] = &[
    CommandHelp {
        name: "place",
        usage: "place <x> <y> <rotation> [meeple <feature> | pass]",
        about: "Place the drawn tile (x east, y south, rotation 0/90/180/270 clockwise).",
        aliases: &[],
    },
    CommandHelp {
        name: "meeple",
        usage: "meeple <feature>",
        about: "Put a follower on a feature of the tile just placed (letter or road-n, city, field-ne, monastery).",
        aliases: &[],
    },
    CommandHelp {
        name: "ringmaster",
        usage: "ringmaster <feature>",
        about: "Put your ringmaster on a feature of the tile just placed (Under the Big Top).",
        aliases: &[],
    },
    CommandHelp {
        name: "acrobat",
        usage: "acrobat <x> <y>",
        about: "Put a meeple as an acrobat on the acrobat tile at (x,y): the tile just placed or one of its 8 neighbours.",
        aliases: &[],
    },
    CommandHelp {
        name: "pyramid",
        usage: "pyramid <x> <y>",
        about: "Score the completed pyramid at (x,y) instead of placing a figure: 5 points per acrobat to its owner.",
        aliases: &[],
    },
    CommandHelp {
        name: "pass",
        usage: "pass",
        about: "Place no follower this turn.",
        aliases: &[],
    },
];

fn bigtop_on(options: &Options) -> Result<bool, Refusal> {
    options
        .get("bigtop")
        .map_or(Ok(true), |value| on_off("bigtop", value))
}

/// carcassonne, described once.
pub(crate) const KIT: Kit = Kit {
    name: "carcassonne",
    title: "carcassonne",
    revision: 3,
    about: "Carcassonne with Under the Big Top: lay tiles, claim roads, cities, monasteries and fields, run the circus (2-6 players; bigtop=off: the base game, 2-5).",
    summary: include_str!("summary.md"),
    players: (2, Some(6)),
    options: OPTIONS,
    commands: COMMANDS,
    palette: &COLOURS,
    ..Kit::PLAIN
};

impl Rules for Carcassonne {
    fn kit(&self) -> &'static Kit {
        &KIT
    }

    fn players_with(&self, options: &Options) -> (usize, Option<usize>) {
        match bigtop_on(options) {
            Ok(false) => (2, Some(5)),
            _ => (2, Some(6)),
        }
    }

    fn check_symbol(&self, wanted: Option<&str>, taken: &[String]) -> Result<(), Refusal> {
        let Some(wanted) = wanted else {
            return Ok(());
        };
        let w = wanted.trim().to_lowercase();
        if !COLOURS.contains(&w.as_str()) {
            return Err(Refusal::new(format!(
                "`{wanted}` is not a colour; choose one of {}",
                COLOURS.join(", ")
            )));
        }
        if taken.iter().any(|t| t.trim().to_lowercase() == w) {
            return Err(Refusal::new(format!("{w} is already taken")));
        }
        Ok(())
    }

    fn setup(&self, options: &Options, players: &[Player], ctx: &mut Ctx<'_>) -> Started {
        let bigtop = bigtop_on(options)?;
        let most = if bigtop { 6 } else { 5 };
        if !(2..=most).contains(&players.len()) {
            return Err(Refusal::new(format!(
                "carcassonne {} needs 2 to {most} players, not {}",
                if bigtop {
                    "with Under the Big Top"
                } else {
                    "without Under the Big Top (bigtop=off)"
                },
                players.len()
            )));
        }
        let mut colours: Vec<String> = Vec::new();
        for p in players {
            let wanted = p.symbol.as_deref().map(|s| s.trim().to_lowercase());
            let colour = match wanted {
                Some(c) if COLOURS.contains(&c.as_str()) && !colours.contains(&c) => c,
                _ => COLOURS
                    .iter()
                    .map(|c| c.to_string())
                    .find(|c| {
                        !colours.contains(c)
                            && !players.iter().any(|q| {
                                q.symbol.as_deref().map(str::to_lowercase).as_deref()
                                    == Some(c.as_str())
                            })
                    })
                    .or_else(|| {
                        COLOURS
                            .iter()
                            .map(|c| c.to_string())
                            .find(|c| !colours.contains(c))
                    })
                    .unwrap_or_default(),
            };
            colours.push(colour);
        }
        let mut deck = to_deal(bigtop);
        ctx.dice.shuffle_sealed("tile order", &mut deck);
        let tokens = bigtop.then(Vec::new);
        let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        let (game, happened) = Carcassonne::start_with(names, colours, deck, tokens);
        let mut events = vec![Event::public(format!(
            "Carcassonne{} begins: {}. The start tile D lies at (0,0); x grows to the east, y to the south; rotations are clockwise.",
            if bigtop { " with Under the Big Top" } else { "" },
            game.names
                .iter()
                .zip(&game.colours)
                .map(|(n, c)| format!("{n} ({c})"))
                .collect::<Vec<_>>()
                .join(", ")
        ))];
        events.extend(game.tell(&happened, ctx.revision));
        Ok((Box::new(game), events))
    }

    fn load(&self, saved: &serde_json::Value) -> Result<Box<dyn Game>, LoadError> {
        let err = |reason: String| LoadError {
            game: "carcassonne",
            reason,
        };
        let s: Saved = serde_json::from_value(saved.clone()).map_err(|e| err(e.to_string()))?;
        let most = if s.bigtop { 6 } else { 5 };
        if !(2..=most).contains(&s.names.len()) || s.colours.len() != s.names.len() {
            return Err(err("wrong number of players or colours".to_string()));
        }
        let kinds = if s.bigtop { KINDS } else { BASE.len() };
        if s.deck.iter().any(|&k| usize::from(k) >= kinds) {
            return Err(err("unknown tile kind in the deck".to_string()));
        }
        let tokens = s.bigtop.then_some(s.tokens);
        let (mut game, _) = Carcassonne::start_with(s.names, s.colours, s.deck, tokens);
        game.token_rolls = s.token_rolls;
        for (i, mv) in s.moves.into_iter().enumerate() {
            game.apply(mv)
                .map_err(|e| err(format!("move {} cannot be replayed: {e}", i + 1)))?;
        }
        Ok(Box::new(game))
    }
}

impl Carcassonne {
    /// A game for these players (names and colours by seat) with this deck order (the start
    /// tile not included); also used by tests to play a known deck.
    pub fn start(
        names: Vec<String>,
        colours: Vec<String>,
        deck: Vec<u8>,
    ) -> (CarcassonneGame, Vec<Happening>) {
        Carcassonne::start_with(names, colours, deck, None)
    }

    /// Like [`Carcassonne::start`]; with `tokens` (the face-down animal stack, top first) the
    /// game plays Under the Big Top.
    pub fn start_with(
        names: Vec<String>,
        colours: Vec<String>,
        deck: Vec<u8>,
        tokens: Option<Vec<Animal>>,
    ) -> (CarcassonneGame, Vec<Happening>) {
        let (play, happened) = match &tokens {
            Some(t) => Match::with_big_top(names.len(), deck.clone(), t.clone()),
            None => Match::new(names.len(), deck.clone()),
        };
        (
            CarcassonneGame {
                names,
                colours,
                deck,
                tokens,
                token_rolls: Vec::new(),
                moves: Vec::new(),
                play,
            },
            happened,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::carcassonne::CARCASSONNE_RULES;
    use crate::games::options_of as options;
    use chrono::Duration;

    #[test]
    fn options_and_colours_are_checked() {
        let rules = &CARCASSONNE_RULES;
        assert!(rules
            .check_options(&options(&[("bigtop", "off"), ("turn", "36h")]))
            .is_ok());
        assert!(rules.check_options(&options(&[("bigtop", "on")])).is_ok());
        assert!(rules
            .check_options(&options(&[("bigtop", "maybe")]))
            .is_err_and(|r| r.0 == "bigtop must be on or off, not `maybe`"));
        assert!(rules
            .check_options(&options(&[("farmers", "no")]))
            .is_err_and(|r| r.0.contains("no option `farmers`")));
        assert!(rules.check_options(&options(&[("turn", "soon")])).is_err());
        assert!(rules.check_symbol(Some("Blue"), &[]).is_ok());
        assert!(rules
            .check_symbol(Some("blue"), &["blue".to_string()])
            .is_err_and(|r| r.0 == "blue is already taken"));
        assert!(rules
            .check_symbol(Some("pink"), &[])
            .is_err_and(|r| r.0.contains("red, blue, green, yellow, black")));
    }

    #[test]
    fn the_turn_option_sets_the_time_limit() {
        let (game, _) = Carcassonne::start(
            vec!["Ann".to_string(), "Bob".to_string()],
            vec!["red".to_string(), "blue".to_string()],
            vec![20, 20],
        );
        assert_eq!(game.time_limit(&options(&[])), Some(Duration::hours(24)));
        assert_eq!(
            game.time_limit(&options(&[("turn", "90m")])),
            Some(Duration::minutes(90))
        );
    }
}
