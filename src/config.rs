//! Settings: `config/default.toml` (built into the program), a file given with `--config`
//! over it, and environment variables `REFEREE_<SECTION>_<KEY>` over both.

use crate::backup::BackupSettings;
use crate::duration::{a_year, parse_duration_within};
use crate::store::StoreSettings;
use crate::table::TableDefaults;
use chrono::Duration;
use serde::Deserialize;
use std::path::PathBuf;
use thiserror::Error;

/// The settings file shipped with the program.
pub const DEFAULT_TOML: &str = include_str!("../config/default.toml");

/// Why the settings could not be read: one sentence naming the file, line and column, or
/// the setting.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The settings file is not TOML.
    #[error("{file}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// Its line (from 1).
        line: usize,
        /// Its column (from 1).
        column: usize,
        /// What the TOML reader said.
        message: String,
    },
    /// A setting this program does not have.
    #[error("there is no setting {key}; the settings are those of config/default.toml")]
    Unknown {
        /// The setting, `section.key`.
        key: String,
    },
    /// A setting with a value of the wrong kind or out of range.
    #[error("setting {key} takes {expected}; got '{value}'")]
    Value {
        /// The setting, `section.key`.
        key: String,
        /// What was given.
        value: String,
        /// What it takes.
        expected: String,
    },
}

impl ConfigError {
    fn value(key: &str, value: impl std::fmt::Display, expected: &str) -> ConfigError {
        ConfigError::Value {
            key: key.to_string(),
            value: value
                .to_string()
                .chars()
                .filter(|c| !c.is_control())
                .take(60)
                .collect(),
            expected: expected.to_string(),
        }
    }
}

#[derive(Debug, Deserialize)]
struct RawConfig {
    database: RawDatabase,
    table: RawTable,
    local: RawLocal,
    discord: RawDiscord,
    health: RawHealth,
    log: RawLog,
}

#[derive(Debug, Deserialize)]
struct RawHealth {
    listen: String,
    outbox_limit: String,
}

#[derive(Debug, Deserialize)]
struct RawLog {
    format: String,
}

#[derive(Debug, Deserialize)]
struct RawDiscord {
    api_url: String,
    guilds: Vec<String>,
    retry: String,
    attempts: i64,
    request_timeout: String,
    requests_per_second: i64,
    outage_notice: String,
    admins: Vec<String>,
    shards: i64,
    shard_ids: String,
}

#[derive(Debug, Deserialize)]
struct RawDatabase {
    url: String,
    busy_timeout: String,
    synchronous: String,
    keep_pictures: String,
    keep_message_ids: String,
    lease: String,
    backup_every: String,
    backups_kept: u32,
    backup_folder: String,
}

#[derive(Debug, Deserialize)]
struct RawTable {
    prefix: String,
    reminder: String,
    early: bool,
    default_deadline: String,
    late_after: String,
    tick: String,
    flood: String,
    games_per_gm: i64,
    search_steps: i64,
    computer_think: String,
    computer_rollouts: i64,
    leaderboard_games: i64,
}

#[derive(Debug, Deserialize)]
struct RawLocal {
    admins: Vec<String>,
}

/// Every setting, read and checked.
#[derive(Clone, Debug)]
pub struct Config {
    /// How the database is opened.
    pub store: StoreSettings,
    /// Table defaults.
    pub table: TableDefaults,
    /// How often a live bot checks deadlines.
    pub tick: std::time::Duration,
    /// Console users with admin powers.
    pub admins: Vec<String>,
    /// How `referee run` talks to Discord.
    pub discord: DiscordSettings,
    /// The rotating backups `referee run` keeps.
    pub backups: BackupSettings,
    /// What `referee run` tells an operator's health check and dashboard.
    pub health: HealthSettings,
    /// How log lines are written.
    pub log_format: LogFormat,
}

/// The operator's listener of `referee run` (`/healthz` and `/metrics`).
#[derive(Clone, Debug)]
pub struct HealthSettings {
    /// Where it listens (`None`: no listener).
    pub listen: Option<std::net::SocketAddr>,
    /// The oldest an undelivered post may be before the bot counts as unhealthy.
    pub outbox_limit: std::time::Duration,
}

/// How log lines are written to standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// One readable line per event.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// How the bot reaches Discord and delivers its messages.
#[derive(Clone, Debug)]
pub struct DiscordSettings {
    /// Another address for the HTTP API and gateway discovery (an HTTP proxy such as
    /// twilight-http-proxy, or a test server); `None`: Discord itself, paced by serenity's
    /// ratelimiter (which a proxy replaces: serenity's ratelimiter cannot go through one).
    pub api_url: Option<String>,
    /// Guilds (servers) where slash commands are registered at once; empty: globally.
    pub guilds: Vec<u64>,
    /// The first wait before retrying a delivery that failed for a passing reason; it doubles
    /// with every attempt.
    pub retry: std::time::Duration,
    /// How many failed attempts of one message are tried before giving it up.
    pub attempts: u32,
    /// How long one request to Discord may take before it counts as a passing failure (and
    /// the post is tried again under its nonce).
    pub request_timeout: std::time::Duration,
    /// The most requests a second the bot makes to deliver its posts, across every channel
    /// (Discord's global limit: 50 unless Discord raised it for the bot).
    pub requests_per_second: u32,
    /// How long the database may stop answering before the people it keeps waiting are told.
    pub outage_notice: std::time::Duration,
    /// Discord user ids with admin powers (GM powers in every game).
    pub admins: Vec<String>,
    /// The gateway shards this process connects (of how many the bot has).
    pub shards: Shards,
}

/// Which of the bot's Discord gateway shards one process holds: `first` to `last`, both
/// included, of `total`. Discord sends each server's events on shard
/// `(server id >> 22) % total`, and direct messages on shard 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shards {
    /// How many shards the bot has, across all its processes.
    pub total: u32,
    /// The first shard of this process.
    pub first: u32,
    /// The last shard of this process (included).
    pub last: u32,
}

impl Shards {
    /// Whether this process holds every shard of the bot.
    pub fn all(&self) -> bool {
        self.first == 0 && self.last + 1 == self.total
    }

    /// The shard Discord sends the events of server `guild` on.
    pub fn of_guild(&self, guild: u64) -> u32 {
        u32::try_from((guild >> 22) % u64::from(self.total.max(1))).unwrap_or(0)
    }
}

/// The most shards a bot may be told to have.
const MAX_SHARDS: i64 = 1024;

/// Reads a shard count and the range of shards one process holds (`first..last`, both
/// included, or one number; empty: all of them). `names` are what the two are called in an
/// error: the settings' keys or the command's options.
pub fn read_shards(total: i64, ids: &str, names: (&str, &str)) -> Result<Shards, ConfigError> {
    let count = u32::try_from(total)
        .ok()
        .filter(|n| (1..=MAX_SHARDS).contains(&i64::from(*n)))
        .ok_or_else(|| {
            ConfigError::value(
                names.0,
                total,
                &format!("a number of shards from 1 to {MAX_SHARDS}"),
            )
        })?;
    let expected = format!(
        "the first and last shard of this process, like 0..{} (both included, each below {count}), or one shard",
        count - 1
    );
    let number = |text: &str| text.trim().parse::<u32>().ok();
    let (first, last) = match ids.trim() {
        "" => (Some(0), Some(count - 1)),
        text => match text.split_once("..") {
            Some((first, last)) => (number(first), number(last)),
            None => (number(text), number(text)),
        },
    };
    match (first, last) {
        (Some(first), Some(last)) if first <= last && last < count => Ok(Shards {
            total: count,
            first,
            last,
        }),
        _ => Err(ConfigError::value(names.1, ids, &expected)),
    }
}

fn duration(key: &str, value: &str) -> Result<Duration, ConfigError> {
    parse_duration_within(value, a_year())
        .map_err(|_| ConfigError::value(key, value, "a duration like 12h or 30s, at most 365d"))
}

/// `table.computer_think`: how long a `hard` computer player thinks about one decision, from
/// a second to ten minutes.
fn think(text: &str) -> Result<std::time::Duration, ConfigError> {
    let refused = || {
        ConfigError::value(
            "table.computer_think",
            text,
            "a duration like 2s or 1m, from 1s to 10m",
        )
    };
    let think = parse_duration_within(text, Duration::minutes(10)).map_err(|_| refused())?;
    match think >= Duration::seconds(1) {
        true => think.to_std().map_err(|_| refused()),
        false => Err(refused()),
    }
}

/// The TOML table of a settings text, or its syntax error as file:line:column.
fn read(file: &str, text: &str) -> Result<toml::Table, ConfigError> {
    text.parse().map_err(|error: toml::de::Error| {
        let at = error.span().map_or(0, |span| span.start).min(text.len());
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.chars().rev().take_while(|c| *c != '\n').count() + 1;
        ConfigError::Syntax {
            file: file.to_string(),
            line,
            column,
            message: error
                .message()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        }
    })
}

/// Puts `value` in for `section.key` of `settings`, where the default has one of the same
/// kind: a setting unknown or of another kind is refused.
fn set(
    settings: &mut toml::Table,
    section: &str,
    key: &str,
    value: toml::Value,
) -> Result<(), ConfigError> {
    let name = format!("{section}.{key}");
    let unknown = || ConfigError::Unknown { key: name.clone() };
    let Some(toml::Value::Table(table)) = settings.get_mut(section) else {
        return Err(unknown());
    };
    let Some(default) = table.get(key) else {
        return Err(unknown());
    };
    if std::mem::discriminant(default) != std::mem::discriminant(&value) {
        let expected = match default {
            toml::Value::Boolean(_) => "true or false",
            toml::Value::Integer(_) => "a whole number",
            toml::Value::Array(_) => "a list of strings",
            _ => "a string",
        };
        return Err(ConfigError::value(&name, shown(&value), expected));
    }
    table.insert(key.to_string(), value);
    Ok(())
}

/// A TOML value as a refusal quotes it.
fn shown(value: &toml::Value) -> String {
    match value {
        toml::Value::String(text) => text.clone(),
        toml::Value::Integer(number) => number.to_string(),
        toml::Value::Float(number) => number.to_string(),
        toml::Value::Boolean(flag) => flag.to_string(),
        toml::Value::Datetime(at) => format!("{at:?}"),
        toml::Value::Array(_) => "a list".to_string(),
        toml::Value::Table(_) => "a table".to_string(),
    }
}

/// An environment variable's text as the kind of value its setting takes.
fn from_environment(
    default: &toml::Value,
    key: &str,
    text: &str,
) -> Result<toml::Value, ConfigError> {
    Ok(match default {
        toml::Value::Boolean(_) => match text.trim().to_ascii_lowercase().as_str() {
            "true" | "on" | "yes" | "1" => toml::Value::Boolean(true),
            "false" | "off" | "no" | "0" => toml::Value::Boolean(false),
            _ => {
                return Err(ConfigError::value(
                    key,
                    text,
                    "true or false (on/off, yes/no, 1/0)",
                ))
            }
        },
        toml::Value::Integer(_) => match text.trim().parse() {
            Ok(number) => toml::Value::Integer(number),
            Err(_) => return Err(ConfigError::value(key, text, "a whole number")),
        },
        toml::Value::Array(_) => toml::Value::Array(
            text.split(',')
                .map(|item| toml::Value::String(item.trim().to_string()))
                .filter(|item| item.as_str() != Some(""))
                .collect(),
        ),
        _ => toml::Value::String(text.to_string()),
    })
}

/// Reads the settings: the built-in `config/default.toml`, then the settings file `file`
/// (its name and text) if one is given, then the `REFEREE_<SECTION>_<KEY>` variables of
/// `environment`. A file may give only some settings; the rest keep their defaults. Unknown
/// settings, values of the wrong kind and syntax errors are refused in one sentence.
pub fn load(
    file: Option<(&str, &str)>,
    environment: impl Iterator<Item = (String, String)>,
) -> Result<Config, ConfigError> {
    let mut table = read("config/default.toml", DEFAULT_TOML)?;
    if let Some((name, text)) = file {
        for (section, values) in read(name, text)? {
            let toml::Value::Table(values) = values else {
                return Err(ConfigError::Unknown { key: section });
            };
            for (key, value) in values {
                set(&mut table, &section, &key, value)?;
            }
        }
    }
    for (name, text) in environment {
        let Some(rest) = name.strip_prefix("REFEREE_") else {
            continue;
        };
        // REFEREE_LOG (the log filter) is not a setting.
        let Some((section, key)) = rest
            .to_ascii_lowercase()
            .split_once('_')
            .map(|(s, k)| (s.to_string(), k.to_string()))
        else {
            continue;
        };
        let setting = format!("{section}.{key}");
        let default = table
            .get(&section)
            .and_then(|values| values.get(&key))
            .cloned()
            .ok_or_else(|| ConfigError::Unknown {
                key: setting.clone(),
            })?;
        let value = from_environment(&default, &setting, &text)?;
        set(&mut table, &section, &key, value)?;
    }
    let raw: RawConfig = table
        .try_into()
        .map_err(|e: toml::de::Error| ConfigError::Value {
            key: "the settings".to_string(),
            value: e.message().trim().to_string(),
            expected: "the kinds of values config/default.toml shows".to_string(),
        })?;
    let synchronous = raw.database.synchronous.trim().to_ascii_lowercase();
    if !["full", "normal", "off", "extra"].contains(&synchronous.as_str()) {
        return Err(ConfigError::value(
            "database.synchronous",
            &raw.database.synchronous,
            "full, normal, off or extra",
        ));
    }
    let prefix = raw.table.prefix.clone();
    if prefix.is_empty() || prefix.chars().any(char::is_whitespace) || prefix.chars().count() > 5 {
        return Err(ConfigError::value(
            "table.prefix",
            &prefix,
            "one to five characters with no space, like !",
        ));
    }
    let attempts = u32::try_from(raw.discord.attempts)
        .ok()
        .filter(|n| (1..=100).contains(n))
        .ok_or_else(|| {
            ConfigError::value(
                "discord.attempts",
                raw.discord.attempts,
                "a number of attempts from 1 to 100",
            )
        })?;
    let requests_per_second = u32::try_from(raw.discord.requests_per_second)
        .ok()
        .filter(|n| (1..=100_000).contains(n))
        .ok_or_else(|| {
            ConfigError::value(
                "discord.requests_per_second",
                raw.discord.requests_per_second,
                "a number of requests from 1 to 100000",
            )
        })?;
    let default_deadline = match raw.table.default_deadline.trim() {
        "" => None,
        text => Some(duration("table.default_deadline", text)?),
    };
    Ok(Config {
        store: StoreSettings {
            url: raw.database.url,
            busy_timeout: duration("database.busy_timeout", &raw.database.busy_timeout)?
                .to_std()
                .unwrap_or_default(),
            synchronous,
            keep_pictures: duration("database.keep_pictures", &raw.database.keep_pictures)?,
            keep_message_ids: duration(
                "database.keep_message_ids",
                &raw.database.keep_message_ids,
            )?,
            lease: lease(&raw.database.lease)?,
        },
        table: TableDefaults {
            prefix,
            reminder: duration("table.reminder", &raw.table.reminder)?,
            early: raw.table.early,
            late_after: duration("table.late_after", &raw.table.late_after)?,
            flood: flood(&raw.table.flood)?,
            games_per_gm: at_least_one(
                "table.games_per_gm",
                raw.table.games_per_gm,
                "a number of games, at least 1",
            )?,
            deadline: default_deadline,
            search_steps: at_least_one(
                "table.search_steps",
                raw.table.search_steps,
                "a number of steps, at least 1",
            )?,
            computer_think: think(&raw.table.computer_think)?,
            computer_rollouts: match raw.table.computer_rollouts {
                0 => u32::MAX,
                n => at_least_one(
                    "table.computer_rollouts",
                    n,
                    "a number of rollouts, or 0 for no limit",
                )?,
            },
            leaderboard_games: at_least_one(
                "table.leaderboard_games",
                raw.table.leaderboard_games,
                "a number of games, at least 1",
            )?,
        },
        tick: duration("table.tick", &raw.table.tick)?
            .to_std()
            .unwrap_or_default(),
        admins: raw.local.admins,
        backups: BackupSettings {
            every: match raw.database.backup_every.trim() {
                "" | "off" => None,
                text => duration("database.backup_every", text)?.to_std().ok(),
            },
            kept: usize::try_from(raw.database.backups_kept.max(1)).unwrap_or(1),
            folder: PathBuf::from(raw.database.backup_folder),
        },
        health: HealthSettings {
            listen: match raw.health.listen.trim() {
                "" => None,
                text => Some(text.parse().map_err(|_| {
                    ConfigError::value(
                        "health.listen",
                        text,
                        "an address and port to listen on, like 127.0.0.1:9898",
                    )
                })?),
            },
            outbox_limit: duration("health.outbox_limit", &raw.health.outbox_limit)?
                .to_std()
                .unwrap_or_default(),
        },
        log_format: match raw.log.format.trim().to_ascii_lowercase().as_str() {
            "text" => LogFormat::Text,
            "json" => LogFormat::Json,
            _ => {
                return Err(ConfigError::value(
                    "log.format",
                    &raw.log.format,
                    "text or json",
                ))
            }
        },
        discord: DiscordSettings {
            api_url: Some(raw.discord.api_url.trim().trim_end_matches('/').to_string())
                .filter(|url| !url.is_empty()),
            guilds: raw
                .discord
                .guilds
                .iter()
                .map(|id| {
                    id.trim().parse().map_err(|_| {
                        ConfigError::value("discord.guilds", id, "Discord server ids (numbers)")
                    })
                })
                .collect::<Result<_, _>>()?,
            retry: duration("discord.retry", &raw.discord.retry)?
                .to_std()
                .unwrap_or_default(),
            attempts,
            request_timeout: duration("discord.request_timeout", &raw.discord.request_timeout)?
                .to_std()
                .unwrap_or_default()
                .max(std::time::Duration::from_secs(1)),
            requests_per_second,
            outage_notice: duration("discord.outage_notice", &raw.discord.outage_notice)?
                .to_std()
                .unwrap_or_default(),
            admins: raw.discord.admins,
            shards: read_shards(
                raw.discord.shards,
                &raw.discord.shard_ids,
                ("discord.shards", "discord.shard_ids"),
            )?,
        },
    })
}

/// A count setting that must be at least 1, in the type it is used as; `expected` says so
/// in the refusal.
fn at_least_one<T: TryFrom<i64>>(key: &str, value: i64, expected: &str) -> Result<T, ConfigError> {
    match value >= 1 {
        true => T::try_from(value).map_err(|_| ConfigError::value(key, value, expected)),
        false => Err(ConfigError::value(key, value, expected)),
    }
}

/// `table.flood`: how many commands one account may send in how long, like "10/20s".
fn flood(text: &str) -> Result<(u32, Duration), ConfigError> {
    let expected = "a number of commands and a duration, like 10/20s";
    let refused = || ConfigError::value("table.flood", text, expected);
    let (count, window) = text.split_once('/').ok_or_else(refused)?;
    let count: u32 = count
        .trim()
        .parse()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(refused)?;
    let window = parse_duration_within(window.trim(), Duration::days(1))
        .ok()
        .filter(|window| *window >= Duration::seconds(1))
        .ok_or_else(refused)?;
    Ok((count, window))
}

/// `database.lease`: long enough for a post to go out, short enough for another process to
/// take over soon (and well within the few minutes Discord keeps a post's nonce).
fn lease(text: &str) -> Result<Duration, ConfigError> {
    let expected = "a duration from 1s to 2m, like 30s";
    parse_duration_within(text, Duration::minutes(2))
        .ok()
        .filter(|lease| *lease >= Duration::seconds(1))
        .ok_or_else(|| ConfigError::value("database.lease", text, expected))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test that may stop at the first error.
    type Tested = Result<(), Box<dyn std::error::Error>>;

    /// The process environment holding just these variables.
    fn environment(variables: &[(&str, &str)]) -> impl Iterator<Item = (String, String)> {
        let owned: Vec<(String, String)> = variables
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect();
        owned.into_iter()
    }

    #[test]
    fn environment_overrides_the_file() -> Tested {
        let config = load(
            None,
            environment(&[
                ("REFEREE_DATABASE_URL", "sqlite::memory:"),
                ("REFEREE_TABLE_PREFIX", "?"),
                ("REFEREE_TABLE_EARLY", "off"),
                ("REFEREE_LOCAL_ADMINS", "root, gm"),
            ]),
        )?;
        assert_eq!(config.store.url, "sqlite::memory:");
        assert_eq!(config.table.prefix, "?");
        assert!(!config.table.early);
        assert_eq!(config.table.reminder, Duration::hours(12));
        assert_eq!(config.admins, vec!["root".to_string(), "gm".to_string()]);
        Ok(())
    }

    #[test]
    fn discord_settings_read_from_the_environment() -> Tested {
        let discord = [
            ("REFEREE_DISCORD_API_URL", "http://127.0.0.1:3000/"),
            ("REFEREE_DISCORD_GUILDS", "1, 2"),
            ("REFEREE_DISCORD_ATTEMPTS", "3"),
        ];
        let config = load(None, environment(&discord))?;
        assert_eq!(
            config.discord.api_url.as_deref(),
            Some("http://127.0.0.1:3000")
        );
        assert_eq!(config.discord.guilds, vec![1, 2]);
        assert_eq!(config.discord.attempts, 3);
        let default = load(None, std::iter::empty())?;
        assert_eq!(default.discord.api_url, None);
        assert_eq!(
            default.discord.shards,
            Shards {
                total: 1,
                first: 0,
                last: 0
            }
        );
        assert_eq!(default.store.lease, Duration::seconds(30));
        assert_eq!(
            default.discord.request_timeout,
            std::time::Duration::from_secs(30)
        );
        Ok(())
    }

    #[test]
    fn a_process_holds_a_range_of_shards() -> Tested {
        let names = ("--shards", "--shard-ids");
        let second = read_shards(2, "1..1", names)?;
        assert_eq!((second.first, second.last, second.all()), (1, 1, false));
        assert_eq!(read_shards(4, "2", names)?.first, 2);
        assert!(read_shards(4, "", names)?.all());
        // A server id's high bits (its creation time) pick the shard.
        assert_eq!(second.of_guild((5 << 22) + 123), 1);
        assert_eq!(second.of_guild(41_771_983_423_143_937), 0);
        assert_eq!(
            read_shards(2, "1..2", names).unwrap_err().to_string(),
            "setting --shard-ids takes the first and last shard of this process, like 0..1 (both included, each below 2), or one shard; got '1..2'"
        );
        assert_eq!(
            read_shards(0, "", names).unwrap_err().to_string(),
            "setting --shards takes a number of shards from 1 to 1024; got '0'"
        );
        Ok(())
    }

    #[test]
    fn the_lease_is_bounded() {
        assert_eq!(
            refused(None, &[("REFEREE_DATABASE_LEASE", "1h")]),
            "setting database.lease takes a duration from 1s to 2m, like 30s; got '1h'"
        );
    }

    #[test]
    fn a_bad_duration_is_named() {
        let env = vec![("REFEREE_TABLE_REMINDER".to_string(), "soon".to_string())];
        let error = load(None, env.into_iter()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "setting table.reminder takes a duration like 12h or 30s, at most 365d; got 'soon'"
        );
    }

    fn refused(file: Option<(&str, &str)>, env: &[(&str, &str)]) -> String {
        load(file, environment(env)).unwrap_err().to_string()
    }

    #[test]
    fn unknown_settings_and_bad_values_are_named_in_one_sentence() {
        assert_eq!(
            refused(Some(("my.toml", "[table]\nprefx = \"?\"\n")), &[]),
            "there is no setting table.prefx; the settings are those of config/default.toml"
        );
        assert_eq!(
            refused(None, &[("REFEREE_TABLE_EARLY", "maybe")]),
            "setting table.early takes true or false (on/off, yes/no, 1/0); got 'maybe'"
        );
        assert_eq!(
            refused(
                Some(("my.toml", "[database]\nsynchronous = \"sometimes\"\n")),
                &[]
            ),
            "setting database.synchronous takes full, normal, off or extra; got 'sometimes'"
        );
        assert_eq!(
            refused(None, &[("REFEREE_TABLE_PREFIX", "")]),
            "setting table.prefix takes one to five characters with no space, like !; got ''"
        );
        assert_eq!(
            refused(Some(("my.toml", "[discord]\nattempts = \"many\"\n")), &[]),
            "setting discord.attempts takes a whole number; got 'many'"
        );
        assert_eq!(
            refused(None, &[("REFEREE_DISCORD_ATTEMPTS", "0")]),
            "setting discord.attempts takes a number of attempts from 1 to 100; got '0'"
        );
        assert_eq!(
            refused(None, &[("REFEREE_TABEL_EARLY", "on")]),
            "there is no setting tabel.early; the settings are those of config/default.toml"
        );
    }

    #[test]
    fn a_syntax_error_is_one_line_with_file_line_and_column() {
        let error = refused(
            Some(("my.toml", "[table]\nprefix = \"?\"\nearly = tru\n")),
            &[],
        );
        assert_eq!(error, "my.toml:3:9: invalid string expected `\"`, `'`");
        assert_eq!(error.lines().count(), 1, "{error}");
    }

    #[test]
    fn a_file_with_some_settings_keeps_the_defaults_for_the_rest() -> Tested {
        let config = load(
            Some(("my.toml", "[table]\nprefix = \"?\"\n")),
            std::iter::empty(),
        )?;
        assert_eq!(config.table.prefix, "?");
        assert_eq!(config.table.reminder, Duration::hours(12));
        assert_eq!(config.store.url, "sqlite://referee.db");
        assert_eq!(config.discord.attempts, 8);
        // The log filter's variable is not a setting.
        assert!(load(None, environment(&[("REFEREE_LOG", "info")])).is_ok());
        Ok(())
    }
}
