import type { MatrixGroup } from "./types.js";

export const reportsGroup: MatrixGroup = {
  seed: async () => ({}),
  privateText: () => [],
  idCases: [],
  listCases: [],
  valid: {},
};
