import { standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { experimentsAction, loadExperiments } from "../dashboard/pages/experiments.server.ts";

export const loader = standaloneLoader("experiments", loadExperiments);
export const action = standaloneAction("experiments", experimentsAction);
export { ExperimentsPage as default } from "../dashboard/pages/ExperimentsPage.tsx";
