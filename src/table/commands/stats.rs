//! `!stats [@player]`: a player's record on this server, from the finished games' results:
//! per game the games played, won, drawn (a first place shared), conceded and abandoned, the
//! share of orders and turns in on time and the rating; the median time to answer; the last
//! games, each with the command that posts its audit page.

use super::{Answers, Asked, Command, Reply, SlashKind, SlashOption, Who, Words};
use crate::chat::mention;
use crate::chat::parse::{mentions, quote, ParseError};
use crate::duration::{format_duration, rounded};
use crate::games::count;
use crate::records::{
    is_computer_id, Audience, ComputerLevel, Finish, GameRecord, GameResult, Parting, PlayerResult,
};
use crate::store::RatingRow;
use crate::table::outcome::{Outcome, Post};
use crate::table::ratings::{computer_id, computer_name, figure};

/// `!stats`.
pub const COMMAND: Command = Command::answering::<Whose>(
    "stats",
    Who::Anyone,
    "stats [@player]",
    "a player's record on this server (yours if none is named): games, wins, deadlines kept, ratings",
)
.looks_back()
.explains("A rating is a cautious estimate of a player's skill in one game on this server: the skill their results show, less three times how unsure it still is. It starts at 0 and rises as you play more, even with middling results, since every game makes it surer; the leaderboard and the game-over post show it to one decimal.")
.slash(&[SlashOption {
    name: "player",
    about: "Whose record (yours if none)",
    kind: SlashKind::User,
    required: false,
}]);

/// The level of the computer seat of the channel's game that `word` names as the GM does
/// (`bot1`) or by its name: its record is its level's, every computer of a level being one
/// rated player.
fn computer_named(record: Option<&GameRecord>, word: &str) -> Option<ComputerLevel> {
    let record = record?;
    record
        .seats
        .iter()
        .chain(record.departed.iter().map(|d| &d.was))
        .find(|seat| {
            seat.user.is_computer()
                && (seat.user.short_name().eq_ignore_ascii_case(word)
                    || seat.user.name.eq_ignore_ascii_case(word))
        })
        .and_then(|seat| seat.computer)
}

/// Whether `args` is a computer seat's name as the table gives them ("Computer 2").
fn is_computer_name(args: &str) -> bool {
    let mut words = args.split_whitespace();
    matches!(
        (words.next(), words.next(), words.next()),
        (Some(first), Some(number), None)
            if first.eq_ignore_ascii_case("computer") && number.parse::<u32>().is_ok()
    )
}

/// How many of the last games are listed.
const LAST_GAMES: usize = 5;

/// The player named: a mention, a name, or a computer seat's name (`None`: the asker).
struct Whose(Option<String>);

impl Words for Whose {
    fn read(args: &str, prefix: &str) -> Result<Whose, ParseError> {
        // A computer seat by its name, which has a space ("Computer 2").
        if is_computer_name(args) {
            return Ok(Whose(Some(args.trim().to_string())));
        }
        match mentions(args).as_slice() {
            [] => Ok(Whose(None)),
            [named] => Ok(Whose(Some(named.clone()))),
            _ => Err(ParseError(format!(
                "`{prefix}stats` takes one player at most, like `{prefix}stats @bob`"
            ))),
        }
    }
}

/// The player's part in `result`: how they finished (seated twice, a person given a seat
/// back, the better finish), and their deadlines and answers in every seat they had.
fn part(result: &GameResult, player: &str) -> Option<PlayerResult> {
    let mut parts = result.players.iter().filter(|p| p.id == player);
    let mut whole = parts.next()?.clone();
    for other in parts {
        let better = match (whole.finish, other.finish) {
            (Finish::Placed(a), Finish::Placed(b)) => b < a,
            (Finish::Placed(_), _) => false,
            (_, Finish::Placed(_)) => true,
            _ => false,
        };
        if better {
            whole.finish = other.finish;
        }
        whole.on_time += other.on_time;
        whole.late += other.late;
        whole.missed += other.missed;
        whole.waits.extend(other.waits.iter().copied());
    }
    Some(whole)
}

/// One game's figures for the player.
#[derive(Default)]
struct Tally {
    played: u32,
    won: u32,
    drawn: u32,
    conceded: u32,
    abandoned: u32,
    stopped: u32,
    on_time: u32,
    answered: u32,
}

impl Tally {
    fn add(&mut self, result: &GameResult, part: &PlayerResult) {
        self.played += 1;
        match part.finish {
            Finish::Placed(1) if shared(result, part) => self.drawn += 1,
            Finish::Placed(1) => self.won += 1,
            Finish::Placed(_) => {}
            Finish::Departed(Parting::Conceded) | Finish::Conceded(_) => self.conceded += 1,
            Finish::Departed(_) => self.abandoned += 1,
            Finish::Stopped => self.stopped += 1,
        }
        self.on_time += part.on_time;
        self.answered += part.on_time + part.late + part.missed;
    }

    fn line(&self, rating: Option<&RatingRow>) -> String {
        let mut text = format!(
            "{} played, {} won, {} drawn, {} conceded, {} abandoned",
            self.played, self.won, self.drawn, self.conceded, self.abandoned
        );
        if self.stopped > 0 {
            text.push_str(&format!(", {} ended by the GM", self.stopped));
        }
        match self.answered {
            0 => text.push_str("; no deadline yet"),
            n => text.push_str(&format!(
                "; {}% of {n} orders and turns on time",
                self.on_time * 100 / n
            )),
        }
        match rating {
            Some(row) => text.push_str(&format!(
                "; rating {} ({})",
                figure(&row.rating),
                count(row.rating.games as usize, "rated game")
            )),
            None => text.push_str("; not rated yet"),
        }
        text
    }
}

/// Whether another player shares the player's place (a first place shared is a draw).
fn shared(result: &GameResult, part: &PlayerResult) -> bool {
    result
        .players
        .iter()
        .any(|other| other.id != part.id && other.finish == part.finish)
}

/// How a game ended for the player, in a few words.
fn finish_words(result: &GameResult, part: &PlayerResult) -> String {
    let seats = result.players.len();
    match part.finish {
        Finish::Placed(place) if shared(result, part) => {
            format!("shared {} of {seats}", ordinal(place))
        }
        Finish::Placed(place) => format!("{} of {seats}", ordinal(place)),
        Finish::Conceded(place) => format!("conceded, {} of {seats}", ordinal(place)),
        Finish::Departed(how) => how.words().to_string(),
        Finish::Stopped => "ended by the GM".to_string(),
    }
}

/// `1st`, `2nd`, `3rd`, `4th`...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The median of `values` (the lower middle one of an even count); `None` for none.
fn median(mut values: Vec<u64>) -> Option<u64> {
    values.sort_unstable();
    let middle = values.len().checked_sub(1)? / 2;
    values.get(middle).copied()
}

impl Answers for Whose {
    fn answer(self, asked: Asked<'_>) -> Reply<'_> {
        let named = self.0;
        Box::pin(async move {
            let (id, mut name) = match named {
                None => (asked.user.id.clone(), asked.user.name.clone()),
                Some(id) => match computer_named(asked.game.map(|game| &game.record), &id) {
                    Some(level) => (computer_id(level), computer_name(level)),
                    None => {
                        let name = asked
                            .mentioned
                            .iter()
                            .find(|user| user.id == id)
                            .map_or_else(|| quote(&id), |user| user.name.clone());
                        (id, name)
                    }
                },
            };
            let results = asked.tx.results_of_player(asked.server, &id).await?;
            let ratings = asked.tx.ratings_of_player(asked.server, &id).await?;
            let prefix = asked.prefix().to_string();
            if results.is_empty() {
                let mut outcome = Outcome::default();
                outcome.channel(
                    asked.channel,
                    format!("{name} has not finished a game on this server yet."),
                );
                return Ok(outcome);
            }
            let mut games: Vec<String> = results.iter().map(|r| r.game.clone()).collect();
            games.sort_unstable();
            games.dedup();
            let mut waits = Vec::new();
            let mut lines = Vec::new();
            for game in &games {
                let mut tally = Tally::default();
                for result in results.iter().filter(|r| &r.game == game) {
                    if let Some(part) = part(result, &id) {
                        tally.add(result, &part);
                        waits.extend(part.waits.iter().copied());
                    }
                }
                let line = tally.line(ratings.iter().find(|row| &row.game == game));
                lines.push(format!("- {game}: {line}"));
            }
            if let Some(part) = results.last().and_then(|r| part(r, &id)) {
                name = part.name;
            }
            let answers = match median(waits) {
                Some(seconds) => format!(
                    "Median time to answer: {}.",
                    format_duration(rounded(chrono::Duration::seconds(
                        i64::try_from(seconds).unwrap_or(i64::MAX)
                    )))
                ),
                None => "No answer timed yet.".to_string(),
            };
            let last: Vec<String> = results
                .iter()
                .rev()
                .take(LAST_GAMES)
                .filter_map(|result| {
                    let part = part(result, &id)?;
                    Some(format!(
                        "#{} {} in {}: {} (`{prefix}audit {}` there)",
                        result.game_id,
                        result.game,
                        mention::channel(&result.channel),
                        finish_words(result, &part),
                        result.game_id
                    ))
                })
                .collect();
            let mut text = vec![format!("{name}'s record on this server:")];
            text.extend(lines);
            text.push(answers);
            text.push(format!("Last games: {}.", last.join("; ")));
            if is_computer_id(&id) {
                text.push(
                    "Every computer seat of this level on this server counts here: they are rated as one player.".to_string(),
                );
            }
            let mut outcome = Outcome::default();
            outcome.posts.push(Post::titled(
                Audience::Channel(asked.channel.to_string()),
                format!("{name}'s record on this server"),
                text.join("\n"),
            ));
            Ok(outcome)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_read_as_english() {
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal).to_vec();
        assert_eq!(
            words,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
        );
    }

    #[test]
    fn the_median_is_the_middle_answer() {
        assert_eq!(median(vec![]), None);
        assert_eq!(median(vec![30, 10, 20]), Some(20));
        assert_eq!(median(vec![40, 10, 30, 20]), Some(20));
    }
}
