export * from "./public-address.js";
export * from "./request.js";
