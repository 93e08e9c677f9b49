import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadDevelopers } from "../dashboard/pages/developers.server.ts";

export const loader = embeddedLoader("developers", loadDevelopers);
export { DevelopersPage as default } from "../dashboard/pages/DevelopersPage.tsx";
