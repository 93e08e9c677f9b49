// A release rolled over two API processes under load, as an orchestrator does it (docs/operations.md "Rolling out a
// release"): start a new process, wait for its /readyz, SIGTERM an old one, and again. In front, a load balancer as the
// usual ones behave: round robin over the upstreams whose /readyz answered 200 at its last look (every 100 ms), and a
// request whose connection was refused or closed before an answer is sent to the next upstream. No request may fail.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { once } from "node:events";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { startApiProcess, type ApiProcess } from "../support/api-process.ts";
import { waitFor } from "../support/wait.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";

const SERVICES = {
  clock: Date.now,
  random: cryptoRandom,
  settings: { companyName: "Test", portalUrl: "https://portal.example.test" },
};

describe("rolling out a release over two API processes under load", () => {
  let database: TestDatabase;
  let merchant: NewMerchant;
  let dataDir: string;
  let env: Record<string, string>;
  const started: ApiProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, SERVICES, { name: "Rolling Store" }));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-rolling-"));
    env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "info",
      WEBHOOK_WORKER: "off",
      EMAIL_WORKER: "off",
      PERIODIC_JOBS: "off",
      SHUTDOWN_GRACE_MS: "5000",
      // One client address sends every request here: the per-IP edge limits would answer 429, which is not under test.
      RATE_LIMITS: "off",
    };
  });

  afterAll(async () => {
    await Promise.all(started.filter((api) => api.child.exitCode === null).map((api) => api.stop()));
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function startInstance(): Promise<ApiProcess> {
    const api = await startApiProcess(env);
    started.push(api);
    return api;
  }

  it("answers every request while each process is replaced in turn", async () => {
    const balancer = loadBalancer();
    const [oldA, oldB] = await Promise.all([startInstance(), startInstance()]);
    await balancer.admitWhenReady(oldA);
    await balancer.admitWhenReady(oldB);

    const load = balancer.runLoad(4, merchant);
    await waitFor(() => balancer.answeredBy(oldA) > 10 && balancer.answeredBy(oldB) > 10, { what: "load on both" });

    const replacements: ApiProcess[] = [];
    for (const old of [oldA, oldB]) {
      const next = await startInstance();
      await balancer.admitWhenReady(next);
      const exited = once(old.child, "exit");
      const held = await holdQuote(old, merchant);
      old.child.kill("SIGTERM");
      await waitFor(() => old.lines.some((line) => line.msg === "shutting down: finishing in-flight requests"), {
        what: "the old process to start draining",
      });
      const heldAnswer = await held.finish();
      assert.equal(heldAnswer.status, 200, "a request in flight when the drain began is answered");
      assert.equal(heldAnswer.connection, "close", "and tells its kept-alive client to move on");
      const [code] = await exited;
      assert.equal(code, 0, "the old process drained and exited 0");
      await waitFor(() => balancer.answeredBy(next) > 10, { what: "load on the new process" });
      replacements.push(next);
    }
    const outcome = await load.stop();

    assert.deepEqual(outcome.failures, [], "no request failed");
    assert.ok(outcome.answered > 100, `${outcome.answered} answered`);
    for (const api of [oldA, oldB, ...replacements])
      assert.ok(balancer.answeredBy(api) > 10, "every process, old and new, answered its share");
    // What the load balancer did for the clients: what it sent again (connections refused or closed before an answer)
    // and the answers that told a kept-alive client to move on (none when no request was in flight at a SIGTERM: the
    // held quote above is what proves them).
    console.info(
      `rolling release: ${outcome.answered} answered, ${outcome.retried} sent again, ${outcome.closeAnswers} with Connection: close`,
    );
  });
});

/**
 * A quote on a kept-alive connection whose headers the process has taken in (its `100 Continue` came back: Node sends
 * it as it hands the request to the app) and whose body is held back, so that its answer starts when the test says.
 */
async function holdQuote(api: ApiProcess, merchant: NewMerchant) {
  const { body, headers } = newQuote(merchant);
  const agent = new http.Agent({ keepAlive: true });
  const request = http.request(`${api.baseUrl}/headless/quote`, {
    method: "POST",
    agent,
    headers: { ...headers, "Content-Length": Buffer.byteLength(body), Expect: "100-continue" },
  });
  const answered = once(request, "response") as Promise<[http.IncomingMessage]>;
  request.flushHeaders();
  await once(request, "continue");
  return {
    async finish(): Promise<{ status: number; connection: string | undefined }> {
      request.end(body);
      const [response] = await answered;
      response.resume();
      await once(response, "end");
      agent.destroy();
      return { status: response.statusCode!, connection: response.headers.connection };
    },
  };
}

/** A new order's headless quote with the merchant's secret key: its JSON body and headers (a new idempotency key). */
function newQuote(merchant: NewMerchant) {
  const body = JSON.stringify({
    order_amount_cents: 5_000,
    order_id: `order-${randomUUID()}`,
    protection_program_id: merchant.programId,
  });
  const headers = {
    Authorization: `Bearer ${merchant.secretKey}`,
    "Content-Type": "application/json",
    "Idempotency-Key": randomUUID(),
  };
  return { body, headers };
}

function loadBalancer() {
  const ready = new Map<string, ApiProcess>();
  const answers = new Map<ApiProcess, number>();
  let turn = 0;
  let looking = true;
  const origins = new Set<ApiProcess>();
  const originOf = (api: ApiProcess) => api.baseUrl.replace(/\/api\/v1$/, "");

  // The balancer's own look at each upstream's readiness, as a health-checking load balancer does.
  const look = async () => {
    while (looking) {
      await Promise.all(
        [...origins].map(async (api) => {
          const answer = await fetch(`${originOf(api)}/readyz`).then(
            (response) => response.status,
            () => 0,
          );
          if (answer === 200) ready.set(originOf(api), api);
          else ready.delete(originOf(api));
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const looker = look();

  async function send(merchant: NewMerchant): Promise<{ ok: true; close: boolean } | { ok: false; why: string }> {
    // One body and one idempotency key for every attempt: a repeat after a closed connection is the same request.
    const { body, headers } = newQuote(merchant);
    for (let attempt = 0; attempt < 6; attempt++) {
      const upstreams = [...ready.values()];
      if (upstreams.length === 0) return { ok: false, why: "no ready upstream" };
      const api = upstreams[turn++ % upstreams.length];
      try {
        const response = await fetch(`${api.baseUrl}/headless/quote`, {
          method: "POST",
          headers,
          body,
        });
        const text = await response.text();
        if (response.status !== 200) return { ok: false, why: `${response.status} ${text}` };
        answers.set(api, (answers.get(api) ?? 0) + 1);
        return { ok: true, close: response.headers.get("connection") === "close" };
      } catch (error) {
        // Refused, or closed before an answer: the request never reached the app, or its key replays it.
        retried++;
        ready.delete(originOf(api));
        if (attempt === 5) return { ok: false, why: String((error as Error).cause ?? error) };
      }
    }
    return { ok: false, why: "unreachable" };
  }
  let retried = 0;

  return {
    async admitWhenReady(api: ApiProcess) {
      origins.add(api);
      await waitFor(() => ready.has(originOf(api)), { what: `${originOf(api)} ready` });
    },
    answeredBy: (api: ApiProcess) => answers.get(api) ?? 0,
    runLoad(clients: number, merchant: NewMerchant) {
      let running = true;
      let answered = 0;
      let closeAnswers = 0;
      const failures: string[] = [];
      const loops = Array.from({ length: clients }, async () => {
        while (running) {
          const outcome = await send(merchant);
          if (outcome.ok) {
            answered++;
            if (outcome.close) closeAnswers++;
          } else failures.push(outcome.why);
        }
      });
      return {
        async stop() {
          running = false;
          await Promise.all(loops);
          looking = false;
          await looker;
          return { answered, failures, retried, closeAnswers };
        },
      };
    },
  };
}
