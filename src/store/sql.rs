//! The two dialects side by side: a statement is written once, with `?` for each value (the
//! PostgreSQL text numbers them `$1`, `$2`, ...), and runs on either database's connection;
//! its rows are read by column number whichever database they come from. Where the dialects
//! differ (locks, time functions, scalar `MIN`), the caller picks the text by [`Dialect`].
//! No statement holds a `?` inside a quoted string.

use super::StoreError;
use sqlx::postgres::{PgConnection, PgRow};
use sqlx::sqlite::{SqliteConnection, SqliteRow};
use sqlx::Row as _;
use std::borrow::Cow;

/// Which database a store speaks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// One SQLite file (or memory), one process.
    Sqlite,
    /// A PostgreSQL server, shared by any number of processes.
    Postgres,
}

/// A value bound to a `?`.
#[derive(Clone, Debug)]
pub(super) enum Value<'a> {
    /// A whole number, or NULL.
    Int(Option<i64>),
    /// A borrowed text, or NULL.
    Text(Option<&'a str>),
    /// A text made for this statement (JSON), or NULL.
    Owned(Option<String>),
}

/// One statement and its values, in order.
#[derive(Clone, Debug, Default)]
pub(super) struct Statement<'a> {
    sql: Cow<'a, str>,
    values: Vec<Value<'a>>,
}

/// A connection of either database: a pooled one, or the one a transaction holds.
pub(super) enum Connection<'c> {
    Sqlite(&'c mut SqliteConnection),
    /// A SQLite connection with statements of no values and no rows (a transaction's
    /// savepoints) to run first, in the same call when the statement reads rows.
    SqliteAfter(&'c mut SqliteConnection, &'static str),
    Postgres(&'c mut PgConnection),
}

/// A row of either database.
pub(super) enum Row {
    Sqlite(SqliteRow),
    Postgres(PgRow),
}

impl<'a> Statement<'a> {
    /// The statement `sql` with no values yet.
    pub fn new(sql: impl Into<Cow<'a, str>>) -> Statement<'a> {
        Statement {
            sql: sql.into(),
            values: Vec::new(),
        }
    }

    /// Binds a whole number (or NULL) to the next `?`.
    pub fn int(mut self, value: impl Into<Option<i64>>) -> Statement<'a> {
        self.values.push(Value::Int(value.into()));
        self
    }

    /// Binds a text (or NULL) to the next `?`.
    pub fn text(mut self, value: impl Into<Option<&'a str>>) -> Statement<'a> {
        self.values.push(Value::Text(value.into()));
        self
    }

    /// Appends SQL text.
    pub fn push(&mut self, sql: &str) -> &mut Statement<'a> {
        self.sql.to_mut().push_str(sql);
        self
    }

    /// Appends a `?` bound to `value`.
    pub fn bind(&mut self, value: Value<'a>) -> &mut Statement<'a> {
        self.sql.to_mut().push('?');
        self.values.push(value);
        self
    }

    /// Appends `(?, ?, ...)` for each row of `rows`, separated by commas: a multi-row
    /// `VALUES` list.
    pub fn push_rows<T>(
        &mut self,
        rows: impl IntoIterator<Item = T>,
        row: impl Fn(T) -> Vec<Value<'a>>,
    ) {
        for (index, item) in rows.into_iter().enumerate() {
            if index > 0 {
                self.push(", ");
            }
            self.push_list(row(item));
        }
    }

    /// Appends `(?, ?, ...)` bound to `values`: a list for `IN`.
    pub fn push_list(&mut self, values: impl IntoIterator<Item = Value<'a>>) {
        self.push("(");
        self.bind_all(values);
        self.push(")");
    }

    /// Appends `?, ?, ...` bound to `values`, separated by commas.
    pub fn bind_all(&mut self, values: impl IntoIterator<Item = Value<'a>>) {
        for (index, value) in values.into_iter().enumerate() {
            if index > 0 {
                self.push(", ");
            }
            self.bind(value);
        }
    }

    /// Appends another statement's text and values (SQLite runs several statements as one
    /// batch).
    pub fn append(&mut self, other: Statement<'a>) {
        self.sql.to_mut().push_str(&other.sql);
        self.values.extend(other.values);
    }

    /// The text as PostgreSQL reads it: each `?` numbered in order.
    fn numbered(&self) -> String {
        let mut out = String::with_capacity(self.sql.len() + 8);
        let mut number = 0;
        for c in self.sql.chars() {
            if c == '?' {
                number += 1;
                out.push('$');
                out.push_str(&number.to_string());
            } else {
                out.push(c);
            }
        }
        out
    }

    /// Runs the statement; returns how many rows it changed.
    pub async fn execute(&self, on: Connection<'_>) -> Result<u64, sqlx::Error> {
        self.execute_kept(on, true).await
    }

    /// [`Statement::execute`], keeping the prepared form for the next time only when
    /// `persistent` (a statement of a shape that recurs: one whose text grows with a list
    /// would crowd the busy statements out of the connection's cache).
    pub async fn execute_kept(
        &self,
        on: Connection<'_>,
        persistent: bool,
    ) -> Result<u64, sqlx::Error> {
        Ok(match on {
            Connection::Sqlite(connection) => bound(&self.sql, &self.values, persistent)
                .execute(connection)
                .await?
                .rows_affected(),
            // Alone, since SQLite counts the rows the last change changed for a statement
            // that changes none, which would blur this one's count.
            Connection::SqliteAfter(connection, first) => {
                bound::<sqlx::Sqlite>(first, &[], true)
                    .execute(&mut *connection)
                    .await?;
                bound(&self.sql, &self.values, persistent)
                    .execute(connection)
                    .await?
                    .rows_affected()
            }
            Connection::Postgres(connection) => bound(&self.numbered(), &self.values, persistent)
                .execute(connection)
                .await?
                .rows_affected(),
        })
    }

    /// Runs the statement and reads every row it gives.
    pub async fn fetch_all(&self, on: Connection<'_>) -> Result<Vec<Row>, sqlx::Error> {
        self.fetch_all_kept(on, true).await
    }

    /// [`Statement::fetch_all`], keeping the prepared form for the next time only when
    /// `persistent` (a statement of a shape that recurs).
    pub async fn fetch_all_kept(
        &self,
        on: Connection<'_>,
        persistent: bool,
    ) -> Result<Vec<Row>, sqlx::Error> {
        Ok(match on {
            Connection::Sqlite(connection) => bound(&self.sql, &self.values, persistent)
                .fetch_all(connection)
                .await?
                .into_iter()
                .map(Row::Sqlite)
                .collect(),
            Connection::SqliteAfter(connection, first) => {
                let sql = format!("{first}{}", self.sql);
                bound(&sql, &self.values, persistent)
                    .fetch_all(connection)
                    .await?
                    .into_iter()
                    .map(Row::Sqlite)
                    .collect()
            }
            Connection::Postgres(connection) => bound(&self.numbered(), &self.values, persistent)
                .fetch_all(connection)
                .await?
                .into_iter()
                .map(Row::Postgres)
                .collect(),
        })
    }

    /// Runs the statement and reads its first row, if any.
    pub async fn fetch_optional(&self, on: Connection<'_>) -> Result<Option<Row>, sqlx::Error> {
        Ok(self.fetch_all(on).await?.into_iter().next())
    }

    /// Runs the statement and reads its one row.
    pub async fn fetch_one(&self, on: Connection<'_>) -> Result<Row, sqlx::Error> {
        self.fetch_optional(on)
            .await?
            .ok_or(sqlx::Error::RowNotFound)
    }
}

/// `sql` as a query of database `DB` with `values` bound in order.
fn bound<'q, DB>(
    sql: &'q str,
    values: &'q [Value<'_>],
    persistent: bool,
) -> sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments<'q>>
where
    DB: sqlx::Database + sqlx::database::HasStatementCache,
    Option<i64>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Option<&'q str>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    let mut query = sqlx::query(sql).persistent(persistent);
    for value in values {
        query = match value {
            Value::Int(v) => query.bind(*v),
            Value::Text(v) => query.bind(*v),
            Value::Owned(v) => query.bind(v.as_deref()),
        };
    }
    query
}

impl Row {
    /// Column `index` as a whole number.
    pub fn int(&self, index: usize) -> Result<i64, StoreError> {
        self.get(index)
    }

    /// Column `index` as a whole number or NULL.
    pub fn opt_int(&self, index: usize) -> Result<Option<i64>, StoreError> {
        self.get(index)
    }

    /// Column `index` as text.
    pub fn text(&self, index: usize) -> Result<&str, StoreError> {
        self.get(index)
    }

    /// Column `index` as text or NULL.
    pub fn opt_text(&self, index: usize) -> Result<Option<&str>, StoreError> {
        self.get(index)
    }

    /// Column `index` as a `T`. A value that does not decode (text that is not UTF-8, a
    /// value of another type) is a damaged row, said as [`StoreError::Corrupt`] for the
    /// caller to name the row, not a failure of the database.
    fn get<'r, T>(&'r self, index: usize) -> Result<T, StoreError>
    where
        T: sqlx::Decode<'r, sqlx::Sqlite>
            + sqlx::Type<sqlx::Sqlite>
            + sqlx::Decode<'r, sqlx::Postgres>
            + sqlx::Type<sqlx::Postgres>,
    {
        let read = match self {
            Row::Sqlite(row) => row.try_get(index),
            Row::Postgres(row) => row.try_get(index),
        };
        read.map_err(|error| match error {
            sqlx::Error::ColumnDecode { source, .. } => StoreError::Corrupt {
                what: format!("row (column {index})"),
                reason: match source.downcast_ref::<std::str::Utf8Error>() {
                    Some(_) => "its text is not valid UTF-8".to_string(),
                    None => "a value is not of the kind it should be".to_string(),
                },
            },
            other => StoreError::from(other),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_reads_numbered_placeholders() {
        let statement = Statement::new("SELECT a FROM t WHERE b = ? AND c IN (?, ?)")
            .int(1)
            .text("x")
            .int(None);
        assert_eq!(
            statement.numbered(),
            "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"
        );
    }
}
