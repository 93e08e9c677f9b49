// npm run test:php [-- phpunit arguments…]: the PHP SDK's PHPUnit suite on PHP 8.4 (WebAssembly) against the
// loopback servers of test/sdk-php/servers.ts (the real API, the fault server, the recorder). Exits with PHPUnit's
// code. `npm test` runs the same suite through test/sdk-php/phpunit.test.ts.
import { runPhpUnit } from "./php-runtime.ts";
import { startPhpTestServers } from "../test/sdk-php/servers.ts";

const servers = await startPhpTestServers();
let exitCode = 1;
try {
  const hostEnv = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  exitCode = await runPhpUnit(process.argv.slice(2), { env: { ...hostEnv, ...servers.env } });
} finally {
  await servers.close();
}
process.exit(exitCode);
