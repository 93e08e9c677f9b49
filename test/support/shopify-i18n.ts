// Shopify's side of a UI extension's translations, as its docs describe them ("Localizing UI extensions"): the
// extension's locales/*.json are resolved for the buyer's locale (fr-CA, then fr, then the *.default.json file),
// `translate(key, options)` reads a dot-separated key, picks a plural form by `count` (Intl.PluralRules of that
// language; `other` when the form is missing) and fills each {{name}} placeholder.
import fs from "node:fs";
import path from "node:path";

export type LocaleTree = { [key: string]: string | LocaleTree };

/** An extension's locale files by name without .json ("en.default", "fr", "de", ...). */
export function localeFiles(dir: string, suffix = ".json"): Record<string, LocaleTree> {
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith(suffix) && (suffix !== ".json" || !name.endsWith(".schema.json")))
      .map((name) => [name.slice(0, -suffix.length), JSON.parse(fs.readFileSync(path.join(dir, name), "utf8"))]),
  );
}

/** The `shopify.i18n.translate` a buyer in `locale` gets for the extension in `dir`. */
export function shopifyTranslate(dir: string, locale: string) {
  const files = localeFiles(dir);
  const language = locale.split("-")[0];
  const defaultName = Object.keys(files).find((name) => name.endsWith(".default"))!;
  const chosen = files[locale] ?? files[language] ?? files[defaultName];
  const pluralRules = new Intl.PluralRules(chosen === files[defaultName] ? defaultName.split(".")[0] : locale);
  return (key: string, options: Record<string, string | number> = {}): string => {
    let entry: string | LocaleTree | undefined = key
      .split(".")
      .reduce<string | LocaleTree | undefined>(
        (node, part) => (typeof node === "object" ? node[part] : undefined),
        chosen,
      );
    if (typeof entry === "object" && typeof options.count === "number")
      entry = entry[pluralRules.select(options.count)] ?? entry.other;
    if (typeof entry !== "string") return key;
    return entry.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
      name in options ? String(options[name]) : whole,
    );
  };
}
