# Build stage: compile the release binary.
FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY migrations ./migrations
COPY config ./config
COPY assets ./assets
COPY benches ./benches
RUN cargo build --release --locked --bin referee

# Run stage: the binary alone on a small base; the database lives on a volume.
FROM debian:bookworm-slim
# No system certificates needed: TLS to Discord is rustls with bundled webpki roots.
# /backups is where compose.yaml mounts the volume of the rotating backups; a new volume takes
# its owner from here.
RUN useradd --system --home /data referee && mkdir -p /data /backups \
    && chown referee /data /backups
COPY --from=build /src/target/release/referee /usr/local/bin/referee
USER referee
WORKDIR /data
VOLUME ["/data"]
ENV REFEREE_DATABASE_URL=sqlite:///data/referee.db
# The operator's listener: /healthz (which `referee health` asks: the image has no curl) and
# /metrics for Prometheus. It has no password: publish it on a private address only
# (`-p 127.0.0.1:9898:9898`).
ENV REFEREE_HEALTH_LISTEN=0.0.0.0:9898
EXPOSE 9898
HEALTHCHECK --interval=30s --timeout=20s --start-period=60s --retries=3 CMD ["referee", "health"]
# DISCORD_TOKEN must be given at `docker run` (-e DISCORD_TOKEN=...).
ENTRYPOINT ["referee"]
CMD ["run"]
