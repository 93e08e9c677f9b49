// The protection API mounted at /api/v1/*: one splat resource route hands every request, whatever its method, to
// the API's fetch handler. GET and HEAD reach the loader; POST, PATCH, DELETE and OPTIONS (CORS preflights) the action.
// Plain .ts on purpose (no JSX), so that node can import it directly in tests.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleApiRequest } from "../protection-api.server.ts";

export const loader = ({ request }: LoaderFunctionArgs) => handleApiRequest(request);

export const action = ({ request }: ActionFunctionArgs) => handleApiRequest(request);
