// Program: the viewer's mode's terms — rate, minimum fee, maximum covered amount, currencies, product categories,
// claim rules and the settlement period — and the fee a sample order would be quoted, priced by the same function
// quotes use (priceOffer), under the saved terms.
import { z } from "zod";
import { priceOffer, programTermsOf, SUPPORTED_CURRENCIES, updateProgram } from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";

const DEFAULT_SAMPLE_CENTS = 10_000;
const sampleSchema = z.coerce.number().int().min(1).max(100_000_000);

export async function loadProgram({ runtime, viewer, request }: PageContext) {
  const program = await programTermsOf(runtime.db, { merchantId: viewer.merchantId, mode: viewer.mode });
  const asked = new URL(request.url).searchParams.get("sample");
  const sample =
    asked === null ? { success: true as const, data: DEFAULT_SAMPLE_CENTS } : sampleSchema.safeParse(asked);
  return {
    program,
    currencies: SUPPORTED_CURRENCIES,
    sample: asked ?? String(DEFAULT_SAMPLE_CENTS),
    sampleError: sample.success ? null : "Enter a whole number of minor units between 1 and 100,000,000.",
    preview: sample.success ? priceOffer(program, sample.data) : null,
  };
}

export type ProgramData = Awaited<ReturnType<typeof loadProgram>>;

export const PROGRAM_FIELDS = [
  "ratePercent",
  "minFeeCents",
  "maxCoveredCents",
  "productCategories",
  "claimRules",
  "settlementPeriod",
] as const;

export const programAction: PageAction<unknown> = async ({ runtime, viewer, form }) => {
  const values = Object.fromEntries(PROGRAM_FIELDS.map((name) => [name, field(form, name)]));
  const input = { ...values, currencies: form.getAll("currencies").map(String) };
  const result = await formAction(
    "program",
    Object.fromEntries([...PROGRAM_FIELDS, "currencies"].map((name) => [name, name])),
    () => runtime.db.transaction((tx) => updateProgram(tx, runtime.services, viewer, input)),
    values,
  );
  return result.ok
    ? { ok: true, form: "program", message: "Saved: offers quoted from now on use these terms." }
    : result.response;
};
