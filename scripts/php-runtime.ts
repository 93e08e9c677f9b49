// PHP 8.4 as WebAssembly (@php-wasm/node): Debian ships PHP 8.2 only and the PHP SDK requires ^8.4. Runs one PHP
// command line on the host filesystem with the PHP SDK's autoloader prepended and Debian's PEAR-style packages
// (/usr/share/php: the PSR interfaces, nyholm/psr7, PHPUnit) on the include path, and resolves to PHP's exit code
// (@php-wasm/cli always exits 0). PHP's sockets (curl) go through the `ws` package, which @php-wasm/node-8-4 imports
// without declaring it: the root package.json pins ws 8.21.0, the version @php-wasm/node wants, so that import does not
// find @remix-run/dev's ws 7 (with which every outbound request is an "Empty reply from server").
import path from "node:path";
import { loadNodeRuntime, useHostFilesystem } from "@php-wasm/node";
import { PHP, setPhpIniEntries } from "@php-wasm/universal";
import { createSpawnHandler } from "@php-wasm/util";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const SDK_PHP = path.join(ROOT, "packages", "sdk-php");
export const PHP_VERSION = "8.4";

export interface RunPhpOptions {
  /** The environment PHP's getenv() sees (the host's is not passed through). */
  env?: Record<string, string>;
  cwd?: string;
  /** Added to the php.ini entries below. */
  ini?: Record<string, string>;
  /** Where PHP's output goes; default this process's stdout and stderr. */
  stdout?: (chunk: Uint8Array) => void;
  stderr?: (chunk: Uint8Array) => void;
}

/** `php <argv…>`: argv[0] is the script. Resolves to PHP's exit code. */
export async function runPhp(argv: string[], options: RunPhpOptions = {}): Promise<number> {
  // loadNodeRuntime needs a process id (file locking and traces name it); there is one PHP per call.
  const php = new PHP(await loadNodeRuntime(PHP_VERSION, { emscriptenOptions: { processId: process.pid } }));
  useHostFilesystem(php);
  await setPhpIniEntries(php, {
    include_path: `.:/usr/share/php:${SDK_PHP}`,
    auto_prepend_file: path.join(SDK_PHP, "autoload.php"),
    // Debian's PSR packages predate PHP 8.4's explicit-nullable rule (and PHPUnit 9.6 predates 8.4): their
    // deprecation notices say nothing about the code under test.
    error_reporting: "E_ALL & ~E_DEPRECATED",
    display_errors: "stderr",
    log_errors: "0",
    memory_limit: "512M",
    ...options.ini,
  });
  // PHP code that shells out (PHPUnit asks `stty size` for the terminal width) gets a command that fails quietly:
  // nothing runs on the host.
  await php.setSpawnHandler(createSpawnHandler((_command: string[], processApi) => processApi.exit(1)));
  php.setSkipShebang(true); // /usr/bin/phpunit starts with #!/usr/bin/php
  const response = await php.cli(["php", ...argv], { env: options.env ?? {}, cwd: options.cwd ?? process.cwd() });
  const drain = (stream: ReadableStream<Uint8Array>, write: (chunk: Uint8Array) => void) =>
    stream.pipeTo(new WritableStream({ write: (chunk) => void write(chunk) }));
  const [exitCode] = await Promise.all([
    response.exitCode,
    drain(response.stdout, options.stdout ?? ((chunk) => process.stdout.write(chunk))),
    drain(response.stderr, options.stderr ?? ((chunk) => process.stderr.write(chunk))),
  ]);
  php.exit();
  return exitCode;
}

/** Debian's PHPUnit 9.6 (apt-get install phpunit). */
export const PHPUNIT = "/usr/bin/phpunit";

/** The PHP SDK's PHPUnit suite (packages/sdk-php/phpunit.xml.dist) with extra arguments; resolves to PHPUnit's exit code. */
export function runPhpUnit(args: string[], options: RunPhpOptions = {}): Promise<number> {
  return runPhp([PHPUNIT, "--configuration", path.join(SDK_PHP, "phpunit.xml.dist"), ...args], {
    cwd: SDK_PHP,
    ...options,
  });
}
