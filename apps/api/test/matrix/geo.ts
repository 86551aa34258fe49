import type { MatrixGroup } from "./types.js";

export const geoGroup: MatrixGroup = {
  seed: async () => ({}),
  privateText: () => [],
  idCases: [],
  listCases: [],
  valid: {},
};
