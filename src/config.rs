//! Settings: `config/default.toml` (built in, or a file given with `--config`), with
//! environment variables `REFEREE_<SECTION>_<KEY>` over it.

use crate::chat::duration::parse_duration;
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
}

#[derive(Debug, Deserialize)]
struct RawDatabase {
    url: String,
    busy_timeout: String,
    synchronous: String,
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
    fn a_bad_duration_is_named() {
        let env = vec![("REFEREE_TABLE_REMINDER".to_string(), "soon".to_string())];
        let error = load(DEFAULT_TOML, env.into_iter()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "setting table.reminder takes a duration like 12h or 30s; got 'soon'"
        );
    }
}
