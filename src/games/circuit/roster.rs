//! The seats: who is still in, names, leaving and the waitlist replacement, and the listings
//! of owned tiles.

use super::colour::Colour;
use super::state::{OwnedTile, Runner, Stage, State};
use crate::dice::Dice;
use crate::games::{Event, Seat};

impl State {
    /// `seat` leaves: its tiles revert to unowned with no effect. A replacement (name and
    /// colour) takes the seat over on tile 1 with 0 laps and this turn's choice; otherwise the
    /// seat drops out, and a lone remaining player wins.
    pub fn leave(
        &mut self,
        seat: Seat,
        replacement: Option<(String, Colour)>,
        dice: &mut Dice,
    ) -> Vec<Event> {
        let mut events = Vec::new();
        if self.active(seat).is_none() || matches!(self.stage, Stage::Over { .. }) {
            return events;
        }
        let name = self.name(seat);
        let before = self.tiles.len();
        self.tiles.retain(|_, owned| owned.owner != seat);
        let reverted = before - self.tiles.len();
        let mut lines = vec![format!(
            "{name} leaves the game; {reverted} {} to unowned.",
            if reverted == 1 {
                "tile reverts"
            } else {
                "tiles revert"
            }
        )];
        if let Stage::Claiming { claims } = &mut self.stage {
            claims.remove(&seat);
        }
        match replacement {
            Some((new_name, colour)) => {
                let mut runner = Runner::new(new_name.clone(), colour);
                if self.stage == Stage::Choosing {
                    let roll = dice.roll(format!("turn {} die for {new_name}", self.turn), 6);
                    runner.roll = u8::try_from(roll).ok();
                    lines.push(format!(
                        "{new_name} ({}) joins from the waitlist on tile 1 with 0 laps and rolls {roll}: send {} or {} by DM.",
                        runner.colour,
                        super::sent("move"),
                        super::sent("stay")
                    ));
                } else {
                    lines.push(format!(
                        "{new_name} ({}) joins from the waitlist on tile 1 with 0 laps.",
                        runner.colour
                    ));
                }
                if let Some(slot) = self.runners.get_mut(seat) {
                    *slot = runner;
                }
            }
            None => {
                if let Some(runner) = self.runners.get_mut(seat) {
                    runner.active = false;
                }
                let remaining: Vec<Seat> = self.active_seats().collect();
                match remaining.as_slice() {
                    [last] => {
                        lines.push(format!(
                            "{} is the last player left and wins.",
                            self.name(*last)
                        ));
                        self.stage = Stage::Over {
                            winner: Some(*last),
                        };
                    }
                    [] => self.stage = Stage::Over { winner: None },
                    _ => {}
                }
            }
        }
        events.push(Event::public(lines.join("\n")));
        if matches!(&self.stage, Stage::Claiming { claims } if claims.is_empty()) {
            self.stage = Stage::Choosing;
            self.start_turn(dice, &mut events);
        }
        events
    }

    /// Every owned tile: owner, effect and activations left (the `!tiles` listing), one line
    /// per owner.
    pub fn tiles_listing(&self) -> String {
        self.owned_by_owner(
            "Owned tiles (activations left in brackets):",
            |tile, owned| match owned.effect {
                Some(effect) => format!("{tile} {effect} [{} left]", owned.uses_left()),
                None => format!("{tile} no effect"),
            },
        )
    }

    /// Owned tiles with their effects, one line per owner, tiles of one effect together (the
    /// board's short listing: "🟦 ann: owner 2 land 2, 4, 13; owner 3 land 7").
    pub fn effects_listing(&self) -> String {
        if self.tiles.is_empty() {
            return "No tile is owned yet.".into();
        }
        let mut lines = vec!["Tiles:".to_string()];
        for (seat, runner) in self.runners.iter().enumerate() {
            let mut groups: Vec<(String, Vec<String>)> = Vec::new();
            for (tile, owned) in self.tiles.iter().filter(|(_, owned)| owned.owner == seat) {
                let effect = owned
                    .effect
                    .map_or_else(|| "no effect".to_string(), |effect| effect.to_string());
                match groups.iter_mut().find(|(named, _)| *named == effect) {
                    Some((_, tiles)) => tiles.push(tile.to_string()),
                    None => groups.push((effect, vec![tile.to_string()])),
                }
            }
            if !groups.is_empty() {
                let groups: Vec<String> = groups
                    .iter()
                    .map(|(effect, tiles)| format!("{effect} {}", tiles.join(", ")))
                    .collect();
                lines.push(format!(
                    "{} {}: {}",
                    super::picture::seat_mark(self, seat),
                    runner.name,
                    groups.join("; ")
                ));
            }
        }
        lines.join("\n")
    }

    /// A heading and one line per owner listing its tiles as `entry` writes them.
    fn owned_by_owner(&self, heading: &str, entry: impl Fn(u8, &OwnedTile) -> String) -> String {
        if self.tiles.is_empty() {
            return "No tile is owned yet.".into();
        }
        let mut lines = vec![heading.to_string()];
        for (seat, runner) in self.runners.iter().enumerate() {
            let entries: Vec<String> = self
                .tiles
                .iter()
                .filter(|(_, owned)| owned.owner == seat)
                .map(|(tile, owned)| entry(*tile, owned))
                .collect();
            if !entries.is_empty() {
                lines.push(format!(
                    "{} {}: {}",
                    super::picture::seat_mark(self, seat),
                    runner.name,
                    entries.join(", ")
                ));
            }
        }
        lines.join("\n")
    }

    /// Seats still in the game, in order.
    pub fn active_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        self.runners
            .iter()
            .enumerate()
            .filter(|(_, runner)| runner.active)
            .map(|(seat, _)| seat)
    }

    /// The display name of `seat`.
    pub fn name(&self, seat: Seat) -> String {
        self.runners
            .get(seat)
            .map_or_else(|| format!("seat {seat}"), |runner| runner.name.clone())
    }
}
