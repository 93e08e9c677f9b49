// The covered reasons' published names (the rulebook's, server/domain/disclosure.ts), for loaders to hand to pages:
// the pages run in the browser too and reach the core only through their loader's data.
import { COVERED_REASONS, reasonName } from "../../server/index.ts";

export const REASON_NAMES: Record<string, string> = Object.fromEntries(
  COVERED_REASONS.map((code) => [code, reasonName(code)]),
);
