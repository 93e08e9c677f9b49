// A browser's side of the web app's pages over plain HTTP (no Chromium): a cookie jar, same-origin POSTs, the hidden
// fields of a page's forms (the CSRF tokens), and signing in as each kind of user — a buyer in the portal (the
// look-up form), a merchant's dashboard member and a claims-console staff member (each through a sign-in link, as
// they are e-mailed one).
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Database } from "../../server/store/database.ts";
import type { Services } from "../../server/domain/context.ts";
import { requestMemberSignInLinks } from "../../server/domain/members.ts";
import { insertMember } from "../../server/store/members.ts";
import { ensureStaffAccount, issueSignInLink } from "../../server/domain/staff.ts";

export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
}

export type PageBody = URLSearchParams | FormData | Uint8Array | string;

export class PageClient {
  private readonly cookies = new Map<string, string>();
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  /** A request with this client's cookies; a POST says it comes from this origin unless `headers` say otherwise. */
  async request(
    method: string,
    path: string,
    options: { body?: PageBody; headers?: Record<string, string> } = {},
  ): Promise<PageResponse> {
    const headers = new Headers({
      ...(method === "GET" ? {} : { Origin: this.origin }),
      ...options.headers,
    });
    // A header given as "" is left out (a POST without Origin, as some clients send it).
    for (const [name, value] of Object.entries(options.headers ?? {})) if (value === "") headers.delete(name);
    if (this.cookies.size > 0)
      headers.set("Cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(`${this.origin}${path}`, {
      method,
      headers,
      body: options.body as BodyInit | undefined,
      redirect: "manual",
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  get(path: string): Promise<PageResponse> {
    return this.request("GET", path);
  }

  post(path: string, body: PageBody, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.request("POST", path, { body, headers });
  }

  /** The hidden fields of the page at `path` (its forms' CSRF token), read as a browser loads the page. */
  async hiddenFields(path: string): Promise<Record<string, string>> {
    const page = await this.get(path);
    assert.equal(page.status, 200, `GET ${path}: ${page.text.slice(0, 300)}`);
    return hiddenFields(page.text);
  }
}

/** The name and value of each `<input type="hidden">` in `html` (the last one of a name wins). */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [input] of html.matchAll(/<input\b[^>]*>/g)) {
    if (!/\btype="hidden"/.test(input)) continue;
    const name = /\bname="([^"]*)"/.exec(input)?.[1];
    const value = /\bvalue="([^"]*)"/.exec(input)?.[1];
    if (name !== undefined) fields[name] = (value ?? "").replaceAll("&amp;", "&").replaceAll("&quot;", '"');
  }
  return fields;
}

/** A buyer signed in to the portal with the look-up form (e-mail and reference number). */
export async function portalBuyer(origin: string, email: string, referenceNumber: string): Promise<PageClient> {
  const client = new PageClient(origin);
  const { csrf } = await client.hiddenFields("/portal");
  const response = await client.post("/portal?index", new URLSearchParams({ csrf, email, reference: referenceNumber }));
  assert.equal(response.status, 302, `look-up: ${response.text.slice(0, 300)}`);
  return client;
}

/** A new owner of `merchantId` (invited, as an invitation leaves them) and their dashboard sign-in link's token. */
export async function ownerSignInToken(
  db: Database,
  services: Services,
  merchantId: string,
  email: string,
): Promise<string> {
  const [link] = await db.transaction(async (tx) => {
    await insertMember(tx, {
      id: `mem_${email.replace(/\W/g, "")}`,
      merchantId,
      email,
      name: "",
      role: "owner",
      status: "invited",
      invitedBy: null,
      createdAt: Date.now(),
    });
    return requestMemberSignInLinks(tx, services, { email });
  });
  return link.token;
}

/** An owner of `merchantId` in the dashboard, signed in through a sign-in link. */
export async function dashboardOwner(
  origin: string,
  db: Database,
  services: Services,
  merchantId: string,
  email: string,
): Promise<PageClient> {
  const token = await ownerSignInToken(db, services, merchantId, email);
  const client = new PageClient(origin);
  const response = await client.post(`/dashboard/sign-in/${token}`, "");
  assert.equal(response.status, 302, `dashboard sign-in: ${response.text.slice(0, 300)}`);
  return client;
}

/** A claims-console staff member (an admin) signed in through a sign-in link. */
export async function opsAdmin(origin: string, db: Database, services: Services, email: string): Promise<PageClient> {
  const link = await db.transaction(async (tx) =>
    issueSignInLink(tx, services, await ensureStaffAccount(tx, services, { email, role: "admin" }, "test")),
  );
  const client = new PageClient(origin);
  const response = await client.post(`/ops/sign-in/${link.token}`, "");
  assert.equal(response.status, 302, `ops sign-in: ${response.text.slice(0, 300)}`);
  return client;
}

/**
 * Signs a browser page in to the claims console with a sign-in link's POST (what the link page's button sends, without
 * drawing that page: the suites that test it open it), then opens the queue.
 */
export async function signInConsolePage(page: Page, origin: string, token: string): Promise<void> {
  const response = await page.request.post(`${origin}/ops/sign-in/${token}`, {
    form: {},
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  assert.equal(response.status(), 302, `ops sign-in: ${(await response.text()).slice(0, 300)}`);
  await page.goto(`${origin}/ops`);
  await page.waitForSelector("h1:has-text('Claims queue')");
}
