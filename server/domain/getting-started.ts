// The getting-started checklist's facts (docs/dashboard.md "Getting started as a merchant"): from sign-up to a first live order,
// each step read from what it leaves behind, in test mode — where a new merchant starts and integrates.
import type { Services, Tx } from "./context.ts";
import { findFirstActiveProgram } from "../store/programs.ts";
import {
  hasPlan,
  hasQuote,
  hasWebhookEndpoint,
  keyKindsInForce,
  publishableKeyInForce,
} from "../store/getting-started.ts";

export interface GettingStartedFacts {
  /** A test publishable and a test secret (or restricted) key are in force. */
  testKeyPair: boolean;
  /** The newest test publishable key's value, for the widget snippet; null when none in force kept its value. */
  publishableKey: string | null;
  /** The program quotes name unless they name another: the mode's first active one. */
  programId: string | null;
  /** An offer was quoted in test mode (the widget on a page, or a server). */
  firstTestQuote: boolean;
  /** A test order was protected (a plan exists). */
  firstTestOrder: boolean;
  /** A test webhook endpoint was added. */
  webhookEndpoint: boolean;
}

export async function gettingStartedFacts(
  db: Tx,
  services: Services,
  merchantId: string,
): Promise<GettingStartedFacts> {
  const test = { merchantId, mode: "test" as const };
  const now = services.clock();
  const [kinds, publishableKey, program, firstTestQuote, firstTestOrder, webhookEndpoint] = await Promise.all([
    keyKindsInForce(db, test, now),
    publishableKeyInForce(db, test, now),
    findFirstActiveProgram(db, test),
    hasQuote(db, test),
    hasPlan(db, test),
    hasWebhookEndpoint(db, test),
  ]);
  return {
    testKeyPair: kinds.includes("publishable") && (kinds.includes("secret") || kinds.includes("restricted")),
    publishableKey: publishableKey ?? null,
    programId: program?.id ?? null,
    firstTestQuote,
    firstTestOrder,
    webhookEndpoint,
  };
}
