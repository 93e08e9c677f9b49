import { standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadDevelopers } from "../dashboard/pages/developers.server.ts";

export const loader = standaloneLoader("developers", loadDevelopers);
export { DevelopersPage as default } from "../dashboard/pages/DevelopersPage.tsx";
