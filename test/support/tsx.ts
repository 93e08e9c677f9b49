// Lets a test import the Remix app's .tsx modules (routes, components): Node strips types from .ts itself but does
// not compile JSX, so a module hook hands .tsx files to esbuild (React's automatic runtime, as Vite builds them).
// Import this module before the first .tsx import.
import { register } from "node:module";

register(new URL("./tsx-hooks.ts", import.meta.url));
