//! What follows every change of a game: its dice draws and events into the log, the channel
//! and DMs; the next phase with its round and deadline; the board; the end.

use super::deadlines::schedule;
use super::moments;
use super::{describe_phase, seed_reveal, PRACTICE};
use crate::games::{Event, Refusal, Seat, Visibility};
use crate::records::Phase;
use crate::records::{Audience, EventBody, GameRecord, LogEvent, LogVisibility, Status};
use crate::table::card::places;
use crate::table::frame::framed;
use crate::table::outcome::{Post, RATINGS_LINE};
use crate::table::work::{Live, Work};

/// The table's rules revision from which a turn that comes back to the same seat by itself
/// is a new phase ([`crate::games::Game::turns_begun`]).
const NEW_TURN_OF_SAME_SEAT_FROM: u32 = 6;

/// Everything that follows a change of the game: dice draws and game events into the log and
/// the channel (or DMs), the next phase with its deadline, the board, and the end.
pub fn after_change(
    work: &mut Work<'_>,
    live: &mut Live,
    events: Vec<Event>,
    heading: Option<String>,
    round_ends: bool,
) -> Result<(), Refusal> {
    let round = work.record.round;
    let channel = work.record.channel.clone();
    let awaited_before = work.record.awaited();
    for draw in live.dice.take_draws() {
        let visibility = if draw.sealed {
            LogVisibility::Sealed
        } else {
            LogVisibility::Public
        };
        work.outcome.events.push(LogEvent {
            round,
            visibility,
            body: EventBody::Roll(draw),
        });
    }
    let mut public: Vec<String> = heading.into_iter().collect();
    let headed = public.len();
    let mut direct: Vec<(String, String)> = Vec::new();
    let something_happened = !events.is_empty();
    for event in events {
        let visibility = match event.visibility {
            Visibility::Public => {
                public.push(event.text.clone());
                LogVisibility::Public
            }
            Visibility::Seat(seat) => {
                if let Some(record) = work.record.seats.get(seat).filter(|s| s.present) {
                    direct.push((
                        record.user.id.clone(),
                        format!("Game #{}: {}", work.record.id, event.text),
                    ));
                }
                LogVisibility::Seat(seat)
            }
            Visibility::Sealed => LogVisibility::Sealed,
        };
        work.outcome.events.push(LogEvent {
            round,
            visibility,
            body: EventBody::Game(event.text),
        });
    }
    let phase = live.game.phase();
    // The table ends the game next (unless the game ended by itself): what the game did
    // meanwhile is in the log only, and no next turn is announced.
    let quiet = work.ending && !matches!(phase, Phase::Over { .. });
    if quiet {
        public.truncate(headed);
        direct.clear();
    }
    // A turn that came back to the same seat (the others' turns played themselves) is a
    // new one (from rules revision 6 on).
    let turns_begun = live
        .game
        .turns_begun()
        .filter(|_| work.record.settings.revision >= NEW_TURN_OF_SAME_SEAT_FROM);
    let new_phase = round_ends
        || !same_phase(work.record.phase.as_ref(), &phase)
        || turns_begun != work.record.turns_begun;
    work.record.turns_begun = turns_begun;
    if new_phase {
        work.record.round = match (&phase, live.game.round()) {
            (Phase::Over { .. }, _) => work.record.round,
            (_, Some(round)) => round,
            (Phase::Turn { seat }, None) if work.record.settings.revision >= 3 => {
                round_of_turn(&mut work.record, *seat)
            }
            (_, None) => work.record.round + 1,
        };
        work.record.orders.clear();
        work.record.excused.clear();
        work.record.end_stand_in();
        work.record.held = false;
        work.record.extended = false;
        work.record.extended_from = None;
        work.record.phase_started = Some(work.env.when_sent());
    }
    let phase = match phase {
        Phase::Over { ranking } => Phase::Over {
            ranking: moments::final_ranking(work, ranking),
        },
        phase => phase,
    };
    work.record.phase = Some(phase.clone());
    work.keep(live);
    let standing_for_board = moments::changed(work, live);
    if let Phase::Over { ranking } = &phase {
        public.extend(game_over(work, ranking));
    } else if new_phase && work.record.status == Status::Running {
        let limit = work
            .record
            .settings
            .deadline
            .or_else(|| live.game.time_limit(&work.record.all_options()));
        let deadline = limit.and_then(|limit| work.env.now.checked_add_signed(limit));
        schedule(work, deadline);
        work.record.first_deadline = work.record.deadline;
        let begun = moments::phase_begun(work);
        if !quiet {
            public.extend(begun);
            public.push(describe_phase(&work.record));
        }
    } else if work.record.status == Status::Running
        && work.record.awaited() != awaited_before
        && !quiet
    {
        // The same phase, waiting for fewer (a player left or was removed): say for whom.
        public.push(describe_phase(&work.record));
    }
    // A search just asked (Short Circuit's impossible call) decides the next board: its
    // verdict's post shows it, so the board as it stands now is not posted twice.
    let asked_search = !standing_for_board.is_empty();
    if !quiet {
        public.extend(standing_for_board);
    }
    if !public.is_empty() {
        let board = live.game.board();
        let show_board = !quiet
            && !asked_search
            && (new_phase || (something_happened && !live.game.board_when_turn_passes()));
        let picture = board
            .svg
            .filter(|_| show_board)
            .map(|svg| framed(&svg, &work.record, &live.game.marks()));
        let mut parts = public;
        if show_board {
            parts.push(board.text);
        }
        // The game-over post is read once, whole: it may fill a message.
        let most = match phase {
            Phase::Over { .. } => ONE_MESSAGE,
            _ => AT_A_GLANCE,
        };
        let mut texts = joined_within(parts, most);
        let last = texts.pop().unwrap_or_default();
        let post = |text: String, svg: Option<String>| Post {
            svg,
            ..Post::text(Audience::Channel(channel.clone()), text)
        };
        work.outcome
            .posts
            .extend(texts.into_iter().map(|text| post(text, None)));
        // The picture goes with the board, which comes last.
        work.outcome.posts.push(post(last, picture));
    }
    for (user, text) in direct {
        work.outcome.direct(&user, text);
    }
    Ok(())
}

/// The most characters of a post a player reads at a glance: what happened (the orders
/// revealed, the game's report, whose turn it is) and the board after it go in as few posts
/// as keep each within it, never parting one of them.
pub const AT_A_GLANCE: usize = 1000;

/// The most characters of one message on the platforms the bot knows (Discord's 2,000).
pub const ONE_MESSAGE: usize = 2000;

/// `parts` in order, joined into as few texts as keep each within `most` characters (a part
/// longer than that alone stays whole, in a text of its own).
fn joined_within(parts: Vec<String>, most: usize) -> Vec<String> {
    let mut texts: Vec<String> = Vec::new();
    for part in parts {
        match texts.last_mut() {
            Some(last) if last.chars().count() + 1 + part.chars().count() <= most => {
                last.push('\n');
                last.push_str(&part);
            }
            _ => texts.push(part),
        }
    }
    texts
}

/// The game is over with `ranking`: no more deadlines; the final ranking and the seed's
/// reveal, to post.
pub fn game_over(work: &mut Work<'_>, ranking: &[Vec<Seat>]) -> Vec<String> {
    work.record.status = Status::Over;
    work.record.deadline = None;
    work.record.remind_at = None;
    work.record.end_stand_in();
    let places = places(&work.record, ranking);
    work.outcome.table_event(
        work.record.round,
        format!("game over: {}", places.join("; ")),
    );
    work.outcome.ended = true;
    vec![
        format!("Final ranking:\n{}", places.join("\n")),
        seed_reveal(&work.record, &work.env.defaults.prefix),
        match work.record.settings.practice {
            true => PRACTICE.to_string(),
            false => RATINGS_LINE.to_string(),
        },
    ]
}

/// Posts `text` to the game's channel with the board, as text and as a picture.
pub fn post_board(work: &mut Work<'_>, live: &Live, text: String) {
    let board = live.game.board();
    let to = Audience::Channel(work.record.channel.clone());
    work.outcome.posts.push(Post {
        svg: board
            .svg
            .map(|svg| framed(&svg, &work.record, &live.game.marks())),
        ..Post::text(to, format!("{text}\n{}", board.text))
    });
}

/// The round of a new turn of `seat` in a game of turns: the current one, or the next when
/// `seat` has had its turn in it already or the phase before was not a turn (a round is
/// every seat's turn, whoever began it, so a bonus turn or a seat that left changes nothing).
fn round_of_turn(record: &mut GameRecord, seat: Seat) -> u64 {
    let after_a_turn = matches!(record.phase, Some(Phase::Turn { .. }));
    if !after_a_turn || record.turns_this_round.contains(&seat) {
        record.turns_this_round.clear();
        record.turns_this_round.push(seat);
        record.round + 1
    } else {
        record.turns_this_round.push(seat);
        record.round
    }
}

/// Whether `next` continues `current`: the same turn, or the same orders round (its set of
/// awaited seats may shrink when a player leaves).
fn same_phase(current: Option<&Phase>, next: &Phase) -> bool {
    match (current, next) {
        (Some(Phase::Turn { seat: a }), Phase::Turn { seat: b }) => a == b,
        (Some(Phase::Orders { label: a, .. }), Phase::Orders { label: b, .. }) => a == b,
        (Some(Phase::Over { .. }), Phase::Over { .. }) => true,
        _ => false,
    }
}
