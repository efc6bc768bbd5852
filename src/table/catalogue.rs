//! The games a table can host, by name.

use crate::games::{Game, Rules};
use crate::records::GameRecord;

/// The list of games the bot offers (`!games`).
#[derive(Clone)]
pub struct Catalogue {
    games: Vec<&'static dyn Rules>,
}

impl Catalogue {
    /// A catalogue of exactly these games (tests add their own).
    pub fn new(games: Vec<&'static dyn Rules>) -> Catalogue {
        Catalogue { games }
    }

    /// The games this bot hosts.
    pub fn standard() -> Catalogue {
        Catalogue::new(vec![
            &crate::games::tag::TAG_RULES,
            &crate::games::circuit::CIRCUIT,
            &crate::games::parcheesi::PARCHEESI,
            &crate::games::short_circuit::SHORT_CIRCUIT_RULES,
            &crate::games::carcassonne::CARCASSONNE_RULES,
        ])
    }

    /// The game called `name`, however it is cased or hyphenated (`Short-Circuit` is
    /// `shortcircuit`).
    pub fn find(&self, name: &str) -> Option<&'static dyn Rules> {
        let name: String = name
            .chars()
            .filter(|c| !matches!(c, '-' | '_'))
            .collect::<String>()
            .to_lowercase();
        self.games
            .iter()
            .copied()
            .find(|rules| rules.name() == name)
    }

    /// The game of a record, loaded from its saved state (`None`: not started, or a game or
    /// state this bot cannot read).
    pub fn load(&self, record: &GameRecord) -> Option<Box<dyn Game>> {
        let rules = self.find(&record.game)?;
        rules.load(record.state.as_ref()?).ok()
    }

    /// Whether `word` is a public action of one of the games: a line beginning with it, even
    /// without the prefix, may be answered (with the line to type), so it counts against the
    /// sender's limit of commands like a command does. Only names count: a short alias (`e`)
    /// is too often a word of chatter.
    pub fn is_action(&self, word: &str) -> bool {
        let word = word.to_lowercase();
        self.games
            .iter()
            .any(|rules| rules.commands().iter().any(|command| command.name == word))
    }

    /// Every game, in the order `!games` lists them.
    pub fn all(&self) -> &[&'static dyn Rules] {
        &self.games
    }
}
