import { describe, it } from "vitest";
import assert from "node:assert/strict";
import pino from "pino";
import { loadConfig } from "./config.ts";
import { servicesFrom } from "./runtime.ts";

// DELIVERY_STALLED_AFTER_DAYS (docs/configuration.md): how many days without a carrier scan make a parcel presumed
// lost; the domain reads it from the services' settings (docs/api.md "Delivery states").

const environment = (variables: Record<string, string>) => variables as NodeJS.ProcessEnv;
const stalledAfterDays = (variables: Record<string, string>) =>
  servicesFrom(loadConfig(environment(variables)), pino({ level: "silent" })).settings.deliveryStalledAfterDays;

describe("delivery configuration", () => {
  it("DELIVERY_STALLED_AFTER_DAYS reaches the services' settings: 10 days by default, 1 to 90", () => {
    assert.equal(stalledAfterDays({}), 10);
    assert.equal(stalledAfterDays({ DELIVERY_STALLED_AFTER_DAYS: "21" }), 21);
    for (const bad of ["0", "91", "7.5", "soon"])
      assert.throws(() => stalledAfterDays({ DELIVERY_STALLED_AFTER_DAYS: bad }), /DELIVERY_STALLED_AFTER_DAYS/);
  });
});
