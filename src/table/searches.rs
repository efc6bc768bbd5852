//! Searches beside the table. A game that needs one (Short Circuit's solver on an impossible
//! call) or a GM who asks one (a hint by DM) leaves it asked in the record; whoever runs the
//! table (the Discord adapter on a thread of its own, the console at once) does the work and
//! brings the verdict back as an input of its own, logged, so replay reads the verdict
//! instead of searching again. Meanwhile no other game waits, and the game that asked stands
//! still: nobody may act, and its clock stops until the verdict comes.

use super::rounds::{after_change, turn_ended};
use super::work::{Live, PhaseHook, Work};
use crate::games::Refusal;
use crate::records::Phase;
use crate::records::{SearchAsked, Status, User};

/// The phase engine's hook for searches: a search the game needs is asked when a change
/// calls for it, and the GM's question by DM (a hint) is asked of one.
pub(crate) struct Searches;

impl PhaseHook for Searches {
    fn changed(&self, work: &mut Work<'_>, live: &Live) -> Option<String> {
        note_pending(work, live)
    }

    fn gm_message(&self, work: &mut Work<'_>, user: &User, text: &str) -> Result<bool, Refusal> {
        ask(work, user, text)
    }
}

/// Notes the search the game now waits for, if it has not been asked yet: asked now, and
/// the phase's clock stops (no deadline, no reminder) until its verdict. Returns what the
/// channel is told.
fn note_pending(work: &mut Work<'_>, live: &Live) -> Option<String> {
    let search = live.game.pending_search()?;
    if work
        .record
        .searches
        .iter()
        .any(|asked| asked.key == search.key)
    {
        return None;
    }
    work.record.searches.push(SearchAsked {
        key: search.key,
        asked: work.env.when_sent(),
        by_gm: false,
    });
    work.record.deadline = None;
    work.record.remind_at = None;
    // The computer's time for silent players stops with the clock (it plays no turn while
    // the game waits for the verdict, which ends the phase).
    work.record.stand_in_until = None;
    Some(match search.sealed {
        true => "The solver is judging the call; its verdict stays sealed until the game ends, and the clock stands still until it has judged.",
        false => "The solver is judging; its verdict follows, and the clock stands still meanwhile.",
    }.to_string())
}

/// The GM's private question by DM (Short Circuit's `hint`): asked of a search, whose verdict
/// comes back by DM. `Ok(false)`: the game has no such question.
fn ask(work: &mut Work<'_>, user: &User, text: &str) -> Result<bool, Refusal> {
    let id = work.record.id;
    let live = work.live()?;
    let Some(search) = live.game.gm_query(text) else {
        return Ok(false);
    };
    if work
        .record
        .searches
        .iter()
        .any(|asked| asked.key == search.key)
    {
        return Err(Refusal::new(format!(
            "Game #{id}: the solver is still working on your `{}`; its answer comes by DM.",
            search.key
        )));
    }
    work.record.searches.push(SearchAsked {
        key: search.key.clone(),
        asked: work.env.when_sent(),
        by_gm: true,
    });
    work.outcome.direct(
        &user.id,
        format!(
            "Game #{id}: the solver is working on your `{}`; its answer follows by DM.",
            search.key
        ),
    );
    Ok(true)
}

/// A search's verdict came back: the GM's answer goes by DM; the game's verdict is applied,
/// and the game goes on from it (the turn it ends counts for its player as the call did).
/// A verdict nobody waits for any more (the game ended meanwhile, another process brought
/// it first) changes nothing.
pub fn verdict(work: &mut Work<'_>, key: &str, verdict: &str) -> Result<bool, Refusal> {
    let waiting = work
        .record
        .searches
        .iter()
        .position(|asked| asked.key == key);
    let (Some(at), false) = (waiting, work.record.status == Status::Over) else {
        return Ok(false);
    };
    let asked = work.record.searches.remove(at);
    let id = work.record.id;
    if asked.by_gm {
        let gm = work.record.gm.id.clone();
        work.outcome.direct(&gm, format!("Game #{id}: {verdict}"));
        return Ok(true);
    }
    let mut live = work.live()?;
    let turn_before = (
        work.record.round,
        work.record.phase.clone(),
        work.record.turns_begun,
    );
    let in_time = work
        .record
        .first_deadline
        .is_none_or(|deadline| asked.asked <= deadline);
    let mut ctx = work.ctx(&mut live.dice);
    let events = live.game.verdict(key, verdict, &mut ctx)?;
    after_change(work, &mut live, events, None, true)?;
    let turn_after = (
        work.record.round,
        work.record.phase.clone(),
        work.record.turns_begun,
    );
    if let (Some(Phase::Turn { seat }), true) = (&turn_before.1, turn_after != turn_before) {
        turn_ended(work, *seat, Some(in_time));
    }
    Ok(true)
}
