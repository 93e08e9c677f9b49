// ESLint (npm run lint, npm run lint:fix), flat config, set up the way Shopify's app template sets it up: the
// JavaScript and typescript-eslint recommended rules everywhere, the React hooks rules on React (and Preact) code,
// eslint-config-prettier last so no rule argues with Prettier over layout (npm run format owns that).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { defineConfig, globalIgnores } from "eslint/config";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  globalIgnores([
    // Build output, caches and local tools (see .gitignore).
    "**/node_modules/",
    "**/build/",
    "**/dist/",
    "**/.cache/",
    "public/build/",
    ".tools/",
    ".data/",
    "bench/results/",
    // The widget's minified bundle, copied into the theme app embed by `npm run build:widget`.
    "extensions/theme-embed/assets/",
    // Written by the Shopify CLI on every `shopify app build`/`dev` (its `//@ts-ignore` lines included).
    "extensions/*/shopify.d.ts",
    // AssemblyScript's @external decorators on declared functions, which TypeScript's parser refuses; asc checks it.
    "extensions/protection-cart-guard/assembly/wasi.ts",
  ]),
  js.configs.recommended,
  // Without type information: the type-aware set (recommendedTypeChecked) took over 2 minutes on this repository
  // (four tsconfig projects to load), against 10-40 s without; `npx tsc` checks the types already.
  tseslint.configs.recommended,
  {
    rules: {
      // Relaxed for two idioms the code uses on purpose: a parameter that documents a callback's signature without
      // being read (`jobPayload: (_shop: ShopifyShop) => ({})`), and a field left out by a rest spread
      // (`const { $schema: _dialect, ...rest } = …`). Any other unused binding is an error.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    files: [
      "server/**",
      "scripts/**",
      "bench/**",
      "test/**",
      "packages/*/test/**",
      "packages/*/scripts/**",
      "packages/*/build.ts",
      "packages/sdk/src/**",
      "extensions/*/build.ts",
      "app/**/*.server.ts",
      "app/**/*.server.tsx",
      "app/shopify/**",
      "*.config.{js,ts}",
    ],
    languageOptions: { globals: globals.node },
  },
  {
    // Code that runs in the browser: the widget, the extensions, the app's components and route modules (which
    // Remix also renders on the server).
    files: ["packages/widget/src/**", "extensions/*/src/**", "app/components/**", "app/routes/**", "app/root.tsx"],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ["app/routes/**", "app/root.tsx", "app/entry.server.tsx"],
    languageOptions: { globals: globals.node },
  },
  {
    files: ["app/**/*.{ts,tsx}", "extensions/*/src/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat.recommended,
  },
  prettier,
);
