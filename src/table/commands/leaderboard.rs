//! `!leaderboard [game]`: the ten best-rated players of a game on this server (the channel's
//! game if none is named), among those with enough rated games (`table.leaderboard_games`),
//! as an embed with a small bar chart.

use super::{Answers, Asked, Command, Reply, SlashOption, Who, Words};
use crate::chat::parse::{quote, ParseError};
use crate::games::count;
use crate::picture::escape;
use crate::records::{is_computer_id, Audience};
use crate::store::RatingRow;
use crate::table::outcome::{Outcome, Post};
use crate::table::ratings::figure;

/// `!leaderboard`.
pub const COMMAND: Command = Command::answering::<Named>(
    "leaderboard",
    Who::Anyone,
    "leaderboard [game]",
    "the ten best-rated players of a game on this server, with a chart",
)
.aliases(&["lb", "top"])
.looks_back()
.slash(&[SlashOption::game(
    "game",
    "Which game (the one in this channel if none)",
)]);

/// How many players the board lists.
const TOP: usize = 10;

/// The game named, in lowercase (`None`: the channel's).
struct Named(Option<String>);

impl Words for Named {
    fn read(args: &str, prefix: &str) -> Result<Named, ParseError> {
        match args.split_whitespace().collect::<Vec<_>>().as_slice() {
            [] => Ok(Named(None)),
            [game] => Ok(Named(Some(game.to_lowercase()))),
            _ => Err(ParseError(format!(
                "`{prefix}leaderboard` takes one game at most, like `{prefix}leaderboard tag`"
            ))),
        }
    }
}

/// The best `TOP` of `rows` with at least `least` rated games, best first (a tie goes to
/// the surer rating, then the name).
fn top(mut rows: Vec<RatingRow>, least: u32) -> Vec<RatingRow> {
    rows.retain(|row| row.rating.games >= least);
    rows.sort_by(|a, b| {
        b.rating
            .shown()
            .total_cmp(&a.rating.shown())
            .then(a.rating.sigma.total_cmp(&b.rating.sigma))
            .then(a.name.cmp(&b.name))
    });
    rows.truncate(TOP);
    rows
}

/// The board as a picture: one bar per player from a zero line, its length in proportion to
/// the rating (a negative rating's bar goes left of the line).
fn chart(game: &str, rows: &[RatingRow]) -> String {
    const WIDTH: f64 = 480.0;
    const ROW: f64 = 26.0;
    const LEFT: f64 = 190.0;
    let top = 40.0;
    let height = top + ROW * rows.len() as f64 + 12.0;
    let figures: Vec<f64> = rows.iter().map(|row| row.rating.shown()).collect();
    let low = figures.iter().copied().fold(0.0, f64::min);
    let high = figures.iter().copied().fold(0.0, f64::max);
    let span = match high - low {
        span if span > 0.0 => span,
        _ => 1.0,
    };
    let room = WIDTH - LEFT - 70.0;
    let zero = LEFT + room * (-low / span);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" font-family=\"DejaVu Sans\">\
         <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\
         <text x=\"12\" y=\"26\" font-size=\"18\" font-weight=\"bold\" fill=\"#222222\">{} leaderboard</text>\
         <line x1=\"{zero:.1}\" y1=\"{:.0}\" x2=\"{zero:.1}\" y2=\"{:.0}\" stroke=\"#888888\"/>",
        escape(game),
        top,
        height - 8.0
    );
    for (index, (row, value)) in rows.iter().zip(&figures).enumerate() {
        let y = top + ROW * index as f64;
        let length = (value.abs() / span * room).max(1.0);
        let start = if *value < 0.0 { zero - length } else { zero };
        let name: String = row.name.chars().take(20).collect();
        svg.push_str(&format!(
            "<text x=\"12\" y=\"{:.0}\" font-size=\"14\" fill=\"#222222\">{}. {}</text>\
             <rect x=\"{start:.1}\" y=\"{:.0}\" width=\"{length:.1}\" height=\"16\" fill=\"#4a7bd0\"/>\
             <text x=\"{:.1}\" y=\"{:.0}\" font-size=\"13\" fill=\"#222222\">{}</text>",
            y + 15.0,
            index + 1,
            escape(&name),
            y + 3.0,
            zero.max(start + length) + 6.0,
            y + 15.0,
            figure(&row.rating)
        ));
    }
    svg.push_str("</svg>");
    svg
}

impl Answers for Named {
    fn answer(self, asked: Asked<'_>) -> Reply<'_> {
        let named = self.0;
        Box::pin(async move {
            let prefix = asked.prefix().to_string();
            let Some(name) = named.or_else(|| asked.game.map(|game| game.record.game.clone()))
            else {
                return Ok(asked.refuse(format!(
                    "name a game, like `{prefix}leaderboard tag` (`{prefix}games` lists them)."
                )));
            };
            let Some(rules) = asked.table.catalogue().find(&name) else {
                return Ok(asked.refuse(format!(
                    "'{}' is not a game this bot hosts; `{prefix}games` lists them.",
                    quote(&name)
                )));
            };
            let game = rules.name();
            let least = asked.table.defaults().leaderboard_games;
            let rows = top(asked.tx.ratings_on(asked.server, Some(game)).await?, least);
            let mut outcome = Outcome::default();
            if rows.is_empty() {
                outcome.channel(
                    asked.channel,
                    format!(
                        "Nobody has {} of {game} on this server yet: the leaderboard lists players once they have.",
                        count(least as usize, "rated game")
                    ),
                );
                return Ok(outcome);
            }
            let mut lines = vec![format!(
                "Leaderboard of {game} on this server (players with at least {}; `{prefix}help stats` says how a rating is counted):",
                count(least as usize, "rated game")
            )];
            for (index, row) in rows.iter().enumerate() {
                lines.push(format!(
                    "{}. {} {} ({})",
                    index + 1,
                    row.name,
                    figure(&row.rating),
                    count(row.rating.games as usize, "rated game")
                ));
            }
            if rows.iter().any(|row| is_computer_id(&row.player)) {
                lines.push(
                    "A computer's line stands for every computer seat of its level on this server: they are rated as one player.".to_string(),
                );
            }
            // Shown as an embed: the title, the text as its description, the chart in it.
            let to = Audience::Channel(asked.channel.to_string());
            outcome.posts.push(Post {
                svg: Some(chart(game, &rows)),
                ..Post::titled(to, format!("{game} leaderboard"), lines.join("\n"))
            });
            Ok(outcome)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Rating;

    fn row(name: &str, shown: f64) -> RatingRow {
        RatingRow {
            game: "tag".to_string(),
            player: name.to_string(),
            name: name.to_string(),
            rating: Rating {
                mu: shown + 3.0,
                sigma: 1.0,
                games: 3,
            },
        }
    }

    /// The number in the attribute `name="..."` that follows `from` in `text`.
    fn number_after(text: &str, from: &str, name: &str) -> Option<f64> {
        let rest = &text[text.find(from)?..];
        let value = rest.split(&format!("{name}=\"")).nth(1)?;
        value.split('"').next()?.parse().ok()
    }

    /// Each bar of the chart (a `<rect>` after the background's): (x, width).
    fn bars(svg: &str) -> Vec<(f64, f64)> {
        svg.split("<rect x=")
            .skip(1)
            .filter_map(|bar| {
                let bar = format!("<rect x={bar}");
                Some((
                    number_after(&bar, "<rect", "x")?,
                    number_after(&bar, "<rect", "width")?,
                ))
            })
            .collect()
    }

    #[test]
    fn bars_grow_from_a_zero_line_in_proportion_negative_to_the_left() {
        let svg = chart(
            "tag",
            &[
                row("ann", 6.0),
                row("bob", 3.0),
                row("cat", -0.7),
                row("dan", -2.3),
            ],
        );
        let Some(zero) = number_after(&svg, "<line", "x1") else {
            panic!("no zero line: {svg}");
        };
        let [ann, bob, cat, dan] = bars(&svg)[..] else {
            panic!("four bars: {svg}");
        };
        // Positive bars start at the zero line, negative ones end there.
        assert!(
            (ann.0 - zero).abs() < 0.2 && (bob.0 - zero).abs() < 0.2,
            "{svg}"
        );
        assert!((cat.0 + cat.1 - zero).abs() < 0.2, "{svg}");
        assert!((dan.0 + dan.1 - zero).abs() < 0.2, "{svg}");
        // Lengths in proportion: 6 is twice 3; -2.3 is longer than -0.7, by as much.
        assert!((ann.1 / bob.1 - 2.0).abs() < 0.01, "{svg}");
        assert!((dan.1 / cat.1 - 2.3 / 0.7).abs() < 0.02, "{svg}");
    }
}
