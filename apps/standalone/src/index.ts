export { startStandalone, type Standalone } from "./main.js";
