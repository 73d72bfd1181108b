// Bundle the pages into the Python package (libs/gamehall/web/static), so `make run` needs no Node:
// app.js (TypeScript, with the generated API client), app.css (the pages' and the renderers' styles) and
// index.html. `make web` runs this after `buf generate`.
import * as esbuild from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const out = here("../libs/gamehall/web/static/");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await esbuild.build({
  entryPoints: { app: here("src/main.ts") },
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2022"],
  outdir: out,
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync(here("index.html"), `${out}/index.html`);
