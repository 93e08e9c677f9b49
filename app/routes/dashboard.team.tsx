import { standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadTeam, teamAction } from "../dashboard/pages/team.server.ts";

export const loader = standaloneLoader("team", loadTeam);
export const action = standaloneAction("team", teamAction);
export { TeamPage as default } from "../dashboard/pages/TeamPage.tsx";
