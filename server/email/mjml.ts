// mjml 5, typed: it ships no types, and @types/mjml describes mjml 4's synchronous API (mjml 5 compiles
// asynchronously). Loaded through require, typed here, so neither TypeScript project needs an ambient declaration.
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

export const mjml2html = createRequire(import.meta.url)("mjml") as (
  input: string,
  options?: MjmlOptions,
) => Promise<MjmlResult>;
