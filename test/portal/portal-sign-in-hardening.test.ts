// The portal's sign-in and sign-out as the web app's real process (`npm start`) serves them, on SQLite and
// PostgreSQL, over plain HTTP (no browser needed): the welcome e-mail's coverage link signs in only by its page's POST,
// sign-out ends the session on the server, our own sites' pages are never framed (not even with ?shop=), and a
// TRUST_PROXY setting is announced at start.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { startPortal, type PortalHarness } from "./support.ts";

let emailSequence = 0;
const newEmail = () => `buyer-hardening-${process.pid}-${++emailSequence}@example.com`;

/** A browser's cookie jar, just enough for the portal's two cookies. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      if (value === "" || attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** The portal API token a `portal_session` cookie holds (Remix's unsigned cookie: base64 of JSON). */
const tokenOf = (cookie: string) => JSON.parse(Buffer.from(decodeURIComponent(cookie), "base64").toString("utf8"));

const csrfFieldOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

describe.each(DIALECTS)("portal sign-in hardening, npm start (%s)", (dialect) => {
  let portal: PortalHarness;

  beforeAll(async () => {
    // Shopify configured, so that its document headers are in play (?shop= must not open our pages to framing).
    portal = await startPortal(dialect, {
      TRUST_PROXY: "1",
      SHOPIFY_API_KEY: "0123456789abcdef0123456789abcdef",
      SHOPIFY_API_SECRET: "shpss_test_secret",
      SHOPIFY_APP_URL: "https://app.example.test",
      SCOPES: "read_orders,write_orders",
    });
  }, 300_000);
  afterAll(() => portal?.close());

  const url = (pathname: string) => `${portal.app.origin}${pathname}`;
  const sessions = async () => (await rowCounts(portal.database.db, ["portal_sessions"])).portal_sessions;
  const get = (jar: Jar, pathname: string) =>
    fetch(url(pathname), { headers: { Cookie: jar.header() }, redirect: "manual" }).then((r) => jar.take(r));
  const post = (jar: Jar, pathname: string, fields: Record<string, string>) =>
    fetch(url(pathname), {
      method: "POST",
      headers: { Cookie: jar.header(), Origin: portal.app.origin },
      body: new URLSearchParams(fields),
      redirect: "manual",
    }).then((r) => jar.take(r));

  it("opening the coverage link signs nobody in; only its page's button does; the page sends no Referer", async () => {
    const reference = await portal.protect(newEmail());
    const link = new URL((await portal.coverageLink(reference)).replace(/^https?:\/\/[^/]+/, portal.app.origin));
    const before = await sessions();
    const jar = new Jar();
    const page = await get(jar, `${link.pathname}${link.search}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.equal(jar.get("portal_session"), undefined, "a GET sets no session cookie");
    assert.equal(await sessions(), before, "a GET opens no session");
    assert.equal(page.headers.get("referrer-policy"), "no-referrer");
    assert.equal(page.headers.get("cache-control"), "no-store");
    assert.equal(page.headers.get("content-security-policy"), "frame-ancestors 'none'");
    assert.match(html, /Open my coverage/);

    // Another site's POST (no CSRF cookie to repeat) is refused and opens nothing.
    const token = link.searchParams.get("token")!;
    const forged = await post(new Jar(), link.pathname, { token, csrf: "x".repeat(43) });
    assert.equal(forged.status, 403);
    assert.equal(await sessions(), before);

    const signedIn = await post(jar, link.pathname, { token, csrf: csrfFieldOf(html)! });
    assert.equal(signedIn.status, 302);
    assert.equal(signedIn.headers.get("location"), "/portal/plan");
    assert.ok(jar.get("portal_session"), "the button's POST sets the session cookie");
    assert.equal(await sessions(), before + 1);
    const plan = await get(jar, "/portal/plan");
    assert.equal(plan.status, 200);
    assert.match(await plan.text(), new RegExp(reference));
  });

  it("sign-out ends the session on the server: its cookie replayed and its token at the API are refused", async () => {
    const email = newEmail();
    const reference = await portal.protect(email);
    const jar = new Jar();
    const lookup = await get(jar, "/portal");
    const csrf = csrfFieldOf(await lookup.text())!;
    const signedIn = await post(jar, "/portal?index", { email, reference, csrf });
    assert.equal(signedIn.headers.get("location"), "/portal/plan");
    const cookie = jar.get("portal_session")!;
    const token = tokenOf(cookie);
    assert.match(token, /^pps_/);

    const signedOut = await post(jar, "/portal/sign-out", { csrf });
    assert.equal(signedOut.status, 302);
    assert.equal(signedOut.headers.get("location"), "/portal?notice=signed-out");
    assert.equal(jar.get("portal_session"), undefined, "the cookie is cleared");

    // Someone who kept the cookie (or the token) gets nothing from it any more.
    const replayed = await fetch(url("/portal/plan"), {
      headers: { Cookie: `portal_session=${cookie}` },
      redirect: "manual",
    });
    assert.equal(replayed.status, 302);
    assert.equal(replayed.headers.get("location"), "/portal?notice=expired");
    const api = await fetch(url("/api/v1/portal/plan"), { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(api.status, 401);
    assert.equal((await api.json()).error.code, "portal_session_invalid");
  });

  it("the portal's, the console's and the dashboard's pages are never framed, even when ?shop= names a shop", async () => {
    for (const pathname of ["/portal", "/portal/terms", "/ops/sign-in", "/dashboard/sign-in"])
      for (const query of ["", "?shop=attacker-shop.myshopify.com"]) {
        const response = await fetch(url(`${pathname}${query}`), { redirect: "manual" });
        assert.equal(response.status, 200, `${pathname}${query}`);
        assert.equal(response.headers.get("content-security-policy"), "frame-ancestors 'none'", `${pathname}${query}`);
        assert.equal(response.headers.get("x-frame-options"), "DENY", `${pathname}${query}`);
        await response.body?.cancel();
      }
  });

  it("warns at start that TRUST_PROXY takes the client address from X-Forwarded-For", () => {
    const warning = portal.app
      .output()
      .split("\n")
      .find((line) => line.includes('"trustProxy":1'));
    assert.ok(warning, "a warning names TRUST_PROXY");
    assert.equal(JSON.parse(warning).level, 40);
    assert.match(JSON.parse(warning).msg, /client that reaches it directly picks its own rate-limit buckets/);
  });
});
