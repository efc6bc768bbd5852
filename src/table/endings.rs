//! Endings the players choose: `!concede` (the player leaves the game and ranks last among
//! those still in when they conceded) and `!draw` (a vote; when every player still in has
//! voted, the game ends with all of them sharing first place). The final ranking of any game
//! places its conceders so.

use super::rounds::{self, board_post, game_over};
use super::seats;
use super::work::{PhaseHook, Work};
use crate::chat::lists::names_in_words;
use crate::games::{Refusal, Seat};
use crate::records::Phase;
use crate::records::{Concession, GameRecord, Parting, Status, User};

/// The seats still in the game: those whose orders the phase takes, or every present seat
/// in a game of turns.
fn still_in(record: &GameRecord) -> Vec<Seat> {
    let present = |seat: &Seat| record.seats.get(*seat).is_some_and(|s| s.present);
    match &record.phase {
        Some(Phase::Orders { seats, .. }) => seats.iter().copied().filter(present).collect(),
        _ => (0..record.seats.len()).filter(present).collect(),
    }
}

/// The players still in who vote on a draw: the people (a computer seat goes along with them).
fn voters(record: &GameRecord) -> Vec<Seat> {
    still_in(record)
        .into_iter()
        .filter(|seat| {
            record
                .seats
                .get(*seat)
                .is_some_and(|sat| sat.computer.is_none())
        })
        .collect()
}

/// The table rules revision from which whoever left without conceding shares the last place
/// of the final ranking (as the ratings count them).
const LEAVERS_LAST_FROM: u32 = 8;

/// The phase engine's hook for how a game ends at the table: the final ranking places
/// conceders and leavers (see [`final_ranking`]).
pub(crate) struct Endings;

impl PhaseHook for Endings {
    fn final_ranking(&self, record: &GameRecord, ranking: Vec<Vec<Seat>>) -> Vec<Vec<Seat>> {
        final_ranking(record, ranking)
    }
}

/// `ranking` with each conceder placed just below the lowest of the players who were still in
/// when it conceded (so above those already out), in the order they conceded; and (from
/// table rules revision 8) every person who left the game otherwise sharing the last place,
/// wherever the game's own ranking had them.
pub fn final_ranking(record: &GameRecord, ranking: Vec<Vec<Seat>>) -> Vec<Vec<Seat>> {
    let conceded = |seat: &Seat| record.conceded.iter().any(|c| c.seat == *seat);
    let left = |seat: &Seat| {
        record.settings.revision >= LEAVERS_LAST_FROM
            && !conceded(seat)
            && record.seats.get(*seat).is_some_and(|sat| !sat.present)
    };
    // A person who left is ranked (a computer the GM took off lost nothing: it is not).
    let leavers: Vec<Seat> = (0..record.seats.len())
        .filter(|seat| left(seat) && record.seats[*seat].computer.is_none())
        .collect();
    if record.conceded.is_empty() && leavers.is_empty() && !ranking.iter().flatten().any(left) {
        return ranking;
    }
    let mut groups: Vec<Vec<Seat>> = ranking
        .into_iter()
        .map(|group| {
            group
                .into_iter()
                .filter(|s| !conceded(s) && !left(s))
                .collect::<Vec<_>>()
        })
        .filter(|group| !group.is_empty())
        .collect();
    for concession in &record.conceded {
        let below = groups
            .iter()
            .rposition(|group| group.iter().any(|s| concession.still_in.contains(s)))
            .map_or(0, |at| at + 1);
        groups.insert(below, vec![concession.seat]);
    }
    if !leavers.is_empty() {
        groups.push(leavers);
    }
    groups
}

fn running_seat(work: &Work<'_>, user: &User) -> Result<Seat, Refusal> {
    let id = work.record.id;
    match work.record.status {
        Status::Running => {}
        Status::Paused { .. } => {
            return Err(Refusal::new(format!(
                "Game #{id} is paused by the GM; nothing is accepted until it resumes."
            )))
        }
        Status::SignUp => {
            return Err(Refusal::new(format!(
                "Game #{id} has not started yet; `!leave` takes you off the list."
            )))
        }
        Status::Over => return Err(rounds::over(&work.record, &work.env.defaults.prefix)),
    }
    work.record
        .seat_of(&user.id)
        .ok_or_else(|| Refusal::new(format!("You are not playing in game #{id}.")))
}

/// Ends the game by the table's decision (a draw, or one player left after concessions).
fn finish(work: &mut Work<'_>, ranking: Vec<Vec<Seat>>, heading: String) {
    let ranking = final_ranking(&work.record, ranking);
    work.record.phase = Some(Phase::Over {
        ranking: ranking.clone(),
    });
    let mut lines = vec![heading];
    lines.extend(game_over(work, &ranking));
    let channel = work.record.channel.clone();
    work.outcome.channel(&channel, lines.join("\n"));
    // The final board, as a game that ends by its own rules shows it.
    if let Ok(post) = board_post(work, false) {
        work.outcome.posts.push(post);
    }
}

/// `!concede`: the player leaves the game, ranked last among those still in. When one player
/// is left, the game ends with them first.
pub fn concede(work: &mut Work<'_>, user: &User) -> Result<bool, Refusal> {
    let seat = running_seat(work, user)?;
    let id = work.record.id;
    let others: Vec<Seat> = still_in(&work.record)
        .into_iter()
        .filter(|s| *s != seat)
        .collect();
    // The last player in wins: the game's next turn is never announced.
    work.ending = others.len() == 1;
    work.record.conceded.push(Concession {
        seat,
        still_in: others,
    });
    work.record.draw_votes.remove(&seat);
    seats::remove(
        work,
        &user.id,
        user,
        (
            "concedes: they leave the game and rank last among the players still in",
            Parting::Conceded,
        ),
        false,
    )?;
    if work.record.status == Status::Running {
        let left = still_in(&work.record);
        if let [last] = left.as_slice() {
            let winner = work.record.name(*last);
            finish(
                work,
                vec![vec![*last]],
                format!("Game #{id} is over: {winner} is the last player in."),
            );
        } else {
            settle_draw(work);
        }
    }
    Ok(true)
}

/// `!draw` (a vote) or `!draw no` (the vote taken back).
pub fn draw(work: &mut Work<'_>, user: &User, vote: bool) -> Result<bool, Refusal> {
    let seat = running_seat(work, user)?;
    let id = work.record.id;
    let name = work.record.name(seat);
    let channel = work.record.channel.clone();
    if !vote {
        if !work.record.draw_votes.remove(&seat) {
            return Err(Refusal::new(format!(
                "You have not voted for a draw in game #{id}."
            )));
        }
        work.outcome.table_event(
            work.record.round,
            format!("{name} took back their draw vote"),
        );
        work.outcome.channel(
            &channel,
            format!("{name} takes back their vote for a draw in game #{id}."),
        );
        return Ok(true);
    }
    if !still_in(&work.record).contains(&seat) {
        return Err(Refusal::new(format!(
            "You are out of game #{id}; only the players still in vote on a draw."
        )));
    }
    if !work.record.draw_votes.insert(seat) {
        return Err(Refusal::new(format!(
            "You have already voted for a draw in game #{id}; `!draw no` takes the vote back."
        )));
    }
    work.outcome
        .table_event(work.record.round, format!("{name} voted for a draw"));
    if !settle_draw(work) {
        let voters = voters(&work.record);
        let missing: Vec<String> = voters
            .iter()
            .filter(|s| !work.record.draw_votes.contains(s))
            .map(|s| work.record.name(*s))
            .collect();
        let votes = voters.len() - missing.len();
        work.outcome.channel(
            &channel,
            format!(
                "{name} votes for a draw in game #{id} ({votes} of {}). The game ends in a draw when {} also {} `!draw`; `!draw no` takes a vote back.",
                voters.len(),
                names_in_words(&missing),
                if missing.len() == 1 { "types" } else { "type" }
            ),
        );
    }
    Ok(true)
}

/// Ends the game in a draw if every person still in has voted for one (the computer seats
/// still in share it); whether it did.
fn settle_draw(work: &mut Work<'_>) -> bool {
    let sharing = still_in(&work.record);
    let voters = voters(&work.record);
    let unanimous = sharing.len() > 1
        && !voters.is_empty()
        && voters.iter().all(|s| work.record.draw_votes.contains(s));
    if !unanimous {
        return false;
    }
    let names_of =
        |seats: &[Seat]| -> Vec<String> { seats.iter().map(|s| work.record.name(*s)).collect() };
    let computers: Vec<Seat> = sharing
        .iter()
        .copied()
        .filter(|s| !voters.contains(s))
        .collect();
    let agreed = match computers.is_empty() {
        true => format!(
            "{} agree, and share first place",
            names_in_words(&names_of(&sharing))
        ),
        false => format!(
            "{} agree, and share first place with {}",
            names_in_words(&names_of(&voters)),
            names_in_words(&names_of(&computers))
        ),
    };
    let out: Vec<Seat> = (0..work.record.seats.len())
        .filter(|s| work.record.seats[*s].present && !sharing.contains(s))
        .collect();
    let mut ranking = vec![sharing];
    if !out.is_empty() {
        ranking.push(out);
    }
    let id = work.record.id;
    finish(
        work,
        ranking,
        format!("Game #{id} ends in a draw: {agreed}."),
    );
    true
}
