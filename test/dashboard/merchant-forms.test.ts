// The standalone dashboard's forms as a merchant uses them, in Chromium over the process `npm run demo` starts (the
// demo merchant's owner signs in with the link the demo prints): money typed as money ("$129.99" saves 12999, a
// wrong amount is refused next to its field and changes nothing), the claim rules as a form that round-trips, a key
// minted with a label and its once-only secret copied by its Copy button (read back from the clipboard), revoking a
// key / deleting a webhook endpoint / going live only from their confirmation step — and a POST without the
// confirmation (CSRF and all, as a stray script on the page would send it) changes nothing and says why —, the mode
// banner saying "live" right after going live, and claim statuses and reasons in words. axe-core 0 on every page;
// screenshots at 390 and 1280 px under test-artifacts/dashboard/forms-*.
import { describe, it, beforeAll } from "vitest";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { DemoProcess } from "../support/demo-process.ts";
import { demoBrowserSuite } from "../support/demo-browser.ts";

describe("the merchant's forms over `npm run demo` (Chromium)", () => {
  const suite = demoBrowserSuite({
    screenshots: "forms-",
    settings: { WEBHOOK_ALLOW_PRIVATE_URLS: "on" },
    clipboard: true,
  });
  const { row, merchantId, hydrated, load, check } = suite;
  let demo: DemoProcess;
  let page: Page;
  beforeAll(() => {
    ({ demo, page } = suite);
  });

  const program = () =>
    row<{ currency_limits: string; claim_rules: string }>(
      "SELECT currency_limits, claim_rules FROM protection_programs WHERE merchant_id = ? AND mode = 'test' AND active = 1",
      merchantId(),
    );

  /**
   * A POST of the page's own form fields (the session's CSRF value included) with `fields` set, from the page itself:
   * what a stray script or a replayed form sends. Resolves to the status and the answer's text.
   */
  const postFromPage = (pathname: string, fields: Record<string, string>) =>
    page.evaluate(
      async ({ pathname, fields }) => {
        const form = new FormData();
        form.set("csrf", (document.querySelector("input[name=csrf]") as HTMLInputElement).value);
        for (const [name, value] of Object.entries(fields)) form.set(name, value);
        const response = await fetch(`${pathname}?_data=routes/${pathname.slice(1).replace(/\//g, ".")}`, {
          method: "POST",
          body: form,
        });
        return { status: response.status, text: await response.text() };
      },
      { pathname, fields },
    );

  it("signs in from the demo's link; the program's amounts are money and its claim rules a form", async () => {
    const link = demo.output.match(/\/dashboard\/sign-in\/[A-Za-z0-9_-]{43}/)![0];
    await load(link);
    await Promise.all([page.waitForURL(`${demo.origin}/dashboard`), page.click("button:has-text('Sign in')")]);
    await hydrated();

    await load("/dashboard/program");
    assert.ok(await page.isVisible("label:has-text('Minimum fee (USD)')"), "the currency is named");
    assert.equal(await page.locator("text=minor units").count(), 0, "no form asks for minor units");
    assert.equal(await page.locator("textarea[name=claimRules]").count(), 0, "no JSON textarea");
    // Each currency's limits in its own money: yen have no decimals, the Kuwaiti dinar three.
    assert.equal(await page.inputValue("input[name=minFee-USD]"), "$1.00");
    assert.equal(await page.inputValue("input[name=minFee-JPY]"), "¥150");
    assert.equal(await page.inputValue("input[name=minFee-KWD]"), "KWD\u00a00.300");
    assert.equal(await page.inputValue("input[name=maxCovered-KWD]"), "KWD\u00a01,500.000");

    // The preview takes money as typed and answers in money.
    await page.fill("input[name=sample]", "$200");
    await page.click("button:has-text('Preview')");
    await page.waitForSelector("text=An order of $200.00 is offered protection of $200.00 for a fee of");

    // A wrong amount: said next to its field, nothing saved.
    const before = program();
    await page.fill("input[name=maxCovered-USD]", "12.999");
    await page.fill("input[name=minFee-USD]", "lots");
    await page.fill("input[name=minFee-JPY]", "150.5");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("#maxCovered-USDError:has-text('Enter an amount such as $1.00')");
    assert.ok(await page.isVisible("#minFee-USDError:has-text('Enter an amount')"), "each wrong field says so");
    assert.ok(
      await page.isVisible("#minFee-JPYError:has-text('such as ¥100 (whole JPY, no decimals)')"),
      "yen are typed whole",
    );
    assert.equal(await page.inputValue("input[name=minFee-JPY]"), "150.5", "shown again as typed");
    assert.deepEqual(program(), before);
    await check("program-refused");

    // Approval without review has an amount per currency, offered at about $50 in each one's own money.
    await page.fill("input[name=minFee-USD]", "$1.50");
    await page.fill("input[name=maxCovered-USD]", "$129.99");
    await page.fill("input[name=minFee-JPY]", "¥200");
    await page.fill("input[name=minFee-KWD]", "0.350");
    await page.check("input[name=autoApprove]");
    assert.equal(await page.inputValue("input[name=autoApproveMax-USD]"), "$50.00");
    assert.equal(await page.inputValue("input[name=autoApproveMax-JPY]"), "¥7,500");
    assert.equal(await page.inputValue("input[name=autoApproveMax-KWD]"), "KWD\u00a015.000");

    // A wrong amount is refused next to its currency's field, in that currency's decimals, as is approval without a
    // reason; nothing saved, what was typed shown again.
    await page.fill("input[name=autoApproveMax-JPY]", "7500.5");
    await page.fill("input[name=autoApproveMax-KWD]", "lots");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("text=Choose at least one reason, or turn approval without review off.");
    assert.ok(await page.isVisible("#autoApproveMax-JPYError:has-text('(whole JPY, no decimals)')"), "yen whole");
    assert.ok(await page.isVisible("#autoApproveMax-KWDError:has-text('Enter an amount such as KWD')"));
    assert.equal(await page.inputValue("input[name=autoApproveMax-JPY]"), "7500.5", "shown again as typed");
    assert.deepEqual(program(), before);

    // No amount in any currency: approval without review would approve nothing, so it is refused at the first one.
    const autoApproveFields = page.locator("input[name^=autoApproveMax-]");
    for (const input of await autoApproveFields.all()) await input.fill("");
    await page.check("input[name=autoApproveReasons][value=lost_in_transit]");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("#autoApproveMax-USDError:has-text('Enter an amount in at least one currency')");
    assert.deepEqual(program(), before);

    // The rules as chosen, saved as the rules' schema has them, and shown again as saved: each amount in its currency's
    // minor units; a currency left empty (CAD here) has every claim decided by a person.
    await page.fill("input[name=autoApproveMax-USD]", "50");
    await page.fill("input[name=autoApproveMax-EUR]", "€40");
    await page.fill("input[name=autoApproveMax-GBP]", "30.50");
    await page.fill("input[name=autoApproveMax-JPY]", "¥6,000");
    await page.fill("input[name=autoApproveMax-KWD]", "15.500");
    await page.check("input[name=autoApproveReasons][value=lost_in_transit]");
    await page.check("input[name=autoApproveReasons][value=damaged_in_transit]");
    await page.check("input[name=replacementAllowed]");
    await page.selectOption("select[name=autoApproveMaxRisk]", "low");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("text=Saved: offers quoted from now on use these terms.");
    const saved = program();
    const limits = JSON.parse(saved.currency_limits);
    assert.deepEqual(limits.USD, { minFeeCents: 150, maxCoveredCents: 12_999 }, '"$129.99" saves 12999');
    assert.deepEqual(limits.JPY, { minFeeCents: 200, maxCoveredCents: 750_000 }, '"¥200" saves 200');
    assert.deepEqual(limits.KWD, { minFeeCents: 350, maxCoveredCents: 1_500_000 }, '"0.350" saves 350 fils');
    assert.deepEqual(JSON.parse(saved.claim_rules), {
      autoApprove: {
        maxAmountCentsByCurrency: { USD: 5_000, EUR: 4_000, GBP: 3_050, JPY: 6_000, KWD: 15_500 },
        reasons: ["lost_in_transit", "damaged_in_transit"],
        maxRiskLevel: "low",
      },
      replacementAllowed: true,
    });
    await load("/dashboard/program");
    assert.equal(await page.inputValue("input[name=maxCovered-USD]"), "$129.99");
    assert.equal(await page.inputValue("input[name=minFee-KWD]"), "KWD\u00a00.350");
    assert.equal(await page.inputValue("input[name=autoApproveMax-USD]"), "$50.00");
    assert.equal(await page.inputValue("input[name=autoApproveMax-GBP]"), "£30.50");
    assert.equal(await page.inputValue("input[name=autoApproveMax-JPY]"), "¥6,000");
    assert.equal(await page.inputValue("input[name=autoApproveMax-KWD]"), "KWD\u00a015.500");
    assert.equal(await page.inputValue("input[name=autoApproveMax-CAD]"), "", "left to a person");
    assert.ok(await page.isChecked("input[name=autoApproveReasons][value=lost_in_transit]"));
    assert.ok(await page.isChecked("input[name=autoApproveReasons][value=damaged_in_transit]"));
    assert.ok(!(await page.isChecked("input[name=autoApproveReasons][value=missing_items]")));
    assert.ok(await page.isChecked("input[name=replacementAllowed]"));
    assert.equal(await page.inputValue("select[name=autoApproveMaxRisk]"), "low");
    await check("program");

    // Turning auto-approval off saves null; the replacement choice stays.
    await page.uncheck("input[name=autoApprove]");
    await page.click("button:has-text('Save the terms')");
    await page.waitForSelector("text=Saved: offers quoted from now on use these terms.");
    assert.deepEqual(JSON.parse(program().claim_rules), { autoApprove: null, replacementAllowed: true });
  }, 300_000);

  it("mints a labelled key whose Copy button copies it, and revokes a key only from the confirmation step", async () => {
    await load("/dashboard/developers/keys");
    await page.fill("input[name=label]", "Checkout server");
    await page.selectOption("select[name=kind]", "secret");
    await page.selectOption("select[name=mode]", "live");
    await page.click("button:has-text('Mint the key')");
    const secret = await page.inputValue("input[readonly]");
    assert.match(secret, /^mch_live_[A-Za-z0-9]{32}$/);
    const copy = page.getByRole("button", { name: /^Copy new key Checkout server \(mch_live_…/ });
    await copy.click();
    await page.waitForSelector("[role=status]:has-text('Copied.')");
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    assert.equal(await page.inputValue("input[name=label]"), "", "the next key starts unnamed");
    await check("keys-revealed");
    const key = row<{ id: string; label: string }>("SELECT id, label FROM api_keys WHERE last4 = ?", secret.slice(-4));
    assert.equal(key.label, "Checkout server");
    await load("/dashboard/developers/keys");
    const keyRow = page.locator("tr", { hasText: `mch_live_…${secret.slice(-4)}` });
    assert.ok(await keyRow.locator("text=Checkout server").isVisible(), "the list shows the label");

    const revokedAt = () => row<{ revoked_at: number | null }>("SELECT revoked_at FROM api_keys WHERE id = ?", key.id);
    // A POST without the confirmation, from the page (its CSRF value and all): refused, nothing revoked.
    const stray = await postFromPage("/dashboard/developers/keys", { intent: "revoke", keyId: key.id });
    assert.equal(stray.status, 400);
    assert.match(stray.text, /Nothing was revoked\. Confirm it on the page first/);
    assert.equal(revokedAt().revoked_at, null);

    // The first button only asks; Cancel leaves it; "Yes, revoke it" revokes.
    await keyRow.getByRole("button", { name: /^Revoke now: Checkout server/ }).click();
    await page.waitForSelector("text=Every request made with it is refused from this moment");
    assert.equal(revokedAt().revoked_at, null, "asking revokes nothing");
    await check("keys-confirm-revoke");
    await keyRow.getByRole("button", { name: "Cancel" }).click();
    await keyRow.getByRole("button", { name: /^Revoke now/ }).click();
    await keyRow.getByRole("button", { name: "Yes, revoke it" }).click();
    await page.waitForSelector("text=is revoked");
    assert.notEqual(revokedAt().revoked_at, null);
  }, 120_000);

  it("rotates a key with no overlap, and disables a member, only from the confirmation step; a rotation with an overlap posts at once", async () => {
    await load("/dashboard/developers/keys");
    await page.fill("input[name=label]", "Nightly export");
    await page.selectOption("select[name=kind]", "secret");
    await page.selectOption("select[name=mode]", "test");
    await page.click("button:has-text('Mint the key')");
    const secret = await page.inputValue("input[readonly]");
    const key = row<{ id: string }>("SELECT id FROM api_keys WHERE last4 = ?", secret.slice(-4));
    const revokedAt = (id: string) =>
      row<{ revoked_at: number | null }>("SELECT revoked_at FROM api_keys WHERE id = ?", id).revoked_at;
    const keyCount = () => row<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys").n;
    const before = keyCount();
    // Without an overlap the old key stops at once: a POST without the confirmation changes nothing.
    const stray = await postFromPage("/dashboard/developers/keys", {
      intent: "rotate",
      keyId: key.id,
      overlap: "none",
    });
    assert.equal(stray.status, 400);
    assert.match(stray.text, /Nothing was rotated\. Confirm it on the page first/);
    assert.equal(revokedAt(key.id), null);
    assert.equal(keyCount(), before, "no key minted");

    await load("/dashboard/developers/keys");
    const keyRow = page.locator("tr", { hasText: `mch_test_…${secret.slice(-4)}` });
    await keyRow.locator("select[name=overlap]").selectOption("none");
    await keyRow.getByRole("button", { name: /^Rotate Nightly export/ }).click();
    await page.waitForSelector("text=The old key is refused from this moment");
    assert.equal(keyCount(), before, "asking rotates nothing");
    await check("keys-confirm-rotate");
    await keyRow.getByRole("button", { name: "Yes, rotate it now" }).click();
    const successor = await page.waitForSelector("input[readonly]");
    assert.notEqual(await successor.inputValue(), secret);
    assert.notEqual(revokedAt(key.id), null, "the old key stopped at once");

    // With an overlap the old key keeps working: Rotate posts without asking.
    await load("/dashboard/developers/keys");
    const nextSecret = row<{ last4: string }>(
      "SELECT last4 FROM api_keys WHERE label = 'Nightly export' AND revoked_at IS NULL",
    ).last4;
    const nextRow = page.locator("tr", { hasText: `mch_test_…${nextSecret}` });
    await nextRow.locator("select[name=overlap]").selectOption("24h");
    await nextRow.getByRole("button", { name: /^Rotate Nightly export/ }).click();
    await page.waitForSelector("input[readonly]");
    assert.equal(keyCount(), before + 2);

    // A member is disabled only from the step too.
    await load("/dashboard/team");
    const email = `leaving-${Date.now()}@demo.example`;
    await page.fill("input[name=email]", email);
    await page.click("button:has-text('Send the invitation')");
    await page.waitForSelector(`text=${email} is invited`);
    const member = () =>
      row<{ id: string; status: string }>("SELECT id, status FROM merchant_members WHERE email = ?", email);
    const disabled = await postFromPage("/dashboard/team", { intent: "disable", memberId: member().id });
    assert.equal(disabled.status, 400);
    assert.match(disabled.text, /Nobody was disabled\. Confirm it on the page first/);
    assert.notEqual(member().status, "disabled");
    await load("/dashboard/team");
    await page.getByRole("button", { name: `Disable ${email}` }).click();
    await page.waitForSelector("text=this cannot be undone");
    await check("team-confirm-disable");
    await page.getByRole("button", { name: "Yes, disable" }).click();
    await page.waitForSelector(`text=${email} can no longer sign in`);
    assert.equal(member().status, "disabled");
  }, 180_000);

  it("copies a webhook signing secret and deletes an endpoint only from the confirmation step", async () => {
    await load("/dashboard/developers/webhooks");
    await page.fill("input[name=url]", "http://127.0.0.1:9/forms-hooks");
    await page.click("button:has-text('Add the endpoint')");
    const signingSecret = await page.inputValue("input[readonly]");
    assert.match(signingSecret, /^whsec_/);
    await page.getByRole("button", { name: "Copy signing secret of http://127.0.0.1:9/forms-hooks" }).click();
    await page.waitForSelector("[role=status]:has-text('Copied.')");
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), signingSecret);
    await check("webhooks-secret");

    const endpoints = () =>
      (row<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_endpoints WHERE url = ?", "http://127.0.0.1:9/forms-hooks")
        .n as number) + 0;
    const { id } = row<{ id: string }>(
      "SELECT id FROM webhook_endpoints WHERE url = ?",
      "http://127.0.0.1:9/forms-hooks",
    );
    const stray = await postFromPage("/dashboard/developers/webhooks", { intent: "delete", endpointId: id });
    assert.equal(stray.status, 400);
    assert.match(stray.text, /Nothing was deleted/);
    assert.equal(endpoints(), 1);

    await page.getByRole("button", { name: "Delete http://127.0.0.1:9/forms-hooks" }).click();
    await page.waitForSelector(
      "text=Nothing more is sent to it, and its deliveries log and signing secret go with it.",
    );
    assert.equal(endpoints(), 1, "asking deletes nothing");
    await check("webhooks-confirm-delete");
    await page.getByRole("button", { name: "Yes, delete it" }).click();
    await page.waitForSelector("text=The endpoint is deleted");
    assert.equal(endpoints(), 0);
  }, 120_000);

  it("shows claim statuses and reasons in words", async () => {
    await load("/dashboard/claims");
    await page.waitForSelector("h1:has-text('Claims')");
    const table = await page.locator("table").innerText();
    assert.doesNotMatch(table, /_/, "no code with underscores");
    assert.match(table, /Damaged in transit|Lost in transit|Arrived defective|Missing items/);
    assert.match(table, /Waiting for review|Being reviewed|Waiting for the buyer|Approved|Paid|Denied/);
    await check("claims");
    await page.locator("table a").first().click();
    await page.waitForSelector("h2:has-text('Timeline')");
    await hydrated();
    assert.doesNotMatch(await page.locator("main").innerText(), /needs_information|under_review|status_changed/);
  }, 60_000);

  it("goes live only from the confirmation step, and the mode banner says live at once", async () => {
    // The checklist: a live publishable key (the live secret key was minted above) and the allowed origins.
    await load("/dashboard/developers/keys");
    await page.selectOption("select[name=kind]", "secret");
    await page.selectOption("select[name=mode]", "live");
    await page.click("button:has-text('Mint the key')");
    await page.waitForSelector("input[readonly]");
    await page.selectOption("select[name=kind]", "publishable");
    await page.selectOption("select[name=mode]", "live");
    await page.click("button:has-text('Mint the key')");
    await page.waitForSelector("label:has-text('New key wk_live_')");
    await load("/dashboard/go-live");
    await page.fill("textarea[name=origins]", "https://shop.example.com");
    await page.click("button:has-text('Save origins')");
    await page.waitForSelector("text=Allowed origins saved.");
    const liveAt = () => row<{ live_at: number | null }>("SELECT live_at FROM merchants WHERE id = ?", merchantId());

    const stray = await postFromPage("/dashboard/go-live", { intent: "go-live", confirmationEmail: "yes" });
    assert.equal(stray.status, 400);
    assert.match(stray.text, /You are not live yet\. Confirm it on the page first/);
    assert.equal(liveAt().live_at, null);

    assert.ok(await page.isVisible("text=You are looking at test data"));
    await page.check("input[name=confirmationEmail]");
    await page.getByRole("button", { name: "Go live", exact: true }).click();
    await page.waitForSelector("text=This cannot be undone.");
    assert.equal(liveAt().live_at, null, "asking is not going live");
    await check("go-live-confirm");
    await page.getByRole("button", { name: "Yes, go live" }).click();
    await page.waitForSelector("text=You are live.");
    // No reload: the banner of the same page view follows the mode.
    await page.waitForSelector("text=You are looking at live data: real purchases and real money.");
    assert.equal(await page.locator("text=You are looking at test data").count(), 0);
    assert.notEqual(liveAt().live_at, null);
    await check("go-live-done");
  }, 120_000);
});
