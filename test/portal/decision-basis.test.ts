// The decision basis as the portal's claim page and the claims console show it (app/ui/decision-basis.tsx): the
// sentences as a list under the page's heading, and nothing at all for a person's decision, which has none.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { DecisionBasis } from "../../app/ui/decision-basis.tsx";

const heading = createElement("h3", null, "Why");

describe("the decision basis", () => {
  it("lists each sentence under the page's heading", () => {
    const html = renderToStaticMarkup(
      createElement(DecisionBasis, {
        basis: ["The carrier reported your parcel delivered.", "You asked for $5.00."],
        heading,
      }),
    );
    assert.equal(
      html,
      '<h3>Why</h3><ul class="decision-basis"><li>The carrier reported your parcel delivered.</li><li>You asked for $5.00.</li></ul>',
    );
  });

  it("shows nothing, not even the heading, when the decision rests on no rule's facts", () => {
    assert.equal(renderToStaticMarkup(createElement(DecisionBasis, { basis: [], heading })), "");
  });
});
