export * from "./contracts.js";
export * from "./errors.js";
export * from "./formats.js";
export * from "./json.js";
export * from "./client.js";
export * from "./redact.js";
export * from "./server.js";
export * from "./transport.js";
