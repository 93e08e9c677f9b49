// Going live, for a merchant on any cart: a checklist the dashboard shows, the origins a live widget key may be used
// from, and the switch. Live keys can be minted before (the checklist needs them) but identify nobody until the
// merchant has gone live (server/http/auth.ts: 403 live_mode_not_enabled); going live creates the live program, if
// there is none yet, with the terms the merchant tested (so a Shopify shop's fee tiers stay right), and is recorded
// once, with its audit entry.
import { z } from "zod";
import type { Services, Tx } from "./context.ts";
import { DomainError, notFound } from "./errors.ts";
import { appendMerchantAudit, type MerchantAuditSource } from "./merchant-audit.ts";
import { createProgram, DEFAULT_PROGRAM } from "./programs.ts";
import { parseInput } from "./accounts.ts";
import { listApiKeys } from "./api-keys.ts";
import { findMerchant, markMerchantLive, updateAllowedOrigins } from "../store/merchants.ts";
import { findFirstActiveProgram, firstProgramId, type EditableProgram } from "../store/programs.ts";
import { countHealthyEndpoints } from "../store/webhook-endpoints.ts";

export const MAX_ALLOWED_ORIGINS = 20;

export type ChecklistItemId =
  "live_secret_key" | "live_publishable_key" | "allowed_origins" | "live_webhook_endpoint" | "confirmation_email";

export interface ChecklistItem {
  id: ChecklistItemId;
  done: boolean;
  /** Going live waits for it; a recommended item does not block. */
  required: boolean;
}

export interface GoLiveState {
  liveAt: string | null;
  allowedOrigins: string[];
  items: ChecklistItem[];
  /** Every required item is done except the e-mail obligations, which the switch's form confirms. */
  ready: boolean;
}

export async function goLiveState(db: Tx, services: Services, merchantId: string): Promise<GoLiveState> {
  const merchant = await findMerchant(db, merchantId);
  if (!merchant) throw notFound("merchant", merchantId);
  const liveKeys = (await listApiKeys(db, services, merchantId)).filter(
    (key) => key.mode === "live" && key.state !== "revoked",
  );
  const healthyEndpoints = await countHealthyEndpoints(db, { merchantId, mode: "live" });
  const items: ChecklistItem[] = [
    { id: "live_secret_key", done: liveKeys.some((key) => key.kind === "secret"), required: true },
    { id: "live_publishable_key", done: liveKeys.some((key) => key.kind === "publishable"), required: true },
    { id: "allowed_origins", done: merchant.allowedOrigins.length > 0, required: true },
    { id: "live_webhook_endpoint", done: healthyEndpoints > 0, required: false },
    { id: "confirmation_email", done: merchant.liveAt !== null, required: true },
  ];
  return {
    liveAt: merchant.liveAt === null ? null : new Date(merchant.liveAt).toISOString(),
    allowedOrigins: merchant.allowedOrigins,
    items,
    ready: items.every((item) => item.done || !item.required || item.id === "confirmation_email"),
  };
}

/** An https origin (scheme, host, optional port; no path), as browsers send it in Origin. Localhost may be http. */
const originSchema = z
  .string()
  .trim()
  .transform((value, context) => {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    const local = url?.hostname === "localhost" || url?.hostname === "127.0.0.1";
    if (
      !url ||
      (url.protocol !== "https:" && !(local && url.protocol === "http:")) ||
      url.origin !== value.replace(/\/$/, "")
    ) {
      context.addIssue({
        code: "custom",
        message: `"${value}" is not an origin: write https://shop.example.com (no path).`,
      });
      return z.NEVER;
    }
    return url.origin;
  });

const originsSchema = z.strictObject({
  origins: z
    .string()
    .transform((text) => text.split(/[\s,]+/).filter(Boolean))
    .pipe(z.array(originSchema).max(MAX_ALLOWED_ORIGINS, `At most ${MAX_ALLOWED_ORIGINS} origins.`)),
});

/** Replaces the origins live publishable keys may be used from (one per line or comma-separated). */
export async function setAllowedOrigins(
  tx: Tx,
  services: Services,
  source: MerchantAuditSource,
  input: unknown,
): Promise<string[]> {
  const origins = [...new Set(parseInput(originsSchema, input).origins)];
  await updateAllowedOrigins(tx, source.merchantId, origins);
  await appendMerchantAudit(tx, services, source, {
    action: "allowed_origins.updated",
    subject: source.merchantId,
    detail: { count: origins.length },
  });
  return origins;
}

const goLiveSchema = z.strictObject({
  confirmationEmail: z.literal("yes", "Confirm that your order confirmation e-mail carries the protection notice."),
});

/**
 * Switches the merchant to live once every required item is done and the e-mail obligations are confirmed. Resolves
 * to the live program's id.
 */
export async function goLive(
  tx: Tx,
  services: Services,
  source: MerchantAuditSource,
  input: unknown,
): Promise<{ liveProgramId: string }> {
  parseInput(goLiveSchema, input);
  const state = await goLiveState(tx, services, source.merchantId);
  const live = { merchantId: source.merchantId, mode: "live" as const };
  if (state.liveAt !== null) return { liveProgramId: await liveProgramOf(tx, services, live) };
  const missing = state.items.filter((item) => item.required && !item.done && item.id !== "confirmation_email");
  if (missing.length > 0)
    throw new DomainError(
      "conflict",
      "go_live_checklist_incomplete",
      `Finish the checklist first: ${missing.map((item) => item.id).join(", ")}.`,
    );
  const liveProgramId = await liveProgramOf(tx, services, live);
  if (await markMerchantLive(tx, source.merchantId, services.clock()))
    await appendMerchantAudit(tx, services, source, { action: "merchant.went_live", subject: source.merchantId });
  return { liveProgramId };
}

/** The live program, made on first need with the pricing terms of the test program the merchant tried. */
async function liveProgramOf(tx: Tx, services: Services, live: { merchantId: string; mode: "live" }) {
  const existing = await firstProgramId(tx, live);
  if (existing) return existing;
  const tested = await findFirstActiveProgram(tx, { merchantId: live.merchantId, mode: "test" });
  return createProgram(tx, services, live, tested ? { ...DEFAULT_PROGRAM, ...termsOf(tested) } : DEFAULT_PROGRAM);
}

const termsOf = ({
  rateBps,
  currencies,
  currencyLimits,
  productCategories,
  payer,
  buyerShareBps,
}: EditableProgram) => ({ rateBps, currencies, currencyLimits, productCategories, payer, buyerShareBps });
