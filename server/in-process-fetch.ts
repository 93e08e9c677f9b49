/**
 * A `fetch` that hands each request straight to the bundled API's handler: no socket, no port, no HTTP parsing.
 * Give it to the SDK (`new ProtectionClient({ apiKey, baseUrl: "http://in-process/api/v1", fetch:
 * createInProcessFetch(api) })`) to call an API embedded in the same process — the Shopify webhook handler does.
 * Only the path matters to the API; the host in the URL is never contacted. The request's AbortSignal is honoured
 * (the SDK's timeout rejects the call), though the handler itself runs on to completion.
 */
export function createInProcessFetch(api: { fetch(request: Request): Response | Promise<Response> }) {
  return async function inProcessFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const { signal } = request;
    signal.throwIfAborted();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([api.fetch(request), aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort!);
    }
  };
}
