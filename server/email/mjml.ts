// mjml 5, typed: it ships no types, and @types/mjml describes mjml 4's synchronous API (mjml 5 compiles
// asynchronously). Loaded through require on the first e-mail, not at import: it takes about half a second to load,
// which every API process would otherwise pay at start.
import { createRequire } from "node:module";

export interface MjmlOptions {
  /** "strict" throws on invalid MJML; "soft" (mjml's default) returns the errors. */
  validationLevel?: "strict" | "soft" | "skip";
  /** Web fonts to import when a font family names them; {} imports none. */
  fonts?: Record<string, string>;
}

export interface MjmlResult {
  html: string;
  errors: { line: number; message: string; tagName: string; formattedMessage: string }[];
}

type Mjml2Html = (input: string, options?: MjmlOptions) => Promise<MjmlResult>;

let compiler: Mjml2Html | undefined;

/** Compiles an MJML document to the HTML e-mail. */
export function mjml2html(input: string, options?: MjmlOptions): Promise<MjmlResult> {
  compiler ??= createRequire(import.meta.url)("mjml") as Mjml2Html;
  return compiler(input, options);
}
