//! Names in a sentence: the lists the bot writes wherever it names several players.

/// Names in a sentence: "ann", "ann and ben", "ann, ben and cat".
pub fn names_in_words(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Names in a sentence of at most `limit` characters: all of them when they fit ("ann, ben
/// and cat"), else as many as fit and how many more ("ann, ben and 38 more").
pub fn names_within(names: &[String], limit: usize) -> String {
    let all = names_in_words(names);
    if all.chars().count() <= limit {
        return all;
    }
    let mut shown = String::new();
    for (index, name) in names.iter().enumerate() {
        let more = format!(" and {} more", names.len() - index);
        let next = match index {
            0 => name.clone(),
            _ => format!("{shown}, {name}"),
        };
        let after = format!(" and {} more", names.len() - index - 1);
        if next.chars().count() + after.chars().count() > limit {
            return match index {
                0 => format!("{} players", names.len()),
                _ => format!("{shown}{more}"),
            };
        }
        shown = next;
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::names_within;

    #[test]
    fn names_that_do_not_fit_end_with_how_many_more() {
        let names: Vec<String> = (0..40)
            .map(|n| format!("player-{n:02}-{}", "x".repeat(20)))
            .collect();
        let text = names_within(&names, 1024);
        assert!(text.chars().count() <= 1024, "{}", text.len());
        assert!(text.starts_with("player-00-"), "{text}");
        let shown = text.matches("player-").count();
        assert!(
            text.ends_with(&format!(" and {} more", 40 - shown)),
            "{text}"
        );
        assert_eq!(
            names_within(&names[..3], 1024),
            names[..2].join(", ") + " and " + &names[2]
        );
        assert_eq!(names_within(&names, 10), "40 players");
    }
}
