//! `!start`: the GM starts the game with the players signed up.

use super::{Command, Run, Who};
use crate::dice::Dice;
use crate::games::{Player, Refusal};
use crate::records::{GameRecord, Status};
use crate::table::rounds;
use crate::table::seats::seats_allowed;
use crate::table::work::{Live, Work};

/// `!start`.
pub const COMMAND: Command = Command::new(
    "start",
    Who::Gm,
    "GM: starts the game with the players signed up",
    Run::Apply(|work, _, _| start(work)),
);

/// `!start`: the game is set up with the players signed up, and the seed's commitment posted.
pub(super) fn start(work: &mut Work<'_>) -> Result<bool, Refusal> {
    let id = work.record.id;
    if work.record.status != Status::SignUp {
        return Err(Refusal::new(format!("Game #{id} has already started.")));
    }
    let rules = work
        .env
        .catalogue
        .find(&work.record.game)
        .ok_or_else(|| Refusal::new(format!("Game #{id} has an unknown game.")))?;
    let players = seated(&work.record);
    let (least, most) = seats_allowed(
        rules,
        &work.record.all_options(),
        work.record.settings.revision,
    );
    if players.len() < least {
        return Err(Refusal::new(format!(
            "{} needs at least {least} players; {} signed up.",
            rules.name(),
            players.len()
        )));
    }
    if let Some(most) = most.filter(|most| players.len() > *most) {
        return Err(Refusal::new(format!(
            "{} takes at most {most} players; {} signed up.",
            rules.name(),
            players.len()
        )));
    }
    let mut dice = Dice::new(work.record.settings.seed);
    let options = work.record.all_options();
    let mut ctx = work.ctx(&mut dice);
    let (game, events) = rules.start(&options, &players, &mut ctx)?;
    work.record.status = Status::Running;
    // What setup says belongs to the first round in the game's own numbering (50-Tile
    // Circuit's "Turn 1: the dice are rolled" is in `!log 1`).
    work.record.round = game.round().unwrap_or(0);
    let mut live = Live { rules, game, dice };
    let mut text = format!(
        "Game #{id} ({}) starts with {}.\nSeed commitment: `{}`, the SHA-256 of {}. The seed is revealed at the end so anyone can check it against this; then `{prefix}audit` posts a page that checks every roll.",
        rules.name(),
        players.iter().map(|p| match &p.symbol {
            Some(symbol) => format!("{} ({symbol})", p.name),
            None => p.name.clone(),
        }).collect::<Vec<_>>().join(", "),
        work.record.settings.commitment(),
        work.record.settings.committed_bytes(),
        prefix = work.env.defaults.prefix,
    );
    if !work.record.secret_options.is_empty() {
        let shown: Vec<String> = work
            .record
            .secret_options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        text.push_str(&format!("\nThe GM's secret setup: {}.", shown.join(" ")));
    }
    if work.record.settings.practice {
        text.push_str(&format!("\n{}", rounds::PRACTICE));
    }
    work.outcome.table_event(
        0,
        format!(
            "game started; seed commitment {}",
            work.record.settings.commitment()
        ),
    );
    rounds::after_change(work, &mut live, events, Some(text), false)?;
    Ok(true)
}

/// The players as the game sees them: each present seat with its name and the symbol or
/// colour asked for.
fn seated(record: &GameRecord) -> Vec<Player> {
    record
        .seats
        .iter()
        .enumerate()
        .filter(|(_, seat)| seat.present)
        .map(|(seat, sat)| Player {
            seat,
            name: sat.user.name.clone(),
            symbol: sat.symbol.clone(),
            computer: sat.computer.is_some(),
        })
        .collect()
}
