// A worker thread does not get the main thread's `--import tsx` hooks: it loads TypeScript through tsx's own API.
import { tsImport } from "tsx/esm/api";

await tsImport("./client-thread.ts", import.meta.url);
