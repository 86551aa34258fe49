import type { MatrixGroup } from "./types.js";

/** Sign-up and password reminders: no stored record of the caller is read or written by id. */
export const accountsGroup: MatrixGroup = {
  seed: async () => ({}),
  privateText: () => [],
  idCases: [],
  listCases: [],
  accountOnly: ["post /register", "get /password_reminder", "post /password_reminder", "get /password_reset", "post /password_reset"],
  valid: {
    "post /register": () => ({ body: { email: "matrix-signup@example.com" } }),
    "get /password_reminder": () => ({ query: { email: "matrix-nobody@example.com" } }),
    "post /password_reminder": () => ({ body: { email: "matrix-nobody@example.com", code: "not-a-code", password: "matrix-Passw0rd" } }),
    "get /password_reset": () => ({ query: { email: "matrix-nobody@example.com", token: "not-a-token" } }),
    "post /password_reset": () => ({ body: { email: "matrix-nobody@example.com", token: "not-a-token", password: "matrix-Passw0rd" } }),
  },
};
