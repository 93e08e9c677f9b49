// The overview's getting-started checklist rendered for given facts (app/dashboard/GettingStarted.tsx): which steps
// show ticked, the snippets' ids, the count, and the one folded line once every step is done.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json" with { type: "json" };
import { createRemixStub } from "@remix-run/testing";
import { GettingStarted } from "../../app/dashboard/GettingStarted.tsx";
import { DashboardShellProvider } from "../../app/dashboard/shell-context.tsx";
import type { GettingStartedData } from "../../app/dashboard/pages/getting-started.server.ts";

const ORIGIN = "https://protect.example.com";
const FRESH: NonNullable<GettingStartedData> = {
  testKeyPair: false,
  publishableKey: null,
  programId: "prog_01abc",
  firstTestQuote: false,
  firstTestOrder: false,
  webhookEndpoint: false,
  live: false,
  origin: ORIGIN,
};

function render(gettingStarted: GettingStartedData, role: "owner" | "developer" | "support" = "owner") {
  const Stub = createRemixStub([{ id: "routes/page", path: "/dashboard", Component: GettingStarted }]);
  const shell = {
    shell: "standalone" as const,
    basePath: "/dashboard",
    merchantName: "Harbour Lane",
    mode: "test" as const,
    live: false,
    role,
    csrfToken: "t",
  };
  return renderToString(
    createElement(
      AppProvider,
      { i18n: en },
      createElement(DashboardShellProvider, {
        value: shell,
        children: createElement(Stub, {
          initialEntries: ["/dashboard"],
          hydrationData: { loaderData: { "routes/page": { gettingStarted } } },
        }),
      }),
    ),
  );
}

/** The titles of the steps shown ticked. */
const ticked = (html: string) =>
  [...html.matchAll(/data-step-done="true"[\s\S]*?<h3[^>]*>([^<]+)/g)].map((match) => match[1]);
const decode = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

describe("the getting-started checklist", () => {
  it("a new account: only the program ticked; the widget snippet asks for a publishable key", () => {
    const html = render(FRESH);
    assert.deepEqual(ticked(html), ["Your protection program"]);
    assert.match(html, /1 of 6 steps done/);
    const text = decode(html);
    assert.ok(text.includes('publishable-key="wk_test_YOUR_PUBLISHABLE_KEY"'));
    assert.ok(text.includes("Create a test publishable key on API keys first"));
    assert.ok(text.includes(`<script src="${ORIGIN}/widget/v1/service-widget.js" async></script>`));
  });

  it("ticks what happened and fills the ids into every snippet", () => {
    const html = render({
      ...FRESH,
      testKeyPair: true,
      publishableKey: "wk_test_abc",
      firstTestQuote: true,
      firstTestOrder: true,
    });
    assert.deepEqual(ticked(html), [
      "Create your test keys",
      "Your protection program",
      "Show the offer at your checkout",
      "Place a first test order",
    ]);
    assert.match(html, /4 of 6 steps done/);
    const text = decode(html);
    assert.ok(text.includes('publishable-key="wk_test_abc"') && !text.includes("YOUR_PUBLISHABLE_KEY"));
    assert.equal(text.split('protection_program_id": "prog_01abc"').length - 1, 1, "curl");
    assert.equal(text.split('protection_program_id: "prog_01abc"').length - 1, 1, "TypeScript");
    assert.equal(text.split("'protection_program_id' => 'prog_01abc'").length - 1, 1, "PHP");
    assert.equal(text.split(`${ORIGIN}/api/v1`).length - 1, 3, "the API base in the three server snippets");
    for (const label of ["Copy the program id", "Copy the widget snippet", "Copy the curl snippet"])
      assert.ok(text.includes(`aria-label="${label}"`), label);
  });

  it("folds into one closed line once every step is done", () => {
    const html = render({
      ...FRESH,
      testKeyPair: true,
      publishableKey: "wk_test_abc",
      firstTestQuote: true,
      firstTestOrder: true,
      webhookEndpoint: true,
      live: true,
    });
    assert.match(html, /<details class="checklist-folded"><summary>/);
    assert.doesNotMatch(html, /<details class="checklist-folded" open/);
    assert.match(html, /Getting started: all steps done/);
    assert.doesNotMatch(html, /Get started</);
    assert.equal(ticked(html).length, 6);
  });

  it("shows nothing in the Shopify admin (no data) or to support", () => {
    assert.doesNotMatch(render(null), /checklist/);
    assert.doesNotMatch(render(FRESH, "support"), /checklist/);
    assert.match(render(FRESH, "developer"), /Get started/);
  });
});
