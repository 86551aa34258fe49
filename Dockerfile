# One image for the four apps; docker-compose.yml picks the app with its command.
FROM node:20-bookworm-slim
WORKDIR /app
RUN npm install -g pnpm@10.34.9
COPY . .
RUN pnpm install --frozen-lockfile && pnpm build
ENV NODE_ENV=production
