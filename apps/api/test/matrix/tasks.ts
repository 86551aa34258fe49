import type { MatrixGroup } from "./types.js";

export const tasksGroup: MatrixGroup = {
  seed: async () => ({}),
  privateText: () => [],
  idCases: [],
  listCases: [],
  valid: {},
};
