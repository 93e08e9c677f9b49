import { standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { keysAction, loadKeys } from "../dashboard/pages/keys.server.ts";

export const loader = standaloneLoader("keys", loadKeys);
export const action = standaloneAction("keys", keysAction);
export { KeysPage as default } from "../dashboard/pages/KeysPage.tsx";
