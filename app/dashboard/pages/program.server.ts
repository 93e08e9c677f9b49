// Program: the viewer's mode's terms — who pays for protection, rate, currencies with each one's minimum fee and maximum
// covered amount, product categories, claim rules and the settlement period — and the fee a sample order would be quoted, priced by
// the same functions quotes use (priceOffer, splitFee), under the saved terms. Amounts are typed as people write money ("$129.99", "129.99") and
// read by the contract's one parser of typed money; the claim rules are a form (auto-approval up to an amount in each
// currency for chosen reasons, replacements allowed) whose answer the core checks with the rules' own schema.
import { json } from "@remix-run/node";
import { formatMoneyEnUs, minorDigits, parseTypedMoney } from "@purchase-protection/contract";
import {
  COVERED_REASONS,
  DEFAULT_AUTO_APPROVE_MAX_CENTS,
  DEFAULT_CURRENCY_LIMITS,
  DomainError,
  parseStoredClaimRules,
  priceOffer,
  programTermsOf,
  splitFee,
  SUPPORTED_CURRENCIES,
  type ClaimRules,
  type Currency,
} from "../../../server/index.ts";
import { field, formAction, type ActionFailure } from "../../form-actions.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";
import { REASON_NAMES } from "../reason-names.server.ts";
import { limitFields } from "./program-fields.ts";

const DEFAULT_SAMPLE_CENTS = 10_000;
const MAX_SAMPLE_CENTS = 100_000_000;

/**
 * The currency the sample order is typed and shown in: the program's first (USD when it offers USD). The minimum fee,
 * maximum covered amount and amount approved without review are each currency's own, typed in its own decimals.
 */
export const termsCurrencyOf = (currencies: readonly string[]) =>
  currencies.includes("USD") ? "USD" : (currencies[0] ?? "USD");

/**
 * A currency's amount approved without review as the form shows it: the saved one; empty for a currency the program
 * offers that approval without review leaves to a person; else the default, for a currency ticked or approval turned
 * on.
 */
function autoApproveMaxShown(
  autoApprove: ClaimRules["autoApprove"],
  offered: readonly string[],
  currency: Currency,
): string {
  const saved = autoApprove?.maxAmountCentsByCurrency[currency];
  if (saved !== undefined) return formatMoneyEnUs(saved, currency);
  if (autoApprove && offered.includes(currency)) return "";
  return formatMoneyEnUs(DEFAULT_AUTO_APPROVE_MAX_CENTS[currency], currency);
}

export async function loadProgram({ runtime, viewer, request }: PageContext) {
  const program = await programTermsOf(runtime.db, { merchantId: viewer.merchantId, mode: viewer.mode });
  const currency = termsCurrencyOf(program.currencies);
  const asked = new URL(request.url).searchParams.get("sample");
  const sampleCents = asked === null ? DEFAULT_SAMPLE_CENTS : parseTypedMoney(asked, currency);
  const sampleOk = sampleCents !== undefined && sampleCents >= 1 && sampleCents <= MAX_SAMPLE_CENTS;
  const claimRules = parseStoredClaimRules(program.claimRules);
  // Every currency's limits as the form shows them: the saved ones, else what a new program starts with (shown when
  // the merchant ticks a currency the program does not offer yet, or turns approval without review on).
  const limits = Object.fromEntries(
    SUPPORTED_CURRENCIES.map((each) => {
      const limit = program.currencyLimits[each] ?? DEFAULT_CURRENCY_LIMITS[each];
      return [
        each,
        {
          minFee: formatMoneyEnUs(limit.minFeeCents, each),
          maxCovered: formatMoneyEnUs(limit.maxCoveredCents, each),
          autoApproveMax: autoApproveMaxShown(claimRules.autoApprove, program.currencies, each),
        },
      ];
    }),
  );
  return {
    program,
    limits,
    currency,
    claimRules,
    reasons: COVERED_REASONS.map((code) => ({ code, name: REASON_NAMES[code] })),
    currencies: SUPPORTED_CURRENCIES,
    sample: asked ?? formatMoneyEnUs(DEFAULT_SAMPLE_CENTS, currency),
    sampleError: sampleOk
      ? null
      : `Enter an order amount such as ${formatMoneyEnUs(12_999, currency)}, at most ${formatMoneyEnUs(MAX_SAMPLE_CENTS, currency)}.`,
    preview: sampleOk
      ? {
          order: formatMoneyEnUs(sampleCents, currency),
          ...(({ coveredAmountCents, feeCents }) => ({
            covered: formatMoneyEnUs(coveredAmountCents, currency),
            fee: formatMoneyEnUs(feeCents, currency),
            ...(({ buyerFeeCents, merchantFeeCents }) => ({
              buyerFee: formatMoneyEnUs(buyerFeeCents, currency),
              merchantFee: formatMoneyEnUs(merchantFeeCents, currency),
            }))(splitFee(program, feeCents)),
          }))(priceOffer(program, currency, sampleCents)),
        }
      : null,
  };
}

export type ProgramData = Awaited<ReturnType<typeof loadProgram>>;

/** The form's text fields, shown again as typed when the form is refused. */
export const PROGRAM_FIELDS = [
  "payer",
  "buyerSharePercent",
  "ratePercent",
  "productCategories",
  "autoApprove",
  "autoApproveMaxRisk",
  "replacementAllowed",
  "settlementPeriod",
] as const;

/** Where the core's complaint about the claim rules goes: the form field of the rule's part. */
const RULE_FIELDS: Record<string, string> = {
  ...Object.fromEntries(
    SUPPORTED_CURRENCIES.map((each) => [
      `claimRules.autoApprove.maxAmountCentsByCurrency.${each}`,
      limitFields(each).autoApproveMax,
    ]),
  ),
  "claimRules.autoApprove.reasons": "autoApproveReasons",
  "claimRules.autoApprove.maxRiskLevel": "autoApproveMaxRisk",
  "claimRules.replacementAllowed": "replacementAllowed",
};

/** A typed amount within bounds, or the sentence that says what to type. */
function readAmount(
  typed: string,
  currency: string,
  bounds: { min: number; max: number },
): { cents: number } | { error: string } {
  const example = formatMoneyEnUs(Math.max(bounds.min, 100), currency);
  if (typed.trim() === "") return { error: `Enter an amount, such as ${example}.` };
  const cents = parseTypedMoney(typed, currency);
  const how = minorDigits(currency) === 0 ? `whole ${currency}, no decimals` : "digits, one decimal point";
  if (cents === undefined) return { error: `Enter an amount such as ${example} (${how}).` };
  if (cents < bounds.min) return { error: `At least ${formatMoneyEnUs(bounds.min, currency)}.` };
  if (cents > bounds.max) return { error: `At most ${formatMoneyEnUs(bounds.max, currency)}.` };
  return { cents };
}

export const programAction: PageAction<unknown> = async ({ runtime, viewer, form }) => {
  const currencies = form.getAll("currencies").map(String);
  const typedLimits = SUPPORTED_CURRENCIES.flatMap((each) => Object.values(limitFields(each)));
  const values = Object.fromEntries([...PROGRAM_FIELDS, ...typedLimits].map((name) => [name, field(form, name)]));
  // Every amount and the rules' choices are checked here first, so each wrong field says so at once, in money.
  const errors: Record<string, string> = {};
  const amount = (name: string, bounds: { min: number; max: number }, of: string) => {
    const read = readAmount(values[name], of, bounds);
    if ("error" in read) errors[name] = read.error;
    return "cents" in read ? read.cents : 0;
  };
  // Each chosen currency's limits, typed in its own decimals ("¥150", "KWD 0.300"); the core checks they agree.
  const currencyLimits = Object.fromEntries(
    currencies
      .filter((each) => (SUPPORTED_CURRENCIES as readonly string[]).includes(each))
      .map((each) => {
        const names = limitFields(each);
        return [
          each,
          {
            minFeeCents: amount(names.minFee, { min: 0, max: 1_000_000 }, each),
            maxCoveredCents: amount(names.maxCovered, { min: 100, max: 100_000_000 }, each),
          },
        ];
      }),
  );
  const autoApproving = values.autoApprove === "on";
  const reasons = form.getAll("autoApproveReasons").map(String);
  // Each chosen currency's amount approved without review, in its own decimals; one left empty goes to a person.
  const autoApproveCurrencies = autoApproving
    ? Object.keys(currencyLimits).filter((each) => values[limitFields(each).autoApproveMax].trim() !== "")
    : [];
  const maxAmountCentsByCurrency = Object.fromEntries(
    autoApproveCurrencies.map((each) => [
      each,
      amount(limitFields(each).autoApproveMax, { min: 1, max: 100_000_000 }, each),
    ]),
  );
  const [firstCurrency] = Object.keys(currencyLimits);
  if (autoApproving && firstCurrency && autoApproveCurrencies.length === 0)
    errors[limitFields(firstCurrency).autoApproveMax] =
      "Enter an amount in at least one currency, or turn approval without review off.";
  if (autoApproving && reasons.length === 0)
    errors.autoApproveReasons = "Choose at least one reason, or turn approval without review off.";
  const reasonsShownAgain = { ...values, autoApproveReasons: reasons.join(","), currencies: currencies.join(",") };
  if (Object.keys(errors).length > 0)
    return json<ActionFailure>({ errors, form: "program", values: reasonsShownAgain }, 400);

  const input = {
    payer: values.payer || undefined,
    buyerSharePercent: values.buyerSharePercent,
    ratePercent: values.ratePercent,
    currencies,
    currencyLimits,
    productCategories: values.productCategories,
    claimRules: {
      autoApprove: autoApproving
        ? { maxAmountCentsByCurrency, reasons, maxRiskLevel: values.autoApproveMaxRisk || "elevated" }
        : null,
      replacementAllowed: values.replacementAllowed === "on",
    },
    settlementPeriod: values.settlementPeriod,
  };
  const result = await formAction(
    "program",
    {
      payer: "payer",
      buyerSharePercent: "buyerSharePercent",
      ratePercent: "ratePercent",
      currencies: "currencies",
      currencyLimits: "currencies",
      productCategories: "productCategories",
      settlementPeriod: "settlementPeriod",
      ...Object.fromEntries(Object.values(RULE_FIELDS).map((name) => [name, name])),
      claimRules: "autoApprove",
    },
    async () => {
      try {
        return await runtime.core.programs.update(viewer, input);
      } catch (error) {
        // The rules' schema names the part it refused (claimRules.autoApprove.reasons): the field that holds it.
        if (!(error instanceof DomainError) || !error.field) throw error;
        const part = RULE_FIELDS[error.field.replace(/\.\d+$/, "")];
        throw part ? new DomainError(error.kind, error.code, error.message, part) : error;
      }
    },
    reasonsShownAgain,
  );
  return result.ok
    ? { ok: true, form: "program", message: "Saved: offers quoted from now on use these terms." }
    : result.response;
};
