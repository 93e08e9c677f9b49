// The origin a merchant's own pages and servers reach this app at (the widget script, the API): the one the viewer
// opened the dashboard on, https when a TLS proxy in front says so.
import { isHttps } from "../request-scheme.server.ts";

export function publicOrigin(request: Request): string {
  const url = new URL(request.url);
  return isHttps(request) ? `https://${url.host}` : url.origin;
}
