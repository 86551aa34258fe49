export * from "./batcher.js";
