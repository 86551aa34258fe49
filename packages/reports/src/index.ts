export * from "./document.js";
