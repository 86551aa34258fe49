export { apiApp, type ApiAppOptions } from "./app.js";
export { apiAppOptions, type ApiStores } from "./compose.js";
export { assertSafeAdmin, assertSafeAdminPassword, ensureAdmin, isLoopbackHost, UnsafeStartError, type AdminAccount } from "./bootstrap.js";
export { apiServerOptions } from "./fastify-options.js";
export { API_VERSION } from "./version.js";
export { mapImageRoutes } from "./routes/map-images.js";
export { createBusCommandQueue, CommandQueueUnavailableError, type CommandQueue, type BusCommandQueueOptions } from "./lib/command-queue.js";
export { busDeadLetters, type DeadLetters, type ListedDeadLetter } from "./lib/dead-letters.js";
export { busRulesNotices, type BusRulesNoticeOptions, type RulesNoticeSender } from "./lib/rules-notices.js";
