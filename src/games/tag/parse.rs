//! Reading players' DM orders (`bid 12`, `move n ne stomp`, `move nothing stride upgrade`,
//! `upgrade`), forgiving of case, spacing and commas.
//!
//! Decisions: the mode defaults to stride when the order names none; `upgrade` may stand
//! anywhere in a move order (`move n e stomp upgrade`, `upgrade move n e stomp`); a bare
//! `upgrade` means "nothing" on every move, plus the upgrade. Long direction names (`north`,
//! `north-east`, `northeast`) and `stay`/`none`/`wait` for nothing are accepted too.

use super::state::{Dir, Mode, Move, MoveOrder};
use crate::games::order_usage;

/// A parsed DM order, before it is checked against the player's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// A bid.
    Bid(u64),
    /// A movement order; `moves` is empty for a bare `upgrade`.
    Moves(MoveOrder),
}

/// The sentence listing what a movement order may contain.
const MOVE_HELP: &str = "a move order is `move` then one direction per move (n, ne, e, se, s, sw, w, nw, nothing, teleport), then stomp or stride, optionally `upgrade`";

fn word_move(word: &str) -> Option<Move> {
    let dir = match word {
        "n" | "north" => Dir::N,
        "ne" | "northeast" | "north-east" => Dir::NE,
        "e" | "east" => Dir::E,
        "se" | "southeast" | "south-east" => Dir::SE,
        "s" | "south" => Dir::S,
        "sw" | "southwest" | "south-west" => Dir::SW,
        "w" | "west" => Dir::W,
        "nw" | "northwest" | "north-west" => Dir::NW,
        "nothing" | "none" | "stay" | "wait" | "-" => return Some(Move::Nothing),
        "teleport" | "tp" => return Some(Move::Teleport),
        _ => return None,
    };
    Some(Move::Go(dir))
}

/// Reads an order; the error is one sentence for the player.
pub fn parse_order(text: &str) -> Result<Order, String> {
    let lower = text.to_lowercase().replace([',', ';', '.', ':'], " ");
    let words: Vec<&str> = lower.split_whitespace().collect();
    match words.first().copied() {
        Some("bid") => parse_bid(&words[1..]),
        Some("move" | "moves" | "upgrade") => parse_moves(&words),
        // A player who leaves out the word `move` (`teleport stride`) is understood.
        Some(first) if word_move(first).is_some() => parse_moves(&words),
        Some(other) => Err(format!(
            "I don't know the order '{other}'; send {} in the bid round, or `move n stomp` style orders (`upgrade` to buy a move)",
            order_usage(super::ORDERS, "bid")
        )),
        None => Err(format!(
            "the order is empty; send {} or `move <directions> stomp|stride`",
            order_usage(super::ORDERS, "bid")
        )),
    }
}

/// The largest bid: what a score can pay exactly (a larger one could not be taken off it).
pub const MAX_BID: u64 = i64::MAX as u64;

fn parse_bid(rest: &[&str]) -> Result<Order, String> {
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match rest {
        [number] if number.starts_with('-') && digits(&number[1..]) => {
            Err(format!(
                "a bid cannot be negative; send {} with at least your minimum bid",
                order_usage(super::ORDERS, "bid")
            ))
        }
        [number] if digits(number) => match number.parse::<u64>() {
            Ok(bid) if bid <= MAX_BID => Ok(Order::Bid(bid)),
            _ => Err(format!(
                "a bid of {} is more than any score can hold; bid at most your points to stay in the game",
                number.chars().take(30).collect::<String>()
            )),
        },
        [number] => Err(format!(
            "'{}' is not a whole number; a bid is like `bid 12`",
            number.chars().take(60).collect::<String>()
        )),
        [] => Err("the bid has no number; send like `bid 12`".to_string()),
        _ => Err("a bid is one whole number, like `bid 12`".to_string()),
    }
}

fn parse_moves(words: &[&str]) -> Result<Order, String> {
    let mut moves = Vec::new();
    let mut mode = None;
    let mut upgrade = false;
    for &word in words {
        match word {
            "move" | "moves" => {}
            "upgrade" => {
                if upgrade {
                    return Err("only one upgrade per order; write `upgrade` once".to_string());
                }
                upgrade = true;
            }
            "stomp" | "stride" => {
                let m = if word == "stomp" {
                    Mode::Stomp
                } else {
                    Mode::Stride
                };
                if mode.is_some_and(|old| old != m) {
                    return Err(
                        "an order has one mode for the whole round; write stomp or stride once"
                            .to_string(),
                    );
                }
                mode = Some(m);
            }
            _ => match word_move(word) {
                Some(m) => moves.push(m),
                None => return Err(format!("I don't know the word '{word}'; {MOVE_HELP}")),
            },
        }
    }
    if moves.is_empty() && !upgrade {
        return Err(format!("the order has no moves; {MOVE_HELP}"));
    }
    Ok(Order::Moves(MoveOrder {
        moves,
        mode: mode.unwrap_or(Mode::Stride),
        upgrade,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forgiving_words_and_defaults() {
        assert_eq!(parse_order("  BID   12 "), Ok(Order::Bid(12)));
        // The word `move` may be left out.
        assert_eq!(
            parse_order("teleport"),
            Ok(Order::Moves(MoveOrder::new(
                &[Move::Teleport],
                Mode::Stride
            )))
        );
        assert_eq!(
            parse_order("n ne stomp"),
            Ok(Order::Moves(MoveOrder::new(
                &[Move::Go(Dir::N), Move::Go(Dir::NE)],
                Mode::Stomp
            )))
        );
        assert_eq!(
            parse_order("Move N, NorthEast  STOMP"),
            Ok(Order::Moves(MoveOrder::new(
                &[Move::Go(Dir::N), Move::Go(Dir::NE)],
                Mode::Stomp
            )))
        );
        assert_eq!(
            parse_order("move teleport"),
            Ok(Order::Moves(MoveOrder::new(
                &[Move::Teleport],
                Mode::Stride
            )))
        );
        let Ok(Order::Moves(o)) = parse_order("upgrade") else {
            panic!("bare upgrade refused")
        };
        assert!(o.upgrade && o.moves.is_empty());
    }

    #[test]
    fn refusals_name_the_problem() {
        assert_eq!(
            parse_order("bid -3").unwrap_err(),
            "a bid cannot be negative; send `bid <number>` with at least your minimum bid"
        );
        assert_eq!(
            parse_order("bid 18446744073709551615").unwrap_err(),
            "a bid of 18446744073709551615 is more than any score can hold; bid at most your points to stay in the game"
        );
        assert_eq!(
            parse_order("bid 9223372036854775807"),
            Ok(Order::Bid(MAX_BID))
        );
        assert!(parse_order("move n jump").unwrap_err().contains("'jump'"));
        assert!(parse_order("move n stomp stride").is_err());
        assert!(parse_order("move stomp").unwrap_err().contains("no moves"));
        assert!(parse_order("dance").unwrap_err().contains("'dance'"));
    }
}
