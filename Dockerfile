FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# Dev dependencies are needed once, to build the web app; the image runs TypeScript with tsx.
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
RUN npx tsx src/cli/build-web.ts
EXPOSE 3000
CMD ["npx", "tsx", "src/main.ts"]
