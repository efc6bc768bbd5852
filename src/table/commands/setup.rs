//! `setup key=value ...` by DM: the GM's secret options for a game in sign-up (a board the
//! players must not see before the start), and the one place a GM may choose the dice's seed
//! on Discord (which makes the game a practice game).

use super::{Among, Command, Direct, DmHelp, SlashOption, Who};
use crate::chat::parse::{parse_options, ParseError};
use crate::dice::Seed;
use crate::games::Refusal;
use crate::records::User;
use crate::table::lifecycle;
use crate::table::work::Work;

/// `setup`.
pub const COMMAND: Command = Command::by_dm_only(
    "setup",
    Who::Gm,
    "GM: sets a game's secret options before the start: `setup board=7x7`; `setup seed=7` chooses its dice (a practice game, not rated)",
    Direct::new(
        "setup <key=value> ...",
        DmHelp::BeforePlay(
            "Running a game in sign-up? `setup key=value ...` sets its secret options.",
        ),
        run,
    )
    .reads(check)
    .among(Among::MySignUps)
    .secret(),
)
.slash(&[
    SlashOption::text("options", "The secret options, like: board=7x7 straight=8").required(),
    SlashOption::my_sign_up(
        "game",
        "Which of your games in sign-up, when you run several",
    ),
])
.private();

/// The words of `setup` as the table logs them: a seed the GM chooses comes with a salt of 32
/// bytes the table draws (any salt typed is dropped), hashed with it into the commitment so a
/// guess of a small seed cannot be checked against it. Other words are logged as typed.
pub fn salted(text: &str) -> String {
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|word| !word.to_ascii_lowercase().starts_with("salt="))
        .collect();
    let mut logged = words.join(" ");
    if words
        .iter()
        .any(|word| word.to_ascii_lowercase().starts_with("seed="))
    {
        logged.push_str(&format!(" salt={}", Seed::random().to_hex()));
    }
    logged
}

/// The options, at least one.
fn options(args: &str) -> Result<Vec<(String, String)>, ParseError> {
    let options = parse_options(args.split_whitespace(), "setup")?;
    if options.is_empty() {
        return Err(ParseError(
            "`setup` takes the game's secret options as key=value, like `setup board=7x7 straight=8`".into(),
        ));
    }
    Ok(options)
}

fn check(args: &str, _prefix: &str) -> Result<(), ParseError> {
    options(args).map(drop)
}

fn run(work: &mut Work<'_>, user: &User, args: &str) -> Result<bool, Refusal> {
    let options = options(args).map_err(super::unreadable)?;
    lifecycle::secret_setup(work, user, &options)
}
