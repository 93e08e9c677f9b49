import { fork } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import autocannon from "autocannon";
const cpu = (pid: number) => { const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8"); const f = s.slice(s.lastIndexOf(")") + 2).split(" "); return (Number(f[11]) + Number(f[12])) / 100; };
for (const [file, args] of [["_scratch_hono.ts", ["text"]], ["_scratch_hono.ts", ["after"]]] as const) {
  const child = fork(new URL(file, import.meta.url).pathname, [...args]);
  const [{ port }] = (await once(child, "message")) as [{ port: number }];
  let n = 0;
  const req = { method: "POST", path: "/api/v1/offers/quote", setupRequest(r: any) { r.headers = { "content-type": "application/json", "idempotency-key": `k-${++n}` }; r.body = JSON.stringify({ a: n }); return r; } };
  await autocannon({ url: `http://127.0.0.1:${port}`, connections: 32, duration: 2, requests: [req] });
  const c0 = cpu(child.pid!);
  const r = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 32, duration: 5, requests: [req] });
  const used = cpu(child.pid!) - c0;
  console.log(file, args.join(" "), Math.round(r.requests.total / r.duration), "req/s", Math.round(used * 1e6 / r.requests.total), "cpu µs/req", r.non2xx);
  child.kill("SIGTERM"); await once(child, "exit");
}
