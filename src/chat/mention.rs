//! How texts name a channel or a user given by id: on Discord its mention (`<#123>`,
//! `<@123>`, which every reader sees as the name and can click), on the console as typed.

/// The channel `id` as a text names it: a platform's numeric id becomes its mention.
pub fn channel(id: &str) -> String {
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
