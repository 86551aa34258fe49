# One image for the four apps; docker-compose.yml picks the app with its command.
FROM node:20-bookworm-slim
WORKDIR /app
RUN npm install -g pnpm@10.34.9
COPY . .
RUN pnpm install --frozen-lockfile && pnpm build
# The apps run as the image's unprivileged `node` user: a flaw in one cannot write to the code
# or the system. What they write (the mail outbox without SMTP_URL, the embedded stores of the
# all-in-one app) goes to DATA_DIR, the one directory it owns.
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production DATA_DIR=/data
USER node
