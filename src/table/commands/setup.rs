//! `setup key=value ...` by DM: the GM's secret options for a game in sign-up (a board the
//! players must not see before the start), and the one place a GM may choose the dice's seed
//! on Discord (which makes the game a practice game).

use super::{Among, Command, Direct, DirectApplies, DmHelp, SlashOption, Who, Words};
use crate::chat::parse::{parse_options, ParseError};
use crate::dice::Seed;
use crate::games::Refusal;
use crate::records::{Status, User};
use crate::table::options::{PRIVATE_SEED_FROM, TABLE_OPTIONS};
use crate::table::rounds;
use crate::table::work::Work;

/// `setup`.
pub const COMMAND: Command = Command::by_dm_only(
    "setup",
    Who::Gm,
    "GM: sets a game's secret options before the start: `setup board=7x7`; `setup seed=7` chooses its dice (a practice game, not rated)",
    Direct::applying::<Secret>(
        "setup <key=value> ...",
        DmHelp::BeforePlay(
            "Running a game in sign-up? `setup key=value ...` sets its secret options.",
        ),
    )
    .among(Among::MySignUps)
    .secret()
    .listed(5),
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

/// The secret options, at least one.
struct Secret(Vec<(String, String)>);

impl Words for Secret {
    fn read(args: &str, _prefix: &str) -> Result<Secret, ParseError> {
        let options = parse_options(args.split_whitespace(), "setup")?;
        if options.is_empty() {
            return Err(ParseError(
                "`setup` takes the game's secret options as key=value, like `setup board=7x7 straight=8`".into(),
            ));
        }
        Ok(Secret(options))
    }
}

impl DirectApplies for Secret {
    fn apply(self, work: &mut Work<'_>, user: &User) -> Result<bool, Refusal> {
        secret_setup(work, user, &self.0)
    }
}

/// The GM's secret setup by DM, before the start.
fn secret_setup(
    work: &mut Work<'_>,
    user: &User,
    options: &[(String, String)],
) -> Result<bool, Refusal> {
    let record = &work.record;
    if user.id != record.gm.id {
        return Err(Refusal::new(format!(
            "Only the GM of game #{} ({}) can send its secret setup.",
            record.id, record.gm.name
        )));
    }
    if record.status != Status::SignUp {
        return Err(Refusal::new(format!(
            "Game #{} has already started; its setup is fixed.",
            record.id
        )));
    }
    let rules = work
        .env
        .catalogue
        .find(&record.game)
        .ok_or_else(|| Refusal::new(format!("Game #{} has an unknown game.", record.id)))?;
    let mut secret = record.secret_options.clone();
    let (mut seed, mut salt) = (None, None);
    for (key, value) in options {
        // Games opened before rules revision 6 refuse it, as they did; the salt is the
        // table's, logged with the seed.
        if record.settings.revision >= PRIVATE_SEED_FROM {
            let read = || Seed::parse(value).map_err(|e| Refusal::new(e.to_string()));
            match key.as_str() {
                "seed" => {
                    seed = Some(read()?);
                    continue;
                }
                "salt" => {
                    salt = Some(read()?);
                    continue;
                }
                _ => {}
            }
        }
        if TABLE_OPTIONS.contains(&key.as_str()) {
            return Err(Refusal::new(format!(
                "`{key}` is a table option: set it in the channel with `!new`, not in the secret setup."
            )));
        }
        secret.insert(key.clone(), value.clone());
    }
    let mut merged = record.options.clone();
    merged.extend(secret.clone());
    rules.check_options(&merged)?;
    let shown: Vec<String> = secret.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let (id, gm) = (work.record.id, work.record.gm.id.clone());
    let newly_practice = seed.is_some() && !work.record.settings.practice;
    if let Some(seed) = seed {
        work.record.settings.seed = seed;
        work.record.settings.salt = salt;
        work.record.settings.practice = true;
    }
    work.record.secret_options = secret;
    let mut stored = Vec::new();
    if !shown.is_empty() {
        stored.push(format!(
            "{}. Nobody else sees it until `!start`",
            shown.join(" ")
        ));
    }
    if seed.is_some() {
        stored.push("the dice seed you chose, which stays secret until the end. Since you can foresee the dice, the game is a practice game: the channel is told, and it is not rated".to_string());
    }
    work.outcome.direct(
        &gm,
        format!("Secret setup for game #{id} stored: {}.", stored.join("; ")),
    );
    if newly_practice {
        let channel = work.record.channel.clone();
        work.outcome.channel(
            &channel,
            format!(
                "Game #{id}: the GM chose the dice seed privately. {}",
                rounds::PRACTICE
            ),
        );
    }
    let logged: Vec<String> = shown
        .into_iter()
        .chain(seed.map(|seed| format!("seed={}", seed.to_hex())))
        .collect();
    work.outcome.events.push(crate::records::LogEvent {
        round: 0,
        visibility: crate::records::LogVisibility::Sealed,
        body: crate::records::EventBody::Table(format!("secret setup: {}", logged.join(" "))),
    });
    Ok(true)
}
