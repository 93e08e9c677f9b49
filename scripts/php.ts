// npm run php -- <file.php> [args…]: runs a PHP 8.4 script (WebAssembly) with the PHP SDK's autoloader and
// /usr/share/php on the include path; exits with PHP's exit code. The host's environment is passed to getenv().
import { runPhp } from "./php-runtime.ts";

const argv = process.argv.slice(2);
if (argv.length === 0) {
  console.error("usage: npm run php -- <file.php> [args…]");
  process.exit(2);
}
const env = Object.fromEntries(
  Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
);
const exitCode = await runPhp(argv, { env, cwd: process.env.INIT_CWD ?? process.cwd() });
// The runtime keeps handles open after PHP exits: leave explicitly once the output is flushed.
process.exit(exitCode);
