//! Backups of a live SQLite database: `referee backup FILE`, and the rotating backups a
//! running bot keeps (`database.backup_every`, `database.backups_kept`). A backup is
//! written beside its destination, checked (SQLite's integrity check, then a replay of every
//! game in it), and only then renamed into place, so a crash or a kill mid-way leaves every
//! earlier backup whole and never a half-written one under a backup's name.

use crate::store::{Store, StoreError, StoreSettings};
use crate::table::{Catalogue, Service, TableDefaults};
use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a backup was not made: one sentence naming the file.
#[derive(Debug, Error)]
pub enum BackupError {
    /// The destination is taken: a backup never overwrites a file.
    #[error("{0} already exists; give a new file for the backup")]
    Exists(String),
    /// The destination's folder does not exist.
    #[error("the folder {0} does not exist; create it or give another path for the backup")]
    NoFolder(String),
    /// The database could not be read or copied (missing, damaged, locked, ...).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// SQLite's integrity check found the copy damaged.
    #[error("the copy of {database} fails SQLite's integrity check ({problems}); the database may be damaged, so keep the earlier backups")]
    Damaged {
        /// The database backed up.
        database: String,
        /// What the check found, in SQLite's words.
        problems: String,
    },
    /// A game in the copy does not replay to its log.
    #[error("game #{game} in the copy does not replay to its log: {difference}")]
    Replay {
        /// The game.
        game: i64,
        /// The first difference found.
        difference: String,
    },
    /// The backup file could not be written (permissions, a full disk, the rename).
    #[error("cannot write the backup {path}: {reason}")]
    Write {
        /// The backup file.
        path: String,
        /// Why, in a few words.
        reason: String,
    },
}

impl BackupError {
    /// The file system's refusal to write the backup `to`.
    fn write(to: &Path, error: &std::io::Error) -> BackupError {
        BackupError::Write {
            path: to.display().to_string(),
            reason: error.kind().to_string(),
        }
    }
}

/// A backup written and checked.
#[derive(Debug)]
pub struct Backup {
    /// Where it is.
    pub path: PathBuf,
    /// How many games it holds, each replayed to its log.
    pub games: usize,
    /// Its size in bytes.
    pub bytes: u64,
}

/// How often a running bot backs its database up, and how many backups it keeps where.
#[derive(Clone, Debug)]
pub struct BackupSettings {
    /// How often (`None`: no rotating backups).
    pub every: Option<std::time::Duration>,
    /// How many of the newest are kept; older ones are deleted.
    pub kept: usize,
    /// The folder they go in (created if missing).
    pub folder: PathBuf,
}

/// Whether a backup can be written to `to`: its folder exists and no file is there yet
/// (checked before the database is opened, so a mistyped destination touches nothing).
pub fn can_go_to(to: &Path) -> Result<(), BackupError> {
    if to.exists() {
        return Err(BackupError::Exists(to.display().to_string()));
    }
    let folder = match to.parent().filter(|folder| !folder.as_os_str().is_empty()) {
        Some(folder) => folder,
        None => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(BackupError::NoFolder(folder.display().to_string()));
    }
    Ok(())
}

/// Writes a consistent copy of `store` (a SQLite database, live or not) to `to`, checks it
/// and renames it into place. `settings` and `table` open the copy as the bot would.
pub async fn back_up(
    store: &Store,
    settings: &StoreSettings,
    table: &TableDefaults,
    to: &Path,
) -> Result<Backup, BackupError> {
    can_go_to(to)?;
    let partial = partial_of(to);
    if partial.exists() {
        // Left by a backup that was killed: never a backup, always safe to drop.
        std::fs::remove_file(&partial).map_err(|error| BackupError::write(to, &error))?;
    }
    // The copy goes into an empty file made here (SQLite fills an empty file), so a folder
    // that cannot be written to is said by the file system, not in SQLite's words.
    std::fs::File::create_new(&partial).map_err(|error| BackupError::write(to, &error))?;
    let database = crate::store::sqlite_file(&settings.url)
        .map_or("the database".to_string(), |file| {
            file.display().to_string()
        });
    let made = async {
        store
            .copy_into(&partial)
            .await
            .map_err(|error| copying(error, &database, to))?;
        check(&partial, &database, settings, table).await
    }
    .await;
    let games = match made {
        Ok(games) => games,
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            return Err(error);
        }
    };
    std::fs::rename(&partial, to).map_err(|error| BackupError::write(to, &error))?;
    let bytes = std::fs::metadata(to)
        .map_err(|error| BackupError::write(to, &error))?
        .len();
    Ok(Backup {
        path: to.to_path_buf(),
        games,
        bytes,
    })
}

/// A failed copy of `database` into the backup `to`, in one sentence naming the file at
/// fault: a full disk is the backup's, a damaged or locked database the database's.
fn copying(error: StoreError, database: &str, to: &Path) -> BackupError {
    match error {
        error if error.is_disk_full() => BackupError::Write {
            path: to.display().to_string(),
            reason: "the disk is full".to_string(),
        },
        StoreError::Damaged(_) => StoreError::Damaged(format!("the database {database}")).into(),
        error => error.naming(Path::new(database)).into(),
    }
}

/// Where the backup to `to` is written until it is checked: a hidden file beside it.
fn partial_of(to: &Path) -> PathBuf {
    let name = to
        .file_name()
        .map(|name| name.to_string_lossy().to_string())
        .unwrap_or_default();
    to.with_file_name(format!(".{name}.partial"))
}

/// Checks a copy: SQLite's integrity check, then every game replayed. Returns how many games
/// it holds.
async fn check(
    copy: &Path,
    database: &str,
    settings: &StoreSettings,
    table: &TableDefaults,
) -> Result<usize, BackupError> {
    let store = Store::open_read_only(&StoreSettings {
        url: format!("sqlite://{}", copy.display()),
        ..settings.clone()
    })
    .await?;
    let service = Service::new(store, Catalogue::standard(), table.clone());
    let result = replay_all(&service, database).await;
    service.store().close().await;
    result
}

async fn replay_all(service: &Service, database: &str) -> Result<usize, BackupError> {
    if let Some(problems) = service.store().integrity_problems().await? {
        return Err(BackupError::Damaged {
            database: database.to_string(),
            problems,
        });
    }
    let games = service.store().game_ids().await?;
    for &game in &games {
        let report = crate::table::audit::replay(service, game)
            .await
            .map_err(|error| BackupError::Replay {
                game,
                difference: error.to_string(),
            })?;
        if let Some(difference) = report.differences.first() {
            return Err(BackupError::Replay {
                game,
                difference: difference.clone(),
            });
        }
    }
    Ok(games.len())
}

/// The name of the rotating backup made at `at`: names sort as times do.
fn rotating_name(at: DateTime<Utc>) -> String {
    format!("referee-{}.db", at.format("%Y-%m-%dT%H%M%SZ"))
}

/// Deletes the oldest rotating backups in `folder` beyond the newest `kept`; returns how
/// many went. Files the bot did not name are left alone.
fn prune(folder: &Path, kept: usize) -> std::io::Result<usize> {
    let mut backups: Vec<PathBuf> = std::fs::read_dir(folder)?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("referee-") && name.ends_with(".db"))
        })
        .collect();
    backups.sort();
    let excess = backups.len().saturating_sub(kept);
    for old in &backups[..excess] {
        std::fs::remove_file(old)?;
    }
    Ok(excess)
}

/// Backs `service`'s database up every `backups.every` into `backups.folder`, keeping the
/// newest `backups.kept`, for as long as the bot runs. Each outcome is logged; a failed
/// backup is tried again at the next time and deletes nothing.
pub async fn keep_rotating(
    service: Service,
    settings: StoreSettings,
    table: TableDefaults,
    backups: BackupSettings,
) {
    let Some(every) = backups.every else {
        return;
    };
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is at once: the bot begins by backing up what it found.
    loop {
        ticks.tick().await;
        let made = async {
            std::fs::create_dir_all(&backups.folder)
                .map_err(|error| BackupError::write(&backups.folder, &error))?;
            let to = backups.folder.join(rotating_name(Utc::now()));
            let made = back_up(service.store(), &settings, &table, &to).await?;
            let pruned = prune(&backups.folder, backups.kept)
                .map_err(|error| BackupError::write(&backups.folder, &error))?;
            Ok::<_, BackupError>((made, pruned))
        }
        .await;
        match made {
            Ok((made, pruned)) => tracing::info!(
                path = %made.path.display(),
                games = made.games,
                bytes = made.bytes,
                pruned,
                "backup written and checked"
            ),
            Err(error) => tracing::error!(%error, "the backup failed; the earlier ones stay"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{prune, rotating_name};
    use chrono::{Duration, TimeZone, Utc};

    #[test]
    fn only_the_newest_backups_are_kept_and_other_files_stay() {
        let dir = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
        let start = Utc
            .with_ymd_and_hms(2026, 1, 1, 0, 0, 0)
            .single()
            .unwrap_or_default();
        for day in 0..9 {
            let name = rotating_name(start + Duration::days(day));
            std::fs::write(dir.path().join(name), b"x").unwrap_or_default();
        }
        std::fs::write(dir.path().join("notes.txt"), b"mine").unwrap_or_default();
        assert_eq!(prune(dir.path(), 7).unwrap_or_default(), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .map(|entries| {
                entries
                    .filter_map(|entry| Some(entry.ok()?.file_name().to_string_lossy().to_string()))
                    .collect()
            })
            .unwrap_or_default();
        left.sort();
        assert_eq!(left.len(), 8);
        assert_eq!(left[0], "notes.txt");
        assert_eq!(left[1], "referee-2026-01-03T000000Z.db");
    }
}
