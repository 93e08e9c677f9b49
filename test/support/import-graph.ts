// The repository's module graph as TypeScript reads it: every static import and re-export (type-only ones too) and
// every dynamic import() of the source files under some folders, each resolved to the file it names. Read with the
// compiler's own preProcessFile and resolveModuleName rather than madge or dependency-cruiser: typescript is already
// a dependency, it resolves exactly as tsc does (".ts" extensions, the workspace packages' exports), and it keeps
// `import type` edges, which bundler-minded tools drop by default: a type-only cycle still ties two modules together.
// test/server/import-layers.test.ts reads it; a boundary test that needs a file's imports reads them here too.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Bundler resolution reads every file alike: they all import with extensions, as tsconfig.json's NodeNext wants. */
const RESOLUTION: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  jsx: ts.JsxEmit.ReactJSX,
};
const SOURCE_FILE = /\.(ts|tsx|mts)$/;
const TEST_FILE = /\.test\.tsx?$/;

export interface ImportGraph {
  /** Source files, relative to the root, tests and build output left out. */
  files: string[];
  /** What each file imports, as written (packages by name, relative paths). */
  specifiers: Map<string, string[]>;
  /** The repository's files each file imports (the workspace packages' sources too), relative to the root. */
  imports: Map<string, string[]>;
}

/** The source files under `dirs` (relative to `root`) and what each imports. */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const files = dirs.flatMap((dir) => sourceFiles(root, dir));
  const specifiers = new Map<string, string[]>();
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const absolute = path.join(root, file);
    const named = ts
      .preProcessFile(fs.readFileSync(absolute, "utf8"), true, true)
      .importedFiles.map((reference) => reference.fileName);
    specifiers.set(file, named);
    imports.set(
      file,
      named.flatMap((specifier) => {
        const resolved = ts.resolveModuleName(specifier, absolute, RESOLUTION, ts.sys).resolvedModule;
        const target = resolved && path.relative(root, resolved.resolvedFileName);
        return target && !target.startsWith("..") && !target.split(path.sep).includes("node_modules") ? [target] : [];
      }),
    );
  }
  return { files, specifiers, imports };
}

function sourceFiles(root: string, dir: string): string[] {
  if (!fs.existsSync(path.join(root, dir))) return [];
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).some((part) => part === "node_modules" || part === "dist"));
}

/**
 * Every import cycle, one per tangle of files that import each other (a strongly connected component, Tarjan's
 * algorithm), each written as one cycle through it: ["a.ts", "b.ts", "a.ts"].
 */
export function importCycles(graph: ImportGraph): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    lowest.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.imports.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (onStack.has(next)) lowest.set(file, Math.min(lowest.get(file)!, order.get(next)!));
    }
    if (lowest.get(file) !== order.get(file)) return;
    const tangle = new Set<string>();
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      tangle.add(member);
    } while (member !== file);
    if (tangle.size > 1 || graph.imports.get(file)?.includes(file)) cycles.push(cycleThrough(graph, file, tangle));
  };
  for (const file of graph.files) if (!order.has(file)) visit(file);
  return cycles;
}

/** The shortest way from `start` back to itself inside `tangle` (breadth first). */
function cycleThrough(graph: ImportGraph, start: string, tangle: ReadonlySet<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.imports.get(file) ?? []) {
      if (!tangle.has(next)) continue;
      if (next === start) {
        const way: string[] = [];
        for (let at = file; at !== start; at = cameFrom.get(at)!) way.unshift(at);
        return [start, ...way, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/** `starts` and every file they import, directly or through others (type-only imports too: a superset of what loads). */
export function importedFrom(graph: ImportGraph, starts: readonly string[]): Set<string> {
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const next of graph.imports.get(file) ?? []) visit(next);
  };
  for (const file of starts) visit(file);
  return reached;
}
