//! Settings: `config/default.toml` (built in, or a file given with `--config`), with
//! environment variables `REFEREE_<SECTION>_<KEY>` over it.

use crate::duration::parse_duration;
use crate::store::StoreSettings;
use crate::table::TableDefaults;
use chrono::Duration;
use serde::Deserialize;
use thiserror::Error;

/// The settings file shipped with the program.
pub const DEFAULT_TOML: &str = include_str!("../config/default.toml");

/// Why the settings could not be read.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The TOML does not parse or has a wrong type.
    #[error("the settings do not read: {0}")]
    Toml(String),
    /// A guild setting is not a Discord id.
    #[error("setting discord.guilds takes Discord server ids (numbers); got '{0}'")]
    Guild(String),
    /// A duration setting is not a duration.
    #[error("setting {key} takes a duration like 12h or 30s; got '{value}'")]
    Duration {
        /// The setting.
        key: &'static str,
        /// Its value.
        value: String,
    },
}

#[derive(Debug, Deserialize)]
struct RawConfig {
    database: RawDatabase,
    table: RawTable,
    local: RawLocal,
    discord: RawDiscord,
}

#[derive(Debug, Deserialize)]
struct RawDiscord {
    api_url: String,
    guilds: Vec<String>,
    retry: String,
    attempts: u32,
    admins: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct RawDatabase {
    url: String,
    busy_timeout: String,
    synchronous: String,
    keep_pictures: String,
}

#[derive(Debug, Deserialize)]
struct RawTable {
    prefix: String,
    reminder: String,
    early: bool,
    default_deadline: String,
    late_after: String,
    tick: String,
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
    /// Discord user ids with admin powers (GM powers in every game).
    pub admins: Vec<String>,
}

fn duration(key: &'static str, value: &str) -> Result<Duration, ConfigError> {
    parse_duration(value).ok_or_else(|| ConfigError::Duration {
        key,
        value: value.to_string(),
    })
}

/// Reads settings from TOML text, then applies `REFEREE_*` variables from `environment`.
pub fn load(
    toml_text: &str,
    environment: impl Iterator<Item = (String, String)>,
) -> Result<Config, ConfigError> {
    let mut table: toml::Table = toml_text
        .parse()
        .map_err(|e: toml::de::Error| ConfigError::Toml(e.to_string()))?;
    for (name, value) in environment {
        let Some(rest) = name.strip_prefix("REFEREE_") else {
            continue;
        };
        let Some((section, key)) = rest
            .to_ascii_lowercase()
            .split_once('_')
            .map(|(s, k)| (s.to_string(), k.to_string()))
        else {
            continue;
        };
        let Some(toml::Value::Table(section)) = table.get_mut(&section) else {
            continue;
        };
        let value = match section.get(&key) {
            Some(toml::Value::Boolean(_)) => match value.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" | "yes" => toml::Value::Boolean(true),
                _ => toml::Value::Boolean(false),
            },
            Some(toml::Value::Integer(_)) => match value.trim().parse() {
                Ok(number) => toml::Value::Integer(number),
                Err(_) => toml::Value::String(value),
            },
            Some(toml::Value::Array(_)) => toml::Value::Array(
                value
                    .split(',')
                    .map(|item| toml::Value::String(item.trim().to_string()))
                    .filter(|item| item.as_str() != Some(""))
                    .collect(),
            ),
            _ => toml::Value::String(value),
        };
        section.insert(key, value);
    }
    let raw: RawConfig = table
        .try_into()
        .map_err(|e: toml::de::Error| ConfigError::Toml(e.to_string()))?;
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
            synchronous: raw.database.synchronous,
            keep_pictures: duration("database.keep_pictures", &raw.database.keep_pictures)?,
        },
        table: TableDefaults {
            prefix: raw.table.prefix,
            reminder: duration("table.reminder", &raw.table.reminder)?,
            early: raw.table.early,
            late_after: duration("table.late_after", &raw.table.late_after)?,
            deadline: default_deadline,
        },
        tick: duration("table.tick", &raw.table.tick)?
            .to_std()
            .unwrap_or_default(),
        admins: raw.local.admins,
        discord: DiscordSettings {
            api_url: Some(raw.discord.api_url.trim().trim_end_matches('/').to_string())
                .filter(|url| !url.is_empty()),
            guilds: raw
                .discord
                .guilds
                .iter()
                .map(|id| {
                    id.trim()
                        .parse()
                        .map_err(|_| ConfigError::Guild(id.clone()))
                })
                .collect::<Result<_, _>>()?,
            retry: duration("discord.retry", &raw.discord.retry)?
                .to_std()
                .unwrap_or_default(),
            attempts: raw.discord.attempts,
            admins: raw.discord.admins,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_overrides_the_file() {
        let env = vec![
            (
                "REFEREE_DATABASE_URL".to_string(),
                "sqlite::memory:".to_string(),
            ),
            ("REFEREE_TABLE_PREFIX".to_string(), "?".to_string()),
            ("REFEREE_TABLE_EARLY".to_string(), "off".to_string()),
            ("REFEREE_LOCAL_ADMINS".to_string(), "root, gm".to_string()),
        ];
        let config = load(DEFAULT_TOML, env.into_iter()).unwrap();
        assert_eq!(config.store.url, "sqlite::memory:");
        assert_eq!(config.table.prefix, "?");
        assert!(!config.table.early);
        assert_eq!(config.table.reminder, Duration::hours(12));
        assert_eq!(config.admins, vec!["root".to_string(), "gm".to_string()]);
    }

    #[test]
    fn discord_settings_read_from_the_environment() {
        let env = vec![
            (
                "REFEREE_DISCORD_API_URL".to_string(),
                "http://127.0.0.1:3000/".to_string(),
            ),
            ("REFEREE_DISCORD_GUILDS".to_string(), "1, 2".to_string()),
            ("REFEREE_DISCORD_ATTEMPTS".to_string(), "3".to_string()),
        ];
        let config = load(DEFAULT_TOML, env.into_iter()).unwrap();
        assert_eq!(
            config.discord.api_url.as_deref(),
            Some("http://127.0.0.1:3000")
        );
        assert_eq!(config.discord.guilds, vec![1, 2]);
        assert_eq!(config.discord.attempts, 3);
        let default = load(DEFAULT_TOML, std::iter::empty()).unwrap();
        assert_eq!(default.discord.api_url, None);
    }

    #[test]
    fn a_bad_duration_is_named() {
        let env = vec![("REFEREE_TABLE_REMINDER".to_string(), "soon".to_string())];
        let error = load(DEFAULT_TOML, env.into_iter()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "setting table.reminder takes a duration like 12h or 30s; got 'soon'"
        );
    }
}
