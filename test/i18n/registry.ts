// The buyer catalogues the catalogue test checks: a surface that adds a catalogue adds it here.
import type { Messages } from "../../packages/contract/src/messages.ts";
import { emailMessages } from "../../server/email/messages.ts";
import { offerMessages } from "../../server/domain/offer-texts.ts";
import { rulebookMessages } from "../../server/domain/rulebook-text.ts";
import { decisionBasisMessages } from "../../server/domain/decision-basis.ts";
import { portalMessages } from "../../app/portal/messages.ts";

export interface RegisteredCatalogue {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each catalogue has its own keys
  messages: Messages<any>;
  /** Keys whose text is rightly the same in every language (a brand, a code). */
  sameInEveryLanguage?: string[];
}

export const catalogues: Record<string, RegisteredCatalogue> = {
  "buyer e-mails (server/email/messages.ts)": { messages: emailMessages },
  "storefront offer (server/domain/offer-texts.ts)": { messages: offerMessages },
  "rulebook (server/domain/rulebook-text.ts)": { messages: rulebookMessages },
  "decision basis (server/domain/decision-basis.ts)": { messages: decisionBasisMessages },
  "buyer portal (app/portal/messages.ts)": { messages: portalMessages },
};
