// Whether the browser reached this app over https: the request's own scheme, or a TLS-terminating proxy in front that
// says so (X-Forwarded-Proto). Secure cookies, the same-origin check and the public origin ask here.
export const isHttps = (request: Request) =>
  new URL(request.url).protocol === "https:" || request.headers.get("X-Forwarded-Proto") === "https";
