//! Carcassonne's texts: what happened, told as the players read it (placements, scores,
//! followers, the circus and its tokens, the end), the choices after placing, and the score
//! line.

use super::act::{Choices, Finale, Happening, Stage};
use super::circus::{Show, ShowKind};
use super::map::{Scored, Seats};
use super::tiles::{tile_kind, Centre, Kind};
use super::CarcassonneGame;
use super::{circus, parse};
use crate::games::{typed, Event};

pub(super) fn follower_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Road => "thief",
        Kind::City => "knight",
        Kind::Field => "farmer",
        Kind::Monastery => "monk",
    }
}

/// A tile as texts name it: "tile I" for the base game's (its letter, as in the tile list),
/// "circus tile 3" and "acrobat tile 2" for the Big Top's, never the list's internal ids.
pub(super) fn tile_name(kind: u8) -> String {
    match tile_kind(kind) {
        Some(k) => match k.centre {
            Centre::Circus => format!("circus tile {}", k.name.trim_start_matches("BT")),
            Centre::Acrobats => format!("acrobat tile {}", k.name.trim_start_matches("AC")),
            Centre::Empty | Centre::Monastery => format!("tile {}", k.name),
        },
        None => "a tile".to_string(),
    }
}

/// `text` with its first letter a capital, to begin a sentence.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

pub(super) fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The game's rules revision from which its texts say "an elephant" and its final scoring
/// is one line per player (before: "a elephant", and a line for every feature scored, which
/// could pass Discord's 2,000 characters).
pub const PLAIN_WORDS_FROM: u32 = 3;

/// `word` after "a" or "an", from revision 3 as English has it (before: always "a").
fn with_article(word: &str, revision: u32) -> String {
    let vowel = word.starts_with(['a', 'e', 'i', 'o', 'u']);
    match vowel && revision >= PLAIN_WORDS_FROM {
        true => format!("an {word}"),
        false => format!("a {word}"),
    }
}

/// The most squares a prompt lists; the picture marks every one.
const LISTED_SQUARES: usize = 10;

/// The legal placements as text: "(1,0) at 0 or 180; (0,1) at 90", the squares nearest the
/// centre first; past [`LISTED_SQUARES`] squares, how many more the picture marks.
pub fn placements_text(legal: &[(i32, i32, u8)]) -> String {
    let mut groups: Vec<((i32, i32), Vec<String>)> = Vec::new();
    for &(x, y, r) in legal {
        let deg = (u32::from(r) * 90).to_string();
        match groups.iter_mut().find(|(spot, _)| *spot == (x, y)) {
            Some((_, rots)) => rots.push(deg),
            None => groups.push(((x, y), vec![deg])),
        }
    }
    groups.sort_by_key(|((x, y), _)| (x * x + y * y, *y, *x));
    let more = groups.len().saturating_sub(LISTED_SQUARES);
    let mut text = groups
        .iter()
        .take(LISTED_SQUARES)
        .map(|((x, y), rots)| format!("({x},{y}) at {}", rots.join(" or ")))
        .collect::<Vec<_>>()
        .join("; ");
    if more > 0 {
        text.push_str(&format!(
            "; and {} more, marked on the picture",
            plural(more as u32, "square", "squares")
        ));
    }
    text
}

impl CarcassonneGame {
    pub(super) fn name(&self, seat: usize) -> String {
        self.names
            .get(seat)
            .cloned()
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    pub(super) fn names_of(&self, seats: Seats) -> String {
        seats
            .iter()
            .map(|s| self.name(s))
            .collect::<Vec<_>>()
            .join(" and ")
    }

    pub(super) fn scored_text(&self, s: &Scored) -> String {
        let what = match (s.kind, s.complete) {
            (Kind::Field, _) => format!(
                "The field at ({},{}) touches {} completed {}",
                s.at.0,
                s.at.1,
                s.size,
                if s.size == 1 { "city" } else { "cities" }
            ),
            (Kind::Monastery, true) => {
                format!("The completed monastery at ({},{})", s.at.0, s.at.1)
            }
            (Kind::Monastery, false) => format!(
                "The unfinished monastery at ({},{}) ({} of 9 tiles)",
                s.at.0, s.at.1, s.size
            ),
            (k, c) => format!(
                "The {} {} at ({},{}) ({} tile{})",
                if c { "completed" } else { "unfinished" },
                k.word(),
                s.at.0,
                s.at.1,
                s.size,
                if s.size == 1 { "" } else { "s" }
            ),
        };
        let who = if s.winners.len() > 1 {
            format!("{} each", self.names_of(s.winners))
        } else {
            self.names_of(s.winners)
        };
        let mut text = format!(
            "{what}: {} point{} for {who}.",
            s.points,
            if s.points == 1 { "" } else { "s" }
        );
        for r in &s.ringmasters {
            text.push_str(&format!(
                " {}'s ringmaster at ({},{}): {} around it, {}.",
                self.name(r.seat),
                r.at.0,
                r.at.1,
                plural(
                    r.tiles,
                    "circus or acrobat tile",
                    "circus and acrobat tiles"
                ),
                plural(r.points, "point", "points")
            ));
        }
        text
    }

    pub(super) fn who_scored(&self, show: &Show, one: &str, many: &str, revision: u32) -> String {
        let parts: Vec<String> = show
            .meeples
            .iter()
            .zip(&show.points)
            .enumerate()
            .filter(|(_, (m, _))| **m > 0)
            .map(|(seat, (m, p))| {
                format!(
                    "{}{} {}, {}",
                    self.name(seat),
                    if revision >= PLAIN_WORDS_FROM {
                        ":"
                    } else {
                        ""
                    },
                    plural(*m, one, many),
                    plural(*p, "point", "points")
                )
            })
            .collect();
        if parts.is_empty() {
            format!("nobody has {many} there")
        } else {
            parts.join("; ")
        }
    }

    pub(super) fn show_text(&self, show: &Show, revision: u32) -> String {
        let (x, y) = show.at;
        match show.kind {
            ShowKind::Circus(animal) => format!(
                "The token under the Big Top at ({x},{y}) is revealed: {}, {} per meeple. Circus scoring for the meeples on its tile and the 8 around (they stay): {}. The {} leaves the game face up.",
                with_article(animal.word(), revision),
                plural(animal.value(), "point", "points"),
                self.who_scored(show, "meeple", "meeples", revision),
                animal.word()
            ),
            ShowKind::Pyramid { by } => format!(
                "{} scores the completed pyramid at ({x},{y}): {}. The acrobats go home.",
                self.name(by),
                self.who_scored(show, "acrobat", "acrobats", revision)
            ),
            ShowKind::Acrobats => format!(
                "The acrobats at ({x},{y}), 5 points each: {}.",
                self.who_scored(show, "acrobat", "acrobats", revision)
            ),
        }
    }

    /// The final scoring as one post reads it (revision 3 on): the last circus scoring, then
    /// one line per player adding up what each thing gave them, then the totals; `reveal`
    /// is the ordinal of the token the last circus scoring reveals.
    pub(super) fn final_scoring_text(&self, finale: &Finale, reveal: usize) -> String {
        let mut t = String::from("The tiles are all played. Final scoring:");
        if let Some(show) = &finale.circus {
            t.push_str("\n- The circus is scored one last time. ");
            t.push_str(&self.show_text(show, PLAIN_WORDS_FROM));
            t.push_str(&self.token_roll_text(reveal));
        }
        // Each seat's points, by what gave them, in the order they come.
        let mut gained: Vec<Vec<(&str, Vec<u32>)>> = vec![Vec::new(); self.names.len()];
        let mut add = |seat: usize, what: &'static str, points: u32| {
            if points == 0 {
                return;
            }
            if let Some(lines) = gained.get_mut(seat) {
                match lines.iter_mut().find(|(named, _)| *named == what) {
                    Some((_, each)) => each.push(points),
                    None => lines.push((what, vec![points])),
                }
            }
        };
        if let Some(show) = &finale.circus {
            for (seat, &points) in show.points.iter().enumerate() {
                add(seat, "circus", points);
            }
        }
        let mut nothing = 0;
        for s in &finale.features {
            if s.points == 0 && s.ringmasters.is_empty() {
                nothing += usize::from(!s.winners.is_empty());
                continue;
            }
            let what = match s.kind {
                Kind::City => "unfinished cities",
                Kind::Road => "unfinished roads",
                Kind::Monastery => "unfinished monasteries",
                Kind::Field => "fields",
            };
            for seat in s.winners.iter() {
                add(seat, what, s.points);
            }
            for r in &s.ringmasters {
                add(r.seat, "ringmaster", r.points);
            }
        }
        for show in &finale.acrobats {
            for (seat, &points) in show.points.iter().enumerate() {
                add(seat, "acrobats", points);
            }
        }
        for (seat, lines) in gained.iter().enumerate() {
            if lines.is_empty() {
                continue;
            }
            let total: u32 = lines.iter().flat_map(|(_, each)| each).sum();
            let parts: Vec<String> = lines
                .iter()
                .map(|(what, each)| {
                    let each: Vec<String> = each.iter().map(u32::to_string).collect();
                    format!("{what} {}", each.join(" + "))
                })
                .collect();
            t.push_str(&format!(
                "\n- {}: {}; {} in all.",
                self.name(seat),
                parts.join(", "),
                plural(total, "point", "points")
            ));
        }
        if gained.iter().all(Vec::is_empty) && finale.circus.is_none() {
            t.push_str(" nothing left to score.");
        }
        if nothing > 0 {
            t.push_str(&format!(
                "\n- {} scored nothing (fields touching no completed city).",
                plural(nothing as u32, "other feature", "other features")
            ));
        }
        t.push_str(&format!(
            "\nFinal scores: {}.",
            self.score_line(PLAIN_WORDS_FROM)
        ));
        t
    }

    /// The final scoring before revision 3: a line for each thing that scored; `reveal` is the
    /// ordinal of the token the last circus scoring reveals.
    pub(super) fn finale_text(&self, finale: &Finale, reveal: usize) -> String {
        let revision = PLAIN_WORDS_FROM - 1;
        // One line for each thing that scores; what scores nothing is only counted.
        let mut t = String::from("The tiles are all played. Final scoring:");
        let held: Vec<&Scored> = finale
            .features
            .iter()
            .filter(|s| !s.winners.is_empty() || !s.ringmasters.is_empty())
            .collect();
        let (features, nothing): (Vec<&Scored>, Vec<&Scored>) = held
            .into_iter()
            .partition(|s| s.points > 0 || !s.ringmasters.is_empty());
        if finale.circus.is_none() && features.is_empty() && finale.acrobats.is_empty() {
            t.push_str(" nothing left to score.");
        }
        if let Some(show) = &finale.circus {
            t.push_str("\n- The circus is scored one last time. ");
            t.push_str(&self.show_text(show, revision));
            t.push_str(&self.token_roll_text(reveal));
        }
        for s in features {
            t.push_str("\n- ");
            t.push_str(&self.scored_text(s));
        }
        for show in &finale.acrobats {
            t.push_str("\n- ");
            t.push_str(&self.show_text(show, revision));
        }
        if !nothing.is_empty() {
            t.push_str(&format!(
                "\n- {} scored nothing (fields touching no completed city).",
                plural(nothing.len() as u32, "other feature", "other features")
            ));
        }
        t.push_str(&format!("\nFinal scores: {}.", self.score_line(revision)));
        t
    }

    /// How the `k`-th revealed token was drawn, now that it is face up (empty for a game
    /// started with a stack laid out in advance, as tests do).
    pub(super) fn token_roll_text(&self, k: usize) -> String {
        self.token_rolls
            .get(k)
            .map(|roll| {
                format!(
                    " It was drawn with a sealed roll, shown now: d{} = {}, counting the {} tokens then left in the box from elephant to flea.",
                    roll.sides, roll.result, roll.sides
                )
            })
            .unwrap_or_default()
    }

    /// Part `part` of the tile just placed, in words ("the road to the west").
    pub(super) fn part_of_last_tile(&self, part: u8) -> String {
        self.play
            .map
            .tiles()
            .last()
            .map(|t| parse::part_words(t.shape(), usize::from(part)))
            .unwrap_or_default()
    }

    pub(super) fn tell(&self, happened: &[Happening], revision: u32) -> Vec<Event> {
        let mut out = Vec::new();
        let reveals = happened
            .iter()
            .filter(|h| match h {
                Happening::Circus(_) => true,
                Happening::Ended(finale) => finale.circus.is_some(),
                _ => false,
            })
            .count();
        let mut reveal = self
            .play
            .map
            .circus()
            .map_or(0, |c| c.revealed().len().saturating_sub(reveals));
        for h in happened {
            let text = match h {
                Happening::Drew(seat, kind) => {
                    let legal = self.play.map.legal(*kind);
                    let example = legal
                        .first()
                        .map(|(x, y, r)| {
                            format!(
                                " (or both in one line: `!place {x} {y} {} pass`)",
                                u32::from(*r) * 90
                            )
                        })
                        .unwrap_or_default();
                    format!(
                        "{}'s turn: {} is drawn ({} left after it). Legal placements: {}. Answer {}, then {}{example}.",
                        self.name(*seat),
                        tile_name(*kind),
                        self.play.remaining(),
                        placements_text(&legal),
                        command("place"),
                        if self.tokens.is_some() {
                            format!(
                                "{}, {}, {}, {} or {}",
                                command("meeple"),
                                command("ringmaster"),
                                command("acrobat"),
                                command("pyramid"),
                                command("pass")
                            )
                        } else {
                            format!("{} or {}", command("meeple"), command("pass"))
                        }
                    )
                }
                Happening::Discarded(kind) => format!(
                    "{} fits nowhere on the map: it is discarded and another is drawn.",
                    capitalized(&tile_name(*kind))
                ),
                Happening::Placed(seat, kind, x, y, r) => {
                    let mut t = format!(
                        "{} places {} at ({x},{y}) turned {}.",
                        self.name(*seat),
                        tile_name(*kind),
                        u32::from(*r) * 90
                    );
                    if matches!(self.play.stage(), Stage::Follower(_)) && self.play.seat() == *seat
                    {
                        t.push(' ');
                        t.push_str(&self.choices_text());
                    }
                    t
                }
                Happening::Followed(seat, kind, part) => {
                    let name = self.part_of_last_tile(*part);
                    format!(
                        "{} puts a {} on {name} ({}).",
                        self.name(*seat),
                        follower_word(*kind),
                        parse::letter(usize::from(*part))
                    )
                }
                Happening::Ringmaster(seat, _, part) => {
                    let name = self.part_of_last_tile(*part);
                    format!(
                        "{} puts the ringmaster on {name} ({}).",
                        self.name(*seat),
                        parse::letter(usize::from(*part))
                    )
                }
                Happening::Acrobat(seat, x, y, n) => format!(
                    "{} puts an acrobat on the acrobat tile at ({x},{y}): {n} of 3{}.",
                    self.name(*seat),
                    if *n >= circus::PYRAMID {
                        ", the pyramid is complete"
                    } else {
                        ""
                    }
                ),
                Happening::Pyramid(show) => self.show_text(show, revision),
                Happening::Circus(show) => {
                    reveal += 1;
                    self.show_text(show, revision) + &self.token_roll_text(reveal - 1)
                }
                Happening::BigTop((x, y), token) => {
                    if let Some(animal) = token {
                        out.push(Event::sealed(format!(
                            "The face-down token under the Big Top at ({x},{y}) is {} ({} per meeple).",
                            with_article(animal.word(), revision),
                            plural(animal.value(), "point", "points")
                        )));
                    }
                    let left = self.play.map.circus().map_or(0, |c| c.stack_left());
                    match token {
                        Some(_) => format!(
                            "The Big Top stands on the circus tile at ({x},{y}) now, over a face-down animal token ({left} left in the box)."
                        ),
                        None => format!(
                            "The Big Top stands on the circus tile at ({x},{y}) now; no animal token is left to put under it."
                        ),
                    }
                }
                Happening::Passed(seat) => format!("{} places no follower.", self.name(*seat)),
                Happening::Scored(s) => self.scored_text(s),
                Happening::Ended(finale) => match revision >= PLAIN_WORDS_FROM {
                    true => self.final_scoring_text(finale, reveal),
                    false => self.finale_text(finale, reveal),
                },
            };
            out.push(Event::public(text));
        }
        out
    }

    /// The choices after placing, as the player reads them.
    pub(super) fn choices_text(&self) -> String {
        match self.play.stage() {
            Stage::Follower(tile) => format!("{}.", self.choice_list(tile, &self.play.choices())),
            _ => String::new(),
        }
    }

    /// The choices after placing `tile`, each feature named once: "Features of the new tile:
    /// `a` (the city to the south), `b` (...). Choose a meeple with `!meeple <feature>`, ...
    /// or `!pass`".
    pub(super) fn choice_list(&self, tile: usize, choices: &Choices) -> String {
        let spots = |spots: &[(i32, i32)]| {
            spots
                .iter()
                .map(|(x, y)| format!("({x},{y})"))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        let mut features: Vec<u8> = choices.meeple.clone();
        for part in &choices.ringmaster {
            if !features.contains(part) {
                features.push(*part);
            }
        }
        features.sort_unstable();
        let letters = |parts: &[u8]| -> String {
            match parts.len() == features.len() {
                true => String::new(),
                false => format!(
                    " on {}",
                    parts
                        .iter()
                        .map(|&p| format!("`{}`", parse::letter(usize::from(p))))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        };
        // "a meeple with `!meeple` on `a`": what, the command, and where.
        let offer =
            |what: &str, word: &str, at: String| format!("{what} with {}{at}", command(word));
        let mut options = Vec::new();
        if !choices.meeple.is_empty() {
            options.push(offer("a meeple", "meeple", letters(&choices.meeple)));
        }
        if !choices.ringmaster.is_empty() {
            options.push(offer(
                "your ringmaster",
                "ringmaster",
                letters(&choices.ringmaster),
            ));
        }
        if !choices.acrobats.is_empty() {
            let at = format!(" at {}", spots(&choices.acrobats));
            options.push(offer("an acrobat", "acrobat", at));
        }
        if !choices.pyramids.is_empty() {
            let at = format!(" at {}", spots(&choices.pyramids));
            options.push(offer("a completed pyramid to score", "pyramid", at));
        }
        options.push(format!("or {}", command("pass")));
        let choose = format!("Choose {}", options.join("; "));
        match features.is_empty() {
            true => choose,
            false => format!(
                "Features of the new tile: {}. {choose}",
                self.parts_text(tile, &features)
            ),
        }
    }

    pub(super) fn parts_text(&self, tile: usize, parts: &[u8]) -> String {
        let Some(t) = self.play.map.tiles().get(tile) else {
            return String::new();
        };
        parts
            .iter()
            .map(|&p| {
                format!(
                    "`{}` ({})",
                    parse::letter(usize::from(p)),
                    parse::part_words(t.shape(), usize::from(p))
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub(super) fn score_line(&self, revision: u32) -> String {
        let colon = if revision >= PLAIN_WORDS_FROM {
            ":"
        } else {
            ""
        };
        self.play
            .map
            .scores()
            .iter()
            .enumerate()
            .map(|(s, p)| format!("{}{colon} {p}", self.name(s)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// ", ringmaster in supply" (or on the map) with the expansion; nothing without it.
    pub(super) fn ringmaster_note(&self, seat: usize) -> String {
        match self.play.map.circus() {
            Some(c) => format!(
                ", ringmaster {}, {} acrobat{}",
                if c.ringmaster_home(seat) {
                    "in supply"
                } else {
                    "on the map"
                },
                self.play.map.acrobats_of(seat),
                if self.play.map.acrobats_of(seat) == 1 {
                    ""
                } else {
                    "s"
                }
            ),
            None => String::new(),
        }
    }

    /// The Big Top, the revealed tokens and the pyramids, one line each (nothing without the
    /// expansion). The token under the Big Top is never named.
    pub(super) fn circus_lines(&self) -> String {
        let Some(c) = self.play.map.circus() else {
            return String::new();
        };
        let mut t = match c.big_top() {
            Some(b) if c.token_down() => format!(
                "Big Top: at ({},{}) over a face-down token; {} left in the box\n",
                b.at.0,
                b.at.1,
                c.stack_left()
            ),
            Some(b) => format!("Big Top: at ({},{}), no token left\n", b.at.0, b.at.1),
            None => format!(
                "Big Top: not up yet (the first circus tile raises it); {} tokens in the box\n",
                c.stack_left()
            ),
        };
        let revealed: Vec<String> = c
            .revealed()
            .iter()
            .map(|a| format!("{} {}", a.word(), a.value()))
            .collect();
        t.push_str(&format!(
            "Tokens revealed: {}\n",
            if revealed.is_empty() {
                "none yet".to_string()
            } else {
                revealed.join(", ")
            }
        ));
        if !c.pyramids().is_empty() {
            let pyramids: Vec<String> = c
                .pyramids()
                .iter()
                .map(|p| {
                    let who: Vec<&str> = p
                        .acrobats
                        .iter()
                        .map(|&s| self.colours.get(s).map_or("?", String::as_str))
                        .collect();
                    format!(
                        "({},{}) {}{}",
                        p.at.0,
                        p.at.1,
                        who.join(", "),
                        if p.acrobats.len() >= circus::PYRAMID {
                            " (complete)"
                        } else {
                            ""
                        }
                    )
                })
                .collect();
            t.push_str(&format!("Acrobats: {}\n", pyramids.join("; ")));
        }
        t
    }
}

/// One of the game's declared commands as a prompt prints it.
fn command(name: &str) -> String {
    typed(super::rules::COMMANDS, name)
}
