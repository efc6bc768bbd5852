//! Ratings and records: a finished game's result worked out from its final record (which the
//! replay log reproduces), and Weng-Lin ratings per server and game, updated from the results
//! in the order the games ended. Live and `referee ratings --rebuild` go through the same
//! steps, so they give the same figures to the last bit.

use crate::records::{
    ComputerLevel, Finish, GameRecord, GameResult, Parting, Phase, PlayerResult, Rating, SeatRecord,
};
use chrono::{DateTime, Utc};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::collections::BTreeMap;

/// The id every computer player of `level` is rated under (one rated player per level).
pub fn computer_id(level: ComputerLevel) -> String {
    format!("computer:{}", level.word())
}

/// The name every computer player of `level` is rated under.
pub fn computer_name(level: ComputerLevel) -> String {
    format!("Computer ({})", level.word())
}

/// One player's part: who (a computer seat as its level), how they finished, how they kept
/// the deadlines.
fn player(seat: &SeatRecord, finish: Finish) -> PlayerResult {
    let (id, name) = match seat.computer {
        Some(level) => (computer_id(level), computer_name(level)),
        None => (seat.user.id.clone(), seat.user.name.clone()),
    };
    let attendance = &seat.attendance;
    PlayerResult {
        id,
        name,
        computer: seat.computer,
        finish,
        on_time: attendance.on_time,
        late: attendance.late,
        missed: attendance.missed,
        waits: attendance.waits.clone(),
    }
}

/// The result of the game `record` holds, which ended at `ended_at`: the players still
/// seated placed as the final ranking says (or `Stopped`, when the GM ended it before it had
/// one), and every person who left before the end as they left.
pub fn result_of(record: &GameRecord, ended_at: DateTime<Utc>) -> GameResult {
    let ranking = match &record.phase {
        Some(Phase::Over { ranking }) => Some(ranking.as_slice()),
        _ => None,
    };
    // A shared place is one place: after two players sharing the first, the next is third.
    let place_of = |seat| {
        ranking.map_or(Finish::Stopped, |groups| {
            let better: usize = groups
                .iter()
                .take_while(|group| !group.contains(&seat))
                .map(Vec::len)
                .sum();
            Finish::Placed(better + 1)
        })
    };
    let one_rule = record.settings.revision >= ONE_RULE_FOR_LEAVERS_FROM;
    let mut players = Vec::new();
    // A computer taken off its seat lost nothing: the GM chose it.
    for departure in record.departed.iter().filter(|d| d.was.computer.is_none()) {
        let finish = match (departure.how, place_of(departure.seat)) {
            (Parting::Conceded, Finish::Placed(place)) if one_rule => Finish::Conceded(place),
            (how, _) => Finish::Departed(how),
        };
        players.push(player(&departure.was, finish));
    }
    for (seat, sat) in record.seats.iter().enumerate() {
        let gone_as_noted = record
            .departed
            .iter()
            .any(|d| d.seat == seat && d.was.user.id == sat.user.id);
        match (sat.present, gone_as_noted) {
            (true, _) => players.push(player(sat, place_of(seat))),
            // Left in a game whose record did not keep departures (rules revision 4 or less).
            (false, false) => players.push(player(sat, Finish::Departed(Parting::Left))),
            (false, true) => {}
        }
    }
    if one_rule {
        once_per_computer_level(&mut players);
    }
    GameResult {
        game_id: record.id,
        server: record.server.clone().unwrap_or_default(),
        game: record.game.clone(),
        channel: record.channel.clone(),
        ended_at,
        players,
    }
}

/// The table rules revision from which a conceder is rated at its place in the final ranking
/// and a computer level seated twice is rated once.
const ONE_RULE_FOR_LEAVERS_FROM: u32 = 8;

/// Keeps one part per computer level, the best placed: all computers of a level are one
/// rated player, which must not be rated against itself.
fn once_per_computer_level(players: &mut Vec<PlayerResult>) {
    let rank = |finish: Finish| match finish {
        Finish::Placed(place) | Finish::Conceded(place) => place,
        Finish::Departed(_) | Finish::Stopped => usize::MAX,
    };
    let mut best: BTreeMap<String, usize> = BTreeMap::new();
    for (at, part) in players.iter().enumerate() {
        if part.computer.is_none() {
            continue;
        }
        let kept = best.entry(part.id.clone()).or_insert(at);
        if rank(part.finish) < rank(players[*kept].finish) {
            *kept = at;
        }
    }
    let mut at = 0;
    players.retain(|part| {
        let keep = part.computer.is_none() || best.get(&part.id) == Some(&at);
        at += 1;
        keep
    });
}

/// A player's rating before and after one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Who.
    pub id: String,
    /// Their name.
    pub name: String,
    /// Before the game.
    pub before: Rating,
    /// After it.
    pub after: Rating,
}

/// The ratings of one game on one server, as results are added in the order the games ended.
#[derive(Clone, Debug, Default)]
pub struct Ratings {
    /// Each player's name and rating, by id.
    pub players: BTreeMap<String, (String, Rating)>,
}

impl Ratings {
    /// Rates one finished game: a shared place is a tie, a conceder placed by the final
    /// ranking (table rules revision 8 on) is rated at that place, everyone else who left
    /// before the end (left, kicked, replaced; before revision 8 a conceder too) shares the
    /// last place. A player seated twice (two
    /// computers of one level) plays both seats against the others and keeps the better
    /// one's result. Returns the changes, best place first; none for a game
    /// without a ranking or with fewer than two players.
    pub fn add(&mut self, result: &GameResult) -> Vec<Change> {
        let last = result
            .players
            .iter()
            .filter_map(|p| match p.finish {
                Finish::Placed(place) | Finish::Conceded(place) => Some(place),
                _ => None,
            })
            .max();
        let Some(last) = last else {
            return Vec::new();
        };
        let ranked: Vec<(&PlayerResult, usize)> = result
            .players
            .iter()
            .filter_map(|p| match p.finish {
                Finish::Placed(place) | Finish::Conceded(place) => Some((p, place)),
                Finish::Departed(_) => Some((p, last + 1)),
                Finish::Stopped => None,
            })
            .collect();
        let before = |id: &str| {
            self.players
                .get(id)
                .map(|(_, rating)| *rating)
                .unwrap_or_default()
        };
        let mut distinct: Vec<&str> = ranked.iter().map(|(p, _)| p.id.as_str()).collect();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() < 2 {
            return Vec::new();
        }
        let teams: Vec<[WengLinRating; 1]> = ranked
            .iter()
            .map(|(p, _)| {
                let rating = before(&p.id);
                [WengLinRating {
                    rating: rating.mu,
                    uncertainty: rating.sigma,
                }]
            })
            .collect();
        let outcome: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(&ranked)
            .map(|(team, (_, place))| (&team[..], MultiTeamOutcome::new(*place)))
            .collect();
        let rated = weng_lin_multi_team(&outcome, &WengLinConfig::new());
        // Best place first (a tie keeps the seats' order), so a player seated twice keeps
        // the better seat's result.
        let mut order: Vec<usize> = (0..ranked.len()).collect();
        order.sort_by_key(|at| ranked[*at].1);
        let mut changes: Vec<Change> = Vec::new();
        for at in order {
            let (player, _) = ranked[at];
            let Some(new) = rated.get(at).and_then(|team| team.first()) else {
                continue;
            };
            if changes.iter().any(|change| change.id == player.id) {
                continue;
            }
            let old = before(&player.id);
            changes.push(Change {
                id: player.id.clone(),
                name: player.name.clone(),
                before: old,
                after: Rating {
                    mu: new.rating,
                    sigma: new.uncertainty,
                    games: old.games + 1,
                },
            });
        }
        for change in &changes {
            self.players
                .insert(change.id.clone(), (change.name.clone(), change.after));
        }
        changes
    }
}

/// A rating's figure as players read it: one decimal.
pub fn figure(rating: &Rating) -> String {
    format!("{:.1}", rating.shown())
}

/// The game-over post's line: each player's rating after the game and its change.
pub fn changes_line(game: &str, changes: &[Change]) -> String {
    let each: Vec<String> = changes
        .iter()
        .map(|change| {
            let delta = change.after.shown() - change.before.shown();
            format!("{} {} ({delta:+.1})", change.name, figure(&change.after))
        })
        .collect();
    format!(
        "Ratings in {game} on this server (`!stats` shows more): {}.",
        each.join(", ")
    )
}
