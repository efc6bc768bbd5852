//! The whole table never panics and never corrupts a game, whatever players type: random
//! transcripts of commands, orders and noise (raise the number of cases with PROPTEST_CASES).

mod common;

use proptest::prelude::*;
use referee::table::audit::replay;

fn line() -> impl Strategy<Value = String> {
    let user = prop::sample::select(vec!["alice", "bob", "carol", "dave"]);
    let channel_text = prop_oneof![
        prop::sample::select(vec![
            "!new dicey seed=3",
            "!join",
            "!leave",
            "!start",
            "!board",
            "!status",
            "!log",
            "!log 1",
            "!resolve",
            "!deadline 2h",
            "!deadline 9999999w",
            "!kick @bob",
            "!replace @carol @erin",
            "!pause",
            "!resume",
            "!end",
            "!roll",
            "!help",
            "!help roll",
            "!games",
            "!new dicey reminder=99999w",
        ])
        .prop_map(String::from),
        "!\\PC{0,30}",
    ];
    let dm_text = prop_oneof![
        prop::sample::select(vec![
            "guess 3",
            "guess 7",
            "status",
            "help",
            "#1 guess 2",
            "#2 guess 1",
            "setup turn=1h"
        ])
        .prop_map(String::from),
        "\\PC{0,30}",
    ];
    prop_oneof![
        (user.clone(), channel_text).prop_map(|(u, t)| format!("{u} #dice: {t}")),
        (user, dm_text).prop_map(|(u, t)| format!("{u} dm: {t}")),
        prop::sample::select(vec!["clock +1h", "clock +13h", "clock +3d"]).prop_map(String::from),
    ]
}

proptest! {
    #![proptest_config(common::proptest_config(24))]

    #[test]
    fn random_transcripts_never_panic_and_always_replay(lines in prop::collection::vec(line(), 1..60)) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let service = common::service("sqlite::memory:").await;
            let script = format!(
                "alice #dice: !new dicey seed=3\nbob #dice: !join\ncarol #dice: !join\n{}\n",
                lines.join("\n")
            );
            let output = common::play_on(&service, &script, common::start_time(), &[]).await;
            prop_assert!(!output.is_empty());
            let report = replay(&service, 1).await.unwrap();
            prop_assert!(report.matches(), "{:?}\n{script}", report.differences);
            Ok(())
        })?;
    }
}
