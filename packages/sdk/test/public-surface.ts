// The SDK's public surface as text, one symbol a line, read from src/index.ts with the TypeScript compiler: every
// export (classes, functions, constants, interfaces, type names), every public member of an exported class (inherited
// ones included: a resource's methods) and every property of an exported interface (the options). A member marked
// `@deprecated Since YYYY-MM-DD; works until YYYY-MM-DD.` carries both dates: the snapshot records when it may go.
import path from "node:path";
import ts from "typescript";

const INDEX = path.resolve(import.meta.dirname, "../src/index.ts");
const FORMAT = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** The surface of the module `index` (default the SDK's) as sorted lines; members declared beside it only. */
export function currentSurface(index = INDEX): string[] {
  const source = path.dirname(index);
  const program = ts.createProgram([index], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    noEmit: true,
    types: [],
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  });
  const checker = program.getTypeChecker();
  const ownDeclaration = (symbol: ts.Symbol) =>
    (symbol.declarations ?? []).some((d) => d.getSourceFile().fileName.startsWith(source));
  const deprecation = (symbol: ts.Symbol) => {
    const tag = symbol.getJsDocTags(checker).find((t) => t.name === "deprecated");
    if (!tag) return "";
    const text = ts.displayPartsToString(tag.text);
    const date = (word: string) => text.match(new RegExp(`${word} (\\d{4}-\\d{2}-\\d{2})`, "i"))?.[1] ?? "(no date)";
    return ` @deprecated since ${date("since")} until ${date("until")}`;
  };
  const type = (symbol: ts.Symbol) => checker.typeToString(checker.getTypeOfSymbol(symbol), undefined, FORMAT);
  const signature = (s: ts.Signature) => checker.signatureToString(s, undefined, FORMAT);
  const isPublic = (member: ts.Symbol) =>
    !member.name.startsWith("#") &&
    !member.name.startsWith("__#") &&
    !(member.declarations ?? []).some(
      (d) => ts.getCombinedModifierFlags(d) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected),
    );
  const isReadonly = (member: ts.Symbol) =>
    (member.declarations ?? []).some((d) => ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Readonly);

  const lines: string[] = [];
  const members = (owner: string, of: ts.Type) => {
    for (const member of checker.getPropertiesOfType(of)) {
      if (!isPublic(member) || !ownDeclaration(member) || member.name === "prototype") continue;
      const name = `${owner}.${member.name}`;
      if (member.flags & ts.SymbolFlags.Method) {
        for (const s of checker.getTypeOfSymbol(member).getCallSignatures())
          lines.push(`${name}${signature(s)}${deprecation(member)}`);
      } else {
        const optional = member.flags & ts.SymbolFlags.Optional ? "?" : "";
        lines.push(`${name}${optional}: ${type(member)}${isReadonly(member) ? " readonly" : ""}${deprecation(member)}`);
      }
    }
  };

  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(index)!)!;
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const name = exported.name;
    const note = deprecation(symbol);
    if (symbol.flags & ts.SymbolFlags.Class) {
      const instance = checker.getDeclaredTypeOfSymbol(symbol) as ts.InterfaceType;
      const base = checker.getBaseTypes(instance)[0];
      lines.push(`${name}: class${base ? ` extends ${checker.typeToString(base, undefined, FORMAT)}` : ""}${note}`);
      const statics = checker.getTypeOfSymbol(symbol);
      for (const s of statics.getConstructSignatures())
        lines.push(
          `${name}.constructor(${signature(s)
            .replace(/^[^(]*\(/, "")
            .replace(/\):.*$/s, ")")}`,
        );
      members(`${name}.static`, statics);
      members(name, instance);
    } else if (symbol.flags & ts.SymbolFlags.Function) {
      for (const s of checker.getTypeOfSymbol(symbol).getCallSignatures()) lines.push(`${name}${signature(s)}${note}`);
    } else if (symbol.flags & ts.SymbolFlags.Variable) {
      lines.push(`${name}: ${type(symbol)}${note}`);
    } else if (symbol.flags & ts.SymbolFlags.Interface) {
      lines.push(`${name}: interface${note}`);
      members(name, checker.getDeclaredTypeOfSymbol(symbol));
    } else {
      lines.push(`${name}: type${note}`);
    }
  }
  return [...new Set(lines)].sort();
}

/** A line's symbol: what precedes its signature or type (`ProtectionClient.post`, `ProtectionClientOptions.baseUrl`). */
export const symbolOf = (line: string) => line.match(/^[^(:<?\s]+/)![0];

export interface SurfaceChanges {
  /** Released symbols gone without a deprecation whose date has passed: the covenant forbids these. */
  removedWithoutDeprecation: string[];
  /** Released symbols gone after their deprecation's `until` date: allowed (a major version). */
  removedAfterSunset: string[];
  /** Symbols whose signature, type or deprecation changed. */
  changed: string[];
  added: string[];
}

/** What changed from the released surface to the current one, as of `today` (YYYY-MM-DD). */
export function compareSurfaces(released: string[], current: string[], today: string): SurfaceChanges {
  const group = (lines: string[]) => {
    const bySymbol = new Map<string, string[]>();
    for (const line of lines) bySymbol.set(symbolOf(line), [...(bySymbol.get(symbolOf(line)) ?? []), line]);
    return bySymbol;
  };
  const before = group(released);
  const after = group(current);
  const changes: SurfaceChanges = { removedWithoutDeprecation: [], removedAfterSunset: [], changed: [], added: [] };
  for (const [symbol, lines] of before) {
    const now = after.get(symbol);
    if (now === undefined) {
      const until = lines.map((line) => line.match(/ @deprecated since \S+ until (\d{4}-\d{2}-\d{2})$/)?.[1]);
      const sunsetPassed = until.every((date) => date !== undefined && date < today);
      (sunsetPassed ? changes.removedAfterSunset : changes.removedWithoutDeprecation).push(...lines);
    } else if (lines.join("\n") !== now.join("\n")) {
      changes.changed.push(symbol);
    }
  }
  for (const symbol of after.keys()) if (!before.has(symbol)) changes.added.push(...after.get(symbol)!);
  return changes;
}
