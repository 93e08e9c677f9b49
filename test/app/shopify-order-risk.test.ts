// Shopify's order risk summary as the core keeps it (app/shopify/order-risk.server.ts): the highest assessment's level
// (pending only while every assessment is; none without any), Shopify's recommendation, and the negative facts of the
// assessments at that level.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { orderRiskOf } from "../../app/shopify/order-risk.server.ts";

const fact = (description: string, sentiment: "NEGATIVE" | "NEUTRAL" | "POSITIVE" = "NEGATIVE") => ({
  description,
  sentiment,
});

describe("orderRiskOf", () => {
  it("the highest level wins, with its negative facts only", () => {
    assert.deepEqual(
      orderRiskOf({
        recommendation: "INVESTIGATE",
        assessments: [
          { riskLevel: "LOW", facts: [fact("An app's doubt")] },
          {
            riskLevel: "MEDIUM",
            facts: [fact("Shipping address is far from the IP"), fact("Card matched", "POSITIVE")],
          },
          { riskLevel: "PENDING", facts: [] },
        ],
      }),
      { level: "medium", recommendation: "investigate", reasons: ["Shipping address is far from the IP"] },
    );
  });

  it("pending while every assessment is; none without any", () => {
    assert.deepEqual(orderRiskOf({ recommendation: "NONE", assessments: [{ riskLevel: "PENDING", facts: [] }] }), {
      level: "pending",
      recommendation: "none",
      reasons: [],
    });
    assert.deepEqual(orderRiskOf({ recommendation: "ACCEPT", assessments: [] }), {
      level: "none",
      recommendation: "accept",
      reasons: [],
    });
  });
});
