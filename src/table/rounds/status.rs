//! What the table says when asked, changing nothing: `!board`, `!status`, and `status` by DM.

use super::describe_phase;
use crate::games::Refusal;
use crate::records::Phase;
use crate::records::{Audience, Status, User};
use crate::table::frame::framed;
use crate::table::outcome::Post;
use crate::table::work::Work;

/// `status` by DM: the player's own situation and stored order.
pub fn dm_status(work: &mut Work<'_>, user: &User) -> Result<(), Refusal> {
    let id = work.record.id;
    let seat = work
        .record
        .seat_of(&user.id)
        .ok_or_else(|| Refusal::new(format!("You are not playing in game #{id}.")))?;
    let mut text = format!(
        "Game #{id} ({}). {}",
        work.record.game,
        describe_phase(&work.record)
    );
    if work.record.state.is_some() {
        let live = work.live()?;
        text.push('\n');
        text.push_str(&live.game.private_status(seat));
    }
    match work.record.orders.get(&seat) {
        Some(order) => text.push_str(&format!(
            "\nYour order: `{}` (receipt `{}`).",
            order.text, order.receipt
        )),
        None if matches!(&work.record.phase, Some(Phase::Orders { seats, .. }) if seats.contains(&seat)) => {
            text.push_str("\nYou have not sent an order yet.")
        }
        None => {}
    }
    work.outcome.direct(&user.id, text);
    Ok(())
}

/// `!board`.
pub fn board(work: &mut Work<'_>) -> Result<(), Refusal> {
    let post = board_post(work, true)?;
    work.outcome.posts.push(post);
    Ok(())
}

/// The board as posted in the channel, text and framed picture, with the prompt of the
/// player to move under it when `prompt` (not for a game that just ended).
pub fn board_post(work: &Work<'_>, prompt: bool) -> Result<Post, Refusal> {
    let live = work.live()?;
    let over = work.record.status == Status::Over;
    // A game the table ended (a draw, the last player left, the GM's `!end`) went on by its
    // own rules: its board would still say whose turn it was.
    let board = match over && !matches!(live.game.phase(), Phase::Over { .. }) {
        true => live.game.final_board(),
        false => live.game.board(),
    };
    let text = match live.game.prompt().filter(|_| prompt && !over) {
        Some(prompt) => format!("{}\n{prompt}", board.text),
        None => board.text,
    };
    // A game the GM ended stopped mid-turn: its board would still say whose turn it was.
    let text = match work.record.ended_by_gm() {
        true => format!("The GM ended this game; its board as it stood then:\n{text}"),
        false => text,
    };
    let svg = board
        .svg
        .map(|svg| framed(&svg, &work.record, &live.game.marks()));
    Ok(Post {
        svg,
        ..Post::text(Audience::Channel(work.record.channel.clone()), text)
    })
}

/// `!status`.
pub fn status(work: &mut Work<'_>) -> Result<(), Refusal> {
    let record = &work.record;
    let seated: Vec<String> = record
        .seats
        .iter()
        .filter(|s| s.present)
        .map(|s| s.user.name.clone())
        .collect();
    let mut text = format!(
        "Game #{} ({}), GM {}{}. Players: {}.",
        record.id,
        record.game,
        record.gm.name,
        crate::table::card::round_words(record),
        if seated.is_empty() {
            "none yet".to_string()
        } else {
            seated.join(", ")
        }
    );
    if !record.waitlist.is_empty() {
        let names: Vec<&str> = record
            .waitlist
            .iter()
            .map(|s| s.user.name.as_str())
            .collect();
        text.push_str(&format!(" Waitlist: {}.", names.join(", ")));
    }
    text.push(' ');
    text.push_str(&describe_phase(record));
    if record.settings.practice {
        text.push('\n');
        text.push_str(super::PRACTICE);
    }
    let channel = record.channel.clone();
    work.outcome.channel(&channel, text);
    Ok(())
}
