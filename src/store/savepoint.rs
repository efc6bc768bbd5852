//! The savepoints of a group commit: each message of a batch runs inside one, so a message
//! that fails is taken back alone. On SQLite they are not statements of their own: a
//! transaction owes them ([`Owed`]) and runs them in front of its next statement, since under
//! a burst every call on the one connection (a turn between a task and SQLite's thread) costs
//! more than the statement it carries.

/// One of the two names a message's savepoint takes, in turn. Were every savepoint named
/// alike, a failure of the release owed for one message, run in front of the next message's
/// first statement, would leave that savepoint open, and taking the next message back would
/// take back the one before it, whose result says it was applied; with the names
/// alternating, that rollback finds no savepoint of its name and fails the batch instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Name {
    /// `message_a`.
    A,
    /// `message_b`.
    B,
}

impl Name {
    /// The name the next message's savepoint takes.
    pub(super) fn other(self) -> Name {
        match self {
            Name::A => Name::B,
            Name::B => Name::A,
        }
    }

    /// The statement that opens the savepoint.
    pub(super) fn open(self) -> &'static str {
        match self {
            Name::A => "SAVEPOINT message_a",
            Name::B => "SAVEPOINT message_b",
        }
    }

    /// The statement that keeps what was written since the savepoint opened.
    pub(super) fn release(self) -> &'static str {
        match self {
            Name::A => "RELEASE message_a",
            Name::B => "RELEASE message_b",
        }
    }

    /// The statement that takes back what was written since the savepoint opened.
    pub(super) fn roll_back(self) -> &'static str {
        match self {
            Name::A => "ROLLBACK TO message_a",
            Name::B => "ROLLBACK TO message_b",
        }
    }
}

/// The savepoint statements a SQLite transaction owes: the last message's savepoint to
/// release, then the next message's to open. They run with the next statement: in the same
/// call when it reads rows, alone just before it otherwise (SQLite counts, for a statement
/// that changes no row, the rows the last change changed, which would blur a count the
/// caller reads). A commit needs none of them: it releases every savepoint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Owed {
    /// The savepoint to release.
    pub(super) release: Option<Name>,
    /// The savepoint to open, after that.
    pub(super) open: Option<Name>,
}

impl Owed {
    /// Whether nothing is owed.
    pub(super) fn is_nothing(self) -> bool {
        self == Owed::default()
    }

    /// The statements owed, each ended by `;`, in order.
    pub(super) fn sql(self) -> &'static str {
        use Name::{A, B};
        match (self.release, self.open) {
            (None, None) => "",
            (Some(A), None) => "RELEASE message_a; ",
            (Some(B), None) => "RELEASE message_b; ",
            (None, Some(A)) => "SAVEPOINT message_a; ",
            (None, Some(B)) => "SAVEPOINT message_b; ",
            (Some(A), Some(A)) => "RELEASE message_a; SAVEPOINT message_a; ",
            (Some(A), Some(B)) => "RELEASE message_a; SAVEPOINT message_b; ",
            (Some(B), Some(A)) => "RELEASE message_b; SAVEPOINT message_a; ",
            (Some(B), Some(B)) => "RELEASE message_b; SAVEPOINT message_b; ",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_owed_reads_as_the_statements_one_by_one_would() {
        for release in [None, Some(Name::A), Some(Name::B)] {
            for open in [None, Some(Name::A), Some(Name::B)] {
                let one_by_one: String = release
                    .map(Name::release)
                    .into_iter()
                    .chain(open.map(Name::open))
                    .map(|statement| format!("{statement}; "))
                    .collect();
                assert_eq!(Owed { release, open }.sql(), one_by_one);
            }
        }
    }
}
