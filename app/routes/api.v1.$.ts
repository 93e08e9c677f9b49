// The protection API mounted at /api/v1/*: one splat resource route hands every request, whatever its method, to
// the API's fetch handler. GET and HEAD reach the loader; POST, PATCH, DELETE and OPTIONS (CORS preflights) the action.
// The load context's Node bindings (scripts/web-server.ts) go with it, so the per-IP rate limits see the client.
// Plain .ts on purpose (no JSX), so that node can import it directly in tests.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleApiRequest, type ApiLoadContext } from "../protection-api.server.ts";

const handle = ({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) =>
  handleApiRequest(request, (context as ApiLoadContext).nodeBindings);

export const loader = handle;

export const action = handle;
