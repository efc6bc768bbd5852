//! Public actions of the game in the channel (`!move 2 5`) by the player whose turn it is,
//! and the game's public questions (`!tiles`).

use super::change::after_change;
use super::moments;
use super::orders::check_sent_in_time;
use super::running;
use crate::games::{self, Refusal};
use crate::records::Phase;
use crate::records::{EventBody, LogEvent, LogVisibility, User};
use crate::table::work::Work;

/// A public action of the game (`!move ...`) by the player whose turn it is.
pub fn act(work: &mut Work<'_>, user: &User, typed: &str, args: &str) -> Result<bool, Refusal> {
    let rules = work.env.catalogue.find(&work.record.game);
    // An alias the game declares is read as the command it stands for.
    let declared = rules.and_then(|rules| games::declared(rules.commands(), typed));
    let word = declared.map_or(typed, |command| command.name);
    if work.record.state.is_some() {
        let live = work.live()?;
        if let Some(answer) = live.game.query(word, args) {
            let channel = work.record.channel.clone();
            work.outcome.channel(&channel, answer?);
            return Ok(false);
        }
    }
    running(work)?;
    let id = work.record.id;
    let prefix = work.env.defaults.prefix.clone();
    if declared.is_none() {
        return Err(Refusal::new(format!(
            "There is no command `{prefix}{}` in {}. `{prefix}help` lists them.",
            crate::chat::parse::quote(word),
            work.record.game
        )));
    }
    let seat = work
        .record
        .seat_of(&user.id)
        .ok_or_else(|| Refusal::new(format!("You are not playing in game #{id}.")))?;
    match &work.record.phase {
        Some(Phase::Turn { seat: turn }) if *turn == seat => {}
        Some(Phase::Turn { seat: turn }) => {
            return Err(Refusal::new(format!(
                "It is {}'s turn, not yours.",
                work.record.name(*turn)
            )))
        }
        Some(Phase::Orders { label, .. }) => {
            return Err(Refusal::new(format!(
                "This round's {label} go to me by direct message, not in the channel."
            )))
        }
        _ => return Err(Refusal::new("Nothing can be played now.")),
    }
    check_sent_in_time(
        work,
        &format!(
            "`{prefix}{}`",
            crate::chat::parse::quote(format!("{word} {args}").trim())
        ),
    )?;
    let mut live = work.live()?;
    let mut ctx = work.ctx(&mut live.dice);
    let events = live.game.act(seat, word, args, &mut ctx)?;
    super::orders::answered_in_time(work, seat);
    let round = work.record.round;
    moments::answered(work, seat, &format!("`{prefix}{word}`"), true);
    work.outcome.events.push(LogEvent {
        round,
        visibility: LogVisibility::Public,
        body: EventBody::Table(format!(
            "{} played `{prefix}{word} {args}`",
            work.record.name(seat)
        )),
    });
    let turn_before = (
        work.record.round,
        work.record.phase.clone(),
        work.record.turns_begun,
    );
    // A turn the computer played for a silent player (`nmr=bot`) is one the player missed.
    let played = (!work.record.standing_in.contains(&seat)).then(|| work.sent_in_time());
    after_change(work, &mut live, events, None, false)?;
    let turn_after = (
        work.record.round,
        work.record.phase.clone(),
        work.record.turns_begun,
    );
    if turn_after != turn_before {
        moments::turn_ended(work, seat, played);
    }
    Ok(true)
}
