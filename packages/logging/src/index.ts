export { createLogger, type LoggerOptions } from "./logger.js";
export { errorSerializer, requestSerializer } from "./serializers.js";
export { REDACTED, SECRET_PARAMS, redactQueryText, redactUrl } from "./secrets.js";
