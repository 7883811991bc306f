// The pi extension's entry point (pi names the extension after this file).
export { default } from "./src/index.ts";
