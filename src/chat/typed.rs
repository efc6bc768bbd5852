//! Commands printed exactly as they must be typed. A game writes one of its public actions in
//! its texts as `` `!word ...` `` (a game does not know the table's prefix); before a post is
//! stored the table gives every such form its own prefix, so a line a player copies from a
//! prompt, a refusal or `!rules` is a line the parser takes.

use std::borrow::Cow;

/// The mark a game's texts put before a public action inside backticks.
pub const ACTION_MARK: &str = "`!";

/// `text` with every command form `` `!...` `` written with `prefix` instead of `!`.
pub fn with_prefix<'a>(text: &'a str, prefix: &str) -> Cow<'a, str> {
    if prefix == "!" || !text.contains(ACTION_MARK) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.replace(ACTION_MARK, &format!("`{prefix}")))
}

#[cfg(test)]
mod tests {
    use super::with_prefix;

    #[test]
    fn a_game_action_takes_the_table_prefix() {
        assert_eq!(
            with_prefix("Answer `!place <x> <y> <rotation>` or `!pass`.", "?"),
            "Answer `?place <x> <y> <rotation>` or `?pass`."
        );
        assert_eq!(with_prefix("Answer `!pass`.", "!"), "Answer `!pass`.");
        assert_eq!(with_prefix("wow! `move`", "?"), "wow! `move`");
    }
}
