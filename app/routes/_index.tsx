import type { MetaFunction } from "@remix-run/node";

export const meta: MetaFunction = () => [{ title: "Purchase Protection" }];

const page = {
  fontFamily: "Inter, -apple-system, BlinkMacSystemFont, 'Segoe UI', sans-serif",
  maxWidth: 640,
  margin: "64px auto",
  padding: "0 24px",
  lineHeight: 1.5,
};

export default function Landing() {
  return (
    <main style={page}>
      <h1>Purchase Protection</h1>
      <p>
        A contractual refund guarantee for online orders. This is not insurance. Merchants offer it at checkout; buyers
        who opt in get their money back when a covered problem hits their order.
      </p>
      <ul>
        <li>
          Merchants: install the app from the Shopify admin, then open it under <a href="/app">Apps</a>.
        </li>
        <li>
          Developers: the protection API lives at <code>/api/v1</code>; its OpenAPI document is at{" "}
          <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
        </li>
      </ul>
    </main>
  );
}
