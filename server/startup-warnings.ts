// What a server says at warn level as it starts (`npm run api`, `npm start`, `npm run demo`): settings that are wrong
// on a production server unless they are deliberate.
import type { Logger } from "pino";
import type { Config } from "./config.ts";

export function logStartupWarnings(config: Pick<Config, "DEMO" | "TRUST_PROXY">, logger: Logger): void {
  if (config.DEMO === "on")
    logger.warn("DEMO=on: serving the demo storefront page /demo (never on a production server)");
  // docs/api.md "Security": behind no proxy, X-Forwarded-For is whatever the client writes.
  if (config.TRUST_PROXY > 0)
    logger.warn(
      { trustProxy: config.TRUST_PROXY },
      `TRUST_PROXY=${config.TRUST_PROXY}: the client address is read from X-Forwarded-For, ${config.TRUST_PROXY} hop(s) back. ` +
        "Correct only behind exactly that many proxies that append to it and with this server unreachable except " +
        "through them: a client that reaches it directly picks its own rate-limit buckets and audited address.",
    );
}
