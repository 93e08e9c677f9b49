import { randomBytes } from "node:crypto";
import pino from "pino";
import { createProtectionApi } from "../server/api.ts";
import { cryptoRandom } from "../server/domain/ids.ts";
import { createTestMerchant } from "../server/domain/merchants.ts";
import { createTestDatabase } from "../test/support/databases.ts";

const database = await createTestDatabase("sqlite");
const services = { clock: Date.now, random: cryptoRandom, settings: { companyName: "B", portalUrl: "https://p.example" } };
const m = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "S" }));
const api = createProtectionApi({ db: database.db, services, encryptionKey: randomBytes(32), logger: pino({ level: "warn" }) });
let n = 0;
async function one() {
  n++;
  const r = await api.fetch(new Request("http://x/api/v1/offers/quote", { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${m.publishableKey}`, "idempotency-key": `bench-xxxxxxxxxx-${n}` }, body: JSON.stringify({ order_amount_cents: 12999, order_id: `o-${n}`, protection_program_id: m.programId }) }));
  await r.text();
  if (r.status !== 200) throw new Error(String(r.status));
}
for (let k = 0; k < 6; k++) { const w0 = process.cpuUsage(); for (let i = 0; i < 1000; i++) await one(); const w1 = process.cpuUsage(w0); console.log("warm block", k, "cpu µs/req", ((w1.user + w1.system) / 1000).toFixed(0)); }
const c0 = process.cpuUsage(); const t0 = performance.now();
const N = Number(process.env.N ?? 10000);
for (let i = 0; i < N; i++) await one();
const c1 = process.cpuUsage(c0);
console.log("sequential: wall µs/req", ((performance.now() - t0) * 1000 / N).toFixed(0), "cpu µs/req", ((c1.user + c1.system) / N).toFixed(0));
// concurrent 32
const t1 = performance.now(); const c2 = process.cpuUsage();
let left = N;
await Promise.all(Array.from({ length: 32 }, async () => { while (left-- > 0) await one(); }));
const c3 = process.cpuUsage(c2);
console.log("32 concurrent: wall µs/req", ((performance.now() - t1) * 1000 / N).toFixed(0), "cpu µs/req", ((c3.user + c3.system) / N).toFixed(0));
await database.drop();
