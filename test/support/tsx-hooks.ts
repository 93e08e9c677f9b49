// The module hook test/support/tsx.ts registers (it runs on Node's loader thread).
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";

type Load = (url: string, context: object) => Promise<{ format?: string | null; source?: unknown; shortCircuit?: boolean }>;

export async function load(url: string, context: object, nextLoad: Load) {
  if (!url.startsWith("file:") || !url.endsWith(".tsx")) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, "utf8"), { loader: "tsx", jsx: "automatic", format: "esm", sourcefile: path, sourcemap: "inline" });
  return { format: "module", source: code, shortCircuit: true };
}
