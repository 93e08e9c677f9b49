// Keyboard and screen reader: the buyer reaches the opt-in with Tab, ticks it with Space, and hears the result;
// everything is found by role and accessible name (Chromium's accessibility tree, through the closed shadow root).
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import {
  accessibilityTree,
  waitForEvent,
  waitForRole,
  type AxNode,
  type TestPage,
} from "../../../test/support/widget/browser.ts";
import { waitFor } from "../../../test/support/wait.ts";
import { chromiumSuite, withCheckout } from "../../../test/support/widget/suite.ts";

const focused = async (tab: TestPage) =>
  (await accessibilityTree(tab)).find((node) => node.properties.focused === true && node.role !== "RootWebArea");

describe("<service-widget>: keyboard-only opt-in (Chromium)", () => {
  const suite = chromiumSuite();

  it("Tab reaches the labelled checkbox (described by the disclosure), Space opts in, the confirmed result is announced", () =>
    withCheckout(suite, {}, async (tab) => {
      await waitForRole(tab, "checkbox", /purchase protection/i);
      let target: AxNode | undefined;
      for (let presses = 0; presses < 10 && !target; presses++) {
        await tab.page.keyboard.press("Tab");
        const node = await focused(tab);
        if (node?.role === "checkbox") target = node;
      }
      assert.ok(target, "the checkbox is reachable with Tab");
      assert.match(target.name, /^Add purchase protection for \$/);
      assert.equal(target.properties.checked, "false");
      assert.ok(target.properties.describedby, "described by the disclosure");
      await tab.page.keyboard.press("Space");
      await waitForEvent(tab, "choice");
      await tab.page.evaluate(() =>
        (document.querySelector("service-widget") as HTMLElement & { confirm(o: object): Promise<string> }).confirm({
          customerEmail: "buyer@example.com",
        }),
      );
      const [accepted] = await waitForEvent(tab, "accepted");
      assert.ok(await waitForRole(tab, "status"));
      await waitFor(
        async () =>
          (await accessibilityTree(tab)).some((n) => n.name.includes(accepted.detail.referenceNumber as string)),
        { what: "announced reference number" },
      );
      assert.ok((await accessibilityTree(tab)).some((n) => n.role === "group" && n.name === "Purchase protection"));
      // The next Tab stops go on to the coverage link, then out to the page's own checkout button.
      const order: string[] = [];
      for (let presses = 0; presses < 3; presses++) {
        await tab.page.keyboard.press("Tab");
        const node = await focused(tab);
        order.push(`${node?.role}:${node?.name}`);
      }
      assert.ok(order.includes("link:See what is covered"), order.join(", "));
      assert.ok(order.includes("button:Pay now"), order.join(", "));
    }));
});
