// Summarises a V8 .cpuprofile (from `node --cpu-prof`): the top functions by self time, and the share of busy
// time spent in each component (self, and inclusive: samples with that component anywhere on the stack).
// Standalone: node bench/profile.ts <file.cpuprofile> [top]
import fs from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  functions: { name: string; where: string; component: string; selfMs: number; share: number }[];
  components: { component: string; selfMs: number; selfShare: number; inclusiveShare: number }[];
  /** Busy time by kind of work: each sample goes to the nearest frame (leaf first) that names a bucket. */
  buckets: { bucket: string; share: number }[];
  /** Our own functions (server/) by inclusive time: the time spent in them and everything they call. */
  ours: { name: string; where: string; inclusiveShare: number }[];
}

const ROOT = path.resolve(import.meta.dirname, "..");
const IDLE = new Set(["(idle)", "(root)"]);

/** Kinds of work, tried in order on a component; native frames (no URL) take the bucket of their caller. */
const BUCKETS: [string, RegExp][] = [
  ["SQLite (better-sqlite3 + server/store/sqlite.ts)", /^(better-sqlite3|server\/store\/sqlite\.ts)$/],
  ["crypto (node:crypto)", /^node:internal\/crypto\//],
  ["zod", /^zod$/],
  ["pino", /^(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|quick-format-unescaped)$/],
  ["Hono router + middleware (hono)", /^hono$/],
  [
    "Request/Response adapter (@hono/node-server, undici, web streams)",
    /^(@hono\/node-server|node:internal\/deps\/undici\/undici|node:internal\/webstreams\/.*)$/,
  ],
  [
    "node:http + net + streams",
    /^(node:_http_.*|node:net|node:internal\/streams\/.*|node:internal\/stream_base_commons|node:stream|node:internal\/http)$/,
  ],
  ["our code (server/, other than the store)", /^server\//],
  ["garbage collector", /^\(garbage collector\)$/],
  ["module loading / compile (startup)", /^node:internal\/(modules\/.*|bootstrap\/.*|deps\/amaro\/.*)$/],
];

function bucketOf(component: string): string | undefined {
  return BUCKETS.find(([, pattern]) => pattern.test(component))?.[0];
}

/** Which part of the stack a frame belongs to: an npm package, one of our files, Node's internals, or V8. */
export function componentOf(frame: ProfileNode["callFrame"]): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith("(") ? frame.functionName : "native";
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1];
  if (url.startsWith("node:")) return url; // node:internal/deps/undici/undici, node:internal/crypto/hash, node:_http_server…
  const file = url.startsWith("file://") ? decodeURIComponent(new URL(url).pathname) : url;
  return file.startsWith(ROOT) ? path.relative(ROOT, file) : file;
}

export function summariseProfile(file: string, top = 30): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  // timeDeltas[i] is the time between sample i-1 and sample i; the time after sample i belongs to sample i.
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + Math.max(0, dt));
  }

  let busyUs = 0;
  let idleUs = 0;
  const functions = new Map<string, { name: string; where: string; component: string; us: number }>();
  const componentSelf = new Map<string, number>();
  const componentInclusive = new Map<string, number>();
  const oursInclusive = new Map<string, { name: string; where: string; us: number }>();
  const bucketUs = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    if (IDLE.has(node.callFrame.functionName)) {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const component = componentOf(node.callFrame);
    const where = node.callFrame.url ? `${component}:${node.callFrame.lineNumber + 1}` : component;
    const name = node.callFrame.functionName || "(anonymous)";
    const key = `${name}@${where}`;
    const entry = functions.get(key) ?? { name, where, component, us: 0 };
    entry.us += us;
    functions.set(key, entry);
    componentSelf.set(component, (componentSelf.get(component) ?? 0) + us);
    let bucket: string | undefined;
    for (let at: number | undefined = id; at !== undefined && bucket === undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (frame.url || frame.functionName === "(garbage collector)")
        bucket = bucketOf(componentOf(frame)) ?? "other (event loop, timers, …)";
    }
    bucket ??= "other (event loop, timers, …)";
    bucketUs.set(bucket, (bucketUs.get(bucket) ?? 0) + us);
    const onStack = new Set<string>();
    const oursOnStack = new Map<string, { name: string; where: string }>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (IDLE.has(frame.functionName)) continue;
      const frameComponent = componentOf(frame);
      onStack.add(frameComponent);
      if (frameComponent.startsWith("server/")) {
        const frameWhere = `${frameComponent}:${frame.lineNumber + 1}`;
        const frameName = frame.functionName || "(anonymous)";
        oursOnStack.set(`${frameName}@${frameWhere}`, { name: frameName, where: frameWhere });
      }
    }
    for (const c of onStack) componentInclusive.set(c, (componentInclusive.get(c) ?? 0) + us);
    for (const [key, frame] of oursOnStack) {
      const entry = oursInclusive.get(key) ?? { ...frame, us: 0 };
      entry.us += us;
      oursInclusive.set(key, entry);
    }
  }

  const share = (us: number) => (busyUs === 0 ? 0 : us / busyUs);
  return {
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    functions: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, component: f.component, selfMs: f.us / 1000, share: share(f.us) })),
    components: [...componentInclusive.keys()]
      .map((component) => ({
        component,
        selfMs: (componentSelf.get(component) ?? 0) / 1000,
        selfShare: share(componentSelf.get(component) ?? 0),
        inclusiveShare: share(componentInclusive.get(component) ?? 0),
      }))
      .sort((a, b) => b.selfShare - a.selfShare || b.inclusiveShare - a.inclusiveShare),
    buckets: [...bucketUs].map(([bucket, us]) => ({ bucket, share: share(us) })).sort((a, b) => b.share - a.share),
    ours: [...oursInclusive.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, inclusiveShare: share(f.us) })),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(6);

export function formatProfile(summary: ProfileSummary, title: string, components = 25): string {
  const lines = [
    `${title}: busy ${(summary.busyMs / 1000).toFixed(1)} s, idle ${(summary.idleMs / 1000).toFixed(1)} s`,
    "",
    "  busy time by kind of work",
    ...summary.buckets.map((b) => `  ${pct(b.share)}  ${b.bucket}`),
    "",
    "  top functions by self time (share of busy time)",
    ...summary.functions.map((f) => `  ${pct(f.share)}  ${f.name.slice(0, 40).padEnd(40)} ${f.where}`),
    "",
    "  components: self / inclusive (on the stack)",
    ...summary.components
      .slice(0, components)
      .map((c) => `  ${pct(c.selfShare)} ${pct(c.inclusiveShare)}  ${c.component}`),
    "",
    "  our functions by inclusive time",
    ...summary.ours.map((f) => `  ${pct(f.inclusiveShare)}  ${f.name.slice(0, 40).padEnd(40)} ${f.where}`),
  ];
  return lines.join("\n");
}

if (import.meta.main) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error("usage: node bench/profile.ts <file.cpuprofile> [top]");
    process.exit(2);
  }
  console.log(formatProfile(summariseProfile(file, top ? Number(top) : 30), path.basename(file)));
}
