// Preloaded with `node --import` (through NODE_OPTIONS, so every process of a tree gets it): in the process whose main
// script ends with RECORD_LOADS_OF, appends the path of every module it loads from under RECORD_LOADS_UNDER to
// RECORD_LOADS_FILE, one per line, so that a test can say what that process loaded. Plain JavaScript: npm and the
// bootstrap load it too, under whichever Node runs them; where module.registerHooks is missing (Node < 22.15), it
// records nothing.
import fs from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

const { RECORD_LOADS_OF: main, RECORD_LOADS_UNDER: under, RECORD_LOADS_FILE: file } = process.env;
if (main && under && file && process.argv[1]?.endsWith(main)) {
  module.registerHooks?.({
    load(url, context, nextLoad) {
      const loaded = url.startsWith("file:") ? fileURLToPath(url) : "";
      if (loaded.startsWith(under)) fs.appendFileSync(file, `${loaded}\n`);
      return nextLoad(url, context);
    },
  });
}
