import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { createInProcessFetch } from "./in-process-fetch.ts";

describe("createInProcessFetch", () => {
  it("hands the API a Request with the method, URL, headers and body, and returns its Response", async () => {
    let seen: Request | undefined;
    const fetch = createInProcessFetch({
      fetch: (request) => ((seen = request), Response.json({ ok: true }, { status: 201 })),
    });
    const response = await fetch("http://in-process/api/v1/offers/decline", {
      method: "POST",
      headers: { "Idempotency-Key": "k".repeat(16), "Content-Type": "application/json" },
      body: '{"quoteId":"qt_1"}',
    });
    assert.equal(response.status, 201);
    assert.deepEqual(await response.json(), { ok: true });
    assert.ok(seen instanceof Request);
    assert.equal(seen.method, "POST");
    assert.equal(new URL(seen.url).pathname, "/api/v1/offers/decline");
    assert.equal(seen.headers.get("idempotency-key"), "k".repeat(16));
    assert.equal(await seen.text(), '{"quoteId":"qt_1"}');
  });

  it("rejects with the signal's reason when the caller aborts a slow handler", async () => {
    const fetch = createInProcessFetch({
      fetch: () => new Promise<Response>((resolve) => setTimeout(() => resolve(new Response("late")), 500)),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("timed out")), 20);
    await assert.rejects(fetch("http://in-process/x", { signal: controller.signal }), /timed out/);
    await assert.rejects(fetch("http://in-process/x", { signal: AbortSignal.abort() }), { name: "AbortError" });
  });
});
