//! A post's card: what a platform with rich messages shows beside the text of a post (a
//! title, one field per player, the deadline) and the few options a player picks among,
//! offered as buttons. Built inside the transaction that made the post, so it shows the game
//! as the post does.

use crate::chat::lists::names_within;
use crate::games::{Choice, Seat};
use crate::records::Phase;
use crate::records::{Button, Card, Field, GameRecord, Status, MAX_FIELDS, VALUE_LIMIT};

/// The card of a board post: the game's title, one field per seated player, the deadline.
pub fn board_card(record: &GameRecord) -> Card {
    let phase = match (&record.status, &record.phase) {
        (Status::SignUp, _) => "sign-up".to_string(),
        (Status::Paused { .. }, _) => "paused".to_string(),
        (Status::Over, _) | (_, Some(Phase::Over { .. })) => "over".to_string(),
        (_, Some(Phase::Turn { seat })) => format!("{}'s turn", record.name(*seat)),
        (_, Some(Phase::Orders { label, .. })) => format!("{label} awaited"),
        (_, None) => "running".to_string(),
    };
    let title = format!(
        "Game #{}: {}{} ({phase})",
        record.id,
        record.game,
        round_words(record)
    );
    let present: Vec<(Seat, &crate::records::SeatRecord)> = record
        .seats
        .iter()
        .enumerate()
        .filter(|(_, seat)| seat.present)
        .collect();
    let mut fields: Vec<Field> = present
        .iter()
        .map(|(seat, who)| Field {
            name: match &who.symbol {
                Some(symbol) => format!("{} ({symbol})", who.user.name),
                None => who.user.name.clone(),
            },
            value: seat_value(record, *seat),
        })
        .collect();
    // One field says who the game waits for; the players' fields share the rest.
    let room = MAX_FIELDS - 1;
    if fields.len() > room {
        let more = fields.len() - (room - 1);
        fields.truncate(room - 1);
        fields.push(Field {
            name: "…".to_string(),
            value: format!("and {more} more players"),
        });
    }
    if record.status == Status::Running {
        let names: Vec<String> = record.awaited().iter().map(|s| record.name(*s)).collect();
        let value = match (&record.phase, names.is_empty()) {
            (Some(Phase::Orders { .. }), true) => "nobody: every order is in".to_string(),
            (_, true) => "nobody".to_string(),
            (_, false) => names_within(&names, VALUE_LIMIT),
        };
        fields.insert(
            0,
            Field {
                name: WAITING_FOR.to_string(),
                value,
            },
        );
    }
    Card {
        title: Some(title),
        fields,
        deadline: record.deadline,
        tz: record.settings.tz.clone(),
        buttons: Vec::new(),
    }
}

/// A final ranking as "1. ann", "2. ben, cat" (seats sharing a place together).
pub fn places(record: &GameRecord, ranking: &[Vec<Seat>]) -> Vec<String> {
    ranking
        .iter()
        .enumerate()
        .map(|(place, seats)| {
            let names: Vec<String> = seats.iter().map(|s| record.name(*s)).collect();
            format!("{}. {}", place + 1, names.join(", "))
        })
        .collect()
}

/// The name of the card field that says who the game waits for.
pub const WAITING_FOR: &str = "Waiting for";

/// ", round N" in the game's own numbering and word (Circuit's ", turn N"), or nothing
/// before the first round (TAG's bids).
pub fn round_words(record: &GameRecord) -> String {
    if record.round == 0 {
        return String::new();
    }
    let word = super::catalogue::Catalogue::standard()
        .find(&record.game)
        .map_or("round", |rules| rules.round_word());
    format!(", {word} {}", record.round)
}

fn seat_value(record: &GameRecord, seat: Seat) -> String {
    match &record.phase {
        Some(Phase::Turn { seat: mover }) if *mover == seat => "to act".to_string(),
        Some(Phase::Orders { seats, .. }) if seats.contains(&seat) => {
            if record.orders.contains_key(&seat) {
                "order in".to_string()
            } else {
                "order awaited".to_string()
            }
        }
        Some(Phase::Over { ranking }) => ranking
            .iter()
            .position(|group| group.contains(&seat))
            .map(|place| format!("place {}", place + 1))
            .unwrap_or_else(|| "out".to_string()),
        _ if record.status == Status::SignUp => "signed up".to_string(),
        _ => "waiting".to_string(),
    }
}

/// The sign-up button: anyone may press it to `join`.
pub fn join_button(prefix: &str) -> Button {
    Button {
        label: "Join".to_string(),
        text: format!("{prefix}join"),
        direct: false,
        only: None,
    }
}

/// Buttons for a seat's choices; only `user` may press them. Public actions get the channel
/// prefix; secret orders get `#<game>` in front when the player sits in several games.
pub fn choice_buttons(
    choices: Vec<Choice>,
    user: &str,
    prefix: &str,
    game_tag: Option<i64>,
) -> Vec<Button> {
    choices
        .into_iter()
        .map(|choice| Button {
            label: choice.label,
            text: match (choice.secret, game_tag) {
                (false, _) => format!("{prefix}{}", choice.command),
                (true, Some(id)) => format!("#{id} {}", choice.command),
                (true, None) => choice.command,
            },
            direct: choice.secret,
            only: Some(user.to_string()),
        })
        .collect()
}
