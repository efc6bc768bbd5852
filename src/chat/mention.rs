//! How texts name a channel or a user given by id: on Discord its mention (`<#123>`,
//! `<@123>`, which every reader sees as the name and can click), on the console as typed.

/// The place of game `game` opened as a post of the forum `forum`, until the post is made: a
/// place of its own, so the platform makes one post for it.
pub fn forum_place(forum: u64, game: i64) -> String {
    format!("forum:{forum}:{game}")
}

/// The forum a place made by [`forum_place`] belongs to (never 0); `None` for any other place.
pub fn forum_of_place(place: &str) -> Option<u64> {
    place
        .strip_prefix("forum:")?
        .split(':')
        .next()?
        .parse()
        .ok()
        .filter(|forum| *forum != 0)
}

/// The channel `id` as a text names it: a platform's numeric id becomes its mention; a game's
/// place while its forum post is being made names the forum.
pub fn channel(id: &str) -> String {
    if let Some(forum) = forum_of_place(id) {
        return format!("a new post of <#{forum}>");
    }
    if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
        format!("<#{id}>")
    } else {
        format!("#{id}")
    }
}

/// A user named by `id` or by a typed name (`!kick @ben`): a platform's numeric id becomes
/// its mention, a name stays as typed.
pub fn user(id: &str) -> String {
    if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
        format!("<@{id}>")
    } else {
        id.to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn numeric_ids_are_mentions_and_names_keep_their_hash() {
        assert_eq!(super::channel("700"), "<#700>");
        assert_eq!(super::channel("tag-game"), "#tag-game");
        assert_eq!(super::user("700"), "<@700>");
        assert_eq!(super::user("ben"), "ben");
    }
}
