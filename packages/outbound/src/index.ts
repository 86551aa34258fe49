export * from "./public-address.js";
export * from "./request.js";
export * from "./sms-gateway.js";
