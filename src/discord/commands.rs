//! The table's registry as slash commands (`/join`, `/play move 1 5`, `/order bid 12`).
//! Typed text never comes here: `!join` and every other typed word reach the table through
//! the one path for typed messages (`events`). A slash command hands the table the words it
//! stands for, as typed in the channel or, for what is said by DM, as a direct message, and
//! is answered on the interaction: privately for what the registry marks private (`/order`,
//! `/vacation`, `/setup`, `/help`, `/rules`) and any refusal; everything else goes through
//! the outbox.

use super::buttons::components;
use super::embeds::{answer_embed, split_text, MESSAGE_LIMIT};
use super::inbound::{plain_mentions, sent_at, submit, user, Held};
use super::outbox::draw_at_once;
use super::{Bot, Context, DiscordError};
use crate::store::OutboxRow;
use crate::table::commands::{
    find, Command as TableCommand, Place, Run, Slash, SlashKind, SlashOption, REGISTRY,
};
use crate::table::{Audience, Envelope, Inbound, User};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use tracing::{info_span, warn, Instrument};

/// Every command, for the framework and for registration: each of the table's registry that
/// has a slash form.
pub(super) fn all() -> Vec<poise::Command<Arc<Bot>, DiscordError>> {
    REGISTRY.iter().filter_map(|c| from_registry(c)).collect()
}

/// A registry command's slash form: its options in order, each typed after its name.
fn from_registry(command: &'static TableCommand) -> Option<poise::Command<Arc<Bot>, DiscordError>> {
    let Slash::Options { options, .. } = &command.slash else {
        return None;
    };
    Some(poise::Command {
        name: command.name.into(),
        qualified_name: command.name.into(),
        identifying_name: command.name.into(),
        source_code_name: command.name.into(),
        description: Some(command.slash_description().into()),
        parameters: options.iter().map(parameter).collect(),
        slash_action: Some(registered),
        ..Default::default()
    })
}

/// One option of a registry command.
fn parameter(option: &'static SlashOption) -> poise::CommandParameter<Arc<Bot>, DiscordError> {
    poise::CommandParameter {
        name: option.name.into(),
        name_localizations: Vec::new().into(),
        description: Some(option.about.into()),
        description_localizations: Vec::new().into(),
        required: option.required,
        channel_types: None,
        choices: Vec::new().into(),
        type_setter: Some(match option.kind {
            SlashKind::User => |builder| builder.kind(serenity::CommandOptionType::User),
            SlashKind::Text
            | SlashKind::Game
            | SlashKind::MyGame
            | SlashKind::MySignUp
            | SlashKind::Computer => |builder| builder.kind(serenity::CommandOptionType::String),
        }),
        autocomplete_callback: match option.kind {
            SlashKind::Game => Some(complete_game),
            SlashKind::MyGame => Some(complete_my_game),
            SlashKind::MySignUp => Some(complete_my_sign_up),
            SlashKind::Text | SlashKind::User | SlashKind::Computer => None,
        },
        __non_exhaustive: (),
    }
}

/// Runs a registry command: the words it stands for go to the table as typed after the
/// prefix, or as a direct message (with `#<game>` in front when one is named) for what is
/// said by DM.
fn registered(
    ctx: poise::ApplicationContext<'_, Arc<Bot>, DiscordError>,
) -> poise::BoxFuture<'_, Result<(), poise::FrameworkError<'_, Arc<Bot>, DiscordError>>> {
    Box::pin(async move {
        let Some(command) = find(&ctx.command().name) else {
            return Ok(());
        };
        let Slash::Options { options, private } = &command.slash else {
            return Ok(());
        };
        // The words it stands for begin with its name (`order bid 12`), but for `/play` in
        // a direct message, whose words are an order as they are (`bid 12`).
        let in_dm = ctx.interaction.guild_id.is_none();
        let mut text = match (&command.run, in_dm) {
            (Run::Action, true) => String::new(),
            _ => command.name.to_string(),
        };
        let mut game = None;
        for option in options.iter() {
            let value = ctx.args.iter().find(|given| given.name == option.name);
            match value.map(|given| &given.value) {
                Some(serenity::ResolvedValue::String(words))
                    if matches!(option.kind, SlashKind::MyGame | SlashKind::MySignUp) =>
                {
                    game = Some(words.trim().trim_start_matches('#').to_string());
                }
                Some(serenity::ResolvedValue::String(words))
                    if option.kind == SlashKind::Computer =>
                {
                    text.push_str(" bot ");
                    text.push_str(words.trim());
                }
                Some(serenity::ResolvedValue::String(words)) => {
                    text.push(' ');
                    text.push_str(words.trim());
                }
                Some(serenity::ResolvedValue::User(user, _)) => {
                    text.push_str(&format!(" {}", user.id));
                }
                None => {}
                // A value of another kind than the option's (a client that sends a number
                // for a text): answered like any option poise could not read.
                Some(_) => {
                    return Err(poise::FrameworkError::new_argument_parse(
                        ctx.into(),
                        None,
                        format!("the option '{}' has a value of another kind", option.name).into(),
                    ))
                }
            }
        }
        let privacy = match private {
            true => Privacy::Private,
            false => Privacy::Public,
        };
        let done = match command.place() {
            Place::Direct => direct_command(ctx.into(), text, game).await,
            Place::Channel | Place::Both => channel_command(ctx.into(), text, privacy).await,
        };
        done.map_err(|error| poise::FrameworkError::new_command(ctx.into(), error))
    })
}

/// Offers the games' names for an option that takes one.
fn complete_game<'a>(
    ctx: poise::ApplicationContext<'a, Arc<Bot>, DiscordError>,
    partial: &'a str,
) -> poise::BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(game_names(ctx.into(), partial))
}

/// Offers the asker's games for an option that takes one of them.
fn complete_my_game<'a>(
    ctx: poise::ApplicationContext<'a, Arc<Bot>, DiscordError>,
    partial: &'a str,
) -> poise::BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(own_games(ctx.into(), partial))
}

/// Offers the games in sign-up the asker runs, for an option that takes one of them.
fn complete_my_sign_up<'a>(
    ctx: poise::ApplicationContext<'a, Arc<Bot>, DiscordError>,
    partial: &'a str,
) -> poise::BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(sign_ups_run(ctx.into(), partial))
}

/// Registers the slash commands in the configured guilds, or globally when there are none.
pub(super) async fn register(
    ctx: &serenity::Context,
    framework: &poise::Framework<Arc<Bot>, DiscordError>,
    guilds: &[u64],
) -> Result<(), DiscordError> {
    let commands = &framework.options().commands;
    if guilds.is_empty() {
        poise::builtins::register_globally(ctx, commands).await?;
    }
    for guild in guilds {
        poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(*guild)).await?;
    }
    Ok(())
}

/// Whether the invoker of a slash command may use admin powers: by the settings, or by the
/// Administrator or Manage Server permission.
fn admin(ctx: Context<'_>) -> bool {
    let by_permission = match ctx {
        poise::Context::Application(app) => app
            .interaction
            .member
            .as_ref()
            .and_then(|member| member.permissions)
            .is_some_and(|p| p.administrator() || p.manage_guild()),
        poise::Context::Prefix(_) => false,
    };
    by_permission || ctx.data().is_admin(ctx.author().id)
}

/// How a slash command is answered.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Privacy {
    /// In the open, unless it is refused.
    Public,
    /// Only the user who asked sees it.
    Private,
}

/// Runs one channel command. `text` is the command without prefix (`join red`).
async fn channel_command(
    ctx: Context<'_>,
    text: String,
    privacy: Privacy,
) -> Result<(), DiscordError> {
    let bot = ctx.data().clone();
    async move {
        let poise::Context::Application(app) = ctx else {
            return Ok(());
        };
        let interaction = app.interaction;
        let who = invoker(interaction);
        let text = plain_mentions(&text);
        let channel = interaction.channel_id.get().to_string();
        let (inbound, audience) = match interaction.guild_id {
            Some(_) => (
                Inbound::Channel {
                    channel: channel.clone(),
                    user: who,
                    admin: admin(ctx),
                    text: format!("{}{text}", bot.prefix),
                },
                Audience::Channel(channel),
            ),
            None => (
                Inbound::Direct { user: who, text },
                Audience::Direct(interaction.user.id.get().to_string()),
            ),
        };
        interact(ctx, &bot, inbound, &audience, privacy).await
    }
    .instrument(command_span(ctx))
    .await
}

/// The span every slash command runs in: its name and who invoked it.
fn command_span(ctx: Context<'_>) -> tracing::Span {
    info_span!("command", name = %ctx.command().name, user = %ctx.author().id)
}

/// Who invoked an interaction, under their nickname on the server if they have one.
fn invoker(interaction: &serenity::CommandInteraction) -> User {
    let nick = interaction.member.as_ref().and_then(|m| m.nick.as_deref());
    user(&interaction.user, nick)
}

/// Applies an interaction's input once and answers it: a duplicate delivery of the same
/// interaction is neither applied nor answered again.
async fn interact(
    ctx: Context<'_>,
    bot: &Bot,
    inbound: Inbound,
    audience: &Audience,
    privacy: Privacy,
) -> Result<(), DiscordError> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let id = app.interaction.id.get();
    let resolved = &app.interaction.data.resolved;
    let envelope = Envelope {
        id: id.to_string(),
        place: None,
        sent: sent_at(id),
        mentioned: resolved
            .users
            .iter()
            .map(|(user_id, mentioned)| {
                let nick = resolved
                    .members
                    .get(user_id)
                    .and_then(|member| member.nick.as_deref());
                user(mentioned, nick)
            })
            .collect(),
        server: app
            .interaction
            .guild_id
            .map(|guild| guild.get().to_string()),
        edited: None,
    };
    let (receipt, rows) = submit(bot, &envelope, inbound, true, Held::No).await?;
    if !receipt.fresh {
        return Ok(());
    }
    let privacy = match receipt.refused {
        true => Privacy::Private,
        false => privacy,
    };
    answer(ctx, bot, rows, audience, privacy).await
}

/// Answers an interaction with the plain rows it queued for `audience` (as many as fit in
/// one message) and, when the last of them is a record card (`/stats`, `/leaderboard` with
/// its chart), with that card as an embed; marks them delivered, and leaves every other row
/// to the outbox worker. A private answer carries no buttons: they belong to public posts.
async fn answer(
    ctx: Context<'_>,
    bot: &Bot,
    rows: Vec<OutboxRow>,
    audience: &Audience,
    privacy: Privacy,
) -> Result<(), DiscordError> {
    let all: Vec<i64> = rows.iter().map(|row| row.id).collect();
    let mut taken = Vec::new();
    // The answer's messages: the rows for the asker, as many as fit in one message each; a
    // row longer than a message (the rules of a game) goes in parts, so a private answer
    // stays private however long it is.
    let mut messages: Vec<String> = Vec::new();
    let mut rows_of_buttons = Vec::new();
    let mut embed = None;
    let last_row = rows.iter().rposition(|row| row.audience == *audience);
    for (at, row) in rows.iter().enumerate() {
        // A board (a picture, a card with fields or buttons) or a file goes out through the
        // outbox, which paces and attaches it; plain text is the interaction's own answer,
        // and so is a record card that comes last.
        let plain = row.svg.is_none()
            && row.file.is_none()
            && row.card.as_ref().is_none_or(|c| c.title.is_none());
        if row.audience != *audience || messages.len() >= MAX_ANSWERS {
            continue;
        }
        if !plain {
            if Some(at) == last_row && is_record(row) {
                let png = draw_at_once(row).await;
                if row.svg.is_none() || png.is_some() {
                    embed = answer_embed(row, png);
                    if embed.is_some() {
                        taken.push(row.id);
                    }
                }
            }
            continue;
        }
        let last = messages.last().map_or(0, |m| m.chars().count());
        if !messages.is_empty() && last + row.body.chars().count() + 2 <= MESSAGE_LIMIT {
            if let Some(message) = messages.last_mut() {
                message.push_str("\n\n");
                message.push_str(&row.body);
            }
        } else {
            let parts = split_text(&row.body, MESSAGE_LIMIT);
            if messages.len() + parts.len() > MAX_ANSWERS {
                continue;
            }
            messages.extend(parts);
        }
        taken.push(row.id);
        if let (Some(card), Privacy::Public) = (&row.card, privacy) {
            rows_of_buttons.extend(components(row.id, &card.buttons));
        }
    }
    rows_of_buttons.truncate(5);
    let private = privacy == Privacy::Private || taken.is_empty();
    if messages.is_empty() && embed.is_none() {
        messages.push("Done; the answer is posted.".to_string());
    }
    if messages.is_empty() {
        messages.push(String::new());
    }
    let last = messages.len() - 1;
    let mut sent = Ok(());
    for (index, message) in messages.into_iter().enumerate() {
        let mut reply = poise::CreateReply::default().ephemeral(private);
        if !message.is_empty() {
            reply = reply.content(message);
        }
        if index == last {
            reply = reply.components(std::mem::take(&mut rows_of_buttons));
            if let Some((card, picture)) = embed.take() {
                reply = reply.embed(card);
                if let Some(picture) = picture {
                    reply = reply.attachment(picture);
                }
            }
        }
        sent = ctx.send(reply).await.map(|_| ());
        if sent.is_err() {
            break;
        }
    }
    if sent.is_err() {
        taken.clear();
    }
    // The command was applied whatever becomes of its bookkeeping: the log says, not the user.
    if let Err(error) = bot.answered(&taken, &all).await {
        warn!(%error, "an interaction's answer could not be marked delivered");
    }
    sent.map_err(DiscordError::from)
}

/// Whether a row is a record card (a player's record, a leaderboard): a title and text, no
/// fields, buttons or deadline, as an interaction may show as its own answer.
fn is_record(row: &OutboxRow) -> bool {
    row.file.is_none()
        && row.card.as_ref().is_some_and(|card| {
            card.title.is_some()
                && card.fields.is_empty()
                && card.buttons.is_empty()
                && card.deadline.is_none()
        })
}

/// The most messages one interaction's answer takes (the first, then follow-ups).
const MAX_ANSWERS: usize = 5;

/// Autocompletion choices: (what the user reads, what is filled in); Discord shows 25.
fn choices(names: Vec<(String, String)>) -> serenity::CreateAutocompleteResponse {
    serenity::CreateAutocompleteResponse::new().set_choices(
        names
            .into_iter()
            .take(25)
            .map(|(label, value)| serenity::AutocompleteChoice::new(label, value))
            .collect(),
    )
}

async fn game_names(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let names = ctx
        .data()
        .service
        .catalogue()
        .all()
        .iter()
        .map(|rules| rules.name().to_string())
        .filter(|name| name.starts_with(&partial.to_ascii_lowercase()))
        .map(|name| (name.clone(), name))
        .collect();
    choices(names)
}

async fn own_games(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    games_among(ctx, partial, false).await
}

async fn sign_ups_run(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    games_among(ctx, partial, true).await
}

/// The asker's games whose names hold `partial`: those they play in, or (`run`) those in
/// sign-up they are the GM of.
async fn games_among(
    ctx: Context<'_>,
    partial: &str,
    run: bool,
) -> serenity::CreateAutocompleteResponse {
    let user = ctx.author().id.get().to_string();
    let Ok(mut tx) = ctx.data().service.store().begin().await else {
        return choices(Vec::new());
    };
    let games = match run {
        true => tx.games_in_signup_of_gm(&user).await,
        false => tx.games_of_user(&user).await,
    }
    .unwrap_or_default();
    let mut names = Vec::new();
    for id in games {
        if let Ok(Some(game)) = tx.game(id).await {
            let name = format!("#{id} {}", game.record.game);
            if name.contains(partial.trim_start_matches('#')) {
                names.push((name, format!("#{id}")));
            }
        }
    }
    choices(names)
}

/// Hands `text` to the table as a direct message from the invoker (for one of their games,
/// when `game` names it); only the invoker sees the answer.
async fn direct_command(
    ctx: Context<'_>,
    text: String,
    game: Option<String>,
) -> Result<(), DiscordError> {
    let bot = ctx.data().clone();
    async move {
        let poise::Context::Application(app) = ctx else {
            return Ok(());
        };
        let who = invoker(app.interaction);
        let text = match game {
            Some(game) => format!("#{game} {}", text.trim()),
            None => text.trim().to_string(),
        };
        let audience = Audience::Direct(who.id.clone());
        let inbound = Inbound::Direct { user: who, text };
        interact(ctx, &bot, inbound, &audience, Privacy::Private).await
    }
    .instrument(command_span(ctx))
    .await
}
