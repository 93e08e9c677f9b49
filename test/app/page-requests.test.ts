// What the web app's pages answer to requests they will not act on, through the process `npm start` runs, on both
// databases (docs/api.md "Security"): a body over its path's limit is refused before it is read (413: one small cap for
// plain forms, the evidence cap only where files are taken); a cross-origin POST is 403, a malformed form or address
// 400, an unknown or another merchant's id 404, U+0000 in any form field 400 changing nothing — each a short plain
// answer, never a 500 nor a stack in the log.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { dashboardOwner, opsAdmin, PageClient, portalBuyer, type PageBody } from "../support/page-client.ts";
import { PORTAL_TABLES, startPortal, type PortalHarness } from "../portal/support.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";
import { createTestMerchant } from "../../server/domain/merchants.ts";

const MiB = 1024 * 1024;
const services: Services = {
  clock: Date.now,
  random: cryptoRandom,
  settings: { companyName: "Page Test", portalUrl: "https://portal.example.test" },
};
let sequence = 0;
const newAddress = (label: string) => `${label}-${process.pid}-${++sequence}@shop.example.com`;

/** The resident memory of process `pid`, in bytes (Linux). */
function residentBytes(pid: number): number {
  const kib = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kib) * 1024;
}

/**
 * A POST of a large body on a raw socket (the answer read whenever it comes, even while the body is being sent):
 * `declared` bytes of Content-Length with only its first 64 KiB sent (a server that reads before it checks waits for
 * the rest, and this never resolves), or a chunked body written 64 KiB at a time as fast as the server takes it until
 * it answers (or `totalBytes`). Resolves with the answer's status and how much was sent before it.
 */
function postLargeBody(
  origin: string,
  path: string,
  totalBytes: number,
  declared: number | undefined,
  contentType = "application/x-www-form-urlencoded",
): Promise<{ status: number; sentBytes: number }> {
  const { hostname, port, host } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let sentBytes = 0;
    let answer = "";
    socket.on("data", (data) => {
      answer += data.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1];
      if (status) {
        resolve({ status: Number(status), sentBytes });
        socket.destroy();
      }
    });
    // The server may close its side once it has answered; the answer is what counts.
    socket.on("error", () => {});
    socket.on("close", () => reject(new Error(`closed without an answer after ${sentBytes} bytes: ${answer}`)));
    const chunk = Buffer.alloc(64 * 1024, "a");
    const framed = (bytes: Buffer) =>
      declared === undefined
        ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")])
        : bytes;
    const write = () => {
      while (!socket.destroyed && sentBytes < totalBytes) {
        sentBytes += chunk.length;
        if (!socket.write(framed(chunk))) return void socket.once("drain", write);
        if (declared !== undefined) return;
      }
    };
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${contentType}\r\n` +
        (declared === undefined ? "Transfer-Encoding: chunked\r\n\r\n" : `Content-Length: ${declared}\r\n\r\n`),
    );
    write();
  });
}

describe.each(DIALECTS)("the web app's pages refuse what they will not act on (%s)", (dialect) => {
  let harness: PortalHarness;
  let buyer: PageClient;
  let owner: PageClient;
  let ops: PageClient;
  let foreignPlanId: string;
  /** An owner of another merchant. */
  let otherOwner: PageClient;

  beforeAll(async () => {
    harness = await startPortal(dialect);
    const db = harness.database.db;
    const email = newAddress("buyer");
    const reference = await harness.protect(email);
    buyer = await portalBuyer(harness.app.origin, email, reference);
    owner = await dashboardOwner(harness.app.origin, db, services, harness.merchant.merchantId, newAddress("owner"));
    ops = await opsAdmin(harness.app.origin, db, services, newAddress("ops"));
    // Another merchant's plan: its id is as unknown to this merchant's dashboard as a made-up one.
    const other = await db.transaction((tx) => createTestMerchant(tx, services, { name: "Someone Else" }));
    const plan = await db.get<{ id: string }>("SELECT id FROM plans WHERE merchant_id = ? LIMIT 1", [
      harness.merchant.merchantId,
    ]);
    foreignPlanId = plan!.id;
    otherOwner = await dashboardOwner(harness.app.origin, db, services, other.merchantId, newAddress("other"));
  }, 300_000);

  afterAll(() => harness?.close());

  /** The process's log since `from`: nothing at error level, no stack. */
  function assertQuietLog(from: number) {
    const log = harness.app.output().slice(from);
    assert.doesNotMatch(log, /"level":(50|60)|\n\s+at \S+ \(|Error: /, `error-level lines in the log:\n${log}`);
  }

  it("refuses a 200 MiB POST to /portal/sign-out before reading it (413), and a chunked one at 64 KiB", async () => {
    const pid = harness.app.child.pid!;
    const from = harness.app.output().length;
    const before = residentBytes(pid);
    // Declared: answered while the body is still being sent (never read at all).
    const declared = await postLargeBody(harness.app.origin, "/portal/sign-out", 200 * MiB, 200 * MiB);
    assert.equal(declared.status, 413);
    assert.ok(declared.sentBytes < 200 * MiB, `answered after ${declared.sentBytes} bytes`);
    // Chunked: counted as it arrives and cut at the limit.
    const chunked = await postLargeBody(harness.app.origin, "/portal/sign-out", 200 * MiB, undefined);
    assert.equal(chunked.status, 413);
    assert.ok(chunked.sentBytes < 200 * MiB, `answered after ${chunked.sentBytes} bytes`);
    // The whole body held once was 434 MiB of growth; a refused one is a few buffers.
    const grownMiB = (residentBytes(pid) - before) / MiB;
    assert.ok(grownMiB < 64, `the process grew by ${grownMiB.toFixed(0)} MiB`);
    // A page that takes files has the evidence cap, and no more.
    const upload = await postLargeBody(
      harness.app.origin,
      "/portal/claims/new",
      60 * MiB,
      60 * MiB,
      "multipart/form-data; boundary=x",
    );
    assert.equal(upload.status, 413);
    assertQuietLog(from);
  });

  it("answers a cross-origin POST 403, a malformed form or address 400, an unknown or foreign id 404", async () => {
    const from = harness.app.output().length;
    const { csrf } = await buyer.hiddenFields("/portal/claims/new");
    for (const origin of ["https://evil.example", "null", "not a url"]) {
      for (const path of ["/portal/sign-out", "/portal/claims/new", "/dashboard/team", "/ops/staff"]) {
        const response = await buyer.post(path, new URLSearchParams({ csrf }), { Origin: origin });
        assert.equal(response.status, 403, `${path} from ${origin}: ${response.text}`);
        assert.match(response.headers.get("content-type") ?? "", /^text\/plain/);
      }
    }
    const signedIn = (path: string) => (path.startsWith("/ops") ? ops : path.startsWith("/dashboard") ? owner : buyer);
    const malformed: [string, string][] = [
      ["multipart/form-data; boundary=zz", '--zz\r\nContent-Disposition: form-data; name="csrf"\r\n\r\nno end'],
      ["multipart/form-data", "csrf=x"],
      ["text/plain", "csrf=x"],
      ["application/json", "{}"],
    ];
    for (const [contentType, body] of malformed) {
      for (const path of ["/portal/claims/new", "/portal/cancel", "/dashboard/team", "/ops/staff"]) {
        const response = await signedIn(path).post(path, body, { "Content-Type": contentType });
        assert.equal(response.status, 400, `${path} with ${contentType}: ${response.status} ${response.text}`);
      }
    }
    for (const path of [
      "/dashboard/purchases/%E0%A4%A",
      "/portal/claims/%zz",
      "/ops/claims/%",
      "/dashboard/claims/a%2",
    ]) {
      const response = await owner.get(path);
      assert.equal(response.status, 400, `${path}: ${response.text}`);
    }
    for (const path of [
      "/dashboard/purchases/pln_unknown",
      "/dashboard/claims/clm_unknown",
      "/dashboard/developers/webhooks/we_unknown",
      "/dashboard/claims/clm_unknown/evidence/evd_unknown",
    ]) {
      const response = await owner.get(path);
      assert.equal(response.status, 404, `${path}: ${response.text.slice(0, 200)}`);
    }
    // Another merchant's purchase, by its real id.
    assert.equal((await otherOwner.get(`/dashboard/purchases/${foreignPlanId}`)).status, 404);
    assert.equal((await owner.get(`/dashboard/purchases/${foreignPlanId}`)).status, 200);
    assertQuietLog(from);
  });

  it("refuses U+0000 in any form field with 400 and changes nothing", async () => {
    const from = harness.app.output().length;
    const tables = [...PORTAL_TABLES, "merchant_members", "staff_accounts", "webhook_endpoints", "member_sign_ups"];
    const before = await rowCounts(harness.database.db, tables);
    const portalCsrf = (await buyer.hiddenFields("/portal/claims/new")).csrf;
    const dashboardCsrf = (await owner.hiddenFields("/dashboard/team")).csrf;
    const claim = new FormData();
    for (const [name, value] of Object.entries({
      csrf: portalCsrf,
      reason: "damaged_in_transit",
      occurredAt: new Date().toISOString().slice(0, 10),
      description: "Broken\u0000",
    }))
      claim.append(name, value);
    const anonymous = new PageClient(harness.app.origin);
    const anonymousCsrf = (await anonymous.hiddenFields("/portal")).csrf;
    const cases: [PageClient, string, PageBody][] = [
      [buyer, "/portal/claims/new", claim],
      [
        anonymous,
        "/portal?index",
        new URLSearchParams({ csrf: anonymousCsrf, email: "a\u0000@b.example", reference: "PP-1" }),
      ],
      [
        owner,
        "/dashboard/team",
        new URLSearchParams({
          csrf: dashboardCsrf,
          intent: "invite",
          email: "x\u0000@shop.example.com",
          role: "support",
        }),
      ],
      [
        owner,
        "/dashboard/developers/webhooks",
        new URLSearchParams({
          csrf: dashboardCsrf,
          intent: "create",
          url: "https://hooks.example/\u0000",
          events: "*",
        }),
      ],
      [
        ops,
        "/ops/staff",
        new URLSearchParams({ intent: "invite", email: "y\u0000@ops.example.com", name: "N\u0000", role: "reviewer" }),
      ],
      [
        anonymous,
        "/dashboard/sign-up",
        new URLSearchParams({ email: "z\u0000@shop.example.com", businessName: "Shop\u0000" }),
      ],
      [anonymous, "/ops/sign-in", new URLSearchParams({ email: "w\u0000@ops.example.com" })],
      [anonymous, "/dashboard/sign-in", new URLSearchParams({ email: "v\u0000@shop.example.com" })],
      [anonymous, "/portal?index", new URLSearchParams({ ["cs\u0000rf"]: anonymousCsrf })],
    ];
    for (const [client, path, body] of cases) {
      const response = await client.post(path, body);
      assert.equal(response.status, 400, `${path}: ${response.text.slice(0, 300)}`);
      assert.doesNotMatch(response.text, /Unhandled Thrown Response/);
    }
    assert.deepEqual(await rowCounts(harness.database.db, tables), before);
    assertQuietLog(from);
  });
});
