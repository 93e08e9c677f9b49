// The few @php-wasm entry points scripts/php-runtime.ts uses. The packages' own declarations re-export directories
// (`export * from './lib'`), which NodeNext resolution cannot follow from an ES module, so they read as empty.
declare module "@php-wasm/node" {
  export function loadNodeRuntime(
    phpVersion: string,
    options?: { emscriptenOptions?: { processId?: number } },
  ): Promise<number>;
  export function useHostFilesystem(php: import("@php-wasm/universal").PHP): void;
}

declare module "@php-wasm/universal" {
  export interface StreamedPHPResponse {
    readonly stdout: ReadableStream<Uint8Array>;
    readonly stderr: ReadableStream<Uint8Array>;
    readonly exitCode: Promise<number>;
  }
  export class PHP {
    constructor(runtimeId: number);
    setSpawnHandler(handler: unknown): Promise<void>;
    setSkipShebang(shouldSkip: boolean): void;
    cli(argv: string[], options?: { env?: Record<string, string>; cwd?: string }): Promise<StreamedPHPResponse>;
    exit(code?: number): void;
  }
  export function setPhpIniEntries(php: PHP, entries: Record<string, unknown>): Promise<void>;
}

declare module "@php-wasm/util" {
  export interface ProcessApi {
    stdout(data: string | ArrayBuffer): void;
    stderr(data: string | ArrayBuffer): void;
    exit(code: number): void;
  }
  export function createSpawnHandler(
    program: (command: string[], processApi: ProcessApi) => void | Promise<void>,
  ): unknown;
}
