import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { loadConfig } from "../../server/config.ts";
import { createRuntime } from "../../server/runtime.ts";
import { capturedLogger } from "../support/logger.ts";

const environment = (variables: Record<string, string>) => variables as NodeJS.ProcessEnv;

describe("rate-limit configuration", () => {
  it("defaults: limits on, edge limits on, memory backend, no trusted proxy", () => {
    const config = loadConfig(environment({}));
    assert.deepEqual(
      [config.RATE_LIMITS, config.EDGE_LIMITS, config.REDIS_URL, config.TRUST_PROXY, config.RATE_LIMIT_KEY_PREFIX],
      ["on", "on", undefined, 0, "ratelimit:"],
    );
    assert.throws(() => loadConfig(environment({ TRUST_PROXY: "some" })), /TRUST_PROXY/);
    assert.throws(() => loadConfig(environment({ RATE_LIMITS: "no" })), /RATE_LIMITS/);
  });

  it("RATE_LIMITS=off is logged as a warning at start", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-rl-config-"));
    const env = {
      DATABASE_URL: `file:${path.join(dir, "db.sqlite")}`,
      DATA_DIR: dir,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    };
    try {
      for (const [setting, warned] of [
        ["off", true],
        ["on", false],
      ] as const) {
        const { logger, lines } = capturedLogger();
        const runtime = createRuntime(loadConfig(environment({ ...env, RATE_LIMITS: setting })), logger);
        await runtime.close();
        assert.equal(
          lines.some((line) => line.level === 40 && String(line.msg).startsWith("RATE_LIMITS=off")),
          warned,
          setting,
        );
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
