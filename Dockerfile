# svc in a container: the daemon runs as an unprivileged user, its home (database, logs, sockets,
# credentials) is the volume /home/svc/.svc. Build and run:
#   docker build -t svc .
#   docker run -d --name svc -p 127.0.0.1:8700:8700 -v svc-home:/home/svc/.svc \
#     -e SVC_TOKEN="$(openssl rand -hex 32)" svc
# The control plane listens on all of the container's interfaces, so requests arrive from the
# bridge's address, not loopback: give it a token (SVC_TOKEN, or control_token_file in the home's
# config.toml) and send `Authorization: Bearer <token>`. The inbox socket is inside the volume:
#   docker exec svc svc inbox sources list
FROM node:20-bookworm-slim AS build
# Native modules (better-sqlite3, node-pty) build here when no prebuilt binary fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY scripts ./scripts
COPY src ./src
COPY openapi ./openapi
COPY examples ./examples
COPY contrib ./contrib
COPY config.example.toml README.md ./
# npm ci builds dist/ (prepare: the daemon, and the console bundled by scripts/build-console.js); npm pack makes the same tarball `npm i -g` installs anywhere.
RUN npm ci && npm pack && mv svc-*.tgz /svc.tgz

FROM node:20-bookworm-slim
# tmux: the inbox's terminal target; git: workspaces and worktrees; ripgrep: search_files.
RUN apt-get update && apt-get install -y --no-install-recommends tmux git ripgrep python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /svc.tgz /tmp/svc.tgz
RUN npm i -g /tmp/svc.tgz && rm /tmp/svc.tgz && npm cache clean --force \
 && apt-get purge -y python3 make g++ && apt-get autoremove -y
RUN useradd --create-home --uid 10001 svc
USER svc
ENV SVC_HOME=/home/svc/.svc
RUN mkdir -m 0700 /home/svc/.svc
VOLUME /home/svc/.svc
EXPOSE 8700
STOPSIGNAL SIGTERM
ENTRYPOINT ["svc"]
CMD ["serve", "--listen", "0.0.0.0:8700"]
