export { startRules, type Rules } from "./service.js";
