import { standaloneAction, standaloneLoader } from "../dashboard/standalone.server.ts";
import { loadProgram, programAction } from "../dashboard/pages/program.server.ts";

export const loader = standaloneLoader("program", loadProgram);
export const action = standaloneAction("program", programAction);
export { ProgramPage as default } from "../dashboard/pages/ProgramPage.tsx";
