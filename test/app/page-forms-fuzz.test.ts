// A bounded fuzzer over the web app's form routes, through the process `npm start` runs, on SQLite and PostgreSQL:
// the forms of every page a buyer, a dashboard owner, a claims-console admin and a visitor can open are read from the
// pages themselves (so a new form is fuzzed without a change here), then sent back mutated — fields dropped,
// repeated past their limit, given odd or huge text or U+0000, unknown fields and files added, the CSRF token wrong
// or missing, the body as another media type or cut short, now and then from another origin. It holds that no page
// answers 5xx and that nothing is logged at error level. Sign-out forms are left out (they would end the sessions
// the rest needs; test/app/page-requests.test.ts covers them). FUZZ_SEED replays a run; FUZZ_PAGE_REQUESTS sizes it.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import fc from "fast-check";
import { DIALECTS } from "../support/databases.ts";
import { anyShortString, preview, weirdKey, weirdString } from "../support/fuzz-json.ts";
import { dashboardOwner, opsAdmin, PageClient, portalBuyer, type PageBody } from "../support/page-client.ts";
import { PNG_BYTES, startPortal, type PortalHarness } from "../portal/support.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_127);
const REQUESTS_PER_DATABASE = Number(process.env.FUZZ_PAGE_REQUESTS ?? 1_000);
const services: Services = {
  clock: Date.now,
  random: cryptoRandom,
  settings: { companyName: "Fuzz Test", portalUrl: "https://portal.example.test" },
};

/** A form as its page renders it: where it posts, how, and each field's name with the values the page offers. */
interface PageForm {
  client: PageClient;
  page: string;
  action: string;
  multipart: boolean;
  fields: { name: string; values: string[]; file: boolean }[];
}

const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]?.replaceAll("&amp;", "&").replaceAll("&quot;", '"');

/** The POST forms of a page's HTML, with their fields (inputs, selects, text areas, named buttons). */
function postForms(client: PageClient, page: string, html: string): PageForm[] {
  const forms: PageForm[] = [];
  for (const [, open, inner] of html.matchAll(/(<form\b[^>]*>)([\s\S]*?)<\/form>/g)) {
    if (attribute(open, "method")?.toLowerCase() !== "post") continue;
    const fields = new Map<string, { name: string; values: string[]; file: boolean }>();
    const add = (name: string | undefined, value: string, file = false) => {
      if (!name) return;
      const field = fields.get(name) ?? { name, values: [], file };
      if (!field.values.includes(value)) field.values.push(value);
      fields.set(name, field);
    };
    for (const [tag] of inner.matchAll(/<(?:input|button)\b[^>]*>/g))
      add(attribute(tag, "name"), attribute(tag, "value") ?? "", attribute(tag, "type") === "file");
    for (const [, tag, body] of inner.matchAll(/(<select\b[^>]*>)([\s\S]*?)<\/select>/g))
      for (const [option] of body.matchAll(/<option\b[^>]*>/g))
        add(attribute(tag, "name"), attribute(option, "value") ?? "");
    for (const [, tag, body] of inner.matchAll(/(<textarea\b[^>]*>)([\s\S]*?)<\/textarea>/g))
      add(attribute(tag, "name"), body);
    forms.push({
      client,
      page,
      action: attribute(open, "action") ?? page,
      multipart: attribute(open, "enctype") === "multipart/form-data",
      fields: [...fields.values()],
    });
  }
  return forms;
}

type Encoding = "form" | "urlencoded" | "multipart" | "cut-multipart" | "text" | "json" | "none";

interface Mutation {
  /** Per field: keep one of its values, drop it, give it odd text, repeat it, or add U+0000. */
  fields: { op: "keep" | "drop" | "weird" | "repeat" | "nul"; pick: number; text: string; times: number }[];
  extras: [string, string][];
  file: { bytes: Uint8Array; name: string } | null;
  encoding: Encoding;
  origin: "same" | "absent" | "foreign";
  csrf: "as-rendered" | "absent" | "wrong";
}

const mutation = (fieldCount: number): fc.Arbitrary<Mutation> =>
  fc.record({
    fields: fc.array(
      fc.record({
        op: fc.constantFrom("keep", "keep", "keep", "drop", "weird", "weird", "repeat", "nul"),
        pick: fc.nat(),
        text: weirdString,
        times: fc.integer({ min: 2, max: 40 }),
      }),
      { minLength: fieldCount, maxLength: fieldCount },
    ),
    extras: fc.array(fc.tuple(weirdKey, weirdString), { maxLength: 3 }),
    file: fc.option(
      fc.record({
        bytes: fc.oneof(fc.uint8Array({ maxLength: 2_048 }), fc.constant(new Uint8Array(PNG_BYTES))),
        name: anyShortString,
      }),
    ),
    encoding: fc.constantFrom<Encoding>(
      "form",
      "form",
      "form",
      "urlencoded",
      "multipart",
      "cut-multipart",
      "text",
      "json",
      "none",
    ),
    origin: fc.constantFrom("same", "same", "same", "same", "absent", "foreign"),
    csrf: fc.constantFrom("as-rendered", "as-rendered", "as-rendered", "absent", "wrong"),
  });

/** The form's body after `change`, with the headers it goes with. */
async function mutatedRequest(
  form: PageForm,
  change: Mutation,
): Promise<{ body?: PageBody; headers: Record<string, string> }> {
  const entries: [string, string][] = [];
  form.fields.forEach((field, index) => {
    if (field.file) return;
    const { op, pick, text, times } = change.fields[index]!;
    const value = field.values[pick % field.values.length] ?? "";
    if (field.name === "csrf") {
      if (change.csrf === "as-rendered") entries.push([field.name, value]);
      else if (change.csrf === "wrong") entries.push([field.name, `${value.slice(1)}x`]);
      return;
    }
    if (op === "keep") entries.push([field.name, value]);
    else if (op === "weird") entries.push([field.name, text]);
    else if (op === "repeat") for (let time = 0; time < times; time++) entries.push([field.name, value]);
    else if (op === "nul") entries.push([field.name, `${value}\u0000`]);
  });
  entries.push(...change.extras);
  const fileField = form.fields.find((field) => field.file)?.name ?? "evidence";
  const encoding = change.encoding === "form" ? (form.multipart ? "multipart" : "urlencoded") : change.encoding;
  const headers: Record<string, string> = {};
  if (change.origin === "foreign") headers.Origin = "https://elsewhere.example";
  if (change.origin === "absent") headers.Origin = "";
  if (encoding === "urlencoded") return { body: new URLSearchParams(entries), headers };
  if (encoding === "multipart" || encoding === "cut-multipart") {
    const multipart = new FormData();
    for (const [name, value] of entries) multipart.append(name, value);
    if (change.file)
      multipart.append(fileField, new Blob([change.file.bytes as Uint8Array<ArrayBuffer>]), change.file.name);
    if (encoding === "multipart") return { body: multipart, headers };
    const whole = new Response(multipart);
    const bytes = new Uint8Array(await whole.arrayBuffer());
    headers["Content-Type"] = whole.headers.get("content-type")!;
    return { body: bytes.subarray(0, Math.max(1, bytes.length - 20)), headers };
  }
  if (encoding === "text") headers["Content-Type"] = "text/plain";
  if (encoding === "json") headers["Content-Type"] = "application/json";
  return {
    body: encoding === "json" ? JSON.stringify(Object.fromEntries(entries)) : new URLSearchParams(entries).toString(),
    headers,
  };
}

describe.each(DIALECTS)("fuzzing the web app's form routes (%s)", (dialect) => {
  let harness: PortalHarness;
  const forms: PageForm[] = [];

  beforeAll(async () => {
    harness = await startPortal(dialect);
    const { origin } = harness.app;
    const db = harness.database.db;
    const email = `fuzz-buyer-${process.pid}@example.com`;
    const reference = await harness.protect(email);
    const buyer = await portalBuyer(origin, email, reference);
    const owner = await dashboardOwner(
      origin,
      db,
      services,
      harness.merchant.merchantId,
      `fuzz-owner-${process.pid}@shop.example.com`,
    );
    const ops = await opsAdmin(origin, db, services, `fuzz-ops-${process.pid}@ops.example.com`);
    const visitor = new PageClient(origin);

    // A claim of the buyer's, filed through its page, so the claim pages have one to show.
    const { csrf } = await buyer.hiddenFields("/portal/claims/new");
    const claimForm = new FormData();
    for (const [name, value] of Object.entries({
      csrf,
      reason: "damaged_in_transit",
      occurredAt: new Date().toISOString().slice(0, 10),
      description: "The vase arrived in pieces.",
    }))
      claimForm.append(name, value);
    const filed = await buyer.post("/portal/claims/new", claimForm);
    assert.equal(filed.status, 302, filed.text.slice(0, 300));
    // The portal addresses the claim by its number on the plan; the dashboard by its id.
    const claimNumber = /\/portal\/claims\/(\d+)\?/.exec(filed.headers.get("location")!)![1];
    const planId = (await db.get<{ id: string }>("SELECT id FROM plans WHERE reference_number = ?", [reference]))!.id;
    const claimId = (await db.get<{ id: string }>("SELECT id FROM claims WHERE plan_id = ? AND number = ?", [
      planId,
      Number(claimNumber),
    ]))!.id;

    const pages: [PageClient, string][] = [
      [visitor, "/portal"],
      [visitor, "/dashboard/sign-in"],
      [visitor, "/dashboard/sign-up"],
      [visitor, "/ops/sign-in"],
      [buyer, "/portal/plan"],
      [buyer, "/portal/cancel"],
      [buyer, "/portal/claims/new"],
      [buyer, `/portal/claims/${claimNumber}`],
      [owner, "/dashboard"],
      [owner, "/dashboard/team"],
      [owner, "/dashboard/program"],
      [owner, "/dashboard/purchases"],
      [owner, `/dashboard/purchases/${planId}`],
      [owner, "/dashboard/claims"],
      [owner, `/dashboard/claims/${claimId}`],
      [owner, "/dashboard/refunds"],
      [owner, "/dashboard/settlements"],
      [owner, "/dashboard/developers/keys"],
      [owner, "/dashboard/developers/webhooks"],
      [owner, "/dashboard/go-live"],
      [ops, "/ops"],
      [ops, `/ops/claims/${claimId}`],
      [ops, "/ops/staff"],
    ];
    for (const [client, page] of pages) {
      const response = await client.get(page);
      // A page that sends this user elsewhere (a redirect) has no form for them.
      assert.ok(response.status === 200 || response.status === 302, `GET ${page}: ${response.status}`);
      forms.push(...postForms(client, page, response.text).filter((form) => !/sign-out/.test(form.action)));
    }
  }, 300_000);

  afterAll(() => harness?.close());

  it("answers every mutated form below 500 and logs nothing at error level", async () => {
    assert.ok(forms.length >= 15, `forms found: ${forms.map((form) => form.action).join(", ")}`);
    const logFrom = harness.app.output().length;
    const findings: string[] = [];
    const statuses = new Map<number, number>();
    const samples = forms.map((form, place) =>
      fc.sample(mutation(form.fields.length), {
        seed: SEED + place,
        numRuns: Math.ceil(REQUESTS_PER_DATABASE / forms.length),
      }),
    );
    for (let round = 0; round < samples[0]!.length; round++) {
      for (const [place, form] of forms.entries()) {
        const change = samples[place]![round]!;
        const { body, headers } = await mutatedRequest(form, change);
        // Once more on a socket error: the client may reuse a keep-alive connection just as the server closes it
        // (after draining a refused body). A server that died fails the second try as well.
        const send = () => form.client.post(form.action, body ?? "", headers);
        const response = await send()
          .catch(send)
          .catch((error: Error) => ({ status: 599, text: `${error.message}: ${(error.cause as Error)?.message}` }));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500)
          findings.push(
            `${response.status} from POST ${form.action} (${change.encoding}, csrf ${change.csrf}, origin ${change.origin}): ${preview(response.text, 200)}`,
          );
      }
    }
    const log = harness.app.output().slice(logFrom);
    const errorLines = log.split("\n").filter((line) => /"level":(50|60)|^\s+at \S+ \(|^\w*Error: /.test(line));
    console.info(
      `page fuzz ${dialect}: seed ${SEED}, ${forms.length} forms, ${[...statuses.values()].reduce((a, b) => a + b, 0)} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    assert.deepEqual(findings, [], `replay with FUZZ_SEED=${SEED}`);
    assert.deepEqual(errorLines.slice(0, 20), [], "nothing logged at error level");
  });
});
