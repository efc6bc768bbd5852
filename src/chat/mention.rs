//! How texts name a channel: on Discord its mention (`<#123>`, which every reader sees as the
//! channel's name and can click), on the console `#name`.

/// The channel `id` as a text names it: a platform's numeric id becomes its mention.
pub fn channel(id: &str) -> String {
    if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
        format!("<#{id}>")
    } else {
        format!("#{id}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn numeric_ids_are_mentions_and_names_keep_their_hash() {
        assert_eq!(super::channel("700"), "<#700>");
        assert_eq!(super::channel("tag-game"), "#tag-game");
    }
}
