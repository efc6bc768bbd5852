//! Carcassonne as the table sees it: the game contract (phase, time limit, actions, timeout,
//! leaving, board, status, save).

use super::parse::After;
use super::play::Stage;
use super::texts::tile_name;
use super::tiles::shape_of;
use super::{parse, render};
use super::{CarcassonneGame, Move, Saved};
use crate::duration::parse_duration;
use crate::games::{count, Board, Ctx, Event, Game, Options, Phase, Player, Refusal, Seat};
use chrono::Duration;

impl Game for CarcassonneGame {
    fn marks(&self) -> Vec<crate::games::Mark> {
        self.colours
            .iter()
            .enumerate()
            .map(|(seat, colour)| crate::games::Mark {
                seat,
                mark: colour.clone(),
                colour: Some(render::colour_fill(colour).to_string()),
            })
            .collect()
    }

    fn phase(&self) -> Phase {
        match self.play.stage() {
            Stage::Over => {
                let scores = self.play.map.scores();
                let mut seats: Vec<usize> = (0..scores.len()).collect();
                seats.sort_by_key(|&s| std::cmp::Reverse(scores.get(s).copied().unwrap_or(0)));
                let mut ranking: Vec<Vec<Seat>> = Vec::new();
                for s in seats {
                    let score = scores.get(s);
                    match ranking.last_mut() {
                        Some(group) if group.first().map(|&g| scores.get(g)) == Some(score) => {
                            group.push(s)
                        }
                        _ => ranking.push(vec![s]),
                    }
                }
                Phase::Over { ranking }
            }
            _ => Phase::Turn {
                seat: self.play.seat(),
            },
        }
    }

    fn time_limit(&self, options: &Options) -> Option<Duration> {
        match self.play.stage() {
            Stage::Over => None,
            _ => Some(
                options
                    .get("turn")
                    .and_then(|t| parse_duration(t))
                    .unwrap_or_else(|| Duration::hours(24)),
            ),
        }
    }

    fn act(
        &mut self,
        seat: Seat,
        word: &str,
        args: &str,
        ctx: &mut Ctx<'_>,
    ) -> Result<Vec<Event>, Refusal> {
        if self.play.stage() == Stage::Over {
            return Err(Refusal::new("the game is over"));
        }
        if seat != self.play.seat() {
            return Err(Refusal::new(format!(
                "it is {}'s turn, not yours",
                self.name(self.play.seat())
            )));
        }
        let happened = match word.trim().to_lowercase().as_str() {
            "place" => {
                self.draw_token(ctx.dice);
                self.do_place(args)?
            }
            w @ ("meeple" | "follower" | "ringmaster" | "acrobat" | "pyramid") => {
                let Stage::Follower(tile) = self.play.stage() else {
                    return Err(Refusal::new(
                        "place the drawn tile first with `!place <x> <y> <rotation>`",
                    ));
                };
                let after = match w {
                    "ringmaster" => After::Ringmaster(parse::meeple(args).map_err(Refusal::new)?),
                    "acrobat" | "pyramid" => {
                        let (x, y) = parse::coordinates(args, w).map_err(Refusal::new)?;
                        if w == "acrobat" {
                            After::Acrobat(x, y)
                        } else {
                            After::Pyramid(x, y)
                        }
                    }
                    _ => After::Meeple(parse::meeple(args).map_err(Refusal::new)?),
                };
                self.after_placing(tile, &after)?
            }
            "pass" => {
                if !matches!(self.play.stage(), Stage::Follower(_)) {
                    return Err(Refusal::new(
                        "you cannot pass before placing the tile; a tile that fits somewhere must be placed",
                    ));
                }
                self.apply(Move::Follower(None)).map_err(Self::refuse)?
            }
            other => {
                return Err(Refusal::new(format!(
                    "`{other}` is not a carcassonne command; use place, meeple, ringmaster, acrobat, pyramid or pass"
                )))
            }
        };
        Ok(self.tell(&happened))
    }

    fn timeout(&mut self, ctx: &mut Ctx<'_>) -> Vec<Event> {
        if self.play.stage() == Stage::Over {
            return Vec::new();
        }
        self.draw_token(ctx.dice);
        let name = self.name(self.play.seat());
        let placed_already = matches!(self.play.stage(), Stage::Follower(_));
        // From revision 2 on the tile goes where a careful player would put it; before, to the
        // first legal placement in reading order (which grew the map in a spine to the north).
        let careful = (ctx.revision >= 2)
            .then(|| self.play.careful_placement())
            .flatten();
        let (happened, how) = match careful {
            Some((x, y, rot)) => {
                let mut happened = self.apply(Move::Place(x, y, rot)).unwrap_or_default();
                if matches!(self.play.stage(), Stage::Follower(_)) {
                    happened.extend(self.apply(Move::Follower(None)).unwrap_or_default());
                }
                (
                    happened,
                    "where it scores most for them (nearest the centre among equals)",
                )
            }
            None => (
                self.apply(Move::Timeout).unwrap_or_default(),
                "to the first legal placement",
            ),
        };
        let told = match placed_already {
            true => format!("{name} ran out of time: no follower on the tile."),
            false => format!("{name} ran out of time: the tile goes {how}, with no follower."),
        };
        let mut events = vec![Event::public(told)];
        events.extend(self.tell(&happened));
        events
    }

    fn seat_left(
        &mut self,
        seat: Seat,
        replacement: Option<&Player>,
        _ctx: &mut Ctx<'_>,
    ) -> Vec<Event> {
        if let Some(p) = replacement {
            self.rename(seat, &p.name);
            return vec![Event::public(format!("{} takes over seat {seat}.", p.name))];
        }
        let name = self.name(seat);
        let happened = self.apply(Move::Left(seat)).unwrap_or_default();
        let mut events = vec![Event::public(format!(
            "{name} left the game; their turns are skipped and their followers stay."
        ))];
        events.extend(self.tell(&happened));
        events
    }

    fn rename(&mut self, seat: Seat, name: &str) {
        if let Some(n) = self.names.get_mut(seat) {
            *n = name.to_string();
        }
    }

    fn board(&self) -> Board {
        let pending = match self.play.stage() {
            Stage::Place(kind) => Some(kind),
            _ => None,
        };
        let legal = pending.map(|k| self.play.map.legal(k)).unwrap_or_default();
        let last = self.play.map.tiles().len().checked_sub(1);
        let svg = render::board_svg(
            &self.play.map,
            &render::View {
                colours: &self.colours,
                names: &self.names,
                tiles_left: self.play.remaining(),
                pending,
                legal: &legal,
                last,
                choosing: matches!(self.play.stage(), Stage::Follower(_)),
            },
        );
        let mut text = String::from("```\n");
        for (s, name) in self.names.iter().enumerate() {
            text.push_str(&format!(
                "{name} ({}): {}, {} left{}{}\n",
                self.colours.get(s).map_or("", String::as_str),
                count(self.play.map.scores().get(s).copied().unwrap_or(0), "point"),
                count(
                    self.play.map.supply().get(s).copied().unwrap_or(0),
                    "follower"
                ),
                self.ringmaster_note(s),
                if self.play.is_gone(s) { " (left)" } else { "" }
            ));
        }
        text.push_str(&format!("Tiles left: {}\n", self.play.remaining()));
        text.push_str(&self.circus_lines());
        match self.play.stage() {
            Stage::Place(kind) => text.push_str(&format!(
                "{} to place {} ({})\n",
                self.name(self.play.seat()),
                tile_name(kind),
                count(legal.len(), "legal placement")
            )),
            Stage::Follower(_) => text.push_str(&format!(
                "{} to choose a follower for the new tile, or pass\n",
                self.name(self.play.seat())
            )),
            Stage::Over => text.push_str("The game is over.\n"),
        }
        text.push_str("```");
        Board {
            text,
            svg: Some(svg),
        }
    }

    fn private_status(&self, seat: Seat) -> String {
        let mut t = format!(
            "You play {}: {}, {} in your supply{}.",
            self.colours.get(seat).map_or("", String::as_str),
            count(
                self.play.map.scores().get(seat).copied().unwrap_or(0),
                "point"
            ),
            count(
                self.play.map.supply().get(seat).copied().unwrap_or(0),
                "follower"
            ),
            self.ringmaster_note(seat)
        );
        if seat == self.play.seat() {
            match self.play.stage() {
                Stage::Place(kind) => t.push_str(&format!(
                    " It is your turn: place {} ({}).",
                    tile_name(kind),
                    shape_of(kind, 0).map(parse::part_list).unwrap_or_default()
                )),
                Stage::Follower(tile) => t.push_str(&format!(
                    " It is your turn. {}.",
                    self.choice_list(tile, &self.play.choices())
                )),
                Stage::Over => {}
            }
        }
        t
    }

    fn save(&self) -> serde_json::Value {
        serde_json::to_value(Saved {
            names: self.names.clone(),
            colours: self.colours.clone(),
            deck: self.deck.clone(),
            moves: self.moves.clone(),
            bigtop: self.tokens.is_some(),
            tokens: self.tokens.clone().unwrap_or_default(),
            token_rolls: self.token_rolls.clone(),
        })
        .unwrap_or(serde_json::Value::Null)
    }
}
