import type { MatrixGroup } from "./types.js";

export const commandsGroup: MatrixGroup = {
  seed: async () => ({}),
  privateText: () => [],
  idCases: [],
  listCases: [],
  valid: {},
};
