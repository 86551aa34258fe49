import type { MatrixGroup } from "./types.js";

export const alertsGroup: MatrixGroup = {
  seed: async () => ({}),
  privateText: () => [],
  idCases: [],
  listCases: [],
  valid: {},
};
