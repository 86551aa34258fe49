/** The API version reported by get_devices_latest; bumped when a response shape changes. */
export const API_VERSION = "1.0.0";
